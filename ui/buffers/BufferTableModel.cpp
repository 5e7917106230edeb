// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/buffers/BufferTableModel.h"

#include "ui/buffers/InitialiserText.h"
#include "ui/common/SessionDocument.h"
#include "ui/common/SessionEval.h"

#include <QBrush>
#include <QColor>
#include <QLocale>
#include <QRegularExpression>

namespace wb::ui {

namespace {

const QRegularExpression& identifier()
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    return re;
}

std::vector<std::string> splitShape(const QString& text)
{
    std::vector<std::string> out;
    for (const QString& part : text.split(u',', Qt::SkipEmptyParts)) {
        const QString t = part.trimmed();
        if (!t.isEmpty()) out.push_back(t.toStdString());
    }
    return out;
}

QString joinShape(const std::vector<std::string>& shape)
{
    QStringList parts;
    for (const std::string& s : shape)
        parts << QString::fromStdString(s);
    return parts.join(QStringLiteral(", "));
}

std::optional<session::BufferRole> parseRole(const QString& text)
{
    if (text == u"in") return session::BufferRole::In;
    if (text == u"out") return session::BufferRole::Out;
    if (text == u"inout") return session::BufferRole::InOut;
    return std::nullopt;
}

} // namespace

BufferTableModel::BufferTableModel(SessionDocument* document, QObject* parent)
    : QAbstractTableModel(parent)
    , m_doc(document)
{
    connect(m_doc, &SessionDocument::sessionReplaced, this, [this]() {
        beginResetModel();
        endResetModel();
    });
    connect(m_doc, &SessionDocument::edited, this, [this](SessionDocument::Part part) {
        // Scalars feed the shapes: re-evaluate sizes and errors.
        if (part == SessionDocument::Part::Scalars && rowCount() > 0)
            Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        // Buffers added or removed outside the table (Create Buffers from Signature).
        if (part == SessionDocument::Part::All) {
            beginResetModel();
            endResetModel();
        }
    });
}

int BufferTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_doc->session().buffers.size());
}

int BufferTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString BufferTableModel::validate(int row, int column, const QString& text) const
{
    const auto& buffers = m_doc->session().buffers;
    switch (column) {
    case NameColumn: {
        if (!identifier().match(text).hasMatch())
            return tr("a name is a C identifier (letters, digits, _; not starting with a digit)");
        for (std::size_t i = 0; i < buffers.size(); ++i)
            if (static_cast<int>(i) != row && buffers[i].name == text.toStdString())
                return tr("another buffer is already called %1").arg(text);
        if (m_doc->session().findScalar(text.toStdString()))
            return tr("a scalar is already called %1").arg(text);
        if (m_doc->session().findGlobal(text.toStdString()))
            return tr("a module global is already called %1").arg(text);
        return {};
    }
    case TypeColumn:
        return session::parseElementType(text.toStdString())
                   ? QString()
                   : tr("unknown element type %1").arg(text);
    case ShapeColumn: {
        session::BufferSpec probe;
        probe.name = row >= 0 && row < static_cast<int>(buffers.size())
                         ? buffers[static_cast<std::size_t>(row)].name
                         : std::string("buffer");
        probe.shape = splitShape(text);
        QString error;
        SessionEval eval(m_doc->session());
        if (!eval.shape(probe, &error)) return error;
        return {};
    }
    case RoleColumn:
        return parseRole(text) ? QString() : tr("role is in, out or inout");
    case InitColumn: {
        QString error;
        if (!InitialiserText::parse(text, &error)) return error;
        return {};
    }
    default:
        return {};
    }
}

QString BufferTableModel::cellError(int row, int column) const
{
    const auto& b = m_doc->session().buffers[static_cast<std::size_t>(row)];
    if (column == ShapeColumn || column == SizeColumn) {
        QString error;
        if (!SessionEval(m_doc->session()).shape(b, &error)) return error;
    }
    return {};
}

QVariant BufferTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid()) return {};
    const auto& b = m_doc->session().buffers[static_cast<std::size_t>(index.row())];
    if (role == Qt::DisplayRole || role == Qt::EditRole) {
        switch (index.column()) {
        case NameColumn:
            return QString::fromStdString(b.name);
        case TypeColumn:
            return QString::fromUtf8(session::elementTypeName(b.type));
        case ShapeColumn:
            return joinShape(b.shape);
        case RoleColumn:
            return QString::fromUtf8(session::bufferRoleName(b.role));
        case InitColumn:
            return b.role == session::BufferRole::Out && role == Qt::DisplayRole &&
                           b.init.kind == session::Initialiser::Kind::Zeros
                       ? QStringLiteral("—")
                       : InitialiserText::format(b.init);
        case SizeColumn: {
            const auto shape = SessionEval(m_doc->session()).shape(b, nullptr);
            if (!shape) return QStringLiteral("?");
            std::uint64_t n = session::elementSize(b.type);
            for (std::size_t e : *shape)
                n *= e;
            return QLocale().formattedDataSize(static_cast<qint64>(n), 1,
                                               QLocale::DataSizeSIFormat);
        }
        default:
            return {};
        }
    }
    if (role == Qt::ForegroundRole && !cellError(index.row(), index.column()).isEmpty())
        return QBrush(QColor(0xd0342c));
    if (role == Qt::ToolTipRole) {
        const QString error = cellError(index.row(), index.column());
        if (!error.isEmpty()) return error;
        if (index.column() == InitColumn)
            return tr("zeros · constant V · iota START STEP · linspace START STOP · "
                      "uniform LOW HIGH seed=N · normal MEAN SD seed=N · npy PATH · bin PATH · "
                      "image PATH grey|rgb|rgba");
        if (index.column() == ShapeColumn)
            return tr("1–3 extents separated by commas; expressions over scalars (N*N, ceil(N/2))");
    }
    return {};
}

bool BufferTableModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!index.isValid() || role != Qt::EditRole) return false;
    const QString text = value.toString().trimmed();
    if (!validate(index.row(), index.column(), text).isEmpty()) return false;
    const auto row = static_cast<std::size_t>(index.row());
    const std::string oldName = m_doc->session().buffers[row].name;
    m_doc->edit(SessionDocument::Part::Buffers, [&](session::Session& s) {
        session::BufferSpec& b = s.buffers[row];
        switch (index.column()) {
        case NameColumn: {
            b.name = text.toStdString();
            // Keep explicit bindings pointing at the renamed buffer.
            for (auto& [param, target] : s.launch.bindings)
                if (target == oldName) target = b.name;
            break;
        }
        case TypeColumn:
            b.type = *session::parseElementType(text.toStdString());
            break;
        case ShapeColumn:
            b.shape = splitShape(text);
            break;
        case RoleColumn:
            b.role = *parseRole(text);
            break;
        case InitColumn: {
            QString error;
            b.init = *InitialiserText::parse(text, &error);
            break;
        }
        default:
            break;
        }
    });
    Q_EMIT dataChanged(this->index(index.row(), 0), this->index(index.row(), ColumnCount - 1));
    return true;
}

Qt::ItemFlags BufferTableModel::flags(const QModelIndex& index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && index.column() != SizeColumn) f |= Qt::ItemIsEditable;
    return f;
}

QVariant BufferTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case TypeColumn:
        return tr("Type");
    case ShapeColumn:
        return tr("Shape");
    case RoleColumn:
        return tr("Role");
    case InitColumn:
        return tr("Initialiser");
    case SizeColumn:
        return tr("Size");
    default:
        return {};
    }
}

int BufferTableModel::addBuffer()
{
    const auto& buffers = m_doc->session().buffers;
    std::string name;
    for (int k = static_cast<int>(buffers.size());; ++k) {
        name = "buf" + std::to_string(k);
        if (!m_doc->session().findBuffer(name) && !m_doc->session().findScalar(name) &&
            !m_doc->session().findGlobal(name))
            break;
    }
    const int row = rowCount();
    beginInsertRows({}, row, row);
    m_doc->edit(SessionDocument::Part::Buffers, [&](session::Session& s) {
        session::BufferSpec b;
        b.name = name;
        b.shape = {buffers.empty() ? std::string("256") : buffers.back().shape.front()};
        s.buffers.push_back(b);
    });
    endInsertRows();
    return row;
}

int BufferTableModel::duplicateBuffer(int row)
{
    if (row < 0 || row >= rowCount()) return -1;
    session::BufferSpec copy = m_doc->session().buffers[static_cast<std::size_t>(row)];
    std::string base = copy.name + "_copy";
    copy.name = base;
    const session::Session& current = m_doc->session();
    for (int k = 2; current.findBuffer(copy.name) || current.findScalar(copy.name) ||
                    current.findGlobal(copy.name);
         ++k)
        copy.name = base + std::to_string(k);
    const int at = row + 1;
    beginInsertRows({}, at, at);
    m_doc->edit(SessionDocument::Part::Buffers,
                [&](session::Session& s) { s.buffers.insert(s.buffers.begin() + at, copy); });
    endInsertRows();
    return at;
}

void BufferTableModel::removeBuffer(int row)
{
    if (row < 0 || row >= rowCount()) return;
    beginRemoveRows({}, row, row);
    m_doc->edit(SessionDocument::Part::Buffers,
                [&](session::Session& s) { s.buffers.erase(s.buffers.begin() + row); });
    endRemoveRows();
}

} // namespace wb::ui
