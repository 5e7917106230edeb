// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cpu/detail/RaceReport.h"

#include "core/common/Paths.h"
#include "core/common/ProcessTree.h"

#include <QProcess>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <tuple>

namespace wb::cpu::detail {

namespace {

constexpr int kToolTimeoutMs = 30'000;

/// Runs a binutils tool; its standard output, or empty when it cannot run.
std::string runTool(const QString& program, const QStringList& args, const std::string& input = {})
{
    QProcess p;
    p.start(program, args);
    if (!p.waitForStarted(kToolTimeoutMs)) return {};
    if (!input.empty()) p.write(input.data(), static_cast<qint64>(input.size()));
    p.closeWriteChannel();
    if (!p.waitForFinished(kToolTimeoutMs)) {
        killProcessTree(static_cast<pid_t>(p.processId()));
        p.waitForFinished();
        return {};
    }
    return p.readAllStandardOutput().toStdString();
}

/// "block_sum(float const*, float*, int)::cache" -> "cache".
std::string shortName(const std::string& name)
{
    const std::size_t colons = name.rfind("::");
    return colons == std::string::npos ? name : name.substr(colons + 2);
}

struct Location {
    std::string file;
    int line = 0;
};

/// Whether a debug-information path is the emulator's or the system's, not the user's: the
/// prelude (its folder, or the precompiled header's copy of it in the compile cache), the C++
/// library and other system headers. The user's files (the kernel file and its own headers)
/// are compiled from copies in a build folder of the cache and keep their names there.
bool isLibraryFile(const std::string& path)
{
    static const std::string prelude = (dataDir() / "prelude").lexically_normal().string() + "/";
    return path.rfind(prelude, 0) == 0 || path.find("/pch-") != std::string::npos ||
           path.find("/include/c++/") != std::string::npos || path.rfind("/usr/", 0) == 0 ||
           path.rfind("/lib/", 0) == 0 || path.rfind("/opt/", 0) == 0;
}

/// addr2line -i -a output: per address, "0x…" then the inline chain, innermost first. Each
/// address is named by the innermost frame in the user's source (the kernel file `sourceName`
/// or a header of the user's): an atomic reached through the prelude and the C++ library
/// (atomic_base.h) is the user's line that called it. Without such a frame, the innermost one.
std::map<std::uint32_t, Location> symbolize(const std::string& library,
                                            const std::set<std::uint32_t>& pcs,
                                            const std::string& sourceName)
{
    std::map<std::uint32_t, Location> out;
    if (pcs.empty()) return out;
    std::string input;
    std::vector<std::uint32_t> order(pcs.begin(), pcs.end());
    for (const std::uint32_t pc : order) {
        std::ostringstream s;
        s << std::hex << "0x" << (pc ? pc - 1 : 0) << "\n"; // the call, not the return address
        input += s.str();
    }
    const std::string text = runTool(QStringLiteral("addr2line"),
                                     {QStringLiteral("-i"), QStringLiteral("-a"),
                                      QStringLiteral("-e"), QString::fromStdString(library)},
                                     input);
    const std::string wanted = std::filesystem::path(sourceName).filename().string();
    std::istringstream in(text);
    std::size_t group = 0;
    bool started = false;
    bool chosen = false;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("0x", 0) == 0) {
            if (started) ++group;
            started = true;
            chosen = false;
            continue;
        }
        if (!started || group >= order.size() || chosen) continue;
        // "path/file.cu:12" or "path/file.cu:12 (discriminator 3)"
        const std::size_t space = line.find(" (");
        const std::string where = line.substr(0, space);
        const std::size_t colon = where.rfind(':');
        if (colon == std::string::npos) continue;
        const std::string path = where.substr(0, colon);
        Location loc;
        loc.file = std::filesystem::path(path).filename().string();
        try {
            loc.line = std::stoi(where.substr(colon + 1));
        } catch (const std::exception&) {
            loc.line = 0;
        }
        if (loc.line <= 0) continue;
        Location& slot = out[order[group]];
        if (loc.file == wanted || !isLibraryFile(path)) {
            slot = loc;
            chosen = true;
        } else if (slot.line == 0) {
            slot = loc; // not in the user's source: keep the innermost known place for now
        }
    }
    return out;
}

} // namespace

std::vector<SharedVariable> sharedVariables(const std::string& library)
{
    // Libraries are cached by the hash of what built them: a path names one content.
    static std::mutex mutex;
    static std::map<std::string, std::vector<SharedVariable>> known;
    {
        std::lock_guard lock(mutex);
        if (auto it = known.find(library); it != known.end()) return it->second;
    }
    const std::string text =
        runTool(QStringLiteral("readelf"),
                {QStringLiteral("-sW"), QStringLiteral("-C"), QString::fromStdString(library)});
    struct Symbol {
        std::size_t offset = 0, size = 0;
        std::string name;
    };
    std::vector<Symbol> objects;
    std::set<std::string> guarded;
    std::set<std::size_t> seen;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        std::istringstream ls(line);
        std::string num, value, size, type, bind, vis, ndx;
        if (!(ls >> num >> value >> size >> type >> bind >> vis >> ndx) || type != "TLS") continue;
        std::string name;
        std::getline(ls >> std::ws, name);
        if (name.rfind("guard variable for ", 0) == 0) {
            guarded.insert(name.substr(19));
            continue;
        }
        Symbol s;
        try {
            s.offset = static_cast<std::size_t>(std::stoull(value, nullptr, 16));
            s.size = static_cast<std::size_t>(std::stoull(size, nullptr, 0));
        } catch (const std::exception&) {
            continue;
        }
        s.name = name;
        if (s.size == 0 || !seen.insert(s.offset).second) continue;
        objects.push_back(s);
    }
    std::vector<SharedVariable> out;
    std::string dynamicNames;
    const Symbol* dynamic = nullptr;
    for (const Symbol& s : objects) {
        if (s.name == "wbcpu::dynamicShared") {
            dynamic = &s;
        } else if (guarded.count(s.name)) {
            // `extern __shared__ T name[]` became a thread_local reference to the dynamic
            // buffer, initialised on first use: it names the buffer, it is not shared data.
            if (!dynamicNames.empty()) dynamicNames += '/';
            dynamicNames += shortName(s.name);
        } else if (s.name.rfind("wbcpu::", 0) != 0 && s.name.rfind("std::", 0) != 0 &&
                   s.name.rfind("__", 0) != 0) {
            out.push_back({s.offset, s.size, shortName(s.name)});
        }
    }
    if (dynamic)
        out.push_back({dynamic->offset, dynamic->size,
                       dynamicNames.empty() ? std::string("extern_shared") : dynamicNames});
    if (!text.empty()) {
        std::lock_guard lock(mutex);
        known[library] = out;
    }
    return out;
}

std::vector<RaceCrowding> parseRaceCrowding(const std::string& output,
                                            const std::vector<std::string>& bufferNames,
                                            const std::vector<SharedVariable>& shared)
{
    std::vector<RaceCrowding> out;
    std::istringstream in(output);
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("WB-RACE-CROWDED ", 0) != 0) continue;
        std::istringstream ls(line.substr(16));
        int region = 0;
        std::uint64_t words = 0;
        if (!(ls >> region >> words) || words == 0) continue;
        RaceCrowding c;
        c.words = words;
        if (region >= 1000 && static_cast<std::size_t>(region - 1000) < shared.size()) {
            c.shared = true;
            c.location = shared[static_cast<std::size_t>(region - 1000)].name;
        } else if (region >= 0 && static_cast<std::size_t>(region) < bufferNames.size()) {
            c.location = bufferNames[static_cast<std::size_t>(region)];
        }
        if (c.location.empty()) c.location = "memory";
        // A cooperative launch watches each block's shared memory apart: one entry per name.
        const auto same = std::find_if(out.begin(), out.end(), [&](const RaceCrowding& o) {
            return o.location == c.location && o.shared == c.shared;
        });
        if (same != out.end())
            same->words += c.words;
        else
            out.push_back(c);
    }
    return out;
}

std::vector<RaceFinding> parseRaceReport(const std::string& output, const std::string& kernel,
                                         const std::string& library, const std::string& sourceName,
                                         const std::vector<std::string>& bufferNames,
                                         const std::vector<SharedVariable>& shared)
{
    struct Raw {
        int region = 0;
        std::uint64_t offset = 0, address = 0, count = 0;
        unsigned size = 0;
        std::uint32_t pc[2] = {0, 0};
        RaceAccess side[2];
    };
    std::vector<Raw> raws;
    std::set<std::uint32_t> pcs;
    std::istringstream in(output);
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("WB-RACE ", 0) != 0) continue;
        std::istringstream ls(line.substr(8));
        Raw r;
        if (!(ls >> r.region >> r.offset >> r.address >> r.size >> r.count)) continue;
        bool ok = true;
        for (int k = 0; k < 2 && ok; ++k) {
            int w = 0, a = 0;
            Dim3& b = r.side[k].block;
            Dim3& t = r.side[k].thread;
            ok = static_cast<bool>(ls >> r.pc[k] >> w >> a >> b.x >> b.y >> b.z >> t.x >> t.y >>
                                   t.z);
            r.side[k].isWrite = w != 0;
            r.side[k].isAtomic = a != 0;
        }
        if (!ok) continue;
        pcs.insert(r.pc[0]);
        pcs.insert(r.pc[1]);
        raws.push_back(r);
    }
    const std::map<std::uint32_t, Location> where = symbolize(library, pcs, sourceName);

    std::vector<RaceFinding> out;
    std::map<std::tuple<int, int, int, int, bool>, std::size_t> merged;
    for (Raw& r : raws) {
        RaceFinding f;
        f.kernel = kernel;
        f.address = r.address;
        f.accessSize = r.size;
        f.occurrences = r.count;
        std::string name;
        if (r.region >= 1000 && static_cast<std::size_t>(r.region - 1000) < shared.size()) {
            f.shared = true;
            name = shared[static_cast<std::size_t>(r.region - 1000)].name;
        } else if (r.region >= 0 && static_cast<std::size_t>(r.region) < bufferNames.size()) {
            name = bufferNames[static_cast<std::size_t>(r.region)];
        }
        if (name.empty()) name = "memory";
        f.location = r.size && r.offset % r.size == 0
                         ? name + "[" + std::to_string(r.offset / r.size) + "]"
                         : name + " + " + std::to_string(r.offset) + " bytes";
        for (int k = 0; k < 2; ++k) {
            if (auto it = where.find(r.pc[k]); it != where.end()) {
                r.side[k].file = it->second.file;
                r.side[k].line = it->second.line;
            }
        }
        f.first = r.side[0];
        f.second = r.side[1];
        const int kindA = (f.first.isWrite ? 2 : 0) | (f.first.isAtomic ? 1 : 0);
        const int kindB = (f.second.isWrite ? 2 : 0) | (f.second.isAtomic ? 1 : 0);
        auto key = std::make_tuple(f.first.line, kindA, f.second.line, kindB, f.shared);
        if (std::make_pair(f.second.line, kindB) < std::make_pair(f.first.line, kindA))
            key = std::make_tuple(f.second.line, kindB, f.first.line, kindA, f.shared);
        if (auto it = merged.find(key); it != merged.end()) {
            out[it->second].occurrences += f.occurrences;
            continue;
        }
        merged.emplace(key, out.size());
        out.push_back(std::move(f));
    }
    std::stable_sort(out.begin(), out.end(), [](const RaceFinding& a, const RaceFinding& b) {
        return std::minmax(a.first.line, a.second.line) < std::minmax(b.first.line, b.second.line);
    });
    return out;
}

std::optional<MemoryFinding> parseRaceFault(const std::string& output, const std::string& kernel,
                                            const std::string& library,
                                            const std::string& sourceName,
                                            const std::vector<std::string>& bufferNames,
                                            const std::vector<std::size_t>& bufferSizes)
{
    std::istringstream in(output);
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("WB-RACE-FAULT ", 0) != 0) continue;
        std::istringstream ls(line.substr(14));
        int region = -1, write = 0;
        long long offset = 0;
        std::size_t size = 0;
        std::uint32_t pc = 0;
        unsigned long long address = 0;
        MemoryFinding f;
        if (!(ls >> region >> offset >> size >> write >> pc >> f.block.x >> f.block.y >>
              f.block.z >> f.thread.x >> f.thread.y >> f.thread.z >> address))
            continue;
        f.kernel = kernel;
        f.located = true;
        f.address = address;
        f.isWrite = write != 0;
        f.accessSize = static_cast<std::uint32_t>(size);
        const std::map<std::uint32_t, Location> where = symbolize(library, {pc}, sourceName);
        if (const auto it = where.find(pc); it != where.end() && it->second.line > 0) {
            f.file = it->second.file;
            f.line = it->second.line;
        }
        std::string access = f.isWrite ? "write" : "read";
        if (size) access += " of " + std::to_string(size) + (size == 1 ? " byte" : " bytes");
        if (region >= 0 && static_cast<std::size_t>(region) < bufferNames.size()) {
            f.kind = MemoryFinding::Kind::OutOfBounds;
            const auto bytes = static_cast<long long>(
                static_cast<std::size_t>(region) < bufferSizes.size() ? bufferSizes[region] : 0);
            const std::string buffer = "buffer '" + bufferNames[static_cast<std::size_t>(region)] +
                                       "' (" + std::to_string(bytes) + " bytes)";
            f.message =
                access + ", " +
                (offset < 0 ? std::to_string(-offset) + " bytes before " + buffer
                            : std::to_string(offset - bytes) + " bytes past the end of " + buffer);
        } else {
            f.kind = MemoryFinding::Kind::InvalidAddress;
            std::ostringstream a;
            a << std::hex << address;
            f.message = "SEGV on address 0x" + a.str();
        }
        return f;
    }
    return std::nullopt;
}

} // namespace wb::cpu::detail
