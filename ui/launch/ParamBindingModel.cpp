// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/launch/ParamBindingModel.h"

#include "core/common/Error.h"
#include "core/session/Binding.h"
#include "ui/common/SessionDocument.h"

#include <QBrush>
#include <QColor>
#include <QIcon>

namespace wb::ui {

ParamBindingModel::ParamBindingModel(SessionDocument* document, QObject* parent)
    : QAbstractTableModel(parent)
    , m_doc(document)
{
    connect(m_doc, &SessionDocument::edited, this, [this](SessionDocument::Part part) {
        if (part == SessionDocument::Part::Buffers || part == SessionDocument::Part::Scalars ||
            part == SessionDocument::Part::Launch || part == SessionDocument::Part::All)
            refresh();
    });
    connect(m_doc, &SessionDocument::sessionReplaced, this, &ParamBindingModel::refresh);
}

void ParamBindingModel::setKernel(const KernelInfo* kernel)
{
    std::vector<KernelParam> params = kernel ? kernel->params : std::vector<KernelParam>{};
    if (params == m_params) {
        refresh();
        return;
    }
    beginResetModel();
    m_params = std::move(params);
    endResetModel();
}

void ParamBindingModel::refresh()
{
    if (!m_params.empty()) Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

QString ParamBindingModel::boundTo(int row) const
{
    const KernelParam& p = m_params[static_cast<std::size_t>(row)];
    const auto& bindings = m_doc->session().launch.bindings;
    auto it = bindings.find(p.name);
    return QString::fromStdString(it != bindings.end() ? it->second : p.name);
}

QStringList ParamBindingModel::candidates(int row) const
{
    QStringList names;
    const KernelParam& p = m_params[static_cast<std::size_t>(row)];
    if (p.isPointer)
        for (const auto& b : m_doc->session().buffers)
            names << QString::fromStdString(b.name);
    else
        for (const auto& s : m_doc->session().scalars)
            names << QString::fromStdString(s.name);
    return names;
}

QString ParamBindingModel::check(int row) const
{
    // The run's own check (Binding), for this one parameter.
    const KernelParam& p = m_params[static_cast<std::size_t>(row)];
    try {
        session::Binding::bind({p}, m_doc->session(), {{p.name, boundTo(row).toStdString()}},
                               "kernel");
    } catch (const Error& e) {
        const std::string msg = e.what();
        const std::string prefix = "kernel: ";
        return QString::fromStdString(msg.rfind(prefix, 0) == 0 ? msg.substr(prefix.size()) : msg);
    }
    return {};
}

bool ParamBindingModel::allValid() const
{
    for (int r = 0; r < rowCount(); ++r)
        if (!check(r).isEmpty()) return false;
    return true;
}

int ParamBindingModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_params.size());
}

int ParamBindingModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ParamBindingModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid()) return {};
    const KernelParam& p = m_params[static_cast<std::size_t>(index.row())];
    if (role == Qt::DisplayRole || role == Qt::EditRole) {
        switch (index.column()) {
        case ParamColumn:
            return QString::fromStdString(p.name);
        case TypeColumn:
            return QString::fromStdString(p.type);
        case BoundColumn:
            return boundTo(index.row());
        case CheckColumn: {
            const QString error = check(index.row());
            return error.isEmpty() ? QStringLiteral("✓") : QStringLiteral("✗ ") + error;
        }
        default:
            return {};
        }
    }
    if (index.column() == CheckColumn) {
        const QString error = check(index.row());
        if (role == Qt::ForegroundRole)
            return QBrush(error.isEmpty() ? QColor(0x2e9e44) : QColor(0xd0342c));
        if (role == Qt::ToolTipRole) return error.isEmpty() ? tr("type checks") : error;
    }
    return {};
}

bool ParamBindingModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!index.isValid() || role != Qt::EditRole || index.column() != BoundColumn) return false;
    const std::string param = m_params[static_cast<std::size_t>(index.row())].name;
    const std::string target = value.toString().trimmed().toStdString();
    m_doc->edit(SessionDocument::Part::Launch, [&](session::Session& s) {
        if (target == param || target.empty())
            s.launch.bindings.erase(param);
        else
            s.launch.bindings[param] = target;
    });
    return true;
}

Qt::ItemFlags ParamBindingModel::flags(const QModelIndex& index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && index.column() == BoundColumn) f |= Qt::ItemIsEditable;
    return f;
}

QVariant ParamBindingModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case ParamColumn:
        return tr("Param");
    case TypeColumn:
        return tr("Type");
    case BoundColumn:
        return tr("Bound to");
    case CheckColumn:
        return tr("Check");
    default:
        return {};
    }
}

} // namespace wb::ui
