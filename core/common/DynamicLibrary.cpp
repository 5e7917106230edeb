// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/DynamicLibrary.h"

#include "core/common/DeferredInit.h"

#include <dlfcn.h>
#include <link.h>

#include <mutex>
#include <utility>

namespace wb {

DynamicLibrary DynamicLibrary::open(const std::vector<std::string>& names, bool global)
{
    DynamicLibrary lib;
    std::string errors;
    for (const std::string& name : names) {
        void* handle = dlopen(name.c_str(), RTLD_NOW | (global ? RTLD_GLOBAL : RTLD_LOCAL));
        if (handle) {
            lib.m_handle = handle;
            lib.m_name = name;
            return lib;
        }
        const char* why = dlerror();
        if (!errors.empty()) errors += "; ";
        errors += why ? why : name + ": unknown dlopen error";
    }
    lib.m_error = errors;
    return lib;
}

DynamicLibrary::DynamicLibrary(DynamicLibrary&& other) noexcept
    : m_handle(std::exchange(other.m_handle, nullptr))
    , m_name(std::move(other.m_name))
    , m_error(std::move(other.m_error))
    , m_initialised(other.m_initialised)
{
}

DynamicLibrary& DynamicLibrary::operator=(DynamicLibrary&& other) noexcept
{
    if (this != &other) {
        if (m_handle) dlclose(m_handle);
        m_handle = std::exchange(other.m_handle, nullptr);
        m_name = std::move(other.m_name);
        m_error = std::move(other.m_error);
        m_initialised = other.m_initialised;
    }
    return *this;
}

DynamicLibrary::~DynamicLibrary()
{
    if (m_handle) dlclose(m_handle);
}

std::string DynamicLibrary::path() const
{
    if (!m_handle) return {};
    link_map* map = nullptr;
    if (dlinfo(m_handle, RTLD_DI_LINKMAP, &map) != 0 || !map || !map->l_name) return {};
    return map->l_name;
}

void DynamicLibrary::runDeferredInit() const
{
    static std::mutex mutex;
    std::lock_guard lock(mutex);
    if (m_initialised || !m_handle) return;
    m_initialised = true;
    DeferredInit::run(m_handle);
}

void* DynamicLibrary::symbol(const char* name) const noexcept
{
    return m_handle ? dlsym(m_handle, name) : nullptr;
}

} // namespace wb
