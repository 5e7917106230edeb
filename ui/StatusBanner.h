// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFrame>

class QLabel;

namespace wb::ui {

/// A coloured strip above the editor for what the user must know now: no GPU ("running on the
/// CPU emulator"), no NVRTC, no host compiler — each saying what to install. Several messages
/// stack; the strip can be dismissed.
class StatusBanner : public QFrame {
    Q_OBJECT
public:
    enum class Level { Info, Warning, Error };
    explicit StatusBanner(QWidget* parent = nullptr);

    void setMessages(const QList<QPair<Level, QString>>& messages);
    QString text() const;

private:
    QLabel* m_label = nullptr;
};

} // namespace wb::ui
