// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/launch/LaunchPanel.h"

#include "core/common/Error.h"
#include "core/session/ProjectFile.h"
#include "ui/common/SessionDocument.h"
#include "ui/common/SessionEval.h"
#include "ui/common/ValidatingDelegate.h"
#include "ui/launch/ParamBindingModel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

namespace wb::ui {

namespace {

QLineEdit* exprField(QWidget* parent, const QString& tip)
{
    auto* e = new QLineEdit(parent);
    e->setToolTip(tip);
    e->setMinimumWidth(40);
    return e;
}

void markField(QLineEdit* field, const QString& error)
{
    field->setStyleSheet(
        error.isEmpty() ? QString() : QStringLiteral("QLineEdit { border: 1px solid #d0342c; }"));
    field->setToolTip(error.isEmpty() ? field->property("wbTip").toString() : error);
}

std::vector<std::string> axes(const std::array<QLineEdit*, 3>& fields)
{
    // Trailing "1" extents are dropped so a 1-D launch stays {"N"}.
    std::vector<std::string> out;
    for (QLineEdit* f : fields)
        out.push_back(f->text().trimmed().isEmpty() ? "1" : f->text().trimmed().toStdString());
    while (out.size() > 1 && out.back() == "1")
        out.pop_back();
    return out;
}

} // namespace

LaunchPanel::LaunchPanel(SessionDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_doc(document)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    // Kernel and bindings
    auto* kernelBox = new QGroupBox(tr("Kernel"), this);
    m_kernelBox = kernelBox;
    auto* kl = new QVBoxLayout(kernelBox);
    auto* chooseRow = new QHBoxLayout;
    m_kernel = new QComboBox(kernelBox);
    m_kernel->setEditable(true);
    m_kernel->setInsertPolicy(QComboBox::NoInsert);
    m_kernel->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_kernel->setMinimumContentsLength(14);
    m_kernel->setToolTip(
        tr("Kernels found by the last compile; a template kernel is named with its "
           "arguments, e.g. scale<float, 128>"));
    m_instantiate = new QLineEdit(kernelBox);
    m_instantiate->setObjectName(QStringLiteral("instantiateBox"));
    m_instantiate->setPlaceholderText(tr("Instantiate template: scale<float, 128> ⏎"));
    chooseRow->addWidget(m_kernel, 1);
    chooseRow->addWidget(m_instantiate, 1);
    kl->addLayout(chooseRow);
    m_bindings = new ParamBindingModel(m_doc, this);
    m_bindingView = new QTableView(kernelBox);
    m_bindingView->setModel(m_bindings);
    m_bindingView->verticalHeader()->hide();
    m_bindingView->verticalHeader()->setDefaultSectionSize(m_bindingView->fontMetrics().height() +
                                                           8);
    m_bindingView->horizontalHeader()->setStretchLastSection(true);
    m_bindingView->setEditTriggers(QAbstractItemView::AllEditTriggers);
    m_bindingView->setMinimumHeight(90);
    m_bindingView->setMaximumHeight(m_bindingView->verticalHeader()->defaultSectionSize() * 6 + 4);
    auto* delegate = new ValidatingDelegate({}, this);
    m_bindingView->setItemDelegate(delegate);
    kl->addWidget(m_bindingView, 1);
    layout->addWidget(kernelBox);

    // Geometry
    auto* launchBox = new QGroupBox(tr("Launch"), this);
    m_launchBox = launchBox;
    auto* form = new QFormLayout(launchBox);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    const QString exprTip = tr("An expression over scalars: N, ceil(N/256), N*N");
    auto makeRow = [&](std::array<QLineEdit*, 3>& fields) {
        auto* row = new QHBoxLayout;
        for (std::size_t i = 0; i < 3; ++i) {
            fields[i] = exprField(launchBox, exprTip);
            fields[i]->setProperty("wbTip", exprTip);
            fields[i]->setPlaceholderText(QStringLiteral("1"));
            row->addWidget(fields[i], 1);
        }
        return row;
    };
    form->addRow(tr("Grid"), makeRow(m_grid));
    form->addRow(tr("Block"), makeRow(m_block));
    m_shared = exprField(launchBox, tr("Dynamic shared memory per block, bytes (expression)"));
    m_shared->setProperty("wbTip", m_shared->toolTip());
    form->addRow(tr("Shared"), m_shared);
    m_evaluated = new QLabel(launchBox);
    m_evaluated->setWordWrap(true);
    form->addRow(QString(), m_evaluated);
    auto* coverRow = new QHBoxLayout;
    m_coverN = new QLineEdit(launchBox);
    m_coverN->setPlaceholderText(QStringLiteral("N"));
    m_coverN->setToolTip(tr("Elements to cover (expression)"));
    m_coverB = new QSpinBox(launchBox);
    m_coverB->setRange(1, 1024);
    m_coverB->setValue(256);
    m_coverB->setPrefix(tr("block "));
    auto* cover = new QPushButton(tr("Fit"), launchBox);
    cover->setToolTip(tr("Grid = ceil(N / block), block = the chosen size (1-D)"));
    coverRow->addWidget(new QLabel(tr("Cover"), launchBox));
    coverRow->addWidget(m_coverN, 1);
    coverRow->addWidget(m_coverB);
    coverRow->addWidget(cover);
    form->addRow(QString(), coverRow);
    m_occupancyLabel = new QLabel(launchBox);
    m_occupancyLabel->setWordWrap(true);
    m_occupancyLabel->setMinimumHeight(m_occupancyLabel->fontMetrics().height() * 3 + 4);
    m_occupancyLabel->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_occupancyLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(tr("Occupancy"), m_occupancyLabel);
    layout->addWidget(launchBox);

    // A pipeline's launches: the list, and its JSON to edit.
    m_pipelineBox = new QGroupBox(tr("Pipeline"), this);
    m_pipelineBox->setObjectName(QStringLiteral("pipelineBox"));
    auto* pl = new QVBoxLayout(m_pipelineBox);
    m_pipelineSummary = new QLabel(m_pipelineBox);
    m_pipelineSummary->setObjectName(QStringLiteral("pipelineSummary"));
    m_pipelineSummary->setWordWrap(true);
    m_pipelineSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    pl->addWidget(m_pipelineSummary);
    m_pipelineEdit = new QPlainTextEdit(m_pipelineBox);
    m_pipelineEdit->setObjectName(QStringLiteral("pipelineEditor"));
    m_pipelineEdit->setToolTip(
        tr("The project file's \"launches\": each launch's kernel, grid, block, sharedBytes, "
           "bindings and repeat loops, e.g. {\"var\": \"k\", \"from\": 2, \"to\": \"n\", "
           "\"times\": 2} (docs/sessions.md, Pipelines)"));
    m_pipelineEdit->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_pipelineEdit->setMinimumHeight(m_pipelineEdit->fontMetrics().height() * 8);
    pl->addWidget(m_pipelineEdit, 1);
    auto* pipelineRow = new QHBoxLayout;
    m_pipelineError = new QLabel(m_pipelineBox);
    m_pipelineError->setWordWrap(true);
    m_pipelineError->setStyleSheet(QStringLiteral("color: #d0342c;"));
    m_pipelineApply = new QPushButton(tr("Apply"), m_pipelineBox);
    m_pipelineApply->setToolTip(tr("Check the launches as the project file would and use them"));
    pipelineRow->addWidget(m_pipelineError, 1);
    pipelineRow->addWidget(m_pipelineApply);
    pl->addLayout(pipelineRow);
    m_makePipeline = new QPushButton(tr("Make a Pipeline of Launches"), this);
    m_makePipeline->setToolTip(
        tr("Turn this launch into the first of a pipeline: several kernels launched in order, "
           "each possibly repeated over loop variables"));
    layout->addWidget(m_pipelineBox, 1);
    layout->addWidget(m_makePipeline);

    // Backend and compile options
    auto* runBox = new QGroupBox(tr("Backend and compile"), this);
    auto* rf = new QFormLayout(runBox);
    auto* backendRow = new QHBoxLayout;
    m_backend = new QComboBox(runBox);
    m_backend->addItem(tr("auto"), QStringLiteral("auto"));
    m_backend->addItem(tr("CUDA (GPU)"), QStringLiteral("cuda"));
    m_backend->addItem(tr("CPU emulator"), QStringLiteral("cpu"));
    m_device = new QSpinBox(runBox);
    m_device->setRange(0, 63);
    m_device->setPrefix(tr("device "));
    backendRow->addWidget(m_backend, 1);
    backendRow->addWidget(m_device);
    rf->addRow(tr("Backend"), backendRow);
    auto* optRow = new QHBoxLayout;
    m_arch = new QComboBox(runBox);
    m_arch->setEditable(true);
    m_arch->addItem(tr("device's own"), QString());
    for (const char* a :
         {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120", "compute_90"})
        m_arch->addItem(QString::fromLatin1(a), QString::fromLatin1(a));
    m_opt = new QComboBox(runBox);
    for (int o = 0; o <= 3; ++o)
        m_opt->addItem(QStringLiteral("-O%1").arg(o), o);
    m_fastMath = new QCheckBox(tr("fast math"), runBox);
    m_lineInfo = new QCheckBox(tr("line info"), runBox);
    optRow->addWidget(m_arch, 1);
    optRow->addWidget(m_opt);
    optRow->addWidget(m_fastMath);
    optRow->addWidget(m_lineInfo);
    rf->addRow(tr("Options"), optRow);
    m_defines = new QLineEdit(runBox);
    m_defines->setPlaceholderText(tr("TILE=16 USE_SHFL"));
    m_defines->setToolTip(tr("Preprocessor defines, separated by spaces: NAME or NAME=value"));
    rf->addRow(tr("Defines"), m_defines);
    auto* iterRow = new QHBoxLayout;
    m_warmup = new QSpinBox(runBox);
    m_warmup->setRange(0, 1000);
    m_warmup->setPrefix(tr("warm-up "));
    m_iterations = new QSpinBox(runBox);
    m_iterations->setRange(1, 100000);
    m_iterations->setPrefix(tr("iterations "));
    iterRow->addWidget(m_warmup);
    iterRow->addWidget(m_iterations);
    rf->addRow(tr("Timing"), iterRow);
    layout->addWidget(runBox);
    layout->addStretch(1);

    // Wiring
    connect(m_doc, &SessionDocument::sessionReplaced, this, &LaunchPanel::loadFromSession);
    connect(m_doc, &SessionDocument::edited, this, [this](SessionDocument::Part part) {
        if (part == SessionDocument::Part::Scalars || part == SessionDocument::Part::Buffers)
            evaluateFields();
        if (part == SessionDocument::Part::Launch || part == SessionDocument::Part::CompileOptions)
            syncFromSession(part == SessionDocument::Part::Launch);
        if (part == SessionDocument::Part::Launch) showPipeline();
        if (part == SessionDocument::Part::All) loadFromSession();
    });
    for (QLineEdit* f :
         {m_grid[0], m_grid[1], m_grid[2], m_block[0], m_block[1], m_block[2], m_shared})
        connect(f, &QLineEdit::textEdited, this, &LaunchPanel::writeLaunch);
    connect(m_kernel, &QComboBox::currentTextChanged, this, [this]() {
        if (m_loading) return;
        writeLaunch();
        m_bindings->setKernel(currentKernel());
        updateOccupancy();
    });
    connect(m_instantiate, &QLineEdit::returnPressed, this, [this]() {
        const std::string expr = m_instantiate->text().trimmed().toStdString();
        if (expr.empty()) return;
        m_doc->edit(SessionDocument::Part::CompileOptions, [&](session::Session& s) {
            auto& list = s.compileOptions.nameExpressions;
            if (std::find(list.begin(), list.end(), expr) == list.end()) list.push_back(expr);
            s.launch.kernel = expr;
        });
        {
            QSignalBlocker block(m_kernel);
            m_kernel->setEditText(QString::fromStdString(expr));
        }
        m_instantiate->clear();
        Q_EMIT compileOptionsChanged();
    });
    connect(cover, &QPushButton::clicked, this, [this]() {
        const QString n = m_coverN->text().trimmed();
        if (n.isEmpty()) return;
        const int b = m_coverB->value();
        m_grid[0]->setText(QStringLiteral("ceil((%1)/%2)").arg(n).arg(b));
        m_grid[1]->setText(QStringLiteral("1"));
        m_grid[2]->setText(QStringLiteral("1"));
        m_block[0]->setText(QString::number(b));
        m_block[1]->setText(QStringLiteral("1"));
        m_block[2]->setText(QStringLiteral("1"));
        writeLaunch();
    });
    connect(m_backend, &QComboBox::currentIndexChanged, this, [this]() {
        if (m_loading) return;
        const auto kind = parseBackendKind(m_backend->currentData().toString().toStdString());
        m_doc->edit(SessionDocument::Part::Run,
                    [&](session::Session& s) { s.backend = kind.value_or(BackendKind::Auto); });
    });
    connect(m_device, &QSpinBox::valueChanged, this, [this](int v) {
        if (!m_loading)
            m_doc->edit(SessionDocument::Part::Run, [&](session::Session& s) { s.device = v; });
    });
    connect(m_warmup, &QSpinBox::valueChanged, this, [this](int v) {
        if (!m_loading)
            m_doc->edit(SessionDocument::Part::Run, [&](session::Session& s) { s.warmup = v; });
    });
    connect(m_iterations, &QSpinBox::valueChanged, this, [this](int v) {
        if (!m_loading)
            m_doc->edit(SessionDocument::Part::Run, [&](session::Session& s) { s.iterations = v; });
    });
    connect(m_pipelineApply, &QPushButton::clicked, this, [this]() {
        session::Session s = m_doc->session();
        const QString error = applyLaunchesJson(s, m_pipelineEdit->toPlainText());
        m_pipelineError->setText(error);
        if (!error.isEmpty() || s.launches == m_doc->session().launches) return;
        m_doc->edit(SessionDocument::Part::Launch,
                    [&](session::Session& d) { d.launches = s.launches; });
        showPipeline();
    });
    connect(m_makePipeline, &QPushButton::clicked, this, [this]() {
        if (m_doc->session().isPipeline()) return;
        m_doc->edit(SessionDocument::Part::Launch, [](session::Session& s) {
            s.launches = {session::PipelineLaunch{s.launch, {}}};
            s.launch = session::LaunchSpec{};
        });
        showPipeline();
    });
    connect(m_arch, &QComboBox::currentTextChanged, this, &LaunchPanel::writeOptions);
    connect(m_opt, &QComboBox::currentIndexChanged, this, &LaunchPanel::writeOptions);
    connect(m_fastMath, &QCheckBox::toggled, this, &LaunchPanel::writeOptions);
    connect(m_lineInfo, &QCheckBox::toggled, this, &LaunchPanel::writeOptions);
    connect(m_defines, &QLineEdit::editingFinished, this, &LaunchPanel::writeOptions);
    connect(m_bindingView, &QTableView::clicked, this, [this](const QModelIndex& index) {
        if (index.column() == ParamBindingModel::BoundColumn) m_bindingView->edit(index);
    });
    // The "Bound to" editor offers the names that fit the parameter.
    connect(m_bindings, &QAbstractItemModel::modelReset, this, [this, delegate]() {
        QStringList all;
        for (const auto& b : m_doc->session().buffers)
            all << QString::fromStdString(b.name);
        for (const auto& s : m_doc->session().scalars)
            all << QString::fromStdString(s.name);
        delegate->setChoices(ParamBindingModel::BoundColumn, all, true);
    });
    loadFromSession();
}

const KernelInfo* LaunchPanel::currentKernel() const
{
    if (!m_compiled) return nullptr;
    return m_compiled->findKernel(m_kernel->currentText().trimmed().toStdString());
}

void LaunchPanel::loadFromSession()
{
    m_loading = true;
    const session::Session& s = m_doc->session();
    m_kernel->setEditText(QString::fromStdString(s.launch.kernel));
    auto fill = [](std::array<QLineEdit*, 3>& fields, const std::vector<std::string>& v) {
        for (std::size_t i = 0; i < 3; ++i)
            fields[i]->setText(i < v.size() ? QString::fromStdString(v[i]) : QStringLiteral("1"));
    };
    fill(m_grid, s.launch.grid);
    fill(m_block, s.launch.block);
    m_shared->setText(QString::fromStdString(s.launch.sharedBytes));
    m_backend->setCurrentIndex(
        std::max(0, m_backend->findData(QString::fromUtf8(backendName(s.backend)))));
    m_device->setValue(s.device);
    const QString arch = QString::fromStdString(s.compileOptions.arch);
    const int archIndex = m_arch->findData(arch);
    if (archIndex >= 0)
        m_arch->setCurrentIndex(archIndex);
    else
        m_arch->setEditText(arch);
    m_opt->setCurrentIndex(std::clamp(s.compileOptions.optLevel, 0, 3));
    m_fastMath->setChecked(s.compileOptions.fastMath);
    m_lineInfo->setChecked(s.compileOptions.lineInfo);
    QStringList defines;
    for (const auto& [name, value] : s.compileOptions.defines)
        defines << (value.empty() ? QString::fromStdString(name)
                                  : QStringLiteral("%1=%2").arg(QString::fromStdString(name),
                                                                QString::fromStdString(value)));
    m_defines->setText(defines.join(u' '));
    m_warmup->setValue(s.warmup);
    m_iterations->setValue(s.iterations);
    // The helper starts from the first output's element count.
    for (const auto& b : s.buffers)
        if (b.isOutput() && !b.shape.empty()) {
            QStringList dims;
            for (const auto& d : b.shape)
                dims << QStringLiteral("(%1)").arg(QString::fromStdString(d));
            m_coverN->setText(dims.size() == 1 ? QString::fromStdString(b.shape.front())
                                               : dims.join(u'*'));
            break;
        }
    m_loading = false;
    m_bindings->setKernel(currentKernel());
    evaluateFields();
    showPipeline();
}

QString LaunchPanel::pipelineError() const
{
    return m_pipelineError->text();
}

void LaunchPanel::showPipeline()
{
    const session::Session& s = m_doc->session();
    const bool pipeline = s.isPipeline();
    m_kernelBox->setVisible(!pipeline);
    m_launchBox->setVisible(!pipeline);
    m_pipelineBox->setVisible(pipeline);
    m_makePipeline->setVisible(!pipeline);
    if (!pipeline) return;
    m_pipelineSummary->setText(pipelineSummaryText(s));
    // The editor keeps what is being typed; it follows the session when it is not.
    if (!m_pipelineEdit->hasFocus()) {
        const QString json = launchesJson(s);
        if (m_pipelineEdit->toPlainText() != json) m_pipelineEdit->setPlainText(json);
        m_pipelineError->clear();
    }
}

QString LaunchPanel::launchesJson(const session::Session& s)
{
    // The project file's own writer, laid out for reading: one launch per line, kernel first,
    // each loop of its repeat on a line of its own.
    const QJsonArray launches =
        QJsonDocument::fromJson(QByteArray::fromStdString(session::ProjectFile::toJson(s)))
            .object()
            .value(QLatin1String("launches"))
            .toArray();
    const auto compact = [](const QJsonValue& v) {
        const QByteArray a = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
        return QString::fromUtf8(a.mid(1, a.size() - 2));
    };
    const auto fields = [&](const QJsonObject& o, const QStringList& order) {
        QStringList parts;
        for (const QString& key : order)
            if (o.contains(key)) parts << QStringLiteral("\"%1\": %2").arg(key, compact(o[key]));
        for (auto it = o.begin(); it != o.end(); ++it)
            if (!order.contains(it.key()) && it.key() != QLatin1String("repeat"))
                parts << QStringLiteral("\"%1\": %2").arg(it.key(), compact(it.value()));
        return parts.join(QStringLiteral(", "));
    };
    QStringList entries;
    for (const QJsonValue& v : launches) {
        const QJsonObject o = v.toObject();
        QString text =
            QStringLiteral("  {") +
            fields(o, {QStringLiteral("kernel"), QStringLiteral("grid"), QStringLiteral("block"),
                       QStringLiteral("sharedBytes"), QStringLiteral("bindings")});
        if (o.contains(QLatin1String("repeat"))) {
            QStringList loops;
            for (const QJsonValue& l : o.value(QLatin1String("repeat")).toArray())
                loops << QStringLiteral("     {") +
                             fields(l.toObject(), {QStringLiteral("var"), QStringLiteral("type"),
                                                   QStringLiteral("from"), QStringLiteral("to"),
                                                   QStringLiteral("step"), QStringLiteral("times"),
                                                   QStringLiteral("divide")}) +
                             QStringLiteral("}");
            text += QStringLiteral(",\n   \"repeat\": [\n") + loops.join(QStringLiteral(",\n")) +
                    QStringLiteral("]");
        }
        entries << text + QStringLiteral("}");
    }
    return QStringLiteral("[\n") + entries.join(QStringLiteral(",\n")) + QStringLiteral("\n]\n");
}

QString LaunchPanel::applyLaunchesJson(session::Session& s, const QString& json)
{
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(json.toUtf8(), &err);
    if (err.error != QJsonParseError::NoError)
        return tr("launches: not valid JSON at offset %1: %2")
            .arg(err.offset)
            .arg(err.errorString());
    if (!doc.isArray()) return tr("launches: expected an array of launches [ {...}, ... ]");
    // The project file's own reader checks them, so that the window and a saved file agree.
    session::Session pipeline = s;
    if (!pipeline.isPipeline()) pipeline.launches = {session::PipelineLaunch{s.launch, {}}};
    QJsonObject root =
        QJsonDocument::fromJson(QByteArray::fromStdString(session::ProjectFile::toJson(pipeline)))
            .object();
    root[QLatin1String("launches")] = doc.array();
    try {
        const session::Session parsed = session::ProjectFile::fromJson(
            QJsonDocument(root).toJson().toStdString(), s.baseDir, "launches");
        s.launches = parsed.launches;
        s.launch = session::LaunchSpec{};
    } catch (const Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

QString LaunchPanel::pipelineSummaryText(const session::Session& s)
{
    const auto dims = [](const std::vector<std::string>& d) {
        QStringList parts;
        for (const std::string& e : d)
            parts << QString::fromStdString(e);
        return parts.join(QStringLiteral(" × "));
    };
    QStringList lines;
    for (std::size_t i = 0; i < s.launches.size(); ++i) {
        const session::PipelineLaunch& p = s.launches[i];
        QString line =
            tr("%1. <b>%2</b> grid %3 · block %4")
                .arg(i + 1)
                .arg(QString::fromStdString(p.launch.kernel).toHtmlEscaped(),
                     dims(p.launch.grid).toHtmlEscaped(), dims(p.launch.block).toHtmlEscaped());
        if (p.launch.sharedBytes != "0")
            line += tr(" · shared %1 B")
                        .arg(QString::fromStdString(p.launch.sharedBytes).toHtmlEscaped());
        for (const session::LoopSpec& l : p.repeat) {
            const QString by = QString::fromStdString(l.by).toHtmlEscaped();
            line +=
                tr(" · for %1 = %2 … %3 %4")
                    .arg(QString::fromStdString(l.var).toHtmlEscaped(),
                         QString::fromStdString(l.from).toHtmlEscaped(),
                         QString::fromStdString(l.to).toHtmlEscaped(),
                         l.step == session::LoopSpec::Step::Multiply ? QStringLiteral("×") + by
                         : l.step == session::LoopSpec::Step::Divide ? QStringLiteral("÷") + by
                                                                     : QStringLiteral("+") + by);
        }
        lines << line;
    }
    return tr("Launched in order, all of them for each run and each timed pass:") +
           QStringLiteral("<br>") + lines.join(QStringLiteral("<br>"));
}

void LaunchPanel::syncFromSession(bool launch)
{
    if (m_loading) return;
    const session::Session& s = m_doc->session();
    m_loading = true;
    // Only fields that differ and are not being typed in (an emptied field reads as "1").
    const auto set = [](QLineEdit* field, const QString& text) {
        if (!field->hasFocus() && field->text().trimmed() != text) field->setText(text);
    };
    if (launch) {
        for (std::size_t i = 0; i < 3; ++i) {
            set(m_grid[i], i < s.launch.grid.size() ? QString::fromStdString(s.launch.grid[i])
                                                    : QStringLiteral("1"));
            set(m_block[i], i < s.launch.block.size() ? QString::fromStdString(s.launch.block[i])
                                                      : QStringLiteral("1"));
        }
        set(m_shared, QString::fromStdString(s.launch.sharedBytes));
    } else {
        QStringList defines;
        for (const auto& [name, value] : s.compileOptions.defines)
            defines << (value.empty() ? QString::fromStdString(name)
                                      : QStringLiteral("%1=%2").arg(QString::fromStdString(name),
                                                                    QString::fromStdString(value)));
        set(m_defines, defines.join(u' '));
    }
    m_loading = false;
    evaluateFields();
}

void LaunchPanel::writeLaunch()
{
    if (m_loading || m_doc->session().isPipeline()) return; // a pipeline edits its launches
    const std::string kernel = m_kernel->currentText().trimmed().toStdString();
    const auto grid = axes(m_grid);
    const auto block = axes(m_block);
    const std::string shared =
        m_shared->text().trimmed().isEmpty() ? "0" : m_shared->text().trimmed().toStdString();
    const session::LaunchSpec& cur = m_doc->session().launch;
    if (cur.kernel != kernel || cur.grid != grid || cur.block != block || cur.sharedBytes != shared)
        m_doc->edit(SessionDocument::Part::Launch, [&](session::Session& s) {
            s.launch.kernel = kernel;
            s.launch.grid = grid;
            s.launch.block = block;
            s.launch.sharedBytes = shared;
        });
    evaluateFields();
}

void LaunchPanel::writeOptions()
{
    if (m_loading) return;
    CompileOptions o = m_doc->session().compileOptions;
    const int archIndex = m_arch->findText(m_arch->currentText());
    o.arch = archIndex >= 0 ? m_arch->itemData(archIndex).toString().toStdString()
                            : m_arch->currentText().trimmed().toStdString();
    o.optLevel = m_opt->currentIndex();
    o.fastMath = m_fastMath->isChecked();
    o.lineInfo = m_lineInfo->isChecked();
    o.defines.clear();
    for (const QString& d : m_defines->text().split(u' ', Qt::SkipEmptyParts)) {
        const qsizetype eq = d.indexOf(u'=');
        if (eq < 0)
            o.defines.emplace_back(d.toStdString(), std::string());
        else
            o.defines.emplace_back(d.left(eq).toStdString(), d.mid(eq + 1).toStdString());
    }
    if (o == m_doc->session().compileOptions) return;
    m_doc->edit(SessionDocument::Part::CompileOptions,
                [&](session::Session& s) { s.compileOptions = o; });
    Q_EMIT compileOptionsChanged();
}

void LaunchPanel::evaluateFields()
{
    const SessionEval eval(m_doc->session());
    QStringList parts;
    auto evalAxis = [&](std::array<QLineEdit*, 3>& fields, const char* what) {
        QStringList v;
        for (std::size_t i = 0; i < 3; ++i) {
            QString error;
            const std::string text = fields[i]->text().trimmed().isEmpty()
                                         ? "1"
                                         : fields[i]->text().trimmed().toStdString();
            const auto value =
                eval.count(text, std::string(what) + "[" + std::to_string(i) + "]", &error);
            markField(fields[i], error);
            v << (value ? QString::number(*value) : QStringLiteral("?"));
        }
        return v.join(QStringLiteral(" × "));
    };
    parts << tr("grid %1").arg(evalAxis(m_grid, "launch.grid"));
    parts << tr("block %1").arg(evalAxis(m_block, "launch.block"));
    QString error;
    const auto shared = eval.count(
        m_shared->text().trimmed().isEmpty() ? "0" : m_shared->text().trimmed().toStdString(),
        "launch.sharedBytes", &error, 0);
    markField(m_shared, error);
    parts << tr("shared %1 B").arg(shared ? QString::number(*shared) : QStringLiteral("?"));
    m_evaluated->setText(QStringLiteral("= ") + parts.join(QStringLiteral(" · ")));
    updateOccupancy();
}

void LaunchPanel::setCompileResult(std::shared_ptr<const CompileResult> result)
{
    // A failed compile keeps the last good kernel list: the bindings stay visible while typing.
    if (result && !result->ok && m_compiled && m_compiled->ok) return;
    const std::shared_ptr<const CompileResult> previous =
        m_compiled && m_compiled->ok ? m_compiled : nullptr;
    m_compiled = std::move(result);
    if (m_compiled && m_compiled->ok) {
        m_loading = true;
        QString current = m_kernel->currentText();
        // The kernel was renamed in the editor: the chooser follows it (issue 17).
        const QString renamed = followRename(previous.get(), *m_compiled, current);
        const bool follow = !renamed.isEmpty() && renamed != current;
        if (follow) current = renamed;
        m_kernel->clear();
        for (const KernelInfo& k : m_compiled->kernels)
            m_kernel->addItem(QString::fromStdString(k.name), QString::fromStdString(k.signature));
        for (int i = 0; i < m_kernel->count(); ++i)
            m_kernel->setItemData(i, m_kernel->itemData(i), Qt::ToolTipRole);
        m_kernel->setEditText(current.isEmpty() && m_kernel->count() ? m_kernel->itemText(0)
                                                                     : current);
        m_loading = false;
        if (current.isEmpty() || follow) writeLaunch();
    }
    m_bindings->setKernel(currentKernel());
    updateOccupancy();
}

QString LaunchPanel::followRename(const CompileResult* previous, const CompileResult& now,
                                  const QString& current)
{
    const std::string cur = current.trimmed().toStdString();
    // Template instances are named by the user, not discovered: never replaced.
    if (cur.empty() || cur.find('<') != std::string::npos || now.findKernel(cur)) return {};
    std::vector<std::string> gone, added;
    const auto has = [](const CompileResult* r, const std::string& name) {
        return r && std::any_of(r->kernels.begin(), r->kernels.end(),
                                [&](const KernelInfo& k) { return k.name == name; });
    };
    for (const KernelInfo& k : now.kernels)
        if (!k.isTemplateInstance && !has(previous, k.name)) added.push_back(k.name);
    if (previous)
        for (const KernelInfo& k : previous->kernels)
            if (!has(&now, k.name)) gone.push_back(k.name);
    // One kernel in the source: it is the one to launch. Else one kernel replaced by one other.
    const bool single = now.kernels.size() == 1 && !now.kernels.front().isTemplateInstance;
    if (single) return QString::fromStdString(now.kernels.front().name);
    if (added.size() == 1 && gone.size() == 1 && gone.front() == cur)
        return QString::fromStdString(added.front());
    return {};
}

void LaunchPanel::setDeviceArch(const QString& arch, int multiprocessors)
{
    m_deviceArch = arch;
    m_multiprocessors = multiprocessors;
    updateOccupancy();
}

void LaunchPanel::setCudaUnavailableReason(const QString& reason)
{
    m_backend->setItemData(1, reason.isEmpty() ? tr("Run on the GPU") : reason, Qt::ToolTipRole);
    m_backend->setItemText(1,
                           reason.isEmpty() ? tr("CUDA (GPU)") : tr("CUDA (GPU) — not available"));
}

void LaunchPanel::updateOccupancy()
{
    QString arch = m_deviceArch;
    if (arch.isEmpty() && m_compiled) arch = QString::fromStdString(m_compiled->target);
    if (arch.isEmpty() || arch.startsWith(u'h'))
        arch = QStringLiteral("sm_90"); // CPU backend: show a GPU
    const auto sm = SmLimits::forArch(arch);
    const SessionEval eval(m_doc->session());
    std::uint64_t threads = 1;
    bool ok = true;
    for (std::size_t i = 0; i < 3; ++i) {
        const std::string text = m_block[i]->text().trimmed().isEmpty()
                                     ? "1"
                                     : m_block[i]->text().trimmed().toStdString();
        const auto v = eval.count(text, "block", nullptr);
        if (!v)
            ok = false;
        else
            threads *= *v;
    }
    const auto dynamicShared = eval.count(
        m_shared->text().trimmed().isEmpty() ? "0" : m_shared->text().trimmed().toStdString(),
        "shared", nullptr, 0);
    if (!sm || !ok || !dynamicShared) {
        m_occupancy = {};
        m_occupancyLabel->setText(!sm ? tr("unknown architecture %1").arg(arch)
                                      : tr("— (fix the block/shared expressions)"));
        return;
    }
    const KernelInfo* k = currentKernel();
    const int registers = k && k->resources.known ? k->resources.registers : 0;
    const int staticShared = k && k->resources.known ? k->resources.sharedBytes : 0;
    m_occupancy = Occupancy::compute(
        *sm, static_cast<int>(std::min<std::uint64_t>(threads, 1u << 20)), registers,
        staticShared + static_cast<int>(std::min<std::uint64_t>(*dynamicShared, 1u << 30)));
    QString text = m_occupancy.summary();
    QString detail = tr("for %1 · %2 threads/block · %3 warps/SM")
                         .arg(arch)
                         .arg(threads)
                         .arg(m_occupancy.activeWarpsPerSm);
    if (k && k->resources.known)
        detail +=
            tr(" · %1 registers/thread · %2 B static shared").arg(registers).arg(staticShared);
    else
        detail += tr(" · registers unknown (compile for an sm_XX target)");
    m_occupancyLabel->setText(QStringLiteral("<b>%1</b><br><small>%2</small>")
                                  .arg(text.toHtmlEscaped(), detail.toHtmlEscaped()));
    m_occupancyLabel->setToolTip(
        tr("Theoretical occupancy: active warps per SM over the maximum (%1). Blocks/SM by "
           "warps %2, by the block cap %3, by registers %4, by shared memory %5.")
            .arg(sm->maxWarpsPerSm)
            .arg(m_occupancy.blocksByWarps)
            .arg(m_occupancy.blocksByCap)
            .arg(m_occupancy.blocksByRegisters == INT_MAX
                     ? tr("∞")
                     : QString::number(m_occupancy.blocksByRegisters))
            .arg(m_occupancy.blocksByShared == INT_MAX
                     ? tr("∞")
                     : QString::number(m_occupancy.blocksByShared)));
}

QString LaunchPanel::occupancyText() const
{
    return m_occupancyLabel->text();
}

} // namespace wb::ui
