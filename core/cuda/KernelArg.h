// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

namespace wb::cuda {

/// Launch-shape tags for the PyCUDA-like call: `kernel(Out(d), In(a), Block{400, 1, 1}, Grid{1,
/// 1})`.
struct Block {
    unsigned x = 1, y = 1, z = 1;
};
struct Grid {
    unsigned x = 1, y = 1, z = 1;
};
struct SharedBytes {
    unsigned bytes = 0;
}; ///< dynamic shared memory per block
struct Cluster {
    unsigned x = 1, y = 1, z = 1;
};
/// A raw device address passed as a pointer parameter (a bare CUdeviceptr would be an integer).
struct DevicePointer {
    CUdeviceptr ptr = 0;
};

/// One launch argument as cuLaunchKernel sees it, plus what it is, for checking it against the
/// kernel's parameter before anything runs.
struct KernelArg {
    enum class Kind : std::uint8_t {
        Value,         ///< passed by value: data points at the value, size = sizeof
        DevicePointer, ///< data points at a CUdeviceptr
        In,            ///< host memory copied to a temporary device buffer before the launch
        Out,           ///< host memory filled from a temporary device buffer after the launch
        InOut,         ///< both
    };
    const void* data = nullptr;
    std::size_t size = 0; ///< value size, 8 for DevicePointer, host bytes for In/Out/InOut
    Kind kind = Kind::Value;
    const char* typeName = nullptr; ///< "float" (value or element type) when known, for messages

    constexpr bool isTransfer() const noexcept { return kind >= Kind::In; }
    constexpr bool isPointer() const noexcept { return kind != Kind::Value; }
};

namespace detail {
template <typename T> constexpr const char* typeName() noexcept
{
    using U = std::remove_cv_t<T>;
    if constexpr (std::is_same_v<U, float>)
        return "float";
    else if constexpr (std::is_same_v<U, double>)
        return "double";
    else if constexpr (std::is_same_v<U, bool>)
        return "bool";
    else if constexpr (std::is_same_v<U, char>)
        return "char";
    else if constexpr (std::is_same_v<U, signed char>)
        return "signed char";
    else if constexpr (std::is_same_v<U, unsigned char>)
        return "unsigned char";
    else if constexpr (std::is_same_v<U, short>)
        return "short";
    else if constexpr (std::is_same_v<U, unsigned short>)
        return "unsigned short";
    else if constexpr (std::is_same_v<U, int>)
        return "int";
    else if constexpr (std::is_same_v<U, unsigned>)
        return "unsigned int";
    else if constexpr (std::is_same_v<U, long>)
        return "long";
    else if constexpr (std::is_same_v<U, unsigned long>)
        return "unsigned long";
    else if constexpr (std::is_same_v<U, long long>)
        return "long long";
    else if constexpr (std::is_same_v<U, unsigned long long>)
        return "unsigned long long";
    else
        return nullptr;
}

template <KernelArg::Kind kind, typename T>
constexpr KernelArg transfer(T* data, std::size_t count) noexcept
{
    return {data, count * sizeof(T), kind, typeName<T>()};
}
} // namespace detail

/// Host data copied to the device before the launch (PyCUDA's drv.In).
class In {
public:
    template <typename T>
    In(const std::vector<T>& v) noexcept
        : m_arg(detail::transfer<KernelArg::Kind::In>(v.data(), v.size()))
    {
    }
    template <typename T, std::size_t E>
    In(std::span<T, E> s) noexcept
        : m_arg(detail::transfer<KernelArg::Kind::In>(s.data(), s.size()))
    {
    }
    const KernelArg& arg() const noexcept { return m_arg; }

private:
    KernelArg m_arg;
};

/// Host storage filled from the device after the launch (PyCUDA's drv.Out).
class Out {
public:
    template <typename T>
    Out(std::vector<T>& v) noexcept
        : m_arg(detail::transfer<KernelArg::Kind::Out>(v.data(), v.size()))
    {
    }
    template <typename T> Out(std::vector<T>&&) = delete; // the results would be lost
    template <typename T, std::size_t E>
    requires(!std::is_const_v<T>) Out(std::span<T, E> s)
    noexcept
        : m_arg(detail::transfer<KernelArg::Kind::Out>(s.data(), s.size()))
    {
    }
    const KernelArg& arg() const noexcept { return m_arg; }

private:
    KernelArg m_arg;
};

/// Host data copied to the device before and back after the launch (PyCUDA's drv.InOut).
class InOut {
public:
    template <typename T>
    InOut(std::vector<T>& v) noexcept
        : m_arg(detail::transfer<KernelArg::Kind::InOut>(v.data(), v.size()))
    {
    }
    template <typename T> InOut(std::vector<T>&&) = delete;
    template <typename T, std::size_t E>
    requires(!std::is_const_v<T>) InOut(std::span<T, E> s)
    noexcept
        : m_arg(detail::transfer<KernelArg::Kind::InOut>(s.data(), s.size()))
    {
    }
    const KernelArg& arg() const noexcept { return m_arg; }

private:
    KernelArg m_arg;
};

} // namespace wb::cuda
