// SPDX-License-Identifier: GPL-3.0-or-later
// Tests the degrade paths of core/profiling (ProfilerStatus, RangeProfiler, ActivityTrace,
// CudaTimer) where there is no driver — which is where CI runs — and the metric table.
#include "core/backend/Backend.h"
#include "core/common/Error.h"
#include "core/cuda/Context.h"
#include "core/profiling/ActivityTrace.h"
#include "core/profiling/CudaTimer.h"
#include "core/profiling/MetricTable.h"
#include "core/profiling/RangeProfiler.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

#include <set>

using namespace wb::profiling;

class TestProfilerStatus : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void metricTableIsComplete()
    {
        const std::vector<std::string> sol = speedOfLightMetricNames();
        for (const char* required :
             {"gpu__time_duration.sum", "sm__throughput.avg.pct_of_peak_sustained_elapsed",
              "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
              "dram__bytes_read.sum", "dram__bytes_write.sum",
              "sm__warps_active.avg.pct_of_peak_sustained_active", "lts__t_sector_hit_rate.pct",
              "l1tex__t_sector_hit_rate.pct"})
            QVERIFY2(std::find(sol.begin(), sol.end(), required) != sol.end(), required);
        std::set<std::string> names;
        for (const MetricInfo& m : metricTable()) {
            QVERIFY2(names.insert(m.name).second, m.name);
            QVERIFY(*m.displayName && *m.unit && *m.description && m.toSummaryScale > 0);
            QCOMPARE(findMetric(m.name), &m);
        }
        QVERIFY(findMetric("no__such.metric") == nullptr);
    }

    void noDriverDegrades()
    {
        if (!wb::cudaUnavailableReason())
            QSKIP("a CUDA driver is present here: the no-driver path cannot be exercised");
        const ProfilerStatus counters = RangeProfiler::availability();
        QCOMPARE(counters.state, ProfilerStatus::State::NoDriver);
        QVERIFY(!counters.message.empty());

        // RangeProfiler::profile and CudaTimer take wb::cuda handles (a Stream, a Context),
        // which cannot be made without a driver: no device-side CUPTI call can happen, which
        // would crash here (PLATFORM.md).
        try {
            const wb::cuda::Context context = wb::cuda::Context::primary(0);
            QFAIL("a context was made without a driver");
        } catch (const wb::Error& e) {
            QCOMPARE(e.kind(), wb::Error::Kind::Unavailable);
        }

        QCOMPARE(ActivityTrace::availability().state, ProfilerStatus::State::NoDriver);
        try {
            ActivityTrace trace;
            QFAIL("an activity trace started without a driver");
        } catch (const wb::Error& e) {
            QCOMPARE(e.kind(), wb::Error::Kind::Unavailable);
        }
        QVERIFY_THROWS_EXCEPTION(wb::Error, queryDeviceProperties(0));
    }

    void permissionHelpSaysHow()
    {
        const std::string help = counterPermissionHelp();
        QVERIFY(help.find("NVreg_RestrictProfilingToAdminUsers=0") != std::string::npos);
        QVERIFY(help.find("root") != std::string::npos);
        QCOMPARE(std::string(profilerStateName(ProfilerStatus::State::InsufficientPrivileges)),
                 std::string("insufficient privileges"));
    }
};

WB_QTEST_GUILESS_MAIN(TestProfilerStatus)
#include "tst_profilerstatus.moc"
