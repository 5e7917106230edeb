// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results/InspectPanel.h"

#include "core/common/Text.h"
#include "ui/results/ResourceTableModel.h"

#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QMouseEvent>
#include <QPlainTextEdit>
#include <QProcess>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QVBoxLayout>

#include <map>

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
            setSassListing(out);
            m_sassNote->setText(tr("Disassembled by %1").arg(m_process->program()) +
                                (m_listing.hasLineInfo()
                                     ? tr(" · click an instruction to go to its source line")
                                     : QString()));
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
    m_ptx->viewport()->installEventFilter(this);
    m_sass->viewport()->installEventFilter(this);
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
    m_listing = {};
    m_sassRows.clear();
    m_ptxMap = m_result ? profiling::PtxLineMap::parse(m_result->ptx) : profiling::PtxLineMap{};
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
    // -g: the line table as comments; -hex: the encoding, whose second word holds the
    // control bits.
    m_process->start(tool, nvdisasm ? QStringList{QStringLiteral("-c"), QStringLiteral("-g"),
                                                  QStringLiteral("-hex"), cubin}
                                    : QStringList{QStringLiteral("-sass"), cubin});
}

void InspectPanel::setSassListing(const QString& text)
{
    m_listing = profiling::SassListing::parse(text.toStdString());
    if (m_listing.functions().empty()) {
        m_sassRows.clear();
        m_sass->setPlainText(text);
    } else {
        renderSass();
    }
}

void InspectPanel::setHotspots(const profiling::HotspotReport* hotspots)
{
    if (hotspots)
        m_hotspots = *hotspots;
    else
        m_hotspots.reset();
    if (!m_listing.functions().empty()) renderSass();
}

void InspectPanel::renderSass()
{
    std::map<std::pair<std::string, std::uint64_t>, const profiling::HotspotInstruction*> sampled;
    std::uint64_t all = 0;
    if (m_hotspots) {
        for (const profiling::HotspotInstruction& i : m_hotspots->instructions)
            sampled[{i.function, i.pcOffset}] = &i;
        all = std::max<std::uint64_t>(1, m_hotspots->attributedSamples());
    }
    QString text;
    m_sassRows.clear();
    for (const profiling::SassFunction& f : m_listing.functions()) {
        text += QStringLiteral("// %1\n").arg(QString::fromStdString(f.name));
        m_sassRows.push_back({f.name, 0, 0, {}});
        for (const profiling::SassInstruction& i : f.instructions) {
            QString row = QStringLiteral("/*%1*/ ").arg(i.offset, 4, 16, QChar(u'0'));
            if (m_hotspots) {
                const auto it = sampled.find({f.name, i.offset});
                if (it != sampled.end()) {
                    const double pct =
                        100.0 * static_cast<double>(it->second->samples) / static_cast<double>(all);
                    row += QStringLiteral("%1% %2 ")
                               .arg(pct, 5, 'f', 1)
                               .arg(QString::fromStdString(it->second->stalls.empty()
                                                               ? std::string()
                                                               : it->second->stalls[0].reason),
                                    -18);
                } else {
                    row += QString(26, u' ');
                }
            }
            row += QStringLiteral("%1 ").arg(
                i.control ? QString::fromStdString(i.control->toText()) : QString(), -20);
            row += QStringLiteral("%1").arg(QString::fromStdString(i.text), -44);
            if (i.line > 0) row += QStringLiteral(" // line %1").arg(i.line);
            text += row + u'\n';
            m_sassRows.push_back({f.name, i.offset, i.line, i.file});
        }
    }
    m_sass->setPlainText(text);
}

int InspectPanel::sourceLineOfSassRow(int row) const
{
    if (row < 0 || static_cast<std::size_t>(row) >= m_sassRows.size()) return 0;
    return m_sassRows[static_cast<std::size_t>(row)].line;
}

int InspectPanel::sourceLineOfPtxRow(int row) const
{
    return m_ptxMap.sourceLine(row + 1);
}

void InspectPanel::highlightSourceLine(int line, const QString& file)
{
    const std::string want = QFileInfo(file).fileName().toStdString();
    const QColor mark =
        palette().color(QPalette::Window).lightness() < 128 ? QColor(0x3d5a80) : QColor(0xfff1a8);
    auto select = [&](QPlainTextEdit* view, const std::vector<int>& rows) {
        QList<QTextEdit::ExtraSelection> selections;
        for (int r : rows) {
            QTextEdit::ExtraSelection sel;
            sel.format.setBackground(mark);
            sel.format.setProperty(QTextFormat::FullWidthSelection, true);
            sel.cursor = QTextCursor(view->document()->findBlockByNumber(r));
            selections.append(sel);
        }
        view->setExtraSelections(selections);
        if (!rows.empty()) {
            // Scroll without moving the cursor (the user may be reading elsewhere).
            const QTextBlock b = view->document()->findBlockByNumber(rows.front());
            const int visible =
                view->viewport()->height() / std::max(1, view->fontMetrics().height());
            view->verticalScrollBar()->setValue(std::max(0, b.firstLineNumber() - visible / 3));
        }
        return static_cast<int>(rows.size());
    };
    std::vector<int> ptxRows, sassRows;
    if (line > 0) {
        for (int p : m_ptxMap.ptxLinesFor(want, line))
            ptxRows.push_back(p - 1);
        for (std::size_t r = 0; r < m_sassRows.size(); ++r) {
            const SassRow& row = m_sassRows[r];
            if (row.line != line) continue;
            if (want.empty() || fileNameOf(row.file) == want)
                sassRows.push_back(static_cast<int>(r));
        }
    }
    m_highlightedPtx = select(m_ptx, ptxRows);
    m_highlightedSass = select(m_sass, sassRows);
}

bool InspectPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::MouseButtonRelease &&
        (watched == m_ptx->viewport() || watched == m_sass->viewport())) {
        const bool sass = watched == m_sass->viewport();
        QPlainTextEdit* view = sass ? m_sass : m_ptx;
        const auto* mouse = static_cast<QMouseEvent*>(event);
        const int row = view->cursorForPosition(mouse->position().toPoint()).blockNumber();
        const int line = sass ? sourceLineOfSassRow(row) : sourceLineOfPtxRow(row);
        if (line > 0) Q_EMIT sourceLineActivated(line);
    }
    return QWidget::eventFilter(watched, event);
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
