// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/debug/MiParser.h"

namespace wb::debug {

const MiValue* MiValue::find(std::string_view name) const noexcept
{
    for (const auto& [n, v] : items)
        if (n == name) return &v;
    return nullptr;
}

std::string MiValue::text(std::string_view name, std::string fallback) const
{
    const MiValue* v = find(name);
    return v && v->kind == Kind::String ? v->string : fallback;
}

namespace {

class Reader {
public:
    explicit Reader(std::string_view s)
        : m_s(s)
    {
    }
    bool atEnd() const { return m_at >= m_s.size(); }
    char peek() const { return atEnd() ? '\0' : m_s[m_at]; }
    std::size_t pos() const { return m_at; }
    bool eat(char c)
    {
        if (peek() != c || atEnd()) return false;
        ++m_at;
        return true;
    }
    std::string_view rest() const { return m_s.substr(m_at); }

    bool fail(std::string why)
    {
        if (m_error.empty()) m_error = why + " at column " + std::to_string(m_at + 1);
        return false;
    }
    const std::string& error() const { return m_error; }

    /// [A-Za-z_-][A-Za-z0-9_-]* (variable and class names).
    bool name(std::string& out)
    {
        const std::size_t begin = m_at;
        while (!atEnd()) {
            const char c = m_s[m_at];
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '-' ||
                (m_at > begin && c >= '0' && c <= '9'))
                ++m_at;
            else
                break;
        }
        if (m_at == begin) return fail("expected a name");
        out.assign(m_s.substr(begin, m_at - begin));
        return true;
    }

    bool cstring(std::string& out)
    {
        if (!eat('"')) return fail("expected '\"'");
        out.clear();
        while (!atEnd()) {
            const char c = m_s[m_at++];
            if (c == '"') return true;
            if (c != '\\') {
                out += c;
                continue;
            }
            if (atEnd()) break;
            const char e = m_s[m_at++];
            switch (e) {
            case 'n':
                out += '\n';
                break;
            case 't':
                out += '\t';
                break;
            case 'r':
                out += '\r';
                break;
            case 'f':
                out += '\f';
                break;
            case 'v':
                out += '\v';
                break;
            case 'a':
                out += '\a';
                break;
            case 'b':
                out += '\b';
                break;
            case 'e':
                out += '\x1b';
                break;
            case '0':
            case '1':
            case '2':
            case '3':
            case '4':
            case '5':
            case '6':
            case '7': {
                unsigned v = static_cast<unsigned>(e - '0');
                for (int k = 0; k < 2 && !atEnd() && m_s[m_at] >= '0' && m_s[m_at] <= '7'; ++k)
                    v = v * 8 + static_cast<unsigned>(m_s[m_at++] - '0');
                out += static_cast<char>(v & 0xffu);
                break;
            }
            default:
                out += e;
                break; // \" \\ and anything else: the character itself
            }
        }
        return fail("unterminated string");
    }

    bool value(MiValue& out, int depth)
    {
        if (depth > kMiMaxDepth) return fail("nesting deeper than " + std::to_string(kMiMaxDepth));
        const char c = peek();
        if (c == '"') {
            out.kind = MiValue::Kind::String;
            return cstring(out.string);
        }
        if (c == '{') {
            ++m_at;
            out.kind = MiValue::Kind::Tuple;
            if (eat('}')) return true;
            do {
                std::pair<std::string, MiValue> r;
                if (!result(r, depth + 1)) return false;
                out.items.push_back(std::move(r));
            } while (eat(','));
            return eat('}') || fail("expected '}'");
        }
        if (c == '[') {
            ++m_at;
            out.kind = MiValue::Kind::List;
            if (eat(']')) return true;
            do {
                std::pair<std::string, MiValue> r;
                const char d = peek();
                if (d == '"' || d == '{' || d == '[') {
                    if (!value(r.second, depth + 1)) return false;
                } else if (!result(r, depth + 1)) {
                    return false;
                }
                out.items.push_back(std::move(r));
            } while (eat(','));
            return eat(']') || fail("expected ']'");
        }
        return fail("expected a value");
    }

    bool result(std::pair<std::string, MiValue>& out, int depth)
    {
        if (!name(out.first)) return false;
        if (!eat('=')) return fail("expected '='");
        return value(out.second, depth);
    }

private:
    std::string_view m_s;
    std::size_t m_at = 0;
    std::string m_error;
};

} // namespace

std::optional<MiRecord> parseMiLine(std::string_view line, std::string* error)
{
    const auto failed = [&](std::string why) -> std::optional<MiRecord> {
        if (error) *error = std::move(why);
        return std::nullopt;
    };
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n'))
        line.remove_suffix(1);
    MiRecord rec;
    {
        std::string_view p = line;
        while (!p.empty() && p.back() == ' ')
            p.remove_suffix(1);
        if (p == "(gdb)") return rec;
    }
    Reader r(line);
    // Optional token: digits.
    std::size_t digits = 0;
    std::uint64_t token = 0;
    while (!r.atEnd() && r.peek() >= '0' && r.peek() <= '9') {
        if (++digits > 19) return failed("token too long");
        token = token * 10 + static_cast<std::uint64_t>(r.peek() - '0');
        r.eat(r.peek());
    }
    if (digits) rec.token = token;
    const char kind = r.peek();
    if (r.atEnd()) return failed("empty line");
    r.eat(kind);
    switch (kind) {
    case '~':
    case '@':
    case '&': {
        if (digits) return failed("a stream record has no token");
        rec.type = kind == '~'   ? MiRecord::Type::ConsoleStream
                   : kind == '@' ? MiRecord::Type::TargetStream
                                 : MiRecord::Type::LogStream;
        if (!r.cstring(rec.text)) return failed(r.error());
        if (!r.atEnd()) return failed("text after the string");
        return rec;
    }
    case '^':
        rec.type = MiRecord::Type::Result;
        break;
    case '*':
        rec.type = MiRecord::Type::ExecAsync;
        break;
    case '+':
        rec.type = MiRecord::Type::StatusAsync;
        break;
    case '=':
        rec.type = MiRecord::Type::NotifyAsync;
        break;
    default:
        return failed("not an MI record");
    }
    if (!r.name(rec.cls)) return failed(r.error());
    rec.results.kind = MiValue::Kind::Tuple;
    while (r.eat(',')) {
        std::pair<std::string, MiValue> item;
        if (!r.result(item, 1)) return failed(r.error());
        rec.results.items.push_back(std::move(item));
    }
    if (!r.atEnd()) return failed("unexpected text after the record");
    return rec;
}

std::string miQuote(std::string_view text)
{
    std::string out = "\"";
    for (const char c : text) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            out += c;
            break;
        }
    }
    return out + "\"";
}

} // namespace wb::debug
