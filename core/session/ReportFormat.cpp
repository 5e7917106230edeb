// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/ReportFormat.h"

#include "core/session/RunReport.h"

#include <cstdio>

namespace wb::session {

namespace {

std::string dimText(const Dim3& d)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "(%u,%u,%u)", d.x, d.y, d.z);
    return buf;
}

/// "(1, 2, 3)": the window's spelling.
std::string spacedDimText(const Dim3& d)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "(%u, %u, %u)", d.x, d.y, d.z);
    return buf;
}

/// `k.cu:11 read by block (0,0,0) thread (3,0,0)`
std::string raceSideText(const RaceAccess& a)
{
    std::string s = a.file.empty() ? std::string("?") : a.file;
    s += ':';
    s += std::to_string(a.line);
    s += a.isAtomic ? " atomic " : " ";
    s += a.isWrite ? "write" : "read";
    s += " by block ";
    s += dimText(a.block);
    s += " thread ";
    s += dimText(a.thread);
    return s;
}

/// `write at line 11 by block (0, 0, 0) thread (67, 0, 0)`
std::string raceSideProblem(const RaceAccess& a)
{
    return std::string(a.isAtomic ? "atomic " : "") + (a.isWrite ? "write" : "read") + " at line " +
           std::to_string(a.line) + " by block " + spacedDimText(a.block) + " thread " +
           spacedDimText(a.thread);
}

} // namespace

std::string findingText(const MemoryFinding& f)
{
    std::string loc = f.file.empty() ? std::string() : f.file + ":" + std::to_string(f.line) + ": ";
    if (f.located)
        loc += "block (" + std::to_string(f.block.x) + "," + std::to_string(f.block.y) + "," +
               std::to_string(f.block.z) + ") thread (" + std::to_string(f.thread.x) + "," +
               std::to_string(f.thread.y) + "," + std::to_string(f.thread.z) + "): ";
    return std::string("memory finding: ") + memoryFindingKindName(f.kind) + ": " + loc +
           (f.kernel.empty() ? "" : "kernel " + f.kernel + ": ") + f.message + "\n";
}

std::string raceText(const RaceFinding& f)
{
    std::string s = "race: ";
    s += f.shared ? "shared " : "global ";
    s += f.location;
    s += ": ";
    s += raceSideText(f.first);
    s += " vs ";
    s += raceSideText(f.second);
    s += " (kernel ";
    s += f.kernel;
    s += ", ";
    s += std::to_string(f.occurrences);
    s += f.occurrences == 1 ? " conflicting pair)\n" : " conflicting pairs)\n";
    return s;
}

std::string toleranceText(const Tolerance& t)
{
    char buf[64];
    std::string s;
    if (t.mode == Tolerance::Mode::Ulp) {
        s = "ulp<=" + std::to_string(t.maxUlp);
    } else {
        std::snprintf(buf, sizeof buf, "atol=%g rtol=%g", t.atol, t.rtol);
        s = buf;
    }
    return s + (t.nanEqual ? " nan==nan" : "");
}

std::string traceText(const WriteTrace& t)
{
    std::string s = withThousands(t.count() - t.unwritten()) + " of " + withThousands(t.count()) +
                    " elements written";
    const std::size_t multi = t.writtenMoreThanOnce(), races = t.races();
    if (multi) s += ", " + withThousands(multi) + " more than once";
    s += races ? ", " + withThousands(races) + " by several threads non-atomically (race)"
               : ", no races";
    if (t.untraced)
        s += "; " + withThousands(t.untraced) +
             " changed through a raw pointer (not traced: passed to a __device__ function?)";
    return s;
}

RunDiagnostics toDiagnostics(const RunReport& report, const std::string& kernelFile)
{
    RunDiagnostics out;
    for (const MemoryFinding& f : report.memoryFindings) {
        Diagnostic d;
        d.file = f.file.empty() ? kernelFile : f.file;
        d.line = f.line;
        d.message = std::string(memoryFindingKindName(f.kind)) + " in kernel '" + f.kernel + "'" +
                    (f.located ? " at block " + spacedDimText(f.block) + " thread " +
                                     spacedDimText(f.thread)
                               : std::string()) +
                    ": " + f.message;
        out.memory.push_back(std::move(d));
    }
    for (const RaceFinding& f : report.races) {
        const std::string text = "data race on " + std::string(f.shared ? "shared" : "global") +
                                 " " + f.location + " in kernel '" + f.kernel +
                                 "': " + raceSideProblem(f.first) + " vs " +
                                 raceSideProblem(f.second) + " (" + std::to_string(f.occurrences) +
                                 " conflicting pair(s), no barrier between them)";
        for (const RaceAccess* a : {&f.first, &f.second}) {
            if (a == &f.second && f.second.line == f.first.line && f.second.file == f.first.file)
                break; // one problem per line
            Diagnostic d;
            d.file = a->file.empty() ? kernelFile : a->file;
            d.line = a->line;
            d.severity = Severity::Error;
            d.message = text;
            out.races.push_back(std::move(d));
        }
    }
    if (const std::string crowded = raceCrowdingText(report.raceCrowding); !crowded.empty()) {
        Diagnostic d;
        d.file = kernelFile;
        d.line = 0;
        d.severity = Severity::Warning;
        d.message = "race check: " + crowded;
        out.notes.push_back(std::move(d));
    }
    return out;
}

} // namespace wb::session
