// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/LibraryCache.h"

#include <dlfcn.h>
#include <link.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <list>
#include <map>
#include <mutex>
#include <vector>

namespace wb {

namespace {

/// One writable range of a loaded library and its bytes right after loading.
struct Segment {
    unsigned char* address = nullptr;
    std::vector<unsigned char> pristine;
};

struct Entry {
    std::shared_ptr<DynamicLibrary> library;
    std::vector<Segment> segments;
    std::size_t users = 0;
};

struct Cache {
    std::mutex mutex;
    std::map<std::string, Entry> entries;
    std::list<std::string> unused; ///< no users, least recently used first
    std::size_t capacity = 64;
    std::size_t restores = 0;
};

Cache& cache()
{
    static Cache* c = new Cache; // never destroyed: libraries stay loaded until exit
    return *c;
}

struct Search {
    std::uintptr_t base = 0;
    const char* name = nullptr;
    std::vector<std::pair<std::uintptr_t, std::uintptr_t>> writable; ///< [begin, end)
    std::uintptr_t relroBegin = 0, relroEnd = 0;
    bool found = false;
};

int visit(dl_phdr_info* info, std::size_t, void* data)
{
    auto* s = static_cast<Search*>(data);
    if (info->dlpi_addr != s->base || !info->dlpi_name || std::strcmp(info->dlpi_name, s->name))
        return 0;
    s->found = true;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr)& p = info->dlpi_phdr[i];
        const std::uintptr_t begin = info->dlpi_addr + p.p_vaddr;
        if (p.p_type == PT_LOAD && (p.p_flags & PF_W))
            s->writable.emplace_back(begin, begin + p.p_memsz);
        else if (p.p_type == PT_GNU_RELRO) {
            s->relroBegin = begin;
            s->relroEnd = begin + p.p_memsz;
        }
    }
    return 1;
}

/// The library's writable ranges, minus what the dynamic linker made read-only after
/// relocation (glibc protects RELRO rounded down to whole pages at both ends).
std::vector<Segment> writableSegments(const DynamicLibrary& lib)
{
    link_map* map = nullptr;
    if (dlinfo(lib.nativeHandle(), RTLD_DI_LINKMAP, &map) != 0 || !map) return {};
    Search s;
    s.base = map->l_addr;
    s.name = map->l_name;
    dl_iterate_phdr(visit, &s);
    if (!s.found) return {};
    const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const std::uintptr_t roBegin = s.relroBegin / page * page;
    const std::uintptr_t roEnd = s.relroEnd / page * page;
    std::vector<Segment> out;
    const auto add = [&out](std::uintptr_t b, std::uintptr_t e) {
        if (e <= b) return;
        Segment seg;
        seg.address = reinterpret_cast<unsigned char*>(b);
        seg.pristine.assign(seg.address, seg.address + (e - b));
        out.push_back(std::move(seg));
    };
    for (const auto& [b, e] : s.writable) {
        if (roEnd <= roBegin || e <= roBegin || b >= roEnd) {
            add(b, e);
        } else {
            add(b, roBegin);
            add(roEnd, e);
        }
    }
    return out;
}

/// Closes the least recently used unused libraries beyond the capacity. Called with the lock.
void evictBeyondCapacity(Cache& c)
{
    while (c.unused.size() > c.capacity) {
        c.entries.erase(c.unused.front()); // dlclose
        c.unused.pop_front();
    }
}

void release(const std::string& path)
{
    Cache& c = cache();
    std::lock_guard lock(c.mutex);
    const auto it = c.entries.find(path);
    if (it == c.entries.end() || --it->second.users > 0) return;
    c.unused.push_back(path);
    evictBeyondCapacity(c);
}

} // namespace

std::shared_ptr<const DynamicLibrary> LibraryCache::acquire(const std::string& path,
                                                            std::string& why)
{
    Cache& c = cache();
    std::lock_guard lock(c.mutex);
    auto it = c.entries.find(path);
    if (it == c.entries.end()) {
        auto lib = std::make_shared<DynamicLibrary>(DynamicLibrary::open({path}));
        if (!lib->isOpen()) {
            why = lib->error();
            return nullptr;
        }
        Entry e;
        e.segments = writableSegments(*lib);
        e.library = std::move(lib);
        it = c.entries.emplace(path, std::move(e)).first;
    } else if (it->second.users == 0) {
        c.unused.remove(path);
        for (const Segment& s : it->second.segments)
            std::memcpy(s.address, s.pristine.data(), s.pristine.size());
        it->second.library->markUninitialised(); // its constructors run again
        ++c.restores;
    }
    Entry& e = it->second;
    ++e.users;
    // The aliasing constructor: callers see the library, the deleter hands it back.
    const std::shared_ptr<void> token(nullptr, [path](void*) { release(path); });
    return std::shared_ptr<const DynamicLibrary>(token, e.library.get());
}

void LibraryCache::setCapacity(std::size_t libraries)
{
    Cache& c = cache();
    std::lock_guard lock(c.mutex);
    c.capacity = libraries;
    evictBeyondCapacity(c);
}

std::size_t LibraryCache::restoreCount()
{
    Cache& c = cache();
    std::lock_guard lock(c.mutex);
    return c.restores;
}

} // namespace wb
