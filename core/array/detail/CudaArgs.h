// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/array/KernelArgument.h"
#include "core/backend/Backend.h"
#include "core/common/LaunchConfig.h"
#include "core/cuda/DeviceArray.h"
#include "core/cuda/KernelArg.h"

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace wb {

template <typename T> constexpr ScalarType scalarTypeOf() noexcept
{
    using U = std::remove_cv_t<T>;
    if constexpr (std::is_same_v<U, bool>)
        return ScalarType::Bool;
    else if constexpr (std::is_same_v<U, char>)
        return ScalarType::Char;
    else if constexpr (std::is_same_v<U, signed char>)
        return ScalarType::SignedChar;
    else if constexpr (std::is_same_v<U, unsigned char>)
        return ScalarType::UnsignedChar;
    else if constexpr (std::is_same_v<U, short>)
        return ScalarType::Short;
    else if constexpr (std::is_same_v<U, unsigned short>)
        return ScalarType::UnsignedShort;
    else if constexpr (std::is_same_v<U, int>)
        return ScalarType::Int;
    else if constexpr (std::is_same_v<U, unsigned>)
        return ScalarType::UnsignedInt;
    else if constexpr (std::is_same_v<U, long>)
        return ScalarType::Long;
    else if constexpr (std::is_same_v<U, unsigned long>)
        return ScalarType::UnsignedLong;
    else if constexpr (std::is_same_v<U, long long>)
        return ScalarType::LongLong;
    else if constexpr (std::is_same_v<U, unsigned long long>)
        return ScalarType::UnsignedLongLong;
    else if constexpr (std::is_same_v<U, float>)
        return ScalarType::Float;
    else {
        static_assert(std::is_same_v<U, double>,
                      "generated kernels take bool, char, the integer types, float or double");
        return ScalarType::Double;
    }
}

} // namespace wb

namespace wb::detail {

/// Threads per block of every generated kernel, and resident blocks per SM asked for by the
/// grid-stride launch (256 × 8 = 2048 threads, a full SM on sm_80/sm_90).
inline constexpr unsigned kGeneratedBlock = 256;
inline constexpr unsigned kGeneratedBlocksPerSm = 8;
/// Elements each thread handles per trip of the grid-stride loop (independent loads in flight).
inline constexpr unsigned kGeneratedUnroll = 4;

/// Reductions of at most this many elements run in one pass: one block (4 trips of its
/// grid-stride loop) instead of a second launch.
inline constexpr std::size_t kSinglePassLimit = std::size_t{kGeneratedBlock} * kGeneratedUnroll * 4;

/// The grid-stride launch for `n` elements on a device of `multiprocessors` SMs (worker
/// threads on the CPU emulator): min(ceil(n / block), SMs × blocksPerSm) blocks. On CUDA
/// blocksPerSm is what the occupancy API says is resident for the kernel (one wave, no tail of
/// blocks waiting for a second), else kGeneratedBlocksPerSm.
LaunchConfig gridStrideLaunch(std::size_t n, int multiprocessors,
                              int blocksPerSm = kGeneratedBlocksPerSm);
/// Stage 1 of a reduction: one block up to kSinglePassLimit elements, else gridStrideLaunch.
LaunchConfig reductionLaunch(std::size_t n, int multiprocessors,
                             int blocksPerSm = kGeneratedBlocksPerSm);
/// Blocks of kGeneratedBlock threads of `kernel` resident per SM (cuOccupancy...); the default
/// when the driver cannot say.
int residentBlocksPerSm(CUfunction kernel) noexcept;

/// Counts modules built from generated source (CUDA modules and backend loads) in this process.
void countGeneratedBuild() noexcept;
std::uint64_t generatedBuilds() noexcept;

/// The variadic call of a generated kernel, sorted into driver arguments and checked against
/// the declared arguments: a DeviceArray<T> for each pointer, an arithmetic value (converted to
/// the declared type) for each scalar. Throws naming the argument on a mismatch.
class CudaArgs {
public:
    CudaArgs(const std::string& kernel, const std::vector<KernelArgument>& declared);

    template <typename T> void add(const cuda::DeviceArray<T>& array)
    {
        addArray(array.buffer().ptrAddress(), scalarTypeOf<T>(), array.size(), array.bytes(),
                 array.buffer().contextState() ? array.buffer().contextState()->ordinal : -1);
    }
    template <typename S> void add(const S& value)
    {
        static_assert(std::is_arithmetic_v<S>,
                      "a generated kernel takes DeviceArrays and arithmetic scalars");
        const KernelArgument& d = next(false);
        std::uint64_t& slot = m_scalars[m_args.size()];
        switch (d.type) {
        case ScalarType::Bool:
            store(slot, static_cast<bool>(value));
            break;
        case ScalarType::Char:
            store(slot, static_cast<char>(value));
            break;
        case ScalarType::SignedChar:
            store(slot, static_cast<signed char>(value));
            break;
        case ScalarType::UnsignedChar:
            store(slot, static_cast<unsigned char>(value));
            break;
        case ScalarType::Short:
            store(slot, static_cast<short>(value));
            break;
        case ScalarType::UnsignedShort:
            store(slot, static_cast<unsigned short>(value));
            break;
        case ScalarType::Int:
            store(slot, static_cast<int>(value));
            break;
        case ScalarType::UnsignedInt:
            store(slot, static_cast<unsigned>(value));
            break;
        case ScalarType::Long:
            store(slot, static_cast<long>(value));
            break;
        case ScalarType::UnsignedLong:
            store(slot, static_cast<unsigned long>(value));
            break;
        case ScalarType::LongLong:
            store(slot, static_cast<long long>(value));
            break;
        case ScalarType::UnsignedLongLong:
            store(slot, static_cast<unsigned long long>(value));
            break;
        case ScalarType::Float:
            store(slot, static_cast<float>(value));
            break;
        case ScalarType::Double:
            store(slot, static_cast<double>(value));
            break;
        }
        m_args.push_back(
            {&slot, scalarTypeSize(d.type), cuda::KernelArg::Kind::Value, scalarTypeName(d.type)});
    }

    /// Checks the count and the arrays' sizes and devices; afterwards n(), device(), noAlias().
    void finish();
    std::size_t n() const noexcept { return m_n; }
    int device() const noexcept { return m_device; }
    /// No two pointer arguments overlap where one of them is written: the __restrict__ variant
    /// may run.
    bool noAlias() const noexcept { return m_noAlias; }
    /// The arguments followed by extra ones (the element count, a partials pointer).
    std::vector<cuda::KernelArg>& args() noexcept { return m_args; }

private:
    struct Range {
        CUdeviceptr begin = 0;
        std::size_t bytes = 0;
        bool written = false;
    };
    template <typename V> static void store(std::uint64_t& slot, V v) noexcept
    {
        std::memcpy(&slot, &v, sizeof v);
    }
    const KernelArgument& next(bool pointer);
    void addArray(const CUdeviceptr* address, ScalarType element, std::size_t size,
                  std::size_t bytes, int ordinal);
    [[noreturn]] void fail(const std::string& why) const;

    std::string m_kernel;
    const std::vector<KernelArgument>& m_declared;
    std::vector<cuda::KernelArg> m_args;
    std::vector<std::uint64_t> m_scalars;
    std::vector<Range> m_ranges;
    std::size_t m_n = 0;
    std::size_t m_firstArray = 0;
    bool m_haveArray = false;
    int m_device = -1;
    bool m_noAlias = true;
};

/// The same check for a backend launch (wb::Backend): count and pointer vs value, naming the
/// argument; returns whether no two pointer arguments share an address where one is written.
bool checkBackendArgs(const std::string& kernel, const std::vector<KernelArgument>& declared,
                      std::span<const KernelArgValue> args);

} // namespace wb::detail
