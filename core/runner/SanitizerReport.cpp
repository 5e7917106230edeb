// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/runner/SanitizerReport.h"

#include "core/common/Text.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string_view>
#include <utility>

namespace wb::runner {

namespace {

struct Record {
    std::string title;
    std::vector<std::string> details;
};

/// "oob_write(float *, int)" → "oob_write"; "void ns::k<int>(int *)" → "ns::k<int>".
std::string kernelName(std::string s)
{
    s = std::string(trim(s));
    int depth = 0;
    for (std::size_t i = s.size(); i-- > 0;) {
        if (s[i] == ')')
            ++depth;
        else if (s[i] == '(' && --depth == 0) {
            s = s.substr(0, i);
            break;
        }
    }
    if (s.rfind("void ", 0) == 0) s = s.substr(5); // kernels return void
    if (const auto sp = s.rfind(' '); sp != std::string::npos && s.find('<') == std::string::npos)
        s = s.substr(sp + 1);
    return std::string(trim(s));
}

// Hand-written matchers for compute-sanitizer's lines, linear in their length: they quote
// kernel names and paths, on which std::regex recursed per character until the stack ran out.

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool isHex(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

bool isWord(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.substr(0, prefix.size()) == prefix;
}

/// Skips the run of `pred` characters at `at`; false when there is none.
template <class Pred> bool skipRun(std::string_view s, std::size_t& at, Pred pred)
{
    const std::size_t begin = at;
    while (at < s.size() && pred(s[at]))
        ++at;
    return at > begin;
}

bool literalAt(std::string_view s, std::size_t& at, std::string_view text)
{
    if (s.substr(at, text.size()) != text) return false;
    at += text.size();
    return true;
}

/// Digits as an unsigned number, saturating instead of overflowing.
unsigned long long number(std::string_view digits)
{
    unsigned long long v = 0;
    for (const char c : digits) {
        const auto d = static_cast<unsigned long long>(c - '0');
        if (v > (~0ULL - d) / 10) return ~0ULL;
        v = v * 10 + d;
    }
    return v;
}

int lineNumber(std::string_view digits)
{
    return static_cast<int>(std::min<unsigned long long>(number(digits), 0x7fffffff));
}

/// "<text>[ [N hazard(s)]]" → the text without the suffix.
std::string_view withoutHazards(std::string_view s)
{
    if (s.empty() || s.back() != ']') return s;
    const std::size_t open = s.rfind(" [");
    if (open == std::string_view::npos || open == 0) return s;
    std::size_t i = open + 2;
    if (!skipRun(s, i, isDigit) || !literalAt(s, i, " hazard")) return s;
    literalAt(s, i, "s");
    return i + 1 == s.size() ? s.substr(0, open) : s;
}

/// "at k()+0x70 in /tmp/kernel.cu:6", "at 0x70 in k()", "at k()+0x70" → kernel, file, line.
void parseLocation(std::string_view where, MemoryFinding& f)
{
    // "<symbol>+0x<hex> in <file>:<line>": the first "+0x" that fits. Every candidate's file
    // ends at the string's last ':', so that is found once.
    const std::size_t lastColon = where.rfind(':');
    const bool endsWithLine =
        lastColon != std::string_view::npos && lastColon + 1 < where.size() &&
        std::all_of(where.begin() + static_cast<std::ptrdiff_t>(lastColon + 1), where.end(),
                    isDigit);
    for (std::size_t plus = where.find("+0x"); endsWithLine && plus != std::string_view::npos;
         plus = where.find("+0x", plus + 1)) {
        std::size_t i = plus + 3;
        if (!skipRun(where, i, isHex) || !literalAt(where, i, " in ") || lastColon <= i) continue;
        f.kernel = kernelName(std::string(where.substr(0, plus)));
        f.file = std::string(where.substr(i, lastColon - i));
        f.line = lineNumber(where.substr(lastColon + 1));
        return;
    }
    // "0x<hex> in <file>:<line>:<symbol>" or "0x<hex> in <symbol>".
    if (std::size_t i = 0; literalAt(where, i, "0x") && skipRun(where, i, isHex) &&
                           literalAt(where, i, " in ") && i < where.size()) {
        const std::string_view rest = where.substr(i);
        for (std::size_t colon = rest.find(':', 1); colon != std::string_view::npos;
             colon = rest.find(':', colon + 1)) {
            std::size_t j = colon + 1;
            if (!skipRun(rest, j, isDigit) || !literalAt(rest, j, ":") || j == rest.size())
                continue;
            f.file = std::string(rest.substr(0, colon));
            f.line = lineNumber(rest.substr(colon + 1, j - colon - 2));
            f.kernel = kernelName(std::string(rest.substr(j)));
            return;
        }
        f.kernel = kernelName(std::string(rest));
        return;
    }
    // "<symbol>+0x<hex>[ in …]".
    for (std::size_t plus = where.find("+0x"); plus != std::string_view::npos;
         plus = where.find("+0x", plus + 1)) {
        std::size_t i = plus + 3;
        if (!skipRun(where, i, isHex)) continue;
        if (i == where.size() || literalAt(where, i, " in ")) {
            f.kernel = kernelName(std::string(where.substr(0, plus)));
            return;
        }
    }
}

/// "(x,y,z)" at `at` (older tools write "(x, y, z)").
bool dimAt(std::string_view s, std::size_t& at, Dim3& d)
{
    unsigned v[3] = {0, 0, 0};
    if (!literalAt(s, at, "(")) return false;
    for (int k = 0; k < 3; ++k) {
        while (at < s.size() && s[at] == ' ')
            ++at;
        const std::size_t begin = at;
        if (!skipRun(s, at, isDigit)) return false;
        v[k] = static_cast<unsigned>(
            std::min<unsigned long long>(number(s.substr(begin, at - begin)), ~0U));
        if (!literalAt(s, at, k < 2 ? "," : ")")) return false;
    }
    d = Dim3{v[0], v[1], v[2]};
    return true;
}

/// "<word> access at <location>[ [N hazards]]" after `prefix`: the word and the location.
bool raceAccess(std::string_view line, std::string_view prefix, std::string& word,
                std::string& location)
{
    if (!startsWith(line, prefix)) return false;
    std::size_t i = prefix.size();
    const std::size_t begin = i;
    if (!skipRun(line, i, isWord)) return false;
    const std::size_t end = i;
    if (!literalAt(line, i, " access at ") || i == line.size()) return false;
    word = std::string(line.substr(begin, end - begin));
    location = std::string(withoutHazards(line.substr(i)));
    return !location.empty();
}

/// racecheck's hazard records (`--racecheck-report hazard|all`):
///     Error: Potential RAW hazard detected at __shared__ 0x8 in block (1,0,0) :
///         Write Thread (31,0,0) at k(int *)+0x2e0 in /tmp/race.cu:12
///         Read Thread (0,0,0) at k(int *)+0x300 in /tmp/race.cu:15
///         Current Value : 0, Incoming Value : 1
/// (older tools: "at 0x2e0 in /tmp/race.cu:12:k(int *)"). The title's kind ("RAW"), space and
/// offset, and block.
bool hazardTitle(std::string_view title, std::string& kind, std::string& at, Dim3& block)
{
    for (const std::string_view prefix : {"Error: ", "Warning: ", "ERROR: ", "WARNING: "}) {
        std::size_t i = 0;
        if (!literalAt(title, i, prefix) || !literalAt(title, i, "Potential ")) continue;
        const std::size_t begin = i;
        if (!skipRun(title, i, isWord)) return false;
        kind = std::string(title.substr(begin, i - begin));
        if (!literalAt(title, i, " hazard detected at ")) return false;
        const std::size_t in = title.find(" in block ", i);
        if (in == std::string_view::npos) return false;
        at = std::string(title.substr(i, in - i));
        std::size_t b = in + 10;
        return dimAt(title, b, block);
    }
    return false;
}

/// "Write Thread (31,0,0) at <location>" → the access word, the thread and the location.
bool hazardAccess(std::string_view line, std::string& word, Dim3& thread, std::string& location)
{
    std::size_t i = 0;
    if (!skipRun(line, i, isWord)) return false;
    const std::size_t end = i;
    if (!literalAt(line, i, " Thread ") || !dimAt(line, i, thread) || !literalAt(line, i, " at ") ||
        i == line.size())
        return false;
    word = std::string(line.substr(0, end));
    location = std::string(line.substr(i));
    return true;
}

std::string dimText(const Dim3& d)
{
    // Appended piece by piece: gcc 12 warns (-Wrestrict) about "(" + std::to_string(…).
    std::string out(1, '(');
    out += std::to_string(d.x);
    out += ',';
    out += std::to_string(d.y);
    out += ',';
    out += std::to_string(d.z);
    out += ')';
    return out;
}

/// A hazard record as a finding at its first access: kernel, file:line, block and thread, and
/// the other access in the message. `key`: the hazard type and the places of its accesses, the
/// same for every record of one race between two lines.
MemoryFinding hazardFinding(const std::string& kind, const std::string& at, const Dim3& block,
                            const std::vector<std::string>& details, std::string& key)
{
    key = kind;
    MemoryFinding f;
    f.kind = MemoryFinding::Kind::Other;
    f.block = block;
    if (const std::size_t hex = at.find(" 0x"); hex != std::string::npos)
        f.address = std::strtoull(at.c_str() + hex + 3, nullptr, 16);
    f.message = "shared-memory " + kind + " hazard at " + at;
    int sides = 0;
    for (const std::string& detail : details) {
        std::string word;
        std::string location;
        Dim3 thread{};
        if (!hazardAccess(detail, word, thread, location)) continue;
        MemoryFinding side;
        parseLocation(location, side);
        const std::string place =
            side.line ? side.file + ":" + std::to_string(side.line) : side.kernel;
        f.message += std::string(sides == 0 ? ": " : " and ") + word + " by thread " +
                     dimText(thread) + (place.empty() ? "" : " at " + place);
        key += "|" + place;
        if (sides++ == 0) {
            f.kernel = side.kernel;
            f.file = side.file;
            f.line = side.line;
            f.thread = thread;
            f.located = true;
            f.isWrite = word == "Write";
        }
    }
    return f;
}

bool skipped(const std::string& title)
{
    static const char* const prefixes[] = {"COMPUTE-SANITIZER",
                                           "Program hit",
                                           "ERROR SUMMARY",
                                           "LEAK SUMMARY",
                                           "RACECHECK SUMMARY",
                                           "Saved host",
                                           "Target application returned",
                                           "Leaked",
                                           "Host Frame"};
    for (const char* p : prefixes)
        if (title.rfind(p, 0) == 0) return true;
    return title.empty();
}

/// `hazardKey`: set for a racecheck hazard record (hazardFinding), else left empty.
MemoryFinding parseRecord(const Record& r, std::string& hazardKey)
{
    {
        std::string kind;
        std::string at;
        Dim3 block{};
        if (hazardTitle(r.title, kind, at, block))
            return hazardFinding(kind, at, block, r.details, hazardKey);
    }
    MemoryFinding f;
    std::string what;
    std::string space;
    std::string word;
    std::string location;
    const std::string_view title = r.title;
    // "Invalid [space ](read|write|atomic) of size N byte(s)"
    bool invalid = false;
    if (std::size_t i = 0; literalAt(title, i, "Invalid ")) {
        for (const std::string_view sp : {"__global__ ", "__shared__ ", "__local__ ",
                                          "__generic__ ", "global ", "shared ", "local "}) {
            if (literalAt(title, i, sp)) {
                space = std::string(sp.substr(0, sp.size() - 1));
                break;
            }
        }
        for (const std::string_view op : {"read", "write", "atomic"}) {
            std::size_t j = i;
            if (!literalAt(title, j, op) || !literalAt(title, j, " of size ")) continue;
            const std::size_t digits = j;
            if (!skipRun(title, j, isDigit) || !literalAt(title, j, " byte")) continue;
            const std::string size(title.substr(digits, j - 5 - digits));
            f.isWrite = op == "write";
            f.accessSize =
                static_cast<std::uint32_t>(std::min<unsigned long long>(number(size), ~0U));
            what = std::string(op) + " of " + size + " byte" + (f.accessSize == 1 ? "" : "s");
            f.kind = MemoryFinding::Kind::InvalidAddress;
            invalid = true;
            break;
        }
        if (!invalid) space.clear();
    }
    const auto race = [&] {
        for (const std::string_view prefix : {"Error: ", "Warning: ", "ERROR: ", "WARNING: "}) {
            if (!startsWith(title, prefix)) continue;
            return raceAccess(title.substr(prefix.size()), "Race reported between ", word,
                              location);
        }
        return false;
    };
    if (invalid) {
        // done above
    } else if (race()) {
        f.kind = MemoryFinding::Kind::Other;
        f.isWrite = word == "Write";
        parseLocation(location, f);
        what = "shared-memory race: " + word + " access at " +
               (f.line ? f.file + ":" + std::to_string(f.line) : f.kernel);
    } else {
        what = r.title;
        f.kind = r.title.find("Misaligned") != std::string::npos ? MemoryFinding::Kind::Misaligned
                 : r.title.find("Illegal Address") != std::string::npos
                     ? MemoryFinding::Kind::InvalidAddress
                     : MemoryFinding::Kind::Other;
    }
    std::string where;
    for (const std::string& detail : r.details) {
        const std::string_view d = detail;
        std::size_t i = 0;
        Dim3 thread{}, block{};
        if (raceAccess(d, "and ", word, location)) {
            MemoryFinding other;
            parseLocation(location, other);
            what += " and " + word + " access at " +
                    (other.line ? other.file + ":" + std::to_string(other.line) : other.kernel);
        } else if (f.kernel.empty() && startsWith(d, "at ") && d.size() > 3) {
            parseLocation(d.substr(3), f);
        } else if (literalAt(d, i, "by thread ") && dimAt(d, i, thread) &&
                   literalAt(d, i, " in block ") && dimAt(d, i, block)) {
            f.thread = thread;
            f.block = block;
            f.located = true;
        } else if (std::size_t a = 0; literalAt(d, a, "Address 0x") && skipRun(d, a, isHex) &&
                                      literalAt(d, a, " is ") && a < d.size()) {
            const std::string addr(d.substr(8, a - 4 - 8));
            f.address = std::strtoull(addr.c_str(), nullptr, 16);
            const std::string is(d.substr(a));
            if (is.find("misaligned") != std::string::npos)
                f.kind = MemoryFinding::Kind::Misaligned;
            else if (is.find("out of bounds") != std::string::npos)
                f.kind = MemoryFinding::Kind::OutOfBounds;
            where = " at " + addr + " is " + is;
        } else if (startsWith(d, "and is ")) {
            where += ": " + std::string(d.substr(7));
        }
    }
    f.message = (space.empty() ? "" : space + " ") + what + where;
    return f;
}

/// "Tool ... memcheck", "Running … racecheck": the last tool name that stands as a word.
std::string toolNamed(std::string_view line)
{
    std::size_t i = 0;
    if (!literalAt(line, i, "Tool ") && !literalAt(line, i, "Running ") &&
        !literalAt(line, i, "Using "))
        return {};
    std::string best;
    std::size_t bestAt = 0;
    for (const std::string_view tool : {"memcheck", "racecheck", "initcheck", "synccheck"}) {
        for (std::size_t at = line.rfind(tool); at != std::string_view::npos && at >= i;
             at = at == 0 ? std::string_view::npos : line.rfind(tool, at - 1)) {
            const bool left = !isWord(line[at - 1]);
            const bool right = at + tool.size() == line.size() || !isWord(line[at + tool.size()]);
            if (left && right) {
                if (best.empty() || at > bestAt) {
                    best = std::string(tool);
                    bestAt = at;
                }
                break;
            }
        }
    }
    return best;
}

} // namespace

SanitizerReport SanitizerReport::parse(const std::string& text)
{
    SanitizerReport rep;
    std::vector<Record> records;
    std::istringstream in(text);
    std::string line;
    bool inBacktrace = false;
    while (std::getline(in, line)) {
        if (line.rfind("=========", 0) != 0) continue;
        std::string body = line.substr(9);
        if (const std::size_t at = body.find("ERROR SUMMARY: "); at != std::string::npos) {
            std::size_t i = at + 15;
            if (skipRun(body, i, isDigit) && literalAt(body, i, " error"))
                rep.errorCount =
                    lineNumber(std::string_view(body).substr(at + 15, i - 6 - at - 15));
        }
        const std::size_t indent = body.find_first_not_of(' ');
        if (indent == std::string::npos) {
            inBacktrace = false;
            continue;
        }
        const std::string content(trim(body));
        if (rep.tool.empty()) rep.tool = toolNamed(content);
        if (indent <= 1) {
            inBacktrace = false;
            records.push_back(Record{content, {}});
            continue;
        }
        if (content.rfind("Saved host backtrace", 0) == 0) inBacktrace = true;
        if (!inBacktrace && !records.empty()) records.back().details.push_back(content);
    }
    // racecheck reports a hazard per byte and per pair of threads (hundreds for one missing
    // barrier): hazards of the same type between the same two lines are one finding, with
    // their count.
    struct Hazard {
        std::size_t finding = 0; ///< index of the first record's finding
        std::size_t count = 0;
    };
    std::map<std::string, Hazard> hazards;
    for (const Record& r : records) {
        if (skipped(r.title)) continue;
        std::string key;
        MemoryFinding f = parseRecord(r, key);
        if (!key.empty()) {
            Hazard& h =
                hazards.try_emplace(std::move(key), Hazard{rep.findings.size(), 0}).first->second;
            if (h.count++ > 0) continue;
        }
        rep.findings.push_back(std::move(f));
    }
    for (const auto& [key, h] : hazards)
        if (h.count > 1)
            rep.findings[h.finding].message += " [" + std::to_string(h.count) + " hazards like it]";
    if (rep.tool.empty()) {
        for (const MemoryFinding& f : rep.findings)
            if (f.message.rfind("shared-memory ", 0) == 0) rep.tool = "racecheck";
    }
    return rep;
}

} // namespace wb::runner
