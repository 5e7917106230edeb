// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cuda/detail/PtxParser.h"

#include "core/common/Text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>
#include <set>

namespace wb::cuda::detail {

namespace {

bool isIdentChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.';
}

std::size_t toSize(std::string_view digits)
{
    std::size_t value = 0;
    std::from_chars(digits.data(), digits.data() + digits.size(), value);
    return value;
}

/// Width in bytes of a PTX fundamental type (.u64 → 8, .pred → 1); 0 if not one.
std::size_t typeWidth(std::string_view t)
{
    if (t == ".pred") return 1;
    if (t.size() < 3 || t[0] != '.') return 0;
    const char k = t[1];
    if (k != 'u' && k != 's' && k != 'b' && k != 'f') return 0;
    const std::size_t bits = toSize(t.substr(2));
    return bits / 8;
}

std::vector<std::string_view> tokens(std::string_view s)
{
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])))
            ++i;
        std::size_t start = i;
        while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i])))
            ++i;
        if (i > start) out.push_back(s.substr(start, i - start));
    }
    return out;
}

PtxParam parseParam(std::string_view decl)
{
    // .param .u64 .ptr .global .align 8 name   |   .param .align 8 .b8 name[16]
    PtxParam p;
    const std::vector<std::string_view> toks = tokens(decl);
    std::size_t explicitAlign = 0;
    std::size_t count = 1;
    for (std::size_t i = 0; i < toks.size(); ++i) {
        const std::string_view t = toks[i];
        if (t == ".param") continue;
        if (t == ".ptr") {
            p.pointerAttribute = true;
        } else if (t == ".align" && i + 1 < toks.size()) {
            explicitAlign = toSize(toks[++i]);
        } else if (typeWidth(t) > 0 && p.ptxType.empty()) {
            p.ptxType = std::string(t);
        } else if (t[0] != '.') {
            if (const std::size_t br = t.find('['); br != std::string_view::npos)
                count = toSize(t.substr(br + 1));
        }
    }
    const std::size_t width = typeWidth(p.ptxType);
    p.size = width * (count == 0 ? 1 : count);
    p.alignment = explicitAlign ? explicitAlign : width;
    return p;
}

} // namespace

std::vector<PtxEntry> parsePtxEntries(std::string_view ptx)
{
    std::vector<PtxEntry> entries;
    std::set<std::string, std::less<>> seen;
    std::size_t pos = 0;
    while ((pos = ptx.find(".entry", pos)) != std::string_view::npos) {
        const std::size_t lineStart = ptx.rfind('\n', pos) + 1; // npos + 1 == 0
        const std::string_view before = trim(ptx.substr(lineStart, pos - lineStart));
        pos += 6;
        // Only a directive: start of line, after .visible/.weak/.extern (not in a comment).
        if (!(before.empty() || before == ".visible" || before == ".weak" || before == ".extern" ||
              before == ".visible .weak"))
            continue;
        if (pos >= ptx.size() || !std::isspace(static_cast<unsigned char>(ptx[pos]))) continue;
        std::size_t i = pos;
        while (i < ptx.size() && std::isspace(static_cast<unsigned char>(ptx[i])))
            ++i;
        const std::size_t nameStart = i;
        while (i < ptx.size() && isIdentChar(ptx[i]))
            ++i;
        PtxEntry entry;
        entry.symbol = std::string(ptx.substr(nameStart, i - nameStart));
        while (i < ptx.size() && std::isspace(static_cast<unsigned char>(ptx[i])))
            ++i;
        if (i < ptx.size() && ptx[i] == '(') {
            const std::size_t close = ptx.find(')', i);
            if (close == std::string_view::npos) break;
            std::string_view list = ptx.substr(i + 1, close - i - 1);
            std::size_t offset = 0;
            while (!list.empty()) {
                const std::size_t comma = list.find(',');
                const std::string_view decl = trim(list.substr(0, comma));
                if (!decl.empty()) {
                    PtxParam p = parseParam(decl);
                    const std::size_t align = std::max<std::size_t>(p.alignment, 1);
                    offset = (offset + align - 1) / align * align;
                    p.offset = offset;
                    offset += p.size;
                    entry.params.push_back(std::move(p));
                }
                if (comma == std::string_view::npos) break;
                list.remove_prefix(comma + 1);
            }
            pos = close;
        }
        if (!entry.symbol.empty() && seen.insert(entry.symbol).second)
            entries.push_back(std::move(entry));
    }
    return entries;
}

std::map<std::string, ResourceUsage, std::less<>> parsePtxasReport(std::string_view log)
{
    std::map<std::string, ResourceUsage, std::less<>> usage;
    std::string entry;      // "Compiling entry function 'X'"
    std::string properties; // "Function properties for X" (may be a device function)

    // The integer right before position `at` ("1024 |bytes smem").
    auto numberEndingAt = [](std::string_view line, std::size_t at) -> std::optional<int> {
        std::size_t end = at;
        while (end > 0 && line[end - 1] == ' ')
            --end;
        std::size_t start = end;
        while (start > 0 && std::isdigit(static_cast<unsigned char>(line[start - 1])))
            --start;
        if (start == end) return std::nullopt;
        int v = 0;
        std::from_chars(line.data() + start, line.data() + end, v);
        return v;
    };
    auto numberBefore = [&](std::string_view line, std::string_view what) -> std::optional<int> {
        const std::size_t at = line.find(what);
        if (at == std::string_view::npos) return std::nullopt;
        return numberEndingAt(line, at);
    };

    std::size_t pos = 0;
    while (pos < log.size()) {
        std::size_t end = log.find('\n', pos);
        if (end == std::string_view::npos) end = log.size();
        const std::string_view line = log.substr(pos, end - pos);
        pos = end + 1;
        if (line.substr(0, 5) != "ptxas") continue;

        if (const std::size_t at = line.find("Compiling entry function '");
            at != std::string_view::npos) {
            const std::size_t start = at + 26;
            const std::size_t close = line.find('\'', start);
            entry = std::string(line.substr(start, close - start));
            properties.clear();
            usage[entry].known = true;
        } else if (const std::size_t fp = line.find("Function properties for ");
                   fp != std::string_view::npos) {
            properties = std::string(trim(line.substr(fp + 24)));
        } else if (line.find("bytes stack frame") != std::string_view::npos) {
            if (properties.empty() || properties != entry) continue; // a callee's frame
            ResourceUsage& u = usage[entry];
            u.stackFrameBytes = numberBefore(line, "bytes stack frame").value_or(0);
            u.spillStoreBytes = numberBefore(line, "bytes spill stores").value_or(0);
            u.spillLoadBytes = numberBefore(line, "bytes spill loads").value_or(0);
        } else if (line.find("Used ") != std::string_view::npos && !entry.empty()) {
            ResourceUsage& u = usage[entry];
            u.registers = numberBefore(line, "registers").value_or(0);
            u.barriers = numberBefore(line, "barriers").value_or(0);
            u.sharedBytes = numberBefore(line, "bytes smem").value_or(0);
            // Constant banks: "N bytes cmem[0], M bytes cmem[3]" — the sum.
            int cmem = 0;
            for (std::size_t c = line.find("bytes cmem["); c != std::string_view::npos;
                 c = line.find("bytes cmem[", c + 1))
                cmem += numberEndingAt(line, c).value_or(0);
            u.constBytes = cmem;
        }
    }
    return usage;
}

} // namespace wb::cuda::detail
