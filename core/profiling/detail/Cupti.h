// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cupti_activity.h>
#include <cupti_pcsampling.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include "core/profiling/ProfilerStatus.h"

#include <optional>
#include <string>

namespace wb::profiling::detail {

/// Every CUPTI entry point Warpbench calls; libcupti.so.13 is opened at run time, never linked.
#define WB_CUPTI_FUNCTIONS(X)                                                                      \
    X(cuptiGetResultString)                                                                        \
    X(cuptiActivityEnable)                                                                         \
    X(cuptiActivityDisable)                                                                        \
    X(cuptiActivityRegisterCallbacks)                                                              \
    X(cuptiActivityFlushAll)                                                                       \
    X(cuptiActivityGetNextRecord)                                                                  \
    X(cuptiActivityGetNumDroppedRecords)                                                           \
    X(cuptiProfilerInitialize)                                                                     \
    X(cuptiProfilerDeInitialize)                                                                   \
    X(cuptiProfilerDeviceSupported)                                                                \
    X(cuptiProfilerGetCounterAvailability)                                                         \
    X(cuptiDeviceGetChipName)                                                                      \
    X(cuptiProfilerHostInitialize)                                                                 \
    X(cuptiProfilerHostDeinitialize)                                                               \
    X(cuptiProfilerHostConfigAddMetrics)                                                           \
    X(cuptiProfilerHostGetConfigImageSize)                                                         \
    X(cuptiProfilerHostGetConfigImage)                                                             \
    X(cuptiProfilerHostGetNumOfPasses)                                                             \
    X(cuptiProfilerHostEvaluateToGpuValues)                                                        \
    X(cuptiRangeProfilerEnable)                                                                    \
    X(cuptiRangeProfilerDisable)                                                                   \
    X(cuptiRangeProfilerStart)                                                                     \
    X(cuptiRangeProfilerStop)                                                                      \
    X(cuptiRangeProfilerSetConfig)                                                                 \
    X(cuptiRangeProfilerDecodeData)                                                                \
    X(cuptiRangeProfilerGetCounterDataSize)                                                        \
    X(cuptiRangeProfilerCounterDataImageInitialize)                                                \
    X(cuptiRangeProfilerGetCounterDataInfo)                                                        \
    X(cuptiPCSamplingEnable)                                                                       \
    X(cuptiPCSamplingDisable)                                                                      \
    X(cuptiPCSamplingStart)                                                                        \
    X(cuptiPCSamplingStop)                                                                         \
    X(cuptiPCSamplingGetData)                                                                      \
    X(cuptiPCSamplingSetConfigurationAttribute)                                                    \
    X(cuptiPCSamplingGetNumStallReasons)                                                           \
    X(cuptiPCSamplingGetStallReasons)                                                              \
    X(cuptiGetSassToSourceCorrelation)

struct Cupti {
#define WB_CUPTI_DECLARE_MEMBER(name) decltype(&::name) name = nullptr;
    WB_CUPTI_FUNCTIONS(WB_CUPTI_DECLARE_MEMBER)
#undef WB_CUPTI_DECLARE_MEMBER
    std::string path; ///< the file that was opened
};

/// Opens libcupti once per process: $WARPBENCH_CUPTI, the soname libcupti.so.13, then the
/// toolkit's lib64 and extras/CUPTI/lib64. libnvperf_host/target from the same folder are
/// loaded first (CUPTI opens them by soname). Loading calls nothing device-side.
/// Empty when loaded; else why not.
const std::string& cuptiLoadError() noexcept;

/// The table; throws wb::Error(Unavailable) with cuptiLoadError() when CUPTI is missing.
const Cupti& cupti();

/// "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES" plus the library's text, for any result.
std::string cuptiResultText(CUptiResult result);

/// Test seam at the CUPTI boundary: when $WARPBENCH_CUPTI_FAULT names a CUPTI result
/// ("CUPTI_ERROR_INSUFFICIENT_PRIVILEGES", or its number), the table's cuptiProfilerInitialize
/// returns it without calling CUPTI, as a machine that restricts counters to admins does. Only
/// the hardware counters are affected; timing and activity records still run. The name is read
/// when the table is used, so a test sets it before profiling.
const char* const kCuptiFaultVariable = "WARPBENCH_CUPTI_FAULT";
/// The result $WARPBENCH_CUPTI_FAULT names, or nullopt (unset, or a name not known here).
std::optional<CUptiResult> injectedCuptiFault();

/// What a CUPTI result from `step` means for the user (insufficient privileges with how to
/// enable counters, profiler busy, unsupported device, ...): the classifier of the range
/// profiler and of PC sampling. `unsupported` is the sentence an unsupported device gets.
ProfilerStatus classifyCuptiResult(
    CUptiResult result, const std::string& step,
    const char* unsupported = "Hardware counters are not available on this GPU or configuration.");

} // namespace wb::profiling::detail
