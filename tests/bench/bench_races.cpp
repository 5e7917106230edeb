// SPDX-License-Identifier: GPL-3.0-or-later
// bench_races: the CPU emulator's race-check mode against a plain emulator run of the same
// session, on every example project (resources/examples), in the same run.
//
// Per example: the kernel's median launch time (the sessions' timed launches) and the wall time
// of a whole run with a warm compile cache (inputs, launches, reference, diff), plain and race-
// checked. Both backends use one worker thread: the race-checked launch runs its blocks one
// after another in warpbench-cpu-sandbox. The race-checked launch time is measured inside the
// sandbox; the run's wall time includes starting the sandbox and copying the buffers to it.
//
// Usage: bench_races [--iterations N] [EXAMPLE-DIR]
#include "core/common/Error.h"
#include "core/common/Paths.h"
#include "core/cpu/CpuBackend.h"
#include "core/session/ProjectFile.h"
#include "core/session/SessionRunner.h"
#include "core/session/imageio/QtImageCodec.h"

#include <QCoreApplication>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

using namespace wb;

namespace {

struct Figures {
    double kernelMs = 0; ///< median launch
    double runMs = 0;    ///< the whole run, warm cache
    std::size_t races = 0;
    std::string status;
};

Figures measure(session::Session s, cpu::CpuBackend& backend, bool races, int iterations)
{
    if (races) s.compileOptions.extraFlags.push_back(cpu::CpuBackend::kRaceCheckFlag);
    session::SessionRunner::Options o;
    o.reuseBackend = &backend;
    o.iterations = iterations;
    session::SessionRunner::run(s, o); // warm-up: compiles (cached afterwards)
    const auto t0 = std::chrono::steady_clock::now();
    const session::RunReport r = session::SessionRunner::run(s, o);
    const auto t1 = std::chrono::steady_clock::now();
    Figures f;
    f.kernelMs = r.timing.medianMs;
    f.runMs = std::chrono::duration<double, std::milli>(t1 - t0).count();
    f.races = races ? backend.lastRaces().size() : 0;
    f.status = r.statusName();
    return f;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    session::installQtImageCodec(); // image_blur reads a PNG
    int iterations = 5;
    std::filesystem::path root = dataDir() / "examples";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--iterations" && i + 1 < argc)
            iterations = std::max(1, std::atoi(argv[++i]));
        else
            root = a;
    }
    std::vector<std::filesystem::path> projects;
    for (const auto& e : std::filesystem::recursive_directory_iterator(root))
        if (e.path().extension() == ".wbproj") projects.push_back(e.path());
    std::sort(projects.begin(), projects.end());

    cpu::CpuBackend backend(1);
    std::printf("Race-check benchmark — %s, %d timed launches per run\n\n",
                backend.device().name.c_str(), iterations);
    std::printf("| example | plain launch (median) | race-checked launch | ratio | plain run | "
                "race-checked run | ratio | races | status plain / race-checked |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|\n");
    double worstKernel = 0, worstRun = 0;
    for (const auto& path : projects) {
        try {
            session::Session s = session::ProjectFile::load(path.string());
            s.flagsTrusted = true;
            const Figures plain = measure(s, backend, false, iterations);
            const Figures raced = measure(s, backend, true, iterations);
            const double kr = plain.kernelMs > 0 ? raced.kernelMs / plain.kernelMs : 0;
            const double rr = plain.runMs > 0 ? raced.runMs / plain.runMs : 0;
            if (path.string().find("/bugs/") == std::string::npos) {
                worstKernel = std::max(worstKernel, kr);
                worstRun = std::max(worstRun, rr);
            }
            std::printf("| %s | %.3f ms | %.3f ms | %.1f× | %.1f ms | %.1f ms | %.1f× | %zu | %s / "
                        "%s |\n",
                        path.stem().string().c_str(), plain.kernelMs, raced.kernelMs, kr,
                        plain.runMs, raced.runMs, rr, raced.races, plain.status.c_str(),
                        raced.status.c_str());
        } catch (const std::exception& e) {
            std::printf("| %s | failed: %s |\n", path.stem().string().c_str(), e.what());
        }
        std::fflush(stdout);
    }
    std::printf("\nworst ratio over the correct examples: launch %.1f×, whole run %.1f× "
                "(target ≤ 10×; compute-sanitizer racecheck on a GPU: about 18× per the issue, "
                "not measured here)\n",
                worstKernel, worstRun);
    return 0;
}
