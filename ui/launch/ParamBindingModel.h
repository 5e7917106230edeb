// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/KernelInfo.h"

#include <QAbstractTableModel>

#include <vector>

namespace wb::ui {

class SessionDocument;

/// The chosen kernel's parameters and what feeds each one, checked live: pointer parameters
/// need a buffer of the pointee's element type, value parameters a scalar of the same type.
/// Editing "Bound to" writes the session's launch bindings.
class ParamBindingModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { ParamColumn, TypeColumn, BoundColumn, CheckColumn, ColumnCount };

    explicit ParamBindingModel(SessionDocument* document, QObject* parent = nullptr);

    void setKernel(const KernelInfo* kernel);
    const std::vector<KernelParam>& params() const noexcept { return m_params; }
    /// What parameter `row` is bound to (explicit binding, else its own name).
    QString boundTo(int row) const;
    /// Empty when the binding is right; else why not.
    QString check(int row) const;
    /// Names that may feed `row`: buffers for pointers, scalars for values.
    QStringList candidates(int row) const;
    bool allValid() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    /// Re-checks every row (buffers or scalars changed).
    void refresh();

private:
    SessionDocument* m_doc;
    std::vector<KernelParam> m_params;
};

} // namespace wb::ui
