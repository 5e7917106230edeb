// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/Npy.h"

#include "core/common/Error.h"
#include "core/common/UserFile.h"
#include "core/session/detail/FileUtil.h"

#include <cctype>
#include <cstring>
#include <limits>
#include <string_view>
#include <utility>
#include <vector>

namespace wb::session {

namespace {
[[noreturn]] void fail(const std::string& name, const std::string& what)
{
    throw Error(Error::Kind::Io, name + ": " + what);
}

std::optional<ElementType> typeOfDescr(std::string d, std::optional<ElementType> wanted)
{
    if (!d.empty() && (d[0] == '<' || d[0] == '|' || d[0] == '=')) d.erase(0, 1);
    if (wanted == ElementType::BF16 && (d == "u2" || d == "V2")) return ElementType::BF16;
    static const std::pair<const char*, ElementType> kMap[] = {
        {"f2", ElementType::F16}, {"f4", ElementType::F32}, {"f8", ElementType::F64},
        {"i1", ElementType::I8},  {"i2", ElementType::I16}, {"i4", ElementType::I32},
        {"i8", ElementType::I64}, {"u1", ElementType::U8},  {"u2", ElementType::U16},
        {"u4", ElementType::U32}, {"u8", ElementType::U64}, {"b1", ElementType::Bool},
    };
    for (const auto& [s, t] : kMap)
        if (d == s) return t;
    return std::nullopt;
}
/// The header dict, parsed as the format defines it: a Python literal dict with exactly the
/// keys 'descr' (a str, or a list for structured dtypes), 'fortran_order' (True or False) and
/// 'shape' (a tuple of non-negative ints: `()`, `(3,)`, `(2, 3)`, a trailing comma allowed),
/// whitespace between tokens, then only padding. Anything else is refused, naming the file.
struct NpyHeader {
    std::string descr;
    bool structured = false;
    bool fortran = false;
    std::vector<std::size_t> shape;
    bool shapeOverflow = false; ///< a dimension does not fit in size_t
    std::string shapeText;      ///< as written, for messages
};

class HeaderParser {
public:
    HeaderParser(std::string_view text, const std::string& name)
        : m_h(text)
        , m_name(name)
    {
    }

    NpyHeader parse()
    {
        NpyHeader out;
        bool seenDescr = false, seenFortran = false, seenShape = false;
        skipSpace();
        expect('{', "the header must be a Python dict literal ('{...}')");
        skipSpace();
        while (!at('}')) {
            const std::size_t keyAt = m_i;
            const std::string key = string("a key in quotes");
            skipSpace();
            expect(':', "expected ':' after the key '" + key + "'");
            skipSpace();
            if (key == "descr") {
                if (seenDescr) duplicate(key, keyAt);
                seenDescr = true;
                if (at('[')) {
                    out.structured = true;
                    return out; // refused by the caller with its own message
                }
                out.descr = string("'descr' must be a string");
            } else if (key == "fortran_order") {
                if (seenFortran) duplicate(key, keyAt);
                seenFortran = true;
                out.fortran = boolean();
            } else if (key == "shape") {
                if (seenShape) duplicate(key, keyAt);
                seenShape = true;
                shape(out);
            } else {
                fail("unexpected key '" + printable(key) +
                         "' (a .npy header has exactly 'descr', 'fortran_order' and 'shape')",
                     keyAt);
            }
            skipSpace();
            if (at(',')) {
                ++m_i;
                skipSpace();
            } else if (!at('}')) {
                fail("expected ',' or '}' after the value of '" + key + "'", m_i);
            }
        }
        ++m_i; // '}'
        for (; m_i < m_h.size(); ++m_i)
            if (!isSpace(m_h[m_i]))
                fail("unexpected text after the dict (only spaces and a newline may follow)", m_i);
        if (!seenDescr) missing("descr");
        if (!seenFortran) missing("fortran_order");
        if (!seenShape) missing("shape");
        return out;
    }

private:
    static bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
    static bool isDigit(char c) { return c >= '0' && c <= '9'; }
    bool at(char c) const { return m_i < m_h.size() && m_h[m_i] == c; }
    void skipSpace()
    {
        while (m_i < m_h.size() && isSpace(m_h[m_i]))
            ++m_i;
    }
    /// At most 40 characters of header text, control characters shown as '?'.
    static std::string printable(std::string_view s)
    {
        std::string out;
        for (const char c : s.substr(0, 40))
            out += static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f
                       ? '?'
                       : c;
        return s.size() > 40 ? out + "…" : out;
    }
    [[noreturn]] void fail(const std::string& what, std::size_t offset) const
    {
        const std::string found =
            offset < m_h.size() ? "\"" + printable(m_h.substr(offset)) + "\"" : "the end";
        throw Error(Error::Kind::Io, m_name + ": malformed .npy header: " + what + " (at offset " +
                                         std::to_string(offset) + " of the header, found " + found +
                                         ")");
    }
    [[noreturn]] void missing(const char* key) const
    {
        throw Error(Error::Kind::Io, m_name + ": malformed .npy header: no '" + key + "'");
    }
    [[noreturn]] void duplicate(const std::string& key, std::size_t offset) const
    {
        fail("the key '" + key + "' appears twice", offset);
    }
    void expect(char c, const std::string& what)
    {
        if (!at(c)) fail(what, m_i);
        ++m_i;
    }
    std::string string(const std::string& what)
    {
        if (!at('\'') && !at('"')) fail(what, m_i);
        const char quote = m_h[m_i];
        const std::size_t begin = ++m_i;
        while (m_i < m_h.size() && m_h[m_i] != quote) {
            if (m_h[m_i] == '\\' || m_h[m_i] == '\n')
                fail("escapes and line breaks are not allowed in a header string", m_i);
            ++m_i;
        }
        if (m_i >= m_h.size()) fail("unterminated string", begin - 1);
        return std::string(m_h.substr(begin, m_i++ - begin));
    }
    bool boolean()
    {
        for (const auto& [word, value] : {std::pair{std::string_view("True"), true},
                                          std::pair{std::string_view("False"), false}}) {
            if (m_h.substr(m_i, word.size()) != word) continue;
            const std::size_t end = m_i + word.size();
            if (end < m_h.size() &&
                (std::isalnum(static_cast<unsigned char>(m_h[end])) || m_h[end] == '_'))
                break;
            m_i = end;
            return value;
        }
        fail("'fortran_order' must be True or False", m_i);
    }
    void shape(NpyHeader& out)
    {
        const std::size_t open = m_i;
        expect('(', "'shape' must be a tuple of non-negative integers, e.g. (3,) or (2, 3)");
        skipSpace();
        std::size_t count = 0;
        bool trailingComma = false;
        while (!at(')')) {
            if (!isDigit(m_i < m_h.size() ? m_h[m_i] : '\0'))
                fail("'shape' must be a tuple of non-negative integers, e.g. (3,) or (2, 3)", m_i);
            const std::size_t begin = m_i;
            std::size_t d = 0;
            bool overflow = false;
            while (m_i < m_h.size() && isDigit(m_h[m_i])) {
                const auto digit = static_cast<std::size_t>(m_h[m_i] - '0');
                if (d > (std::numeric_limits<std::size_t>::max() - digit) / 10) overflow = true;
                d = d * 10 + digit;
                ++m_i;
            }
            if (m_i - begin > 1 && m_h[begin] == '0')
                fail("a dimension of 'shape' has a leading zero", begin);
            if (m_i < m_h.size() && (std::isalpha(static_cast<unsigned char>(m_h[m_i])) ||
                                     m_h[m_i] == '.' || m_h[m_i] == '_'))
                fail("a dimension of 'shape' must be a plain non-negative integer", begin);
            out.shapeOverflow = out.shapeOverflow || overflow;
            out.shape.push_back(overflow ? 0 : d);
            ++count;
            skipSpace();
            trailingComma = false;
            if (at(',')) {
                ++m_i;
                trailingComma = true;
                skipSpace();
            } else if (!at(')')) {
                fail("expected ',' or ')' in 'shape'", m_i);
            }
        }
        if (count == 1 && !trailingComma)
            fail("'shape' of one dimension needs a trailing comma, e.g. (3,): (3) is not a "
                 "tuple",
                 open);
        ++m_i; // ')'
        out.shapeText = std::string(m_h.substr(open, m_i - open));
    }

    std::string_view m_h;
    const std::string& m_name;
    std::size_t m_i = 0;
};

} // namespace

HostArray Npy::read(const std::filesystem::path& path, std::optional<ElementType> wanted)
{
    return parse(UserFile::read(path, UserFile::kMaxDataBytes, "the .npy file"), path.string(),
                 wanted);
}

HostArray Npy::parse(const std::string& bytes, const std::string& name,
                     std::optional<ElementType> wanted)
{
    static const char kMagic[] = "\x93NUMPY";
    if (bytes.size() < 10)
        fail(name, "not a .npy file (only " + std::to_string(bytes.size()) +
                       " bytes, shorter than the .npy preamble)");
    if (std::memcmp(bytes.data(), kMagic, 6) != 0)
        fail(name, "not a .npy file (wrong magic: expected \\x93NUMPY)");
    const auto major = static_cast<unsigned char>(bytes[6]);
    std::size_t headerLen = 0, headerStart = 0;
    if (major == 1) {
        headerLen = static_cast<unsigned char>(bytes[8]) |
                    static_cast<std::size_t>(static_cast<unsigned char>(bytes[9])) << 8;
        headerStart = 10;
    } else if (major == 2 || major == 3) {
        if (bytes.size() < 12) fail(name, "truncated .npy header");
        for (int i = 3; i >= 0; --i)
            headerLen =
                headerLen << 8 | static_cast<unsigned char>(bytes[8 + static_cast<std::size_t>(i)]);
        headerStart = 12;
    } else {
        fail(name, "unsupported .npy format version " + std::to_string(major) +
                       " (Warpbench reads versions 1, 2 and 3)");
    }
    if (bytes.size() < headerStart + headerLen)
        fail(name, "truncated .npy header (header says " + std::to_string(headerLen) +
                       " bytes, file has " + std::to_string(bytes.size() - headerStart) + ")");
    const std::string header = bytes.substr(headerStart, headerLen);

    // Hand-parsed, linear in the header's length (it is the file's text, up to 4 GiB in format
    // 2): std::regex recursed per character and overflowed the stack on long values.
    NpyHeader parsed = HeaderParser(header, name).parse();
    if (parsed.structured)
        fail(name, "structured dtypes are not supported (plain numeric arrays only)");
    const std::string& descr = parsed.descr;
    if (descr.find('O') != std::string::npos)
        fail(name, "object arrays (dtype 'O') are not supported: save a numeric array");
    if (!descr.empty() && descr[0] == '>' && descr.substr(1) != "i1" && descr.substr(1) != "u1")
        fail(name, "big-endian dtype '" + descr + "' is not supported: use astype('<" +
                       descr.substr(1) + "')");
    const std::optional<ElementType> type = typeOfDescr(descr, wanted);
    if (!type) fail(name, "unsupported dtype '" + descr + "'");
    if (parsed.fortran)
        fail(name, "Fortran-order arrays are not supported: save with np.ascontiguousarray(a)");

    std::vector<std::size_t> shape = std::move(parsed.shape);
    // The shape is checked against the bytes the file holds before anything is allocated: a
    // truncated or hostile header ("shape": (10**12, 10**12)) is an error, not a huge allocation.
    const std::size_t dataStart = headerStart + headerLen;
    const std::size_t available = bytes.size() - dataStart;
    const std::size_t elementBytes = elementSize(*type);
    std::size_t needed = elementBytes;
    bool overflow = parsed.shapeOverflow;
    for (const std::size_t d : shape) {
        if (d != 0 && needed > std::numeric_limits<std::size_t>::max() / d)
            overflow = true;
        else
            needed *= d;
    }
    const std::string_view dims = parsed.shapeText;
    if (shape.empty()) shape.push_back(1); // a 0-d array holds one element
    if (overflow)
        fail(name, "the header's shape " + std::string(dims) +
                       " is too large for any file (the file has " + std::to_string(available) +
                       " bytes of data)");
    if (available != needed)
        fail(name, "data size does not match the header: shape " + shapeToText(shape) + " of " +
                       elementTypeName(*type) + " needs " + std::to_string(needed) +
                       " bytes, the file has " + std::to_string(available));

    HostArray array(*type, shape);
    if (array.bytes()) std::memcpy(array.data(), bytes.data() + dataStart, array.bytes());
    return array;
}

std::string Npy::serialize(const HostArray& array)
{
    std::string shape = "(";
    for (std::size_t d : array.shape())
        shape += std::to_string(d) + ", ";
    if (array.shape().size() > 1)
        shape.resize(shape.size() - 2);
    else if (!array.shape().empty())
        shape.resize(shape.size() - 1);
    shape += ")";
    const std::string descr = array.type() == ElementType::BF16 ? "<u2" : npyDescr(array.type());
    std::string header =
        "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
    std::size_t preamble = 10;
    std::size_t total = preamble + header.size() + 1;
    if (total % 64) header.append(64 - total % 64, ' ');
    header += '\n';
    std::string out = std::string("\x93NUMPY", 6);
    if (header.size() > 65535) { // version 2.0: 4-byte header length
        preamble = 12;
        header.pop_back();
        while (header.back() == ' ')
            header.pop_back();
        total = preamble + header.size() + 1;
        if (total % 64) header.append(64 - total % 64, ' ');
        header += '\n';
        out += '\x02';
        out += '\x00';
        for (int i = 0; i < 4; ++i)
            out += static_cast<char>((header.size() >> (8 * i)) & 0xff);
    } else {
        out += '\x01';
        out += '\x00';
        out += static_cast<char>(header.size() & 0xff);
        out += static_cast<char>((header.size() >> 8) & 0xff);
    }
    out += header;
    out.append(reinterpret_cast<const char*>(array.data()), array.bytes());
    return out;
}

void Npy::write(const std::filesystem::path& path, const HostArray& array)
{
    detail::writeFileAtomically(path, serialize(array));
}

} // namespace wb::session
