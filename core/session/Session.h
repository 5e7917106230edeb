// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/backend/Backend.h"
#include "core/common/CompileOptions.h"
#include "core/session/ElementType.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace wb::session {

/// How a buffer is filled before the launch. Numbers are expressions over the scalars.
struct Initialiser {
    enum class Kind { Zeros, Constant, Iota, Linspace, Uniform, Normal, Npy, Bin, Image };
    Kind kind = Kind::Zeros;
    std::string value = "0"; ///< Constant
    std::string start = "0"; ///< Iota, Linspace
    std::string step = "1";  ///< Iota
    std::string stop = "1";  ///< Linspace (inclusive, like np.linspace)
    std::string low = "0";   ///< Uniform: [low, high) for floats, [low, high] for integers
    std::string high = "1";
    std::string mean = "0"; ///< Normal
    std::string stddev = "1";
    std::uint64_t seed = 0; ///< Uniform, Normal
    std::string path;       ///< Npy, Bin, Image: relative to the project file
    /// Image: "grey", "rgb" or "rgba"; the buffer shape is [height, width] for grey, else
    /// [channels, height, width] (planar). u8 buffers get 0–255, f32 buffers 0–1.
    std::string channels = "grey";

    friend bool operator==(const Initialiser&, const Initialiser&) = default;
};

const char* initialiserKindName(Initialiser::Kind kind) noexcept;
std::optional<Initialiser::Kind> parseInitialiserKind(const std::string& text) noexcept;

/// How close a result must be to its reference.
struct Tolerance {
    enum class Mode { AllClose, Ulp };
    Mode mode = Mode::AllClose;
    double atol = 1e-6; ///< |a - b| <= atol + rtol * |b|  (numpy.allclose, b = reference)
    double rtol = 1e-5;
    std::uint64_t maxUlp = 4; ///< Mode::Ulp
    bool nanEqual = false;    ///< NaN in both at the same place counts as equal

    friend bool operator==(const Tolerance&, const Tolerance&) = default;
};

enum class BufferRole { In, Out, InOut };
const char* bufferRoleName(BufferRole role) noexcept;

struct BufferSpec {
    std::string name;
    ElementType type = ElementType::F32;
    std::vector<std::string> shape; ///< 1–3 expressions
    BufferRole role = BufferRole::In;
    Initialiser init;
    std::optional<Tolerance> tolerance; ///< overrides the session's for this output
    /// Extra files written next to the .npy of this buffer by `--output` (".png", ".bin", ".npy").
    std::vector<std::string> exports;
    /// Fill this `out` buffer with Poison before the launch and count what stays unwritten.
    /// Unset: the session's poisonOutputs. Never applies to `inout` (its data is input).
    std::optional<bool> poison;

    bool isOutput() const noexcept { return role != BufferRole::In; }
    friend bool operator==(const BufferSpec&, const BufferSpec&) = default;
};

/// Why `name` cannot be an export (BufferSpec::exports), or empty when it can: an export is a
/// plain file name inside the output folder (no '/', no "." or "..", no NUL or control
/// character, not empty, at most 255 bytes) ending in .npy, .bin, .png or .jpg. A project file
/// may come from a stranger: it must not write anywhere but the folder the user chose.
std::string exportNameProblem(const std::string& name);

/// One member of a struct scalar.
struct StructMember {
    StructMember() = default;
    /// `StructMember{"a", ElementType::F32, "2"}` as before pointer members (no aggregate
    /// warnings); a pointer member gives its buffer last.
    StructMember(std::string n, ElementType t, std::string v, std::string b = {})
        : name(std::move(n))
        , type(t)
        , value(std::move(v))
        , buffer(std::move(b))
    {
    }

    std::string name;
    ElementType type = ElementType::I32; ///< a pointer member's: the pointee's (the buffer's)
    std::string value = "0";             ///< expression over earlier scalars; unused for pointers
    /// Non-empty: the member is a device pointer (8 bytes, like `float* elements;` of the CUDA
    /// Programming Guide's `struct Matrix`) to this buffer, written like a binding: "A" or
    /// "A + offset" (an element offset, an expression). Filled in at launch with the buffer's
    /// address on the device (its host copy for the C++ reference).
    std::string buffer;

    bool isPointer() const noexcept { return !buffer.empty(); }

    friend bool operator==(const StructMember&, const StructMember&) = default;
};

struct ScalarSpec {
    ScalarSpec() = default;
    /// `ScalarSpec{"n", ElementType::I32, "300"}` as before structs (no aggregate warnings).
    ScalarSpec(std::string n, ElementType t, std::string v, std::vector<StructMember> m = {})
        : name(std::move(n))
        , type(t)
        , value(std::move(v))
        , members(std::move(m))
    {
    }

    std::string name;
    ElementType type = ElementType::I32; ///< unused for a struct
    std::string value = "0";             ///< expression over earlier scalars; unused for a struct
    /// Non-empty: a struct passed by value, its members in declaration order, laid out as C
    /// lays them out (StructScalar); "type": "struct" in the project file.
    std::vector<StructMember> members;

    bool isStruct() const noexcept { return !members.empty(); }
    friend bool operator==(const ScalarSpec&, const ScalarSpec&) = default;
};

/// One kernel launch: which kernel, how, and which buffer or scalar feeds each parameter.
struct LaunchSpec {
    std::string kernel;                 ///< "multiply_them" or a name expression "scale<float, 4>"
    std::vector<std::string> grid{"1"}; ///< 1–3 expressions
    std::vector<std::string> block{"1"};
    std::string sharedBytes = "0";
    /// parameter name → buffer or scalar name; parameters not listed bind to the same name.
    /// A pointer parameter may take a buffer at an element offset, as course code passes
    /// `d_in + RADIUS`: "d_in + RADIUS" (the offset an expression, checked against the buffer).
    std::map<std::string, std::string> bindings;
    /// Every block resident at once (cuLaunchCooperativeKernel): needed by
    /// cooperative_groups::this_grid().sync(); "cooperative": true in the project file.
    bool cooperative = false;

    friend bool operator==(const LaunchSpec&, const LaunchSpec&) = default;
};

/// One loop of a pipeline launch's `repeat`, as C writes it: `for (var = from; var <= to;
/// var += by)`, or `var *= by` (Multiply), or `var >= to; var /= by` (Divide), or `var >= to;
/// var += by` with a negative `by` (Add). Values are exact integers of `type`; the variable is
/// visible to the launch's expressions and to later loops, and binds to kernel parameters as a
/// scalar of `type` would.
struct LoopSpec {
    enum class Step { Add, Multiply, Divide };
    std::string var;
    ElementType type = ElementType::I32;
    std::string from = "0"; ///< expressions over the scalars and outer loop variables
    std::string to = "0";   ///< inclusive bound
    Step step = Step::Add;
    std::string by = "1"; ///< Add: non-zero; Multiply, Divide: at least 2

    friend bool operator==(const LoopSpec&, const LoopSpec&) = default;
};

/// One entry of a multi-launch pipeline (Session::launches): a kernel launch, repeated over
/// its loops (outermost first) when `repeat` is not empty.
struct PipelineLaunch {
    LaunchSpec launch;
    std::vector<LoopSpec> repeat;

    friend bool operator==(const PipelineLaunch&, const PipelineLaunch&) = default;
};

struct ReferenceSpec {
    enum class Kind { None, Cpp, Kernel, Files };
    Kind kind = Kind::None;
    // Cpp
    std::string source; ///< inline C++ (used when file is empty)
    std::string file;   ///< .cpp path, relative to the project file
    std::string function = "reference";
    std::vector<std::string> flags{"-O2"};
    // Kernel: another kernel of the session's source (launch.kernel names it)
    LaunchSpec launch;
    // Files: output buffer name → expected .npy
    std::map<std::string, std::string> files;

    friend bool operator==(const ReferenceSpec&, const ReferenceSpec&) = default;
};
const char* referenceKindName(ReferenceSpec::Kind kind) noexcept;

/// Everything a run needs; what a .wbproj file holds.
struct Session {
    std::string name;
    std::string description;
    std::string kernelSource; ///< inline CUDA source (used when kernelFile is empty)
    std::string kernelFile;   ///< .cu path, relative to the project file
    /// For an inline source: the file name its diagnostics and findings give it — the window
    /// runs its editor's text under the tab's name ("missing_syncthreads.cu"). Empty:
    /// "kernel.cu". A plain file name (no '/').
    std::string kernelSourceFileName;
    CompileOptions compileOptions;
    std::vector<ScalarSpec> scalars;
    std::vector<BufferSpec> buffers;
    /// Module globals (`__constant__` and `__device__` variables of the kernel source), each
    /// described like a buffer: `name` is the variable's, its shape times its type's size must
    /// be the variable's size. Set from `init` before the launch (role in/inout), read back
    /// after it and compared like an output buffer (role out/inout). Never a kernel argument;
    /// the C++ reference takes one by name like a buffer. "globals" in the project file.
    std::vector<BufferSpec> globals;
    LaunchSpec launch; ///< a one-launch project's launch; unused (kernel empty) in a pipeline
    /// A multi-launch pipeline ("launches" in the project file): run in order, all of them for
    /// each result, warm-up and timed pass. Empty: the one-launch project `launch` describes.
    std::vector<PipelineLaunch> launches;
    int warmup = 1;
    int iterations = 10;
    /// Floating-point operations one launch (a pipeline: one pass) performs, as stated ("flops" in
    /// the launch object, an expression such as "2*n*n*n"); empty: not stated. The
    /// speed-of-light check compares FLOPs / median time with the device's FP32 peak.
    std::string flops;
    /// Grade mode gives every timed launch fresh inputs (uniform/normal initialisers, new
    /// seeds); a project may pin them — every launch on the same inputs — only by stating why
    /// ("pinInputs" in the launch object), which the report shows. Empty: not pinned.
    std::string pinInputs;
    BackendKind backend = BackendKind::Auto;
    int device = 0;
    ReferenceSpec reference;
    Tolerance tolerance;
    /// Default for BufferSpec::poison ("poisonOutputs" in the project file).
    bool poisonOutputs = true;

    /// Whether buffer `b` is filled with Poison before the result launch.
    bool isPipeline() const noexcept { return !launches.empty(); }

    bool poisons(const BufferSpec& b) const noexcept
    {
        return b.role == BufferRole::Out && b.poison.value_or(poisonOutputs);
    }

    /// The folder relative paths are resolved against (the project file's folder); not saved.
    std::filesystem::path baseDir;
    /// The user trusts this project's compiler flags (ProjectTrust): flags outside FlagPolicy's
    /// set run only when true. Not saved: the window and the CLI decide per project file.
    bool flagsTrusted = false;

    std::filesystem::path resolve(const std::string& path) const;
    /// The kernel source text (reads kernelFile if set).
    std::string loadKernelSource() const;
    /// The file's name, kernelSourceFileName for an inline source, or "kernel.cu": the name
    /// diagnostics, memory findings and races carry.
    std::string kernelSourceName() const;
    const BufferSpec* findBuffer(const std::string& name) const noexcept;
    const ScalarSpec* findScalar(const std::string& name) const noexcept;
    const BufferSpec* findGlobal(const std::string& name) const noexcept;

    friend bool operator==(const Session& a, const Session& b)
    {
        return a.name == b.name && a.description == b.description &&
               a.kernelSource == b.kernelSource && a.kernelFile == b.kernelFile &&
               a.kernelSourceFileName == b.kernelSourceFileName &&
               a.compileOptions == b.compileOptions && a.scalars == b.scalars &&
               a.buffers == b.buffers && a.globals == b.globals && a.launch == b.launch &&
               a.warmup == b.warmup && a.flops == b.flops && a.pinInputs == b.pinInputs &&
               a.iterations == b.iterations && a.backend == b.backend && a.device == b.device &&
               a.reference == b.reference && a.tolerance == b.tolerance &&
               a.poisonOutputs == b.poisonOutputs && a.launches == b.launches;
    }
};

} // namespace wb::session
