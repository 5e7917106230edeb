// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/ModuleGlobals.h"

#include <cctype>

namespace wb::session {

namespace {

bool isIdentStart(char c)
{
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool isIdentChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

/// `source` with comments, string and character literals and preprocessor lines blanked
/// (newlines kept, so offsets and lines stay those of the source).
std::string blanked(const std::string& s)
{
    std::string out = s;
    std::size_t i = 0;
    bool lineStart = true;
    while (i < out.size()) {
        const char c = out[i];
        if (c == '\n') {
            lineStart = true;
            ++i;
            continue;
        }
        if (lineStart && c == '#') { // a directive, with its continuation lines
            while (i < out.size() && out[i] != '\n') {
                if (out[i] == '\\' && i + 1 < out.size() && out[i + 1] == '\n') ++i;
                if (out[i] != '\n') out[i] = ' ';
                ++i;
            }
            continue;
        }
        if (!std::isspace(static_cast<unsigned char>(c))) lineStart = false;
        if (c == '/' && i + 1 < out.size() && out[i + 1] == '/') {
            while (i < out.size() && out[i] != '\n')
                out[i++] = ' ';
        } else if (c == '/' && i + 1 < out.size() && out[i + 1] == '*') {
            out[i] = out[i + 1] = ' ';
            i += 2;
            while (i < out.size() && !(out[i] == '*' && i + 1 < out.size() && out[i + 1] == '/')) {
                if (out[i] != '\n') out[i] = ' ';
                ++i;
            }
            for (int k = 0; k < 2 && i < out.size(); ++k)
                out[i++] = ' ';
        } else if (c == '"' || c == '\'') {
            out[i++] = ' ';
            while (i < out.size() && out[i] != c && out[i] != '\n') {
                if (out[i] == '\\' && i + 1 < out.size()) out[i++] = ' ';
                out[i++] = ' ';
            }
            if (i < out.size() && out[i] == c) out[i++] = ' ';
        } else {
            ++i;
        }
    }
    return out;
}

struct Token {
    std::string text;
    std::size_t pos = 0;
};

std::vector<Token> tokens(const std::string& s)
{
    std::vector<Token> t;
    for (std::size_t i = 0; i < s.size();) {
        if (std::isspace(static_cast<unsigned char>(s[i]))) {
            ++i;
        } else if (isIdentStart(s[i])) {
            const std::size_t b = i;
            while (i < s.size() && isIdentChar(s[i]))
                ++i;
            t.push_back({s.substr(b, i - b), b});
        } else {
            t.push_back({std::string(1, s[i]), i});
            ++i;
        }
    }
    return t;
}

int lineOf(const std::string& s, std::size_t pos)
{
    int line = 1;
    for (std::size_t i = 0; i < pos && i < s.size(); ++i)
        line += s[i] == '\n';
    return line;
}

} // namespace

std::vector<ModuleGlobals::Declared> ModuleGlobals::scan(const std::string& source)
{
    const std::string clean = blanked(source);
    const std::vector<Token> t = tokens(clean);
    std::vector<Declared> out;
    std::vector<std::size_t> declToken; // the declarator's token, per entry of `out`
    int depth = 0;                      // braces of anything but a namespace
    std::vector<bool> namespaceBrace;
    std::size_t statementStart = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
        const std::string& x = t[i].text;
        if (x == ";" || x == "}") statementStart = i + 1;
        if (x == "{") {
            bool ns = false;
            for (std::size_t k = statementStart; k < i; ++k)
                ns = ns || t[k].text == "namespace" || t[k].text == "extern";
            namespaceBrace.push_back(ns);
            if (!ns) ++depth;
            statementStart = i + 1;
            continue;
        }
        if (x == "}") {
            if (!namespaceBrace.empty()) {
                if (!namespaceBrace.back()) --depth;
                namespaceBrace.pop_back();
            }
            continue;
        }
        if (depth != 0 || (x != "__constant__" && x != "__device__")) continue;
        bool skip = false;
        for (std::size_t k = statementStart; k < i; ++k)
            skip = skip || t[k].text == "template" || t[k].text == "extern";
        if (skip) continue;
        // The declarator: the identifier before the first [ = ; { , — a '(' makes a function.
        for (std::size_t k = i + 1; k < t.size(); ++k) {
            const std::string& y = t[k].text;
            if (y == "(" || y == "<" ||
                (x == "__device__" &&
                 (y == "__constant__" || y == "__shared__" || y == "__managed__")))
                break;
            if (y == "[" || y == "=" || y == ";" || y == "{" || y == ",") {
                if (k == i + 1 || !isIdentStart(t[k - 1].text[0])) break;
                Declared d;
                d.name = t[k - 1].text;
                d.line = lineOf(source, t[k - 1].pos);
                d.isConstant = x == "__constant__";
                for (std::size_t e = k; e < t.size() && t[e].text != ";"; ++e)
                    if (t[e].text == "=" || t[e].text == "{") d.initialised = true;
                out.push_back(d);
                declToken.push_back(k - 1);
                break;
            }
        }
    }
    for (std::size_t d = 0; d < out.size(); ++d)
        for (std::size_t i = 0; i < t.size() && !out[d].used; ++i)
            out[d].used = i != declToken[d] && t[i].text == out[d].name;
    return out;
}

std::vector<Diagnostic> ModuleGlobals::unsetConstantWarnings(const std::string& source,
                                                             const std::string& sourceName,
                                                             const Session& session)
{
    std::vector<Diagnostic> out;
    for (const Declared& d : scan(source)) {
        if (!d.isConstant || d.initialised || !d.used) continue;
        if (const BufferSpec* g = session.findGlobal(d.name); g && g->role != BufferRole::Out)
            continue;
        Diagnostic w;
        w.file = sourceName;
        w.line = d.line;
        w.severity = Severity::Warning;
        w.message = "__constant__ '" + d.name +
                    "' is read by the kernel but the project never sets it: it holds zeros (add "
                    "it to the project's \"globals\" with an initialiser)";
        out.push_back(std::move(w));
    }
    return out;
}

} // namespace wb::session
