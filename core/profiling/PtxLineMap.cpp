// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiling/PtxLineMap.h"

#include "core/common/Text.h"

#include <charconv>
#include <sstream>

namespace wb::profiling {

namespace {

/// Reads the next whitespace-separated integer of `s` from `pos`; false when there is none.
bool nextInt(const std::string& s, std::size_t& pos, int& out)
{
    pos = s.find_first_not_of(" \t", pos);
    if (pos == std::string::npos) return false;
    const auto [p, ec] = std::from_chars(s.data() + pos, s.data() + s.size(), out);
    if (ec != std::errc()) return false;
    pos = static_cast<std::size_t>(p - s.data());
    return true;
}

} // namespace

PtxLineMap PtxLineMap::parse(const std::string& ptx)
{
    PtxLineMap map;
    std::istringstream in(ptx);
    std::string raw;
    Entry current;
    int depth = 0;
    while (std::getline(in, raw)) {
        const std::string s(trim(raw));
        Entry e;
        if (s.rfind(".loc", 0) == 0) {
            std::size_t pos = 4;
            int file = 0, line = 0;
            if (nextInt(s, pos, file) && nextInt(s, pos, line)) {
                current.fileIndex = file;
                current.line = line;
            }
        } else if (s.rfind(".file", 0) == 0) {
            std::size_t pos = 5;
            int index = 0;
            const std::size_t q1 = s.find('"');
            const std::size_t q2 = q1 == std::string::npos ? q1 : s.find('"', q1 + 1);
            if (nextInt(s, pos, index) && index >= 0 && index < 4096 && q2 != std::string::npos) {
                if (map.m_files.size() <= static_cast<std::size_t>(index))
                    map.m_files.resize(static_cast<std::size_t>(index) + 1);
                map.m_files[static_cast<std::size_t>(index)] = s.substr(q1 + 1, q2 - q1 - 1);
            }
        } else if (s == "{") {
            ++depth;
        } else if (s == "}") {
            if (--depth <= 0) {
                depth = 0;
                current = Entry{};
            }
        } else if (depth > 0 && !s.empty() && s[0] != '.' && s[0] != '/' && s.back() == ';') {
            e = current;
            e.instruction = true;
        }
        if (!e.instruction && depth > 0) {
            e.fileIndex = current.fileIndex;
            e.line = current.line;
        }
        map.m_lines.push_back(e);
    }
    return map;
}

int PtxLineMap::sourceLine(int ptxLine) const noexcept
{
    if (ptxLine < 1 || static_cast<std::size_t>(ptxLine) > m_lines.size()) return 0;
    return m_lines[static_cast<std::size_t>(ptxLine) - 1].line;
}

const std::string& PtxLineMap::sourceFile(int ptxLine) const noexcept
{
    static const std::string none;
    if (ptxLine < 1 || static_cast<std::size_t>(ptxLine) > m_lines.size()) return none;
    const int f = m_lines[static_cast<std::size_t>(ptxLine) - 1].fileIndex;
    if (f < 0 || static_cast<std::size_t>(f) >= m_files.size()) return none;
    return m_files[static_cast<std::size_t>(f)];
}

std::vector<int> PtxLineMap::ptxLinesFor(const std::string& file, int line) const
{
    std::vector<int> out;
    const std::string_view want = fileNameOf(file);
    for (std::size_t i = 0; i < m_lines.size(); ++i) {
        const Entry& e = m_lines[i];
        if (!e.instruction || e.line != line || line <= 0) continue;
        const int p = static_cast<int>(i) + 1;
        if (!want.empty() && fileNameOf(sourceFile(p)) != want) continue;
        out.push_back(p);
    }
    return out;
}

} // namespace wb::profiling
