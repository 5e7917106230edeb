// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/Expression.h"
#include "core/session/HostArray.h"
#include "core/session/Session.h"

#include <cstdint>
#include <random>

namespace wb::session {

/// Fills buffers from their Initialiser. The random initialisers are defined bit for bit so
/// that a seed gives the same data on every run, compiler and machine:
///  - generator: std::mt19937_64 seeded with `seed` (its output sequence is fixed by the C++
///    standard), one generator per buffer, elements in C order;
///  - u = (x >> 11) * 2^-53 ∈ [0, 1) from one raw 64-bit output x;
///  - uniform, floating point: low + (high - low) * u;
///    uniform, integers: min(high, floor(low + u * (high - low + 1)))  (inclusive range);
///  - normal: Box–Muller on pairs of outputs (x1, x2): u1 = ((x1 >> 11) + 1) * 2^-53 ∈ (0, 1],
///    u2 = (x2 >> 11) * 2^-53, r = sqrt(-2 ln u1); elements 2k and 2k+1 are
///    mean + stddev * r cos(2π u2) and mean + stddev * r sin(2π u2).
/// (The std:: distributions are not used: their output is implementation-defined.)
class Initialisers {
public:
    /// `field` names the buffer in errors ("buffers[1].init"). Paths resolve via `session`.
    static HostArray make(const BufferSpec& buffer, const std::vector<std::size_t>& shape,
                          const Expression& expr, const Session& session, const std::string& field);

    static double uniform01(std::uint64_t x) noexcept
    {
        return static_cast<double>(x >> 11) * 0x1.0p-53;
    }
};

} // namespace wb::session
