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
    , m_constructorsRan(std::exchange(other.m_constructorsRan, false))
{
}

DynamicLibrary& DynamicLibrary::operator=(DynamicLibrary&& other) noexcept
{
    if (this != &other) {
        close();
        m_handle = std::exchange(other.m_handle, nullptr);
        m_initialised = std::exchange(other.m_initialised, false);
        m_constructorsRan = std::exchange(other.m_constructorsRan, false);
        m_name = std::move(other.m_name);
        m_error = std::move(other.m_error);
    }
    return *this;
}

DynamicLibrary::~DynamicLibrary()
{
    close();
}

void DynamicLibrary::close() noexcept
{
    // A library whose deferred constructors ran stays mapped: they may have registered exit
    // handlers in it (a C++ global's destructor), which dlclose would run through DT_FINI —
    // renamed by DeferredInit — so unmapping it would leave them pointing at nothing.
    if (m_handle && !m_constructorsRan) dlclose(m_handle);
    m_handle = nullptr;
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
    m_constructorsRan = true;
    DeferredInit::run(m_handle);
}

void* DynamicLibrary::symbol(const char* name) const noexcept
{
    return m_handle ? dlsym(m_handle, name) : nullptr;
}

} // namespace wb
