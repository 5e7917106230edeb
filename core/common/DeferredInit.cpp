// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/DeferredInit.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

extern char** environ;

namespace wb {

namespace {

// Tags in the OS-specific range that glibc's loader ignores ("WB" and a number).
constexpr Elf64_Sxword kTagBase = 0x60574200;
constexpr Elf64_Sxword kWbInit = kTagBase + DT_INIT;
constexpr Elf64_Sxword kWbInitArray = kTagBase + DT_INIT_ARRAY;
constexpr Elf64_Sxword kWbInitArraySz = kTagBase + DT_INIT_ARRAYSZ;
constexpr Elf64_Sxword kWbFini = kTagBase + DT_FINI;
constexpr Elf64_Sxword kWbFiniArray = kTagBase + DT_FINI_ARRAY;
constexpr Elf64_Sxword kWbFiniArraySz = kTagBase + DT_FINI_ARRAYSZ;
/// Written into a spare DT_NULL slot: the library was patched.
constexpr Elf64_Sxword kWbMarker = kTagBase + 0x7f;

Elf64_Sxword renamed(Elf64_Sxword tag)
{
    switch (tag) {
    case DT_INIT:
        return kWbInit;
    case DT_INIT_ARRAY:
        return kWbInitArray;
    case DT_INIT_ARRAYSZ:
        return kWbInitArraySz;
    case DT_FINI:
        return kWbFini;
    case DT_FINI_ARRAY:
        return kWbFiniArray;
    case DT_FINI_ARRAYSZ:
        return kWbFiniArraySz;
    default:
        return tag;
    }
}

template <class T> bool readAt(const std::string& bytes, std::uint64_t offset, T& out)
{
    if (offset > bytes.size() || bytes.size() - offset < sizeof(T)) return false;
    std::memcpy(&out, bytes.data() + offset, sizeof(T));
    return true;
}

struct Dynamic {
    std::uint64_t offset = 0; ///< of the first entry in the file
    std::uint64_t count = 0;
};

/// The file's PT_DYNAMIC entries; false when the file is not a 64-bit ELF shared library of
/// this machine.
bool findDynamic(const std::string& bytes, Dynamic& dyn, std::string& why)
{
    Elf64_Ehdr eh{};
    if (!readAt(bytes, 0, eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
        eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_type != ET_DYN ||
        eh.e_phentsize != sizeof(Elf64_Phdr)) {
        why = "not a 64-bit ELF shared library";
        return false;
    }
    for (std::uint16_t i = 0; i < eh.e_phnum; ++i) {
        Elf64_Phdr ph{};
        if (!readAt(bytes, eh.e_phoff + std::uint64_t{i} * sizeof(Elf64_Phdr), ph)) break;
        if (ph.p_type == PT_INTERP) {
            why = "it names a program interpreter";
            return false;
        }
        if (ph.p_type != PT_DYNAMIC) continue;
        if (ph.p_offset > bytes.size() || bytes.size() - ph.p_offset < ph.p_filesz) break;
        dyn.offset = ph.p_offset;
        dyn.count = ph.p_filesz / sizeof(Elf64_Dyn);
        return true;
    }
    why = "it has no dynamic section";
    return false;
}

/// Why the library would run code of its own while being loaded other than through the
/// constructors that defer() moves aside; empty when it would not.
std::string loadTimeCode(const std::string& bytes)
{
    Elf64_Ehdr eh{};
    readAt(bytes, 0, eh);
    if (eh.e_shentsize != sizeof(Elf64_Shdr)) return "unreadable section headers";
    for (std::uint16_t i = 0; i < eh.e_shnum; ++i) {
        Elf64_Shdr sh{};
        if (!readAt(bytes, eh.e_shoff + std::uint64_t{i} * sizeof(Elf64_Shdr), sh))
            return "unreadable section headers";
        if (sh.sh_type == SHT_RELA && sh.sh_entsize == sizeof(Elf64_Rela)) {
            for (std::uint64_t r = 0; r < sh.sh_size / sizeof(Elf64_Rela); ++r) {
                Elf64_Rela rela{};
                if (!readAt(bytes, sh.sh_offset + r * sizeof(Elf64_Rela), rela))
                    return "unreadable relocations";
                if (ELF64_R_TYPE(rela.r_info) == R_X86_64_IRELATIVE)
                    return "it uses an indirect function (ifunc), whose resolver would run "
                           "while the library loads";
            }
        }
        if ((sh.sh_type == SHT_DYNSYM || sh.sh_type == SHT_SYMTAB) &&
            sh.sh_entsize == sizeof(Elf64_Sym)) {
            for (std::uint64_t s = 0; s < sh.sh_size / sizeof(Elf64_Sym); ++s) {
                Elf64_Sym sym{};
                if (!readAt(bytes, sh.sh_offset + s * sizeof(Elf64_Sym), sym))
                    return "unreadable symbols";
                if (ELF64_ST_TYPE(sym.st_info) == STT_GNU_IFUNC && sym.st_shndx != SHN_UNDEF)
                    return "it defines an indirect function (ifunc), whose resolver would run "
                           "while the library loads";
            }
        }
    }
    return {};
}

bool readFile(const std::string& path, std::string& bytes)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    bytes.assign(std::istreambuf_iterator<char>(in), {});
    return static_cast<bool>(in) || in.eof();
}

} // namespace

std::string DeferredInit::defer(const std::string& path)
{
    std::string bytes;
    if (!readFile(path, bytes)) return "cannot read " + path;
    Dynamic dyn;
    std::string why;
    if (!findDynamic(bytes, dyn, why)) return why;
    if (std::string code = loadTimeCode(bytes); !code.empty()) return code;
    bool marked = false;
    for (std::uint64_t i = 0; i < dyn.count; ++i) {
        const std::uint64_t at = dyn.offset + i * sizeof(Elf64_Dyn);
        Elf64_Dyn d{};
        readAt(bytes, at, d);
        if (d.d_tag == DT_NULL) {
            // The first DT_NULL ends the list: mark the library there when a spare slot
            // follows (GNU ld and lld leave several), else keep it unmarked.
            if (!marked && i + 1 < dyn.count) {
                Elf64_Dyn mark{};
                mark.d_tag = kWbMarker;
                std::memcpy(bytes.data() + at, &mark, sizeof mark);
                marked = true;
                continue; // the next slot is DT_NULL and ends the list
            }
            break;
        }
        if (d.d_tag == DT_AUDIT || d.d_tag == DT_DEPAUDIT || d.d_tag == DT_PREINIT_ARRAY)
            return "it asks the loader for audit libraries or pre-initialisers";
        const Elf64_Sxword tag = renamed(d.d_tag);
        if (tag == kWbMarker) marked = true; // patched before
        if (tag == d.d_tag) continue;
        d.d_tag = tag;
        std::memcpy(bytes.data() + at, &d, sizeof d);
    }
    if (!marked) return "its dynamic section has no spare entry";
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) return "cannot write " + path;
    return {};
}

bool DeferredInit::isDeferred(const std::string& path)
{
    std::string bytes;
    Dynamic dyn;
    std::string why;
    if (!readFile(path, bytes) || !findDynamic(bytes, dyn, why)) return false;
    for (std::uint64_t i = 0; i < dyn.count; ++i) {
        Elf64_Dyn d{};
        readAt(bytes, dyn.offset + i * sizeof(Elf64_Dyn), d);
        if (d.d_tag == DT_NULL) return false;
        if (d.d_tag == kWbMarker) return true;
        if (d.d_tag == DT_INIT || d.d_tag == DT_INIT_ARRAY) return false;
    }
    return false;
}

void DeferredInit::run(void* handle)
{
    link_map* map = nullptr;
    if (!handle || dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || !map || !map->l_ld) return;
    using InitFn = void (*)(int, char**, char**);
    ElfW(Addr) init = 0, array = 0, arraySize = 0;
    for (const ElfW(Dyn)* d = map->l_ld; d->d_tag != DT_NULL; ++d) {
        if (d->d_tag == kWbInit) init = d->d_un.d_ptr;
        if (d->d_tag == kWbInitArray) array = d->d_un.d_ptr;
        if (d->d_tag == kWbInitArraySz) arraySize = d->d_un.d_val;
    }
    if (init) reinterpret_cast<InitFn>(map->l_addr + init)(0, nullptr, environ);
    if (array) {
        // The array's slots were relocated by the loader like any other data.
        const auto* fns = reinterpret_cast<const InitFn*>(map->l_addr + array);
        for (std::size_t i = 0; i < arraySize / sizeof(InitFn); ++i)
            if (fns[i]) fns[i](0, nullptr, environ);
    }
}

} // namespace wb
