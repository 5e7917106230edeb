// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/InspectPanel.h"

#include "ui/ResourceTableModel.h"

#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProcess>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QVBoxLayout>

namespace wb::ui {

namespace {
QPlainTextEdit* codeView(QWidget* parent)
{
    auto* v = new QPlainTextEdit(parent);
    v->setReadOnly(true);
    v->setLineWrapMode(QPlainTextEdit::NoWrap);
    v->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return v;
}
} // namespace

InspectPanel::InspectPanel(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    m_ptx = codeView(m_tabs);
    m_tabs->addTab(m_ptx, tr("PTX"));
    auto* sassPage = new QWidget(m_tabs);
    auto* sl = new QVBoxLayout(sassPage);
    sl->setContentsMargins(0, 0, 0, 0);
    m_sassNote = new QLabel(sassPage);
    m_sassNote->setWordWrap(true);
    m_sass = codeView(sassPage);
    sl->addWidget(m_sassNote);
    sl->addWidget(m_sass, 1);
    m_tabs->addTab(sassPage, tr("SASS"));
    m_resources = new ResourceTableModel(this);
    auto* table = new QTableView(m_tabs);
    table->setModel(m_resources);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    m_tabs->addTab(table, tr("Resources"));
    layout->addWidget(m_tabs);
    m_process = new QProcess(this);
    connect(m_process, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        const QString out = QString::fromUtf8(m_process->readAllStandardOutput());
        const QString err = QString::fromUtf8(m_process->readAllStandardError());
        if (status == QProcess::NormalExit && code == 0) {
            m_sass->setPlainText(out);
            m_sassNote->setText(tr("Disassembled by %1").arg(m_process->program()));
        } else {
            m_sass->setPlainText(err.isEmpty() ? out : err);
            m_sassNote->setText(tr("%1 failed (exit code %2)").arg(m_process->program()).arg(code));
        }
        Q_EMIT sassReady();
    });
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError) {
        m_sassNote->setText(
            tr("Could not run %1: %2").arg(m_process->program(), m_process->errorString()));
        Q_EMIT sassReady();
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int i) {
        if (i == 1 && m_sassStale) disassemble();
    });
    setCompileResult(nullptr);
}

InspectPanel::~InspectPanel()
{
    if (m_process->state() != QProcess::NotRunning) {
        m_process->kill();
        m_process->waitForFinished(1000);
    }
}

QString InspectPanel::findDisassembler()
{
    const QStringList toolkit = {QStringLiteral("/usr/local/cuda/bin")};
    for (const char* name : {"nvdisasm", "cuobjdump"}) {
        QString path = QStandardPaths::findExecutable(QString::fromLatin1(name));
        if (path.isEmpty())
            path = QStandardPaths::findExecutable(QString::fromLatin1(name), toolkit);
        if (!path.isEmpty()) return path;
    }
    return {};
}

void InspectPanel::setCompileResult(std::shared_ptr<const CompileResult> result)
{
    m_result = std::move(result);
    if (!m_result) {
        m_ptx->setPlainText(tr("// Compile the kernel (Ctrl+B) to see its PTX."));
        m_sass->clear();
        m_sassNote->setText(tr("Compile the kernel to see its SASS."));
        m_resources->setKernels({});
        return;
    }
    m_ptx->setPlainText(m_result->ptx.empty()
                            ? tr("// No PTX: %1")
                                  .arg(m_result->ok
                                           ? tr("this backend compiles to host code (%1)")
                                                 .arg(QString::fromStdString(m_result->target))
                                           : tr("the compile failed"))
                            : QString::fromStdString(m_result->ptx));
    m_resources->setKernels(m_result->kernels);
    m_sassStale = true;
    if (m_tabs->currentIndex() == 1) disassemble();
}

void InspectPanel::disassemble()
{
    m_sassStale = false;
    if (!m_result || !m_result->ok) return;
    if (m_result->binary.empty()) {
        m_sass->clear();
        m_sassNote->setText(
            tr("No CUBIN for %1: SASS exists only for sm_XX targets (compute_XX stops at PTX).")
                .arg(QString::fromStdString(m_result->target)));
        return;
    }
    const QString tool = findDisassembler();
    if (tool.isEmpty()) {
        m_sass->clear();
        m_sassNote->setText(
            tr("No disassembler found: install the CUDA toolkit's nvdisasm or cuobjdump "
               "(package cuda-nvdisasm / cuda-cuobjdump) or put /usr/local/cuda/bin on PATH."));
        return;
    }
    m_tmp = std::make_unique<QTemporaryDir>();
    const QString cubin = m_tmp->filePath(QStringLiteral("kernel.cubin"));
    QFile file(cubin);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(reinterpret_cast<const char*>(m_result->binary.data()),
                   static_cast<qint64>(m_result->binary.size())) < 0) {
        m_sassNote->setText(tr("Could not write %1").arg(cubin));
        return;
    }
    file.close();
    if (m_process->state() != QProcess::NotRunning) {
        m_process->kill();
        m_process->waitForFinished(1000);
    }
    const bool nvdisasm = QFileInfo(tool).fileName() == u"nvdisasm";
    m_sassNote->setText(tr("Disassembling with %1 …").arg(tool));
    m_process->start(tool, nvdisasm ? QStringList{QStringLiteral("-c"), cubin}
                                    : QStringList{QStringLiteral("-sass"), cubin});
}

QString InspectPanel::ptxText() const
{
    return m_ptx->toPlainText();
}
QString InspectPanel::sassText() const
{
    return m_sass->toPlainText();
}
QString InspectPanel::sassNote() const
{
    return m_sassNote->text();
}
void InspectPanel::showSass()
{
    m_tabs->setCurrentIndex(1);
}

} // namespace wb::ui
