// SPDX-License-Identifier: GPL-3.0-or-later
// bench_races: the CPU emulator's race-check mode against a plain emulator run of the same
// session, on every example project (resources/examples), in the same run.
//
// Per example: the kernel's median launch time (the sessions' timed launches) and the wall time
// of a whole run with a warm compile cache (inputs, launches, reference, diff), plain and race-
// checked, on one CpuBackend with the same worker threads for both (default: one per core; the
// race-checked launch runs its blocks on them in warpbench-cpu-sandbox). The race-checked launch
// time is measured inside the sandbox; the run's wall time includes handing the buffers to the
// sandbox process (kept between launches) and back.
//
// The last line compares with the target of issue 27: every correct example's whole run within
// 5× the plain run, and per launch within 10× where the plain launch takes 1 ms or more.
//
// Usage: bench_races [--iterations N] [--threads N] [EXAMPLE-DIR]
#include "core/common/Error.h"
#include "core/common/Paths.h"
#include "core/cpu/CpuBackend.h"
#include "core/session/ProjectFile.h"
#include "core/session/SessionRunner.h"
#include "core/session/imageio/QtImageCodec.h"

#include <QCoreApplication>

#include <unistd.h>

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
    int threads = 0; // one per core, as a plain run uses by default
    std::filesystem::path root = dataDir() / "examples";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--iterations" && i + 1 < argc)
            iterations = std::max(1, std::atoi(argv[++i]));
        else if (a == "--threads" && i + 1 < argc)
            threads = std::max(0, std::atoi(argv[++i]));
        else
            root = a;
    }
    std::vector<std::filesystem::path> projects;
    for (const auto& e : std::filesystem::recursive_directory_iterator(root))
        if (e.path().extension() == ".wbproj") projects.push_back(e.path());
    std::sort(projects.begin(), projects.end());

    cpu::CpuBackend backend(threads);
    double load[3] = {0, 0, 0};
    if (getloadavg(load, 3) < 0) load[0] = -1;
    std::printf("Race-check benchmark — %s, %d timed launches per run, load average %.2f\n\n",
                backend.device().name.c_str(), iterations, load[0]);
    std::printf("| example | plain launch (median) | race-checked launch | ratio | plain run | "
                "race-checked run | ratio | races | status plain / race-checked |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|\n");
    double worstKernel = 0, worstRun = 0; // correct examples; launches of 1 ms or more
    std::string worstKernelName = "-", worstRunName = "-";
    int failures = 0;
    for (const auto& path : projects) {
        try {
            session::Session s = session::ProjectFile::load(path.string());
            s.flagsTrusted = true;
            const Figures plain = measure(s, backend, false, iterations);
            const Figures raced = measure(s, backend, true, iterations);
            const double kr = plain.kernelMs > 0 ? raced.kernelMs / plain.kernelMs : 0;
            const double rr = plain.runMs > 0 ? raced.runMs / plain.runMs : 0;
            const bool correct = path.string().find("/bugs/") == std::string::npos;
            if (correct && plain.kernelMs >= 1.0 && kr > worstKernel) {
                worstKernel = kr;
                worstKernelName = path.stem().string();
            }
            if (correct && rr > worstRun) {
                worstRun = rr;
                worstRunName = path.stem().string();
            }
            if (correct && (raced.status != plain.status || raced.races != 0)) ++failures;
            std::printf("| %s | %.3f ms | %.3f ms | %.1f× | %.1f ms | %.1f ms | %.1f× | %zu | %s / "
                        "%s |\n",
                        path.stem().string().c_str(), plain.kernelMs, raced.kernelMs, kr,
                        plain.runMs, raced.runMs, rr, raced.races, plain.status.c_str(),
                        raced.status.c_str());
        } catch (const std::exception& e) {
            std::printf("| %s | failed: %s |\n", path.stem().string().c_str(), e.what());
            ++failures;
        }
        std::fflush(stdout);
    }
    if (getloadavg(load, 3) < 0) load[0] = -1;
    const bool met = worstRun <= 5.0 && worstKernel <= 10.0 && failures == 0;
    std::printf("\nload average after: %.2f\n", load[0]);
    std::printf("worst over the correct examples: whole run %.1f× (%s; target ≤ 5×), launch "
                "%.1f× (%s, plain launches of 1 ms or more; target ≤ 10×); %d example(s) whose "
                "race-checked run failed or differed; target %s\n",
                worstRun, worstRunName.c_str(), worstKernel, worstKernelName.c_str(), failures,
                met ? "MET" : "NOT MET");
    return 0;
}
