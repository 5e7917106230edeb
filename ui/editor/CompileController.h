// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

#include <string>

namespace wb::ui {

class LiveCompiler;
class SessionDocument;
class Worker;

/// The editors' live compiles: the kernel with NVRTC (as a run compiles it: includes, template
/// instances, the project's flags, line tables for the Inspect panel) and the C++ reference
/// with the host compiler, each on `worker` while the user types, their results as
/// LiveCompiler::compiled. A project whose flags are not trusted is not compiled: its
/// "result" says why.
class CompileController : public QObject {
    Q_OBJECT
public:
    CompileController(SessionDocument* document, Worker* worker, QObject* parent = nullptr);

    LiveCompiler* kernel() const noexcept { return m_kernel; }
    LiveCompiler* reference() const noexcept { return m_reference; }
    /// The device's architecture once the environment is known ("" compiles for NVRTC's
    /// default).
    void setArch(std::string arch) { m_arch = std::move(arch); }
    /// `now`: at once (a button, another project); else after the typing pause.
    void compileKernel(bool now);
    void compileReference(bool now);
    void compileNow();

Q_SIGNALS:
    /// The session has no C++ reference (any more): its diagnostics are gone.
    void referenceDropped();

private:
    SessionDocument* m_doc;
    LiveCompiler* m_kernel;
    LiveCompiler* m_reference;
    std::string m_arch;
};

} // namespace wb::ui
