// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results/ResultsPanel.h"

#include "core/session/Pipeline.h"
#include "core/session/Poison.h"

#include "core/profiling/Summary.h"
#include "ui/common/RunController.h"
#include "ui/common/SessionDocument.h"
#include "ui/results/DiagnosticsModel.h"
#include "ui/results/DiffView.h"
#include "ui/results/InspectPanel.h"
#include "ui/results/TimingCharts.h"

#include <QDateTime>
#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QMouseEvent>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTextBlock>
#include <QTextDocumentFragment>
#include <QTimer>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <map>

namespace wb::ui {

namespace {

QString formatMs(double ms)
{
    if (ms < 1e-3) return QStringLiteral("%1 ns").arg(ms * 1e6, 0, 'f', 0);
    if (ms < 1.0) return QStringLiteral("%1 µs").arg(ms * 1e3, 0, 'f', ms < 0.01 ? 2 : 1);
    return QStringLiteral("%1 ms").arg(ms, 0, 'f', ms < 10 ? 3 : 1);
}

/// Bandwidth in the unit its size asks for ("412 MB/s", never "0.0 GB/s"); one formatter for
/// the window and the profiler's tables (profiling::formatSummaryValue).
QString formatBandwidth(double gbPerSecond)
{
    return QString::fromStdString(
        profiling::formatSummaryValue({"", "", "bandwidth", gbPerSecond * 1e9, {}}));
}

QString statusWord(session::RunReport::Status s)
{
    switch (s) {
    case session::RunReport::Status::Passed:
        return QObject::tr("✔ PASS");
    case session::RunReport::Status::Mismatch:
        return QObject::tr("✘ FAIL — mismatch");
    case session::RunReport::Status::CompileError:
        return QObject::tr("✘ compile error");
    case session::RunReport::Status::RuntimeError:
        return QObject::tr("✘ runtime error");
    case session::RunReport::Status::Invalid:
        return QObject::tr("✘ invalid session");
    case session::RunReport::Status::Unchecked:
        return QObject::tr("Ran — not checked");
    }
    return {};
}

QString statusColour(session::RunReport::Status s)
{
    switch (s) {
    case session::RunReport::Status::Passed:
        return QStringLiteral("#2e9e44");
    case session::RunReport::Status::Mismatch:
        return QStringLiteral("#d0342c");
    case session::RunReport::Status::Unchecked:
        return QStringLiteral("#5e5c64"); // neutral: it ran, nothing was compared
    default:
        return QStringLiteral("#b26b00");
    }
}

/// What is known of a run that compared nothing, one output a part: "y: 1,000 of 1,000 never
/// written · 0 NaN · 0 Inf" ("all written" when the poison check saw every element change).
QString uncheckedFacts(const session::RunReport& r)
{
    QStringList parts;
    const auto n = [](std::uint64_t v) {
        return QString::fromStdString(session::withThousands(v));
    };
    for (const session::OutputResult& o : r.outputs) {
        if (o.compared) continue;
        const QString name = QString::fromStdString(o.buffer).toHtmlEscaped();
        QString written;
        if (!o.coverage.checked)
            written = ResultsPanel::tr("not poisoned (inout): unwritten elements not detectable");
        else if (o.coverage.unwritten == 0)
            written = ResultsPanel::tr("all %1 elements written").arg(n(o.coverage.total));
        else
            written = ResultsPanel::tr("<b>%1 of %2 never written</b>")
                          .arg(n(o.coverage.unwritten), n(o.coverage.total));
        parts
            << ResultsPanel::tr("%1: %2 · %3 NaN · %4 Inf").arg(name, written, n(o.nan), n(o.inf));
    }
    return parts.join(QStringLiteral("<br>"));
}

/// A pipeline's timing: the pass, then each `launches` entry's count and summed medians (each
/// launch is in the Launches tab).
QString pipelineTimingHtml(const session::RunReport& r)
{
    const session::TimingStats& t = r.timing;
    QString html =
        ResultsPanel::tr("median <b>%1</b> per pass · min %2 · mean %3 · stdev %4 · %5 passes "
                         "after %6 warm-up · a pass: %7 launches, its time the sum of theirs "
                         "(each in the Launches tab)")
            .arg(formatMs(t.medianMs), formatMs(t.minMs), formatMs(t.meanMs), formatMs(t.stdevMs))
            .arg(r.iterations)
            .arg(r.warmup)
            .arg(r.pipeline.size());
    std::map<std::size_t, std::pair<std::size_t, double>> entries; // count, summed medians
    std::map<std::size_t, std::string> kernels;
    for (const session::PipelineLaunchTiming& l : r.pipeline) {
        auto& e = entries[l.entry];
        ++e.first;
        e.second += l.timing.medianMs;
        kernels[l.entry] = l.kernel;
    }
    for (const auto& [entry, e] : entries)
        html += ResultsPanel::tr("<br>launches[%1] <b>%2</b> ×%3: medians sum %4")
                    .arg(entry)
                    .arg(QString::fromStdString(kernels[entry]).toHtmlEscaped())
                    .arg(e.first)
                    .arg(formatMs(e.second));
    return html;
}

/// Rich text as plain lines (a tooltip's).
QString plainLines(const QString& html)
{
    return QTextDocumentFragment::fromHtml(html).toPlainText().replace(QChar(0x2028), u'\n');
}

} // namespace

ResultsPanel::ResultsPanel(DiagnosticsModel* diagnostics, QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    m_verdict = new QLabel(this);
    m_verdict->setObjectName(QStringLiteral("verdict"));
    m_verdict->setTextFormat(Qt::RichText);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse |
                                       Qt::LinksAccessibleByKeyboard);
    connect(m_verdict, &QLabel::linkActivated, this, [this](const QString& link) {
        if (link == u"wb:bounds-check") Q_EMIT boundsCheckRequested();
    });
    m_verdict->setText(
        tr("Press <b>Run</b> (Ctrl+R) to compile, launch and compare with the reference."));
    layout->addWidget(m_verdict);
    // Texts that grow with a message or a run (a timeout's or a crash's words, long names) wrap
    // inside the width they are given and never ask for more: the window stays on the screen.
    m_timing = new QLabel(this);
    m_throughput = new QLabel(this);
    for (QLabel* l : {m_verdict, m_timing, m_throughput}) {
        l->setWordWrap(true);
        l->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        l->setMinimumWidth(0);
        // Never shorter than the wrapped text (a short dock then scrolls, see eventFilter).
        l->installEventFilter(this);
    }
    m_staleLabel = new QLabel(this);
    m_staleLabel->setObjectName(QStringLiteral("staleResultsLabel"));
    m_staleLabel->setWordWrap(true);
    m_staleLabel->setStyleSheet(QStringLiteral(
        "#staleResultsLabel { background: palette(midlight); color: palette(window-text); "
        "border: 1px dashed palette(mid); border-radius: 3px; padding: 2px 6px; }"));
    m_staleLabel->hide();
    layout->addWidget(m_staleLabel);

    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    auto* summary = new QWidget(m_tabs);
    auto* sl = new QVBoxLayout(summary);
    sl->setContentsMargins(2, 2, 2, 2);
    m_timing->setParent(summary);
    m_timing->setTextFormat(Qt::RichText);
    m_timing->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_throughput->setParent(summary);
    m_throughput->setTextFormat(Qt::RichText);
    m_charts = new TimingCharts(summary);
    sl->addWidget(m_timing);
    sl->addWidget(m_throughput);
    sl->addWidget(m_charts, 1);
    sl->addStretch(); // takes the room while the charts are hidden (nothing timed)
    m_tabs->addTab(summary, tr("Summary"));
    m_diff = new DiffView(m_tabs);
    m_tabs->addTab(m_diff, tr("Diff"));
    m_inspect = new InspectPanel(m_tabs);
    m_tabs->addTab(m_inspect, tr("Inspect"));
    m_problems = new QTableView(m_tabs);
    m_problems->setModel(diagnostics);
    m_problems->verticalHeader()->hide();
    m_problems->horizontalHeader()->setStretchLastSection(true);
    m_problems->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_problems->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_problems->setWordWrap(false);
    m_tabs->addTab(m_problems, tr("Problems"));
    m_log = new QPlainTextEdit(m_tabs);
    m_log->setReadOnly(true);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_log->setMaximumBlockCount(20000);
    m_tabs->addTab(m_log, tr("Log"));
    m_launches = new QTableWidget(0, 7, m_tabs);
    m_launches->setObjectName(QStringLiteral("pipelineLaunches"));
    m_launches->setHorizontalHeaderLabels({tr("#"), tr("Kernel"), tr("Loop"), tr("Grid"),
                                           tr("Block"), tr("Shared (B)"), tr("Median")});
    m_launches->verticalHeader()->hide();
    m_launches->horizontalHeader()->setStretchLastSection(true);
    m_launches->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_launches->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_launches->setWordWrap(false);
    m_tabs->addTab(m_launches, tr("Launches"));
    m_tabs->setTabVisible(static_cast<int>(Tab::Launches), false);
    layout->addWidget(m_tabs, 1);
    m_veil = new QWidget(m_tabs);
    m_veil->setObjectName(QStringLiteral("staleResultsVeil"));
    m_veil->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_veil->setAttribute(Qt::WA_StyledBackground);
    m_veil->hide();
    m_tabs->installEventFilter(this);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this]() { setGreyed(m_stale); });

    m_log->viewport()->installEventFilter(this);
    m_log->setToolTip(tr("Click a file(line) or file:line:col location to jump to it"));
    connect(m_problems, &QTableView::activated, this,
            [this](const QModelIndex& i) { Q_EMIT diagnosticActivated(i.row()); });
    connect(m_problems, &QTableView::clicked, this,
            [this](const QModelIndex& i) { Q_EMIT diagnosticActivated(i.row()); });
    connect(diagnostics, &QAbstractItemModel::modelReset, this, [this, diagnostics]() {
        const int e = diagnostics->errorCount(), w = diagnostics->warningCount();
        m_tabs->setTabText(3, e + w ? tr("Problems (%1)").arg(e + w) : tr("Problems"));
    });
    m_charts->clear();
    m_charts->hide(); // calm until there is something to show
}

void ResultsPanel::keepLines(QLabel* label)
{
    if (label->width() <= 0) return;
    // (heightForWidth is never less than the minimum: the text's own height without it, so a
    // shorter text or a smaller font gives the lines back.)
    const int before = label->minimumHeight();
    label->setMinimumHeight(0);
    const int h = label->heightForWidth(label->width());
    label->setMinimumHeight(h > 0 ? h : before);
}

void ResultsPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    // (Sent once the labels have their new font: Presentation Mode on and off.)
    if (event->type() == QEvent::FontChange)
        for (QLabel* l : {m_verdict, m_timing, m_throughput})
            keepLines(l);
}

bool ResultsPanel::eventFilter(QObject* watched, QEvent* event)
{
    // A wrapped text keeps the height of its lines at the width it got: a short panel scrolls
    // (DockScrollArea) rather than cutting the last lines off.
    if (event->type() == QEvent::Resize)
        for (QLabel* l : {m_verdict, m_timing, m_throughput})
            if (watched == l) keepLines(l);
    if (watched == m_tabs && event->type() == QEvent::Resize && m_stale) setGreyed(true);
    if (m_log && watched == m_log->viewport() && event->type() == QEvent::MouseButtonRelease) {
        const auto* mouse = static_cast<QMouseEvent*>(event);
        const QString line = m_log->cursorForPosition(mouse->position().toPoint()).block().text();
        // NVRTC: kernel.cu(4): error …   gcc: reference.cpp:4:12: error …
        static const QRegularExpression location(QStringLiteral(
            "([\\w.+-]+\\.(?:cu|cuh|cpp|cc|cxx|h|hpp))(?:\\((\\d+)\\)|:(\\d+)(?::(\\d+))?)"));
        const auto m = location.match(line);
        if (m.hasMatch()) {
            const int lineNo = (m.captured(2).isEmpty() ? m.captured(3) : m.captured(2)).toInt();
            Q_EMIT locationActivated(m.captured(1), lineNo, m.captured(4).toInt());
        }
    }
    return QWidget::eventFilter(watched, event);
}

void ResultsPanel::wheelEvent(QWheelEvent* event)
{
    // What scrolls (tables, the log, charts) took the wheel already; the rest of the panel does
    // not hand it on to the dock's scroll area, which would scroll the verdict out of view.
    event->accept();
}

void ResultsPanel::showTab(Tab tab)
{
    m_tabs->setCurrentIndex(static_cast<int>(tab));
}

QString ResultsPanel::verdictText() const
{
    return m_verdict->text();
}

QString ResultsPanel::timingText() const
{
    return m_timing->text();
}

QString ResultsPanel::throughputText() const
{
    return m_throughput->text();
}

void ResultsPanel::setRunning(bool running, const QString& what)
{
    // An icon (an image, not a font glyph: the bundled fonts lack the hourglass).
    if (!running) return;
    m_verdictShown = false;
    m_verdict->setText(QStringLiteral("<img src=':/warpbench/icons/running.svg' width='%1' "
                                      "height='%1' style='vertical-align: middle'> %2")
                           .arg(m_verdict->fontMetrics().height())
                           .arg(what.toHtmlEscaped()));
    keepLines(m_verdict);
}

bool ResultsPanel::isVeiled() const
{
    return m_veil->isVisible();
}

QString ResultsPanel::staleText() const
{
    return m_stale ? m_staleLabel->text() : QString();
}

void ResultsPanel::subscribe(RunController* runner, SessionDocument* document)
{
    m_elapsed = new QTimer(this);
    m_elapsed->setInterval(100);
    connect(m_elapsed, &QTimer::timeout, this, [this, runner]() {
        setRunning(true, tr("Running… %1 s (Shift+Esc cancels)")
                             .arg(static_cast<double>(runner->elapsedMs()) / 1000.0, 0, 'f', 1));
    });
    connect(runner, &RunController::runStarted, this, [this]() {
        m_elapsed->start();
        setRunning(true, tr("Running…"));
        appendLog(tr("run started"));
    });
    connect(runner, &RunController::runCancelled, this, [this]() {
        m_elapsed->stop();
        setRunning(
            true,
            tr("Cancelled — the window is free; the abandoned run's result will be dropped."));
        appendLog(tr("run cancelled"));
    });
    connect(runner, &RunController::runFinished, this,
            [this, document](std::shared_ptr<const RunOutcome> outcome) {
                m_elapsed->stop();
                const session::RunReport& r = outcome->report;
                // What confined the kernels (an emulator run: device-code check, filter,
                // Landlock, …).
                if (!r.sandbox.empty())
                    appendLog(tr("sandbox: %1").arg(QString::fromStdString(r.sandbox)));
                setOutcome(outcome, document->runnableSession());
                // A profile with hotspots: samples beside the SASS.
                if (outcome->profile) {
                    const auto& hot = outcome->profile->hotspots;
                    m_inspect->setHotspots(hot ? &*hot : nullptr);
                }
            });
    // Results belong to a run of the project that was open: another one starts empty.
    connect(document, &SessionDocument::sessionReplaced, this, &ResultsPanel::clearResults);
}

void ResultsPanel::clearResults()
{
    setGreyed(false);
    m_stale = false;
    m_hasResults = false;
    m_staleLabel->hide();
    m_verdictHtml.clear();
    m_verdictShown = false;
    m_verdict->setText(
        tr("Press <b>Run</b> (Ctrl+R) to compile, launch and compare with the reference."));
    keepLines(m_verdict);
    m_timing->clear();
    m_throughput->clear();
    m_charts->clear();
    m_charts->hide();
    m_diff->clear();
    m_launches->setRowCount(0);
    m_tabs->setTabVisible(static_cast<int>(Tab::Launches), false);
}

void ResultsPanel::showVerdict()
{
    m_verdictShown = true;
    if (m_compact) {
        // The whole first line on hover.
        QString whole = QTextDocumentFragment::fromHtml(m_verdictHtml).toPlainText();
        whole.replace(QChar(0x2028), u'\n');
        m_verdict->setText(m_verdictCompactHtml);
        m_verdict->setToolTip(m_verdictTip.isEmpty() ? whole : whole + u'\n' + m_verdictTip);
    } else {
        m_verdict->setText(m_verdictHtml);
        m_verdict->setToolTip(m_verdictTip);
    }
    keepLines(m_verdict);
}

void ResultsPanel::setCompact(bool compact)
{
    if (compact == m_compact) return;
    m_compact = compact;
    // Only a run's verdict has a short form (not "Running…", not a greyed one).
    if (m_verdictShown) showVerdict();
    // The Summary's bandwidth and compile lines on hover of its timing line: the charts get
    // their height at the large font.
    m_throughput->setVisible(!compact);
    m_charts->setStacked(compact);
    m_timing->setToolTip(compact ? plainLines(m_throughput->text()) : QString());
}

bool ResultsPanel::launchesTabVisible() const
{
    return m_tabs->isTabVisible(static_cast<int>(Tab::Launches));
}

void ResultsPanel::setStale(const QString& why)
{
    if (!m_hasResults) return;
    m_stale = true;
    m_staleLabel->setText(tr("⟲ <b>From an earlier version</b> — %1 since this run. Run "
                             "(Ctrl+R) for results of what you see now.")
                              .arg(why.toHtmlEscaped()));
    m_staleLabel->show();
    // The verdict keeps its words but loses its colours: grey, struck through.
    QString plain = QTextDocumentFragment::fromHtml(m_verdictHtml).toPlainText();
    plain.replace(QChar(0x2028), u'\n'); // <br>
    QStringList lines;
    for (const QString& line : plain.split(u'\n'))
        lines << line.toHtmlEscaped();
    m_verdictShown = false;
    m_verdict->setText(
        QStringLiteral("<span style='color:gray'><s>%1</s></span>").arg(lines.join("<br>")));
    keepLines(m_verdict);
    setGreyed(true);
}

void ResultsPanel::setGreyed(bool greyed)
{
    // A veil of the window's colour over the Summary and Diff pages (charts and images
    // included; an opacity effect would turn chart views black). Clicks and scrolling go
    // through it to the page.
    QColor veil = palette().color(QPalette::Window);
    veil.setAlpha(165);
    m_veil->setStyleSheet(QStringLiteral("background: %1;").arg(veil.name(QColor::HexArgb)));
    QRect page = m_tabs->rect();
    page.setTop(m_tabs->tabBar()->geometry().bottom() + 1);
    m_veil->setGeometry(page);
    const int tab = m_tabs->currentIndex();
    m_veil->setVisible(
        greyed && (tab == static_cast<int>(Tab::Summary) || tab == static_cast<int>(Tab::Diff)));
    m_veil->raise();
}

void ResultsPanel::appendLog(const QString& line)
{
    m_log->appendPlainText(QStringLiteral("[%1] %2").arg(
        QTime::currentTime().toString(QStringLiteral("HH:mm:ss")), line));
}

void ResultsPanel::setOutcome(std::shared_ptr<const RunOutcome> outcome,
                              const session::Session& session)
{
    if (!outcome) return;
    const session::RunReport& r = outcome->report;
    const session::TimingStats& t = r.timing;
    const bool timed = !t.samplesMs.empty();
    QString verdict = QStringLiteral("<span style='color:%1;font-weight:bold'>%2</span>")
                          .arg(statusColour(r.status), statusWord(r.status));
    // Nothing compared: a neutral word, never green; amber when an output was left unwritten.
    const bool unchecked = r.status == session::RunReport::Status::Unchecked;
    if (unchecked)
        verdict =
            QStringLiteral("<span style='color:%1;font-weight:bold'>%2</span>")
                .arg(r.unwrittenElements() ? QStringLiteral("#b26b00") : statusColour(r.status),
                     r.referenceKind == session::ReferenceSpec::Kind::None
                         ? tr("Ran — not checked (no reference)")
                         : tr("Ran — not checked (the reference covers no output)"));
    // Presentation Mode's verdict: the word ("FAIL", not "FAIL — mismatch") and the median
    // (the rest on hover), one line at the large font.
    QString compact = unchecked
                          ? verdict
                          : QStringLiteral("<span style='color:%1;font-weight:bold'>%2</span>")
                                .arg(statusColour(r.status),
                                     statusWord(r.status).section(QStringLiteral(" — "), 0, 0));
    if (timed) compact += tr(" · <b>%1</b> median").arg(formatMs(t.medianMs));
    if (timed && !r.pipeline.empty())
        verdict += tr(" · pipeline of %1 launches <b>%2</b> median per pass")
                       .arg(r.pipeline.size())
                       .arg(formatMs(t.medianMs));
    else if (timed)
        verdict += tr(" · kernel <b>%1</b> median").arg(formatMs(t.medianMs));
    if (timed)
        verdict += (r.pipeline.empty() ? tr(" (±%1, %2 runs)") : tr(" (±%1, %2 passes)"))
                       .arg(formatMs(t.stdevMs))
                       .arg(t.samplesMs.size());
    if (r.bandwidthGBs > 0)
        verdict += r.peakPercent > 0 ? tr(" · %1 = %2 % of peak")
                                           .arg(formatBandwidth(r.bandwidthGBs))
                                           .arg(r.peakPercent, 0, 'g', 3)
                                     : tr(" · %1").arg(formatBandwidth(r.bandwidthGBs));
    verdict += QStringLiteral(" · %1").arg(QString::fromStdString(r.device.name).toHtmlEscaped());
    const qsizetype headLength = verdict.size();
    QString tip;
    if (unchecked) {
        verdict +=
            QStringLiteral("<br><span style='color:%1'>%2</span>")
                .arg(r.unwrittenElements() ? QStringLiteral("#b26b00") : statusColour(r.status),
                     uncheckedFacts(r));
        if (r.referenceKind == session::ReferenceSpec::Kind::None)
            verdict += tr("<br>Write a reference in reference.cpp to compare the outputs.");
    } else if (!r.message.empty() && r.status != session::RunReport::Status::Passed &&
               // "FAIL — mismatch" says it already; the Diff tab says where.
               r.message != "outputs differ from the reference") {
        // A long message (a timeout's, a crash's) shows shortened; whole on hover and in Log.
        QString message = QString::fromStdString(r.message);
        if (message.size() > kVerdictMessageChars) {
            tip = message.size() > 4000 ? message.left(4000) + QStringLiteral(" …") : message;
            message = message.left(kVerdictMessageChars - 40) +
                      tr(" … (the whole message is in the Log tab)");
        }
        verdict += QStringLiteral("<br><span style='color:%1'>%2</span>")
                       .arg(statusColour(r.status), message.toHtmlEscaped());
    }
    if (outcome->offersBoundsCheck)
        verdict += tr("<br><a href=\"wb:bounds-check\">Run with Bounds Checking</a> — the CPU "
                      "emulator checks every access and names the faulting line (Ctrl+Alt+R)");
    m_verdictHtml = verdict;
    m_verdictCompactHtml = compact + verdict.mid(headLength);
    m_verdictTip = tip;
    showVerdict();
    m_hasResults = true;
    m_stale = false;
    m_staleLabel->hide();
    setGreyed(false);

    if (timed)
        m_timing->setText(
            // Flowing text, not a table: it wraps in a narrow panel (Presentation Mode)
            // instead of losing its last columns.
            tr("median <b>%1</b> · min %2 · mean %3 · stdev %4 · %5 iterations after %6 "
               "warm-up · grid %7×%8×%9 · block %10×%11×%12 · %13 B shared")
                .arg(formatMs(t.medianMs), formatMs(t.minMs), formatMs(t.meanMs),
                     formatMs(t.stdevMs))
                .arg(r.iterations)
                .arg(r.warmup)
                .arg(r.launch.grid.x)
                .arg(r.launch.grid.y)
                .arg(r.launch.grid.z)
                .arg(r.launch.block.x)
                .arg(r.launch.block.y)
                .arg(r.launch.block.z)
                .arg(r.launch.sharedBytes));
    else
        m_timing->setText(
            tr("Not timed: %1").arg(QString::fromStdString(r.message).toHtmlEscaped()));
    if (timed && !r.pipeline.empty()) m_timing->setText(pipelineTimingHtml(r));
    m_launches->setRowCount(static_cast<int>(r.pipeline.size()));
    const auto dims = [](const Dim3& d) {
        return QStringLiteral("%1×%2×%3").arg(d.x).arg(d.y).arg(d.z);
    };
    for (std::size_t i = 0; i < r.pipeline.size(); ++i) {
        const session::PipelineLaunchTiming& l = r.pipeline[i];
        const QStringList cells{QString::number(i + 1),
                                QString::fromStdString(l.kernel),
                                QString::fromStdString(session::loopValuesText(l.vars)),
                                dims(l.config.grid),
                                dims(l.config.block),
                                QString::number(l.config.sharedBytes),
                                formatMs(l.timing.medianMs)};
        for (int c = 0; c < static_cast<int>(cells.size()); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c == 0 || c >= 5) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_launches->setItem(static_cast<int>(i), c, item);
        }
    }
    m_launches->resizeColumnsToContents();
    m_tabs->setTabVisible(static_cast<int>(Tab::Launches), !r.pipeline.empty());

    QStringList lines;
    if (timed && r.bytesMoved > 0) {
        QString bw = tr("Effective bandwidth <b>%1</b> (%2 moved per launch: inputs read "
                        "once, outputs written once)")
                         .arg(formatBandwidth(r.bandwidthGBs))
                         .arg(QLocale().formattedDataSize(static_cast<qint64>(r.bytesMoved), 1,
                                                          QLocale::DataSizeSIFormat));
        if (r.device.peakBandwidthGBs > 0)
            bw += tr(" — %1 % of the device's %2 peak")
                      .arg(r.peakPercent, 0, 'g', 3)
                      .arg(formatBandwidth(r.device.peakBandwidthGBs));
        else
            bw += tr(" — device peak unknown (%1)")
                      .arg(QString::fromStdString(r.device.name).toHtmlEscaped());
        lines << bw;
        // One operation per output element is the least a kernel does; a lower bound on GFLOP/s.
        std::uint64_t outElements = 0;
        for (const auto& [name, array] : r.results)
            outElements += array.count();
        if (outElements > 0 && t.medianMs > 0)
            lines.last() += tr(" · ≥ %1 at one operation per output element (%2 elements)")
                                .arg(QString::fromStdString(profiling::formatSummaryValue(
                                    {"",
                                     "",
                                     "flops",
                                     static_cast<double>(outElements) / (t.medianMs * 1e-3),
                                     {}})))
                                .arg(outElements);
    }
    // A run whose runner crashed has no compile figures: say only how long it took.
    QString last =
        r.compilerVersion.empty()
            ? tr("Whole run %1").arg(formatMs(outcome->wallMs))
            : tr("Compiled by %1 for %2 in %3 · whole run %4")
                  .arg(QString::fromStdString(r.compilerVersion), QString::fromStdString(r.target))
                  .arg(formatMs(r.compileMs), formatMs(outcome->wallMs));
    if (r.h2dMs >= 0 && r.d2hMs >= 0)
        last += tr(" · the run's copies: H2D %1 (%2 B), D2H %3 (%4 B)")
                    .arg(formatMs(r.h2dMs))
                    .arg(r.h2dBytes)
                    .arg(formatMs(r.d2hMs))
                    .arg(r.d2hBytes);
    else if (!outcome->transferNote.isEmpty())
        last += QStringLiteral(" · ") + outcome->transferNote.toHtmlEscaped();
    lines << last;
    m_throughput->setText(lines.join(QStringLiteral("<br>")));
    keepLines(m_timing);
    keepLines(m_throughput);
    if (m_compact) m_timing->setToolTip(plainLines(m_throughput->text()));
    m_charts->setTimes(t.samplesMs, r.h2dMs, timed ? t.medianMs : -1, r.d2hMs);
    m_charts->setVisible(timed);

    m_diff->setOutcome(outcome, session);
    appendLog(tr("run finished: %1").arg(QString::fromUtf8(r.statusName())));
    for (const QString& line : QString::fromStdString(r.toText()).split(u'\n'))
        if (!line.isEmpty()) m_log->appendPlainText(QStringLiteral("    ") + line);
    if (!outcome->report.kernelOutput.empty()) {
        appendLog(tr("the kernel printed:"));
        QStringList printed = QString::fromStdString(outcome->report.kernelOutput).split(u'\n');
        if (printed.last().isEmpty()) printed.removeLast();
        for (const QString& line : printed)
            m_log->appendPlainText(QStringLiteral("    ") + line);
    }
    if (r.status == session::RunReport::Status::CompileError)
        showTab(Tab::Problems);
    else if (r.status == session::RunReport::Status::Mismatch)
        showTab(Tab::Diff);
    else if (r.status == session::RunReport::Status::Passed && m_tabs->currentIndex() > 1)
        showTab(Tab::Summary);
}

} // namespace wb::ui
