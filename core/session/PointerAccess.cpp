// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/PointerAccess.h"

#include <algorithm>
#include <cctype>

namespace wb::session {

namespace {

constexpr std::size_t npos = std::string::npos;
constexpr int kAliasDepth = 3; ///< `float* row = p + k;` and pointers made from `row`, …

bool isIdent(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

/// The source with comments, string and character literals blanked (newlines kept), so that
/// offsets and line numbers stay those of the source.
std::string blanked(const std::string& src)
{
    std::string out = src;
    enum class In { Code, Line, Block, Str, Chr } in = In::Code;
    for (std::size_t i = 0; i < src.size(); ++i) {
        const char c = src[i], n = i + 1 < src.size() ? src[i + 1] : '\0';
        switch (in) {
        case In::Code:
            if (c == '/' && n == '/')
                in = In::Line;
            else if (c == '/' && n == '*')
                in = In::Block;
            else if (c == '"')
                in = In::Str;
            else if (c == '\'')
                in = In::Chr;
            else
                continue;
            out[i] = ' ';
            if (in == In::Line || in == In::Block) out[++i] = ' ';
            continue;
        case In::Line:
            if (c == '\n')
                in = In::Code;
            else
                out[i] = ' ';
            continue;
        case In::Block:
            if (c == '*' && n == '/') {
                out[i] = out[i + 1] = ' ';
                ++i;
                in = In::Code;
            } else if (c != '\n') {
                out[i] = ' ';
            }
            continue;
        case In::Str:
        case In::Chr:
            if (c == '\\' && n) {
                out[i] = ' ';
                if (n != '\n') out[i + 1] = ' ';
                ++i;
                continue;
            }
            if (c == (in == In::Str ? '"' : '\'') || c == '\n') in = In::Code;
            if (c != '\n') out[i] = ' ';
            continue;
        }
    }
    return out;
}

/// The index of the bracket closing the one at `open` (npos when unbalanced).
std::size_t closing(const std::string& s, std::size_t open, std::size_t end)
{
    const char o = s[open];
    const char c = o == '(' ? ')' : o == '[' ? ']' : '}';
    int depth = 0;
    for (std::size_t i = open; i < end; ++i) {
        if (s[i] == o)
            ++depth;
        else if (s[i] == c && --depth == 0)
            return i;
    }
    return npos;
}

std::size_t skipSpace(const std::string& s, std::size_t i, std::size_t end)
{
    while (i < end && std::isspace(static_cast<unsigned char>(s[i])))
        ++i;
    return i;
}

/// The last non-space index before `i` at or after `begin` (npos when none).
std::size_t prevNonSpace(const std::string& s, std::size_t i, std::size_t begin)
{
    while (i > begin) {
        --i;
        if (!std::isspace(static_cast<unsigned char>(s[i]))) return i;
    }
    return npos;
}

/// The identifier ending at index `last` (inclusive).
std::string identEndingAt(const std::string& s, std::size_t last, std::size_t begin)
{
    std::size_t b = last + 1;
    while (b > begin && isIdent(s[b - 1]))
        --b;
    return s.substr(b, last + 1 - b);
}

int lineAt(const std::string& s, std::size_t i)
{
    return 1 + static_cast<int>(std::count(s.begin(), s.begin() + static_cast<long>(i), '\n'));
}

/// The body of `__global__` kernel `name`: [first, last) inside its braces.
bool findBody(const std::string& code, const std::string& name, std::size_t& first,
              std::size_t& last)
{
    for (std::size_t at = code.find(name); at != npos; at = code.find(name, at + 1)) {
        const std::size_t end = at + name.size();
        if ((at > 0 && isIdent(code[at - 1])) || (end < code.size() && isIdent(code[end])))
            continue;
        // `__global__` in the same declaration, before the name.
        const std::size_t stmt = code.find_last_of(";}", at);
        const std::size_t global = code.rfind("__global__", at);
        if (global == npos || (stmt != npos && global < stmt)) continue;
        const std::size_t open = skipSpace(code, end, code.size());
        if (open >= code.size() || code[open] != '(') continue;
        const std::size_t close = closing(code, open, code.size());
        if (close == npos) return false;
        const std::size_t brace = code.find_first_of("{;", close);
        if (brace == npos || code[brace] == ';') continue; // a declaration
        const std::size_t endBrace = closing(code, brace, code.size());
        if (endBrace == npos) return false;
        first = brace + 1;
        last = endBrace;
        return true;
    }
    return false;
}

struct Seen {
    bool read = false, written = false, unknown = false;
    int readLine = 0, writeLine = 0;
    std::string why;
    void add(bool r, bool w, int line)
    {
        if (r && !read) readLine = line;
        if (w && !written) writeLine = line;
        read = read || r;
        written = written || w;
    }
    void doubt(std::string reason)
    {
        if (!unknown) why = std::move(reason);
        unknown = true;
    }
};

/// What the operator at `i` does to the lvalue before it: {read, written}.
std::pair<bool, bool> effectOfOperator(const std::string& s, std::size_t i, std::size_t end)
{
    i = skipSpace(s, i, end);
    if (i >= end) return {true, false};
    const char c = s[i], n = i + 1 < end ? s[i + 1] : '\0', n2 = i + 2 < end ? s[i + 2] : '\0';
    if (c == '=' && n != '=') return {false, true};
    if ((c == '+' && n == '+') || (c == '-' && n == '-')) return {true, true};
    if (std::string("+-*/%&|^").find(c) != npos && n == '=') return {true, true};
    if ((c == '<' || c == '>') && n == c && n2 == '=') return {true, true};
    return {true, false};
}

/// The call whose first argument the expression at `at` is in: its function's name, or "".
/// `inCall` says whether `at` is inside a call's parentheses at all (any argument).
std::string enclosingCall(const std::string& s, std::size_t at, std::size_t begin, bool& firstArg)
{
    int depth = 0;
    firstArg = true;
    for (std::size_t i = at; i > begin;) {
        --i;
        const char c = s[i];
        if (c == ')' || c == ']')
            ++depth;
        else if ((c == '(' || c == '[') && depth > 0)
            --depth;
        else if (c == ',' && depth == 0)
            firstArg = false;
        else if (c == ';' || c == '{' || c == '}')
            return {};
        else if (c == '(' && depth == 0) {
            const std::size_t p = prevNonSpace(s, i, begin);
            if (p == npos || !isIdent(s[p])) return {};
            const std::string name = identEndingAt(s, p, begin);
            // Control statements are not calls.
            for (const char* kw : {"if", "while", "for", "switch", "return", "sizeof"})
                if (name == kw) return {};
            return name;
        }
    }
    return {};
}

/// The variable a pointer expression starting at `at` initialises or is assigned to
/// (`float* row = p + k` → "row"), or "".
std::string aliasTarget(const std::string& s, std::size_t at, std::size_t begin)
{
    const std::size_t eq = prevNonSpace(s, at, begin);
    if (eq == npos || s[eq] != '=' || eq == begin) return {};
    const char before = s[eq - 1];
    if (std::string("=!<>+-*/%&|^").find(before) != npos) return {};
    const std::size_t name = prevNonSpace(s, eq, begin);
    if (name == npos || !isIdent(s[name])) return {};
    return identEndingAt(s, name, begin);
}

void scan(const std::string& code, std::size_t first, std::size_t last, const std::string& name,
          Seen& seen, int depth)
{
    for (std::size_t at = code.find(name, first); at != npos && at < last;
         at = code.find(name, at + 1)) {
        const std::size_t end = at + name.size();
        if ((at > first && isIdent(code[at - 1])) || (end < last && isIdent(code[end]))) continue;
        const std::size_t prev = prevNonSpace(code, at, first);
        // A member or a qualified name of the same spelling: not the parameter.
        if (prev != npos &&
            (code[prev] == '.' || (code[prev] == '>' && prev > first && code[prev - 1] == '-') ||
             (code[prev] == ':' && prev > first && code[prev - 1] == ':')))
            continue;
        const int line = lineAt(code, at);
        // The lvalue this occurrence starts: subscripts, then members of the pointee.
        std::size_t j = skipSpace(code, end, last);
        bool subscripted = false;
        for (;;) {
            if (j < last && code[j] == '[') {
                const std::size_t c = closing(code, j, last);
                if (c == npos) break;
                j = skipSpace(code, c + 1, last);
                subscripted = true;
            } else if (subscripted && j < last && code[j] == '.' && j + 1 < last &&
                       code[j + 1] != '.') {
                j = skipSpace(code, j + 1, last);
                while (j < last && isIdent(code[j]))
                    ++j;
                j = skipSpace(code, j, last);
            } else if (subscripted && j + 1 < last && code[j] == '-' && code[j + 1] == '>') {
                j = skipSpace(code, j + 2, last);
                while (j < last && isIdent(code[j]))
                    ++j;
                j = skipSpace(code, j, last);
            } else {
                break;
            }
        }
        const bool preIncrement = prev != npos && prev > first &&
                                  (code[prev] == '+' || code[prev] == '-') &&
                                  code[prev - 1] == code[prev];
        const bool addressOf =
            prev != npos && code[prev] == '&' && !(prev > first && code[prev - 1] == '&');
        const bool deref = prev != npos && code[prev] == '*';
        bool firstArg = true;
        const std::string call = enclosingCall(code, at, first, firstArg);
        const bool atomic = call.rfind("atomic", 0) == 0 && firstArg;
        const auto passedOn = [&](std::size_t from, const char* what) {
            if (const std::string alias = aliasTarget(code, from, first); !alias.empty()) {
                if (depth >= kAliasDepth) {
                    seen.doubt("copied into '" + alias + "' at line " + std::to_string(line) +
                               " (too many copies to follow)");
                    return;
                }
                scan(code, end, last, alias, seen, depth + 1);
                return;
            }
            if (atomic) {
                seen.add(true, true, line);
                return;
            }
            seen.doubt(std::string(what) + (call.empty() ? " at line " + std::to_string(line)
                                                         : " passed to " + call + "() at line " +
                                                               std::to_string(line)));
        };
        if (subscripted) {
            if (addressOf) {
                passedOn(prev, "an element's address");
                continue;
            }
            auto [r, w] = effectOfOperator(code, j, last);
            if (preIncrement) r = w = true;
            seen.add(r, w, line);
            continue;
        }
        if (deref) {
            auto [r, w] = effectOfOperator(code, j, last);
            if (prev > first && (code[prev - 1] == '+' || code[prev - 1] == '-') &&
                prev > first + 1 && code[prev - 2] == code[prev - 1])
                r = w = true;
            seen.add(r, w, line);
            continue;
        }
        // `*(p + i) …`: the operator after the parenthesis decides.
        if (prev != npos && code[prev] == '(') {
            const std::size_t star = prevNonSpace(code, prev, first);
            if (star != npos && code[star] == '*') {
                const std::size_t close = closing(code, prev, last);
                if (close != npos) {
                    seen.add(effectOfOperator(code, close + 1, last).first,
                             effectOfOperator(code, close + 1, last).second, line);
                    continue;
                }
            }
        }
        // The pointer itself: compared, or handed on.
        if (j + 1 < last && (code[j] == '=' || code[j] == '!') && code[j + 1] == '=') continue;
        if (prev != npos && code[prev] == '!') continue;
        if (addressOf) {
            seen.doubt("its address is taken at line " + std::to_string(line));
            continue;
        }
        if (j < last && code[j] == '=' && !(j + 1 < last && code[j + 1] == '=')) {
            seen.doubt("it is assigned at line " + std::to_string(line));
            continue;
        }
        passedOn(at, "the pointer is");
    }
}

} // namespace

const char* pointerAccessKindName(PointerAccess::Kind kind) noexcept
{
    switch (kind) {
    case PointerAccess::Kind::Unknown:
        return "unknown";
    case PointerAccess::Kind::Unused:
        return "unused";
    case PointerAccess::Kind::Read:
        return "read";
    case PointerAccess::Kind::Written:
        return "written";
    case PointerAccess::Kind::ReadWritten:
        return "read and written";
    }
    return "unknown";
}

std::map<std::string, PointerAccess>
PointerAccess::analyse(const std::string& source, const std::string& kernel,
                       const std::vector<std::string>& pointers, bool* bodyFound)
{
    std::map<std::string, PointerAccess> out;
    const std::string code = blanked(source);
    std::string name = kernel.substr(0, kernel.find('<'));
    std::size_t first = 0, last = 0;
    const bool found = !name.empty() && findBody(code, name, first, last);
    if (bodyFound) *bodyFound = found;
    if (!found) return out;
    for (const std::string& p : pointers) {
        Seen seen;
        scan(code, first, last, p, seen, 0);
        PointerAccess a;
        if (seen.unknown) {
            a.kind = Kind::Unknown;
            a.why = seen.why;
        } else if (seen.read && seen.written) {
            a.kind = Kind::ReadWritten;
            a.line = std::min(seen.readLine, seen.writeLine);
        } else if (seen.written) {
            a.kind = Kind::Written;
            a.line = seen.writeLine;
        } else if (seen.read) {
            a.kind = Kind::Read;
            a.line = seen.readLine;
        } else {
            a.kind = Kind::Unused;
        }
        out.emplace(p, std::move(a));
    }
    return out;
}

} // namespace wb::session
