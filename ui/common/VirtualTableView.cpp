// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/common/VirtualTableView.h"

#include "ui/common/WindowedTableModel.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QTableView>
#include <QWheelEvent>

#include <algorithm>
#include <limits>

namespace wb::ui {

VirtualTableView::VirtualTableView(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    m_table = new QTableView(this);
    m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->installEventFilter(this);
    m_table->viewport()->installEventFilter(this);
    m_scroll = new QScrollBar(Qt::Vertical, this);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_scroll);
    connect(m_scroll, &QScrollBar::valueChanged, this,
            [this](int value) { setFirst(static_cast<std::int64_t>(value)); });
    applyFont();
}

void VirtualTableView::applyFont()
{
    QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    if (font().pointSizeF() > 0) fixed.setPointSizeF(font().pointSizeF());
    m_table->setFont(fixed);
    m_table->verticalHeader()->setDefaultSectionSize(QFontMetrics(fixed).height() + 6);
}

void VirtualTableView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        applyFont();
        if (m_model) updateWindow();
    }
}

void VirtualTableView::setModel(WindowedTableModel* model)
{
    m_model = model;
    m_table->setModel(model);
    m_current = -1;
    if (!model) return;
    connect(model, &QAbstractItemModel::modelReset, this, [this]() {
        // The table may have changed length: re-fit the window and the scroll range.
        if (!m_inUpdate) updateWindow();
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) {
                if (!current.isValid() || !m_model) return;
                m_current = m_model->firstRow() + current.row();
                m_currentColumn = current.column();
                Q_EMIT currentRowChanged(m_current, m_currentColumn);
            });
    updateWindow();
}

void VirtualTableView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    updateWindow();
}

void VirtualTableView::updateWindow()
{
    if (!m_model) return;
    m_inUpdate = true;
    const int rowHeight = std::max(1, m_table->verticalHeader()->defaultSectionSize());
    const int visible = std::max(1, m_table->viewport()->height() / rowHeight);
    const std::int64_t total = m_model->totalRows();
    const std::int64_t maxFirst = std::max<std::int64_t>(0, total - visible);
    const int maxValue =
        static_cast<int>(std::min<std::int64_t>(maxFirst, std::numeric_limits<int>::max()));
    {
        QSignalBlocker block(m_scroll);
        m_scroll->setRange(0, maxValue);
        m_scroll->setPageStep(visible);
        m_scroll->setSingleStep(1);
    }
    m_model->setWindow(std::min<std::int64_t>(m_model->firstRow(), maxFirst), visible);
    m_scroll->setValue(static_cast<int>(m_model->firstRow()));
    m_scroll->setVisible(maxValue > 0);
    m_inUpdate = false;
}

void VirtualTableView::setFirst(std::int64_t first)
{
    if (!m_model) return;
    m_model->setWindow(first, m_model->windowRows());
    {
        QSignalBlocker block(m_scroll);
        m_scroll->setValue(static_cast<int>(m_model->firstRow()));
    }
    // Keep the current cell on its absolute row.
    QItemSelectionModel* sel = m_table->selectionModel();
    if (!sel) return;
    QSignalBlocker block(sel);
    const std::int64_t local = m_current - m_model->firstRow();
    if (m_current >= 0 && local >= 0 && local < m_model->windowRows()) {
        const QModelIndex idx = m_model->index(static_cast<int>(local), m_currentColumn);
        sel->setCurrentIndex(idx, QItemSelectionModel::ClearAndSelect);
    } else {
        sel->clear();
    }
    m_table->viewport()->update();
}

void VirtualTableView::scrollBy(std::int64_t rows)
{
    if (m_model) setFirst(m_model->firstRow() + rows);
}

void VirtualTableView::scrollToRow(std::int64_t row, int column)
{
    if (!m_model) return;
    row = std::clamp<std::int64_t>(row, 0, std::max<std::int64_t>(0, m_model->totalRows() - 1));
    const std::int64_t first = m_model->firstRow();
    const int window = m_model->windowRows();
    m_current = row;
    m_currentColumn = column;
    if (row < first || row >= first + window)
        setFirst(row - window / 2);
    else
        setFirst(first);
    Q_EMIT currentRowChanged(m_current, m_currentColumn);
}

std::int64_t VirtualTableView::currentRow() const
{
    return m_current;
}

bool VirtualTableView::eventFilter(QObject* watched, QEvent* event)
{
    if (!m_model) return QWidget::eventFilter(watched, event);
    if (watched == m_table->viewport() && event->type() == QEvent::Resize) {
        updateWindow();
        return false;
    }
    if (watched == m_table->viewport() && event->type() == QEvent::Wheel) {
        auto* wheel = static_cast<QWheelEvent*>(event);
        m_wheelRemainder += wheel->angleDelta().y();
        const int steps = m_wheelRemainder / 40; // three rows per notch (120)
        m_wheelRemainder -= steps * 40;
        if (steps != 0) scrollBy(-steps);
        return true;
    }
    if (watched == m_table && event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        const int window = m_model->windowRows();
        const std::int64_t total = m_model->totalRows();
        const std::int64_t current = m_current < 0 ? m_model->firstRow() : m_current;
        std::int64_t target = -1;
        switch (key->key()) {
        case Qt::Key_Down:
            target = current + 1;
            break;
        case Qt::Key_Up:
            target = current - 1;
            break;
        case Qt::Key_PageDown:
            target = current + window;
            break;
        case Qt::Key_PageUp:
            target = current - window;
            break;
        case Qt::Key_Home:
            if (key->modifiers() & Qt::ControlModifier) target = 0;
            break;
        case Qt::Key_End:
            if (key->modifiers() & Qt::ControlModifier) target = total - 1;
            break;
        default:
            break;
        }
        if (target >= 0 || key->key() == Qt::Key_Up || key->key() == Qt::Key_PageUp) {
            target = std::clamp<std::int64_t>(target, 0, std::max<std::int64_t>(0, total - 1));
            const std::int64_t first = m_model->firstRow();
            m_current = target;
            if (target < first)
                setFirst(target);
            else if (target >= first + window)
                setFirst(target - window + 1);
            else
                setFirst(first);
            Q_EMIT currentRowChanged(m_current, m_currentColumn);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace wb::ui
