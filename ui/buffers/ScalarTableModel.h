// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QAbstractTableModel>

namespace wb::ui {

class SessionDocument;

/// The session's scalars (kernel value parameters and the variables of every expression) as
/// an editable table with the evaluated value beside the expression.
class ScalarTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { NameColumn, TypeColumn, ValueColumn, EvaluatedColumn, ColumnCount };

    explicit ScalarTableModel(SessionDocument* document, QObject* parent = nullptr);

    QString validate(int row, int column, const QString& text) const;
    int addScalar();
    void removeScalar(int row);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    SessionDocument* m_doc;
};

} // namespace wb::ui
