// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/Diagnostic.h"

#include <QObject>

#include <memory>
#include <string>

namespace wb::ui {

class CompileController;
class DiagnosticsModel;
class EditorArea;
class ResultsPanel;
class RunController;
class SessionDocument;
struct RunOutcome;

/// Fills the Problems list (DiagnosticsModel) and the kernel editor's marks from what the
/// live compiles and the runs found: compile messages per source, a run's compile errors,
/// the memory findings of a bounds-checked or compute-sanitizer run, the races of a
/// race-checked run with its crowded-words note (session::toDiagnostics). A run's entries go
/// when the next run starts and when another project is opened or made (they belong to a run
/// of the project that was open). Activating a problem shows its line.
class ProblemsController : public QObject {
    Q_OBJECT
public:
    ProblemsController(DiagnosticsModel* model, EditorArea* editors, ResultsPanel* results,
                       QObject* parent = nullptr);

    /// Listens to the live compiles, the runs and the document.
    void subscribe(CompileController* compiler, RunController* runner, SessionDocument* document);
    /// F8 / Shift+F8 while the compile fails (or Problems lists errors): the next (previous)
    /// diagnostic in its editor. False when there is none to go to.
    bool goToNext(bool backwards);
    /// Drops the entries of the shown run (memory findings, races).
    void clearRunProblems();

private:
    void onRunFinished(const RunOutcome& outcome);
    /// The races of a race-checked run (`races` of them; `run`: their problems at kernel lines
    /// and the crowded-words note): in Problems and on the kernel editor's lines.
    void showRaces(std::size_t races, const std::vector<Diagnostic>& found,
                   const std::vector<Diagnostic>& notes);

    DiagnosticsModel* m_model;
    EditorArea* m_editors;
    ResultsPanel* m_results;
    CompileController* m_compiler = nullptr;
    SessionDocument* m_doc = nullptr;
    std::string m_lastCompileLog; ///< the log keeps each distinct compile failure once
};

} // namespace wb::ui
