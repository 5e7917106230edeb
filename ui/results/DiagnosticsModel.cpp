// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results/DiagnosticsModel.h"

#include <QIcon>

#include <algorithm>

namespace wb::ui {

DiagnosticsModel::DiagnosticsModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void DiagnosticsModel::setDiagnostics(const QString& source,
                                      const std::vector<Diagnostic>& diagnostics)
{
    beginResetModel();
    std::erase_if(m_rows, [&](const Row& r) { return r.source == source; });
    for (const Diagnostic& d : diagnostics)
        m_rows.push_back({source, d});
    std::stable_sort(m_rows.begin(), m_rows.end(), [](const Row& a, const Row& b) {
        if (a.source != b.source) return a.source < b.source;
        return a.diagnostic.line < b.diagnostic.line;
    });
    endResetModel();
}

int DiagnosticsModel::errorCount() const
{
    return static_cast<int>(std::count_if(m_rows.begin(), m_rows.end(), [](const Row& r) {
        return r.diagnostic.severity == Severity::Error || r.diagnostic.severity == Severity::Fatal;
    }));
}

int DiagnosticsModel::warningCount() const
{
    return static_cast<int>(std::count_if(m_rows.begin(), m_rows.end(), [](const Row& r) {
        return r.diagnostic.severity == Severity::Warning;
    }));
}

int DiagnosticsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int DiagnosticsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DiagnosticsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid()) return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    const Diagnostic& d = row.diagnostic;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case SeverityColumn:
            return QString::fromUtf8(severityName(d.severity));
        case LocationColumn: {
            QString file = d.file.empty() ? row.source : QString::fromStdString(d.file);
            if (d.line <= 0) return file;
            return d.column > 0 ? QStringLiteral("%1:%2:%3").arg(file).arg(d.line).arg(d.column)
                                : QStringLiteral("%1:%2").arg(file).arg(d.line);
        }
        case MessageColumn: {
            QString text = QString::fromStdString(d.message);
            if (!d.code.empty())
                text += QStringLiteral(" [%1]").arg(QString::fromStdString(d.code));
            return text;
        }
        default:
            return {};
        }
    case Qt::DecorationRole:
        if (index.column() != SeverityColumn) return {};
        if (d.severity == Severity::Error || d.severity == Severity::Fatal)
            return QIcon(QStringLiteral(":/warpbench/icons/error.svg"));
        if (d.severity == Severity::Warning)
            return QIcon(QStringLiteral(":/warpbench/icons/warning.svg"));
        return {};
    case Qt::ToolTipRole: {
        QString tip = QString::fromStdString(d.message);
        for (const std::string& c : d.context)
            tip += u'\n' + QString::fromStdString(c);
        return tip;
    }
    default:
        return {};
    }
}

QVariant DiagnosticsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case SeverityColumn:
        return tr("Severity");
    case LocationColumn:
        return tr("Location");
    case MessageColumn:
        return tr("Message");
    default:
        return {};
    }
}

} // namespace wb::ui
