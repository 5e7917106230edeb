// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/KernelInfo.h"
#include "core/session/Session.h"

#include <string>
#include <vector>

namespace wb::session {

/// "Create Buffers from Signature": the buffers and scalars a kernel's parameters need, added to
/// a session that lacks them, so a kernel typed from scratch runs without filling tables by hand.
///
/// - a pointer parameter becomes a buffer of its element type: pointer to const → `in` (uniform
///   random data); otherwise, where the kernel's source is given and its body says it
///   (PointerAccess), only read → `in`, only written → `out`, read and written → `inout`
///   (uniform random data); where the source cannot tell, `out` — or `inout` when the kernel has
///   no pointer to const at all (an in-place kernel reads what it writes), with the reason in
///   `notes`;
/// - a value parameter becomes a scalar of its type: the first integer one is the size (its value
///   `defaultSize`), other numbers are 1;
/// - every new buffer is one-dimensional, its shape the size scalar (a scalar `N` = defaultSize is
///   added when the kernel takes no integer);
/// - parameters that already have a buffer or scalar of their name are left as they are; ones
///   without an element type (structs, `void*`, vector types) are skipped, with the reason.
struct SignatureSpecs {
    std::vector<std::string> addedBuffers;
    std::vector<std::string> addedScalars;
    std::vector<std::string> skipped; ///< "p: struct Params has no element type (…)"
    /// How each added buffer's role was chosen: "y: read and written (line 4) → inout, random
    /// data", and where the source was ambiguous, why and what was assumed.
    std::vector<std::string> notes;

    bool changed() const noexcept { return !addedBuffers.empty() || !addedScalars.empty(); }

    /// Adds what `kernel` needs to `s` and makes it the launched kernel. When a buffer was added
    /// and the launch is one-dimensional, its grid becomes `ceil(<size>/<block>)`. `source` is
    /// the kernel's source text (empty: roles from the parameters' const alone).
    static SignatureSpecs apply(Session& s, const KernelInfo& kernel,
                                const std::string& defaultSize = "1024",
                                const std::string& source = {});
};

} // namespace wb::session
