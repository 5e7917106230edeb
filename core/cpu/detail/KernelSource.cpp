// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cpu/detail/KernelSource.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string_view>

namespace wb::cpu::detail {

namespace {

bool isIdentStart(char c)
{
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool isIdent(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

bool isBlank(char c)
{
    return std::isspace(static_cast<unsigned char>(c)) != 0;
}

/// `word` at `at` with no identifier character on either side.
bool wordAt(std::string_view s, std::size_t at, std::string_view word)
{
    return s.substr(at, word.size()) == word && (at == 0 || !isIdent(s[at - 1])) &&
           (at + word.size() >= s.size() || !isIdent(s[at + word.size()]));
}

/// Index of the first non-space at or after `at`.
std::size_t skipSpace(std::string_view s, std::size_t at)
{
    while (at < s.size() && isBlank(s[at]))
        ++at;
    return at;
}

std::string_view trimmedView(std::string_view s)
{
    while (!s.empty() && isBlank(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isBlank(s.back()))
        s.remove_suffix(1);
    return s;
}

/// An `extern __shared__ [__align__(N)] T name[];` declaration found by findDynamicShared.
struct DynamicShared {
    std::size_t begin = 0;
    std::size_t end = 0; ///< one past the ';'
    std::string type;
    std::string name;
};

/// `text` without the words `__shared__` and `__align__(…)` (balanced parentheses): what is
/// left of `extern <specifiers> T name` before the name is the element type, whatever order
/// the specifiers come in (`extern __shared__ float s[]`, `extern float __shared__ s[]`,
/// `extern __shared__ __align__(sizeof(T)) unsigned char s[]`). Empty when there is no
/// `__shared__` among them.
std::string dynamicSharedType(std::string_view text)
{
    std::string type;
    bool shared = false;
    std::size_t i = 0;
    while (i < text.size()) {
        if (isIdentStart(text[i]) && (i == 0 || !isIdent(text[i - 1]))) {
            std::size_t j = i;
            while (j < text.size() && isIdent(text[j]))
                ++j;
            const std::string_view word = text.substr(i, j - i);
            if (word == "__shared__") {
                shared = true;
                i = j;
                continue;
            }
            if (word == "__align__") {
                std::size_t k = skipSpace(text, j);
                if (k < text.size() && text[k] == '(') {
                    int depth = 0;
                    for (; k < text.size(); ++k) {
                        depth += text[k] == '(' ? 1 : text[k] == ')' ? -1 : 0;
                        if (depth == 0) break;
                    }
                    i = k < text.size() ? k + 1 : k;
                    continue;
                }
            }
            type.append(word);
            i = j;
            continue;
        }
        type.push_back(text[i]);
        ++i;
    }
    if (!shared) return {};
    const auto first = type.find_first_not_of(" \t\r\n");
    const auto last = type.find_last_not_of(" \t\r\n");
    if (first == std::string::npos) return {};
    // Runs of blanks (a removed specifier leaves two) become one space.
    std::string out;
    for (std::size_t k = first; k <= last; ++k) {
        if (isBlank(type[k])) {
            if (!out.empty() && out.back() != ' ') out.push_back(' ');
        } else {
            out.push_back(type[k]);
        }
    }
    return out;
}

/// The `extern … __shared__ … name[];` declarations of the blanked text, in order. Linear: each
/// candidate ends at the first of ";[]{}" after it, found once for all candidates before it.
std::vector<DynamicShared> findDynamicShared(std::string_view s)
{
    std::vector<DynamicShared> out;
    std::size_t lastStop = std::string_view::npos;
    std::size_t lastSemi = std::string_view::npos;
    for (std::size_t at = s.find("extern"); at != std::string_view::npos;
         at = s.find("extern", at + 1)) {
        if (!wordAt(s, at, "extern")) continue;
        const std::size_t typeBegin = skipSpace(s, at + 6);
        if (typeBegin == at + 6) continue;
        // Candidates before the last stop share it, and whether "[ ] ;" follows it: never scan
        // the same text twice.
        if (typeBegin > lastStop || lastStop == std::string_view::npos) {
            lastStop = s.find_first_of(";[]{}", typeBegin);
            if (lastStop == std::string_view::npos) lastStop = s.size();
            lastSemi = std::string_view::npos;
            if (lastStop < s.size() && s[lastStop] == '[') {
                const std::size_t close = skipSpace(s, lastStop + 1);
                const std::size_t semi =
                    close < s.size() && s[close] == ']' ? skipSpace(s, close + 1) : s.size();
                if (semi < s.size() && s[semi] == ';') lastSemi = semi;
            }
        }
        const std::size_t stop = lastStop;
        const std::size_t semi = lastSemi;
        if (semi == std::string_view::npos) continue;
        // The name: the identifier that ends the text before '['.
        std::size_t nameEnd = stop;
        while (nameEnd > typeBegin && isBlank(s[nameEnd - 1]))
            --nameEnd;
        std::size_t nameBegin = nameEnd;
        while (nameBegin > typeBegin && isIdent(s[nameBegin - 1]))
            --nameBegin;
        if (nameBegin == nameEnd || !isIdentStart(s[nameBegin])) {
            lastSemi = std::string_view::npos; // the same text before '[' fails them all
            continue;
        }
        std::string type = dynamicSharedType(s.substr(typeBegin, nameBegin - typeBegin));
        if (type.empty()) continue; // an extern that is not __shared__
        DynamicShared d;
        d.begin = at;
        d.end = semi + 1;
        d.type = std::move(type);
        d.name = std::string(s.substr(nameBegin, nameEnd - nameBegin));
        out.push_back(std::move(d));
        at = semi;
    }
    return out;
}

/// For `#include <name>` / `#include "name"` lines: the name's offset in the line, the name,
/// and whether it was in angle brackets. The name runs to the first '>' or '"'.
struct IncludeTarget {
    std::size_t pos = 0;
    std::string_view name;
    bool angle = false;
    char close = 0;
};

std::optional<IncludeTarget> includeTarget(std::string_view line)
{
    std::size_t i = 0;
    const auto skipTabs = [&] {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
            ++i;
    };
    skipTabs();
    if (i >= line.size() || line[i] != '#') return std::nullopt;
    ++i;
    skipTabs();
    if (line.substr(i, 7) != "include") return std::nullopt;
    i += 7;
    skipTabs();
    if (i >= line.size() || (line[i] != '<' && line[i] != '"')) return std::nullopt;
    IncludeTarget t;
    t.angle = line[i] == '<';
    t.pos = i + 1;
    const std::size_t end = line.find_first_of(">\"", t.pos);
    if (end == std::string_view::npos) return std::nullopt;
    t.name = line.substr(t.pos, end - t.pos);
    t.close = line[end];
    return t;
}

/// Headers the CPU emulator does not provide.
bool isRefusedHeader(std::string_view name)
{
    if (name == "mma.h" || name == "cuda/pipeline" || name == "cuda/barrier" ||
        name == "cuda_pipeline.h" || name == "texture_fetch_functions.h")
        return true;
    // cooperative_groups/<word>.h other than those the prelude provides
    constexpr std::string_view cg = "cooperative_groups/";
    if (name.substr(0, cg.size()) != cg || name.size() <= cg.size() + 2 ||
        name.substr(name.size() - 2) != ".h")
        return false;
    const std::string_view word = name.substr(cg.size(), name.size() - cg.size() - 2);
    if (word == "reduce" || word == "scan" || word == "memcpy_async") return false;
    return std::all_of(word.begin(), word.end(), isIdent);
}

struct Token {
    std::string text;
    std::size_t pos = 0;
};

/// Tokens of the blanked text, preprocessor lines skipped; punctuation one char per token
/// except "::" and "<<<".
std::vector<Token> tokenize(const std::string& text)
{
    std::vector<Token> out;
    std::size_t i = 0;
    bool lineStart = true;
    while (i < text.size()) {
        const char c = text[i];
        if (c == '\n') {
            lineStart = true;
            ++i;
            continue;
        }
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
            continue;
        }
        if (lineStart && c == '#') { // directive, with continuation lines
            while (i < text.size() && text[i] != '\n') {
                if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
                ++i;
            }
            continue;
        }
        lineStart = false;
        if (isIdentStart(c)) {
            const std::size_t b = i;
            while (i < text.size() && isIdent(text[i]))
                ++i;
            out.push_back({text.substr(b, i - b), b});
            continue;
        }
        if (std::isdigit(static_cast<unsigned char>(c))) {
            const std::size_t b = i;
            while (i < text.size() && (isIdent(text[i]) || text[i] == '.'))
                ++i;
            out.push_back({text.substr(b, i - b), b});
            continue;
        }
        if (text.compare(i, 3, "<<<") == 0) {
            out.push_back({"<<<", i});
            i += 3;
            continue;
        }
        if (text.compare(i, 2, "::") == 0) {
            out.push_back({"::", i});
            i += 2;
            continue;
        }
        out.push_back({std::string(1, c), i});
        ++i;
    }
    return out;
}

struct Position {
    int line = 1;
    int column = 1;
};

Position positionOf(const std::string& text, std::size_t pos)
{
    Position p;
    for (std::size_t i = 0; i < pos && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++p.line;
            p.column = 1;
        } else {
            ++p.column;
        }
    }
    return p;
}

const std::set<std::string, std::less<>>& syncNames()
{
    static const std::set<std::string, std::less<>> names = {
        "__syncthreads",     "__syncthreads_count", "__syncthreads_and", "__syncthreads_or",
        "__syncwarp",        "__shfl_sync",         "__shfl_up_sync",    "__shfl_down_sync",
        "__shfl_xor_sync",   "__ballot_sync",       "__any_sync",        "__all_sync",
        "__match_any_sync",  "__match_all_sync",    "__reduce_add_sync", "__reduce_min_sync",
        "__reduce_max_sync", "__reduce_and_sync",   "__reduce_or_sync",  "__reduce_xor_sync",
        "__activemask"};
    return names;
}

/// Constructs the emulator refuses, by identifier, with what to say.
const char* refusalFor(std::string_view ident)
{
    if (ident == "asm" || ident == "__asm__" || ident == "__asm")
        return "inline PTX assembly (asm) cannot run on the CPU emulator";
    if (ident == "this_multi_grid" || ident == "multi_grid_group" || ident == "cluster_group" ||
        ident == "this_cluster")
        return "cooperative groups across devices or thread-block clusters are not supported by "
               "the CPU emulator";
    if (ident == "texture" || ident == "tex1D" || ident == "tex2D" || ident == "tex3D" ||
        ident == "tex1Dfetch" || ident == "tex2DLayered" || ident == "texCubemap" ||
        ident == "cudaTextureObject_t" || ident == "tex2DLod")
        return "textures are not supported by the CPU emulator";
    if (ident == "surf1Dread" || ident == "surf1Dwrite" || ident == "surf2Dread" ||
        ident == "surf2Dwrite" || ident == "surf3Dread" || ident == "surf3Dwrite" ||
        ident == "cudaSurfaceObject_t")
        return "surfaces are not supported by the CPU emulator";
    if (ident == "wmma" || ident == "__cluster_dims__" || ident == "__pipeline_memcpy_async" ||
        ident == "__cvta_generic_to_shared")
        return "this GPU-specific feature is not supported by the CPU emulator";
    return nullptr;
}

std::size_t matching(const std::vector<Token>& t, std::size_t open)
{
    const std::string o = t[open].text;
    const std::string c = o == "(" ? ")" : o == "{" ? "}" : o == "[" ? "]" : ">";
    int depth = 0;
    for (std::size_t i = open; i < t.size(); ++i) {
        if (t[i].text == o)
            ++depth;
        else if (t[i].text == c && --depth == 0)
            return i;
    }
    return t.size();
}

/// A small evaluator of `#if` conditions: integers, macros with integer values, defined(X),
/// ! && || == != < > <= >= and parentheses. nullopt when the condition holds anything else or
/// names a macro whose value is not known.
class Condition {
public:
    Condition(std::string_view text, const std::map<std::string, std::string>& macros,
              const std::set<std::string, std::less<>>& undefined)
        : m_text(text)
        , m_macros(macros)
        , m_undefined(undefined)
    {
    }
    std::optional<long long> value()
    {
        std::optional<long long> v = orExpr();
        skip();
        if (m_at != m_text.size()) return std::nullopt;
        return v;
    }

private:
    void skip()
    {
        while (m_at < m_text.size() && isBlank(m_text[m_at]))
            ++m_at;
    }
    bool take(std::string_view op)
    {
        skip();
        if (m_text.substr(m_at, op.size()) != op) return false;
        // "<" must not take the first half of "<=", "!" of "!=", "&" of "&&" ...
        if (op.size() == 1 && m_at + 1 < m_text.size() &&
            ((op != "(" && op != ")" && m_text[m_at + 1] == '=') ||
             (op == "<" && m_text[m_at + 1] == '<') || (op == ">" && m_text[m_at + 1] == '>')))
            return false;
        m_at += op.size();
        return true;
    }
    static std::optional<long long> both(std::optional<long long> a, std::optional<long long> b,
                                         long long (*f)(long long, long long))
    {
        if (!a || !b) return std::nullopt;
        return f(*a, *b);
    }
    std::optional<long long> orExpr()
    {
        std::optional<long long> v = andExpr();
        while (take("||")) {
            const std::optional<long long> r = andExpr();
            // Known true on either side decides it.
            if ((v && *v) || (r && *r))
                v = 1;
            else
                v = both(v, r, [](long long, long long) { return 0LL; });
        }
        return v;
    }
    std::optional<long long> andExpr()
    {
        std::optional<long long> v = compare();
        while (take("&&")) {
            const std::optional<long long> r = compare();
            if ((v && !*v) || (r && !*r))
                v = 0;
            else
                v = both(v, r, [](long long, long long) { return 1LL; });
        }
        return v;
    }
    std::optional<long long> compare()
    {
        std::optional<long long> v = unary();
        for (;;) {
            if (take("=="))
                v = both(v, unary(), [](long long a, long long b) { return (long long)(a == b); });
            else if (take("!="))
                v = both(v, unary(), [](long long a, long long b) { return (long long)(a != b); });
            else if (take("<="))
                v = both(v, unary(), [](long long a, long long b) { return (long long)(a <= b); });
            else if (take(">="))
                v = both(v, unary(), [](long long a, long long b) { return (long long)(a >= b); });
            else if (take("<"))
                v = both(v, unary(), [](long long a, long long b) { return (long long)(a < b); });
            else if (take(">"))
                v = both(v, unary(), [](long long a, long long b) { return (long long)(a > b); });
            else
                return v;
        }
    }
    std::optional<long long> unary()
    {
        if (take("!")) {
            const std::optional<long long> v = unary();
            if (!v) return std::nullopt;
            return *v ? 0 : 1;
        }
        if (take("(")) {
            const std::optional<long long> v = orExpr();
            if (!take(")")) m_bad = true;
            return m_bad ? std::nullopt : v;
        }
        skip();
        if (m_at < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_at]))) {
            long long v = 0;
            bool digits = true;
            while (m_at < m_text.size() && isIdent(m_text[m_at])) {
                const char c = m_text[m_at++];
                if (digits && c >= '0' && c <= '9' && v < (1LL << 55))
                    v = v * 10 + (c - '0');
                else if (c == 'u' || c == 'U' || c == 'l' || c == 'L')
                    digits = false;
                else
                    m_bad = true; // hex, octal with letters ...: not evaluated
            }
            return m_bad ? std::nullopt : std::optional<long long>(v);
        }
        if (m_at < m_text.size() && isIdentStart(m_text[m_at])) {
            const std::size_t b = m_at;
            while (m_at < m_text.size() && isIdent(m_text[m_at]))
                ++m_at;
            const std::string name(m_text.substr(b, m_at - b));
            if (name == "defined") {
                const bool paren = take("(");
                skip();
                const std::size_t nb = m_at;
                while (m_at < m_text.size() && isIdent(m_text[m_at]))
                    ++m_at;
                const std::string_view macro = m_text.substr(nb, m_at - nb);
                if (paren && !take(")")) m_bad = true;
                if (m_bad || macro.empty()) return std::nullopt;
                return isDefined(macro);
            }
            const std::optional<long long> d = isDefined(name);
            if (!d) return std::nullopt;
            if (!*d) return 0; // an undefined name is 0 in #if
            const std::string& value = m_macros.at(name);
            if (value.empty()) return std::nullopt;
            Condition inner(value, m_macros, m_undefined);
            return ++m_depth < 16 ? inner.value() : std::nullopt;
        }
        m_bad = true;
        return std::nullopt;
    }
    /// 1, 0, or nullopt for a reserved name nobody defined here (the compiler may).
    std::optional<long long> isDefined(std::string_view name) const
    {
        if (const auto it = m_macros.find(std::string(name)); it != m_macros.end())
            return it->second == KernelSource::kUnknownMacro ? std::nullopt
                                                             : std::optional<long long>(1);
        if (m_undefined.count(name)) return 0;
        if (name.size() > 1 && name[0] == '_' && (name[1] == '_' || std::isupper(name[1])))
            return std::nullopt;
        return 0;
    }

    std::string_view m_text;
    const std::map<std::string, std::string>& m_macros;
    const std::set<std::string, std::less<>>& m_undefined;
    std::size_t m_at = 0;
    bool m_bad = false;
    int m_depth = 0;
};

/// Which lines of the (comment-blanked) text survive conditional compilation, as far as
/// Condition can tell: unknown conditions keep every branch. `macros` is updated with the file's
/// own #define and #undef on the way.
std::vector<char> activeLines(const std::string& clean, std::map<std::string, std::string> macros)
{
    std::set<std::string, std::less<>> undefined;
    struct Group {
        bool parentActive = true;
        bool active = true;
        bool taken = false;   // a known-true branch came
        bool unknown = false; // some branch was unknown: the rest stay active
    };
    std::vector<Group> groups;
    std::vector<char> active;
    const auto currentlyActive = [&] { return groups.empty() || groups.back().active; };
    std::size_t lineBegin = 0;
    while (lineBegin <= clean.size()) {
        std::size_t lineEnd = clean.find('\n', lineBegin);
        if (lineEnd == std::string::npos) lineEnd = clean.size();
        std::string line = clean.substr(lineBegin, lineEnd - lineBegin);
        std::size_t lines = 1;
        while (!line.empty() && line.back() == '\\' && lineEnd < clean.size()) {
            line.pop_back();
            const std::size_t next = clean.find('\n', lineEnd + 1);
            const std::size_t stop = next == std::string::npos ? clean.size() : next;
            line += clean.substr(lineEnd + 1, stop - lineEnd - 1);
            lineEnd = stop;
            ++lines;
        }
        std::string_view l = line;
        std::size_t i = skipSpace(l, 0);
        const bool wasActive = currentlyActive();
        if (i < l.size() && l[i] == '#') {
            i = skipSpace(l, i + 1);
            std::size_t k = i;
            while (k < l.size() && isIdent(l[k]))
                ++k;
            const std::string_view kw = l.substr(i, k - i);
            std::string_view rest = l.substr(k);
            const auto evaluate = [&](std::string_view expr) {
                return Condition(expr, macros, undefined).value();
            };
            const auto nameIn = [](std::string_view r) {
                std::size_t a = skipSpace(r, 0), b = a;
                while (b < r.size() && isIdent(r[b]))
                    ++b;
                return std::string(r.substr(a, b - a));
            };
            if (kw == "if" || kw == "ifdef" || kw == "ifndef") {
                Group g;
                g.parentActive = currentlyActive();
                std::optional<long long> v;
                if (kw == "if") {
                    v = evaluate(rest);
                } else {
                    const std::string n = nameIn(rest);
                    v = Condition(n, macros, undefined).value();
                    if (v) v = macros.count(n) ? 1 : 0; // defined, whatever its value
                    if (v && kw == "ifndef") v = *v ? 0 : 1;
                }
                g.unknown = !v;
                g.active = g.parentActive && (!v || *v != 0);
                g.taken = v && *v != 0;
                groups.push_back(g);
            } else if (kw == "elif" || kw == "elifdef" || kw == "elifndef") {
                if (!groups.empty()) {
                    Group& g = groups.back();
                    std::optional<long long> v;
                    if (kw == "elif") {
                        v = evaluate(rest);
                    } else {
                        const std::string n = nameIn(rest);
                        v = Condition(n, macros, undefined).value();
                        if (v) v = macros.count(n) ? 1 : 0;
                        if (v && kw == "elifndef") v = *v ? 0 : 1;
                    }
                    if (g.taken && !g.unknown) {
                        g.active = false;
                    } else {
                        g.active = g.parentActive && (!v || *v != 0);
                        g.taken = g.taken || (v && *v != 0);
                        g.unknown = g.unknown || !v;
                    }
                }
            } else if (kw == "else") {
                if (!groups.empty()) {
                    Group& g = groups.back();
                    g.active = g.parentActive && (g.unknown || !g.taken);
                }
            } else if (kw == "endif") {
                if (!groups.empty()) groups.pop_back();
            } else if (kw == "define" && wasActive) {
                const std::string n = nameIn(rest);
                const std::size_t after = rest.find(n) + n.size();
                if (!n.empty() && (after >= rest.size() || rest[after] != '(')) {
                    std::string value(trimmedView(rest.substr(after)));
                    macros[n] = value;
                } else if (!n.empty()) {
                    macros[n] = std::string(); // function-like: defined, value unknown
                }
                undefined.erase(n);
            } else if (kw == "undef" && wasActive) {
                const std::string n = nameIn(rest);
                macros.erase(n);
                undefined.insert(n);
            }
        }
        // A directive line itself declares nothing (the tokenizer skips it).
        for (std::size_t n = 0; n < lines; ++n)
            active.push_back(wasActive && currentlyActive() ? 1 : 0);
        if (lineEnd >= clean.size()) break;
        lineBegin = lineEnd + 1;
    }
    return active;
}

/// `clean` with the text of inactive lines blanked (newlines kept).
std::string withoutInactive(const std::string& clean, const std::vector<char>& active)
{
    std::string out = clean;
    std::size_t line = 0;
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (out[i] == '\n') {
            ++line;
            continue;
        }
        if (line < active.size() && !active[line]) out[i] = ' ';
    }
    return out;
}

} // namespace

std::string blankCommentsAndLiterals(const std::string& s)
{
    std::string out = s;
    std::size_t i = 0;
    const auto blank = [&](std::size_t b, std::size_t e) {
        for (std::size_t k = b; k < e && k < out.size(); ++k)
            if (out[k] != '\n') out[k] = ' ';
    };
    while (i < s.size()) {
        if (s.compare(i, 2, "//") == 0) {
            std::size_t e = s.find('\n', i);
            if (e == std::string::npos) e = s.size();
            blank(i, e);
            i = e;
        } else if (s.compare(i, 2, "/*") == 0) {
            std::size_t e = s.find("*/", i + 2);
            e = e == std::string::npos ? s.size() : e + 2;
            blank(i, e);
            i = e;
        } else if (s[i] == '"' || s[i] == '\'') {
            // Raw strings are rare in kernels; ordinary literals with escapes are handled.
            const char q = s[i];
            std::size_t e = i + 1;
            while (e < s.size() && s[e] != q && s[e] != '\n')
                e += s[e] == '\\' ? 2 : 1;
            e = std::min(e + 1, s.size());
            if (q == '\'' && i > 0 && std::isxdigit(static_cast<unsigned char>(s[i - 1]))) {
                ++i; // digit separator 1'000
                continue;
            }
            blank(i + 1, e - 1);
            i = e;
        } else {
            ++i;
        }
    }
    return out;
}

std::map<std::string, std::string> KernelSource::definedMacros(const std::string& source)
{
    std::map<std::string, std::string> out;
    const std::string clean = blankCommentsAndLiterals(source);
    std::size_t lineBegin = 0;
    while (lineBegin < clean.size()) {
        std::size_t lineEnd = clean.find('\n', lineBegin);
        if (lineEnd == std::string::npos) lineEnd = clean.size();
        const std::string_view line =
            std::string_view(clean).substr(lineBegin, lineEnd - lineBegin);
        std::size_t i = skipSpace(line, 0);
        if (i < line.size() && line[i] == '#') {
            i = skipSpace(line, i + 1);
            if (wordAt(line, i, "define")) {
                i = skipSpace(line, i + 6);
                std::size_t e = i;
                while (e < line.size() && isIdent(line[e]))
                    ++e;
                if (e > i)
                    out[std::string(line.substr(i, e - i))] =
                        e < line.size() && line[e] == '('
                            ? std::string()
                            : std::string(trimmedView(line.substr(e)));
            }
        }
        lineBegin = lineEnd + 1;
    }
    return out;
}

KernelSource KernelSource::scan(const std::string& source, const std::string& sourceName,
                                const std::map<std::string, std::string>& macros)
{
    KernelSource ks;
    std::map<std::string, std::string> known = macros;
    // The prelude's own (resources/prelude/warpbench/cuda_prelude.h).
    known.emplace("__CUDACC__", "1");
    known.emplace("__CUDA_ARCH__", "900");
    const std::string blanked = blankCommentsAndLiterals(source);
    const std::vector<char> active = activeLines(blanked, known);
    const std::string clean = withoutInactive(blanked, active);

    // Line-preserving rewrites on the original text, located through the blanked one; applied
    // after the scan below, which may blank whole ranges (refused kernels, texture references).
    std::vector<std::pair<std::size_t, std::pair<std::size_t, std::string>>> edits;
    std::vector<std::pair<std::size_t, std::size_t>> blanks;
    {
        for (const DynamicShared& d : findDynamicShared(clean)) {
            std::string type = d.type;
            while (!type.empty() && std::isspace(static_cast<unsigned char>(type.back())))
                type.pop_back();
            const std::string_view whole = std::string_view(clean).substr(d.begin, d.end - d.begin);
            std::string repl = "static thread_local " + type + " (&" + d.name +
                               ")[] = reinterpret_cast<" + type +
                               " (&)[]>(::wbcpu::dynamicShared);";
            repl += std::string(
                static_cast<std::size_t>(std::count(whole.begin(), whole.end(), '\n')), '\n');
            edits.push_back({d.begin, {whole.size(), repl}});
        }
        // "static __shared__": the static goes (a thread_local replaces it later).
        for (std::size_t at = clean.find("static"); at != std::string::npos;
             at = clean.find("static", at + 1)) {
            if (!wordAt(clean, at, "static")) continue;
            const std::size_t next = skipSpace(clean, at + 6);
            if (next > at + 6 && wordAt(clean, next, "__shared__"))
                edits.push_back({at, {6, "      "}});
        }
        {
            std::size_t lineBegin = 0;
            while (lineBegin < source.size()) {
                std::size_t lineEnd = source.find('\n', lineBegin);
                if (lineEnd == std::string::npos) lineEnd = source.size();
                const std::string_view line =
                    std::string_view(source).substr(lineBegin, lineEnd - lineBegin);
                if (const auto inc = includeTarget(line);
                    inc && inc->angle && inc->close == '>' &&
                    (inc->name == "cassert" || inc->name == "assert.h"))
                    edits.push_back({lineBegin, {line.size(), std::string()}});
                lineBegin = lineEnd + 1;
            }
        }
    }

    // Includes of unsupported headers.
    {
        std::size_t lineBegin = 0;
        int lineNo = 1;
        while (lineBegin <= clean.size()) {
            std::size_t lineEnd = clean.find('\n', lineBegin);
            if (lineEnd == std::string::npos) lineEnd = clean.size();
            const std::string_view line =
                std::string_view(source).substr(lineBegin, lineEnd - lineBegin);
            const bool lineActive =
                static_cast<std::size_t>(lineNo - 1) >= active.size() || active[lineNo - 1];
            if (const auto inc = includeTarget(line);
                lineActive && inc && isRefusedHeader(inc->name)) {
                Diagnostic d;
                d.file = sourceName;
                d.line = lineNo;
                d.column = static_cast<int>(inc->pos) + 1;
                d.message = "the header <";
                d.message += inc->name;
                d.message += "> is not supported by the CPU emulator: run this kernel on the CUDA "
                             "backend";
                ks.refusals.push_back(d);
            }
            if (lineEnd == clean.size()) break;
            lineBegin = lineEnd + 1;
            ++lineNo;
        }
    }

    const std::vector<Token> t = tokenize(clean);
    struct Scope {
        std::string name; // namespace name; empty for other braces
        bool isNamespace = false;
        bool externC = false;
    };
    std::vector<Scope> scopes;
    std::set<std::string, std::less<>> seenKernels;
    std::size_t statementStart = 0; // index of the first token of the current declaration
    // The __global__ declaration or definition being read: tokens up to `last` belong to it.
    struct Current {
        std::string name;
        std::size_t last = 0;
        bool set = false;
    } current;
    const auto inKernel = [&](std::size_t i) { return current.set && i <= current.last; };
    std::map<std::string, std::vector<Diagnostic>> kernelRefusals;
    std::map<std::string, std::vector<std::pair<std::size_t, std::size_t>>> kernelRanges;

    const auto qualify = [&](const std::string& name) {
        std::string q;
        for (const Scope& s : scopes)
            if (s.isNamespace && !s.name.empty()) q += s.name + "::";
        return q + name;
    };
    const auto insideExternC = [&] {
        return std::any_of(scopes.begin(), scopes.end(), [](const Scope& s) { return s.externC; });
    };

    for (std::size_t i = 0; i < t.size(); ++i) {
        const std::string& tok = t[i].text;
        if (tok == ";" || tok == "}") statementStart = i + 1;
        if (tok == "{") {
            Scope s;
            // namespace a::b {  /  namespace {  /  extern "C" {
            std::size_t k = i;
            std::string ns;
            while (k > 0 && (isIdentStart(t[k - 1].text[0]) || t[k - 1].text == "::") &&
                   t[k - 1].text != "namespace") {
                ns = t[k - 1].text + ns;
                --k;
            }
            if (k > 0 && t[k - 1].text == "namespace") {
                s.isNamespace = true;
                s.name = ns;
            } else if (i >= 3 && t[i - 1].text == "\"" && t[i - 3].text == "extern") {
                s.externC = true; // extern "C" { — the literal's inside is blanked
            }
            scopes.push_back(s);
            statementStart = i + 1;
            continue;
        }
        if (tok == "}") {
            if (!scopes.empty()) scopes.pop_back();
            continue;
        }
        if (tok == "<<<") {
            const Position p = positionOf(source, t[i].pos);
            Diagnostic d{sourceName,
                         p.line,
                         p.column,
                         Severity::Error,
                         {},
                         "launching kernels from device code (dynamic parallelism, '<<<') is not "
                         "supported by the CPU emulator",
                         {}};
            if (inKernel(i))
                kernelRefusals[current.name].push_back(std::move(d));
            else
                ks.refusals.push_back(std::move(d));
            continue;
        }
        if (!isIdentStart(tok[0])) continue;
        // Cooperative groups synchronise through the same barriers and warp operations.
        if (syncNames().count(tok) || tok == "cooperative_groups") ks.needsFibers = true;
        if (const char* why = refusalFor(tok)) {
            const Position p = positionOf(source, t[i].pos);
            Diagnostic d{sourceName,
                         p.line,
                         p.column,
                         Severity::Error,
                         {},
                         std::string(why) + " ('" + tok + "'): run this kernel on the CUDA backend",
                         {}};
            const bool atNamespaceScope =
                std::all_of(scopes.begin(), scopes.end(),
                            [](const Scope& x) { return x.isNamespace || x.externC; });
            if (inKernel(i)) {
                kernelRefusals[current.name].push_back(std::move(d));
            } else if ((tok == "texture" || tok == "surface") && atNamespaceScope &&
                       i + 1 < t.size() && t[i + 1].text == "<") {
                // A texture reference at namespace scope: it goes, and only the kernels that
                // use it are refused.
                std::size_t end = i;
                while (end < t.size() && t[end].text != ";")
                    ++end;
                if (end < t.size()) {
                    blanks.emplace_back(t[i].pos, t[end].pos + 1);
                    i = end;
                    statementStart = end + 1;
                } else {
                    ks.refusals.push_back(std::move(d));
                }
            } else {
                ks.refusals.push_back(std::move(d));
            }
            continue;
        }
        if (tok == "__constant__") {
            // The declarator name: the identifier before the first [ = ; { , at depth 0.
            for (std::size_t k = i + 1; k < t.size(); ++k) {
                const std::string& x = t[k].text;
                if (x == "[" || x == "=" || x == ";" || x == "{" || x == ",") {
                    if (k > i + 1 && isIdentStart(t[k - 1].text[0]))
                        ks.constants.push_back(qualify(t[k - 1].text));
                    break;
                }
            }
            continue;
        }
        if (tok == "__device__" && std::all_of(scopes.begin(), scopes.end(), [](const Scope& s) {
                return s.isNamespace || s.externC;
            })) {
            // A __device__ variable at namespace scope is a module global (set and read back
            // like a __constant__): the declarator name is the identifier before the first
            // [ = ; { , — a '(' first makes it a function. Not a template, an extern
            // declaration, or a __constant__/__shared__ one (registered, or not a global).
            bool skip = false;
            for (std::size_t k = statementStart; k < i; ++k)
                skip = skip || t[k].text == "template" || t[k].text == "extern";
            for (std::size_t k = i + 1; k < t.size() && !skip; ++k) {
                const std::string& x = t[k].text;
                if (x == "(" || x == "__constant__" || x == "__shared__" || x == "__managed__" ||
                    x == "template" || x == "<" || x == "extern")
                    break;
                if (x == "[" || x == "=" || x == ";" || x == "{" || x == ",") {
                    if (k > i + 1 && isIdentStart(t[k - 1].text[0]))
                        ks.constants.push_back(qualify(t[k - 1].text));
                    break;
                }
            }
            continue;
        }
        if (tok != "__global__") continue;

        ScannedKernel kernel;
        kernel.line = positionOf(source, t[i].pos).line;
        for (std::size_t k = statementStart; k < i; ++k) {
            if (t[k].text == "template") kernel.isTemplate = true;
            if (t[k].text == "extern" && source.find("\"C\"", t[k].pos) < t[i].pos)
                kernel.externC = true;
        }
        kernel.externC = kernel.externC || insideExternC();
        // Find the parameter list: the first '(' at depth 0 not belonging to an attribute.
        std::size_t k = i + 1;
        std::size_t open = t.size();
        while (k < t.size()) {
            const std::string& x = t[k].text;
            if (x == "__launch_bounds__" || x == "__attribute__" || x == "__maxnreg__" ||
                x == "alignas" || x == "__align__") {
                if (k + 1 < t.size() && t[k + 1].text == "(") {
                    k = matching(t, k + 1) + 1;
                    continue;
                }
            }
            if (x == "[" && k + 1 < t.size() && t[k + 1].text == "[") { // [[attribute]]
                k = matching(t, k) + 1;
                continue;
            }
            if (x == "(") {
                open = k;
                break;
            }
            if (x == ";" || x == "{") break;
            ++k;
        }
        if (open == t.size() || open == 0 || !isIdentStart(t[open - 1].text[0])) continue;
        std::string name = t[open - 1].text;
        for (std::size_t q = open - 1;
             q >= 2 && t[q - 1].text == "::" && isIdentStart(t[q - 2].text[0]); q -= 2)
            name = t[q - 2].text + "::" + name;
        kernel.name = name.find("::") == std::string::npos ? qualify(name) : name;
        const std::size_t close = matching(t, open);
        // Split the parameters at depth-0 commas.
        std::vector<std::vector<const Token*>> params(1);
        int depth = 0;
        for (std::size_t p = open + 1; p < close && p < t.size(); ++p) {
            const std::string& x = t[p].text;
            if (x == "(" || x == "[" || x == "{" || x == "<") ++depth;
            if (x == ")" || x == "]" || x == "}" || x == ">") --depth;
            if (x == "," && depth == 0) {
                params.emplace_back();
                continue;
            }
            params.back().push_back(&t[p]);
        }
        if (params.size() == 1 &&
            (params[0].empty() || (params[0].size() == 1 && params[0][0]->text == "void")))
            params.clear();
        for (std::size_t p = 0; p < params.size(); ++p) {
            auto& toks = params[p];
            // Drop a default argument and array brackets.
            auto eq = std::find_if(toks.begin(), toks.end(),
                                   [](const Token* x) { return x->text == "="; });
            toks.erase(eq, toks.end());
            while (!toks.empty() &&
                   (toks.back()->text == "]" ||
                    std::isdigit(static_cast<unsigned char>(toks.back()->text[0])))) {
                auto lb = std::find_if(toks.rbegin(), toks.rend(),
                                       [](const Token* x) { return x->text == "["; });
                if (lb == toks.rend()) break;
                toks.erase(std::prev(lb.base()), toks.end());
            }
            std::string pname;
            if (toks.size() >= 2 && isIdentStart(toks.back()->text[0])) {
                static const std::set<std::string, std::less<>> notNames = {
                    "int",      "float",        "double",     "char",    "short",
                    "long",     "unsigned",     "signed",     "bool",    "const",
                    "volatile", "__restrict__", "__restrict", "restrict"};
                if (!notNames.count(toks.back()->text)) pname = toks.back()->text;
            }
            // Trace mode: `T* [qualifiers] name` with T not const becomes traced_ptr<T>.
            if (!pname.empty()) {
                std::size_t star = toks.size();
                for (std::size_t q = 0; q + 1 < toks.size(); ++q)
                    if (toks[q]->text == "*") star = q;
                bool ok = star < toks.size() && star > 0;
                std::string pointee;
                for (std::size_t q = 0; ok && q < star; ++q) {
                    const std::string& x = toks[q]->text;
                    if (x == "const" || x == "*" || x == "&" || x == "volatile")
                        ok = false;
                    else if (x != "__restrict__" && x != "__restrict" && x != "restrict")
                        pointee += (pointee.empty() ? "" : " ") + x;
                }
                for (std::size_t q = star + 1; ok && q + 1 < toks.size(); ++q)
                    if (toks[q]->text == "*" || toks[q]->text == "&") ok = false;
                if (ok && !pointee.empty()) {
                    ScannedKernel::TypeEdit e;
                    e.begin = toks.front()->pos;
                    e.end = toks.back()->pos;
                    const std::string replaced = source.substr(e.begin, e.end - e.begin);
                    e.replacement = "::wbcpu::traced_ptr<" + pointee + "> " +
                                    std::string(static_cast<std::size_t>(std::count(
                                                    replaced.begin(), replaced.end(), '\n')),
                                                '\n');
                    kernel.tracedParams.push_back(std::move(e));
                }
            }
            kernel.paramNames.push_back(pname.empty() ? "param" + std::to_string(p) : pname);
        }
        // The declaration ends at its body's '}' or at its ';'.
        std::size_t last = close;
        if (close + 1 < t.size() && t[close + 1].text == "{") {
            kernel.defined = true;
            last = matching(t, close + 1);
        } else {
            while (last < t.size() && t[last].text != ";")
                ++last;
        }
        if (last >= t.size()) last = t.size() - 1;
        current = {kernel.name, last, true};
        kernelRanges[kernel.name].emplace_back(t[std::min(statementStart, i)].pos, t[last].pos + 1);
        kernel.file = sourceName;
        ks.traceEdits.insert(ks.traceEdits.end(), kernel.tracedParams.begin(),
                             kernel.tracedParams.end());
        if (seenKernels.insert(kernel.name).second) {
            ks.kernels.push_back(std::move(kernel));
        } else if (kernel.defined) {
            // A forward declaration came first: the definition's parameter names are the ones
            // its body uses (and the ones a project binds).
            for (ScannedKernel& k : ks.kernels)
                if (k.name == kernel.name && !k.defined) {
                    k.paramNames = kernel.paramNames;
                    k.defined = true;
                }
        }
    }

    // Refused kernels: every declaration and definition goes from the compiled text.
    for (auto& [name, refusals] : kernelRefusals) {
        for (const auto& range : kernelRanges[name])
            blanks.push_back(range);
        for (ScannedKernel& k : ks.kernels)
            if (k.name == name) k.refusals = std::move(refusals);
    }
    std::string rewritten = source;
    const auto insideBlank = [&](std::size_t pos) {
        return std::any_of(blanks.begin(), blanks.end(),
                           [pos](const auto& b) { return pos >= b.first && pos < b.second; });
    };
    for (const auto& [begin, end] : blanks)
        edits.push_back({begin, {end - begin, std::string()}});
    std::sort(edits.begin(), edits.end(),
              [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [pos, e] : edits) {
        const bool isBlank =
            e.second.empty() && std::find(blanks.begin(), blanks.end(),
                                          std::make_pair(pos, pos + e.first)) != blanks.end();
        if (isBlank) {
            for (std::size_t k = pos; k < pos + e.first && k < rewritten.size(); ++k)
                if (rewritten[k] != '\n') rewritten[k] = ' ';
        } else if (!insideBlank(pos)) {
            rewritten.replace(pos, e.first, e.second);
        }
    }
    ks.rewritten = std::move(rewritten);
    return ks;
}

std::string KernelSource::withTracedPointers(const std::string& source,
                                             const std::map<std::string, std::string>& macros)
{
    const KernelSource ks = scan(source, "kernel.cu", macros);
    // Every declaration and definition alike: a forward declaration left as `float*` would
    // declare a second overload beside the traced definition.
    std::vector<ScannedKernel::TypeEdit> edits = ks.traceEdits;
    std::sort(edits.begin(), edits.end(),
              [](const auto& a, const auto& b) { return a.begin > b.begin; });
    std::string out = source;
    for (const auto& e : edits)
        out.replace(e.begin, e.end - e.begin, e.replacement);
    return out;
}

} // namespace wb::cpu::detail
