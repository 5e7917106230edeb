// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace wb {

/// A shared library opened with dlopen at run time; closed when the last owner goes.
/// Used for libcuda, NVRTC, CUPTI and the CPU backend's compiled kernels, none of which the
/// program links against, so Warpbench starts on machines that lack them.
class DynamicLibrary {
public:
    DynamicLibrary() = default;
    /// Tries each name in order (sonames first); on failure error() says what dlopen said.
    static DynamicLibrary open(const std::vector<std::string>& names, bool global = false);

    DynamicLibrary(DynamicLibrary&& other) noexcept;
    DynamicLibrary& operator=(DynamicLibrary&& other) noexcept;
    DynamicLibrary(const DynamicLibrary&) = delete;
    DynamicLibrary& operator=(const DynamicLibrary&) = delete;
    ~DynamicLibrary();

    bool isOpen() const noexcept { return m_handle != nullptr; }
    explicit operator bool() const noexcept { return isOpen(); }
    const std::string& error() const noexcept { return m_error; }
    /// The name that was opened ("libcuda.so.1").
    const std::string& name() const noexcept { return m_name; }
    /// The resolved path of the opened file, from dlinfo; empty if unknown.
    std::string path() const;

    /// The dlopen handle (for dlinfo); nullptr when not open.
    void* nativeHandle() const noexcept { return m_handle; }

    /// dlsym; nullptr when missing.
    void* symbol(const char* name) const noexcept;
    /// Runs the library's constructors that DeferredInit moved aside, once per load (and
    /// again after markUninitialised()). Call it where the library's own code may run.
    void runDeferredInit() const;
    /// The library's data was reset to its state after loading (LibraryCache).
    void markUninitialised() const noexcept { m_initialised = false; }

    template <typename Fn> Fn function(const char* name) const noexcept
    {
        return reinterpret_cast<Fn>(symbol(name));
    }

private:
    void* m_handle = nullptr;
    std::string m_name;
    std::string m_error;
    mutable bool m_initialised = false;
    /// Deferred constructors ran at least once (markUninitialised does not clear it): close()
    /// then keeps the library mapped.
    mutable bool m_constructorsRan = false;
    void close() noexcept;
};

} // namespace wb
