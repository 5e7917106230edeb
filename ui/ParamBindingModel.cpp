// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/ParamBindingModel.h"

#include "ui/SessionDocument.h"

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
            part == SessionDocument::Part::Launch)
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
    const KernelParam& p = m_params[static_cast<std::size_t>(row)];
    const std::string target = boundTo(row).toStdString();
    const session::Session& s = m_doc->session();
    if (p.isPointer) {
        const session::BufferSpec* b = s.findBuffer(target);
        if (!b) {
            if (s.findScalar(target))
                return tr("%1 is a pointer but %2 is a scalar")
                    .arg(QString::fromStdString(p.type), QString::fromStdString(target));
            return tr("no buffer called %1").arg(QString::fromStdString(target));
        }
        if (const auto t = session::elementTypeOfCType(p.pointee); t && *t != b->type)
            return tr("%1 is %2 but buffer %3 is %4")
                .arg(QString::fromStdString(p.name), QString::fromStdString(p.type),
                     QString::fromStdString(target),
                     QString::fromUtf8(session::elementTypeName(b->type)));
        if (p.isConst && b->role != session::BufferRole::In)
            return {}; // reading an output is allowed; just unusual
        return {};
    }
    const session::ScalarSpec* sc = s.findScalar(target);
    if (!sc) {
        if (s.findBuffer(target))
            return tr("%1 is a value but %2 is a buffer")
                .arg(QString::fromStdString(p.type), QString::fromStdString(target));
        return tr("no scalar called %1").arg(QString::fromStdString(target));
    }
    if (const auto t = session::elementTypeOfCType(p.type); t && *t != sc->type)
        return tr("%1 is %2 but scalar %3 is %4")
            .arg(QString::fromStdString(p.name), QString::fromStdString(p.type),
                 QString::fromStdString(target),
                 QString::fromUtf8(session::elementTypeName(sc->type)));
    if (p.size != 0 && p.size != session::elementSize(sc->type))
        return tr("%1 takes %2 bytes but scalar %3 has %4")
            .arg(QString::fromStdString(p.name))
            .arg(p.size)
            .arg(QString::fromStdString(target))
            .arg(session::elementSize(sc->type));
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
