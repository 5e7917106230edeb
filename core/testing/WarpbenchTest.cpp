// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/testing/WarpbenchTest.h"

#include "core/common/Error.h"
#include "core/host/HostCompiler.h"
#include "core/session/ProjectFile.h"
#include "core/session/SessionRunner.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <system_error>
#include <vector>

namespace wb::testing {

namespace {

std::string envValue(const char* name)
{
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
}

std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char* fmt, ...)
{
    char buf[512];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, args);
    va_end(args);
    return buf;
}

std::string toleranceText(const session::Tolerance& t)
{
    std::string s = t.mode == session::Tolerance::Mode::Ulp
                        ? "ulp <= " + std::to_string(t.maxUlp)
                        : format("atol %g, rtol %g", t.atol, t.rtol);
    return s + (t.nanEqual ? ", NaN == NaN" : "");
}

std::string coordinatesText(const session::Mismatch& m)
{
    std::string c = "[";
    for (std::size_t i = 0; i < m.coordinates.size(); ++i)
        c += (i ? ", " : "") + std::to_string(m.coordinates[i]);
    return c + "]";
}

std::string diagnosticText(const Diagnostic& d)
{
    std::string s = d.file.empty() ? std::string("(no file)") : d.file;
    if (d.line) s += ":" + std::to_string(d.line);
    if (d.column) s += ":" + std::to_string(d.column);
    return s + ": " + severityName(d.severity) + ": " + d.message;
}

void appendIndented(std::string& out, const std::string& text)
{
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        out += "    " + text.substr(start, end - start) + "\n";
        start = end + 1;
    }
}

Verdict failed(std::string message)
{
    Verdict v;
    v.outcome = Verdict::Outcome::Failed;
    v.message = std::move(message);
    return v;
}

Verdict skipped(std::string message)
{
    Verdict v;
    v.outcome = Verdict::Outcome::Skipped;
    v.message = std::move(message);
    return v;
}

} // namespace

RunOptions RunOptions::fromEnvironment(RunOptions defaults)
{
    if (const std::string b = envValue("WARPBENCH_TEST_BACKEND"); !b.empty()) {
        if (const auto kind = parseBackendKind(b))
            defaults.backend = *kind;
        else
            std::fprintf(stderr,
                         "warpbench: ignoring $WARPBENCH_TEST_BACKEND=\"%s\" "
                         "(expected cuda, cpu or auto)\n",
                         b.c_str());
    }
    if (envValue("WARPBENCH_TEST_FALLBACK") == "cpu") defaults.fallbackToCpu = true;
    return defaults;
}

RunOptions RunOptions::fromEnvironment()
{
    return fromEnvironment(RunOptions{});
}

std::optional<std::string> backendUnavailableReason(BackendKind kind)
{
    const auto cpuReason = []() -> std::optional<std::string> {
        std::string why = HostCompiler::unavailableReason();
        if (why.empty()) return std::nullopt;
        return "the CPU emulator needs a host C++ compiler: " + why;
    };
    switch (kind) {
    case BackendKind::Cuda:
        if (auto why = cudaUnavailableReason()) return "no usable GPU: " + *why;
        return std::nullopt;
    case BackendKind::Cpu:
        return cpuReason();
    case BackendKind::Auto:
        if (!cudaUnavailableReason()) return std::nullopt;
        if (auto why = cpuReason())
            return "no usable GPU (" + *cudaUnavailableReason() + ") and " + *why;
        return std::nullopt;
    }
    return std::nullopt;
}

std::string describeFailure(const session::RunReport& r)
{
    std::string o = "project '" + (r.project.empty() ? std::string("(unnamed)") : r.project) +
                    "' on " + backendName(r.backend);
    if (!r.device.name.empty()) o += " (" + r.device.name + ")";
    o += ": " + std::string(r.statusName()) + (r.message.empty() ? "" : " - " + r.message) + "\n";

    if (!r.outputs.empty()) {
        o += format("  %-16s %-6s %24s %12s %12s  %s\n", "output", "result", "mismatches",
                    "max abs", "max rel", "tolerance");
        for (const session::OutputResult& out : r.outputs) {
            if (!out.compared) {
                o += format("  %-16s %-6s (no reference for this output)\n", out.buffer.c_str(),
                            "-");
                continue;
            }
            const session::DiffStats& s = out.stats;
            const std::string mism = std::to_string(s.mismatches) + " of " +
                                     std::to_string(s.count) +
                                     format(" (%.3g%%)", 100.0 * s.mismatchFraction);
            o += format("  %-16s %-6s %24s %12.5g %12.5g  ", out.buffer.c_str(),
                        s.passed() ? "pass" : "FAIL", mism.c_str(), s.maxAbs, s.maxRel) +
                 toleranceText(out.tolerance) + "\n";
            if (s.nanActual + s.nanExpected + s.infActual + s.infExpected)
                o += "    NaN " + std::to_string(s.nanActual) + " / " +
                     std::to_string(s.nanExpected) + ", Inf " + std::to_string(s.infActual) +
                     " / " + std::to_string(s.infExpected) + " (result / reference)\n";
            if (!s.firstMismatches.empty()) {
                o += "    first mismatches of '" + out.buffer + "':\n";
                o += format("      %-18s %16s %16s %12s\n", "at", "got", "expected", "|diff|");
                for (const session::Mismatch& m : s.firstMismatches)
                    o += format("      %-18s %16.9g %16.9g %12.5g\n", coordinatesText(m).c_str(),
                                m.actual, m.expected, m.absError);
            }
        }
    }

    if (!r.diagnostics.empty()) {
        o += "kernel diagnostics:\n";
        for (const Diagnostic& d : r.diagnostics)
            o += "    " + diagnosticText(d) + "\n";
    }
    if (!r.referenceDiagnostics.empty()) {
        o += "C++ reference diagnostics (" + r.referenceCompiler + "):\n";
        for (const Diagnostic& d : r.referenceDiagnostics)
            o += "    " + diagnosticText(d) + "\n";
    }
    o += "compile log";
    if (!r.compilerVersion.empty())
        o += " (" + r.compilerVersion + (r.target.empty() ? "" : ", " + r.target) + ")";
    o += ":";
    if (r.compileLog.empty()) {
        o += " (empty)\n";
    } else {
        o += "\n";
        appendIndented(o, r.compileLog);
    }
    return o;
}

Verdict checkSession(const session::Session& s, const RunOptions& options)
{
    session::SessionRunner::Options run;
    run.iterations = options.iterations;
    run.device = options.device;
    const BackendKind requested =
        options.backend == BackendKind::Auto ? s.backend : options.backend;
    std::string note;
    if (auto why = backendUnavailableReason(requested)) {
        if (requested == BackendKind::Cuda && options.fallbackToCpu &&
            !backendUnavailableReason(BackendKind::Cpu)) {
            run.backend = BackendKind::Cpu;
            note = "ran on the CPU emulator instead of CUDA: " + *why;
        } else {
            std::string hint;
            if (requested == BackendKind::Cuda && !options.fallbackToCpu)
                hint = " (RunOptions::fallbackToCpu or $WARPBENCH_TEST_FALLBACK=cpu runs it on the "
                       "CPU emulator instead)";
            return skipped(std::string(backendName(requested)) + " backend unavailable: " + *why +
                           hint);
        }
    } else {
        run.backend = requested;
    }

    Verdict v;
    try {
        if (options.trustProjectFlags && !s.flagsTrusted) {
            session::Session trusted = s;
            trusted.flagsTrusted = true;
            v.report = session::SessionRunner::run(trusted, run);
        } else {
            v.report = session::SessionRunner::run(s, run);
        }
    } catch (const std::exception& e) { // run() reports through RunReport; this is a safety net
        return failed("project '" + s.name + "': " + e.what());
    }
    if (v.report.status == session::RunReport::Status::Passed) {
        v.outcome = Verdict::Outcome::Passed;
        v.message = note;
    } else {
        v.outcome = Verdict::Outcome::Failed;
        v.message = describeFailure(v.report);
        if (!note.empty()) v.message += note + "\n";
    }
    return v;
}

Verdict checkProject(const std::filesystem::path& project, const RunOptions& options)
{
    std::error_code ec;
    if (std::filesystem::is_directory(project, ec))
        return failed("'" + project.string() +
                      "' is a folder, not a .wbproj project "
                      "(addProjectRows found no projects under it)");
    session::Session s;
    try {
        s = session::ProjectFile::load(project);
    } catch (const std::exception& e) {
        return failed("cannot load project '" + project.string() + "': " + e.what());
    }
    return checkSession(s, options);
}

Verdict checkProject(const QString& project, const RunOptions& options)
{
    return checkProject(std::filesystem::path(project.toStdString()), options);
}

Verdict checkProject(const char* project, const RunOptions& options)
{
    return checkProject(std::filesystem::path(project ? project : ""), options);
}

int addProjectRows(const std::filesystem::path& folder, const char* column)
{
    namespace fs = std::filesystem;
    QTest::addColumn<QString>(column);
    std::error_code ec;
    const fs::path root = fs::absolute(folder, ec);
    std::vector<fs::path> found;
    if (fs::is_directory(root, ec)) {
        for (auto it = fs::recursive_directory_iterator(root, ec);
             !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
            if (it->is_regular_file(ec) && it->path().extension() == ".wbproj")
                found.push_back(it->path());
    }
    std::sort(found.begin(), found.end());
    for (const fs::path& p : found) {
        const std::string name = p.lexically_relative(root).replace_extension().generic_string();
        QTest::newRow(name.c_str()) << QString::fromStdString(p.string());
    }
    if (found.empty()) QTest::newRow("(no projects)") << QString::fromStdString(root.string());
    return static_cast<int>(found.size());
}

int addProjectRows(const QString& folder, const char* column)
{
    return addProjectRows(std::filesystem::path(folder.toStdString()), column);
}

int addProjectRows(const char* folder, const char* column)
{
    return addProjectRows(std::filesystem::path(folder ? folder : ""), column);
}

} // namespace wb::testing
