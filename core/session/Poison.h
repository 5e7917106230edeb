// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/LaunchConfig.h"
#include "core/session/HostArray.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wb::session {

/// What the poison check found in one output buffer.
struct CoverageStats {
    bool checked = false;      ///< false: the buffer was not poisoned (inout, or turned off)
    std::size_t total = 0;     ///< elements in the buffer
    std::size_t unwritten = 0; ///< elements still holding the poison after the launch
    /// Elements holding the poison where the reference holds the same bits: a kernel may have
    /// written that value, so they are not counted as unwritten (integers only, in practice).
    std::size_t ambiguous = 0;
    std::size_t firstUnwritten = 0; ///< flat index of the first unwritten element
    std::size_t lastUnwritten = 0;
    bool tailOnly = false; ///< the unwritten elements are exactly the last `unwritten`
    std::string hint;      ///< "last block does not cover the tail?" …

    /// "1,024 of 1,000,000 elements of 'dest' were never written — last block does not cover
    /// the tail?"; empty when everything was written or nothing was checked.
    std::string message(const std::string& buffer) const;
};

/// The poison pattern `out` buffers are filled with before a run, so that elements the kernel
/// never wrote can be found afterwards (on every backend: it is only data).
///
/// Floats get a quiet NaN with a payload no arithmetic produces (GPUs write the canonical NaN
/// 0x7fffffff, x86 0xffc00000), integers a marked value (0xDEADBEEF, its 8/16/64-bit cousins).
/// An integer kernel may write the marked value itself; where the reference holds it too the
/// element is counted as `ambiguous`, never as unwritten.
class Poison {
public:
    /// The pattern's bits for one element of `type` (in the low elementSize(type) bytes).
    static std::uint64_t bits(ElementType type) noexcept;
    /// Fills every element of `array` with the pattern.
    static void fill(HostArray& array) noexcept;
    /// Whether element `index` holds the pattern.
    static bool holds(const HostArray& array, std::size_t index) noexcept;
    /// One byte per element, 1 = never written (holds the pattern and the reference, when
    /// given, does not). For the diff view and heatmap.
    static std::vector<std::uint8_t> unwrittenMask(const HostArray& result,
                                                   const HostArray* expected = nullptr);
    /// Flat indices of the unwritten elements, at most `limit`.
    static std::vector<std::size_t> unwrittenIndices(const HostArray& result,
                                                     const HostArray* expected = nullptr,
                                                     std::size_t limit = SIZE_MAX);
    /// Counts and explains. `launch` (threads in the grid) sharpens the hint.
    static CoverageStats check(const HostArray& result, const HostArray* expected,
                               const LaunchConfig* launch = nullptr);
};

/// "1,000,000".
std::string withThousands(std::uint64_t value);

} // namespace wb::session
