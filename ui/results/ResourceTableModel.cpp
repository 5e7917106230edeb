// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results/ResourceTableModel.h"

#include <QBrush>
#include <QColor>

namespace wb::ui {

void ResourceTableModel::setKernels(std::vector<KernelInfo> kernels)
{
    beginResetModel();
    m_kernels = std::move(kernels);
    endResetModel();
}

int ResourceTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_kernels.size());
}

int ResourceTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ResourceTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid()) return {};
    const KernelInfo& k = m_kernels[static_cast<std::size_t>(index.row())];
    const ResourceUsage& r = k.resources;
    if (role == Qt::DisplayRole) {
        if (index.column() == KernelColumn) return QString::fromStdString(k.name);
        if (!r.known) return QStringLiteral("—");
        switch (index.column()) {
        case RegistersColumn:
            return r.registers;
        case SpillStoresColumn:
            return QStringLiteral("%1 B").arg(r.spillStoreBytes);
        case SpillLoadsColumn:
            return QStringLiteral("%1 B").arg(r.spillLoadBytes);
        case StackColumn:
            return QStringLiteral("%1 B").arg(r.stackFrameBytes);
        case SharedColumn:
            return QStringLiteral("%1 B").arg(r.sharedBytes);
        case ConstColumn:
            return QStringLiteral("%1 B").arg(r.constBytes);
        case BarriersColumn:
            return r.barriers;
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case KernelColumn:
            return QString::fromStdString(k.signature);
        case RegistersColumn:
            return tr("Registers per thread: more registers, fewer resident warps");
        case SpillStoresColumn:
        case SpillLoadsColumn:
            return tr("Register spills to local memory (slow): non-zero is worth a look");
        case StackColumn:
            return tr("Per-thread stack frame in local memory");
        case SharedColumn:
            return tr("Static shared memory per block (dynamic shared memory comes on top)");
        case ConstColumn:
            return tr("Constant memory used");
        case BarriersColumn:
            return tr("Named barriers used");
        default:
            return r.known ? QVariant() : tr("ptxas did not run (compute_XX target): no report");
        }
    }
    if (role == Qt::ForegroundRole && r.known &&
        (index.column() == SpillStoresColumn || index.column() == SpillLoadsColumn) &&
        (r.spillStoreBytes > 0 || r.spillLoadBytes > 0))
        return QBrush(QColor(0xd0342c));
    return {};
}

QVariant ResourceTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case KernelColumn:
        return tr("Kernel");
    case RegistersColumn:
        return tr("Registers");
    case SpillStoresColumn:
        return tr("Spill stores");
    case SpillLoadsColumn:
        return tr("Spill loads");
    case StackColumn:
        return tr("Stack");
    case SharedColumn:
        return tr("Shared (static)");
    case ConstColumn:
        return tr("Constant");
    case BarriersColumn:
        return tr("Barriers");
    default:
        return {};
    }
}

} // namespace wb::ui
