// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiling/LineDiff.h"

#include <algorithm>
#include <cstdint>

namespace wb::profiling {

namespace {

std::vector<std::string> splitLines(const std::string& text)
{
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

constexpr std::size_t kMaxCells = 20'000'000;

} // namespace

std::vector<DiffLine> diffLines(const std::string& before, const std::string& after)
{
    const std::vector<std::string> a = splitLines(before);
    const std::vector<std::string> b = splitLines(after);
    std::size_t prefix = 0;
    while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix])
        ++prefix;
    std::size_t suffix = 0;
    while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
           a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
        ++suffix;
    const std::size_t n = a.size() - prefix - suffix;
    const std::size_t m = b.size() - prefix - suffix;

    std::vector<DiffLine> out;
    int oldLine = 0, newLine = 0;
    const auto same = [&](const std::string& text) {
        out.push_back({DiffLine::Kind::Same, text, ++oldLine, ++newLine});
    };
    const auto removed = [&](const std::string& text) {
        out.push_back({DiffLine::Kind::Removed, text, ++oldLine, 0});
    };
    const auto added = [&](const std::string& text) {
        out.push_back({DiffLine::Kind::Added, text, 0, ++newLine});
    };
    for (std::size_t i = 0; i < prefix; ++i)
        same(a[i]);

    if ((n + 1) * (m + 1) > kMaxCells) {
        for (std::size_t i = 0; i < n; ++i)
            removed(a[prefix + i]);
        for (std::size_t j = 0; j < m; ++j)
            added(b[prefix + j]);
    } else {
        // lcs[i][j] = LCS length of a[prefix+i..] and b[prefix+j..]
        std::vector<std::uint32_t> lcs((n + 1) * (m + 1), 0);
        const auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& {
            return lcs[i * (m + 1) + j];
        };
        for (std::size_t i = n; i-- > 0;)
            for (std::size_t j = m; j-- > 0;)
                at(i, j) = a[prefix + i] == b[prefix + j] ? at(i + 1, j + 1) + 1
                                                          : std::max(at(i + 1, j), at(i, j + 1));
        std::size_t i = 0, j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && a[prefix + i] == b[prefix + j]) {
                same(a[prefix + i]);
                ++i;
                ++j;
            } else if (i < n && (j == m || at(i + 1, j) >= at(i, j + 1))) {
                removed(a[prefix + i++]); // removals first, as diff -u shows them
            } else {
                added(b[prefix + j++]);
            }
        }
    }
    for (std::size_t k = a.size() - suffix; k < a.size(); ++k)
        same(a[k]);
    return out;
}

std::string unifiedDiff(const std::string& before, const std::string& after,
                        const std::string& beforeName, const std::string& afterName, int context)
{
    const std::vector<DiffLine> lines = diffLines(before, after);
    const auto changed = [&](std::size_t k) { return lines[k].kind != DiffLine::Kind::Same; };
    if (std::none_of(lines.begin(), lines.end(),
                     [](const DiffLine& l) { return l.kind != DiffLine::Kind::Same; }))
        return {};
    const std::size_t ctx = static_cast<std::size_t>(std::max(context, 0));
    std::string out = "--- " + beforeName + "\n+++ " + afterName + "\n";
    std::size_t k = 0;
    while (k < lines.size()) {
        if (!changed(k)) {
            ++k;
            continue;
        }
        // A hunk: from ctx lines before this change to ctx lines after the last change that is
        // within 2*ctx lines of the previous one.
        const std::size_t begin = k >= ctx ? k - ctx : 0;
        std::size_t end = k;
        std::size_t last = k;
        while (end < lines.size()) {
            if (changed(end))
                last = end;
            else if (end - last > 2 * ctx)
                break;
            ++end;
        }
        end = std::min(lines.size(), last + ctx + 1);
        int oldStart = 0, newStart = 0, oldCount = 0, newCount = 0;
        std::string body;
        int oldBefore = 0, newBefore = 0; // line numbers just before the hunk
        for (std::size_t t = 0; t < begin; ++t) {
            if (lines[t].kind != DiffLine::Kind::Added) ++oldBefore;
            if (lines[t].kind != DiffLine::Kind::Removed) ++newBefore;
        }
        for (std::size_t t = begin; t < end; ++t) {
            const DiffLine& l = lines[t];
            const char mark = l.kind == DiffLine::Kind::Same      ? ' '
                              : l.kind == DiffLine::Kind::Removed ? '-'
                                                                  : '+';
            body += mark;
            body += l.text;
            body += '\n';
            if (l.kind != DiffLine::Kind::Added) ++oldCount;
            if (l.kind != DiffLine::Kind::Removed) ++newCount;
        }
        oldStart = oldCount ? oldBefore + 1 : oldBefore;
        newStart = newCount ? newBefore + 1 : newBefore;
        // GNU diff writes a one-line range as "l" rather than "l,1".
        const auto range = [](int start, int count) {
            return count == 1 ? std::to_string(start)
                              : std::to_string(start) + "," + std::to_string(count);
        };
        out +=
            "@@ -" + range(oldStart, oldCount) + " +" + range(newStart, newCount) + " @@\n" + body;
        k = end;
    }
    return out;
}

} // namespace wb::profiling
