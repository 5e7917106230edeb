// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/CppReference.h"

#include "core/common/LibraryCache.h"
#include "core/common/Sandbox.h"

#include "core/common/Text.h"

#include "core/common/Error.h"
#include "core/host/HostCompiler.h"

#include <sys/mman.h>

#include <cctype>
#include <cstring>
#include <string_view>
#include <vector>

namespace wb::session {

namespace {
/// Removes comments so that the signature search does not trip on them.
std::string stripComments(const std::string& s)
{
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s.compare(i, 2, "//") == 0) {
            while (i < s.size() && s[i] != '\n')
                ++i;
            out += '\n';
        } else if (s.compare(i, 2, "/*") == 0) {
            const auto e = s.find("*/", i + 2);
            i = e == std::string::npos ? s.size() : e + 1;
            out += ' ';
        } else {
            out += s[i];
        }
    }
    return out;
}

bool isWordChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/// Offsets just past "function (" where `function` stands as a whole word (like the former
/// regex `\bfunction\s*\(`, but linear and without treating the name as a pattern).
std::vector<std::size_t> callSites(const std::string& source, const std::string& function)
{
    std::vector<std::size_t> sites;
    if (function.empty()) return sites;
    for (std::size_t at = source.find(function); at != std::string::npos;
         at = source.find(function, at + 1)) {
        if (at > 0 && isWordChar(source[at - 1])) continue;
        std::size_t i = at + function.size();
        if (i < source.size() && isWordChar(source[i]) && isWordChar(function.back())) continue;
        while (i < source.size() && std::isspace(static_cast<unsigned char>(source[i])))
            ++i;
        if (i < source.size() && source[i] == '(') sites.push_back(i + 1);
    }
    return sites;
}

/// Splits "const float* in" into type and name: the name is the longest identifier ending the
/// declaration. False when there is none or nothing precedes it.
bool splitParameter(std::string_view p, std::string& type, std::string& name)
{
    p = trim(p);
    std::size_t start = p.size();
    while (start > 0 && isWordChar(p[start - 1]))
        --start;
    while (start < p.size() && p[start] >= '0' && p[start] <= '9')
        ++start; // an identifier starts with a letter or '_'
    if (start == p.size()) return false;
    type = std::string(trim(p.substr(0, start)));
    name = std::string(p.substr(start));
    return !type.empty();
}
} // namespace

std::string CppReference::stub(const Session& s, const KernelInfo& kernel,
                               const std::string& function)
{
    const auto withoutConst = [](std::string t) {
        if (t.rfind("const ", 0) == 0) t.erase(0, 6);
        return t;
    };
    const auto elementSpelling = [](ElementType t, const std::string& written) {
        return t == ElementType::F16 || t == ElementType::BF16 ? std::string("std::uint16_t")
                                                               : written;
    };
    std::vector<std::string> params, outputs;
    std::string size;
    bool halfBits = false;
    for (const KernelParam& p : kernel.params) {
        if (const BufferSpec* b = s.findBuffer(p.name); b && p.isPointer) {
            const std::string element = elementSpelling(
                b->type, p.pointee.empty() ? std::string(elementTypeName(b->type)) : p.pointee);
            halfBits = halfBits || element == "std::uint16_t";
            params.push_back((b->role == BufferRole::In ? "const " : "") + element + "* " + p.name);
            if (b->isOutput()) outputs.push_back(p.name);
        } else if (p.isPointer) {
            params.push_back(p.type + " " + p.name + " /* no buffer of this name yet */");
        } else {
            const std::string type = withoutConst(p.type);
            if (size.empty())
                if (const auto t = elementTypeOfCType(type); t && isInteger(*t)) size = p.name;
            params.push_back(type + " " + p.name);
        }
    }
    for (const BufferSpec& g : s.globals)
        if (g.isOutput()) {
            params.push_back(std::string(elementTypeName(g.type)) + "* " + g.name);
            outputs.push_back(g.name);
        }
    std::string o = "// No reference yet: runs are not checked. A C++ reference takes the kernel's "
                    "buffers\n// and scalars by name, computes on the CPU what the kernel "
                    "should, and every run\n// compares the kernel's outputs";
    if (!outputs.empty()) {
        o += " (";
        for (std::size_t i = 0; i < outputs.size(); ++i)
            o += (i ? ", " : "") + outputs[i];
        o += ")";
    }
    o += " with it. Its signature:\n";
    if (halfBits) o += "#include <cstdint> // f16/bf16 elements arrive as their 16-bit patterns\n";
    o += "void " + function + "(";
    for (std::size_t i = 0; i < params.size(); ++i)
        o += (i ? ", " : "") + params[i];
    o += ")\n{\n";
    if (!size.empty()) {
        o += "    for (int i = 0; i < " + size + "; ++i) {\n";
        for (const std::string& out : outputs)
            o += "        // " + out + "[i] = ...;\n";
        o += "    }\n";
    } else {
        for (const std::string& out : outputs)
            o += "    // " + out + "[...] = ...;\n";
    }
    o += "}\n";
    return o;
}

std::vector<CppParam> CppReference::parseParameters(const std::string& sourceIn,
                                                    const std::string& function)
{
    const std::string source = stripComments(sourceIn);
    // The definition: name, parameter list, then a body.
    // The ')' closing each '(' in one pass, so that nested calls cost no rescans.
    std::vector<std::size_t> closing(source.size(), std::string::npos);
    {
        std::vector<std::size_t> open;
        for (std::size_t i = 0; i < source.size(); ++i) {
            if (source[i] == '(') {
                open.push_back(i);
            } else if (source[i] == ')' && !open.empty()) {
                closing[open.back()] = i;
                open.pop_back();
            }
        }
    }
    for (const std::size_t pos : callSites(source, function)) {
        const std::size_t end = closing[pos - 1];
        if (end == std::string::npos) break;
        const auto body = source.find_first_not_of(" \t\r\n", end + 1);
        if (body == std::string::npos || source[body] != '{') continue; // a call or declaration
        const std::string list = source.substr(pos, end - pos);
        std::vector<std::string> parts;
        std::string cur;
        int d = 0;
        for (char c : list) {
            if (c == '(' || c == '<' || c == '[') ++d;
            if (c == ')' || c == '>' || c == ']') --d;
            if (c == ',' && d == 0) {
                parts.push_back(cur);
                cur.clear();
            } else {
                cur += c;
            }
        }
        if (!trim(cur).empty()) parts.push_back(cur);
        std::vector<CppParam> params;
        for (std::size_t i = 0; i < parts.size(); ++i) {
            std::string p(trim(parts[i]));
            if (p == "void" && parts.size() == 1) break;
            if (const auto eq = p.find('='); eq != std::string::npos)
                p = std::string(trim(std::string_view(p).substr(0, eq)));
            CppParam cp;
            if (!splitParameter(p, cp.type, cp.name))
                throw Error(Error::Kind::InvalidArgument,
                            "reference: parameter " + std::to_string(i + 1) + " of " + function +
                                "() has no name (\"" + p + "\"): every parameter binds by name");
            for (const char* q : {"__restrict__", "__restrict", "restrict"}) {
                for (auto at = cp.type.find(q); at != std::string::npos; at = cp.type.find(q))
                    cp.type.erase(at, std::string(q).size());
            }
            cp.type = trim(cp.type);
            // A const (or volatile) after the last '*' qualifies the parameter's own copy, not
            // what it points at: `const double* const a` is a pointer like `const double* a`.
            for (bool dropped = true; dropped && cp.type.find('*') != std::string::npos;) {
                dropped = false;
                for (const std::string_view q : {"const", "volatile"}) {
                    const std::size_t n = q.size();
                    if (cp.type.size() > n && cp.type.compare(cp.type.size() - n, n, q) == 0 &&
                        !isWordChar(cp.type[cp.type.size() - n - 1])) {
                        cp.type = trim(cp.type.substr(0, cp.type.size() - n));
                        dropped = true;
                    }
                }
            }
            cp.isPointer = !cp.type.empty() && cp.type.back() == '*';
            if (cp.isPointer) cp.pointee = trim(cp.type.substr(0, cp.type.size() - 1));
            params.push_back(cp);
        }
        return params;
    }
    throw Error(Error::Kind::InvalidArgument,
                "reference: no definition of function \"" + function + "\" found in the source");
}

std::string CppReference::wrapperSource(const std::string& source, const std::string& sourceName,
                                        const std::string& function, std::size_t arity)
{
    std::string s;
    s += "#include <cstddef>\n#include <cstdint>\n#include <exception>\n#include <string>\n"
         "#include <type_traits>\n#include <utility>\n";
    s += "#line 1 \"" + sourceName + "\"\n";
    s += source;
    if (!source.empty() && source.back() != '\n') s += '\n';
    s += "#line 1 \"warpbench-reference-entry.cpp\"\n";
    s += R"(namespace wb_reference_detail {
template <class T> T arg(void* p)
{
    if constexpr (std::is_pointer_v<T>) return static_cast<T>(p);
    else return *static_cast<std::remove_cvref_t<T>*>(p);
}
template <class R, class... A, std::size_t... I>
void call(R (*f)(A...), void** args, std::index_sequence<I...>)
{
    static_assert(sizeof...(A) == sizeof...(I), "parameter count");
    f(arg<A>(args[I])...);
}
thread_local std::string g_error;
}
extern "C" const char* warpbench_reference_entry(void** args)
{
    try {
)";
    s += "        wb_reference_detail::call(&" + function + ", args, std::make_index_sequence<" +
         std::to_string(arity) + ">{});\n";
    s += R"(        return nullptr;
    } catch (const std::exception& e) {
        wb_reference_detail::g_error = e.what();
    } catch (...) {
        wb_reference_detail::g_error = "unknown exception";
    }
    return wb_reference_detail::g_error.c_str();
}
)";
    return s;
}

CppReference::Build CppReference::compile(const std::string& source, const std::string& sourceName,
                                          const std::string& function,
                                          const std::vector<std::string>& flags,
                                          const IncludePaths& includes)
{
    m_params = parseParameters(source, function);
    m_function = function;
    const std::optional<HostCompiler> compiler = HostCompiler::find();
    if (!compiler)
        throw Error(Error::Kind::Unavailable, "the C++ reference needs a host compiler: " +
                                                  HostCompiler::unavailableReason());
    const auto copyName = [](std::size_t i, const UserHeader& h) {
        std::string base = h.path.filename().string();
        for (char& c : base)
            if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-')
                c = '_';
        return "wb-include-" + std::to_string(i) + "-" + base;
    };
    const IncludeScan scanned = scanIncludes(source, sourceName, includes, copyName);
    if (!scanned.errors.empty()) {
        Build refused;
        refused.diagnostics = scanned.errors;
        for (const Diagnostic& d : scanned.errors)
            refused.log += d.file + ":" + std::to_string(d.line) + ": error: " + d.message + "\n";
        refused.compilerVersion = compiler->version();
        return refused;
    }
    HostCompileRequest req;
    req.source = wrapperSource(scanned.rewritten, sourceName, function, m_params.size());
    req.sourceName = "warpbench-reference-entry.cpp";
    req.flags = flags;
    for (std::size_t i = 0; i < scanned.headers.size(); ++i) {
        std::string name = scanned.headers[i].displayName;
        std::string quoted = "\"";
        for (const char c : name) {
            if (c == '"' || c == '\\') quoted += '\\';
            quoted += c;
        }
        req.files.emplace_back(copyName(i, scanned.headers[i]),
                               "#line 1 " + quoted + "\"\n" + scanned.headers[i].rewritten);
    }
    const HostCompileResult r = compiler->compileSharedLibrary(req);
    // A full or unwritable cache is no compile error of the reference's code.
    if (!r.environmentError.empty()) throw Error(Error::Kind::Io, r.environmentError);
    Build b;
    b.ok = r.ok;
    b.diagnostics = r.diagnostics;
    b.log = r.log;
    b.compilerVersion = compiler->version();
    b.compileMs = r.compileMs;
    if (!r.ok) return b;
    // Kept loaded between runs (a warm runner compiles the same reference every run); each
    // first user gets its data as after a fresh load.
    std::string why;
    std::shared_ptr<const DynamicLibrary> lib = LibraryCache::acquire(r.libraryPath, why);
    if (!lib) throw Error(Error::Kind::Runtime, "cannot load the compiled reference: " + why);
    m_entry = lib->function<Entry>("warpbench_reference_entry");
    if (!m_entry) throw Error(Error::Kind::Internal, "compiled reference lacks its entry point");
    m_library = std::move(lib);
    return b;
}

void CppReference::call(const std::vector<void*>& args, const std::vector<std::size_t>& bytes) const
{
    if (!m_entry) throw Error(Error::Kind::Internal, "C++ reference called before it compiled");
    if (args.size() != m_params.size() || bytes.size() != args.size())
        throw Error(Error::Kind::Internal, "C++ reference: wrong argument count");
    const std::string detail = "function " + m_function + "()";
    std::vector<void*> copy = args;
    if (sandbox::policy() == sandbox::Policy::Off || sandbox::sealed()) {
        sandbox::setActivity("C++ reference", detail);
        m_library->runDeferredInit();
        if (const char* err = m_entry(copy.data()))
            throw Error(Error::Kind::Runtime, std::string("the C++ reference threw: ") + err);
        return;
    }
    // A sealed child: the buffers go to memory shared with it and come back after the call.
    std::size_t total = 0;
    for (const std::size_t b : bytes)
        total += (b + 63) / 64 * 64;
    unsigned char* shared = nullptr;
    if (total > 0) {
        void* p = ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            throw Error(Error::Kind::OutOfMemory,
                        "cannot map " + std::to_string(total) + " bytes for the C++ reference");
        shared = static_cast<unsigned char*>(p);
    }
    struct Unmap {
        void* p;
        std::size_t n;
        ~Unmap()
        {
            if (p) ::munmap(p, n);
        }
    } unmap{shared, total};
    std::size_t offset = 0;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (!bytes[i]) continue;
        std::memcpy(shared + offset, args[i], bytes[i]);
        copy[i] = shared + offset;
        offset += (bytes[i] + 63) / 64 * 64;
    }
    const std::string thrown = sandbox::runIsolated("C++ reference", detail, [&](std::string& out) {
        m_library->runDeferredInit();
        if (const char* err = m_entry(copy.data())) out = err;
    });
    if (!thrown.empty()) throw Error(Error::Kind::Runtime, "the C++ reference threw: " + thrown);
    for (std::size_t i = 0; i < args.size(); ++i)
        if (bytes[i]) std::memcpy(args[i], copy[i], bytes[i]);
}

} // namespace wb::session
