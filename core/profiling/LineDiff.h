// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace wb::profiling {

/// One line of a line-by-line diff.
struct DiffLine {
    enum class Kind { Same, Removed, Added };
    Kind kind = Kind::Same;
    std::string text;
    int oldLine = 0; ///< 1-based line in the old text; 0 for Added
    int newLine = 0; ///< 1-based line in the new text; 0 for Removed

    friend bool operator==(const DiffLine&, const DiffLine&) = default;
};

/// Line diff by longest common subsequence (common prefix and suffix trimmed first). Inputs
/// larger than about 20 million line pairs after trimming are shown as one replaced block.
std::vector<DiffLine> diffLines(const std::string& before, const std::string& after);

/// `diff -u` style text ("--- a", "+++ b", "@@ -l,n +l,n @@" hunks with `context` lines);
/// empty when the texts are equal.
std::string unifiedDiff(const std::string& before, const std::string& after,
                        const std::string& beforeName = "a", const std::string& afterName = "b",
                        int context = 3);

} // namespace wb::profiling
