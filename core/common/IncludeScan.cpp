// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/IncludeScan.h"

#include "core/common/Error.h"
#include "core/common/UserFile.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string_view>

namespace wb {

namespace fs = std::filesystem;

namespace {

/// At most this many user headers: a generated cycle of distinct names ends here.
constexpr std::size_t kMaxHeaders = 2000;

bool isIdentChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/// Comments become spaces (newlines kept); string and character literals stay, so that
/// `#include "name"` keeps its name and a "//" inside a literal starts no comment.
std::string blankComments(const std::string& s)
{
    std::string out = s;
    std::size_t i = 0;
    while (i < s.size()) {
        if (s.compare(i, 2, "//") == 0) {
            // A comment ends at the newline; a backslash before it continues it.
            while (i < s.size() && s[i] != '\n') {
                if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '\n') {
                    out[i] = ' ';
                    i += 2;
                    continue;
                }
                out[i++] = ' ';
            }
        } else if (s.compare(i, 2, "/*") == 0) {
            const std::size_t end = s.find("*/", i + 2);
            const std::size_t stop = end == std::string::npos ? s.size() : end + 2;
            for (; i < stop; ++i)
                if (out[i] != '\n') out[i] = ' ';
        } else if (s[i] == '"' || s[i] == '\'') {
            const char quote = s[i];
            if (quote == '\'' && i > 0 && isIdentChar(s[i - 1])) { // 1'000, u8'x' prefixes
                ++i;
                continue;
            }
            ++i;
            while (i < s.size() && s[i] != quote && s[i] != '\n')
                i += s[i] == '\\' ? 2 : 1;
            ++i;
        } else {
            ++i;
        }
    }
    return out;
}

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

/// `path` lies in `root` (both canonical).
bool inside(const fs::path& path, const fs::path& root)
{
    if (root.empty()) return false;
    auto p = path.begin();
    for (auto r = root.begin(); r != root.end(); ++r, ++p) {
        if (r->empty()) continue; // a trailing separator
        if (p == path.end() || *p != *r) return false;
    }
    return true;
}

fs::path canonicalOf(const fs::path& p)
{
    std::error_code ec;
    fs::path c = fs::weakly_canonical(p, ec);
    return ec ? p.lexically_normal() : c;
}

bool hasParentComponent(const std::string& name)
{
    for (const fs::path& part : fs::path(name))
        if (part == "..") return true;
    return false;
}

/// One directive found in a line: the keyword and the name with its delimiters.
struct Directive {
    std::string keyword;   ///< "include", "if", "define", ...
    std::size_t argBegin;  ///< offset of the text after the keyword, in the line
    std::string_view rest; ///< that text, trimmed
};

std::optional<Directive> directiveOf(std::string_view line)
{
    std::size_t i = 0;
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
        ++i;
    if (i >= line.size() || line[i] != '#') return std::nullopt;
    ++i;
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
        ++i;
    const std::size_t k = i;
    while (i < line.size() && isIdentChar(line[i]))
        ++i;
    Directive d;
    d.keyword = std::string(line.substr(k, i - k));
    d.argBegin = i;
    while (d.argBegin < line.size() && (line[d.argBegin] == ' ' || line[d.argBegin] == '\t'))
        ++d.argBegin;
    d.rest = trimmed(line.substr(i));
    return d;
}

struct Resolution {
    enum class Kind { User, System, Unresolved, Refused } kind = Kind::Unresolved;
    std::size_t header = 0; ///< User: index into the headers
    fs::path systemPath;    ///< System found by a name with '..' or an absolute one: where
    std::string why;        ///< Refused
};

class Scanner {
public:
    Scanner(const IncludePaths& paths,
            const std::function<std::string(std::size_t, const UserHeader&)>& nameOf)
        : m_nameOf(nameOf)
    {
        std::error_code ec;
        m_project = canonicalOf(!paths.projectDir.empty()  ? paths.projectDir
                                : !paths.sourceDir.empty() ? paths.sourceDir
                                                           : fs::current_path(ec));
        m_sourceDir = paths.sourceDir.empty() ? m_project : canonicalOf(paths.sourceDir);
        for (const fs::path& d : paths.includeDirs)
            m_includeDirs.push_back(canonicalOf(d));
        for (const fs::path& d : paths.systemDirs)
            m_systemDirs.push_back(canonicalOf(d));
    }

    IncludeScan run(const std::string& source, const std::string& sourceName)
    {
        IncludeScan out;
        out.rewritten = scanFile(source, m_sourceDir, sourceName, out);
        // Headers are appended while they are scanned: index, not iterator.
        for (std::size_t i = 0; i < out.headers.size(); ++i) {
            const std::string text = out.headers[i].text;
            const fs::path dir = out.headers[i].path.parent_path();
            const std::string display = out.headers[i].displayName;
            std::string rewritten = scanFile(text, dir, display, out);
            out.headers[i].rewritten = std::move(rewritten);
        }
        return out;
    }

private:
    bool userPlace(const fs::path& canonical) const
    {
        if (inside(canonical, m_project)) return true;
        return std::any_of(m_includeDirs.begin(), m_includeDirs.end(),
                           [&](const fs::path& d) { return inside(canonical, d); });
    }
    bool systemPlace(const fs::path& canonical) const
    {
        return std::any_of(m_systemDirs.begin(), m_systemDirs.end(),
                           [&](const fs::path& d) { return inside(canonical, d); });
    }

    std::string displayNameOf(const fs::path& canonical) const
    {
        if (inside(canonical, m_project)) return canonical.lexically_relative(m_project).string();
        return canonical.string();
    }

    /// The user header at `canonical`, read and registered once; nullopt with `why` set when
    /// it cannot be read (a FIFO, a device, too large).
    std::optional<std::size_t> userHeader(const fs::path& canonical, IncludeScan& out,
                                          std::string& why)
    {
        if (const auto it = m_index.find(canonical.string()); it != m_index.end())
            return it->second;
        if (out.headers.size() >= kMaxHeaders) {
            why = "more than " + std::to_string(kMaxHeaders) + " headers are included";
            return std::nullopt;
        }
        UserHeader h;
        h.path = canonical;
        h.displayName = displayNameOf(canonical);
        try {
            h.text = UserFile::read(canonical, UserFile::kMaxTextBytes, "the header");
        } catch (const Error& e) {
            why = h.displayName + ": cannot read the header: ";
            const std::string what = e.what();
            const std::string marker = ": cannot read the header: ";
            const std::size_t at = what.find(marker);
            why += at == std::string::npos ? what : what.substr(at + marker.size());
            return std::nullopt;
        }
        out.headers.push_back(std::move(h));
        m_index.emplace(canonical.string(), out.headers.size() - 1);
        return out.headers.size() - 1;
    }

    Resolution resolve(const std::string& name, bool quoted, const fs::path& dir, IncludeScan& out)
    {
        Resolution r;
        const auto refuse = [&](std::string why) {
            r.kind = Resolution::Kind::Refused;
            r.why = std::move(why);
            return r;
        };
        const auto found = [&](const fs::path& candidate,
                               bool userDir) -> std::optional<Resolution> {
            std::error_code ec;
            if (!fs::exists(fs::status(candidate, ec))) return std::nullopt;
            const fs::path canonical = canonicalOf(candidate);
            if (userPlace(canonical)) {
                std::string why;
                if (const auto index = userHeader(canonical, out, why)) {
                    Resolution u;
                    u.kind = Resolution::Kind::User;
                    u.header = *index;
                    return u;
                }
                Resolution bad;
                bad.kind = Resolution::Kind::Refused;
                bad.why = why;
                return bad;
            }
            if (systemPlace(canonical)) {
                Resolution s;
                s.kind = Resolution::Kind::System;
                // Found by way of a user folder ("../../cuda/include/x.h"): the compiler must
                // not repeat that lookup, so the directive names the file itself.
                if (userDir || name.front() == '/' || hasParentComponent(name))
                    s.systemPath = canonical;
                return s;
            }
            Resolution bad;
            bad.kind = Resolution::Kind::Refused;
            bad.why = kIncludeRule;
            return bad;
        };

        if (fs::path(name).is_absolute()) {
            if (auto f = found(name, true)) return *f;
            return refuse(kIncludeRule);
        }
        std::vector<std::pair<fs::path, bool>> candidates;
        if (quoted) {
            candidates.emplace_back(dir / name, true);
            candidates.emplace_back(m_project / name, true);
        }
        for (const fs::path& d : m_includeDirs)
            candidates.emplace_back(d / name, true);
        for (const fs::path& d : m_systemDirs)
            candidates.emplace_back(d / name, false);
        for (const auto& [candidate, userDir] : candidates)
            if (auto f = found(candidate, userDir)) return *f;
        if (hasParentComponent(name))
            return refuse("not found in the project folder, its includeDirs, the CUDA toolkit or "
                          "Warpbench's headers, and a name with '..' must resolve there");
        r.kind = Resolution::Kind::Unresolved;
        return r;
    }

    std::string scanFile(const std::string& text, const fs::path& dir, const std::string& display,
                         IncludeScan& out)
    {
        const std::string clean = blankComments(text);
        std::vector<std::pair<std::pair<std::size_t, std::size_t>, std::string>> edits;
        int skipDepth = 0; // > 0 inside an `#if 0` group (depth of nested conditionals)
        int lineNo = 0;
        std::size_t lineBegin = 0;
        while (lineBegin <= clean.size()) {
            ++lineNo;
            std::size_t lineEnd = clean.find('\n', lineBegin);
            if (lineEnd == std::string::npos) lineEnd = clean.size();
            const std::string_view line =
                std::string_view(clean).substr(lineBegin, lineEnd - lineBegin);
            const std::size_t here = lineBegin;
            lineBegin = lineEnd + 1;
            const std::optional<Directive> d = directiveOf(line);
            if (!d) {
                if (lineEnd == clean.size()) break;
                continue;
            }
            const std::string& kw = d->keyword;
            if (skipDepth > 0) {
                if (kw == "if" || kw == "ifdef" || kw == "ifndef")
                    ++skipDepth;
                else if (kw == "endif")
                    --skipDepth;
                else if ((kw == "else" || kw == "elif" || kw == "elifdef" || kw == "elifndef") &&
                         skipDepth == 1)
                    skipDepth = 0;
            } else if (kw == "if" && (d->rest == "0" || d->rest == "(0)")) {
                skipDepth = 1;
            } else if (kw == "define") {
                noteDefine(d->rest);
            } else if (kw == "include" || kw == "include_next" || kw == "import") {
                directive(text, here, *d, lineNo, dir, display, out, edits);
            }
            if (lineEnd == clean.size()) break;
        }
        std::string rewritten = text;
        std::sort(edits.begin(), edits.end(),
                  [](const auto& a, const auto& b) { return a.first.first > b.first.first; });
        for (const auto& [span, replacement] : edits)
            rewritten.replace(span.first, span.second, replacement);
        return rewritten;
    }

    /// `#define NAME "header"` / `#define NAME <header>`, for computed includes.
    void noteDefine(std::string_view rest)
    {
        std::size_t i = 0;
        while (i < rest.size() && isIdentChar(rest[i]))
            ++i;
        if (i == 0 || (i < rest.size() && rest[i] == '(')) return;
        const std::string name(rest.substr(0, i));
        const std::string_view value = trimmed(rest.substr(i));
        if (value.size() >= 2 && ((value.front() == '"' && value.back() == '"') ||
                                  (value.front() == '<' && value.back() == '>')))
            m_headerMacros[name] = std::string(value);
    }

    void directive(const std::string& text, std::size_t lineBegin, const Directive& d, int lineNo,
                   const fs::path& dir, const std::string& display, IncludeScan& out,
                   std::vector<std::pair<std::pair<std::size_t, std::size_t>, std::string>>& edits)
    {
        const auto fail = [&](const std::string& shown, const std::string& why) {
            Diagnostic diag;
            diag.file = display;
            diag.line = lineNo;
            diag.column = static_cast<int>(d.argBegin) + 1;
            diag.severity = Severity::Error;
            diag.message = "#" + d.keyword + " " + shown + ": " + why;
            out.errors.push_back(std::move(diag));
        };
        // The argument as written: "name", <name> or a macro.
        std::string_view arg = d.rest;
        std::size_t argLength = arg.size();
        std::string spelled;
        if (!arg.empty() && (arg.front() == '"' || arg.front() == '<')) {
            const std::size_t close = arg.find(arg.front() == '"' ? '"' : '>', 1);
            if (close == std::string_view::npos) return; // the compiler says what is wrong
            argLength = close + 1;
            spelled = std::string(arg.substr(0, argLength));
        } else {
            std::size_t i = 0;
            while (i < arg.size() && isIdentChar(arg[i]))
                ++i;
            const std::string macro(arg.substr(0, i));
            const auto it = m_headerMacros.find(macro);
            if (macro.empty() || it == m_headerMacros.end()) {
                fail(std::string(arg.substr(0, std::min<std::size_t>(arg.size(), 60))),
                     "a computed #include is supported only for a macro defined as \"header\" or "
                     "<header> in the kernel's own files: write the header's name");
                return;
            }
            argLength = i;
            spelled = it->second;
        }
        const bool quoted = spelled.front() == '"';
        const std::string name = spelled.substr(1, spelled.size() - 2);
        if (name.empty()) return;
        // The directive's argument in the original text (same offsets: only comments blanked).
        const std::size_t at = lineBegin + d.argBegin;
        if (text.size() < at + argLength) return;
        if (d.keyword == "include_next") {
            fail(spelled, "#include_next is not supported in kernel sources: use #include");
            return;
        }

        const Resolution r = resolve(name, quoted, dir, out);
        switch (r.kind) {
        case Resolution::Kind::Refused:
            fail(spelled, r.why);
            return;
        case Resolution::Kind::User:
            edits.push_back(
                {{at, argLength}, "\"" + m_nameOf(r.header, out.headers[r.header]) + "\""});
            return;
        case Resolution::Kind::System:
            if (!r.systemPath.empty())
                edits.push_back({{at, argLength}, "<" + r.systemPath.string() + ">"});
            else if (quoted)
                edits.push_back({{at, argLength}, "<" + name + ">"});
            else if (argLength != spelled.size() || text.compare(at, argLength, spelled) != 0)
                edits.push_back({{at, argLength}, spelled}); // a macro: written out
            break;
        case Resolution::Kind::Unresolved:
            if (quoted || text.compare(at, argLength, spelled) != 0)
                edits.push_back({{at, argLength}, "<" + name + ">"});
            break;
        }
        if (std::find(out.systemIncludes.begin(), out.systemIncludes.end(), name) ==
            out.systemIncludes.end())
            out.systemIncludes.push_back(name);
    }

    const std::function<std::string(std::size_t, const UserHeader&)>& m_nameOf;
    fs::path m_project;
    fs::path m_sourceDir;
    std::vector<fs::path> m_includeDirs;
    std::vector<fs::path> m_systemDirs;
    std::map<std::string, std::size_t> m_index;
    std::map<std::string, std::string> m_headerMacros;
};

} // namespace

IncludePaths includePathsOf(const CompileOptions& options, const std::string& sourceName,
                            std::vector<fs::path> systemDirs)
{
    std::error_code ec;
    const fs::path cwd = fs::current_path(ec);
    IncludePaths p;
    const fs::path named = fs::path(sourceName).parent_path();
    p.sourceDir = !options.sourceDir.empty() ? fs::path(options.sourceDir)
                  : !named.empty()           ? named
                                             : fs::path(options.projectDir);
    if (!p.sourceDir.empty()) p.sourceDir = cwd / p.sourceDir; // absolute stays absolute
    p.projectDir = !options.projectDir.empty() ? cwd / options.projectDir
                   : !p.sourceDir.empty()      ? p.sourceDir
                                               : cwd;
    if (p.sourceDir.empty()) p.sourceDir = p.projectDir;
    for (const std::string& d : options.includeDirs)
        p.includeDirs.push_back(p.projectDir / d);
    p.systemDirs = std::move(systemDirs);
    return p;
}

IncludeScan scanIncludes(const std::string& source, const std::string& sourceName,
                         const IncludePaths& paths,
                         const std::function<std::string(std::size_t, const UserHeader&)>& nameOf)
{
    Scanner scanner(paths, nameOf);
    return scanner.run(source, sourceName);
}

} // namespace wb
