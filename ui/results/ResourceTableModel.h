// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/KernelInfo.h"

#include <QAbstractTableModel>

#include <vector>

namespace wb::ui {

/// Registers, spills, stack and memory of every kernel of the last compile (ptxas's report).
class ResourceTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        KernelColumn,
        RegistersColumn,
        SpillStoresColumn,
        SpillLoadsColumn,
        StackColumn,
        SharedColumn,
        ConstColumn,
        BarriersColumn,
        ColumnCount
    };

    using QAbstractTableModel::QAbstractTableModel;
    void setKernels(std::vector<KernelInfo> kernels);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<KernelInfo> m_kernels;
};

} // namespace wb::ui
