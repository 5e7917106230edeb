// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/profiling/SpeedOfLightPanel.h"

#include "core/profiling/MetricTable.h"
#include "ui/profiling/MetricTableModel.h"

#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace wb::ui {

namespace {

constexpr const char* kSmTag = "wb/counter/sm__throughput.avg.pct_of_peak_sustained_elapsed";
constexpr const char* kMemoryTag =
    "wb/counter/gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed";

QProgressBar* makeBar(QWidget* parent)
{
    auto* bar = new QProgressBar(parent);
    bar->setRange(0, 1000); // tenths of a percent
    bar->setValue(0);
    bar->setTextVisible(true);
    bar->setFormat(QObject::tr("no counters"));
    return bar;
}

void showBar(QProgressBar* bar, std::optional<double> pct)
{
    if (!pct) {
        bar->setValue(0);
        bar->setFormat(QObject::tr("no counters"));
        return;
    }
    bar->setValue(static_cast<int>(std::clamp(*pct, 0.0, 100.0) * 10.0 + 0.5));
    bar->setFormat(QStringLiteral("%1 %").arg(*pct, 0, 'f', 1));
}

QString statusLine(const profiling::ProfilerStatus& status)
{
    if (status.ok()) return {};
    QString text = QObject::tr("Hardware counters unavailable (%1): %2")
                       .arg(QString::fromUtf8(profiling::profilerStateName(status.state)),
                            QString::fromStdString(status.message));
    // Said once: the classified CUPTI status already carries the help text.
    if (status.state == profiling::ProfilerStatus::State::InsufficientPrivileges &&
        status.message.find(profiling::counterPermissionHelp()) == std::string::npos)
        text += QStringLiteral("\n") + QString::fromUtf8(profiling::counterPermissionHelp());
    return text;
}

} // namespace

SpeedOfLightPanel::SpeedOfLightPanel(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    m_title = new QLabel(tr("No profile yet: run the session."), this);
    m_title->setWordWrap(true);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("profilerStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->hide();
    auto* bars = new QFormLayout;
    m_smBar = makeBar(this);
    m_smBar->setToolTip(
        tr("SM throughput: the busiest SM sub-unit, % of its peak sustained rate over the kernel"));
    m_memoryBar = makeBar(this);
    m_memoryBar->setToolTip(tr("Memory throughput: the busiest memory unit (DRAM, L2, L1), % of "
                               "its peak sustained rate over the kernel"));
    bars->addRow(tr("Compute (SM)"), m_smBar);
    bars->addRow(tr("Memory"), m_memoryBar);
    m_baselineLabel = new QLabel(this);
    m_baselineLabel->hide();
    m_model = new MetricTableModel(this);
    m_table = new QTableView(this);
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->setAlternatingRowColors(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setSectionResizeMode(MetricTableModel::Name, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(MetricTableModel::Value,
                                                      QHeaderView::ResizeToContents);
    layout->addWidget(m_title);
    layout->addWidget(m_status);
    layout->addLayout(bars);
    layout->addWidget(m_baselineLabel);
    layout->addWidget(m_table, 1);
}

void SpeedOfLightPanel::setResult(const profiling::ProfileResult& result)
{
    profiling::ProfilerStatus status;
    if (result.counters)
        status = result.counters->status;
    else
        status = {profiling::ProfilerStatus::State::Failed, "counters were not collected"};
    QString title = tr("%1 · %2 samples (%3)")
                        .arg(QString::fromStdString(result.device.name))
                        .arg(result.timing.samplesMs.size())
                        .arg(QString::fromStdString(result.timing.method));
    if (result.counters && result.counters->status.ok())
        title += tr(" · %1 counter passes").arg(result.counters->passes);
    setSummaries(result.summaries(), status, title);
    if (!result.warnings.empty()) {
        QStringList w;
        for (const auto& s : result.warnings)
            w << QString::fromStdString(s);
        const QString prev = m_status->text();
        m_status->setText(prev.isEmpty() ? w.join(u'\n') : prev + u'\n' + w.join(u'\n'));
        m_status->show();
    }
}

void SpeedOfLightPanel::setProfile(const profiling::ProfileReport& report, const QString& title)
{
    QString heading = title;
    if (heading.isEmpty() && report.profiled()) {
        const profiling::Summary* samples =
            profiling::findSummary(report.summaries, "wb/timing/samples");
        heading = tr("%1 · %2 samples (%3)")
                      .arg(QString::fromStdString(report.device))
                      .arg(samples ? samples->value : 0.0, 0, 'f', 0)
                      .arg(QString::fromStdString(report.timingMethod));
        if (report.counterStatus && report.counterStatus->ok())
            heading += tr(" · %1 counter passes").arg(report.passes);
    }
    profiling::ProfilerStatus status;
    if (!report.profiled())
        status = report.status;
    else if (report.counterStatus)
        status = *report.counterStatus;
    else
        status = {profiling::ProfilerStatus::State::Failed, "counters were not asked for"};
    QString line = statusLine(status);
    if (!report.profiled())
        line = tr("Not profiled (%1): %2")
                   .arg(QString::fromUtf8(profiling::profilerStateName(report.status.state)),
                        QString::fromStdString(report.status.message));
    setSummaries(report.summaries, profiling::ProfilerStatus::success(), heading);
    QStringList lines;
    if (!line.isEmpty()) lines << line;
    for (const auto& w : report.warnings) {
        const QString text = QString::fromStdString(w);
        if (!line.contains(text, Qt::CaseInsensitive)) lines << text;
    }
    m_status->setText(lines.join(u'\n'));
    m_status->setVisible(!lines.isEmpty());
}

void SpeedOfLightPanel::setSummaries(std::vector<profiling::Summary> summaries,
                                     const profiling::ProfilerStatus& counterStatus,
                                     const QString& title)
{
    m_model->setSummaries(std::move(summaries));
    const QString line = statusLine(counterStatus);
    m_status->setText(line);
    m_status->setVisible(!line.isEmpty());
    if (!title.isEmpty()) m_title->setText(title);
    updateBars();
}

void SpeedOfLightPanel::setBaseline(std::vector<profiling::Summary> baseline, const QString& label)
{
    const bool has = !baseline.empty();
    m_model->setBaseline(std::move(baseline));
    m_baselineLabel->setText(has ? tr("Baseline: %1").arg(label) : QString());
    m_baselineLabel->setVisible(has);
}

void SpeedOfLightPanel::clear()
{
    m_model->setSummaries({});
    m_title->setText(tr("No profile yet: run the session."));
    showMessage(QString());
    updateBars();
}

QString SpeedOfLightPanel::titleText() const
{
    return m_title->text();
}

void SpeedOfLightPanel::showMessage(const QString& text)
{
    m_status->setText(text);
    m_status->setVisible(!text.isEmpty());
}

QString SpeedOfLightPanel::statusText() const
{
    return m_status->text();
}

void SpeedOfLightPanel::updateBars()
{
    const auto& rows = m_model->summaries();
    const auto* sm = profiling::findSummary(rows, kSmTag);
    const auto* mem = profiling::findSummary(rows, kMemoryTag);
    m_sm = sm ? std::optional<double>(sm->value) : std::nullopt;
    m_memory = mem ? std::optional<double>(mem->value) : std::nullopt;
    showBar(m_smBar, m_sm);
    showBar(m_memoryBar, m_memory);
}

} // namespace wb::ui
