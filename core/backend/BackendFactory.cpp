// SPDX-License-Identifier: GPL-3.0-or-later
// wb::createBackend: picks the CUDA backend or the CPU emulator.
#include "core/backend/Backend.h"
#include "core/common/Error.h"
#include "core/cpu/CpuBackend.h"
#include "core/cuda/CudaBackend.h"

namespace wb {

std::unique_ptr<Backend> createBackend(BackendKind kind, int device)
{
    switch (kind) {
    case BackendKind::Cuda:
        if (const auto reason = cudaUnavailableReason())
            throw Error(Error::Kind::Unavailable, "the CUDA backend is unavailable: " + *reason);
        return cuda::makeCudaBackend(device);
    case BackendKind::Cpu:
        return cpu::makeCpuBackend();
    case BackendKind::Auto:
        // A GPU when one is usable, else the emulator. A failure to open a device that the
        // driver reported usable is an error worth seeing, not a silent fallback.
        if (!cudaUnavailableReason()) return cuda::makeCudaBackend(device);
        return cpu::makeCpuBackend();
    }
    throw Error(Error::Kind::InvalidArgument, "unknown backend kind");
}

BackendDescription describeBackend(BackendKind kind, int device)
{
    switch (kind) {
    case BackendKind::Cuda:
        if (const auto reason = cudaUnavailableReason())
            throw Error(Error::Kind::Unavailable, "the CUDA backend is unavailable: " + *reason);
        return {BackendKind::Cuda, cuda::CudaBackend::describe(device)};
    case BackendKind::Cpu:
        return {BackendKind::Cpu, cpu::CpuBackend::describe()};
    case BackendKind::Auto:
        if (!cudaUnavailableReason())
            return {BackendKind::Cuda, cuda::CudaBackend::describe(device)};
        return {BackendKind::Cpu, cpu::CpuBackend::describe()};
    }
    throw Error(Error::Kind::InvalidArgument, "unknown backend kind");
}

} // namespace wb
