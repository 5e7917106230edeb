// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiling/Hotspots.h"

#include "core/common/Text.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <tuple>

namespace wb::profiling {

namespace {

void addStalls(std::map<std::string, std::uint64_t>& into, const std::vector<StallCount>& from)
{
    for (const StallCount& s : from)
        into[s.reason] += s.samples;
}

std::vector<StallCount> sortedStalls(const std::map<std::string, std::uint64_t>& m)
{
    std::vector<StallCount> out;
    for (const auto& [reason, samples] : m)
        if (samples > 0) out.push_back({reason, samples});
    std::stable_sort(out.begin(), out.end(), [](const StallCount& a, const StallCount& b) {
        return a.samples > b.samples;
    });
    return out;
}

} // namespace

std::string HotspotLine::topStall() const
{
    return stalls.empty() ? std::string() : stalls.front().reason;
}

std::uint64_t HotspotReport::attributedSamples() const noexcept
{
    std::uint64_t sum = 0;
    for (const HotspotInstruction& i : instructions)
        sum += i.samples;
    return sum;
}

double HotspotReport::share(const HotspotLine& line) const noexcept
{
    const std::uint64_t all = attributedSamples();
    return all == 0 ? 0.0 : static_cast<double>(line.samples) / static_cast<double>(all);
}

const HotspotLine* HotspotReport::findLine(const std::string& file, int line) const noexcept
{
    const std::string_view want = fileNameOf(file);
    for (const HotspotLine& l : lines)
        if (l.line == line && (want.empty() || fileNameOf(l.file) == want)) return &l;
    return nullptr;
}

HotspotReport HotspotReport::aggregate(const std::vector<SampledPc>& pcs)
{
    struct Acc {
        std::string file;
        int line = 0;
        std::map<std::string, std::uint64_t> stalls;
    };
    std::map<std::pair<std::string, std::uint64_t>, Acc> byPc;
    std::map<std::pair<std::string, int>, std::map<std::string, std::uint64_t>> byLine;
    for (const SampledPc& pc : pcs) {
        Acc& a = byPc[{pc.function, pc.pcOffset}];
        a.file = pc.file;
        a.line = pc.line;
        addStalls(a.stalls, pc.stalls);
        addStalls(byLine[{pc.file, pc.line}], pc.stalls);
    }
    HotspotReport r;
    for (const auto& [key, acc] : byPc) {
        HotspotInstruction i;
        i.function = key.first;
        i.pcOffset = key.second;
        i.file = acc.file;
        i.line = acc.line;
        i.stalls = sortedStalls(acc.stalls);
        for (const StallCount& s : i.stalls)
            i.samples += s.samples;
        if (i.samples > 0) r.instructions.push_back(std::move(i));
    }
    for (const auto& [key, stalls] : byLine) {
        HotspotLine l;
        l.file = key.first;
        l.line = key.second;
        l.stalls = sortedStalls(stalls);
        for (const StallCount& s : l.stalls)
            l.samples += s.samples;
        if (l.samples > 0) r.lines.push_back(std::move(l));
    }
    std::stable_sort(r.lines.begin(), r.lines.end(),
                     [](const HotspotLine& a, const HotspotLine& b) {
                         return std::tie(b.samples, a.line) < std::tie(a.samples, b.line);
                     });
    return r;
}

std::string HotspotReport::toText(std::size_t top, const std::string& source) const
{
    std::ostringstream o;
    const std::uint64_t attributed = attributedSamples();
    o << "Hotspots (PC sampling, every 2^" << samplingPeriodLog2 << " cycles per SM, " << launches
      << (launches == 1 ? " launch" : " launches") << "): " << attributed << " samples";
    if (droppedSamples > 0) o << ", " << droppedSamples << " dropped";
    o << ", " << instructions.size() << " instructions, " << lines.size() << " lines\n";
    if (lines.empty()) {
        o << "  no samples were attributed to the kernel\n";
    } else {
        o << "  line    share   samples  top stall reasons\n";
        for (std::size_t i = 0; i < lines.size() && i < top; ++i) {
            const HotspotLine& l = lines[i];
            char head[64];
            std::snprintf(head, sizeof head, "  %-6s %5.1f%% %9llu  ",
                          l.line > 0 ? std::to_string(l.line).c_str() : "?", 100.0 * share(l),
                          static_cast<unsigned long long>(l.samples));
            o << head;
            std::string reasons;
            for (std::size_t k = 0; k < l.stalls.size() && k < 3; ++k) {
                char pct[32];
                std::snprintf(pct, sizeof pct, " %.0f%%",
                              100.0 * static_cast<double>(l.stalls[k].samples) /
                                  static_cast<double>(l.samples));
                if (!reasons.empty()) reasons += ", ";
                reasons += l.stalls[k].reason + pct;
            }
            o << reasons;
            if (const std::string text = sourceLineText(source, l.line); !text.empty())
                o << "\n         | " << text;
            o << "\n";
        }
    }
    for (const std::string& w : warnings)
        o << "  warning: " << w << "\n";
    return o.str();
}

std::string sourceLineText(const std::string& source, int line)
{
    if (line < 1) return {};
    std::size_t start = 0;
    for (int i = 1; i < line; ++i) {
        start = source.find('\n', start);
        if (start == std::string::npos) return {};
        ++start;
    }
    if (start >= source.size()) return {};
    const std::size_t end = source.find('\n', start);
    return std::string(trim(std::string_view(source).substr(
        start, end == std::string::npos ? std::string::npos : end - start)));
}

std::string stallReasonLabel(const std::string& cuptiName)
{
    std::string s = cuptiName;
    for (const char* prefix : {"smsp__pcsamp_warps_issue_stalled_", "smsp__pcsamp_"})
        if (s.rfind(prefix, 0) == 0) {
            s = s.substr(std::string(prefix).size());
            break;
        }
    std::replace(s.begin(), s.end(), '_', ' ');
    return s;
}

bool isNotIssuedStallReason(const std::string& cuptiName)
{
    static const std::string suffix = "_not_issued";
    return cuptiName.size() > suffix.size() &&
           cuptiName.compare(cuptiName.size() - suffix.size(), suffix.size(), suffix) == 0;
}

} // namespace wb::profiling
