// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QAbstractTableModel>

namespace wb::ui {

class SessionDocument;

/// The session's buffers as an editable table. Edits go through the document; a value that
/// does not validate is refused, and cells whose expressions no longer evaluate (a scalar was
/// renamed) are shown in red with the reason.
class BufferTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        TypeColumn,
        ShapeColumn,
        RoleColumn,
        InitColumn,
        SizeColumn,
        ColumnCount
    };

    explicit BufferTableModel(SessionDocument* document, QObject* parent = nullptr);

    /// Why `text` is not acceptable for (row, column); empty when it is. Used while typing.
    QString validate(int row, int column, const QString& text) const;

    /// Adds a buffer with a fresh name; returns its row.
    int addBuffer();
    int duplicateBuffer(int row);
    void removeBuffer(int row);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QString cellError(int row, int column) const;
    SessionDocument* m_doc;
};

} // namespace wb::ui
