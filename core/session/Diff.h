// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/HostArray.h"
#include "core/session/Session.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace wb::session {

/// One element that is outside the tolerance.
struct Mismatch {
    Mismatch() = default;
    Mismatch(std::size_t i, std::vector<std::size_t> coords, double a, double e, double err,
             std::uint64_t u, std::string aText = {}, std::string eText = {})
        : index(i)
        , coordinates(std::move(coords))
        , actual(a)
        , expected(e)
        , absError(err)
        , ulp(u)
        , actualText(std::move(aText))
        , expectedText(std::move(eText))
    {
    }

    std::size_t index = 0;                ///< flat, C order
    std::vector<std::size_t> coordinates; ///< N-d, same rank as the buffer
    double actual = 0;
    double expected = 0;
    double absError = 0;
    std::uint64_t ulp = 0; ///< for integer buffers the exact |a - b|
    /// Integer buffers: the exact values in decimal (`actual` and `expected` are rounded above
    /// 2^53); empty for floating-point buffers.
    std::string actualText, expectedText;
};

/// Statistics of actual vs expected for one output buffer.
///
/// Error statistics (max/mean abs, RMS, max rel, max ULP, histogram) are over the elements
/// where both sides are finite. Non-finite elements count as equal when both are the same
/// infinity, or both NaN with Tolerance::nanEqual; otherwise they are mismatches.
/// A finite pair matches when |a - b| <= atol + rtol * |b| (numpy.allclose, b = expected), or in
/// ULP mode when its ULP distance is <= maxUlp. ULP distance counts representable values of the
/// buffer's own type between a and b (+0.0 and -0.0 are 0 apart; across zero the two halves
/// add); for integer types it is |a - b|. Integer buffers (and bool) are compared in their own
/// type: |a - b| is computed exactly (a difference of 1 between two u64 near 2^63 is 1, never 0),
/// and a pair matches when that exact difference is <= atol + rtol * |b|.
struct DiffStats {
    std::size_t count = 0;
    std::size_t compared = 0; ///< finite pairs, the basis of the error statistics
    double maxAbs = 0;
    double maxRel = 0; ///< |a-b| / |b|; +inf where b = 0 and a != 0
    std::uint64_t maxUlp = 0;
    double meanAbs = 0;
    double rms = 0;
    std::size_t mismatches = 0;
    double mismatchFraction = 0;
    std::size_t nanActual = 0, nanExpected = 0, infActual = 0, infExpected = 0;
    std::vector<Mismatch> firstMismatches; ///< at most DiffOptions::firstK, in index order
    /// Log2-binned |a - b|: bin 0 counts exact matches (error 0); bin i >= 1 counts errors in
    /// [2^(i-1+kHistogramMinExp), 2^(i+kHistogramMinExp)); the first and last bins also take
    /// everything below and above.
    std::vector<std::uint64_t> histogram;
    static constexpr int kHistogramMinExp = -53;
    static constexpr int kHistogramBins = 64;
    /// Lower edge of bin i >= 1 (0 for bin 0).
    static double binLowerEdge(int bin) noexcept;

    bool passed() const noexcept { return mismatches == 0; }
};

struct DiffOptions {
    std::size_t firstK = 10;
    unsigned threads = 0; ///< 0 = std::thread::hardware_concurrency()
};

/// Compares `actual` against `expected` under `tolerance`. The arrays must have the same
/// element count (Error Kind::InvalidArgument otherwise). A floating-point `expected` of higher
/// precision than `actual` (f64 for an f32 output) is used as given: the error statistics and
/// the atol/rtol test are against it, while ULPs count in the output's type against `expected`
/// rounded to it. Otherwise `expected` is converted to the actual type first when the types
/// differ. Multithreaded over contiguous chunks; the inner loops are
/// instantiated per element type.
DiffStats computeDiff(const HostArray& actual, const HostArray& expected,
                      const Tolerance& tolerance, const DiffOptions& options = {});

} // namespace wb::session
