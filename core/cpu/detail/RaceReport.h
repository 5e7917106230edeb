// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/MemoryFinding.h"
#include "core/common/RaceFinding.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace wb::cpu::detail {

/// A `__shared__` variable of a kernel library: its place in the library's TLS block (the
/// emulator's shared memory is thread_local), its size and its name in the source.
struct SharedVariable {
    std::size_t offset = 0;
    std::size_t size = 0;
    std::string name; ///< "tile"; the `extern __shared__` array(s) for the dynamic buffer
};

/// The shared-memory variables of `library`, read from its symbol table with binutils' readelf:
/// the TLS objects, without the prelude's own and the references that `extern __shared__`
/// declarations become. Empty when readelf is missing (shared memory then goes unwatched).
std::vector<SharedVariable> sharedVariables(const std::string& library);

/// The sandbox's "WB-RACE" lines as findings: code addresses resolved to the user's
/// file:line with binutils' addr2line (the innermost frame of the inline chain in `sourceName`
/// or a header of the user's),
/// regions named by `bufferNames` (region i) or `shared` (region 1000 + i). Findings with the
/// same pair of lines and kinds are merged; sorted by line.
std::vector<RaceFinding> parseRaceReport(const std::string& output, const std::string& kernel,
                                         const std::string& library, const std::string& sourceName,
                                         const std::vector<std::string>& bufferNames,
                                         const std::vector<SharedVariable>& shared);

/// The sandbox's "WB-RACE-CROWDED region words" lines, regions named as in parseRaceReport;
/// one entry per buffer or variable, in the order first seen.
std::vector<RaceCrowding> parseRaceCrowding(const std::string& output,
                                            const std::vector<std::string>& bufferNames,
                                            const std::vector<SharedVariable>& shared);

/// The "WB-RACE-FAULT region offset size write pc block thread address" line of a race-checked
/// launch that stopped at an access out of a buffer's bounds (region >= 0: buffer `region` of
/// `bufferNames` and `bufferSizes`) or at another fault (region -1), as a memory finding at the
/// user's line (as parseRaceReport); nullopt when there is none.
std::optional<MemoryFinding> parseRaceFault(const std::string& output, const std::string& kernel,
                                            const std::string& library,
                                            const std::string& sourceName,
                                            const std::vector<std::string>& bufferNames,
                                            const std::vector<std::size_t>& bufferSizes);

} // namespace wb::cpu::detail
