// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/buffers/ScalarTableModel.h"

#include "core/common/Error.h"
#include "core/session/StructScalar.h"
#include "ui/common/SessionDocument.h"
#include "ui/common/SessionEval.h"

#include <QBrush>
#include <QColor>
#include <QRegularExpression>

namespace wb::ui {

ScalarTableModel::ScalarTableModel(SessionDocument* document, QObject* parent)
    : QAbstractTableModel(parent)
    , m_doc(document)
{
    connect(m_doc, &SessionDocument::sessionReplaced, this, [this]() {
        beginResetModel();
        endResetModel();
    });
    // Scalars added or removed outside the table (Create Buffers from Signature).
    connect(m_doc, &SessionDocument::edited, this, [this](SessionDocument::Part part) {
        if (part != SessionDocument::Part::All) return;
        beginResetModel();
        endResetModel();
    });
}

int ScalarTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_doc->session().scalars.size());
}

int ScalarTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ScalarTableModel::validate(int row, int column, const QString& text) const
{
    const auto& scalars = m_doc->session().scalars;
    switch (column) {
    case NameColumn: {
        static const QRegularExpression re(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
        if (!re.match(text).hasMatch()) return tr("a name is a C identifier");
        for (std::size_t i = 0; i < scalars.size(); ++i)
            if (static_cast<int>(i) != row && scalars[i].name == text.toStdString())
                return tr("another scalar is already called %1").arg(text);
        if (m_doc->session().findBuffer(text.toStdString()))
            return tr("a buffer is already called %1").arg(text);
        if (m_doc->session().findGlobal(text.toStdString()))
            return tr("a module global is already called %1").arg(text);
        return {};
    }
    case TypeColumn:
        return text == QLatin1String("struct") || session::parseElementType(text.toStdString())
                   ? QString()
                   : tr("unknown element type %1").arg(text);
    case ValueColumn: {
        // Only the scalars above this one are visible to its expression.
        session::Session probe = m_doc->session();
        if (row >= 0 && row < static_cast<int>(probe.scalars.size()))
            probe.scalars.resize(static_cast<std::size_t>(row));
        SessionEval eval(probe);
        session::ScalarSpec spec;
        if (row >= 0 && row < static_cast<int>(m_doc->session().scalars.size()))
            spec = m_doc->session().scalars[static_cast<std::size_t>(row)];
        spec.value = text.toStdString();
        if (spec.isStruct()) {
            // A struct is edited as text: {f32 a = 2; f32 b = 0.5; i32 n = n}.
            std::string why;
            const auto members = session::StructScalar::parse(spec.value, &why);
            if (!members) return QString::fromStdString(why);
            spec.members = *members;
        }
        try {
            // Checked as a run checks it: exactly for integer types, and in range.
            session::Expression expr = eval.expression();
            expr.defineScalar(spec, "value");
        } catch (const Error& e) {
            return QString::fromUtf8(e.what());
        }
        return {};
    }
    default:
        return {};
    }
}

QVariant ScalarTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid()) return {};
    const auto& s = m_doc->session().scalars[static_cast<std::size_t>(index.row())];
    if (role == Qt::DisplayRole || role == Qt::EditRole) {
        switch (index.column()) {
        case NameColumn:
            return QString::fromStdString(s.name);
        case TypeColumn:
            return s.isStruct() ? QStringLiteral("struct")
                                : QString::fromUtf8(session::elementTypeName(s.type));
        case ValueColumn:
            return QString::fromStdString(s.isStruct() ? session::StructScalar::valueText(s.members)
                                                       : s.value);
        case EvaluatedColumn: {
            if (s.isStruct())
                return tr("%1 bytes").arg(session::StructScalar::layout(s.members).size);
            const SessionEval eval(m_doc->session());
            const auto v = eval.scalarValue(s.name);
            return v ? QString::number(*v, 'g', 10) : QStringLiteral("?");
        }
        default:
            return {};
        }
    }
    if (index.column() == EvaluatedColumn || index.column() == ValueColumn) {
        const QString error = SessionEval(m_doc->session()).scalarError(s.name);
        if (role == Qt::ToolTipRole && !error.isEmpty()) return error;
        if (role == Qt::ForegroundRole && !error.isEmpty()) return QBrush(QColor(0xd0342c));
    }
    return {};
}

bool ScalarTableModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!index.isValid() || role != Qt::EditRole) return false;
    const QString text = value.toString().trimmed();
    if (!validate(index.row(), index.column(), text).isEmpty()) return false;
    const auto row = static_cast<std::size_t>(index.row());
    m_doc->edit(SessionDocument::Part::Scalars, [&](session::Session& s) {
        session::ScalarSpec& sc = s.scalars[row];
        switch (index.column()) {
        case NameColumn: {
            const std::string old = sc.name;
            sc.name = text.toStdString();
            for (auto& [param, target] : s.launch.bindings)
                if (target == old) target = sc.name;
            for (session::PipelineLaunch& p : s.launches)
                for (auto& [param, target] : p.launch.bindings)
                    if (target == old) target = sc.name;
            break;
        }
        case TypeColumn:
            if (text == QLatin1String("struct")) {
                // The value so far becomes the struct's one member, to be edited from there.
                if (!sc.isStruct())
                    sc.members = {session::StructMember{"value", sc.type, sc.value}};
            } else {
                if (sc.isStruct()) {
                    sc.value = sc.members.front().value;
                    sc.members.clear();
                }
                sc.type = *session::parseElementType(text.toStdString());
            }
            break;
        case ValueColumn:
            if (sc.isStruct())
                sc.members = *session::StructScalar::parse(text.toStdString());
            else
                sc.value = text.toStdString();
            break;
        default:
            break;
        }
    });
    Q_EMIT dataChanged(this->index(0, 0), this->index(rowCount() - 1, ColumnCount - 1));
    return true;
}

Qt::ItemFlags ScalarTableModel::flags(const QModelIndex& index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && index.column() != EvaluatedColumn) f |= Qt::ItemIsEditable;
    return f;
}

QVariant ScalarTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case TypeColumn:
        return tr("Type");
    case ValueColumn:
        return tr("Value");
    case EvaluatedColumn:
        return tr("=");
    default:
        return {};
    }
}

int ScalarTableModel::addScalar()
{
    std::string name;
    for (int k = 0;; ++k) {
        // Built rather than assigned from a one-character literal: GCC 12 -O3 reports a false
        // -Wrestrict on that assignment.
        name.clear();
        name.push_back('N');
        if (k > 0) name.append(std::to_string(k));
        if (!m_doc->session().findScalar(name) && !m_doc->session().findBuffer(name) &&
            !m_doc->session().findGlobal(name))
            break;
    }
    const int row = rowCount();
    beginInsertRows({}, row, row);
    m_doc->edit(SessionDocument::Part::Scalars, [&](session::Session& s) {
        s.scalars.push_back({name, session::ElementType::I32, "1"});
    });
    endInsertRows();
    return row;
}

void ScalarTableModel::removeScalar(int row)
{
    if (row < 0 || row >= rowCount()) return;
    beginRemoveRows({}, row, row);
    m_doc->edit(SessionDocument::Part::Scalars,
                [&](session::Session& s) { s.scalars.erase(s.scalars.begin() + row); });
    endRemoveRows();
}

} // namespace wb::ui
