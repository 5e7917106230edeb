// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cuda/detail/DiagnosticParser.h"

#include "core/common/Text.h"

#include <cctype>
#include <charconv>
#include <optional>

namespace wb::cuda::detail {

namespace {

std::vector<std::string_view> splitLines(std::string_view text)
{
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        std::size_t end = text.find('\n');
        std::string_view line = text.substr(0, end);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        lines.push_back(line);
        if (end == std::string_view::npos) break;
        text.remove_prefix(end + 1);
    }
    return lines;
}

bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.substr(0, prefix.size()) == prefix;
}

std::optional<Severity> severityFromWord(std::string_view word)
{
    if (word == "error") return Severity::Error;
    if (word == "catastrophic error" || word == "fatal error" || word == "fatal")
        return Severity::Fatal;
    if (word == "warning") return Severity::Warning;
    if (word == "remark" || word == "note") return Severity::Note;
    return std::nullopt;
}

/// `file(line): severity[ #code]: message`
std::optional<Diagnostic> parseHeader(std::string_view line)
{
    const std::size_t marker = line.find("): ");
    if (marker == std::string_view::npos) return std::nullopt;
    const std::size_t open = line.rfind('(', marker);
    if (open == std::string_view::npos || open == 0) return std::nullopt;
    const std::string_view number = line.substr(open + 1, marker - open - 1);
    int lineNo = 0;
    const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), lineNo);
    if (ec != std::errc() || ptr != number.data() + number.size()) return std::nullopt;

    std::string_view rest = line.substr(marker + 3);
    const std::size_t colon = rest.find(": ");
    if (colon == std::string_view::npos) return std::nullopt;
    std::string_view kind = rest.substr(0, colon);
    std::string code;
    if (const std::size_t hash = kind.find(" #"); hash != std::string_view::npos) {
        code = std::string(kind.substr(hash + 2));
        kind = kind.substr(0, hash);
    }
    const auto severity = severityFromWord(kind);
    if (!severity) return std::nullopt;

    Diagnostic d;
    d.file = std::string(line.substr(0, open));
    d.line = lineNo;
    d.severity = *severity;
    d.code = std::move(code);
    d.message = std::string(rest.substr(colon + 2));
    return d;
}

/// `ptxas error   : message`, `nvrtc: error: message`: no location.
std::optional<Diagnostic> parseUnlocated(std::string_view line)
{
    std::string_view tool;
    std::string_view rest;
    if (startsWith(line, "ptxas ")) {
        tool = "ptxas";
        rest = line.substr(6);
    } else if (startsWith(line, "nvrtc: ")) {
        tool = "nvrtc";
        rest = line.substr(7);
    } else if (startsWith(line, "error: ") || startsWith(line, "warning: ")) {
        rest = line;
    } else {
        return std::nullopt;
    }
    const std::size_t colon = rest.find(':');
    if (colon == std::string_view::npos) return std::nullopt;
    const auto severity = severityFromWord(trim(rest.substr(0, colon)));
    if (!severity) return std::nullopt; // "ptxas info : ..." and the like
    Diagnostic d;
    d.file = std::string(tool);
    d.severity = *severity;
    d.message = std::string(trim(rest.substr(colon + 1)));
    return d;
}

/// The caret line echoes the source line's leading whitespace (tabs included) and puts '^'
/// under the offending character. Returns the 1-based column, or 0 when `line` is no caret line.
int caretColumn(std::string_view line, std::size_t indent)
{
    const std::size_t caret = line.find('^');
    if (caret == std::string_view::npos) return 0;
    for (std::size_t i = 0; i < caret; ++i)
        if (line[i] != ' ' && line[i] != '\t') return 0;
    if (trim(line.substr(caret + 1)).size() != 0) return 0;
    if (caret < indent) return 1;
    return static_cast<int>(caret - indent) + 1;
}

} // namespace

std::vector<Diagnostic> parseNvrtcLog(std::string_view log)
{
    std::vector<Diagnostic> out;
    const std::vector<std::string_view> lines = splitLines(log);
    // NVRTC indents the quoted source line and the caret line by two spaces.
    constexpr std::size_t kQuoteIndent = 2;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string_view line = lines[i];
        if (line.empty()) continue;
        if (auto d = parseHeader(line)) {
            // Optional: quoted source line + caret line.
            if (i + 2 < lines.size() && startsWith(lines[i + 1], "  ")) {
                if (const int col = caretColumn(lines[i + 2], kQuoteIndent); col > 0) {
                    d->column = col;
                    i += 2;
                }
            }
            // Context notes ("detected during instantiation of ..."): indented lines up to the
            // next blank line.
            while (i + 1 < lines.size() && !lines[i + 1].empty() &&
                   std::isspace(static_cast<unsigned char>(lines[i + 1].front())) &&
                   !parseHeader(lines[i + 1])) {
                const std::string_view note = trim(lines[i + 1]);
                if (!note.empty()) d->context.emplace_back(note);
                ++i;
            }
            out.push_back(std::move(*d));
            continue;
        }
        if (auto d = parseUnlocated(line)) out.push_back(std::move(*d));
        // Everything else (summary lines, "Remark: ...", ptxas info) is not a diagnostic.
    }
    return out;
}

} // namespace wb::cuda::detail
