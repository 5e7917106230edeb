// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/LaunchConfig.h"
#include "core/cuda/DeviceArray.h"
#include "core/cuda/DeviceBuffer.h"
#include "core/cuda/KernelArg.h"
#include "core/cuda/Stream.h"
#include "core/cuda/detail/ModuleState.h"

#include <cuda.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace wb::cuda {

/// One parameter of a kernel as the launch checks see it.
struct KernelParamSlot {
    std::string name; ///< "dest", or "param0" when unknown
    std::string type; ///< "float*", empty when unknown
    std::size_t offset = 0;
    std::size_t size = 0;
    bool pointerKnown = false; ///< false when only cuFuncGetParamInfo was available
    bool isPointer = false;
};

namespace detail {
template <typename T> struct IsDeviceArray : std::false_type {
};
template <typename T> struct IsDeviceArray<DeviceArray<T>> : std::true_type {
};
template <typename> inline constexpr bool kAlwaysFalse = false;

template <typename T> KernelArg toKernelArg(const T& value) noexcept
{
    using U = std::remove_cvref_t<T>;
    if constexpr (std::is_same_v<U, In> || std::is_same_v<U, Out> || std::is_same_v<U, InOut>) {
        return value.arg();
    } else if constexpr (std::is_same_v<U, DeviceBuffer>) {
        return {value.ptrAddress(), sizeof(CUdeviceptr), KernelArg::Kind::DevicePointer, nullptr};
    } else if constexpr (IsDeviceArray<U>::value) {
        return {value.buffer().ptrAddress(), sizeof(CUdeviceptr), KernelArg::Kind::DevicePointer,
                typeName<typename U::value_type>()};
    } else if constexpr (std::is_same_v<U, DevicePointer>) {
        return {&value.ptr, sizeof(CUdeviceptr), KernelArg::Kind::DevicePointer, nullptr};
    } else if constexpr (std::is_pointer_v<U> || std::is_array_v<U>) {
        static_assert(kAlwaysFalse<U>, "a host pointer cannot be a kernel argument: wrap host data "
                                       "in In/Out/InOut, or pass a DeviceBuffer / DeviceArray");
        return {};
    } else {
        static_assert(std::is_trivially_copyable_v<U>,
                      "kernel arguments passed by value must be trivially copyable");
        return {&value, sizeof(U), KernelArg::Kind::Value, typeName<U>()};
    }
}

/// Sorts the variadic call's arguments into launch shape and kernel arguments, on the stack.
template <std::size_t N> struct CallBuilder {
    LaunchConfig config;
    CUstream stream = nullptr;
    std::array<KernelArg, (N == 0 ? 1 : N)> args{};
    std::size_t count = 0;

    void add(const Block& b) noexcept { config.block = {b.x, b.y, b.z}; }
    void add(const Grid& g) noexcept { config.grid = {g.x, g.y, g.z}; }
    void add(const SharedBytes& s) noexcept { config.sharedBytes = s.bytes; }
    void add(const Cluster& c) noexcept { config.cluster = {c.x, c.y, c.z}; }
    void add(const Stream& s) noexcept { stream = s.handle(); }
    void add(const LaunchConfig& c) noexcept { config = c; }
    template <typename T> void add(const T& value) noexcept { args[count++] = toKernelArg(value); }

    std::span<const KernelArg> span() const noexcept { return {args.data(), count}; }
};

template <typename T>
inline constexpr bool kIsLaunchTag =
    std::is_same_v<std::remove_cvref_t<T>, Block> || std::is_same_v<std::remove_cvref_t<T>, Grid> ||
    std::is_same_v<std::remove_cvref_t<T>, SharedBytes> ||
    std::is_same_v<std::remove_cvref_t<T>, Cluster> ||
    std::is_same_v<std::remove_cvref_t<T>, Stream> ||
    std::is_same_v<std::remove_cvref_t<T>, LaunchConfig>;

template <typename... A>
inline constexpr std::size_t kArgCount = (std::size_t{0} + ... + (kIsLaunchTag<A> ? 0 : 1));
} // namespace detail

/// A __global__ function of a loaded module, which it keeps alive (Kernel → Module → Context).
/// Arguments are checked against the kernel's parameters before every launch (count, size,
/// pointer or value), and the launch shape against the device's limits; both checks read
/// values cached when the Kernel was made, so the launch path allocates nothing.
///
///     kernel(Out(dest), In(a), In(b), Block{400, 1, 1}, Grid{1, 1});   // like PyCUDA
///     kernel.launch(config, bufferA, bufferB, 42);                      // asynchronous
///     double ms = kernel.timedCall(Block{256}, Grid{64}, buffer, n);   // events around it
class Kernel {
public:
    Kernel(Kernel&&) noexcept;
    Kernel& operator=(Kernel&&) noexcept;
    Kernel(const Kernel&) = delete;
    Kernel& operator=(const Kernel&) = delete;
    ~Kernel();

    bool valid() const noexcept { return m_function != nullptr; }
    CUfunction handle() const noexcept { return m_function; }
    const std::string& name() const noexcept { return m_name; }
    const std::vector<KernelParamSlot>& params() const noexcept { return m_params; }
    /// The most threads per block this kernel can be launched with on its device.
    int maxThreadsPerBlock() const noexcept { return m_maxThreadsPerBlock; }

    /// Throws InvalidArgument when `config` cannot run on the device.
    void checkConfig(const LaunchConfig& config) const;
    /// Throws InvalidArgument naming the parameter when an argument does not fit it.
    void checkArgs(std::span<const KernelArg> args) const;

    /// Asynchronous launch on `stream` (legacy default stream when null); no In/Out/InOut.
    void submit(const LaunchConfig& config, std::span<const KernelArg> args,
                CUstream stream = nullptr) const;
    /// Launch with In/Out/InOut transfers on one stream, one synchronisation at the end.
    /// Untimed calls whose payload fits detail::kZeroCopyLimit (64 KiB) stage it in mapped
    /// pinned memory the kernel uses directly; larger or timed ones go through pooled device
    /// memory and pinned staging with one upload and one download. `timed` records events
    /// around the kernel and returns its milliseconds (0 otherwise). Without transfers and
    /// untimed it is submit().
    double call(const LaunchConfig& config, std::span<const KernelArg> args,
                CUstream stream = nullptr, bool timed = false) const;

    /// PyCUDA's call: arguments and launch-shape tags (Block, Grid, SharedBytes, Cluster, a
    /// Stream, a whole LaunchConfig) in any order. Waits when there are Out/InOut arguments.
    template <typename... A> void operator()(A&&... args) const
    {
        launch(LaunchConfig{}, std::forward<A>(args)...);
    }
    /// The same, starting from `config`.
    template <typename... A> void launch(const LaunchConfig& config, A&&... args) const
    {
        detail::CallBuilder<detail::kArgCount<A...>> b{config};
        (b.add(args), ...);
        call(b.config, b.span(), b.stream, false);
    }
    /// PyCUDA's prepared_timed_call: runs and waits, returns the kernel's milliseconds.
    template <typename... A> double timedCall(A&&... args) const
    {
        detail::CallBuilder<detail::kArgCount<A...>> b{};
        (b.add(args), ...);
        return call(b.config, b.span(), b.stream, true);
    }

private:
    friend class Module;
    Kernel(detail::ModuleRef module, CUfunction function, std::string name,
           std::vector<KernelParamSlot> params);
    void requireValid() const;
    void launchUnchecked(const LaunchConfig& config, std::span<const KernelArg> args,
                         CUstream stream) const;
    [[noreturn]] void argError(std::size_t index, const KernelArg& arg, const char* problem) const;
    std::string describeLaunch(const LaunchConfig& config) const;

    detail::ModuleRef m_module;
    CUfunction m_function = nullptr;
    std::string m_name;
    std::vector<KernelParamSlot> m_params;
    int m_maxThreadsPerBlock = 0;
    int m_staticShared = 0;
    mutable std::atomic<int> m_dynamicSharedLimit{0};
};

} // namespace wb::cuda
