// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/profiling/HistoryPanel.h"

#include "ui/common/ChartTheme.h"
#include "ui/common/Worker.h"
#include "ui/profiling/HistoryTableModel.h"

#include <QElapsedTimer>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QThread>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>

namespace wb::ui {

struct HistoryPanel::Listing {
    std::vector<profiling::RunRecord> runs;
    std::string error;
    std::string warning;
    std::optional<std::int64_t> recorded;
    std::optional<profiling::RunComparison> comparison;
};

HistoryPanel::HistoryPanel(QWidget* parent)
    : QWidget(parent)
    , m_worker(std::make_unique<Worker>(QStringLiteral("wb-history")))
    , m_db(std::make_shared<std::unique_ptr<profiling::RunHistory>>())
{
    m_model = new HistoryTableModel(this);
    m_table = new QTableView(this);
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionResizeMode(HistoryTableModel::Verdict,
                                                      QHeaderView::Stretch);
    // "110.320 us" whole, unit included.
    m_table->horizontalHeader()->setSectionResizeMode(HistoryTableModel::Median,
                                                      QHeaderView::ResizeToContents);

    auto* chart = new QChart;
    chart->legend()->hide();
    chart->setTitle(tr("Median kernel time by run"));
    chart->setMargins(QMargins(2, 2, 2, 2));
    applyChartTheme(chart, palette());
    m_chart = new QChartView(chart, this);
    m_chart->setRenderHint(QPainter::Antialiasing);
    m_chart->setMinimumHeight(140);

    m_compareButton = new QPushButton(tr("Compare selected"), this);
    m_compareButton->setToolTip(tr("Select two runs: source diff and metric deltas"));
    m_baselineButton = new QPushButton(tr("Mark as baseline"), this);
    m_baselineButton->setToolTip(
        tr("Timing and counters then show their change in % against this run"));
    m_vsBaselineButton = new QPushButton(tr("Compare with baseline"), this);
    m_vsBaselineButton->setToolTip(tr("The selected run against its kernel's baseline"));
    m_status = new QLabel(this);
    m_status->setWordWrap(true);

    m_compareSummary = new QLabel(this);
    m_compareSummary->setWordWrap(true);
    m_deltas = new QTableWidget(0, 4, this);
    m_deltas->setHorizontalHeaderLabels({tr("Metric"), tr("Before"), tr("After"), tr("Change")});
    m_deltas->verticalHeader()->hide();
    m_deltas->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_deltas->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_diff = new QPlainTextEdit(this);
    m_diff->setReadOnly(true);
    m_diff->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_diff->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto* compareTabs = new QTabWidget(this);
    compareTabs->addTab(m_deltas, tr("Metric deltas"));
    compareTabs->addTab(m_diff, tr("Source diff"));

    auto* left = new QWidget(this);
    auto* ll = new QVBoxLayout(left);
    ll->setContentsMargins(0, 0, 0, 0);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_compareButton);
    buttons->addWidget(m_baselineButton);
    buttons->addWidget(m_vsBaselineButton);
    buttons->addStretch(1);
    ll->addLayout(buttons);
    ll->addWidget(m_table, 1);
    ll->addWidget(m_status);
    auto* right = new QWidget(this);
    auto* rl = new QVBoxLayout(right);
    rl->setContentsMargins(0, 0, 0, 0);
    // The chart first: its axes need the height more than the comparison (often empty).
    rl->addWidget(m_chart, 3);
    rl->addWidget(m_compareSummary);
    rl->addWidget(compareTabs, 2);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(split);

    connect(m_compareButton, &QPushButton::clicked, this, &HistoryPanel::compareSelected);
    connect(m_baselineButton, &QPushButton::clicked, this, &HistoryPanel::markSelectedAsBaseline);
    connect(m_vsBaselineButton, &QPushButton::clicked, this, [this]() {
        const auto rows = m_table->selectionModel()->selectedRows();
        if (rows.size() == 1) compareWithBaseline(m_model->run(rows[0].row())->id);
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this]() { updateButtons(); });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this]() { updateButtons(); });
    updateButtons();
}

HistoryPanel::~HistoryPanel()
{
    // The Qt Sql connection is closed on the thread that opened it, then the thread is joined.
    m_worker->post<int>(
        nullptr,
        [db = m_db](const CancelToken&) {
            db->reset();
            return 0;
        },
        [](int) {});
    QElapsedTimer waited;
    waited.start();
    while (m_worker->pending() > 0 && waited.elapsed() < 10000)
        QThread::msleep(2);
    m_worker.reset();
}

QString HistoryPanel::errorText() const
{
    return m_status->text();
}

void HistoryPanel::post(std::function<Listing(profiling::RunHistory&)> job)
{
    m_worker->post<Listing>(
        this,
        [db = m_db, job = std::move(job)](const CancelToken&) {
            Listing l;
            try {
                if (!*db) {
                    l.error = "no history database";
                    return l;
                }
                l = job(**db);
                l.runs = (*db)->list();
            } catch (const std::exception& e) {
                l.error = e.what();
            }
            return l;
        },
        [this](Listing l) { showListing(std::move(l)); });
}

void HistoryPanel::setDatabase(const std::filesystem::path& file)
{
    if (file == m_file) return;
    m_file = file;
    m_comparison.reset();
    m_worker->post<Listing>(
        this,
        [db = m_db, file](const CancelToken&) {
            Listing l;
            try {
                db->reset();
                profiling::RunHistory::OpenOptions options;
                options.moveCorruptAside = true; // never lose the session; the old file stays
                *db = std::make_unique<profiling::RunHistory>(file, options);
                l.warning = (*db)->warning();
                l.runs = (*db)->list();
            } catch (const std::exception& e) {
                l.error = e.what();
            }
            return l;
        },
        [this](Listing l) { showListing(std::move(l)); });
}

void HistoryPanel::record(profiling::RunRecord run)
{
    post([run = std::move(run)](profiling::RunHistory& h) mutable {
        Listing l;
        l.recorded = h.record(run);
        return l;
    });
}

void HistoryPanel::refresh()
{
    post([](profiling::RunHistory&) { return Listing{}; });
}

void HistoryPanel::compare(std::int64_t before, std::int64_t after)
{
    post([before, after](profiling::RunHistory& h) {
        Listing l;
        l.comparison = h.compare(before, after);
        return l;
    });
}

void HistoryPanel::compareSelected()
{
    const auto rows = m_table->selectionModel()->selectedRows();
    if (rows.size() != 2) return;
    std::int64_t a = m_model->run(rows[0].row())->id;
    std::int64_t b = m_model->run(rows[1].row())->id;
    if (a > b) std::swap(a, b);
    compare(a, b);
}

void HistoryPanel::compareWithBaseline(std::int64_t id)
{
    post([id](profiling::RunHistory& h) {
        Listing l;
        l.comparison = h.compareWithBaseline(id);
        if (!l.comparison) l.error = "the run's kernel has no baseline: mark one first";
        return l;
    });
}

void HistoryPanel::markBaseline(std::int64_t id)
{
    post([id](profiling::RunHistory& h) {
        h.setBaseline(id);
        return Listing{};
    });
}

void HistoryPanel::markSelectedAsBaseline()
{
    const auto rows = m_table->selectionModel()->selectedRows();
    if (rows.size() != 1) return;
    markBaseline(m_model->run(rows[0].row())->id);
}

void HistoryPanel::showListing(Listing l)
{
    QStringList notes;
    if (!l.error.empty()) notes << tr("History: %1").arg(QString::fromStdString(l.error));
    if (!l.warning.empty()) notes << QString::fromStdString(l.warning);
    if (notes.isEmpty())
        notes << tr("%n run(s) in %1", nullptr, static_cast<int>(l.runs.size()))
                     .arg(QString::fromStdString(m_file.string()));
    m_status->setText(notes.join(u'\n'));
    if (l.error.empty() || !l.runs.empty()) {
        m_model->setRuns(std::move(l.runs));
        updateChart();
        // One baseline per kernel: announce each (the window shows the current kernel's).
        std::vector<std::string> kernels;
        for (const auto& r : m_model->runs())
            if (std::find(kernels.begin(), kernels.end(), r.kernel) == kernels.end())
                kernels.push_back(r.kernel);
        for (const auto& k : kernels) {
            const auto it =
                std::find_if(m_model->runs().begin(), m_model->runs().end(),
                             [&](const auto& r) { return r.kernel == k && r.baseline; });
            if (it != m_model->runs().end())
                Q_EMIT baselineChanged(
                    QString::fromStdString(k), it->metrics,
                    tr("run %1 (%2)").arg(it->id).arg(QString::fromStdString(it->createdAt)));
            else
                Q_EMIT baselineChanged(QString::fromStdString(k), {}, {});
        }
        Q_EMIT runsListed();
    }
    if (l.recorded) Q_EMIT runRecorded(static_cast<qint64>(*l.recorded));
    if (l.comparison) {
        m_comparison = std::move(l.comparison);
        showComparison(*m_comparison);
        Q_EMIT comparisonShown();
    }
}

void HistoryPanel::showComparison(const profiling::RunComparison& c)
{
    QStringList lines;
    lines << tr("Run %1 → run %2").arg(c.before.id).arg(c.after.id);
    lines << (c.sameSource ? tr("same source") : tr("source changed"));
    for (const auto& s : c.settingChanges)
        lines << QString::fromStdString(s);
    m_compareSummary->setText(lines.join(QStringLiteral(" · ")));
    m_diff->setPlainText(c.sameSource ? tr("(the sources are identical)")
                                      : QString::fromStdString(c.sourceDiff));
    m_deltas->setRowCount(static_cast<int>(c.metrics.size()));
    auto fmt = [](const profiling::MetricDelta& d, const std::optional<double>& v) {
        if (!v) return QStringLiteral("—");
        return QString::fromStdString(
            profiling::formatSummaryValue({d.tag, d.name, d.hint, *v, {}}));
    };
    for (int i = 0; i < static_cast<int>(c.metrics.size()); ++i) {
        const auto& d = c.metrics[static_cast<std::size_t>(i)];
        auto* name = new QTableWidgetItem(QString::fromStdString(d.name.empty() ? d.tag : d.name));
        name->setToolTip(QString::fromStdString(d.tag));
        m_deltas->setItem(i, 0, name);
        m_deltas->setItem(i, 1, new QTableWidgetItem(fmt(d, d.before)));
        m_deltas->setItem(i, 2, new QTableWidgetItem(fmt(d, d.after)));
        m_deltas->setItem(i, 3,
                          new QTableWidgetItem(
                              d.deltaPercent
                                  ? QStringLiteral("%1%2 %")
                                        .arg(*d.deltaPercent >= 0 ? QStringLiteral("+") : QString())
                                        .arg(*d.deltaPercent, 0, 'f', 1)
                                  : QStringLiteral("—")));
    }
}

void HistoryPanel::updateChart()
{
    QChart* chart = m_chart->chart();
    chart->removeAllSeries();
    for (QAbstractAxis* a : chart->axes()) {
        chart->removeAxis(a);
        delete a;
    }
    auto* line = new QLineSeries;
    auto* base = new QScatterSeries;
    base->setMarkerSize(10);
    double lo = INFINITY, hi = 0;
    const auto& runs = m_model->runs();
    // Oldest on the left.
    for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
        const auto* m = profiling::findSummary(it->metrics, "wb/timing/median");
        if (!m) continue;
        const double seconds = m->value;
        line->append(static_cast<double>(it->id), seconds);
        if (it->baseline) base->append(static_cast<double>(it->id), seconds);
        lo = std::min(lo, seconds);
        hi = std::max(hi, seconds);
    }
    // One unit for the axis, named in its title; the points in that unit.
    const ChartTimeUnit unit = chartTimeUnit(hi);
    for (QXYSeries* s : {static_cast<QXYSeries*>(line), static_cast<QXYSeries*>(base)}) {
        auto points = s->points();
        for (QPointF& p : points)
            p.setY(p.y() * unit.perSecond);
        s->replace(points);
    }
    if (line->count() > 0) lo *= unit.perSecond, hi *= unit.perSecond;
    chart->addSeries(line);
    chart->addSeries(base);
    auto* x = new QValueAxis; // run numbers; the chart's title says so
    x->setLabelFormat(QStringLiteral("%d"));
    auto* y = new QValueAxis;
    // The unit alone: "median (µs)" does not fit beside a small chart ("me…").
    makeAxisReadable(y, QString::fromUtf8(unit.name), 4);
    if (line->count() > 0) {
        const double pad = std::max((hi - lo) * 0.1, hi * 0.05 + 1e-9);
        y->setRange(std::max(0.0, lo - pad), hi + pad);
        const double first = line->at(0).x(), last = line->at(line->count() - 1).x();
        x->setRange(first - 0.5, last + 0.5);
        // Whole run numbers only, at most about eight labels.
        x->setTickType(QValueAxis::TicksDynamic);
        x->setTickAnchor(first);
        x->setTickInterval(std::max(1.0, std::ceil((last - first + 1) / 8.0)));
    }
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries* s :
         {static_cast<QAbstractSeries*>(line), static_cast<QAbstractSeries*>(base)}) {
        s->attachAxis(x);
        s->attachAxis(y);
    }
}

void HistoryPanel::updateButtons()
{
    const int n = static_cast<int>(m_table->selectionModel()->selectedRows().size());
    m_compareButton->setEnabled(n == 2);
    m_baselineButton->setEnabled(n == 1);
    m_vsBaselineButton->setEnabled(n == 1);
}

} // namespace wb::ui
