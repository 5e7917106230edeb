// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results/DiffView.h"

#include "ui/common/ChartTheme.h"

#include "ui/buffers/ImageView.h"
#include "ui/common/VirtualTableView.h"
#include "ui/results/DiffTableModel.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QResizeEvent>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QValueAxis>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>

namespace wb::ui {

namespace {

QString badgeHtml(bool pass)
{
    return pass ? QStringLiteral("<span style='background:#2e9e44;color:white;font-weight:bold;"
                                 "padding:2px 8px;border-radius:3px'>&nbsp;PASS&nbsp;</span>")
                : QStringLiteral("<span style='background:#d0342c;color:white;font-weight:bold;"
                                 "padding:2px 8px;border-radius:3px'>&nbsp;FAIL&nbsp;</span>");
}

QString g(double v)
{
    return QString::number(v, 'g', 4);
}

} // namespace

DiffView::DiffView(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_output = new QComboBox(this);
    m_output->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_badge = new QLabel(this);
    m_badge->setTextFormat(Qt::RichText);
    m_stats = new QLabel(this);
    m_stats->setWordWrap(true);
    m_stats->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The statistics wrap in the whole width above the views, so at a projector's font size
    // they still fit a narrow panel.
    m_stats->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto* prev = m_prev = new QToolButton(this);
    prev->setText(tr("◀ Previous"));
    prev->setToolTip(tr("Previous mismatch (Shift+F8)"));
    auto* next = m_next = new QToolButton(this);
    next->setText(tr("Next ▶"));
    next->setToolTip(tr("Next mismatch (F8)"));
    // The output and its badge left of the views' tabs, Previous / Next right of them: no row
    // of their own, so at 1280×720 the table keeps at least 8 rows in view (placeControls).
    m_outputBox = new QWidget(this);
    auto* top = new QHBoxLayout(m_outputBox);
    top->setContentsMargins(0, 0, 6, 0);
    top->addWidget(m_output);
    top->addWidget(m_badge);
    m_stepBox = new QWidget(this);
    auto* steps = new QHBoxLayout(m_stepBox);
    steps->setContentsMargins(0, 0, 0, 0);
    steps->addWidget(prev);
    steps->addWidget(next);
    m_controlsRow = new QWidget(this);
    auto* row = new QHBoxLayout(m_controlsRow);
    row->setContentsMargins(0, 0, 0, 0);
    row->addStretch(1);
    layout->addWidget(m_controlsRow);
    layout->addWidget(m_stats);

    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    // Its width is the panel's to give: the controls move to their own row when narrow.
    m_tabs->setMinimumWidth(1);
    m_model = new DiffTableModel(this);
    m_table = new VirtualTableView(m_tabs);
    m_table->setModel(m_model);
    // Every column as wide as its header and its values on screen (the model holds only the
    // rows in view): never "eference" or "-0.72…" at a large font
    // (Presentation Mode); a table wider than its panel scrolls sideways.
    m_table->table()->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // (A stretched last section would be cut to the room left.)
    m_table->table()->horizontalHeader()->setStretchLastSection(false);
    // Short names (the diff is the context): all four whole at Presentation Mode's font in a
    // 1280 × 720 projector's panel column, never "Error histo"; the long name on hover.
    m_tabs->addTab(m_table, tr("Table"));
    m_tabs->setTabToolTip(0, tr("Result and reference side by side"));
    m_heatmap = new ImageView(m_tabs);
    m_tabs->setTabToolTip(m_tabs->addTab(m_heatmap, tr("Heatmap")), tr("Error heatmap"));
    m_histogram = new QChartView(m_tabs);
    m_tabs->setTabToolTip(m_tabs->addTab(m_histogram, tr("Histogram")), tr("Error histogram"));
    m_images = new QWidget(m_tabs);
    new QGridLayout(m_images);
    m_tabs->addTab(m_images, tr("Images"));
    layout->addWidget(m_tabs, 1);

    m_search = new QFutureWatcher<std::int64_t>(this);
    connect(m_search, &QFutureWatcher<std::int64_t>::finished, this, [this]() {
        const std::int64_t found = m_search->result();
        if (found < 0) {
            m_stats->setText(statsText() + tr(" · no mismatch"));
            return;
        }
        m_currentMismatch = found;
        m_tabs->setCurrentWidget(m_table);
        m_table->scrollToRow(found, DiffTableModel::AbsErrorColumn);
        m_heatmap->setHighlight(found);
        Q_EMIT mismatchShown(found);
    });
    m_errors = new QFutureWatcher<std::shared_ptr<std::vector<float>>>(this);
    connect(m_errors, &QFutureWatcher<std::shared_ptr<std::vector<float>>>::finished, this,
            [this]() {
                auto errors = m_errors->result();
                if (!errors) return;
                const ArrayView& r = m_model->result();
                ArrayView view(errors, reinterpret_cast<const std::byte*>(errors->data()),
                               errors->size(), ElementKind::F32, r.shape());
                double mx = 0;
                for (float e : *errors)
                    if (std::isfinite(e)) mx = std::max(mx, static_cast<double>(e));
                m_heatmap->setColormap(Colormap::Inferno);
                m_heatmap->setTrueColour(false);
                m_heatmap->setArray(view);
                m_heatmap->setRange(0, mx > 0 ? mx : 1);
                m_heatmap->setMask(m_model->unwrittenMask(), DiffTableModel::unwrittenColour());
                m_heatmap->setTitle(m_model->unwrittenMask().empty()
                                        ? tr("|result − reference| (magenta: NaN/Inf)")
                                        : tr("|result − reference| (magenta: NaN/Inf · violet: "
                                             "never written)"));
            });
    placeControls();
    connect(next, &QToolButton::clicked, this, [this]() { goToMismatch(false); });
    connect(prev, &QToolButton::clicked, this, [this]() { goToMismatch(true); });
    connect(m_output, &QComboBox::currentIndexChanged, this, &DiffView::showOutput);
    clear();
}

void DiffView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    placeControls();
}

void DiffView::placeControls()
{
    // Previous / Next named in full: their text's width plus what the style adds around it.
    const QFontMetrics fm(m_prev->font());
    const auto fullWidth = [&fm](QToolButton* b, const QString& text) {
        return b->sizeHint().width() - fm.horizontalAdvance(b->text()) + fm.horizontalAdvance(text);
    };
    const int spacing = std::max(0, m_stepBox->layout()->spacing());
    const int steps = fullWidth(m_prev, tr("◀ Previous")) + fullWidth(m_next, tr("Next ▶")) +
                      spacing + 2 * m_stepBox->layout()->contentsMargins().left();
    const int output = m_outputBox->sizeHint().width();
    const int mode = width() >= output + m_tabs->tabBar()->sizeHint().width() + steps + 16 ? 0
                     : width() >= output + steps + 12                                      ? 1
                                                                                           : 2;
    if (mode == m_controlsMode) return;
    m_controlsMode = mode;
    m_prev->setText(mode == 2 ? QStringLiteral("◀") : tr("◀ Previous"));
    m_next->setText(mode == 2 ? QStringLiteral("▶") : tr("Next ▶"));
    auto* row = static_cast<QHBoxLayout*>(m_controlsRow->layout());
    if (mode == 0) {
        row->removeWidget(m_outputBox);
        row->removeWidget(m_stepBox);
        m_tabs->setCornerWidget(m_outputBox, Qt::TopLeftCorner);
        m_tabs->setCornerWidget(m_stepBox, Qt::TopRightCorner);
        m_controlsRow->hide();
    } else {
        m_tabs->setCornerWidget(nullptr, Qt::TopLeftCorner);
        m_tabs->setCornerWidget(nullptr, Qt::TopRightCorner);
        row->insertWidget(0, m_outputBox);
        row->addWidget(m_stepBox);
        m_controlsRow->show();
    }
    m_outputBox->show();
    m_stepBox->show();
}

void DiffView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    // Presentation Mode's font: the controls' widths change with it.
    if (event->type() == QEvent::FontChange) {
        m_controlsMode = -1;
        placeControls();
    }
}

DiffView::~DiffView()
{
    m_search->waitForFinished();
    m_errors->waitForFinished();
}

void DiffView::clear()
{
    m_outcome.reset();
    m_outputs.clear();
    m_output->clear();
    m_badge->clear();
    m_stats->setText(tr("Run the kernel (Ctrl+R) to compare it with its reference."));
    m_model->setArrays({}, {}, {});
    m_heatmap->setArray({});
    // The histogram keeps nothing of the last output: no bars, axes or title.
    QChart* histogram = m_histogram->chart();
    histogram->removeAllSeries();
    for (QAbstractAxis* a : histogram->axes())
        histogram->removeAxis(a);
    histogram->setTitle(QString());
    m_tabs->setTabEnabled(1, false);
    m_tabs->setTabEnabled(3, false);
}

void DiffView::setOutcome(std::shared_ptr<const RunOutcome> outcome,
                          const session::Session& session)
{
    m_search->waitForFinished();
    m_errors->waitForFinished();
    clear();
    m_outcome = std::move(outcome);
    if (!m_outcome) return;
    const session::RunReport& r = m_outcome->report;
    for (const session::OutputResult& o : r.outputs) {
        m_outputs.push_back(o.buffer);
        const QString name = QString::fromStdString(o.buffer);
        if (!o.compared)
            m_output->addItem(tr("%1 — not compared").arg(name));
        else
            m_output->addItem(
                QIcon(o.stats.passed() ? QStringLiteral(":/warpbench/icons/pass.svg")
                                       : QStringLiteral(":/warpbench/icons/error.svg")),
                QStringLiteral("%1  %2").arg(name, o.stats.passed() ? tr("PASS") : tr("FAIL")));
    }
    if (r.outputs.empty())
        m_stats->setText(QString::fromStdString(
            r.message.empty() ? std::string("no outputs compared") : r.message));
    buildImages(session);
    if (!m_outputs.empty()) showOutput(0);
    // Image examples open on the pictures; the numbers are one tab away.
    if (m_hasImages) m_tabs->setCurrentWidget(m_images);
}

bool DiffView::selectOutput(const QString& name)
{
    for (std::size_t i = 0; i < m_outputs.size(); ++i)
        if (QString::fromStdString(m_outputs[i]) == name) {
            m_output->setCurrentIndex(static_cast<int>(i));
            return true;
        }
    return false;
}

void DiffView::showOutput(int i)
{
    if (!m_outcome || i < 0 || static_cast<std::size_t>(i) >= m_outputs.size()) return;
    m_search->waitForFinished();
    m_errors->waitForFinished();
    m_currentMismatch = -1;
    const session::RunReport& r = m_outcome->report;
    const session::OutputResult& o = r.outputs[static_cast<std::size_t>(i)];
    const auto res = r.results.find(o.buffer);
    const auto exp = r.expected.find(o.buffer);
    if (!o.compared || res == r.results.end() || exp == r.expected.end()) {
        m_badge->clear();
        m_stats->setText(
            tr("%1 has no reference to compare with").arg(QString::fromStdString(o.buffer)));
        m_model->setArrays({}, {}, o.tolerance);
        return;
    }
    m_badge->setText(badgeHtml(o.stats.passed()));
    m_stats->setText(statsText());
    m_stats->setToolTip(statsText(true));
    // The outcome owns the arrays; the views keep it alive.
    ArrayView result = viewOf(m_outcome, res->second);
    ArrayView expected = viewOf(m_outcome, exp->second);
    m_model->setArrays(result, expected, o.tolerance);
    m_model->setUnwrittenMask(m_outcome->report.unwrittenMask(o.buffer));

    // Error histogram (log2 bins of |a - b| from the diff engine).
    QChart* chart = m_histogram->chart();
    chart->removeAllSeries();
    applyChartTheme(chart, palette());
    for (QAbstractAxis* a : chart->axes())
        chart->removeAxis(a);
    const auto& h = o.stats.histogram;
    int first = -1, last = -1;
    for (std::size_t b = 0; b < h.size(); ++b)
        if (h[b]) {
            if (first < 0) first = static_cast<int>(b);
            last = static_cast<int>(b);
        }
    if (first >= 0) {
        auto* set = new QBarSet(tr("elements"));
        QStringList labels;
        double maxCount = 0;
        for (int b = first; b <= last; ++b) {
            // Counts on a log scale would hide the zero bin; show log10(count + 1).
            const double c = static_cast<double>(h[static_cast<std::size_t>(b)]);
            *set << c;
            maxCount = std::max(maxCount, c);
            labels << (b == 0 ? tr("exact")
                              : QStringLiteral("2^%1").arg(b - 1 +
                                                           session::DiffStats::kHistogramMinExp));
        }
        set->setColor(QColor(0xc0504d));
        auto* series = new QBarSeries;
        series->append(set);
        chart->addSeries(series);
        auto* x = new QBarCategoryAxis;
        x->append(labels);
        x->setTitleText(tr("|result − reference| (bin lower edge)"));
        auto* y = new QValueAxis;
        const double step = std::max(1.0, std::ceil(maxCount / 5.0));
        y->setRange(0, std::ceil(maxCount / step) * step);
        y->setLabelFormat(QStringLiteral("%.0f"));
        y->setTickType(QValueAxis::TicksDynamic);
        y->setTickAnchor(0);
        y->setTickInterval(step);
        y->setTitleText(tr("elements"));
        chart->addAxis(x, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
        series->attachAxis(x);
        series->attachAxis(y);
        chart->legend()->hide();
        chart->setTitle(tr("Error histogram of %1").arg(QString::fromStdString(o.buffer)));
    }

    // Error heatmap for 2-D buffers, computed off the GUI thread.
    const bool twoD = result.is2D();
    m_tabs->setTabEnabled(1, twoD);
    if (twoD) {
        m_errors->setFuture(QtConcurrent::run([result, expected]() {
            auto errors = std::make_shared<std::vector<float>>(result.size());
            for (std::size_t k = 0; k < result.size(); ++k)
                (*errors)[k] = static_cast<float>(std::fabs(result.value(k) - expected.value(k)));
            return errors;
        }));
    }
    if (!o.stats.passed() && !o.stats.firstMismatches.empty()) {
        m_currentMismatch = static_cast<std::int64_t>(o.stats.firstMismatches.front().index);
        m_table->scrollToRow(m_currentMismatch, DiffTableModel::AbsErrorColumn);
        m_tabs->setCurrentWidget(m_table);
    } else {
        m_table->scrollToRow(0);
        m_tabs->setCurrentWidget(m_table);
    }
}

QString DiffView::badgeText() const
{
    if (!m_outcome) return {};
    const int i = m_output->currentIndex();
    if (i < 0 || static_cast<std::size_t>(i) >= m_outputs.size()) return {};
    const auto& o = m_outcome->report.outputs[static_cast<std::size_t>(i)];
    if (!o.compared) return {};
    return o.stats.passed() ? QStringLiteral("PASS") : QStringLiteral("FAIL");
}

QString DiffView::statsText(bool numbers) const
{
    if (!m_outcome) return {};
    const int i = m_output->currentIndex();
    if (i < 0 || static_cast<std::size_t>(i) >= m_outputs.size()) return {};
    const auto& o = m_outcome->report.outputs[static_cast<std::size_t>(i)];
    const auto& s = o.stats;
    QString tol = o.tolerance.mode == session::Tolerance::Mode::Ulp
                      ? tr("≤ %1 ULP").arg(o.tolerance.maxUlp)
                      : tr("atol %1, rtol %2").arg(g(o.tolerance.atol), g(o.tolerance.rtol));
    // A FAIL whose only mismatches are never-written elements says so first: the statistics
    // of the written elements (all 0) would otherwise read like a pass.
    const bool onlyUnwritten =
        !numbers && !s.passed() && o.coverage.unwritten > 0 && s.mismatches == o.coverage.unwritten;
    if (m_compact && !numbers && !onlyUnwritten) {
        // Presentation Mode: one line (the whole statistics on hover).
        QString text = tr("mismatches %1/%2").arg(s.mismatches).arg(s.count);
        if (o.coverage.unwritten > 0)
            text += tr(" · %1 never written").arg(o.coverage.unwritten);
        else
            text += tr(" · max abs %1").arg(g(s.maxAbs));
        const auto nan =
            s.nanActual > o.coverage.unwritten ? s.nanActual - o.coverage.unwritten : 0;
        if (nan > 0) text += tr(" · NaN %1").arg(nan);
        return text;
    }
    QString text = tr("max abs %1 · max rel %2 · max ULP %3 · mean abs %4 · RMS %5 · mismatches "
                      "%6/%7 (%8 %) · %9")
                       .arg(g(s.maxAbs), g(s.maxRel))
                       .arg(s.maxUlp)
                       .arg(g(s.meanAbs), g(s.rms))
                       .arg(s.mismatches)
                       .arg(s.count)
                       .arg(s.mismatchFraction * 100.0, 0, 'g', 3)
                       .arg(tol);
    if (s.nanActual || s.nanExpected || s.infActual || s.infExpected)
        text += tr(" · NaN %1/%2 · Inf %3/%4 (result/reference)")
                    .arg(s.nanActual)
                    .arg(s.nanExpected)
                    .arg(s.infActual)
                    .arg(s.infExpected);
    if (onlyUnwritten && m_compact)
        return tr("FAIL: %1 of %2 never written (violet)").arg(o.coverage.unwritten).arg(s.count);
    if (onlyUnwritten)
        return tr("FAIL only because %1 (violet rows). Every element the kernel wrote matches "
                  "the reference.")
            .arg(QString::fromStdString(o.coverage.message(o.buffer)));
    if (o.coverage.unwritten > 0)
        text += QStringLiteral(" · ") + QString::fromStdString(o.coverage.message(o.buffer)) +
                tr(" (violet rows)");
    return text;
}

void DiffView::setCompact(bool compact)
{
    if (compact == m_compact) return;
    m_compact = compact;
    const int i = m_output->currentIndex();
    if (!m_outcome || i < 0 || static_cast<std::size_t>(i) >= m_outputs.size()) return;
    const auto& o = m_outcome->report.outputs[static_cast<std::size_t>(i)];
    const auto& r = m_outcome->report;
    if (o.compared && r.results.count(o.buffer) && r.expected.count(o.buffer))
        m_stats->setText(statsText());
}

bool DiffView::goToMismatch(bool backwards)
{
    if (!m_outcome || m_model->totalRows() == 0) return false;
    m_search->waitForFinished();
    std::int64_t from = m_table->currentRow();
    if (from < 0) from = backwards ? 0 : -1;
    const DiffTableModel* model = m_model;
    // Small arrays answer at once; large ones are scanned off the GUI thread.
    if (model->totalRows() <= 1'000'000) {
        const std::int64_t found = model->findMismatch(from, backwards);
        if (found < 0) return false;
        m_currentMismatch = found;
        m_tabs->setCurrentWidget(m_table);
        m_table->scrollToRow(found, DiffTableModel::AbsErrorColumn);
        m_heatmap->setHighlight(found);
        Q_EMIT mismatchShown(found);
        return true;
    }
    m_search->setFuture(QtConcurrent::run(
        [model, from, backwards]() { return model->findMismatch(from, backwards); }));
    return true;
}

void DiffView::buildImages(const session::Session& session)
{
    auto* grid = static_cast<QGridLayout*>(m_images->layout());
    while (QLayoutItem* item = grid->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_hasImages = false;
    const session::BufferSpec* input = nullptr;
    for (const auto& b : session.buffers)
        if (b.init.kind == session::Initialiser::Kind::Image &&
            b.role != session::BufferRole::Out) {
            input = &b;
            break;
        }
    if (!input || !m_outcome) {
        m_tabs->setTabEnabled(3, false);
        return;
    }
    const session::RunReport& r = m_outcome->report;
    int column = 0;
    auto add = [&](const QString& title, ArrayView view, double lo, double hi) {
        auto* v = new ImageView(m_images);
        v->setTitle(title);
        v->setColormap(Colormap::Grey);
        v->setArray(std::move(view));
        v->setRange(lo, hi);
        grid->addWidget(v, 0, column++);
    };
    auto range = [](session::ElementType t) { return session::isFloatingPoint(t) ? 1.0 : 255.0; };
    if (auto it = m_outcome->inputs.find(input->name); it != m_outcome->inputs.end())
        add(tr("input %1").arg(QString::fromStdString(input->name)), viewOf(m_outcome, it->second),
            0, range(it->second.type()));
    for (const auto& o : r.outputs) {
        auto res = r.results.find(o.buffer);
        auto exp = r.expected.find(o.buffer);
        if (res == r.results.end()) continue;
        const double hi = range(res->second.type());
        add(tr("output %1").arg(QString::fromStdString(o.buffer)), viewOf(m_outcome, res->second),
            0, hi);
        if (exp != r.expected.end()) {
            add(tr("reference"), viewOf(m_outcome, exp->second), 0, hi);
            const auto& a = res->second;
            const auto& b = exp->second;
            std::vector<float> diff(a.count());
            double mx = 0;
            for (std::size_t k = 0; k < a.count() && k < b.count(); ++k) {
                diff[k] = static_cast<float>(std::fabs(a.at(k) - b.at(k)));
                mx = std::max(mx, static_cast<double>(diff[k]));
            }
            auto* v = new ImageView(m_images);
            v->setTitle(tr("difference (max %1)").arg(g(mx)));
            v->setColormap(Colormap::Inferno);
            v->setTrueColour(false);
            v->setArray(ArrayView::copyOf(diff.data(), diff.size(), ElementKind::F32, a.shape()));
            v->setRange(0, mx > 0 ? mx : 1);
            grid->addWidget(v, 0, column++);
        }
        break; // the first output is the picture; the others are in the table
    }
    m_hasImages = column > 1;
    m_tabs->setTabEnabled(3, m_hasImages);
}

} // namespace wb::ui
