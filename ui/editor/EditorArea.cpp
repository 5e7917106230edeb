// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/editor/EditorArea.h"

#include "core/common/Error.h"
#include "core/common/Text.h"
#include "core/common/UserFile.h"
#include "core/session/CppReference.h"
#include "ui/common/RunController.h"
#include "ui/common/SessionDocument.h"
#include "ui/editor/CompileController.h"
#include "ui/editor/FindReplaceBar.h"
#include "ui/editor/KernelEditor.h"
#include "ui/editor/LiveCompiler.h"

#include <QFileInfo>
#include <QTabWidget>

#include <filesystem>

namespace wb::ui {

EditorArea::EditorArea(SessionDocument* document, CompileController* compiler, QWidget* parent)
    : QObject(parent)
    , m_doc(document)
    , m_compiler(compiler)
{
    m_tabs = new QTabWidget(parent);
    m_tabs->setDocumentMode(true);
    m_kernel = new KernelEditor(KernelEditor::Language::Cuda, m_tabs);
    m_reference = new KernelEditor(KernelEditor::Language::Cpp, m_tabs);
    m_tabs->addTab(m_kernel, tr("kernel.cu"));
    m_tabs->addTab(m_reference, tr("reference.cpp"));
    m_findBar = new FindReplaceBar(parent);
    m_findBar->setEditor(m_kernel);

    connect(m_kernel, &QsciScintilla::textChanged, this, [this]() {
        // The heat belongs to the profiled text: an edit (or another project) moves lines
        // under it.
        if (m_kernel->hasHotspots()) {
            m_kernel->setHotspots(nullptr);
            Q_EMIT hotspotsDropped();
        }
        if (m_loading) return;
        m_doc->setKernelText(m_kernel->text());
        m_compiler->compileKernel(false);
    });
    connect(m_reference, &QsciScintilla::textChanged, this, [this]() {
        if (m_loading) return;
        const bool had = m_doc->session().reference.kind == session::ReferenceSpec::Kind::Cpp;
        m_doc->setReferenceText(m_reference->text());
        if (!had) updateReferenceTab(); // typed into a project without a reference
        m_compiler->compileReference(false);
    });
    connect(m_tabs, &QTabWidget::currentChanged, this,
            [this](int i) { m_findBar->setEditor(i == 1 ? m_reference : m_kernel); });

    // Each editor shows its own compile's markers.
    connect(compiler->kernel(), &LiveCompiler::compiled, this,
            [this](std::shared_ptr<const CompileResult> r) {
                m_kernel->setDiagnostics(r->diagnostics);
                for (const auto& [file, editor] : m_headers)
                    editor->setDiagnostics(r->diagnostics);
                updateReferenceStub();
            });
    connect(compiler->reference(), &LiveCompiler::compiled, this,
            [this](std::shared_ptr<const CompileResult> r) {
                m_reference->setDiagnostics(r->diagnostics);
            });
    connect(compiler, &CompileController::referenceDropped, this,
            [this]() { m_reference->clearDiagnostics(); });
    connect(document, &SessionDocument::sessionReplaced, this, &EditorArea::loadFromDocument);
    connect(document, &SessionDocument::edited, this, [this](SessionDocument::Part part) {
        if (part != SessionDocument::Part::Kernel) updateReferenceStub(); // roles, scalars
    });
}

void EditorArea::subscribe(RunController* runner)
{
    connect(runner, &RunController::runFinished, this,
            [this](std::shared_ptr<const RunOutcome> outcome) {
                if (!outcome->profile) return;
                const auto& hot = outcome->profile->hotspots;
                m_kernel->setHotspots(hot ? &*hot : nullptr);
            });
}

KernelEditor* EditorArea::current() const
{
    return m_tabs->currentIndex() == 1 ? m_reference : m_kernel;
}

void EditorArea::loadFromDocument()
{
    m_loading = true;
    m_kernel->setText(m_doc->kernelText());
    m_reference->setText(m_doc->referenceText());
    m_kernel->clearDiagnostics();
    m_reference->clearDiagnostics();
    // Header tabs belong to the previous project's kernel.
    for (const auto& [file, editor] : m_headers)
        editor->deleteLater();
    m_headers.clear();
    const session::Session runnable = m_doc->runnableSession();
    m_kernel->setSourceName(QString::fromStdString(runnable.kernelSourceName()));
    const session::Session& s = m_doc->session();
    m_tabs->setTabText(0, s.kernelFile.empty()
                              ? tr("kernel.cu")
                              : QFileInfo(QString::fromStdString(s.kernelFile)).fileName());
    updateReferenceTab();
    m_loading = false;
}

void EditorArea::updateReferenceTab()
{
    const session::Session& s = m_doc->session();
    const bool cpp = s.reference.kind == session::ReferenceSpec::Kind::Cpp;
    const bool none = s.reference.kind == session::ReferenceSpec::Kind::None;
    m_tabs->setTabText(
        1,
        cpp ? (s.reference.file.empty()
                   ? tr("reference.cpp")
                   : QFileInfo(QString::fromStdString(s.reference.file)).fileName())
            : (none ? tr("reference.cpp (none yet)")
                    : tr("reference (%1)")
                          .arg(QString::fromUtf8(session::referenceKindName(s.reference.kind)))));
    // No reference yet: typing one makes it a C++ reference (SessionDocument::setReferenceText).
    m_reference->setReadOnly(!cpp && !none);
    updateReferenceStub();
}

void EditorArea::updateReferenceStub()
{
    // An empty reference.cpp shows the signature a reference needs (a hint, not text: running
    // still compares nothing until a reference is written).
    const session::Session& s = m_doc->session();
    const auto last = m_compiler->kernel()->lastResult();
    const KernelInfo* kernel = last ? last->findKernel(s.launch.kernel) : nullptr;
    const bool cppOrNone = s.reference.kind == session::ReferenceSpec::Kind::Cpp ||
                           s.reference.kind == session::ReferenceSpec::Kind::None;
    m_reference->setEmptyHint(kernel && cppOrNone
                                  ? QString::fromStdString(session::CppReference::stub(s, *kernel))
                                  : QString());
}

KernelEditor* EditorArea::headerEditor(const std::string& file)
{
    if (const auto it = m_headers.find(file); it != m_headers.end()) return it->second;
    std::filesystem::path path(file);
    if (path.is_relative()) path = m_doc->session().baseDir / path;
    std::string text;
    try {
        text = UserFile::read(path, UserFile::kMaxTextBytes, "the header");
    } catch (const Error& e) {
        Q_EMIT logged(QString::fromStdString(e.what()));
        return nullptr;
    }
    auto* editor = new KernelEditor(KernelEditor::Language::Cuda, m_tabs);
    editor->setSourceName(QString::fromStdString(file));
    editor->setText(QString::fromStdString(text));
    editor->setReadOnly(true); // edited where it lives; the next compile reads it again
    m_tabs->addTab(editor, QString::fromStdString(std::string(fileNameOf(file))));
    m_tabs->setTabToolTip(m_tabs->indexOf(editor), QString::fromStdString(file));
    m_headers.emplace(file, editor);
    if (const auto last = m_compiler->kernel()->lastResult())
        editor->setDiagnostics(last->diagnostics);
    return editor;
}

void EditorArea::showEditor(KernelEditor* editor)
{
    m_tabs->setCurrentWidget(editor);
}

void EditorArea::showDiagnostic(const Diagnostic& d, bool reference)
{
    KernelEditor* editor = reference ? m_reference : m_kernel;
    // A message in an included header opens that header in a tab of its own.
    if (!reference && !d.file.empty() && d.file != m_kernel->sourceName().toStdString())
        if (KernelEditor* header = headerEditor(d.file)) editor = header;
    m_tabs->setCurrentWidget(editor);
    if (d.line > 0) editor->goToLine(d.line, std::max(1, d.column));
}

void EditorArea::showLocation(const QString& file, int line, int column)
{
    KernelEditor* editor =
        file == m_reference->sourceName() || file.endsWith(QStringLiteral(".cpp")) ? m_reference
                                                                                   : m_kernel;
    m_tabs->setCurrentWidget(editor);
    editor->goToLine(line, std::max(1, column));
}

void EditorArea::markKernel(const std::vector<Diagnostic>& extra)
{
    // The compile's diagnostics and the run's findings (a later compile replaces them).
    std::vector<Diagnostic> marks;
    if (const auto last = m_compiler->kernel()->lastResult()) marks = last->diagnostics;
    marks.insert(marks.end(), extra.begin(), extra.end());
    m_kernel->setDiagnostics(marks);
}

void EditorArea::applyPalette()
{
    m_kernel->applyPalette();
    m_reference->applyPalette();
}

} // namespace wb::ui
