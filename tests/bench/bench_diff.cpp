// SPDX-License-Identifier: GPL-3.0-or-later
// The session diff engine (every statistic, one pass, all cores) against NumPy's
// `np.abs(a - b).max()` + `np.allclose(a, b)` on the same float32 arrays, in the same run.
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
    double best = 1e300;
    DiffStats s;
    for (int r = 0; r < repeats; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        s = computeDiff(a, b, tol);
        const auto t1 = std::chrono::steady_clock::now();
        best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
    }

    std::printf("bench_diff: %zu float32 elements, %u hardware threads, best of %d\n", n,
                std::thread::hardware_concurrency(), repeats);
    std::printf("  warpbench computeDiff (all statistics)   %9.1f ms   max abs %.9g, allclose %s\n",
                best * 1e3, s.maxAbs, s.passed() ? "True" : "False");

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
                "for _ in range(%2):\n"
                "    t0 = time.perf_counter()\n"
                "    m = np.abs(a - b).max()\n"
                "    c = np.allclose(a, b)\n"
                "    best = min(best, time.perf_counter() - t0)\n"
                "print(best, repr(float(m)), c, np.__version__)\n")
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
    std::printf("  numpy %s abs(a-b).max() + allclose   %9.1f ms   max abs %s, allclose %s\n",
                qPrintable(out.value(3)), npSeconds * 1e3, qPrintable(out.value(1)),
                qPrintable(out.value(2)));
    std::printf("  ratio (numpy time / warpbench time)     %9.2fx   (target >= 1x)\n",
                npSeconds / best);
    return 0;
}
