// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QStringList>

class QLabel;
class QWidget;

namespace wb::ui {

class Autosave;
class SessionDocument;

/// Crash recovery: the autosave's snapshot of the session (an example's copy goes back to the
/// shipped example's folder), and the bar above the editor that offers what a process that
/// died left behind (Restore / Discard).
class Recovery : public QObject {
    Q_OBJECT
public:
    /// The bar is created under `barParent` (hidden until offer()).
    Recovery(SessionDocument* document, Autosave* autosave, QWidget* barParent);

    QWidget* bar() const noexcept { return m_bar; }
    /// Snapshots left by a process that died: offers the newest in the bar; their number.
    int offer();
    /// Loads snapshot `content` into the document (marked modified).
    bool restore(const QByteArray& content);
    /// The bar's text while it is shown, else empty.
    QString text() const;
    /// What the autosave writes.
    QByteArray snapshot() const;

Q_SIGNALS:
    void logged(const QString& line);

private:
    SessionDocument* m_doc;
    Autosave* m_autosave;
    QWidget* m_bar;
    QLabel* m_label;
    QList<QByteArray> m_pending;
    QStringList m_pendingPaths;
};

} // namespace wb::ui
