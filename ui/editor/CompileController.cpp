// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/editor/CompileController.h"

#include "core/cuda/Compiler.h"
#include "core/session/CppReference.h"
#include "core/session/ProjectTrust.h"
#include "core/session/SessionRunner.h"
#include "ui/common/SessionDocument.h"
#include "ui/common/Worker.h"
#include "ui/editor/LiveCompiler.h"

namespace wb::ui {

namespace {

CompileResult referenceBuildToResult(const session::CppReference::Build& b)
{
    CompileResult r;
    r.ok = b.ok;
    r.sourceName = "reference.cpp";
    r.diagnostics = b.diagnostics;
    r.log = b.log;
    r.compilerVersion = b.compilerVersion;
    r.compileMs = b.compileMs;
    r.target = "host";
    return r;
}

/// What a live compile shows instead of compiling when the project's flags are not trusted.
CompileResult refusedCompile(const std::string& sourceName, const std::vector<FlagRefusal>& refused)
{
    CompileResult r;
    r.sourceName = sourceName;
    r.log = session::ProjectTrust::refusalMessage(
        refused, "Nothing was compiled. Run the session to be asked whether you trust this "
                 "project, or remove the flags.");
    r.diagnostics.push_back(Diagnostic{sourceName, 0, 0, Severity::Error, {}, r.log, {}});
    return r;
}

void start(LiveCompiler* compiler, LiveCompiler::Job job, bool now)
{
    if (now)
        compiler->runNow(std::move(job));
    else
        compiler->schedule(std::move(job));
}

} // namespace

CompileController::CompileController(SessionDocument* document, Worker* worker, QObject* parent)
    : QObject(parent)
    , m_doc(document)
    , m_kernel(new LiveCompiler(worker, 350, this))
    , m_reference(new LiveCompiler(worker, 700, this))
{
    // Another project: compile it at once.
    connect(document, &SessionDocument::sessionReplaced, this, &CompileController::compileNow);
    // A template instance typed into the kernel chooser needs a compile that instantiates it.
    connect(document, &SessionDocument::edited, this, [this](SessionDocument::Part part) {
        if (part != SessionDocument::Part::Launch) return;
        const std::string& k = m_doc->session().launch.kernel;
        const auto last = m_kernel->lastResult();
        if (k.find('<') != std::string::npos && (!last || !last->findKernel(k)))
            compileKernel(false);
    });
}

void CompileController::compileKernel(bool now)
{
    const session::Session s = m_doc->runnableSession();
    const std::string source = s.kernelSource;
    const std::string name = s.kernelSourceName();
    // Includes and template kernels as a run compiles them (sourceDir: set by runnableSession()).
    CompileOptions options = session::SessionRunner::compileOptions(s);
    // Line tables for the Inspect panel's source ↔ PTX/SASS links (-lineinfo changes no code).
    options.lineInfo = true;
    LiveCompiler::Job job = [source, name, options, arch = m_arch](const CancelToken&) {
        return cuda::Compiler::instance().compile(source, name, options, arch);
    };
    if (const auto refused = session::ProjectTrust::reviewKernel(s);
        !s.flagsTrusted && !refused.empty())
        job = [name, refused](const CancelToken&) { return refusedCompile(name, refused); };
    start(m_kernel, std::move(job), now);
}

void CompileController::compileReference(bool now)
{
    const session::Session s = m_doc->runnableSession();
    if (s.reference.kind != session::ReferenceSpec::Kind::Cpp) {
        Q_EMIT referenceDropped();
        return;
    }
    const std::string source = s.reference.source;
    const std::string function = s.reference.function;
    const std::vector<std::string> flags = s.reference.flags;
    if (const auto refused = session::ProjectTrust::reviewReference(s);
        !s.flagsTrusted && !refused.empty()) {
        start(
            m_reference,
            [refused](const CancelToken&) { return refusedCompile("reference.cpp", refused); },
            now);
        return;
    }
    IncludePaths includes;
    includes.projectDir = s.baseDir;
    const session::Session& saved = m_doc->session(); // the runnable copy holds the text only
    if (!saved.reference.file.empty())
        includes.sourceDir = saved.resolve(saved.reference.file).parent_path();
    LiveCompiler::Job job = [source, function, flags, includes](const CancelToken&) {
        try {
            session::CppReference reference;
            return referenceBuildToResult(
                reference.compile(source, "reference.cpp", function, flags, includes));
        } catch (const std::exception& e) {
            CompileResult r;
            r.sourceName = "reference.cpp";
            r.log = e.what();
            r.diagnostics.push_back(
                Diagnostic{"reference.cpp", 0, 0, Severity::Error, {}, e.what(), {}});
            return r;
        }
    };
    start(m_reference, std::move(job), now);
}

void CompileController::compileNow()
{
    compileKernel(true);
    compileReference(true);
}

} // namespace wb::ui
