// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/buffers/BufferPanel.h"

#include "core/cuda/HandleRegistry.h"

#include "ui/buffers/BufferTableModel.h"
#include "ui/buffers/ScalarTableModel.h"
#include "ui/common/SessionDocument.h"
#include "ui/common/SessionEval.h"
#include "ui/common/ValidatingDelegate.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace wb::ui {

namespace {

QToolButton* toolButton(const QString& text, const QString& tip, QWidget* parent)
{
    auto* b = new QToolButton(parent);
    b->setText(text);
    b->setToolTip(tip);
    b->setAutoRaise(true);
    return b;
}

QTableView* makeTable(QWidget* parent)
{
    auto* view = new QTableView(parent);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::SelectedClicked | QAbstractItemView::EditKeyPressed |
                          QAbstractItemView::AnyKeyPressed);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 8);
    view->horizontalHeader()->setStretchLastSection(true);
    view->setAlternatingRowColors(true);
    return view;
}

QStringList elementTypes()
{
    return {QStringLiteral("f16"), QStringLiteral("bf16"), QStringLiteral("f32"),
            QStringLiteral("f64"), QStringLiteral("i8"),   QStringLiteral("i16"),
            QStringLiteral("i32"), QStringLiteral("i64"),  QStringLiteral("u8"),
            QStringLiteral("u16"), QStringLiteral("u32"),  QStringLiteral("u64"),
            QStringLiteral("bool")};
}

} // namespace

BufferPanel::BufferPanel(SessionDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_doc(document)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    auto* bufferBar = new QHBoxLayout;
    auto* title = new QLabel(tr("<b>Buffers</b>"), this);
    m_memory = new QLabel(this);
    m_memory->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    auto* add = toolButton(QStringLiteral("+"), tr("Add a buffer"), this);
    auto* dup = toolButton(tr("Duplicate"), tr("Duplicate the selected buffer"), this);
    auto* remove = toolButton(QStringLiteral("−"), tr("Remove the selected buffer"), this);
    auto* view = toolButton(tr("View"), tr("Open the selected buffer in the viewer"), this);
    view->setObjectName(QStringLiteral("viewBufferButton"));
    auto* fromSignature = toolButton(
        tr("From Signature"),
        tr("Create the buffers and scalars the kernel's parameters need (Ctrl+Shift+B)"), this);
    fromSignature->setObjectName(QStringLiteral("fromSignatureButton"));
    bufferBar->addWidget(title);
    bufferBar->addWidget(add);
    bufferBar->addWidget(dup);
    bufferBar->addWidget(remove);
    bufferBar->addWidget(view);
    bufferBar->addWidget(fromSignature);
    bufferBar->addStretch(1);
    bufferBar->addWidget(m_memory);
    layout->addLayout(bufferBar);

    m_buffers = new BufferTableModel(m_doc, this);
    m_bufferView = makeTable(this);
    m_bufferView->setModel(m_buffers);
    auto* bufferDelegate = new ValidatingDelegate(
        [this](int row, int column, const QString& text) {
            return m_buffers->validate(row, column, text);
        },
        this);
    bufferDelegate->setChoices(BufferTableModel::TypeColumn, elementTypes());
    bufferDelegate->setChoices(
        BufferTableModel::RoleColumn,
        {QStringLiteral("in"), QStringLiteral("out"), QStringLiteral("inout")});
    m_bufferView->setItemDelegate(bufferDelegate);
    QHeaderView* header = m_bufferView->horizontalHeader();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(BufferTableModel::InitColumn, QHeaderView::Stretch);
    header->setMinimumSectionSize(40);
    layout->addWidget(m_bufferView, 3);
    m_bufferView->setMinimumHeight(m_bufferView->verticalHeader()->defaultSectionSize() * 4);

    auto* scalarBar = new QHBoxLayout;
    auto* addScalar = toolButton(QStringLiteral("+"), tr("Add a scalar"), this);
    auto* removeScalar = toolButton(QStringLiteral("−"), tr("Remove the selected scalar"), this);
    scalarBar->addWidget(new QLabel(tr("<b>Scalars</b>"), this));
    scalarBar->addWidget(addScalar);
    scalarBar->addWidget(removeScalar);
    scalarBar->addStretch(1);
    layout->addLayout(scalarBar);
    m_scalars = new ScalarTableModel(m_doc, this);
    m_scalarView = makeTable(this);
    m_scalarView->setModel(m_scalars);
    auto* scalarDelegate = new ValidatingDelegate(
        [this](int row, int column, const QString& text) {
            return m_scalars->validate(row, column, text);
        },
        this);
    scalarDelegate->setChoices(ScalarTableModel::TypeColumn, elementTypes()
                                                                 << QStringLiteral("struct"));
    m_scalarView->setItemDelegate(scalarDelegate);
    layout->addWidget(m_scalarView, 1);

    auto selectedRow = [](QTableView* v) {
        const QModelIndexList rows = v->selectionModel()->selectedRows();
        return rows.isEmpty() ? (v->currentIndex().isValid() ? v->currentIndex().row() : -1)
                              : rows.first().row();
    };
    connect(add, &QToolButton::clicked, this, [this]() {
        const int row = m_buffers->addBuffer();
        m_bufferView->selectRow(row);
        m_bufferView->edit(m_buffers->index(row, BufferTableModel::NameColumn));
    });
    connect(dup, &QToolButton::clicked, this, [this, selectedRow]() {
        const int row = m_buffers->duplicateBuffer(selectedRow(m_bufferView));
        if (row >= 0) m_bufferView->selectRow(row);
    });
    connect(remove, &QToolButton::clicked, this,
            [this, selectedRow]() { m_buffers->removeBuffer(selectedRow(m_bufferView)); });
    connect(view, &QToolButton::clicked, this, [this, selectedRow]() {
        const int row = selectedRow(m_bufferView);
        if (row >= 0) Q_EMIT bufferActivated(m_buffers->index(row, 0).data().toString());
    });
    connect(addScalar, &QToolButton::clicked, this, [this]() {
        const int row = m_scalars->addScalar();
        m_scalarView->selectRow(row);
        m_scalarView->edit(m_scalars->index(row, ScalarTableModel::NameColumn));
    });
    connect(removeScalar, &QToolButton::clicked, this,
            [this, selectedRow]() { m_scalars->removeScalar(selectedRow(m_scalarView)); });
    connect(fromSignature, &QToolButton::clicked, this,
            [this]() { Q_EMIT createFromSignatureRequested(); });
    // Double-click, a click on the selected cell, F2 or typing edits a cell; the viewer opens
    // from View or the row's context menu.
    for (QTableView* t : {m_bufferView, m_scalarView})
        t->setEditTriggers(t->editTriggers() | QAbstractItemView::DoubleClicked);
    m_bufferView->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_bufferView, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        const QModelIndex index = m_bufferView->indexAt(at);
        if (!index.isValid()) return;
        const QString name = m_buffers->index(index.row(), 0).data().toString();
        QMenu menu(this);
        menu.addAction(tr("View %1 in Buffer Viewer").arg(name), this,
                       [this, name]() { Q_EMIT bufferActivated(name); });
        menu.exec(m_bufferView->viewport()->mapToGlobal(at));
    });
    connect(m_doc, &SessionDocument::edited, this, &BufferPanel::updateMemory);
    connect(m_doc, &SessionDocument::sessionReplaced, this, &BufferPanel::updateMemory);
    updateMemory();
}

void BufferPanel::updateMemory()
{
    int unknown = 0;
    const std::uint64_t bytes = SessionEval(m_doc->session()).totalBufferBytes(&unknown);
    const QLocale locale;
    QString text =
        tr("%n buffer(s) · %1", nullptr, static_cast<int>(m_doc->session().buffers.size()))
            .arg(
                locale.formattedDataSize(static_cast<qint64>(bytes), 1, QLocale::DataSizeSIFormat));
    if (unknown) text += tr(" (+%n unknown)", nullptr, unknown);
    // Module globals (__constant__/__device__ variables the project sets or reads back) live in
    // the kernel's module, not in a buffer: named here, their results shown with the outputs.
    if (const auto& globals = m_doc->session().globals; !globals.empty()) {
        QStringList names;
        for (const session::BufferSpec& g : globals)
            names << QString::fromStdString(g.name);
        text += tr(" · %n module global(s): %1", nullptr, static_cast<int>(globals.size()))
                    .arg(names.join(QStringLiteral(", ")));
    }
    // What Warpbench holds on the GPU right now, from the CUDA layer's handle registry.
    const auto held = cuda::HandleRegistry::instance().usage(cuda::HandleKind::DeviceBuffer);
    if (held.count > 0)
        text += tr(" · device: %1 in %n allocation(s)", nullptr, static_cast<int>(held.count))
                    .arg(locale.formattedDataSize(held.bytes, 1, QLocale::DataSizeSIFormat));
    m_memory->setText(text);
    m_memory->setToolTip(
        tr("Memory the buffers need (from their evaluated shapes); while a run holds "
           "GPU memory, the device bytes in use (handle registry)"));
}

} // namespace wb::ui
