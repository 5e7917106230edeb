// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Sessions for the runner tests: one-kernel fault cases and the hello_gpu example.

#include "core/session/ProjectFile.h"
#include "core/session/Session.h"

#include <string>
#include <utility>
#include <vector>

namespace wb::runner::test {

/// A session with one f32 output buffer `out` of `n` elements and optional i32/u64 scalars.
inline session::Session faultSession(const std::string& name, const std::string& source,
                                     BackendKind backend,
                                     std::vector<std::pair<std::string, std::string>> scalars = {},
                                     const std::string& outShape = "64")
{
    session::Session s;
    s.name = name;
    s.kernelSource = source;
    s.backend = backend;
    s.warmup = 0;
    s.iterations = 1;
    for (const auto& [n, v] : scalars) {
        session::ScalarSpec sc;
        sc.name = n;
        sc.type = n == "addr" ? session::ElementType::U64 : session::ElementType::I32;
        sc.value = v;
        s.scalars.push_back(sc);
    }
    session::BufferSpec out;
    out.name = std::string("out");
    out.type = session::ElementType::F32;
    out.shape = {outShape};
    out.role = session::BufferRole::Out;
    s.buffers.push_back(out);
    s.launch.kernel = std::string("k");
    s.launch.grid = {"1"};
    s.launch.block = {"32"};
    return s;
}

inline session::Session helloSession()
{
    return session::ProjectFile::load(WB_SOURCE_DIR
                                      "/resources/examples/hello_gpu/hello_gpu.wbproj");
}

} // namespace wb::runner::test
