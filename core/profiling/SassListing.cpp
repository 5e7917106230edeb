// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiling/SassListing.h"

#include "core/common/Text.h"

#include <charconv>
#include <cstdio>
#include <sstream>

namespace wb::profiling {

namespace {

bool parseHex(const std::string& s, std::uint64_t& out)
{
    if (s.empty()) return false;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out, 16);
    return ec == std::errc() && p == s.data() + s.size();
}

/// "/* 0x000fe20000000800 */" anywhere in `s` → the number; false when there is none.
bool encodingWord(const std::string& s, std::size_t from, std::uint64_t& out)
{
    const std::size_t open = s.find("/* 0x", from);
    if (open == std::string::npos) return false;
    const std::size_t close = s.find(" */", open + 5);
    if (close == std::string::npos) return false;
    return parseHex(s.substr(open + 5, close - open - 5), out);
}

} // namespace

SassControl SassControl::fromHighWord(std::uint64_t word) noexcept
{
    const std::uint64_t c = word >> 41;
    SassControl s;
    s.stall = static_cast<int>(c & 0xf);
    s.yield = ((c >> 4) & 1) != 0;
    const int w = static_cast<int>((c >> 5) & 7);
    const int r = static_cast<int>((c >> 8) & 7);
    s.writeBarrier = w == 7 ? -1 : w;
    s.readBarrier = r == 7 ? -1 : r;
    s.waitMask = static_cast<unsigned>((c >> 11) & 0x3f);
    s.reuse = static_cast<unsigned>((c >> 17) & 0xf);
    return s;
}

std::string SassControl::toText() const
{
    char head[32];
    std::snprintf(head, sizeof head, "S%02d %c W%c R%c", stall, yield ? 'Y' : '-',
                  writeBarrier < 0 ? '-' : static_cast<char>('0' + writeBarrier),
                  readBarrier < 0 ? '-' : static_cast<char>('0' + readBarrier));
    std::string t = head;
    if (waitMask != 0) {
        t.append(" wait{");
        bool first = true;
        for (int i = 0; i < 6; ++i)
            if (waitMask & (1u << i)) {
                if (!first) t.push_back(',');
                t.push_back(static_cast<char>('0' + i));
                first = false;
            }
        t.push_back('}');
    }
    return t;
}

SassListing SassListing::parse(const std::string& text)
{
    SassListing listing;
    std::istringstream in(text);
    std::string raw;
    std::string file;
    int line = 0;
    SassInstruction* last = nullptr; // waiting for the second encoding word
    while (std::getline(in, raw)) {
        const std::string s(trim(raw));
        if (s.rfind("//---", 0) == 0) {
            // //--------------------- .text._Z3hotPfii --------------------------
            const std::size_t at = s.find(".text.");
            if (at == std::string::npos) continue;
            const std::size_t end = s.find(' ', at);
            listing.m_functions.push_back(
                {s.substr(at + 6, end == std::string::npos ? std::string::npos : end - at - 6),
                 {}});
            file.clear();
            line = 0;
            last = nullptr;
            continue;
        }
        if (s.rfind("//## File \"", 0) == 0) {
            // //## File "/path/kernel.cu", line 7 [inlined at ...]
            const std::size_t q = s.find('"', 11);
            const std::size_t l = s.find(", line ", q == std::string::npos ? 0 : q);
            if (q == std::string::npos || l == std::string::npos) continue;
            file = s.substr(11, q - 11);
            line = 0;
            const char* b = s.data() + l + 7;
            std::from_chars(b, s.data() + s.size(), line);
            continue;
        }
        if (s.rfind("/*", 0) == 0 && s.size() > 4 && listing.m_functions.size() > 0) {
            const std::size_t close = s.find("*/");
            if (close == std::string::npos) continue;
            std::uint64_t value = 0;
            const std::string inner = s.substr(2, close - 2);
            if (inner.rfind(" 0x", 0) == 0) {
                // The encoding's second word, on a line of its own.
                if (last && parseHex(std::string(trim(inner).substr(2)), value))
                    last->control = SassControl::fromHighWord(value);
                last = nullptr;
                continue;
            }
            if (!parseHex(inner, value)) continue;
            SassInstruction ins;
            ins.offset = value;
            std::string rest = s.substr(close + 2);
            std::size_t semi = rest.find(';');
            ins.text = trim(std::string_view(rest).substr(0, semi == std::string::npos ? rest.size()
                                                                                       : semi + 1));
            ins.file = file;
            ins.line = line;
            std::uint64_t first = 0;
            const bool hasEncoding = semi != std::string::npos && encodingWord(rest, semi, first);
            SassFunction& fn = listing.m_functions.back();
            fn.instructions.push_back(std::move(ins));
            last = hasEncoding ? &fn.instructions.back() : nullptr;
        }
    }
    return listing;
}

const SassFunction* SassListing::function(const std::string& name) const noexcept
{
    for (const SassFunction& f : m_functions)
        if (f.name == name) return &f;
    return nullptr;
}

bool SassListing::hasLineInfo() const noexcept
{
    for (const SassFunction& f : m_functions)
        for (const SassInstruction& i : f.instructions)
            if (i.line > 0) return true;
    return false;
}

std::vector<std::uint64_t> SassListing::offsetsForLine(const std::string& function,
                                                       const std::string& file, int line) const
{
    std::vector<std::uint64_t> out;
    const SassFunction* f = this->function(function);
    if (!f) return out;
    const std::string_view want = fileNameOf(file);
    for (const SassInstruction& i : f->instructions)
        if (i.line == line && (want.empty() || fileNameOf(i.file) == want)) out.push_back(i.offset);
    return out;
}

} // namespace wb::profiling
