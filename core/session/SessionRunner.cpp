// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/SessionRunner.h"

#include "core/common/Error.h"
#include "core/common/IncludeScan.h"
#include "core/common/UserFile.h"
#include "core/cpu/CpuBackend.h"
#include "core/session/Binding.h"
#include "core/session/CppReference.h"
#include "core/session/Expression.h"
#include "core/session/ImageCodec.h"
#include "core/session/Initialisers.h"
#include "core/session/ModuleGlobals.h"
#include "core/session/Npy.h"
#include "core/session/Pipeline.h"
#include "core/session/Poison.h"
#include "core/session/ProjectTrust.h"
#include "core/session/StructScalar.h"
#include "core/session/detail/FileUtil.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <deque>
#include <limits>
#include <random>

namespace wb::session {

namespace {
/// Elements of each output compared per timed launch that is not checked whole (grade mode).
constexpr std::size_t kSampledElements = 1024;
} // namespace

namespace {

/// Thrown inside run() to leave with a status; everything else is mapped from wb::Error.
struct Stop {
    RunReport::Status status;
    std::string message;
};

/// A scalar's bytes as the kernel takes them, 8-byte aligned (a struct may hold a double).
struct ScalarValue {
    std::vector<std::uint64_t> words;
    std::size_t size = 0;
    void* data() noexcept { return words.data(); }
    const void* data() const noexcept { return words.data(); }
};

/// A pointer member of a struct scalar: where its 8 bytes lie and what they point at.
struct PointerPatch {
    std::size_t at = 0;     ///< byte offset in the struct
    std::size_t buffer = 0; ///< index into Session::buffers
    std::uint64_t offsetElements = 0;
};

struct Resolved {
    Expression expr;
    std::vector<ScalarValue> scalars;
    std::vector<std::vector<std::size_t>> shapes;
    std::vector<std::vector<std::size_t>> globalShapes;
    std::vector<std::vector<PointerPatch>> patches; ///< per scalar; empty for most
};

std::size_t countOf(const std::vector<std::size_t>& shape)
{
    std::size_t n = 1;
    for (const std::size_t d : shape)
        n *= d;
    return n;
}

/// The element offset of `buffer + offset` (a binding or a pointer member), checked to lie
/// inside the buffer. `field` names the binding in errors.
std::uint64_t elementOffset(const std::string& offset, std::size_t buffer, const Session& s,
                            const Resolved& r, const std::string& field)
{
    const std::uint64_t off = r.expr.evaluateCount(offset, field, 0);
    const std::size_t count = countOf(r.shapes[buffer]);
    if (off >= count)
        throw Error(Error::Kind::InvalidArgument,
                    field + ": offset \"" + offset + "\" = " + std::to_string(off) +
                        " is past the end of buffer '" + s.buffers[buffer].name + "' (" +
                        std::to_string(count) + " elements)");
    return off;
}

/// Evaluates the offsets of `buffer + offset` bindings; `field` is "launch.bindings".
void resolveOffsets(std::vector<BoundArg>& bound, const Session& s, const Resolved& r,
                    const std::string& field)
{
    for (BoundArg& b : bound)
        if (b.isBuffer && !b.isGlobal && !b.offset.empty())
            b.offsetElements = elementOffset(b.offset, b.index, s, r, field + "." + b.param);
}

constexpr const auto& kMaxGrid = LaunchLimits::kMaxGrid;
constexpr const auto& kMaxBlock = LaunchLimits::kMaxBlock;
constexpr std::uint64_t kMaxBlockThreads = LaunchLimits::kMaxBlockThreads;

Dim3 dim3Of(const std::vector<std::string>& dims, const Expression& e, const std::string& field,
            const std::uint64_t (&limits)[3])
{
    if (dims.empty() || dims.size() > 3)
        throw Error(Error::Kind::InvalidArgument, field + ": expected 1–3 dimensions");
    unsigned v[3] = {1, 1, 1};
    for (std::size_t i = 0; i < dims.size(); ++i) {
        const std::string f = field + "[" + std::to_string(i) + "]";
        const std::uint64_t n = e.evaluateCount(dims[i], f, 1);
        if (n > limits[i])
            throw Error(Error::Kind::InvalidArgument,
                        f + ": \"" + dims[i] + "\" = " + std::to_string(n) +
                            " is out of range (at most " + std::to_string(limits[i]) + ")");
        v[i] = static_cast<unsigned>(n);
    }
    return Dim3{v[0], v[1], v[2]};
}

LaunchConfig launchConfigOf(const LaunchSpec& l, const Expression& e, const std::string& field)
{
    LaunchConfig c;
    c.grid = dim3Of(l.grid, e, field + ".grid", kMaxGrid);
    c.block = dim3Of(l.block, e, field + ".block", kMaxBlock);
    if (c.block.volume() > kMaxBlockThreads)
        throw Error(Error::Kind::InvalidArgument,
                    field + ".block: " + std::to_string(c.block.x) + " x " +
                        std::to_string(c.block.y) + " x " + std::to_string(c.block.z) + " = " +
                        std::to_string(c.block.volume()) + " threads; a block has at most " +
                        std::to_string(kMaxBlockThreads));
    const std::uint64_t shared = e.evaluateCount(l.sharedBytes, field + ".sharedBytes", 0);
    if (shared > std::numeric_limits<unsigned>::max())
        throw Error(Error::Kind::InvalidArgument,
                    field + ".sharedBytes: \"" + l.sharedBytes + "\" = " + std::to_string(shared) +
                        " is out of range (at most " +
                        std::to_string(std::numeric_limits<unsigned>::max()) + ")");
    c.sharedBytes = static_cast<unsigned>(shared);
    c.cooperative = l.cooperative;
    return c;
}

/// Where scalar `index`'s value is written in a project file (errors name it).
std::string scalarField(std::size_t index)
{
    return "scalars[" + std::to_string(index) + "].value";
}

/// A buffer's extents: 1 to 3 counts of at least 1, errors naming "<field>[d]".
std::vector<std::size_t> shapeOf(const Expression& e, const std::vector<std::string>& extents,
                                 const std::string& field)
{
    if (extents.empty() || extents.size() > 3)
        throw Error(Error::Kind::InvalidArgument, field + ": expected 1–3 positive integers");
    std::vector<std::size_t> shape;
    for (std::size_t d = 0; d < extents.size(); ++d)
        shape.push_back(static_cast<std::size_t>(
            e.evaluateCount(extents[d], field + "[" + std::to_string(d) + "]", 1)));
    return shape;
}

Resolved resolve(const Session& s)
{
    Resolved r;
    for (std::size_t i = 0; i < s.scalars.size(); ++i) {
        // Later expressions see the value as the kernel will (rounded to the scalar's type).
        const Expression::ScalarBytes bytes = r.expr.defineScalar(s.scalars[i], scalarField(i));
        ScalarValue sv;
        sv.size = bytes.size();
        sv.words.assign((bytes.size() + 7) / 8, 0);
        std::memcpy(sv.words.data(), bytes.data(), bytes.size());
        r.scalars.push_back(sv);
    }
    for (std::size_t i = 0; i < s.buffers.size(); ++i)
        r.shapes.push_back(
            shapeOf(r.expr, s.buffers[i].shape, "buffers[" + std::to_string(i) + "].shape"));
    for (std::size_t i = 0; i < s.globals.size(); ++i)
        r.globalShapes.push_back(
            shapeOf(r.expr, s.globals[i].shape, "globals[" + std::to_string(i) + "].shape"));
    // Pointer members of struct scalars: a buffer (at an offset), of the member's type.
    r.patches.resize(s.scalars.size());
    for (std::size_t i = 0; i < s.scalars.size(); ++i) {
        const ScalarSpec& sc = s.scalars[i];
        if (!sc.isStruct()) continue;
        const StructScalar::Layout layout = StructScalar::layout(sc.members);
        for (std::size_t m = 0; m < sc.members.size(); ++m) {
            const StructMember& member = sc.members[m];
            if (!member.isPointer()) continue;
            const std::string f =
                "scalars[" + std::to_string(i) + "].members[" + std::to_string(m) + "].buffer";
            const auto target = Binding::parseTarget(member.buffer);
            const BufferSpec* b = target ? s.findBuffer(target->name) : nullptr;
            if (!b)
                throw Error(Error::Kind::InvalidArgument,
                            f + ": \"" + member.buffer +
                                "\" names no buffer (expected \"name\" "
                                "or \"name + offset\")");
            if (b->type != member.type)
                throw Error(Error::Kind::InvalidArgument, f + ": member '" + member.name + "' is " +
                                                              elementTypeName(member.type) +
                                                              "* but buffer '" + b->name + "' is " +
                                                              elementTypeName(b->type));
            PointerPatch p;
            p.at = layout.offsets[m];
            p.buffer = static_cast<std::size_t>(b - s.buffers.data());
            if (!target->offset.empty())
                p.offsetElements = elementOffset(target->offset, p.buffer, s, r, f);
            r.patches[i].push_back(p);
        }
    }
    return r;
}

/// A struct scalar's bytes with its pointer members pointing into `base` (device addresses or
/// host copies, per buffer) at their element offsets.
ScalarValue patched(const ScalarValue& value, const std::vector<PointerPatch>& patches,
                    const std::function<std::uint64_t(std::size_t)>& base,
                    const std::function<std::size_t(std::size_t)>& elementBytes)
{
    ScalarValue v = value;
    for (const PointerPatch& p : patches) {
        const std::uint64_t address = base(p.buffer) + p.offsetElements * elementBytes(p.buffer);
        std::memcpy(reinterpret_cast<unsigned char*>(v.data()) + p.at, &address, sizeof address);
    }
    return v;
}

std::vector<KernelParam> paramsOf(const std::vector<CppParam>& cpp)
{
    std::vector<KernelParam> out;
    for (const CppParam& c : cpp) {
        KernelParam p;
        p.name = c.name;
        p.type = c.type;
        p.isPointer = c.isPointer;
        p.pointee = c.pointee;
        out.push_back(p);
    }
    return out;
}

/// Device buffers holding the initial data, plus the argument array for one kernel.
struct DeviceSet {
    std::vector<std::unique_ptr<BackendBuffer>> buffers;
    std::vector<std::uint64_t> addresses;
    std::vector<std::size_t> elementSizes;
    /// What argsOf's arguments point at when it is not a buffer's address or a scalar as
    /// resolved: a buffer + offset, a struct with pointer members (deques: stable addresses).
    std::deque<std::uint64_t> pointers;
    std::deque<ScalarValue> structs;
};

/// Allocates and fills the device buffers; when `ms` is set, the copies are timed
/// (Backend::timeCopies) and their duration stored there.
DeviceSet upload(Backend& backend, const Session& s, const std::vector<HostArray>& init,
                 double* ms = nullptr)
{
    DeviceSet d;
    for (std::size_t i = 0; i < s.buffers.size(); ++i) {
        d.buffers.push_back(
            backend.allocate(std::max<std::size_t>(init[i].bytes(), 1), s.buffers[i].name));
        d.addresses.push_back(d.buffers.back()->address());
        d.elementSizes.push_back(elementSize(s.buffers[i].type));
    }
    const auto copies = [&] {
        for (std::size_t i = 0; i < s.buffers.size(); ++i)
            backend.upload(*d.buffers[i], init[i].data(), init[i].bytes());
    };
    if (ms)
        *ms = backend.timeCopies(copies);
    else
        copies();
    return d;
}

std::vector<KernelArgValue> argsOf(const std::vector<BoundArg>& bound, DeviceSet& d,
                                   const Resolved& r)
{
    std::vector<KernelArgValue> args;
    for (const BoundArg& b : bound) {
        KernelArgValue a;
        if (b.isBuffer) {
            a.data = &d.addresses[b.index];
            if (!b.offset.empty()) {
                // An offset nobody evaluated would silently pass the buffer's start.
                if (!b.offsetElements)
                    throw Error(Error::Kind::Internal, "binding of '" + b.param +
                                                           "': its offset \"" + b.offset +
                                                           "\" was not evaluated");
                d.pointers.push_back(d.addresses[b.index] +
                                     *b.offsetElements * d.elementSizes[b.index]);
                a.data = &d.pointers.back();
            }
            a.size = sizeof(std::uint64_t);
            a.isPointer = true;
        } else if (b.index < r.scalars.size() && !r.patches[b.index].empty()) {
            d.structs.push_back(patched(
                r.scalars[b.index], r.patches[b.index],
                [&d](std::size_t i) { return d.addresses[i]; },
                [&d](std::size_t i) { return d.elementSizes[i]; }));
            a.data = d.structs.back().data();
            a.size = r.scalars[b.index].size;
        } else if (b.index < r.scalars.size()) { // else a pipeline's loop variable (Planned)
            a.data = r.scalars[b.index].data();
            a.size = r.scalars[b.index].size;
        }
        args.push_back(a);
    }
    return args;
}

/// One launch of a run (a one-launch project has one; a pipeline one per expanded step): its
/// kernel, configuration and bindings, and the values of its loop variables (bound after the
/// session's scalars, BoundArg::index >= Session::scalars.size()).
struct Planned {
    const KernelInfo* kernel = nullptr;
    LaunchConfig config;
    std::vector<BoundArg> bound;
    std::vector<ScalarValue> loopValues;
};

std::vector<KernelArgValue> argsOf(const Planned& p, DeviceSet& d, const Resolved& r)
{
    std::vector<KernelArgValue> args = argsOf(p.bound, d, r);
    for (std::size_t i = 0; i < p.bound.size(); ++i) {
        const BoundArg& b = p.bound[i];
        if (b.isBuffer || b.index < r.scalars.size()) continue;
        const ScalarValue& v = p.loopValues.at(b.index - r.scalars.size());
        args[i].data = v.data();
        args[i].size = v.size;
    }
    return args;
}

/// Downloads every output; when `ms` is set, the copies are timed as upload() times them.
std::map<std::string, HostArray> download(Backend& backend, const Session& s, const DeviceSet& d,
                                          const std::vector<HostArray>& init, double* ms = nullptr)
{
    std::map<std::string, HostArray> out;
    for (std::size_t i = 0; i < s.buffers.size(); ++i)
        if (s.buffers[i].isOutput())
            out.emplace(s.buffers[i].name, HostArray(init[i].type(), init[i].shape()));
    const auto copies = [&] {
        for (std::size_t i = 0; i < s.buffers.size(); ++i) {
            if (!s.buffers[i].isOutput()) continue;
            HostArray& a = out.at(s.buffers[i].name);
            backend.download(*d.buffers[i], a.data(), a.bytes());
        }
    };
    if (ms)
        *ms = backend.timeCopies(copies);
    else
        copies();
    return out;
}

std::string kernelNotFound(const CompileResult& c, const std::string& name)
{
    // Refused alone by the CPU emulator: say why, where.
    const std::string refused = cpu::CpuBackend::refusedKernelMessage(name);
    for (const Diagnostic& d : c.diagnostics)
        if (d.message.rfind(refused, 0) == 0)
            return d.message + " (" + d.file + ":" + std::to_string(d.line) + ")";
    std::string list;
    for (const KernelInfo& k : c.kernels)
        list += (list.empty() ? "" : ", ") + k.name;
    return "kernel '" + name + "' not found in the source" +
           (list.empty() ? std::string(" (it defines no kernels)") : " (kernels: " + list + ")");
}

/// dir/<name>, checked again here (the project loader checks exports): a plain file name, and
/// not an existing symbolic link (QSaveFile would write through it to wherever it points).
std::filesystem::path outputPath(const std::filesystem::path& dir, const std::string& name,
                                 const std::string& what)
{
    if (const std::string why = exportNameProblem(name); !why.empty())
        throw Error(Error::Kind::InvalidArgument,
                    what + ": " + why + "; nothing is written outside the output folder");
    const std::filesystem::path n(name);
    if (n.is_absolute() || n.has_parent_path() || n.filename() != n || n == "." || n == "..")
        throw Error(Error::Kind::InvalidArgument,
                    what + ": \"" + name + "\" is not a file name inside the output folder");
    const std::filesystem::path p = dir / n;
    std::error_code ec;
    if (std::filesystem::is_symlink(p, ec))
        throw Error(Error::Kind::Io, p.string() +
                                         ": is a symbolic link; Warpbench does not write through "
                                         "links in the output folder (remove it)");
    return p;
}

void writeOutputFiles(const RunReport& rep, const Session& s, const std::filesystem::path& dir)
{
    std::vector<BufferSpec> all = s.buffers;
    all.insert(all.end(), s.globals.begin(), s.globals.end());
    for (const BufferSpec& b : all) {
        const auto it = rep.results.find(b.name);
        if (it == rep.results.end()) continue;
        Npy::write(outputPath(dir, b.name + ".npy", "buffer '" + b.name + "'"), it->second);
        for (std::size_t i = 0; i < b.exports.size(); ++i) {
            const std::string& e = b.exports[i];
            const std::filesystem::path p =
                outputPath(dir, e, "buffer '" + b.name + "': export " + std::to_string(i));
            const std::string ext = p.extension().string();
            if (ext == ".npy") {
                Npy::write(p, it->second);
            } else if (ext == ".bin") {
                detail::writeFileAtomically(
                    p, std::string(reinterpret_cast<const char*>(it->second.data()),
                                   it->second.bytes()));
            } else {
                ImageCodec::require().write(p, arrayToImage(it->second, b.name));
            }
        }
    }
}

/// Checks the outputs of one launch against `expected`: mismatches, elements still holding the
/// poison (unwritten), and NaN where the reference is finite. An unwritten element fails even
/// where a NaN-equal tolerance would let the poison (a NaN) pass.
LaunchCheck checkLaunch(const Session& s, const std::map<std::string, HostArray>& results,
                        const std::map<std::string, HostArray>* expected,
                        const LaunchConfig& launch, std::string label, int launchNo)
{
    LaunchCheck c;
    c.label = std::move(label);
    c.launch = launchNo;
    std::vector<std::string> why;
    std::vector<BufferSpec> outputs = s.buffers;
    outputs.insert(outputs.end(), s.globals.begin(), s.globals.end()); // never poisoned
    for (const BufferSpec& b : outputs) {
        if (!b.isOutput()) continue;
        const auto res = results.find(b.name);
        if (res == results.end()) continue;
        const HostArray* exp = nullptr;
        if (expected) {
            const auto e = expected->find(b.name);
            if (e != expected->end()) exp = &e->second;
        }
        std::uint64_t mism = 0, unwritten = 0, nan = 0;
        if (s.poisons(b) && s.findBuffer(b.name))
            unwritten = Poison::check(res->second, exp, &launch).unwritten;
        if (exp) {
            mism = computeDiff(res->second, *exp, b.tolerance.value_or(s.tolerance)).mismatches;
            if (isFloatingPoint(b.type))
                for (std::size_t i = 0; i < res->second.count() && i < exp->count(); ++i)
                    nan += std::isnan(res->second.at(i)) && !std::isnan(exp->at(i)) ? 1 : 0;
            nan -= std::min(nan, unwritten); // the poison is a NaN too: counted as unwritten
        }
        c.mismatches += mism;
        c.unwritten += unwritten;
        c.nanWhereFinite += nan;
        std::string w;
        if (unwritten) w = withThousands(unwritten) + " never written";
        if (nan)
            w +=
                (w.empty() ? "" : ", ") + withThousands(nan) + " NaN where the reference is finite";
        if (mism && w.empty()) w = withThousands(mism) + " mismatches";
        if (!w.empty()) why.push_back(b.name + ": " + w);
    }
    c.passed = c.mismatches == 0 && c.unwritten == 0;
    for (std::size_t i = 0; i < why.size(); ++i)
        c.message += (i ? "; " : "") + why[i];
    return c;
}

/// Checks `samples` elements of each output, picked by `rng`, against `expected`: mismatches
/// and elements still holding the poison. For the timed launches that are not checked whole.
LaunchCheck checkSampled(const Session& s, const std::map<std::string, HostArray>& results,
                         const std::map<std::string, HostArray>& expected, std::mt19937_64& rng,
                         std::size_t samples)
{
    LaunchCheck c;
    std::vector<std::string> why;
    for (const BufferSpec& b : s.buffers) {
        if (!b.isOutput()) continue;
        const auto res = results.find(b.name);
        const auto exp = expected.find(b.name);
        if (res == results.end() || exp == expected.end()) continue;
        const std::size_t n = std::min(res->second.count(), exp->second.count());
        if (n == 0) continue;
        const std::size_t k = std::min(n, samples);
        HostArray r(b.type, {k}), e(b.type, {k});
        const std::size_t size = elementSize(b.type);
        std::uint64_t unwritten = 0;
        for (std::size_t j = 0; j < k; ++j) {
            const std::size_t i = k == n ? j : static_cast<std::size_t>(rng() % n);
            std::memcpy(r.data() + j * size, res->second.data() + i * size, size);
            std::memcpy(e.data() + j * size, exp->second.data() + i * size, size);
            if (s.poisons(b) && Poison::holds(res->second, i)) ++unwritten;
        }
        const std::uint64_t mism = computeDiff(r, e, b.tolerance.value_or(s.tolerance)).mismatches;
        c.mismatches += mism;
        c.unwritten += unwritten;
        if (unwritten)
            why.push_back(b.name + ": " + withThousands(unwritten) + " of " + withThousands(k) +
                          " sampled never written");
        else if (mism)
            why.push_back(b.name + ": " + withThousands(mism) + " of " + withThousands(k) +
                          " sampled mismatch");
    }
    c.passed = c.mismatches == 0 && c.unwritten == 0;
    for (std::size_t i = 0; i < why.size(); ++i)
        c.message += (i ? "; " : "") + why[i];
    return c;
}

} // namespace

namespace {

/// The bandwidth half of the speed-of-light check (SessionRunner::speedOfLight).
SpeedOfLight checkBandwidth(const RunReport& rep, double assumedPeakGBs)
{
    SpeedOfLight sol;
    if (assumedPeakGBs > 0) {
        sol.peakGBs = assumedPeakGBs;
        sol.peakSource = "assumed (--peak-bandwidth)";
    } else if (rep.device.peakBandwidthGBs > 0) {
        sol.peakGBs = rep.device.peakBandwidthGBs;
        sol.peakSource =
            "driver: 2 x memory clock x bus width (CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, "
            "CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH)";
    } else if (rep.backend == BackendKind::Cpu) {
        sol.peakSource = "not checked on the CPU emulator: its launches run far below host memory "
                         "bandwidth, so a host figure would flag nothing (give --peak-bandwidth)";
    } else {
        sol.peakSource = "not checked: the device's peak bandwidth is unknown";
    }
    if (sol.peakGBs <= 0 || rep.timing.medianMs <= 0 || rep.bytesMoved == 0) {
        if (sol.peakGBs > 0) sol.peakSource += "; nothing timed";
        return sol;
    }
    char text[640];
    sol.checked = true;
    sol.achievedGBs = rep.bandwidthGBs;
    // Warm launches over data that fits in L2 can read faster than DRAM: above the peak is
    // impossible only when every sample started cold, or the data cannot fit.
    const bool cacheCanServe = !rep.coldSamples && rep.device.l2CacheBytes > 0 &&
                               rep.bytesMoved <= rep.device.l2CacheBytes && assumedPeakGBs <= 0;
    sol.impossible = sol.achievedGBs > sol.peakGBs && !cacheCanServe;
    if (sol.achievedGBs > sol.peakGBs && cacheCanServe)
        std::snprintf(text, sizeof text,
                      "%.1f GB/s is above the DRAM peak of %.1f GB/s (%s), possible only because "
                      "the data (%s B) fits in the %s B L2 and stayed warm between launches "
                      "(run --grade flushes L2 before every timed launch)",
                      sol.achievedGBs, sol.peakGBs, sol.peakSource.c_str(),
                      withThousands(rep.bytesMoved).c_str(),
                      withThousands(rep.device.l2CacheBytes).c_str());
    else if (sol.impossible)
        std::snprintf(text, sizeof text,
                      "%.1f GB/s (%s B in a median of %.4g ms) exceeds the peak of %.1f GB/s (%s): "
                      "faster than the memory can deliver, so the kernel does not move the bytes "
                      "its buffers hold (skipped work%s)",
                      sol.achievedGBs, withThousands(rep.bytesMoved).c_str(), rep.timing.medianMs,
                      sol.peakGBs, sol.peakSource.c_str(),
                      rep.coldSamples ? "; every sample started with a cold L2" : "");
    else
        std::snprintf(text, sizeof text, "%.1f GB/s of a peak of %.1f GB/s (%s): possible",
                      sol.achievedGBs, sol.peakGBs, sol.peakSource.c_str());
    sol.message = text;
    return sol;
}

/// The FLOP-rate half of the speed-of-light check (SessionRunner::speedOfLight).
void checkFlops(const RunReport& rep, double assumedPeakGflops, SpeedOfLight& sol)
{
    if (rep.flopsPerLaunch <= 0) return;
    if (assumedPeakGflops > 0) {
        sol.peakGflops = assumedPeakGflops;
        sol.flopsPeakSource = "assumed (--peak-gflops)";
    } else if (rep.device.peakFp32Gflops > 0) {
        sol.peakGflops = rep.device.peakFp32Gflops;
        sol.flopsPeakSource = "FP32: SMs x FP32 lanes per SM x 2 per FMA x SM clock (device "
                              "attributes); a tensor-core kernel needs --peak-gflops";
    } else if (rep.backend == BackendKind::Cpu) {
        sol.flopsPeakSource = "FLOP rate not checked on the CPU emulator (give --peak-gflops)";
    } else {
        sol.flopsPeakSource = "FLOP rate not checked: the device's FP32 peak is unknown";
    }
    if (sol.peakGflops <= 0 || rep.timing.medianMs <= 0) {
        // Said beside the bandwidth's sentence (or its reason for not checking).
        (sol.message.empty() ? sol.peakSource : sol.message) += "; " + sol.flopsPeakSource;
        return;
    }
    // A bandwidth not checked still says why, before the FLOP sentence.
    if (sol.message.empty()) sol.message = sol.peakSource;
    sol.flopsChecked = true;
    sol.checked = true;
    sol.achievedGflops = rep.gflops;
    // No cache makes arithmetic faster: above the peak is impossible in every case.
    sol.flopsImpossible = sol.achievedGflops > sol.peakGflops;
    char text[640];
    if (sol.flopsImpossible)
        std::snprintf(text, sizeof text,
                      "%.1f GFLOP/s (%.4g FLOPs stated per launch, a median of %.4g ms) exceeds "
                      "the peak of %.1f GFLOP/s (%s): faster than the arithmetic units can "
                      "compute, so the kernel does not do the work the project states (skipped "
                      "work)",
                      sol.achievedGflops, rep.flopsPerLaunch, rep.timing.medianMs, sol.peakGflops,
                      sol.flopsPeakSource.c_str());
    else
        std::snprintf(text, sizeof text, "%.1f GFLOP/s of a peak of %.1f GFLOP/s (%s): possible",
                      sol.achievedGflops, sol.peakGflops, sol.flopsPeakSource.c_str());
    sol.message += (sol.message.empty() ? "" : "; ") + std::string(text);
    sol.impossible = sol.impossible || sol.flopsImpossible;
}

} // namespace

SpeedOfLight SessionRunner::speedOfLight(const RunReport& rep, double assumedPeakGBs,
                                         double assumedPeakGflops)
{
    SpeedOfLight sol = checkBandwidth(rep, assumedPeakGBs);
    checkFlops(rep, assumedPeakGflops, sol);
    return sol;
}

namespace {

void runInner(const Session& s, const SessionRunner::Options& opt, RunReport& rep)
{
    if (const std::vector<CheckMode> modes =
            requestedCheckModes(opt.check, s.compileOptions.extraFlags);
        !modes.empty())
        rep.check = modes.front();
    // 0. Flags a project may not pass without the user's trust: nothing is compiled before.
    if (!s.flagsTrusted) {
        if (const std::vector<FlagRefusal> refused = ProjectTrust::review(s); !refused.empty())
            throw Stop{RunReport::Status::Invalid,
                       ProjectTrust::refusalMessage(
                           refused, "Trust the project to run them (warpbench-cli "
                                    "--trust-project; in the window: 'Trust and run'; SDK: "
                                    "RunOptions::withTrustedFlags()).")};
    }

    // 1. Everything that can be checked without running: expressions, launch, source.
    Resolved r;
    LaunchConfig refLaunch;
    std::string source;
    std::vector<PipelineStep> steps; // a pipeline's launches, expanded
    try {
        r = resolve(s);
        if (s.isPipeline()) {
            if (opt.check == CheckMode::Trace)
                throw Error(Error::Kind::InvalidArgument,
                            "trace mode records one launch; this project is a pipeline of "
                            "several (\"launches\")");
            if (opt.profile)
                throw Error(Error::Kind::InvalidArgument,
                            "profiling a pipeline (\"launches\") is not supported: profile one "
                            "of its kernels in a one-launch project");
            steps = expandPipeline(s, r.expr, launchConfigOf);
        } else {
            rep.launch = launchConfigOf(s.launch, r.expr, "launch");
        }
        if (!s.flops.empty()) {
            rep.flopsPerLaunch = r.expr.evaluate(s.flops, "launch.flops");
            if (!std::isfinite(rep.flopsPerLaunch) || rep.flopsPerLaunch < 0)
                throw Error(Error::Kind::InvalidArgument,
                            "launch.flops: \"" + s.flops +
                                "\" = " + std::to_string(rep.flopsPerLaunch) +
                                "; expected a finite number of FLOPs, 0 or more");
        }
        if (s.reference.kind == ReferenceSpec::Kind::Kernel)
            refLaunch = launchConfigOf(s.reference.launch, r.expr, "reference");
        if (!s.isPipeline() && s.launch.kernel.empty())
            throw Error(Error::Kind::InvalidArgument, "launch.kernel: required field is missing");
        source = s.loadKernelSource();
    } catch (const Error& e) {
        throw Stop{RunReport::Status::Invalid, e.what()};
    }
    rep.warmup = s.warmup;
    rep.iterations = opt.iterations.value_or(s.iterations);
    if (rep.iterations < 1)
        throw Stop{RunReport::Status::Invalid, "--iterations must be at least 1"};

    // 2. Backend and compile.
    const BackendKind kind = opt.backend.value_or(s.backend);
    std::unique_ptr<Backend> owned;
    try {
        if (!opt.reuseBackend) owned = createBackend(kind, opt.device.value_or(s.device));
    } catch (const Error& e) {
        throw Stop{RunReport::Status::RuntimeError, e.what()};
    }
    Backend* const backend = opt.reuseBackend ? opt.reuseBackend : owned.get();
    rep.backend = backend->kind();
    rep.device = backend->device();
    // The one launch limit that depends on the device, checked before anything is compiled.
    if (const std::uint64_t most = rep.device.maxDynamicSharedBytes) {
        const auto checkShared = [&](const LaunchConfig& c, const char* field) {
            if (c.sharedBytes > most)
                throw Stop{RunReport::Status::Invalid,
                           std::string(field) + ": " + std::to_string(c.sharedBytes) +
                               " bytes of dynamic shared memory asked; " + rep.device.name +
                               " allows at most " + std::to_string(most) + " per block"};
        };
        if (s.isPipeline())
            for (const PipelineStep& st : steps)
                checkShared(st.config,
                            ("launches[" + std::to_string(st.entry) + "].sharedBytes" +
                             (st.vars.empty() ? "" : " (" + loopValuesText(st.vars) + ")"))
                                .c_str());
        else
            checkShared(rep.launch, "launch.sharedBytes");
        if (s.reference.kind == ReferenceSpec::Kind::Kernel)
            checkShared(refLaunch, "reference.sharedBytes");
    }
    // What the checks of the run's launches found (Backend::takeRunFindings: the races of every
    // launch, not an earlier run's on a warm backend), kept whatever way the run ends (a
    // bounds-checked launch that faults throws).
    (void)backend->takeRunFindings();
    struct KeepFindings {
        Backend& backend;
        RunReport& rep;
        ~KeepFindings()
        {
            try {
                LaunchFindings found = backend.takeRunFindings();
                rep.memoryFindings = std::move(found.memory);
                rep.races = std::move(found.races);
                rep.raceCrowding = std::move(found.raceCrowding);
            } catch (const std::exception&) {
                // Out of memory while copying findings: the report says what else it knows.
            }
        }
    } keepFindings{*backend, rep};
    if (opt.check == CheckMode::Trace && !backend->supports(CheckMode::Trace))
        throw Stop{RunReport::Status::Invalid,
                   "trace mode needs the CPU emulator (use --backend cpu)"};
    if (opt.check != CheckMode::None && !backend->supports(opt.check))
        throw Stop{RunReport::Status::Invalid, std::string(checkModeName(opt.check)) +
                                                   " mode needs the CPU emulator (use --backend "
                                                   "cpu)"};
    // Every run sets the schedule (0: the fixed order): a warm backend forgets the last run's.
    backend->setSchedule(opt.schedule);

    CompileOptions options = SessionRunner::compileOptions(s);
    if (opt.check != CheckMode::None) options.check = opt.check;
    const CompileResult compiled = backend->compile(source, s.kernelSourceName(), options);
    rep.compilerVersion = compiled.compilerVersion;
    rep.target = compiled.target;
    rep.compileMs = compiled.compileMs;
    rep.diagnostics = compiled.diagnostics;
    rep.compileLog = compiled.log;
    if (!compiled.ok)
        throw Stop{RunReport::Status::CompileError, "the kernel source did not compile"};
    rep.compiled = true;
    // A __constant__ table the kernel reads but the project never sets holds zeros: say so.
    for (Diagnostic& w : ModuleGlobals::unsetConstantWarnings(source, s.kernelSourceName(), s))
        rep.diagnostics.push_back(std::move(w));
    // The kernels, each bound before anything runs (step 3): one launch, or a pipeline's.
    std::vector<Planned> plans;
    std::vector<BoundArg> refBound;
    const KernelInfo* refKernel = nullptr;
    std::unique_ptr<CppReference> cppRef;
    std::string refSource, refName;
    try {
        if (s.isPipeline()) {
            std::vector<std::pair<const KernelInfo*, std::vector<BoundArg>>> entries;
            for (std::size_t i = 0; i < s.launches.size(); ++i) {
                const LaunchSpec& l = s.launches[i].launch;
                const std::string f = "launches[" + std::to_string(i) + "]";
                const KernelInfo* k = compiled.findKernel(l.kernel);
                if (!k)
                    throw Error(Error::Kind::InvalidArgument,
                                f + ".kernel: " + kernelNotFound(compiled, l.kernel));
                entries.emplace_back(k, Binding::bind(k->params, sessionForLaunch(s, i), l.bindings,
                                                      f + ": kernel " + k->name));
                resolveOffsets(entries.back().second, s, r, f + ".bindings");
            }
            for (const PipelineStep& st : steps) {
                Planned p{entries[st.entry].first, st.config, entries[st.entry].second, {}};
                for (const Expression::ScalarBytes& b : st.varBytes) {
                    ScalarValue v;
                    v.size = b.size();
                    v.words.assign((b.size() + 7) / 8, 0);
                    std::memcpy(v.words.data(), b.data(), b.size());
                    p.loopValues.push_back(std::move(v));
                }
                plans.push_back(std::move(p));
            }
            // The report's kernel and launch are the last launch's: the one that writes the
            // outputs in most pipelines (unwritten elements are traced back to its threads).
            rep.launch = plans.back().config;
        } else {
            const KernelInfo* k = compiled.findKernel(s.launch.kernel);
            if (!k)
                throw Stop{RunReport::Status::Invalid,
                           "launch.kernel: " + kernelNotFound(compiled, s.launch.kernel)};
            plans.push_back(Planned{k, rep.launch, {}, {}});
        }
        rep.kernel = *plans.back().kernel;

        // 3. Bindings, before anything runs.
        if (!s.isPipeline()) {
            plans[0].bound = Binding::bind(plans[0].kernel->params, s, s.launch.bindings,
                                           "kernel " + plans[0].kernel->name);
            resolveOffsets(plans[0].bound, s, r, "launch.bindings");
        }
        if (s.reference.kind == ReferenceSpec::Kind::Kernel) {
            refKernel = compiled.findKernel(s.reference.launch.kernel);
            if (!refKernel)
                throw Error(Error::Kind::InvalidArgument,
                            "reference.kernel: " +
                                kernelNotFound(compiled, s.reference.launch.kernel));
            refBound = Binding::bind(refKernel->params, s, s.reference.launch.bindings,
                                     "reference kernel " + refKernel->name);
            resolveOffsets(refBound, s, r, "reference.bindings");
        } else if (s.reference.kind == ReferenceSpec::Kind::Cpp) {
            refSource = s.reference.file.empty()
                            ? s.reference.source
                            : UserFile::read(s.resolve(s.reference.file), UserFile::kMaxTextBytes,
                                             "the C++ reference source");
            refName = s.reference.file.empty()
                          ? std::string("reference.cpp")
                          : std::filesystem::path(s.reference.file).filename().string();
            refBound = Binding::bind(
                paramsOf(CppReference::parseParameters(refSource, s.reference.function)), s, {},
                "reference " + s.reference.function + "()", true);
        }
    } catch (const Error& e) {
        throw Stop{RunReport::Status::Invalid, e.what()};
    }

    // Bounds- and race-checked CPU launches run in a sandbox that copies the buffers to other
    // addresses: it relocates pointer arguments, not pointers inside a struct.
    const auto sandboxed = [&] {
        for (const CheckMode m : requestedCheckModes(options.check, options.extraFlags))
            if (m == CheckMode::Bounds || m == CheckMode::Races)
                return backend->kind() == BackendKind::Cpu;
        return false;
    };
    for (const Planned& p : plans)
        for (const BoundArg& b : p.bound)
            if (!b.isBuffer && b.index < r.patches.size() && !r.patches[b.index].empty() &&
                sandboxed())
                throw Stop{RunReport::Status::Invalid,
                           "scalar '" + s.scalars[b.index].name +
                               "': a struct with a pointer member cannot be passed to a bounds- or "
                               "race-checked launch on the CPU emulator (its sandbox moves the "
                               "buffers); run it without the check"};

    // 4. The C++ reference compiles before the GPU work so that its errors come first.
    if (s.reference.kind == ReferenceSpec::Kind::Cpp) {
        cppRef = std::make_unique<CppReference>();
        IncludePaths includes;
        includes.projectDir = s.baseDir;
        if (!s.reference.file.empty())
            includes.sourceDir = s.resolve(s.reference.file).parent_path();
        const CppReference::Build b =
            cppRef->compile(refSource, refName, s.reference.function, s.reference.flags, includes);
        rep.referenceCompiler = b.compilerVersion;
        rep.referenceDiagnostics = b.diagnostics;
        if (!b.ok) throw Stop{RunReport::Status::CompileError, "the C++ reference did not compile"};
    }

    // 5. Data.
    std::vector<HostArray> init;
    for (std::size_t i = 0; i < s.buffers.size(); ++i) {
        const std::string f = "buffers[" + std::to_string(i) + "].init";
        try {
            init.push_back(Initialisers::make(s.buffers[i], r.shapes[i], r.expr, s, f));
        } catch (const Error& e) {
            throw Stop{e.kind() == Error::Kind::InvalidArgument ? RunReport::Status::Invalid
                                                                : RunReport::Status::RuntimeError,
                       e.what()};
        }
    }
    for (std::size_t i = 0; i < s.buffers.size(); ++i)
        rep.bytesMoved += init[i].bytes() * (s.buffers[i].role == BufferRole::InOut ? 2u : 1u);
    // Module globals: `out` ones start as the source initialises them (read after the load).
    std::vector<HostArray> ginit;
    for (std::size_t i = 0; i < s.globals.size(); ++i) {
        const std::string f = "globals[" + std::to_string(i) + "].init";
        try {
            ginit.push_back(Initialisers::make(s.globals[i], r.globalShapes[i], r.expr, s, f));
        } catch (const Error& e) {
            throw Stop{e.kind() == Error::Kind::InvalidArgument ? RunReport::Status::Invalid
                                                                : RunReport::Status::RuntimeError,
                       e.what()};
        }
    }

    // Grade mode: the seed that picks the checked timed launch and the fresh inputs.
    std::mt19937_64 rng;
    std::vector<HostArray> freshInit;
    std::vector<std::string> reseeded;
    bool fresh = false;
    if (opt.grade.enabled) {
        rep.graded = true;
        rep.checkSeed = opt.grade.seed
                            ? opt.grade.seed
                            : (static_cast<std::uint64_t>(std::random_device{}()) << 32) ^
                                  std::random_device{}();
        rng.seed(rep.checkSeed);
        if (opt.grade.freshInputs) {
            freshInit = init;
            for (std::size_t i = 0; i < s.buffers.size(); ++i) {
                BufferSpec b = s.buffers[i];
                if (b.role == BufferRole::Out) continue;
                if (b.init.kind != Initialiser::Kind::Uniform &&
                    b.init.kind != Initialiser::Kind::Normal)
                    continue;
                b.init.seed = rng() & ((std::uint64_t{1} << 53) - 1);
                freshInit[i] = Initialisers::make(b, r.shapes[i], r.expr, s,
                                                  "buffers[" + std::to_string(i) + "].init");
                reseeded.push_back(b.name);
            }
            fresh = !reseeded.empty() && s.reference.kind != ReferenceSpec::Kind::Files;
        }
    }
    std::map<std::string, HostArray> timedResults, afterResults;
    // Grade mode with fresh inputs for every timed launch: the whole check of the chosen one,
    // and the first failure among the sampled others (and how many more failed).
    LaunchCheck timedCheck, sampledCheck;
    int sampledLaunches = 0, sampledFailures = 0;
    int checkedTimedLaunch = 0;

    // Expected results from files are read now: once the kernel library is loaded the
    // process may be sealed (core/common/Sandbox.h) and open no more files.
    std::map<std::string, HostArray> filesExpected;
    if (s.reference.kind == ReferenceSpec::Kind::Files)
        for (const auto& [buffer, file] : s.reference.files) {
            const BufferSpec* b = s.findBuffer(buffer);
            if (!b) b = s.findGlobal(buffer);
            filesExpected.emplace(buffer, Npy::read(s.resolve(file), b->type));
        }

    // 6. The result launch on pristine inputs, then warm-up and timing.
    const std::shared_ptr<void> loadHold = opt.beforeLoad ? opt.beforeLoad(*backend) : nullptr;
    const std::unique_ptr<BackendProgram> program = backend->load(compiled);
    for (std::size_t i = 0; i < s.globals.size(); ++i) {
        const BufferSpec& g = s.globals[i];
        const std::string f = "globals[" + std::to_string(i) + "]";
        std::size_t have = 0;
        try {
            have = backend->globalSize(*program, g.name);
        } catch (const Error& e) {
            throw Stop{RunReport::Status::Invalid, f + ".name: " + e.what()};
        }
        if (have && have != ginit[i].bytes())
            throw Stop{RunReport::Status::Invalid,
                       f + ".shape: variable '" + g.name + "' has " + std::to_string(have) +
                           " bytes in the module but the project gives " + ginit[i].shapeText() +
                           " x " + elementTypeName(g.type) + " = " +
                           std::to_string(ginit[i].bytes()) + " bytes"};
        if (have && g.role == BufferRole::Out)
            backend->readGlobal(*program, g.name, ginit[i].data(), ginit[i].bytes());
    }
    const auto setGlobals = [&] {
        for (std::size_t i = 0; i < s.globals.size(); ++i)
            backend->setConstant(*program, s.globals[i].name, ginit[i].data(), ginit[i].bytes());
    };
    const auto readGlobals = [&](std::map<std::string, HostArray>& out) {
        for (std::size_t i = 0; i < s.globals.size(); ++i) {
            if (!s.globals[i].isOutput()) continue;
            HostArray a(ginit[i].type(), ginit[i].shape());
            backend->readGlobal(*program, s.globals[i].name, a.data(), a.bytes());
            out.insert_or_assign(s.globals[i].name, std::move(a));
        }
    };
    std::string lastLaunched;
    const auto launch = [&](const std::string& name, const LaunchConfig& config,
                            std::span<const KernelArgValue> args) {
        if (opt.onLaunch && name != lastLaunched) opt.onLaunch(name);
        lastLaunched = name;
        return backend->launch(*program, name, config, args);
    };
    const auto expectedFor = [&](const std::vector<HostArray>& inputs) {
        std::map<std::string, HostArray> expected;
        switch (s.reference.kind) {
        case ReferenceSpec::Kind::None:
            break;
        case ReferenceSpec::Kind::Cpp: {
            std::vector<HostArray> data = inputs;
            std::vector<HostArray> globals = ginit;
            std::vector<ScalarValue> scalars = r.scalars;
            // Pointer members of structs point into the reference's copies of the buffers.
            for (std::size_t i = 0; i < scalars.size(); ++i)
                if (!r.patches[i].empty())
                    scalars[i] = patched(
                        scalars[i], r.patches[i],
                        [&data](std::size_t b) {
                            return static_cast<std::uint64_t>(
                                reinterpret_cast<std::uintptr_t>(data[b].data()));
                        },
                        [&data](std::size_t b) { return elementSize(data[b].type()); });
            std::vector<void*> args;
            std::vector<std::size_t> bytes;
            for (const BoundArg& b : refBound) {
                if (b.isGlobal) {
                    args.push_back(static_cast<void*>(globals[b.index].data()));
                    bytes.push_back(globals[b.index].bytes());
                } else if (b.isBuffer) {
                    args.push_back(static_cast<void*>(data[b.index].data()));
                    bytes.push_back(data[b.index].bytes());
                } else {
                    args.push_back(static_cast<void*>(scalars[b.index].data()));
                    bytes.push_back(0);
                }
            }
            cppRef->call(args, bytes);
            for (std::size_t i = 0; i < s.buffers.size(); ++i)
                if (s.buffers[i].isOutput())
                    expected.emplace(s.buffers[i].name, std::move(data[i]));
            for (std::size_t i = 0; i < s.globals.size(); ++i)
                if (s.globals[i].isOutput())
                    expected.emplace(s.globals[i].name, std::move(globals[i]));
            break;
        }
        case ReferenceSpec::Kind::Kernel: {
            DeviceSet d = upload(*backend, s, inputs);
            setGlobals();
            launch(refKernel->name, refLaunch, argsOf(refBound, d, r));
            expected = download(*backend, s, d, inputs);
            readGlobals(expected);
            break;
        }
        case ReferenceSpec::Kind::Files:
            expected = filesExpected;
            break;
        }
        return expected;
    };
    {
        // `out` buffers start poisoned so that elements the kernel never writes can be found.
        std::vector<HostArray> first = init;
        for (std::size_t i = 0; i < s.buffers.size(); ++i)
            if (s.poisons(s.buffers[i])) Poison::fill(first[i]);
        // This launch's copies are the run's transfer figures (the window shows them).
        double h2dMs = -1, d2hMs = -1;
        DeviceSet d = upload(*backend, s, first, &h2dMs);
        setGlobals();
        rep.h2dMs = h2dMs;
        for (const HostArray& a : first)
            rep.h2dBytes += a.bytes();
        std::vector<std::vector<KernelArgValue>> planArgs;
        for (const Planned& p : plans)
            planArgs.push_back(argsOf(p, d, r));
        const auto& args = planArgs.front();
        const std::string& kernelName = plans.front().kernel->name;
        // One pass: every launch in order (one for a one-launch project); its time is the sum
        // of the launches' times. `perLaunch`, when set, gets each launch's time appended.
        const auto pass = [&](std::vector<std::vector<double>>* perLaunch) {
            double total = 0;
            for (std::size_t i = 0; i < plans.size(); ++i) {
                const double ms = launch(plans[i].kernel->name, plans[i].config, planArgs[i]);
                total += ms;
                if (perLaunch) (*perLaunch)[i].push_back(ms);
            }
            return total;
        };
        if (opt.check == CheckMode::Trace) {
            std::vector<TraceBuffer> traced;
            for (std::size_t i = 0; i < s.buffers.size(); ++i)
                if (s.buffers[i].isOutput())
                    traced.push_back({s.buffers[i].name, d.buffers[i].get(),
                                      elementSize(s.buffers[i].type), r.shapes[i]});
            backend->beginTrace(rep.launch, traced);
            try {
                launch(kernelName, rep.launch, args);
            } catch (...) {
                backend->endTrace();
                throw;
            }
            for (WriteTrace& t : backend->endTrace())
                rep.traces.emplace(t.buffer, std::move(t));
        } else {
            pass(nullptr);
        }
        rep.results = download(*backend, s, d, init, &d2hMs);
        readGlobals(rep.results);
        rep.d2hMs = d2hMs;
        for (const auto& [name, a] : rep.results)
            rep.d2hBytes += a.bytes();
        const auto restoreFrom = [&](const std::vector<HostArray>& data) {
            for (std::size_t i = 0; i < s.buffers.size(); ++i)
                backend->upload(*d.buffers[i], data[i].data(), data[i].bytes());
            setGlobals();
        };
        // Grade mode: every launch starts like the result launch did (inputs restored, outputs
        // poisoned), outside the timed region; a timed launch picked at random is checked.
        const bool grading = opt.grade.enabled;
        const int checkedTimed =
            grading ? static_cast<int>(rng() % static_cast<std::uint64_t>(rep.iterations)) : -1;
        // Race-check mode: every launch is checked from the project's inputs, as the first was:
        // a later one does not continue from what an earlier one left (a worklist's append
        // counter would run it off its buffers; a data-dependent race would not happen again).
        const bool raceChecked = rep.check == CheckMode::Races;
        for (int i = 0; i < rep.warmup; ++i) {
            if (grading || raceChecked) restoreFrom(first);
            pass(nullptr);
        }
        // Grade mode: every timed launch gets inputs of its own from new seeds wherever the
        // initialisers are random (generated and uploaded outside the timed region), so that a
        // kernel that caches results keyed by its inputs never finds them again; each timed
        // launch is checked against the reference for its inputs — sampled, and whole for the
        // one chosen at random. A project may pin the inputs only by stating why.
        std::vector<std::size_t> randomInputs;
        for (std::size_t i = 0; i < s.buffers.size(); ++i)
            if (s.buffers[i].role != BufferRole::Out &&
                (s.buffers[i].init.kind == Initialiser::Kind::Uniform ||
                 s.buffers[i].init.kind == Initialiser::Kind::Normal))
                randomInputs.push_back(i);
        const bool freshTimed = grading && !randomInputs.empty() && s.pinInputs.empty() &&
                                s.reference.kind != ReferenceSpec::Kind::Files &&
                                s.reference.kind != ReferenceSpec::Kind::None;
        rep.freshTimedInputs = freshTimed;
        if (grading) rep.pinnedInputs = s.pinInputs;
        std::mt19937_64 timedRng(rep.checkSeed ^ 0x9e3779b97f4a7c15ULL);
        rep.conditionsBefore = backend->conditions();
        std::vector<double> samples;
        std::vector<std::vector<double>> launchSamples(plans.size());
        for (int i = 0; i < rep.iterations; ++i) {
            std::vector<HostArray> inputs;
            if (freshTimed) {
                inputs = init;
                for (const std::size_t b : randomInputs) {
                    BufferSpec spec = s.buffers[b];
                    spec.init.seed = timedRng() & ((std::uint64_t{1} << 53) - 1);
                    inputs[b] = Initialisers::make(spec, r.shapes[b], r.expr, s,
                                                   "buffers[" + std::to_string(b) + "].init");
                }
                std::vector<HostArray> poisoned = inputs;
                for (std::size_t b = 0; b < s.buffers.size(); ++b)
                    if (s.poisons(s.buffers[b])) Poison::fill(poisoned[b]);
                restoreFrom(poisoned);
                backend->prepareColdLaunch();
            } else if (grading) {
                restoreFrom(first);
                backend->prepareColdLaunch();
            } else if (raceChecked) {
                restoreFrom(first);
            }
            samples.push_back(pass(s.isPipeline() ? &launchSamples : nullptr));
            if (freshTimed) {
                auto results = download(*backend, s, d, inputs);
                readGlobals(results);
                const auto expected = expectedFor(inputs);
                const std::string label = "timed launch " + std::to_string(i + 1) + " of " +
                                          std::to_string(rep.iterations) + " (fresh inputs)";
                if (i == checkedTimed) {
                    timedCheck =
                        checkLaunch(s, results, &expected, rep.launch, label, 1 + rep.warmup + i);
                } else {
                    LaunchCheck c = checkSampled(s, results, expected, timedRng, kSampledElements);
                    ++sampledLaunches;
                    if (!c.passed && sampledCheck.passed) {
                        sampledCheck = c;
                        sampledCheck.message = label + ": " + c.message;
                        sampledCheck.launch = 1 + rep.warmup + i;
                    } else if (!c.passed) {
                        ++sampledFailures;
                    }
                }
            } else if (i == checkedTimed) {
                timedResults = download(*backend, s, d, init);
                readGlobals(timedResults);
            }
        }
        rep.conditionsAfter = backend->conditions();
        rep.coldSamples = grading && backend->kind() == BackendKind::Cuda;
        rep.timing = TimingStats::of(std::move(samples));
        if (s.isPipeline())
            for (std::size_t i = 0; i < plans.size(); ++i) {
                PipelineLaunchTiming t;
                t.entry = steps[i].entry;
                t.kernel = plans[i].kernel->name;
                t.vars = steps[i].vars;
                t.config = plans[i].config;
                t.timing = TimingStats::of(std::move(launchSamples[i]));
                rep.pipeline.push_back(std::move(t));
            }
        if (grading) {
            // One more launch after the timed ones, from fresh poison (and, when asked, inputs
            // from new seeds): a kernel that did its work once and then kept the answer fails.
            std::vector<HostArray> after = fresh ? freshInit : init;
            for (std::size_t i = 0; i < s.buffers.size(); ++i)
                if (s.poisons(s.buffers[i])) Poison::fill(after[i]);
            restoreFrom(after);
            pass(nullptr);
            afterResults = download(*backend, s, d, init);
            readGlobals(afterResults);
            checkedTimedLaunch = 1 + rep.warmup + checkedTimed;
        }
        if (opt.profile) {
            const auto restore = [&] { restoreFrom(first); };
            opt.profile(ProfileContext{*backend, *program, kernelName, rep.launch, args,
                                       rep.bytesMoved, restore});
        }
    }
    if (rep.timing.medianMs > 0) {
        rep.bandwidthGBs = static_cast<double>(rep.bytesMoved) / (rep.timing.medianMs * 1e6);
        if (rep.device.peakBandwidthGBs > 0)
            rep.peakPercent = 100.0 * rep.bandwidthGBs / rep.device.peakBandwidthGBs;
    }
    if (rep.timing.medianMs > 0 && rep.flopsPerLaunch > 0)
        rep.gflops = rep.flopsPerLaunch / (rep.timing.medianMs * 1e6);
    rep.speedOfLight = SessionRunner::speedOfLight(rep, opt.peakBandwidthGBs, opt.peakGflops);

    // 7. Reference.
    rep.referenceKind = s.reference.kind;
    rep.expected = expectedFor(init);

    // 8. Diff.
    bool allPass = true;
    std::vector<const BufferSpec*> outputs;
    for (const BufferSpec& b : s.buffers)
        outputs.push_back(&b);
    for (const BufferSpec& g : s.globals)
        outputs.push_back(&g);
    for (const BufferSpec* out : outputs) {
        const BufferSpec& b = *out;
        if (!b.isOutput()) continue;
        OutputResult o;
        o.buffer = b.name;
        o.tolerance = b.tolerance.value_or(s.tolerance);
        const auto exp = rep.expected.find(b.name);
        if (exp != rep.expected.end()) {
            try {
                o.stats = computeDiff(rep.results.at(b.name), exp->second, o.tolerance);
            } catch (const Error& e) {
                throw Stop{RunReport::Status::RuntimeError, "output '" + b.name + "': " + e.what()};
            }
            o.compared = true;
            allPass = allPass && o.stats.passed();
        }
        rep.outputs.push_back(std::move(o));
    }
    SessionRunner::checkCoverage(s, rep);
    if (!opt.outputDir.empty()) writeOutputFiles(rep, s, opt.outputDir);
    rep.status = allPass ? RunReport::Status::Passed : RunReport::Status::Mismatch;
    if (!allPass) rep.message = "outputs differ from the reference";
    // Nothing compared is not a pass: the run is "ran, not checked", with what is known.
    if (std::none_of(rep.outputs.begin(), rep.outputs.end(),
                     [](const OutputResult& o) { return o.compared; })) {
        rep.status = RunReport::Status::Unchecked;
        rep.message = s.reference.kind == ReferenceSpec::Kind::None
                          ? "the project has no reference"
                          : "the reference covers none of the outputs";
        for (const OutputResult& o : rep.outputs)
            if (const std::string m = o.coverage.message(o.buffer); !m.empty())
                rep.message += "; " + m;
    }

    // 9. Grade mode: the result launch, a timed launch and the launch after timing must all
    // pass; an unwritten element fails even where NaN == NaN would let the poison through.
    if (rep.graded) {
        const auto* expected = rep.expected.empty() ? nullptr : &rep.expected;
        rep.checks.push_back(checkLaunch(s, rep.results, expected, rep.launch, "result launch", 0));
        if (rep.freshTimedInputs) {
            rep.checks.push_back(timedCheck);
            if (sampledLaunches > 0) {
                sampledCheck.label = "the other " + std::to_string(sampledLaunches) +
                                     " timed launches (fresh inputs, " +
                                     std::to_string(kSampledElements) +
                                     " sampled elements of each output)";
                if (sampledFailures > 0)
                    sampledCheck.message += "; " + std::to_string(sampledFailures) + " more failed";
                rep.checks.push_back(sampledCheck);
            }
        } else {
            rep.checks.push_back(checkLaunch(s, timedResults, expected, rep.launch,
                                             "timed launch " +
                                                 std::to_string(checkedTimedLaunch - rep.warmup) +
                                                 " of " + std::to_string(rep.iterations),
                                             checkedTimedLaunch));
        }
        std::string label = "launch after timing";
        std::map<std::string, HostArray> freshExpected;
        if (fresh) {
            freshExpected = expectedFor(freshInit);
            std::string names;
            for (const std::string& n : reseeded)
                names += (names.empty() ? "" : ", ") + n;
            label += " (fresh inputs: " + names + ")";
            rep.freshInputs = true;
        } else if (opt.grade.freshInputs) {
            label += reseeded.empty() ? " (same inputs: no uniform/normal input to reseed)"
                                      : " (same inputs: a files reference cannot follow new ones)";
        }
        rep.checks.push_back(checkLaunch(
            s, afterResults, fresh ? (freshExpected.empty() ? nullptr : &freshExpected) : expected,
            rep.launch, label, rep.warmup + rep.iterations + 1));
        for (const LaunchCheck& c : rep.checks)
            if (!c.passed) {
                if (rep.status == RunReport::Status::Passed ||
                    rep.status == RunReport::Status::Unchecked)
                    rep.message.clear();
                rep.status = RunReport::Status::Mismatch;
                rep.message += (rep.message.empty() ? "" : "; ") + c.label + ": " + c.message;
            }
    }
}

} // namespace

TimingStats TimingStats::of(std::vector<double> samples)
{
    TimingStats t;
    t.samplesMs = samples;
    if (samples.empty()) return t;
    std::sort(samples.begin(), samples.end());
    const std::size_t n = samples.size();
    t.medianMs = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
    t.minMs = samples.front();
    double sum = 0;
    for (double v : samples)
        sum += v;
    t.meanMs = sum / static_cast<double>(n);
    double sq = 0;
    for (double v : samples)
        sq += (v - t.meanMs) * (v - t.meanMs);
    t.stdevMs = n > 1 ? std::sqrt(sq / static_cast<double>(n - 1)) : 0.0;
    return t;
}

void SessionRunner::checkCoverage(const Session& session, RunReport& report)
{
    for (OutputResult& o : report.outputs) {
        const BufferSpec* b = session.findBuffer(o.buffer);
        const auto res = report.results.find(o.buffer);
        o.nan = o.inf = 0;
        if (res == report.results.end()) {
            o.coverage = CoverageStats{};
            continue;
        }
        const auto exp = report.expected.find(o.buffer);
        const HostArray* expected = exp != report.expected.end() ? &exp->second : nullptr;
        const bool poisoned = b && session.poisons(*b);
        o.coverage =
            poisoned ? Poison::check(res->second, expected, &report.launch) : CoverageStats{};
        if (!isFloatingPoint(res->second.type())) continue;
        const std::vector<std::uint8_t> unwritten =
            o.coverage.unwritten ? Poison::unwrittenMask(res->second, expected)
                                 : std::vector<std::uint8_t>{};
        for (std::size_t i = 0; i < res->second.count(); ++i) {
            if (!unwritten.empty() && unwritten[i]) continue;
            const double v = res->second.at(i);
            o.nan += std::isnan(v) ? 1 : 0;
            o.inf += std::isinf(v) ? 1 : 0;
        }
    }
}

void SessionRunner::writeOutputs(const RunReport& report, const Session& session,
                                 const std::filesystem::path& dir)
{
    writeOutputFiles(report, session, dir);
}

SessionRunner::Evaluation::Evaluation(const Session& session)
{
    for (std::size_t i = 0; i < session.scalars.size(); ++i) {
        const ScalarSpec& s = session.scalars[i];
        try {
            m_expr.defineScalar(s, scalarField(i));
        } catch (const Error& e) {
            m_scalarErrors[s.name] = e.what();
        }
    }
}

std::string SessionRunner::Evaluation::scalarError(const std::string& name) const
{
    const auto it = m_scalarErrors.find(name);
    return it == m_scalarErrors.end() ? std::string() : it->second;
}

std::optional<double> SessionRunner::Evaluation::scalarValue(const std::string& name) const
{
    const auto it = m_expr.variables().find(name);
    if (it == m_expr.variables().end()) return std::nullopt;
    return it->second;
}

std::uint64_t SessionRunner::Evaluation::count(const std::string& expression,
                                               const std::string& field,
                                               std::uint64_t minimum) const
{
    return m_expr.evaluateCount(expression, field, minimum);
}

std::vector<std::size_t> SessionRunner::Evaluation::shape(const BufferSpec& buffer,
                                                          const std::string& field) const
{
    return shapeOf(m_expr, buffer.shape, field);
}

CompileOptions SessionRunner::compileOptions(const Session& s)
{
    CompileOptions options = s.compileOptions;
    // #include resolves next to the kernel file, then in the project folder and its includeDirs.
    // (A kernel given as text, as the window sends it, may name its file's folder in sourceDir.)
    options.projectDir = s.baseDir.string();
    if (!s.kernelFile.empty()) options.sourceDir = s.resolve(s.kernelFile).parent_path().string();
    auto addNameExpression = [&options](const std::string& k) {
        if (k.find('<') != std::string::npos &&
            std::find(options.nameExpressions.begin(), options.nameExpressions.end(), k) ==
                options.nameExpressions.end())
            options.nameExpressions.push_back(k);
    };
    if (s.isPipeline())
        for (const PipelineLaunch& p : s.launches)
            addNameExpression(p.launch.kernel);
    else
        addNameExpression(s.launch.kernel);
    if (s.reference.kind == ReferenceSpec::Kind::Kernel)
        addNameExpression(s.reference.launch.kernel);
    return options;
}

std::map<std::string, HostArray> SessionRunner::makeInputs(const Session& s)
{
    const Resolved r = resolve(s);
    std::map<std::string, HostArray> inputs;
    for (std::size_t i = 0; i < s.buffers.size(); ++i)
        inputs.emplace(s.buffers[i].name,
                       Initialisers::make(s.buffers[i], r.shapes[i], r.expr, s,
                                          "buffers[" + std::to_string(i) + "].init"));
    return inputs;
}

RunReport SessionRunner::run(const Session& session, const Options& options)
{
    RunReport rep;
    rep.project = session.name;
    try {
        runInner(session, options, rep);
    } catch (const Stop& stop) {
        rep.status = stop.status;
        rep.message = stop.message;
    } catch (const Error& e) {
        rep.status = RunReport::Status::RuntimeError;
        rep.message = std::string(errorKindName(e.kind())) + ": " + e.what();
    } catch (const std::exception& e) {
        rep.status = RunReport::Status::RuntimeError;
        rep.message = e.what();
    }
    return rep;
}

} // namespace wb::session
