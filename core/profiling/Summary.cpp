// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiling/Summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace wb::profiling {

namespace {

std::string printf1(const char* format, double value, const char* unit)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, value);
    return std::string(buffer) + unit;
}

/// Scales `value` by powers of 1000 and picks the unit; units[0] is the base.
std::string scaled(double value, const char* const* units, int count, double base = 1.0)
{
    int index = 0;
    double v = value / base;
    while (index + 1 < count && std::fabs(v) >= 1000.0) {
        v /= 1000.0;
        ++index;
    }
    return printf1("%.3f ", v, units[index]);
}

} // namespace

const Summary* findSummary(const std::vector<Summary>& summaries, const std::string& tag) noexcept
{
    for (const Summary& s : summaries)
        if (s.tag == tag) return &s;
    return nullptr;
}

std::string formatSummaryValue(const Summary& s)
{
    if (!std::isfinite(s.value)) return "n/a";
    if (s.hint == "duration") {
        const double v = s.value;
        if (std::fabs(v) >= 1.0) return printf1("%.3f ", v, "s");
        if (std::fabs(v) >= 1e-3) return printf1("%.3f ", v * 1e3, "ms");
        if (std::fabs(v) >= 1e-6) return printf1("%.3f ", v * 1e6, "us");
        return printf1("%.1f ", v * 1e9, "ns");
    }
    if (s.hint == "percentage") return printf1("%.2f ", s.value, "%");
    if (s.hint == "ratio") return printf1("%.3f", s.value, "");
    if (s.hint == "sample_size") return printf1("%.0f", s.value, "");
    if (s.hint == "bandwidth") {
        static const char* const units[] = {"B/s", "KB/s", "MB/s", "GB/s", "TB/s"};
        return scaled(s.value, units, 5);
    }
    if (s.hint == "flops") {
        static const char* const units[] = {"FLOP/s",  "KFLOP/s", "MFLOP/s",
                                            "GFLOP/s", "TFLOP/s", "PFLOP/s"};
        return scaled(s.value, units, 6);
    }
    if (s.hint == "frequency") {
        static const char* const units[] = {"Hz", "kHz", "MHz", "GHz"};
        return scaled(s.value, units, 4);
    }
    if (s.hint == "bytes") {
        static const char* const units[] = {"B", "KB", "MB", "GB", "TB"};
        return scaled(s.value, units, 5);
    }
    return printf1("%.4g", s.value, "");
}

std::string formatSummaryTable(const std::vector<std::vector<Summary>>& rows,
                               const std::vector<std::string>& rowLabels)
{
    std::vector<std::string> tags;
    std::vector<std::string> headers;
    for (const auto& row : rows)
        for (const Summary& s : row)
            if (std::find(tags.begin(), tags.end(), s.tag) == tags.end()) {
                tags.push_back(s.tag);
                headers.push_back(s.name);
            }
    const bool labelled = !rowLabels.empty();
    std::vector<std::vector<std::string>> cells;
    std::vector<std::string> header;
    if (labelled) header.push_back("");
    header.insert(header.end(), headers.begin(), headers.end());
    cells.push_back(header);
    for (std::size_t r = 0; r < rows.size(); ++r) {
        std::vector<std::string> line;
        if (labelled) line.push_back(r < rowLabels.size() ? rowLabels[r] : "");
        for (const std::string& tag : tags) {
            const Summary* s = findSummary(rows[r], tag);
            line.push_back(s ? formatSummaryValue(*s) : "-");
        }
        cells.push_back(std::move(line));
    }
    std::vector<std::size_t> widths(header.size(), 0);
    for (const auto& line : cells)
        for (std::size_t c = 0; c < line.size(); ++c)
            widths[c] = std::max(widths[c], line[c].size());
    std::string out;
    for (std::size_t l = 0; l < cells.size(); ++l) {
        out += "|";
        for (std::size_t c = 0; c < cells[l].size(); ++c) {
            out += ' ';
            out += cells[l][c];
            out.append(widths[c] - cells[l][c].size(), ' ');
            out += " |";
        }
        out += '\n';
        if (l == 0) {
            out += "|";
            for (std::size_t c = 0; c < widths.size(); ++c)
                out += std::string(widths[c] + 2, '-') + "|";
            out += '\n';
        }
    }
    return out;
}

} // namespace wb::profiling
