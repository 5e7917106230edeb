// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/KernelInfo.h"

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace wb::cuda::detail {

/// One `.param` of a PTX `.entry`, with the layout the driver uses for kernel arguments.
struct PtxParam {
    std::string ptxType;  ///< ".u64", ".f32", ".b8" (element type for byte arrays)
    std::size_t size = 0; ///< bytes (element size × array length)
    std::size_t alignment = 0;
    std::size_t offset = 0;        ///< in the parameter buffer (each parameter aligned)
    bool pointerAttribute = false; ///< `.ptr` present (NVRTC emits it only in some modes)
};

/// One kernel entry point in PTX.
struct PtxEntry {
    std::string symbol; ///< mangled ("_Z2mkPfi") or plain for extern "C"
    std::vector<PtxParam> params;
};

/// Every `.entry` (visible or weak) in `ptx`, in order of appearance, without duplicates.
std::vector<PtxEntry> parsePtxEntries(std::string_view ptx);

/// Per-kernel figures from ptxas's `-v` report in an NVRTC log, keyed by mangled name:
///   ptxas info    : Compiling entry function '_Z2mkPfi' for 'sm_90'
///   ptxas info    : Function properties for _Z2mkPfi
///   ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
///   ptxas info    : Used 12 registers, used 1 barriers, 256 bytes smem, 8 bytes cmem[3]
/// Entries found carry known = true.
std::map<std::string, ResourceUsage, std::less<>> parsePtxasReport(std::string_view log);

} // namespace wb::cuda::detail
