// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/backend/Backend.h"
#include "core/cuda/Context.h"
#include "core/cuda/DeviceBuffer.h"

#include <memory>
#include <string>

namespace wb::cuda {

/// wb::Backend on a GPU: NVRTC for the device's architecture, modules, device buffers, and
/// launches timed with events. Throws wb::Error (Unavailable) from the constructor, with the
/// reason, when CUDA is not usable here.
class CudaBackend final : public Backend, public ProfilingTarget {
public:
    explicit CudaBackend(int device = 0);
    ~CudaBackend() override;

    BackendKind kind() const noexcept override { return BackendKind::Cuda; }
    DeviceDescription device() const override;
    /// What device() says for device `ordinal`, from device attributes alone (no context).
    static DeviceDescription describe(int ordinal);

    CompileResult compile(const std::string& source, const std::string& sourceName,
                          const CompileOptions& options) override;
    std::unique_ptr<BackendProgram> load(const CompileResult& compiled) override;

    std::unique_ptr<BackendBuffer> allocate(std::size_t bytes, std::string_view label) override;
    void upload(BackendBuffer& dst, const void* src, std::size_t bytes) override;
    void download(const BackendBuffer& src, void* dst, std::size_t bytes) override;
    void setConstant(BackendProgram& program, const std::string& symbol, const void* src,
                     std::size_t bytes) override;
    std::size_t globalSize(BackendProgram& program, const std::string& symbol) override;
    void readGlobal(BackendProgram& program, const std::string& symbol, void* dst,
                    std::size_t bytes) override;

    double launch(BackendProgram& program, const std::string& kernel, const LaunchConfig& config,
                  std::span<const KernelArgValue> args) override;
    /// Events on the legacy default stream around the copies.
    double timeCopies(const std::function<void()>& copies) override;
    /// cuCtxResetPersistingL2Cache, then a write of an L2-sized buffer (as nvbench's flush),
    /// waited for.
    void prepareColdLaunch() override;
    /// SM and memory clocks and temperature from NVML (found by PCI bus id).
    DeviceConditions conditions() const override;
    std::optional<DeviceMemoryUse> memoryUse() const override;

    /// Enqueues one launch of `kernel` on `stream` and returns at once: no synchronisation, no
    /// timing (arguments are checked as launch() checks them). The profiler's StreamLaunch:
    /// `profiling::profileLaunch(context(), [&](CUstream s) { submit(..., s); })`.
    void submit(BackendProgram& program, const std::string& kernel, const LaunchConfig& config,
                std::span<const KernelArgValue> args, CUstream stream) override;

    const Context& context() const noexcept override { return m_context; }
    ProfilingTarget* profilingTarget() noexcept override { return this; }

private:
    Context m_context;
    std::string m_arch;
    DeviceDescription m_description;
    std::string m_pciBusId;
    DeviceBuffer m_l2Flush; ///< allocated at the first cold launch
};

/// The factory wb::createBackend uses for BackendKind::Cuda.
std::unique_ptr<Backend> makeCudaBackend(int device);

} // namespace wb::cuda
