// SPDX-License-Identifier: GPL-3.0-or-later
// The session diff engine (every statistic, one pass) against NumPy's
// `np.abs(a - b).max()` + `np.allclose(a, b)` on the same float32 arrays, in the same run: once
// on all hardware threads (the default) and once on 1 thread, NumPy's count (its ufuncs and
// reductions run on the calling thread; no BLAS is involved). Each side's thread use is shown
// as measured: process CPU time / wall time over the timed calls.
// Usage: bench_diff [ELEMENTS=100000000] [REPEATS=3]. The arrays are defined by a formula both
// sides evaluate identically in float32 (so nothing is written to disk):
//   a[i] = float(i % 1000) * 0.001f,  b[i] = a[i] + (i % 7 == 0 ? 1e-6f : 0)
#include "core/session/Diff.h"

#include <QCoreApplication>
#include <QProcess>
#include <QStandardPaths>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <thread>

using namespace wb::session;

namespace {
QString pythonWithNumpy()
{
    for (const QString& c : {qEnvironmentVariable("WB_PYTHON"), QStringLiteral("/usr/bin/python3"),
                             QStandardPaths::findExecutable("python3")}) {
        if (c.isEmpty()) continue;
        QProcess p;
        p.start(c, {"-c", "import numpy"});
        if (p.waitForFinished(30000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0)
            return c;
    }
    return {};
}
} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const std::size_t n = argc > 1 ? std::stoull(argv[1]) : 100'000'000ull;
    const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;

    HostArray a(ElementType::F32, {n}), b(ElementType::F32, {n});
    float* pa = a.as<float>();
    float* pb = b.as<float>();
    for (std::size_t i = 0; i < n; ++i) {
        pa[i] = static_cast<float>(i % 1000) * 0.001f;
        pb[i] = pa[i] + (i % 7 == 0 ? 1e-6f : 0.0f);
    }
    Tolerance tol; // numpy.allclose defaults
    tol.atol = 1e-8;
    tol.rtol = 1e-5;
    struct Timing {
        double bestSeconds = 1e300;
        double cpuPerWall = 0; ///< process CPU time / wall time over all repeats: threads busy
        DiffStats stats;
    };
    const auto timeDiff = [&](unsigned threads) {
        DiffOptions options;
        options.threads = threads;
        Timing t;
        const std::clock_t cpu0 = std::clock();
        const auto wall0 = std::chrono::steady_clock::now();
        for (int r = 0; r < repeats; ++r) {
            const auto t0 = std::chrono::steady_clock::now();
            t.stats = computeDiff(a, b, tol, options);
            const auto t1 = std::chrono::steady_clock::now();
            t.bestSeconds = std::min(t.bestSeconds, std::chrono::duration<double>(t1 - t0).count());
        }
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
        t.cpuPerWall = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC / wall;
        return t;
    };
    const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    const Timing all = timeDiff(0);
    const Timing one = timeDiff(1);

    std::printf("bench_diff: %zu float32 elements, %u hardware threads, best of %d; threads busy "
                "= process CPU time / wall time\n",
                n, hw, repeats);
    std::printf("  %-44s %7s %12s %9s\n", "", "threads", "best", "busy");
    std::printf("  %-44s %7u %9.1f ms %9.2f   max abs %.9g, allclose %s\n",
                "warpbench computeDiff (all statistics)", hw, all.bestSeconds * 1e3, all.cpuPerWall,
                all.stats.maxAbs, all.stats.passed() ? "True" : "False");
    std::printf("  %-44s %7u %9.1f ms %9.2f   max abs %.9g, allclose %s\n",
                "warpbench computeDiff, same threads as numpy", 1u, one.bestSeconds * 1e3,
                one.cpuPerWall, one.stats.maxAbs, one.stats.passed() ? "True" : "False");

    const QString python = pythonWithNumpy();
    if (python.isEmpty()) {
        std::printf("  numpy: not available (install python3-numpy): no ratio\n");
        return 0;
    }
    const QString script =
        QString("import numpy as np, time\n"
                "n = %1\n"
                "i = np.arange(n, dtype=np.int64)\n"
                "a = (i %% 1000).astype(np.float32) * np.float32(0.001)\n"
                "b = a + np.where(i %% 7 == 0, np.float32(1e-6), np.float32(0))\n"
                "del i\n"
                "best = 1e300\n"
                "c0, w0 = time.process_time(), time.perf_counter()\n"
                "for _ in range(%2):\n"
                "    t0 = time.perf_counter()\n"
                "    m = np.abs(a - b).max()\n"
                "    c = np.allclose(a, b)\n"
                "    best = min(best, time.perf_counter() - t0)\n"
                "busy = (time.process_time() - c0) / (time.perf_counter() - w0)\n"
                "print(best, repr(float(m)), c, np.__version__, busy)\n")
            .arg(n)
            .arg(repeats)
            .replace("%%", "%");
    QProcess p;
    p.start(python, {"-c", script});
    if (!p.waitForFinished(-1) || p.exitCode() != 0) {
        std::printf("  numpy: failed: %s\n", p.readAllStandardError().constData());
        return 1;
    }
    const QStringList out = QString::fromUtf8(p.readAllStandardOutput()).trimmed().split(' ');
    const double npSeconds = out.value(0).toDouble();
    std::printf("  %-44s %7u %9.1f ms %9.2f   max abs %s, allclose %s\n",
                qPrintable(QString("numpy %1 abs(a-b).max() + allclose").arg(out.value(3))), 1u,
                npSeconds * 1e3, out.value(4).toDouble(), qPrintable(out.value(1)),
                qPrintable(out.value(2)));
    std::printf("  ratio numpy / warpbench, %2u threads vs 1  %9.2fx   (target >= 1x)\n", hw,
                npSeconds / all.bestSeconds);
    std::printf("  ratio numpy / warpbench, 1 thread vs 1     %9.2fx   (same thread count)\n",
                npSeconds / one.bestSeconds);
    return 0;
}
