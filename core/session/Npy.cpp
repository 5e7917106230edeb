// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/Npy.h"

#include "core/common/Error.h"
#include "core/common/UserFile.h"
#include "core/session/detail/FileUtil.h"

#include <cctype>
#include <cstring>
#include <limits>
#include <string_view>

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

    // Hand-parsed (the header is the file's text, up to 4 GiB in format 2): std::regex
    // recursed per character and overflowed the stack on long values.
    const std::string_view h = header;
    const auto isSpace = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
    // The offset just after "'key'\s*:\s*" of the first occurrence for which `accept` holds.
    const auto valueOf = [&](std::string_view key, const auto& accept) -> bool {
        for (std::size_t at = h.find(key); at != std::string_view::npos; at = h.find(key, at + 1)) {
            std::size_t i = at + key.size();
            while (i < h.size() && isSpace(h[i]))
                ++i;
            if (i >= h.size() || h[i] != ':') continue;
            ++i;
            while (i < h.size() && isSpace(h[i]))
                ++i;
            if (accept(i)) return true;
        }
        return false;
    };
    bool structured = false;
    std::string descr;
    if (!valueOf("'descr'", [&](std::size_t i) {
            if (i < h.size() && h[i] == '[') return structured = true;
            if (i >= h.size() || h[i] != '\'') return false;
            const std::size_t close = h.find('\'', i + 1);
            if (close == std::string_view::npos) return false;
            descr = std::string(h.substr(i + 1, close - i - 1));
            return true;
        }))
        fail(name, "malformed .npy header: no 'descr'");
    if (structured) fail(name, "structured dtypes are not supported (plain numeric arrays only)");
    if (descr.find('O') != std::string::npos)
        fail(name, "object arrays (dtype 'O') are not supported: save a numeric array");
    if (!descr.empty() && descr[0] == '>' && descr.substr(1) != "i1" && descr.substr(1) != "u1")
        fail(name, "big-endian dtype '" + descr + "' is not supported: use astype('<" +
                       descr.substr(1) + "')");
    const std::optional<ElementType> type = typeOfDescr(descr, wanted);
    if (!type) fail(name, "unsupported dtype '" + descr + "'");

    bool fortran = false;
    if (!valueOf("'fortran_order'", [&](std::size_t i) {
            if (h.substr(i, 4) == "True") return fortran = true;
            return h.substr(i, 5) == "False";
        }))
        fail(name, "malformed .npy header: no 'fortran_order'");
    if (fortran)
        fail(name, "Fortran-order arrays are not supported: save with np.ascontiguousarray(a)");

    std::string_view dims;
    if (!valueOf("'shape'", [&](std::size_t i) {
            if (i >= h.size() || h[i] != '(') return false;
            const std::size_t close = h.find(')', i + 1);
            if (close == std::string_view::npos) return false;
            dims = h.substr(i + 1, close - i - 1);
            return true;
        }))
        fail(name, "malformed .npy header: no 'shape'");
    std::vector<std::size_t> shape;
    // The shape is checked against the bytes the file holds before anything is allocated: a
    // truncated or hostile header ("shape": (10**12, 10**12)) is an error, not a huge allocation.
    const std::size_t dataStart = headerStart + headerLen;
    const std::size_t available = bytes.size() - dataStart;
    const std::size_t elementBytes = elementSize(*type);
    std::size_t needed = elementBytes;
    bool overflow = false;
    for (std::size_t i = 0; i < dims.size();) {
        if (dims[i] < '0' || dims[i] > '9') {
            ++i;
            continue;
        }
        std::size_t d = 0;
        for (; i < dims.size() && dims[i] >= '0' && dims[i] <= '9'; ++i) {
            const auto digit = static_cast<std::size_t>(dims[i] - '0');
            if (d > (std::numeric_limits<std::size_t>::max() - digit) / 10) {
                overflow = true;
                d = 0;
                while (i < dims.size() && dims[i] >= '0' && dims[i] <= '9')
                    ++i;
                break;
            }
            d = d * 10 + digit;
        }
        if (d != 0 && needed > std::numeric_limits<std::size_t>::max() / d)
            overflow = true;
        else
            needed *= d;
        shape.push_back(d);
    }
    if (shape.empty()) shape.push_back(1); // a 0-d array holds one element
    if (overflow)
        fail(name, "the header's shape (" + std::string(dims) +
                       ") is too large for any file (the file has " + std::to_string(available) +
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
