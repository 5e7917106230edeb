// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results/ProblemsController.h"

#include "core/session/ReportFormat.h"
#include "ui/common/RunController.h"
#include "ui/common/SessionDocument.h"
#include "ui/editor/CompileController.h"
#include "ui/editor/EditorArea.h"
#include "ui/editor/KernelEditor.h"
#include "ui/editor/LiveCompiler.h"
#include "ui/results/DiagnosticsModel.h"
#include "ui/results/ResultsPanel.h"

namespace wb::ui {

ProblemsController::ProblemsController(DiagnosticsModel* model, EditorArea* editors,
                                       ResultsPanel* results, QObject* parent)
    : QObject(parent)
    , m_model(model)
    , m_editors(editors)
    , m_results(results)
{
    connect(results, &ResultsPanel::diagnosticActivated, this, [this](int row) {
        m_editors->showDiagnostic(m_model->diagnostic(row), m_model->source(row) == u"reference");
    });
    connect(results, &ResultsPanel::locationActivated, editors, &EditorArea::showLocation);
}

void ProblemsController::subscribe(CompileController* compiler, RunController* runner,
                                   SessionDocument* document)
{
    m_compiler = compiler;
    m_doc = document;
    connect(compiler->kernel(), &LiveCompiler::compiled, this,
            [this](std::shared_ptr<const CompileResult> r) {
                m_model->setDiagnostics(QStringLiteral("kernel"), r->diagnostics);
                // The log keeps each distinct failure once (typing repeats the same one many
                // times).
                if (!r->ok && !r->log.empty() && r->log != m_lastCompileLog)
                    m_results->appendLog(
                        tr("compile failed:\n%1").arg(QString::fromStdString(r->log)));
                m_lastCompileLog = r->ok ? std::string() : r->log;
            });
    connect(compiler->reference(), &LiveCompiler::compiled, this,
            [this](std::shared_ptr<const CompileResult> r) {
                m_model->setDiagnostics(QStringLiteral("reference"), r->diagnostics);
            });
    connect(compiler, &CompileController::referenceDropped, this,
            [this]() { m_model->setDiagnostics(QStringLiteral("reference"), {}); });
    connect(runner, &RunController::runStarted, this, &ProblemsController::clearRunProblems);
    // A run's problems belong to the project it ran (the editors reload the new one's text).
    connect(document, &SessionDocument::sessionReplaced, this,
            &ProblemsController::clearRunProblems);
    connect(runner, &RunController::runFinished, this,
            [this](std::shared_ptr<const RunOutcome> outcome) {
                if (outcome) onRunFinished(*outcome);
            });
}

void ProblemsController::clearRunProblems()
{
    m_model->setDiagnostics(QStringLiteral("memory"), {});
    m_model->setDiagnostics(QStringLiteral("races"), {});
}

void ProblemsController::onRunFinished(const RunOutcome& outcome)
{
    const session::RunReport& r = outcome.report;
    KernelEditor* kernel = m_editors->kernelEditor();
    // A compile error from the run lands in the editor like a live one.
    if (r.status == session::RunReport::Status::CompileError) {
        kernel->setDiagnostics(r.diagnostics);
        m_model->setDiagnostics(QStringLiteral("kernel"), r.diagnostics);
        if (!r.referenceDiagnostics.empty()) {
            m_editors->referenceEditor()->setDiagnostics(r.referenceDiagnostics);
            m_model->setDiagnostics(QStringLiteral("reference"), r.referenceDiagnostics);
        }
    }
    // Bounds-checked runs and compute-sanitizer runs: each faulting access (each hazard) is a
    // problem at its kernel line (session::toDiagnostics).
    const session::RunDiagnostics found =
        session::toDiagnostics(r, m_doc->session().kernelSourceName());
    if (!found.memory.empty()) {
        m_model->setDiagnostics(QStringLiteral("memory"), found.memory);
        // The editor marks each line with a finding, as for races (a later compile replaces
        // them).
        std::vector<Diagnostic> marks;
        for (const Diagnostic& d : found.memory)
            if (d.line > 0 && d.file == kernel->sourceName().toStdString()) marks.push_back(d);
        m_editors->markKernel(marks);
        m_results->showTab(ResultsPanel::Tab::Problems);
    }
    if (outcome.raceChecked) showRaces(r.races.size(), found.races, found.notes);
}

void ProblemsController::showRaces(std::size_t races, const std::vector<Diagnostic>& found,
                                   const std::vector<Diagnostic>& notes)
{
    // Crowded words are a note on the run, in Problems only (no line to mark).
    std::vector<Diagnostic> problems = found;
    problems.insert(problems.end(), notes.begin(), notes.end());
    m_model->setDiagnostics(QStringLiteral("races"), problems);
    m_editors->markKernel(found);
    m_editors->kernelEditor()->markRaces(found); // their own marker, not the error's red dot
    m_results->appendLog(
        races == 0 ? tr("race check: no races found")
                   : tr("race check: %n race(s) found", nullptr, static_cast<int>(races)));
    for (const Diagnostic& note : notes)
        m_results->appendLog(QString::fromStdString(note.message));
    if (races != 0) {
        m_editors->showEditor(m_editors->kernelEditor());
        m_results->showTab(ResultsPanel::Tab::Problems);
    }
}

bool ProblemsController::goToNext(bool backwards)
{
    const auto last = m_compiler->kernel()->lastResult();
    if ((!last || last->ok) && m_model->errorCount() == 0) return false;
    KernelEditor* editor = m_editors->kernelEditor()->diagnostics().empty()
                               ? m_editors->referenceEditor()
                               : m_editors->kernelEditor();
    m_editors->showEditor(editor);
    editor->goToNextDiagnostic(backwards);
    return true;
}

} // namespace wb::ui
