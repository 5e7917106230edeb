// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cuda/detail/KernelDiscovery.h"

#include "core/common/Text.h"

#include "core/cuda/detail/PtxParser.h"

#include <cxxabi.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <memory>

namespace wb::cuda::detail {

namespace {

bool isIdentStart(char c)
{
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}

bool isIdentChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

/// Comments, string and character literals become spaces; preprocessor lines stay except for
/// `#define`, whose bodies are not declarations (a macro-generated kernel gets param0..N).
std::string stripCode(std::string_view src)
{
    std::string out(src);
    std::size_t i = 0;
    bool lineStart = true;
    while (i < out.size()) {
        const char c = out[i];
        if (c == '/' && i + 1 < out.size() && out[i + 1] == '/') {
            while (i < out.size() && out[i] != '\n')
                out[i++] = ' ';
        } else if (c == '/' && i + 1 < out.size() && out[i + 1] == '*') {
            while (i < out.size() && !(out[i] == '*' && i + 1 < out.size() && out[i + 1] == '/')) {
                if (out[i] != '\n') out[i] = ' ';
                ++i;
            }
            if (i < out.size()) out[i++] = ' ';
            if (i < out.size()) out[i++] = ' ';
        } else if (c == '"' || c == '\'') {
            out[i++] = ' ';
            while (i < out.size() && out[i] != c && out[i] != '\n') {
                if (out[i] == '\\' && i + 1 < out.size()) out[i++] = ' ';
                out[i++] = ' ';
            }
            if (i < out.size() && out[i] == c) out[i++] = ' ';
        } else if (lineStart && c == '#') {
            // Blank the whole directive (with continuation lines): it declares no kernel.
            while (i < out.size() && out[i] != '\n') {
                if (out[i] == '\\' && i + 1 < out.size() && out[i + 1] == '\n') {
                    out[i] = ' ';
                    i += 2;
                    continue;
                }
                out[i++] = ' ';
            }
        } else {
            if (c == '\n')
                lineStart = true;
            else if (!std::isspace(static_cast<unsigned char>(c)))
                lineStart = false;
            ++i;
            continue;
        }
        lineStart = false;
    }
    return out;
}

/// For every '(' and '<' of `s`, the index of its partner (counting only brackets of the same
/// kind), npos when it has none. One pass: scanning to the partner from each declaration made
/// a source of many unterminated declarations quadratic.
std::vector<std::size_t> matchingBrackets(std::string_view s)
{
    std::vector<std::size_t> partner(s.size(), std::string_view::npos);
    std::vector<std::size_t> parens;
    std::vector<std::size_t> angles;
    for (std::size_t i = 0; i < s.size(); ++i) {
        std::vector<std::size_t>* open = nullptr;
        switch (s[i]) {
        case '(':
            parens.push_back(i);
            break;
        case '<':
            angles.push_back(i);
            break;
        case ')':
            open = &parens;
            break;
        case '>':
            open = &angles;
            break;
        default:
            break;
        }
        if (open && !open->empty()) {
            partner[open->back()] = i;
            open->pop_back();
        }
    }
    return partner;
}

/// Splits at commas outside (), <>, [], {}.
std::vector<std::string_view> splitTopLevel(std::string_view s)
{
    std::vector<std::string_view> parts;
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '(' || c == '<' || c == '[' || c == '{')
            ++depth;
        else if (c == ')' || c == '>' || c == ']' || c == '}')
            --depth;
        else if (c == ',' && depth == 0) {
            parts.push_back(trim(s.substr(start, i - start)));
            start = i + 1;
        }
    }
    const std::string_view last = trim(s.substr(start));
    if (!last.empty() || !parts.empty()) parts.push_back(last);
    return parts;
}

/// Whitespace collapsed, no space before '*' or '&'.
std::string normaliseType(std::string_view t)
{
    std::string out;
    bool space = false;
    for (const char c : trim(t)) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            space = true;
            continue;
        }
        if (space && !out.empty() && c != '*' && c != '&') out += ' ';
        space = false;
        out += c;
    }
    return out;
}

bool isTypeWord(std::string_view w)
{
    static constexpr std::string_view words[] = {
        "const",    "volatile", "__restrict__", "__restrict", "restrict", "unsigned",
        "signed",   "int",      "char",         "short",      "long",     "float",
        "double",   "bool",     "void",         "struct",     "class",    "enum",
        "typename", "__half",   "half",         "size_t",     "auto"};
    for (const std::string_view x : words)
        if (w == x) return true;
    return false;
}

/// Splits one parameter declaration into (type, name). The name is the last identifier when
/// something type-like precedes it; "" for unnamed parameters.
std::pair<std::string, std::string> splitDeclaration(std::string_view decl)
{
    // Drop a default argument and array bounds.
    int depth = 0;
    for (std::size_t i = 0; i < decl.size(); ++i) {
        const char c = decl[i];
        if (c == '(' || c == '<' || c == '[')
            ++depth;
        else if (c == ')' || c == '>' || c == ']')
            --depth;
        else if (c == '=' && depth == 0) {
            decl = trim(decl.substr(0, i));
            break;
        }
    }
    while (!decl.empty() && decl.back() == ']') {
        const std::size_t open = decl.rfind('[');
        if (open == std::string_view::npos) break;
        decl = trim(decl.substr(0, open));
    }
    std::size_t end = decl.size();
    std::size_t start = end;
    while (start > 0 && isIdentChar(decl[start - 1]))
        --start;
    const std::string_view last = decl.substr(start, end - start);
    const std::string_view before = trim(decl.substr(0, start));
    if (last.empty() || !isIdentStart(last.front()) || before.empty() || isTypeWord(last) ||
        before.back() == ':' /* ns::Type */)
        return {normaliseType(decl), {}};
    return {normaliseType(before), std::string(last)};
}

/// "void ns::scale<float, 128>(float*, float*)" → qualified name and parameter list text.
bool splitSignature(std::string_view sig, std::string& qualifiedName,
                    std::vector<std::string>& params)
{
    if (sig.empty() || sig.back() != ')') return false;
    // The parameter list is the last top-level (...) group.
    int depth = 0;
    std::size_t open = std::string_view::npos;
    for (std::size_t i = sig.size(); i-- > 0;) {
        if (sig[i] == ')')
            ++depth;
        else if (sig[i] == '(' && --depth == 0) {
            open = i;
            break;
        }
    }
    if (open == std::string_view::npos) return false;
    const std::string_view head = sig.substr(0, open);
    // Drop a return type: the name follows the last space outside <> and ().
    std::size_t nameStart = 0;
    depth = 0;
    for (std::size_t i = 0; i < head.size(); ++i) {
        const char c = head[i];
        if (c == '<' || c == '(')
            ++depth;
        else if (c == '>' || c == ')')
            --depth;
        else if (c == ' ' && depth == 0)
            nameStart = i + 1;
    }
    qualifiedName = std::string(head.substr(nameStart));
    params.clear();
    const std::string_view list = trim(sig.substr(open + 1, sig.size() - open - 2));
    if (list == "void") return true;
    for (const std::string_view p : splitTopLevel(list))
        params.emplace_back(p);
    return true;
}

/// "ns::scale<float, 128>" → "scale".
std::string baseName(std::string_view qualified)
{
    if (!qualified.empty() && qualified.back() == '>') {
        int depth = 0;
        for (std::size_t i = qualified.size(); i-- > 0;) {
            if (qualified[i] == '>')
                ++depth;
            else if (qualified[i] == '<' && --depth == 0) {
                qualified = qualified.substr(0, i);
                break;
            }
        }
    }
    if (const std::size_t colons = qualified.rfind("::"); colons != std::string_view::npos)
        qualified.remove_prefix(colons + 2);
    return std::string(trim(qualified));
}

void removeWord(std::string& text, std::string_view word)
{
    std::size_t pos = 0;
    while ((pos = text.find(word, pos)) != std::string::npos) {
        const bool leftOk = pos == 0 || !isIdentChar(text[pos - 1]);
        const bool rightOk =
            pos + word.size() >= text.size() || !isIdentChar(text[pos + word.size()]);
        if (leftOk && rightOk)
            text.erase(pos, word.size());
        else
            pos += word.size();
    }
}

/// Fills isPointer/pointee/isConst (and tidies `type`) from a C++ type spelling.
void classifyType(KernelParam& p, const std::string& spelled,
                  const std::map<std::string, std::string, std::less<>>& typedefs, int depth = 0)
{
    std::string t = spelled;
    removeWord(t, "__restrict__");
    removeWord(t, "__restrict");
    t = normaliseType(t);
    // A top-level const after the last '*' ("float* const") qualifies the copy, not the pointee.
    while (t.size() > 6 && t.compare(t.size() - 6, 6, " const") == 0 &&
           t.find('*') != std::string::npos)
        t = normaliseType(t.substr(0, t.size() - 6));
    if (t.empty() || t.back() != '*') {
        // A typedef'd pointer ("fptr").
        std::string bare = t;
        removeWord(bare, "const");
        removeWord(bare, "volatile");
        bare = normaliseType(bare);
        const auto it = typedefs.find(bare);
        if (it != typedefs.end() && depth < 16) { // typedef chains; the bound stops cycles
            KernelParam resolved;
            classifyType(resolved, it->second, typedefs, depth + 1);
            p.isPointer = resolved.isPointer;
            p.pointee = resolved.pointee;
            p.isConst = resolved.isConst;
        }
        return;
    }
    p.isPointer = true;
    std::string pointee = normaliseType(std::string_view(t).substr(0, t.size() - 1));
    std::string bare = pointee;
    removeWord(bare, "const");
    bare = normaliseType(bare);
    p.isConst = pointee.find('*') == std::string::npos && bare != pointee;
    if (pointee.find('*') == std::string::npos) {
        p.pointee = bare;
        // The demangler writes "float const*"; show it the way people spell it.
        if (pointee.size() > 6 && pointee.compare(pointee.size() - 6, 6, " const") == 0)
            p.type = "const " + bare + "*";
    } else {
        p.pointee = pointee;
    }
}

/// A type spelling reduced for comparison: no restrict, no spaces, "T const*" as "const T*".
std::string comparableType(const std::string& spelled)
{
    std::string t = spelled;
    removeWord(t, "__restrict__");
    removeWord(t, "__restrict");
    t = normaliseType(t);
    if (t.size() > 7 && t.compare(t.size() - 7, 7, " const*") == 0 && t.find('*') == t.size() - 1)
        t = "const " + t.substr(0, t.size() - 7) + "*";
    t.erase(std::remove(t.begin(), t.end(), ' '), t.end());
    return t;
}

std::string ptxTypeDescription(const PtxParam& p)
{
    if (p.ptxType == ".b8" && p.size > 1) return ".b8[" + std::to_string(p.size) + "]";
    return p.ptxType;
}

} // namespace

std::string demangle(const std::string& symbol)
{
    if (symbol.rfind("_Z", 0) != 0) return symbol;
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> text(
        abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status), std::free);
    return status == 0 && text ? std::string(text.get()) : symbol;
}

std::vector<SourceKernel> scanSourceKernels(std::string_view source)
{
    std::vector<SourceKernel> kernels;
    const std::string code = stripCode(source);
    const std::string_view s = code;
    const std::vector<std::size_t> partner = matchingBrackets(s);
    const auto matching = [&partner](std::string_view, std::size_t open) { return partner[open]; };
    std::size_t pos = 0;
    while ((pos = s.find("__global__", pos)) != std::string_view::npos) {
        if ((pos > 0 && isIdentChar(s[pos - 1])) ||
            (pos + 10 < s.size() && isIdentChar(s[pos + 10]))) {
            pos += 10;
            continue;
        }
        std::size_t i = pos + 10;
        pos = i;
        // Find the declarator's '(' skipping __launch_bounds__(...) and similar attributes.
        std::string lastIdent;
        bool found = false;
        while (i < s.size()) {
            const char c = s[i];
            if (isIdentStart(c)) {
                const std::size_t start = i;
                while (i < s.size() && isIdentChar(s[i]))
                    ++i;
                lastIdent = std::string(s.substr(start, i - start));
                // The next declaration begins: this one had no parameter list (and the scan
                // stays linear however many follow).
                if (lastIdent == "__global__") break;
                continue;
            }
            if (c == '<') { // template arguments in a return type
                const std::size_t close = matching(s, i);
                if (close == std::string_view::npos) break;
                i = close + 1;
                continue;
            }
            if (c == '(') {
                if (lastIdent.rfind("__", 0) == 0 && lastIdent != "__global__") {
                    // __launch_bounds__(...), __cluster_dims__(...), __attribute__((...))
                    const std::size_t close = matching(s, i);
                    if (close == std::string_view::npos) break;
                    i = close + 1;
                    lastIdent.clear();
                    continue;
                }
                found = !lastIdent.empty();
                break;
            }
            if (c == ';' || c == '{' || c == '}') break;
            ++i;
        }
        if (!found) continue;
        const std::size_t close = matching(s, i);
        if (close == std::string_view::npos) continue;
        SourceKernel k;
        k.name = lastIdent;
        std::size_t after = close + 1;
        while (after < s.size() && std::isspace(static_cast<unsigned char>(s[after])))
            ++after;
        k.isDefinition = after < s.size() && s[after] == '{';
        const std::string_view list = trim(s.substr(i + 1, close - i - 1));
        if (list != "void") {
            for (const std::string_view decl : splitTopLevel(list)) {
                auto [type, name] = splitDeclaration(decl);
                k.paramTypes.push_back(std::move(type));
                k.paramNames.push_back(std::move(name));
            }
        }
        kernels.push_back(std::move(k));
        pos = close;
    }
    return kernels;
}

std::map<std::string, std::string, std::less<>> scanTypedefs(std::string_view source)
{
    std::map<std::string, std::string, std::less<>> typedefs;
    const std::string code = stripCode(source);
    const std::string_view s = code;
    auto wordAt = [&](std::size_t at, std::string_view word) {
        return s.substr(at, word.size()) == word && (at == 0 || !isIdentChar(s[at - 1])) &&
               (at + word.size() >= s.size() || !isIdentChar(s[at + word.size()]));
    };
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (wordAt(i, "typedef")) {
            const std::size_t semi = s.find(';', i);
            if (semi == std::string_view::npos) break;
            const std::string_view body = trim(s.substr(i + 7, semi - i - 7));
            if (body.find('(') == std::string_view::npos &&
                body.find('{') == std::string_view::npos) {
                auto [type, name] = splitDeclaration(body);
                if (!name.empty()) typedefs[name] = type;
            }
            i = semi;
        } else if (wordAt(i, "using")) {
            const std::size_t semi = s.find(';', i);
            if (semi == std::string_view::npos) break;
            const std::string_view body = trim(s.substr(i + 5, semi - i - 5));
            if (const std::size_t eq = body.find('='); eq != std::string_view::npos) {
                const std::string name(trim(body.substr(0, eq)));
                if (!name.empty() && name.find(' ') == std::string::npos)
                    typedefs[name] = normaliseType(body.substr(eq + 1));
            }
            i = semi;
        }
    }
    return typedefs;
}

std::vector<KernelInfo>
discoverKernels(std::string_view ptx, std::string_view source,
                const std::vector<std::pair<std::string, std::string>>& nameExpressions,
                const std::map<std::string, ResourceUsage, std::less<>>& resources)
{
    const std::vector<PtxEntry> entries = parsePtxEntries(ptx);
    const std::vector<SourceKernel> spelled = scanSourceKernels(source);
    std::map<std::string, std::string, std::less<>> typedefs;
    bool typedefsScanned = false;

    std::vector<KernelInfo> kernels;
    kernels.reserve(entries.size());
    for (const PtxEntry& entry : entries) {
        KernelInfo k;
        k.loweredName = entry.symbol;
        k.externC = entry.symbol.rfind("_Z", 0) != 0;
        if (auto it = resources.find(entry.symbol); it != resources.end()) k.resources = it->second;

        std::string qualified;
        std::vector<std::string> demangledParams;
        bool haveDemangledTypes = false;
        if (k.externC) {
            qualified = entry.symbol;
        } else {
            const std::string sig = demangle(entry.symbol);
            haveDemangledTypes = splitSignature(sig, qualified, demangledParams) &&
                                 demangledParams.size() == entry.params.size();
            if (qualified.empty()) qualified = sig;
            k.signature = sig.rfind("void ", 0) == 0 ? sig : "void " + sig;
        }
        k.isTemplateInstance = !qualified.empty() && qualified.back() == '>';
        k.name = qualified;
        for (const auto& [expression, lowered] : nameExpressions)
            if (lowered == entry.symbol) {
                // "&saxpy" names the kernel "saxpy"; templates keep the exact spelling.
                std::string_view e = trim(expression);
                if (!e.empty() && e.front() == '&') e = trim(e.substr(1));
                k.name = std::string(e);
                break;
            }

        // Source declaration: same unqualified name and parameter count.
        const std::string base = baseName(qualified);
        // Several declarations may fit (a prototype without parameter names before the
        // definition; same-named kernels in other namespaces or overloads): prefer the one
        // whose spelled types equal the demangled ones, then the one naming most parameters,
        // then the definition.
        const SourceKernel* decl = nullptr;
        std::size_t bestScore = 0;
        for (const SourceKernel& sk : spelled) {
            if (sk.name != base || sk.paramNames.size() != entry.params.size()) continue;
            std::size_t score = 0;
            // Only named parameters count: an unnamed prototype or an explicit instantiation
            // ("template __global__ void f<int>(int);") has nothing to offer.
            for (std::size_t i = 0; i < sk.paramNames.size(); ++i) {
                if (sk.paramNames[i].empty()) continue;
                score += 1;
                if (haveDemangledTypes &&
                    comparableType(sk.paramTypes[i]) == comparableType(demangledParams[i]))
                    score += 1000;
            }
            // Equal otherwise, the definition wins: its names are the ones its body uses
            // (a forward declaration may name them differently, as course code does).
            if (!decl || score > bestScore ||
                (score == bestScore && sk.isDefinition && !decl->isDefinition)) {
                decl = &sk;
                bestScore = score;
            }
        }

        for (std::size_t i = 0; i < entry.params.size(); ++i) {
            const PtxParam& pp = entry.params[i];
            KernelParam p;
            p.size = pp.size;
            p.offset = pp.offset;
            p.alignment = pp.alignment;
            p.name = decl && !decl->paramNames[i].empty() ? decl->paramNames[i]
                                                          : "param" + std::to_string(i);
            if (haveDemangledTypes) {
                p.type = normaliseType(demangledParams[i]);
                classifyType(p, p.type, {});
            } else if (decl) {
                if (!typedefsScanned) {
                    typedefs = scanTypedefs(source);
                    typedefsScanned = true;
                }
                p.type = decl->paramTypes[i];
                classifyType(p, p.type, typedefs);
            } else {
                p.type = ptxTypeDescription(pp);
            }
            if (pp.pointerAttribute) p.isPointer = true;
            k.params.push_back(std::move(p));
        }
        if (k.externC) {
            std::string list;
            for (const KernelParam& p : k.params) {
                if (!list.empty()) list += ", ";
                list += p.type;
            }
            k.signature = "extern \"C\" void " + k.name + "(" + list + ")";
        }
        kernels.push_back(std::move(k));
    }
    return kernels;
}

} // namespace wb::cuda::detail
