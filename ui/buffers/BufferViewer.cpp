// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/buffers/BufferViewer.h"

#include "ui/common/ChartTheme.h"

#include "ui/buffers/ArrayTableModel.h"
#include "ui/buffers/ImageView.h"
#include "ui/common/VirtualTableView.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleValidator>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>
#include <QtConcurrent/QtConcurrentRun>

namespace wb::ui {

namespace {
QString humanBytes(double bytes)
{
    const char* units[] = {"B", "KB", "MB", "GB", "TB"};
    int u = 0;
    while (bytes >= 1000 && u < 4) {
        bytes /= 1000;
        ++u;
    }
    return QStringLiteral("%1 %2").arg(bytes, 0, 'f', u == 0 ? 0 : 1).arg(QLatin1String(units[u]));
}
} // namespace

BufferViewer::BufferViewer(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* top = new QHBoxLayout;
    m_header = new QLabel(this);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_goTo = new QLineEdit(this);
    m_goTo->setPlaceholderText(tr("Go to index or y, x"));
    m_goTo->setMaximumWidth(160);
    top->addWidget(m_header, 1);
    top->addWidget(m_goTo);
    layout->addLayout(top);

    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    // Table page
    auto* tablePage = new QWidget(m_tabs);
    auto* tl = new QVBoxLayout(tablePage);
    tl->setContentsMargins(0, 0, 0, 0);
    m_grid = new QCheckBox(tr("Show as grid (rows × columns)"), tablePage);
    m_table = new VirtualTableView(tablePage);
    m_model = new ArrayTableModel(this);
    m_table->setModel(m_model);
    tl->addWidget(m_grid);
    tl->addWidget(m_table, 1);
    m_tabs->addTab(tablePage, tr("Table"));
    // Plot page
    m_plot = new QChartView(m_tabs);
    m_plot->setRenderHint(QPainter::Antialiasing, false);
    m_tabs->addTab(m_plot, tr("Plot"));
    // Image page
    auto* imagePage = new QWidget(m_tabs);
    auto* il = new QVBoxLayout(imagePage);
    il->setContentsMargins(0, 0, 0, 0);
    auto* controls = new QHBoxLayout;
    m_colormap = new QComboBox(imagePage);
    m_colormap->addItems(Colormap::names());
    m_autoRange = new QCheckBox(tr("Auto range"), imagePage);
    m_autoRange->setChecked(true);
    m_lo = new QLineEdit(imagePage);
    m_hi = new QLineEdit(imagePage);
    for (QLineEdit* e : {m_lo, m_hi}) {
        e->setValidator(new QDoubleValidator(e));
        e->setMaximumWidth(100);
        e->setEnabled(false);
    }
    controls->addWidget(new QLabel(tr("Colormap"), imagePage));
    controls->addWidget(m_colormap);
    controls->addWidget(m_autoRange);
    controls->addWidget(new QLabel(tr("Min"), imagePage));
    controls->addWidget(m_lo);
    controls->addWidget(new QLabel(tr("Max"), imagePage));
    controls->addWidget(m_hi);
    controls->addStretch(1);
    m_image = new ImageView(imagePage);
    il->addLayout(controls);
    il->addWidget(m_image, 1);
    m_tabs->addTab(imagePage, tr("Image"));
    layout->addWidget(m_tabs, 1);

    m_picker = new QLabel(this);
    m_picker->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_picker);

    m_watcher = new QFutureWatcher<ArraySummary>(this);
    connect(m_watcher, &QFutureWatcher<ArraySummary>::finished, this, [this]() {
        m_summary = m_watcher->result();
        m_summaryReady = true;
        applySummary();
        Q_EMIT summaryComputed();
    });
    connect(m_grid, &QCheckBox::toggled, this, [this](bool on) { m_model->setGrid(on); });
    connect(m_table, &VirtualTableView::currentRowChanged, this,
            [this](std::int64_t row, int column) { pick(m_model->elementAt(row, column)); });
    connect(m_image, &ImageView::elementHovered, this, &BufferViewer::pick);
    connect(m_image, &ImageView::elementClicked, this, [this](qint64 i) {
        pick(i);
        const auto cell = m_model->cellOf(static_cast<std::size_t>(i));
        m_table->scrollToRow(cell.first, cell.second);
    });
    connect(m_goTo, &QLineEdit::returnPressed, this, [this]() { goToElement(m_goTo->text()); });
    connect(m_colormap, &QComboBox::currentIndexChanged, this,
            [this](int i) { m_image->setColormap(static_cast<Colormap::Kind>(i)); });
    connect(m_autoRange, &QCheckBox::toggled, this, [this](bool on) {
        m_lo->setEnabled(!on);
        m_hi->setEnabled(!on);
        applyRange();
    });
    connect(m_lo, &QLineEdit::editingFinished, this, &BufferViewer::applyRange);
    connect(m_hi, &QLineEdit::editingFinished, this, &BufferViewer::applyRange);
}

BufferViewer::~BufferViewer()
{
    m_watcher->disconnect(this);
    m_watcher->waitForFinished();
}

void BufferViewer::setBuffer(const QString& name, ArrayView array)
{
    m_name = name;
    m_array = std::move(array);
    m_summaryReady = false;
    QStringList dims;
    for (std::size_t d : m_array.shape())
        dims << QString::number(d);
    m_stale = false;
    updateVeil();
    m_headerHtml =
        QStringLiteral("<b>%1</b> · %2 · [%3] · %4")
            .arg(name.toHtmlEscaped(), QString::fromUtf8(elementKindName(m_array.kind())),
                 dims.join(QStringLiteral(", ")),
                 humanBytes(static_cast<double>(m_array.size() * elementBytes(m_array.kind()))));
    m_header->setText(m_headerHtml);
    m_model->setArray(m_array);
    m_grid->setEnabled(m_model->canShowGrid());
    m_grid->setChecked(m_model->canShowGrid() && m_array.width() <= 64);
    m_model->setGrid(m_grid->isChecked());
    m_image->setTitle(QString());
    m_image->setArray(m_array);
    m_tabs->setTabEnabled(2, m_array.is2D());
    m_tabs->setCurrentIndex(m_array.is2D() ? 2 : 0);
    m_plot->chart()->removeAllSeries();
    m_picker->clear();

    m_watcher->waitForFinished();
    const ArrayView copy = m_array; // shares the bytes
    m_watcher->setFuture(QtConcurrent::run([copy]() { return ArraySummary::compute(copy); }));
}

void BufferViewer::clear()
{
    m_watcher->waitForFinished();
    m_name.clear();
    m_array = {};
    m_summaryReady = false;
    m_stale = false;
    updateVeil();
    m_model->setArray(m_array);
    m_image->setArray(m_array);
    m_plot->chart()->removeAllSeries();
    m_picker->clear();
    m_headerHtml = tr("No buffer shown: double-click a buffer's row in Buffers, or select it and "
                      "press View.");
    m_header->setText(m_headerHtml);
    m_header->setToolTip({});
}

void BufferViewer::setStale(bool stale)
{
    if (m_name.isEmpty() || stale == m_stale) return;
    m_stale = stale;
    updateVeil();
    m_header->setText(stale ? tr("%1 · <span style='color:gray'><i>from an earlier version (the "
                                 "session changed since this run)</i></span>")
                                  .arg(m_headerHtml)
                            : m_headerHtml);
}

void BufferViewer::updateVeil()
{
    // A veil of the window's colour over the pages (an opacity effect would turn the plot's
    // chart view black); clicks and scrolling go through it.
    if (!m_veil) {
        if (!m_stale) return;
        m_veil = new QWidget(this);
        m_veil->setAttribute(Qt::WA_TransparentForMouseEvents);
        m_veil->setAttribute(Qt::WA_StyledBackground);
    }
    QColor veil = palette().color(QPalette::Window);
    veil.setAlpha(165);
    m_veil->setStyleSheet(QStringLiteral("background: %1;").arg(veil.name(QColor::HexArgb)));
    m_veil->setGeometry(m_tabs->geometry());
    m_veil->setVisible(m_stale);
    m_veil->raise();
}

void BufferViewer::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (m_stale) QTimer::singleShot(0, this, &BufferViewer::updateVeil); // after the layout
}

QString BufferViewer::headerText() const
{
    return m_header->text();
}

void BufferViewer::applySummary()
{
    const QString stats = tr("min %1 · max %2 · mean %3")
                              .arg(m_summary.min, 0, 'g', 6)
                              .arg(m_summary.max, 0, 'g', 6)
                              .arg(m_summary.mean, 0, 'g', 6);
    m_header->setToolTip(m_summary.nonFinite ? stats + tr(" · %1 NaN/Inf").arg(m_summary.nonFinite)
                                             : stats);
    m_lo->setText(QString::number(m_summary.min, 'g', 6));
    m_hi->setText(QString::number(m_summary.max, 'g', 6));
    applyRange();
    updatePlot();
}

void BufferViewer::applyRange()
{
    double lo = m_summary.min, hi = m_summary.max;
    if (!m_autoRange->isChecked()) {
        lo = m_lo->text().toDouble();
        hi = m_hi->text().toDouble();
    }
    // 8-bit data keeps its natural range so images look as they are.
    if (m_autoRange->isChecked() && (m_array.kind() == ElementKind::U8) &&
        m_image->isTrueColour()) {
        lo = 0;
        hi = 255;
    }
    m_image->setRange(lo, hi);
}

void BufferViewer::updatePlot()
{
    QChart* chart = m_plot->chart();
    chart->removeAllSeries();
    applyChartTheme(chart, palette());
    for (QAbstractAxis* axis : chart->axes())
        chart->removeAxis(axis);
    auto* series = new QLineSeries;
    series->replace(m_summary.outline);
    series->setName(m_name);
    chart->addSeries(series);
    auto* x = new QValueAxis;
    x->setRange(0, static_cast<double>(std::max<std::size_t>(1, m_array.size())));
    x->setLabelFormat(QStringLiteral("%.0f"));
    x->setTitleText(tr("index"));
    auto* y = new QValueAxis;
    const double pad =
        (m_summary.max - m_summary.min) * 0.05 + (m_summary.max == m_summary.min ? 1 : 0);
    y->setRange(m_summary.min - pad, m_summary.max + pad);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    chart->legend()->hide();
    const bool decimated = static_cast<std::size_t>(m_summary.outline.size()) < m_array.size();
    chart->setTitle(decimated
                        ? tr("%1 (min/max envelope of %2 elements)").arg(m_name).arg(m_array.size())
                        : m_name);
}

void BufferViewer::showPage(Page page)
{
    m_tabs->setCurrentIndex(static_cast<int>(page));
}

BufferViewer::Page BufferViewer::currentPage() const
{
    return static_cast<Page>(m_tabs->currentIndex());
}

QString BufferViewer::pickerText() const
{
    return m_picker->text();
}

void BufferViewer::pick(qint64 index)
{
    if (index < 0 || static_cast<std::size_t>(index) >= m_array.size()) return;
    const auto i = static_cast<std::size_t>(index);
    m_picker->setText(tr("%1 %2 = %3  (flat index %4)")
                          .arg(m_name, m_array.coordinates(i), m_array.text(i))
                          .arg(index));
}

bool BufferViewer::goToElement(const QString& text)
{
    const QStringList parts = text.split(u',', Qt::SkipEmptyParts);
    if (parts.isEmpty()) return false;
    std::size_t flat = 0;
    const auto& shape = m_array.shape();
    if (parts.size() == 1) {
        bool ok = false;
        flat = parts[0].trimmed().toULongLong(&ok);
        if (!ok) return false;
    } else {
        if (static_cast<std::size_t>(parts.size()) != shape.size()) return false;
        for (qsizetype d = 0; d < parts.size(); ++d) {
            bool ok = false;
            const std::size_t v = parts[d].trimmed().toULongLong(&ok);
            const std::size_t extent = shape[static_cast<std::size_t>(d)];
            if (!ok || v >= extent) return false;
            flat = flat * extent + v;
        }
    }
    if (flat >= m_array.size()) return false;
    const auto cell = m_model->cellOf(flat);
    showPage(Page::Table);
    m_table->scrollToRow(cell.first, cell.second);
    pick(static_cast<qint64>(flat));
    return true;
}

} // namespace wb::ui
