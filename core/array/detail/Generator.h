// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/array/KernelArgument.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wb::detail {

/// A kernel name: a C identifier not starting with "wb_"; throws naming it otherwise.
std::string checkedKernelName(std::string_view name);
/// A statement or expression given by the user (`what` names it in errors): not empty, and
/// its brackets balanced outside literals, so that it cannot close the generated function.
std::string checkedBody(const char* what, std::string_view body);

/// Source of an elementwise kernel: entry points `name` (scalar grid-stride loop) and
/// `name_noalias` (__restrict__ pointers; with `vectorize`, when vectorOperation() accepts the
/// operation, a vector path of `packsPerTrip` packs per array per thread per trip, taken at run
/// time when every array the operation uses is aligned to its pack, else the scalar loop).
struct ElementwiseSource {
    std::string text;
    /// The vector path was generated; elementsPerPack elements per load/store then.
    bool vectorized = false;
    unsigned elementsPerPack = 1;
};
ElementwiseSource elementwiseSource(const std::string& name,
                                    const std::vector<KernelArgument>& args,
                                    const std::string& operation, std::string_view preamble,
                                    bool vectorize, unsigned packsPerTrip);

/// How the vector path treats each argument: `used` (the operation names it), `load` (a use
/// other than an unconditional top-level `name[i] = ...`, or const), `store` (not const).
struct VectorUse {
    bool used = false;
    bool load = false;
    bool store = false;
};
/// The operation rewritten for the vector path, every `name[i]` of an array argument replaced
/// by `wb_name[wb_k].wb_e[wb_j]`; nullopt (the scalar loop only) unless the operation is
/// provably elementwise: each use of an array argument is exactly `name[i]` (whitespace
/// allowed), not a member or address-of, `i` is never redeclared, no return/goto/break/
/// continue/asm/preprocessor lines, no raw strings, and the preamble never names an array
/// argument. `uses` gets one entry per argument.
std::optional<std::string> vectorOperation(const std::vector<KernelArgument>& args,
                                           std::string_view operation, std::string_view preamble,
                                           std::vector<VectorUse>& uses);

/// Source of a reduction: `name_stage1(args..., T* wb_out, unsigned long long n)` reduces a
/// grid-stride share of map(i) per block into wb_out[blockIdx.x]; `name_stage2(const T*
/// wb_in, T* wb_out, unsigned long long n)` reduces n partials in one block into wb_out[0].
std::string reductionSource(const std::string& name, ScalarType type,
                            const std::vector<KernelArgument>& args, const std::string& neutral,
                            const std::string& reduce, const std::string& map,
                            std::string_view preamble);

} // namespace wb::detail
