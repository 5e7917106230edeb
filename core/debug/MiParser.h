// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace wb::debug {

/// A value of gdb's machine interface (GDB/MI output syntax): a C string, a tuple `{a=..}` or a
/// list `[..]` of values or of results.
struct MiValue {
    enum class Kind { String, Tuple, List };
    Kind kind = Kind::String;
    std::string string; ///< Kind::String: the unescaped text
    /// Tuple: name=value pairs; List: values (empty names) or results (named).
    std::vector<std::pair<std::string, MiValue>> items;

    /// The first item named `name` of a tuple (or a list of results), or nullptr.
    const MiValue* find(std::string_view name) const noexcept;
    /// The string of item `name`, or `fallback` when it is missing or not a string.
    std::string text(std::string_view name, std::string fallback = {}) const;
};

/// One line of gdb's MI output.
struct MiRecord {
    enum class Type {
        Result,        ///< ^done, ^running, ^connected, ^error, ^exit
        ExecAsync,     ///< *stopped, *running
        StatusAsync,   ///< +download
        NotifyAsync,   ///< =thread-group-started, =breakpoint-modified, ...
        ConsoleStream, ///< ~"text"
        TargetStream,  ///< @"text"
        LogStream,     ///< &"text"
        Prompt,        ///< (gdb)
    };
    Type type = Type::Prompt;
    std::optional<std::uint64_t> token;
    std::string cls;  ///< the result or async class: "done", "stopped", ...
    MiValue results;  ///< a tuple of the record's results
    std::string text; ///< stream records: the unescaped text
};

/// Parses one line of MI output (without its newline). Returns the record, or std::nullopt with
/// `error` saying what is wrong for a line that is not MI (such as the debugged program's own
/// output). Linear in the line's length, nesting bounded (kMaxDepth), never throws.
std::optional<MiRecord> parseMiLine(std::string_view line, std::string* error = nullptr);

/// Quotes `text` as an MI C string ("a\"b"), for commands' arguments.
std::string miQuote(std::string_view text);

inline constexpr int kMiMaxDepth = 200;

} // namespace wb::debug
