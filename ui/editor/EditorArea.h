// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/Diagnostic.h"

#include <QObject>

#include <map>
#include <string>

class QTabWidget;
class QWidget;

namespace wb::ui {

class CompileController;
class FindReplaceBar;
class KernelEditor;
class RunController;
class SessionDocument;

/// The editor tabs in the window's centre: kernel.cu and reference.cpp (typed into the
/// document, compiled live by the CompileController, each showing its compile's markers), a
/// read-only tab for each included header a message points into, and the find bar. The
/// widgets are created under `parent`; the window places tabs() and findBar().
class EditorArea : public QObject {
    Q_OBJECT
public:
    EditorArea(SessionDocument* document, CompileController* compiler, QWidget* parent);

    QTabWidget* tabs() const noexcept { return m_tabs; }
    FindReplaceBar* findBar() const noexcept { return m_findBar; }
    KernelEditor* kernelEditor() const noexcept { return m_kernel; }
    KernelEditor* referenceEditor() const noexcept { return m_reference; }
    /// The kernel's or the reference's editor, whichever tab is in front.
    KernelEditor* current() const;
    /// A profile with hotspots puts its heat in the kernel editor's margin.
    void subscribe(RunController* runner);
    /// Replaces the editors' text and tab titles with the document's (another project).
    void loadFromDocument();
    /// Brings `editor` to the front.
    void showEditor(KernelEditor* editor);
    /// Shows diagnostic `d` at its line: the reference's, the kernel's, or (a message in an
    /// included header) that header's own tab.
    void showDiagnostic(const Diagnostic& d, bool reference);
    /// A "file:line:col" location of the run log: the reference for .cpp files, else the kernel.
    void showLocation(const QString& file, int line, int column);
    /// The kernel editor's compile markers plus `extra` (a run's findings at kernel lines).
    void markKernel(const std::vector<Diagnostic>& extra);
    void applyPalette();

Q_SIGNALS:
    /// The kernel text changed under a profile's heat: the heat is gone from the editor.
    void hotspotsDropped();
    /// Something for the run log (a header that cannot be read).
    void logged(const QString& line);

private:
    /// The read-only tab of a user header the kernel includes (`file` as diagnostics name it:
    /// relative to the project folder, or absolute), opened on first use; nullptr when it
    /// cannot be read (said in the log).
    KernelEditor* headerEditor(const std::string& file);
    /// The reference tab's title and whether it can be typed into.
    void updateReferenceTab();
    /// reference.cpp's empty-editor hint: the stub for the launched kernel (CppReference::stub).
    void updateReferenceStub();

    SessionDocument* m_doc;
    CompileController* m_compiler;
    QTabWidget* m_tabs;
    KernelEditor* m_kernel;
    KernelEditor* m_reference;
    FindReplaceBar* m_findBar;
    std::map<std::string, KernelEditor*> m_headers; ///< tabs of included headers
    bool m_loading = false;
};

} // namespace wb::ui
