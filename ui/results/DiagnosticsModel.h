// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/Diagnostic.h"

#include <QAbstractTableModel>

#include <vector>

namespace wb::ui {

/// Compiler messages of the kernel and the reference, one row each, for the Problems list.
/// Activating a row makes the window jump to the line in the right editor.
class DiagnosticsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { SeverityColumn, LocationColumn, MessageColumn, ColumnCount };

    explicit DiagnosticsModel(QObject* parent = nullptr);

    /// Replaces the messages that came from `source` ("kernel.cu" or "reference.cpp").
    void setDiagnostics(const QString& source, const std::vector<Diagnostic>& diagnostics);
    const Diagnostic& diagnostic(int row) const
    {
        return m_rows.at(static_cast<std::size_t>(row)).diagnostic;
    }
    QString source(int row) const { return m_rows.at(static_cast<std::size_t>(row)).source; }
    int errorCount() const;
    int warningCount() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    struct Row {
        QString source;
        Diagnostic diagnostic;
    };
    std::vector<Row> m_rows;
};

} // namespace wb::ui
