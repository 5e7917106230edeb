// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QLabel;
class QTableView;

namespace wb::ui {

class BufferTableModel;
class ScalarTableModel;
class SessionDocument;

/// Buffers and scalars of the session: add, edit, duplicate, remove, with validation as you
/// type; the memory the buffers need and the device memory Warpbench holds. Double-click (F2,
/// typing) edits a cell; View, or View in Buffer Viewer in a row's context menu, asks for the
/// buffer to be shown in the viewer. "From Signature" asks for the buffers and scalars the
/// kernel's parameters need.
class BufferPanel : public QWidget {
    Q_OBJECT
public:
    explicit BufferPanel(SessionDocument* document, QWidget* parent = nullptr);

    BufferTableModel* bufferModel() const noexcept { return m_buffers; }
    ScalarTableModel* scalarModel() const noexcept { return m_scalars; }
    QTableView* bufferTable() const noexcept { return m_bufferView; }
    QTableView* scalarTable() const noexcept { return m_scalarView; }
    /// Refreshes the memory line (after runs: the device memory in use changes).
    void updateMemory();

Q_SIGNALS:
    void bufferActivated(const QString& name);
    /// The "From Signature" button: create the buffers and scalars from the kernel's signature.
    void createFromSignatureRequested();

private:
    SessionDocument* m_doc;
    BufferTableModel* m_buffers = nullptr;
    ScalarTableModel* m_scalars = nullptr;
    QTableView* m_bufferView = nullptr;
    QTableView* m_scalarView = nullptr;
    QLabel* m_memory = nullptr;
};

} // namespace wb::ui
