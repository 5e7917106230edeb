// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace wb::profiling {

/// Which source line each line of a PTX text belongs to, from the `.loc FILE LINE COL`
/// directives NVRTC writes with -lineinfo (and `.file N "path"`): a PTX line belongs to the
/// last `.loc` above it in its function. Drives the source ↔ PTX highlighting.
class PtxLineMap {
public:
    static PtxLineMap parse(const std::string& ptx);

    /// Source line of PTX line `ptxLine` (1-based); 0 when none (declarations, other files,
    /// `.loc` line 0).
    int sourceLine(int ptxLine) const noexcept;
    /// File of PTX line `ptxLine` as `.file` names it; "" when none.
    const std::string& sourceFile(int ptxLine) const noexcept;
    /// PTX lines (1-based) of source line `line` of `file` (compared by file name; "" matches
    /// any) that hold an instruction (not a directive, label, brace or comment).
    std::vector<int> ptxLinesFor(const std::string& file, int line) const;
    bool empty() const noexcept { return m_lines.empty(); }

private:
    struct Entry {
        int fileIndex = -1;
        int line = 0;
        bool instruction = false;
    };
    std::vector<Entry> m_lines;       // index = PTX line - 1
    std::vector<std::string> m_files; // index = .file number
};

} // namespace wb::profiling
