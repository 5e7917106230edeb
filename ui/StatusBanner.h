// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFrame>

class QLabel;

namespace wb::ui {

/// A coloured strip above the editor for what the user must know now: no GPU ("running on the
/// CPU emulator"), no NVRTC, no host compiler — each saying what to install. Several messages
/// stack; the strip can be dismissed. Its text wraps within the width it gets and never
/// widens the window; compact (Presentation Mode) it shows each message's bold headline only,
/// the whole text on hover.
class StatusBanner : public QFrame {
    Q_OBJECT
public:
    enum class Level { Info, Warning, Error };
    explicit StatusBanner(QWidget* parent = nullptr);

    void setMessages(const QList<QPair<Level, QString>>& messages);
    /// The whole text (also while compact).
    QString text() const;
    /// The text shown now.
    QString shownText() const;
    bool isCompact() const noexcept { return m_compact; }

public Q_SLOTS:
    /// Headlines only (called by PresentationMode through the meta-object).
    void setCompact(bool compact);

protected:
    /// The style sheet (colours) stops font inheritance: pass the font on (Presentation Mode).
    void changeEvent(QEvent* event) override;

private:
    void updateText();

    QLabel* m_label = nullptr;
    QString m_full;
    QString m_headlines;
    bool m_compact = false;
};

} // namespace wb::ui
