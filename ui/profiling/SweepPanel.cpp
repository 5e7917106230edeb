// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/profiling/SweepPanel.h"

#include "core/common/Error.h"
#include "core/profiling/SessionProfiling.h"
#include "core/runner/RunnerClient.h"
#include "core/runner/RunnerSweep.h"
#include "ui/common/ChartTheme.h"
#include "ui/common/SessionDocument.h"
#include "ui/common/Worker.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace wb::ui {

using profiling::SweepParameter;

namespace {

SessionDocument::Part partOf(SweepParameter::Kind kind)
{
    switch (kind) {
    case SweepParameter::Kind::BlockSize:
        return SessionDocument::Part::Launch;
    case SweepParameter::Kind::Define:
        return SessionDocument::Part::CompileOptions;
    case SweepParameter::Kind::Scalar:
        return SessionDocument::Part::Scalars;
    }
    return SessionDocument::Part::All;
}

} // namespace

std::vector<std::string> SweepPanel::parseValues(const QString& text)
{
    return SweepParameter::parseValues(text.toStdString());
}

SweepPanel::SweepPanel(SessionDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_doc(document)
    , m_client(std::make_shared<runner::RunnerClient>())
    , m_worker(std::make_unique<Worker>(QStringLiteral("wb-sweep")))
{
    m_kind = new QComboBox(this);
    m_kind->addItem(tr("Block size (block.x)"), static_cast<int>(SweepParameter::Kind::BlockSize));
    m_kind->addItem(tr("#define"), static_cast<int>(SweepParameter::Kind::Define));
    m_kind->addItem(tr("Scalar"), static_cast<int>(SweepParameter::Kind::Scalar));
    m_name = new QComboBox(this);
    m_name->setEditable(true);
    m_name->setToolTip(tr("The #define's name (compiled with -DNAME=value) or the scalar's name"));
    m_values = new QLineEdit(QStringLiteral("32..1024 x2"), this);
    m_values->setToolTip(tr("A list: 32, 64, 128 · a range: 1..9 +2 (step) · a geometric range: "
                            "32..1024 x2"));
    m_boundsCheck = new QCheckBox(tr("Bounds-check each point (CPU emulator)"), this);
    m_boundsCheck->setToolTip(
        tr("Before timing a point, run it once on the CPU emulator with AddressSanitizer: a point "
           "that reads or writes out of bounds is invalid (file:line, block, thread) and is not "
           "run further. Slower; the timing itself runs on the session's backend."));
    m_runButton = new QPushButton(tr("Run sweep"), this);
    m_cancelButton = new QPushButton(tr("Cancel"), this);
    m_cancelButton->setEnabled(false);
    m_applyButton = new QPushButton(tr("Apply best"), this);
    m_applyButton->setEnabled(false);
    m_applyButton->setToolTip(tr("Write the fastest valid point into the session"));
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_status = new QLabel(tr("Vary one parameter; every point is run and checked against the "
                             "reference and for never-written outputs."),
                          this);
    m_status->setWordWrap(true);
    m_table = new QTableWidget(0, 3, this);
    m_table->setHorizontalHeaderLabels({tr("Value"), tr("Median"), tr("Verdict")});
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    auto* chart = new QChart;
    chart->legend()->hide();
    chart->setTitle(tr("Median kernel time vs parameter"));
    applyChartTheme(chart, palette());
    m_chart = new QChartView(chart, this);
    m_chart->setRenderHint(QPainter::Antialiasing);
    m_chart->setMinimumHeight(140);
    // Wide enough for its title and axis labels whole: beside the form and table the splitter
    // otherwise left it a sliver ("Media…", "…") at 1280×720.
    m_chart->setMinimumWidth(std::max(320, fontMetrics().horizontalAdvance(chart->title()) + 48));

    auto* form = new QFormLayout;
    form->addRow(tr("Parameter"), m_kind);
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Values"), m_values);
    form->addRow(QString(), m_boundsCheck);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_runButton);
    buttons->addWidget(m_cancelButton);
    buttons->addWidget(m_applyButton);
    buttons->addStretch(1);
    auto* left = new QWidget(this);
    auto* ll = new QVBoxLayout(left);
    ll->setContentsMargins(0, 0, 0, 0);
    ll->addLayout(form);
    ll->addLayout(buttons);
    ll->addWidget(m_progress);
    ll->addWidget(m_status);
    ll->addWidget(m_table, 1);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(m_chart);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(split);

    connect(m_kind, &QComboBox::currentIndexChanged, this, [this]() { refreshNames(); });
    connect(m_runButton, &QPushButton::clicked, this, [this]() { start(); });
    connect(m_cancelButton, &QPushButton::clicked, this, &SweepPanel::cancel);
    connect(m_applyButton, &QPushButton::clicked, this, [this]() { applyBest(); });
    connect(m_doc, &SessionDocument::sessionReplaced, this, [this]() {
        refreshNames();
        // Another project: a sweep of the earlier one is not this one's result (issue 29 item
        // 2's rule). A sweep still running is cancelled; what it returns is dropped.
        if (m_running) {
            m_dropNextResult = true;
            cancel();
        }
        m_points.clear();
        m_result.reset();
        m_table->setRowCount(0);
        m_progress->setValue(0);
        m_applyButton->setEnabled(false);
        m_status->setText(m_running ? tr("The sweep of the earlier project was cancelled.")
                                    : QString());
        updateChart();
    });
    refreshNames();
}

SweepPanel::~SweepPanel()
{
    if (m_cancel) m_cancel->store(true);
    // A point that does not finish within the grace period is killed with its runner, so the
    // join below cannot hang on a kernel that never ends.
    m_client->cancel();
    m_worker.reset(); // joins: the running point ends, then nothing touches `this`
}

QString SweepPanel::statusText() const
{
    return m_status->text();
}

void SweepPanel::refreshNames()
{
    const auto kind = static_cast<SweepParameter::Kind>(m_kind->currentData().toInt());
    const QString current = m_name->currentText();
    m_name->clear();
    m_name->setEnabled(kind != SweepParameter::Kind::BlockSize);
    if (kind == SweepParameter::Kind::Scalar)
        for (const auto& s : m_doc->session().scalars)
            m_name->addItem(QString::fromStdString(s.name));
    if (kind == SweepParameter::Kind::Define) {
        // Names already defined with -DNAME=value are the likely candidates.
        for (const auto& f : m_doc->session().compileOptions.defines)
            m_name->addItem(QString::fromStdString(f.first));
    }
    if (!current.isEmpty() && kind != SweepParameter::Kind::BlockSize)
        m_name->setCurrentText(current);
}

void SweepPanel::setParameter(SweepParameter::Kind kind, const QString& name, const QString& values)
{
    m_kind->setCurrentIndex(m_kind->findData(static_cast<int>(kind)));
    m_name->setCurrentText(name);
    m_values->setText(values);
}

void SweepPanel::setBoundsCheck(bool on)
{
    m_boundsCheck->setChecked(on);
}

bool SweepPanel::boundsCheck() const
{
    return m_boundsCheck->isChecked();
}

bool SweepPanel::start()
{
    if (m_running) return false;
    if (m_doc->session().isPipeline()) {
        m_status->setText(tr("Cannot sweep: this project is a pipeline of several launches; "
                             "sweep one of its kernels in a one-launch project"));
        return false;
    }
    SweepParameter parameter;
    parameter.kind = static_cast<SweepParameter::Kind>(m_kind->currentData().toInt());
    parameter.name = m_name->currentText().trimmed().toStdString();
    try {
        parameter.values = parseValues(m_values->text());
        if (parameter.kind != SweepParameter::Kind::BlockSize && parameter.name.empty())
            throw Error(Error::Kind::InvalidArgument,
                        std::string("name the ") + profiling::sweepKindName(parameter.kind));
    } catch (const std::exception& e) {
        m_status->setText(tr("Cannot sweep: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
    m_running = true;
    m_points.clear();
    m_result.reset();
    m_table->setRowCount(0);
    m_progress->setRange(0, static_cast<int>(parameter.values.size()));
    m_progress->setValue(0);
    m_runButton->setEnabled(false);
    m_cancelButton->setEnabled(true);
    m_applyButton->setEnabled(false);
    m_status->setText(
        tr("Sweeping %1 over %n value(s)…", nullptr, static_cast<int>(parameter.values.size()))
            .arg(QString::fromUtf8(profiling::sweepKindName(parameter.kind))));
    updateChart();
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    runner::RunnerClient::Request request;
    request.cancel = m_cancel;
    if (m_boundsCheck->isChecked()) request.options.check = CheckMode::Bounds;
    auto runner = runner::runnerSweepRunner(m_client, m_doc->runnableSession(), request);
    m_worker->post<profiling::SweepResult>(
        this,
        [this, parameter, runner = std::move(runner), cancel = m_cancel](const CancelToken&) {
            // `this` outlives the job: the destructor cancels and joins the worker first.
            auto progress = [this](std::size_t done, std::size_t total,
                                   const profiling::SweepPoint& point) {
                QMetaObject::invokeMethod(
                    this, [this, done, total, point]() { onPoint(done, total, point); },
                    Qt::QueuedConnection);
            };
            return profiling::runSweep(parameter, runner, progress, cancel.get());
        },
        [this](profiling::SweepResult r) { onFinished(std::move(r)); });
    return true;
}

void SweepPanel::cancel()
{
    if (!m_running || !m_cancel) return;
    m_cancel->store(true);
    m_client->cancel(); // the point in progress: killed unless it finishes within 1 s
    m_status->setText(tr("Cancelling…"));
}

void SweepPanel::addRow(const profiling::SweepPoint& p)
{
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    m_table->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(p.value)));
    m_table->setItem(
        row, 1,
        new QTableWidgetItem(
            p.outcome.ok
                ? QString::fromStdString(profiling::formatSummaryValue(
                      {"wb/timing/median", "Median", "duration", p.outcome.timeSeconds, {}}))
                : QStringLiteral("—")));
    auto* verdict = new QTableWidgetItem(QString::fromStdString(p.outcome.verdict));
    if (p.outcome.valid) {
        verdict->setToolTip(p.outcome.boundsChecked ? tr("pass, bounds-checked on the CPU emulator")
                                                    : verdict->text());
    } else {
        // Never "best": the verdict says why, one problem per line in the tooltip.
        QStringList why;
        for (const std::string& problem : p.outcome.problems)
            why << QString::fromStdString(problem);
        verdict->setToolTip(
            tr("Invalid point, never recommended:\n%1")
                .arg(why.isEmpty() ? verdict->text() : why.join(QLatin1Char('\n'))));
        verdict->setForeground(QColor(0xc0, 0x1c, 0x28));
    }
    m_table->setItem(row, 2, verdict);
}

void SweepPanel::onPoint(std::size_t done, std::size_t total, const profiling::SweepPoint& point)
{
    if (m_dropNextResult) return; // a point of the project that was replaced
    if (!m_running) return;
    m_points.push_back(point);
    addRow(point);
    m_progress->setValue(static_cast<int>(done));
    updateChart();
    Q_EMIT pointFinished(static_cast<int>(done), static_cast<int>(total));
}

void SweepPanel::onFinished(profiling::SweepResult r)
{
    m_running = false;
    if (m_dropNextResult) { // a sweep of the project that was replaced meanwhile
        m_dropNextResult = false;
        m_runButton->setEnabled(true);
        m_cancelButton->setEnabled(false);
        return;
    }
    m_runButton->setEnabled(true);
    m_cancelButton->setEnabled(false);
    // Progress events were queued before this completion; the result is authoritative.
    m_points = r.points;
    m_table->setRowCount(0);
    for (const auto& p : m_points)
        addRow(p);
    m_result = std::move(r);
    QString text;
    if (m_result->best) {
        const auto& b = m_result->points[*m_result->best];
        text =
            tr("Best valid point: %1 = %2 (%3)")
                .arg(QString::fromUtf8(profiling::sweepKindName(m_result->parameter.kind)),
                     QString::fromStdString(b.value),
                     QString::fromStdString(profiling::formatSummaryValue(
                         {"wb/timing/median", "Median", "duration", b.outcome.timeSeconds, {}})));
        m_table->selectRow(static_cast<int>(*m_result->best));
        for (int c = 0; c < m_table->columnCount(); ++c) {
            QFont f = m_table->item(static_cast<int>(*m_result->best), c)->font();
            f.setBold(true);
            m_table->item(static_cast<int>(*m_result->best), c)->setFont(f);
        }
        if (const std::size_t invalid = m_result->invalidCount())
            text += tr(" — %n invalid point(s) never recommended (see their verdicts).", nullptr,
                       static_cast<int>(invalid));
    } else if (!m_result->points.empty()) {
        text = tr("No valid point: all %n point(s) are invalid (out of bounds, never-written "
                  "elements, mismatches or errors: see the verdicts) — nothing to recommend.",
                  nullptr, static_cast<int>(m_result->points.size()));
    } else {
        text = tr("No valid point: no point ran.");
    }
    if (m_result->cancelled)
        text = tr("Cancelled after %n point(s). ", nullptr,
                  static_cast<int>(m_result->points.size())) +
               text;
    m_status->setText(text);
    m_applyButton->setEnabled(m_result->best.has_value());
    updateChart();
    Q_EMIT sweepFinished();
}

bool SweepPanel::applyBest()
{
    if (m_running || !m_result || !m_result->best) return false;
    const auto parameter = m_result->parameter;
    const std::string value = m_result->points[*m_result->best].value;
    try {
        m_doc->edit(partOf(parameter.kind),
                    [&](session::Session& s) { profiling::applySweepValue(s, parameter, value); });
    } catch (const std::exception& e) {
        m_status->setText(tr("Cannot apply: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
    m_status->setText(tr("Applied %1 = %2 to the session.")
                          .arg(QString::fromUtf8(profiling::sweepKindName(parameter.kind)),
                               QString::fromStdString(value)));
    Q_EMIT bestApplied(QString::fromStdString(value));
    return true;
}

void SweepPanel::updateChart()
{
    QChart* chart = m_chart->chart();
    chart->removeAllSeries();
    for (QAbstractAxis* a : chart->axes()) {
        chart->removeAxis(a);
        delete a;
    }
    // Numeric parameters on a numeric axis; anything else by position.
    bool numeric = true;
    for (const auto& p : m_points) {
        bool ok = false;
        QString::fromStdString(p.value).toDouble(&ok);
        numeric = numeric && ok;
    }
    auto* line = new QLineSeries;
    auto* invalid = new QScatterSeries;
    invalid->setMarkerSize(8);
    invalid->setColor(QColor(0xc0, 0x1c, 0x28));
    auto* best = new QScatterSeries;
    best->setMarkerSize(14);
    best->setColor(QColor(0x1b, 0x7f, 0x3b));
    double lo = INFINITY, hi = 0, xlo = INFINITY, xhi = -INFINITY;
    // A plain index (GCC 12 -O3 warns falsely on an optional here); SIZE_MAX: none.
    const std::size_t bestIndex = m_result && m_result->best ? *m_result->best : SIZE_MAX;
    for (std::size_t i = 0; i < m_points.size(); ++i) {
        const auto& p = m_points[i];
        if (!p.outcome.ok) continue;
        const double x =
            numeric ? QString::fromStdString(p.value).toDouble() : static_cast<double>(i);
        const double seconds = p.outcome.timeSeconds;
        line->append(x, seconds);
        if (!p.outcome.valid) invalid->append(x, seconds);
        if (i == bestIndex) best->append(x, seconds);
        lo = std::min(lo, seconds);
        hi = std::max(hi, seconds);
        xlo = std::min(xlo, x);
        xhi = std::max(xhi, x);
    }
    // One unit for the time axis, named in its title; the points in that unit.
    const ChartTimeUnit unit = chartTimeUnit(hi);
    for (QXYSeries* s : {static_cast<QXYSeries*>(line), static_cast<QXYSeries*>(invalid),
                         static_cast<QXYSeries*>(best)}) {
        auto points = s->points();
        for (QPointF& p : points)
            p.setY(p.y() * unit.perSecond);
        s->replace(points);
    }
    if (line->count() > 0) lo *= unit.perSecond, hi *= unit.perSecond;
    auto* x = new QValueAxis;
    x->setTitleText(numeric && m_result
                        ? QString::fromUtf8(profiling::sweepKindName(m_result->parameter.kind))
                        : tr("parameter"));
    x->setLabelFormat(QStringLiteral("%g"));
    auto* y = new QValueAxis;
    // The unit alone: "median (µs)" does not fit beside a small chart ("me…").
    makeAxisReadable(y, QString::fromUtf8(unit.name), 4);
    if (line->count() > 0) {
        const double pad = std::max((hi - lo) * 0.1, hi * 0.05 + 1e-9);
        y->setRange(std::max(0.0, lo - pad), hi + pad);
        const double xpad = std::max((xhi - xlo) * 0.05, 0.5);
        x->setRange(xlo - xpad, xhi + xpad);
    }
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries* s :
         {static_cast<QAbstractSeries*>(line), static_cast<QAbstractSeries*>(invalid),
          static_cast<QAbstractSeries*>(best)}) {
        chart->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
    }
}

} // namespace wb::ui
