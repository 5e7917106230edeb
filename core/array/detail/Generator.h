// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/array/KernelArgument.h"

#include <string>
#include <string_view>
#include <vector>

namespace wb::detail {

/// A kernel name: a C identifier not starting with "wb_"; throws naming it otherwise.
std::string checkedKernelName(std::string_view name);
/// A statement or expression given by the user (`what` names it in errors): not empty, and
/// its brackets balanced outside literals, so that it cannot close the generated function.
std::string checkedBody(const char* what, std::string_view body);

/// Source of an elementwise kernel: entry points `name` and `name_noalias`.
std::string elementwiseSource(const std::string& name, const std::vector<KernelArgument>& args,
                              const std::string& operation, std::string_view preamble);

/// Source of a reduction: `name_stage1(args..., T* wb_out, unsigned long long n)` reduces a
/// grid-stride share of map(i) per block into wb_out[blockIdx.x]; `name_stage2(const T*
/// wb_in, T* wb_out, unsigned long long n)` reduces n partials in one block into wb_out[0].
std::string reductionSource(const std::string& name, ScalarType type,
                            const std::vector<KernelArgument>& args, const std::string& neutral,
                            const std::string& reduce, const std::string& map,
                            std::string_view preamble);

} // namespace wb::detail
