// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/runner/Protocol.h"

#include "core/common/Error.h"

#include <QJsonDocument>
#include <QJsonParseError>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace wb::runner {

namespace {

void put(std::vector<char>& out, std::uint64_t value, int bytes)
{
    for (int i = 0; i < bytes; ++i)
        out.push_back(static_cast<char>((value >> (8 * i)) & 0xffu));
}

std::uint64_t get(const char* p, int bytes)
{
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i)
        v |= std::uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
    return v;
}

} // namespace

QJsonObject Protocol::Frame::json() const
{
    QJsonParseError e{};
    const QJsonDocument d = QJsonDocument::fromJson(
        QByteArray::fromRawData(payload.data(), static_cast<qsizetype>(payload.size())), &e);
    if (e.error != QJsonParseError::NoError || !d.isObject())
        throw Error(Error::Kind::Internal, std::string("runner protocol: malformed ") +
                                               typeName(type) +
                                               " frame: " + e.errorString().toStdString());
    return d.object();
}

std::vector<char> Protocol::encode(Type type, const QJsonObject& json, std::uint16_t version)
{
    const QByteArray b = QJsonDocument(json).toJson(QJsonDocument::Compact);
    return encode(type, b.constData(), static_cast<std::size_t>(b.size()), version);
}

std::vector<char> Protocol::encode(Type type, const char* data, std::size_t size,
                                   std::uint16_t version)
{
    std::vector<char> out;
    out.reserve(kHeaderBytes + size);
    put(out, kMagic, 4);
    put(out, version, 2);
    put(out, static_cast<std::uint16_t>(type), 2);
    put(out, size, 8);
    out.insert(out.end(), data, data + size);
    return out;
}

std::string Protocol::quote(const char* data, std::size_t size, std::size_t max)
{
    std::string out;
    for (std::size_t i = 0; i < size && i < max; ++i) {
        const auto c = static_cast<unsigned char>(data[i]);
        if (c == '\n')
            out += "\\n";
        else if (c == '"' || c == '\\')
            out += std::string("\\") + static_cast<char>(c);
        else if (c >= 0x20 && c < 0x7f)
            out += static_cast<char>(c);
        else {
            char b[8];
            std::snprintf(b, sizeof b, "\\x%02x", c);
            out += b;
        }
    }
    return size > max ? out + "…" : out;
}

bool Protocol::knownType(std::uint16_t type) noexcept
{
    return type >= static_cast<std::uint16_t>(Type::Hello) &&
           type <= static_cast<std::uint16_t>(Type::Progress);
}

std::uint64_t Protocol::payloadLimit(Type type) noexcept
{
    switch (type) {
    case Type::Blob:
        return kMaxPayload;
    case Type::Run:
    case Type::Report:
        return kMaxDocumentPayload;
    default:
        return kMaxSmallPayload;
    }
}

bool Protocol::take(std::vector<char>& buffer, Frame& frame)
{
    if (buffer.size() < kHeaderBytes) {
        // Say at once when what arrives cannot become a frame (text from a shell, say).
        static const char magic[] = {'W', 'B', 'R', 'N'};
        const std::size_t n = std::min<std::size_t>(buffer.size(), 4);
        if (!std::equal(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(n), magic))
            throw Error(Error::Kind::Internal,
                        "runner protocol: the other side is not a Warpbench runner: it sent \"" +
                            quote(buffer.data(), buffer.size()) + "\"");
        return false;
    }
    if (get(buffer.data(), 4) != kMagic)
        throw Error(Error::Kind::Internal,
                    "runner protocol: the other side is not a Warpbench runner: it sent \"" +
                        quote(buffer.data(), buffer.size()) + "\"");
    const std::uint64_t length = get(buffer.data() + 8, 8);
    const auto version = static_cast<std::uint16_t>(get(buffer.data() + 4, 2));
    const auto type = static_cast<std::uint16_t>(get(buffer.data() + 6, 2));
    if (version == kVersion && !knownType(type))
        throw Error(Error::Kind::Internal,
                    "runner protocol: unknown frame type " + std::to_string(type));
    const std::uint64_t limit =
        version == kVersion ? payloadLimit(static_cast<Type>(type)) : kMaxPayload;
    if (length > limit)
        throw Error(Error::Kind::Internal,
                    "runner protocol: a frame of type " +
                        (version == kVersion ? std::string(typeName(static_cast<Type>(type)))
                                             : std::to_string(type)) +
                        " with " + std::to_string(length) + " bytes, more than the " +
                        std::to_string(limit) + " such a frame may have");
    if (buffer.size() < kHeaderBytes + length) return false;
    frame.version = version;
    frame.type = static_cast<Type>(type);
    const auto begin = buffer.begin() + static_cast<std::ptrdiff_t>(kHeaderBytes);
    const auto end = begin + static_cast<std::ptrdiff_t>(length);
    frame.payload.assign(begin, end);
    buffer.erase(buffer.begin(), end);
    return true;
}

void Protocol::writeAll(int fd, const std::vector<char>& bytes)
{
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw Error(Error::Kind::Io,
                        std::string("runner protocol: write: ") + std::strerror(errno));
        }
        done += static_cast<std::size_t>(n);
    }
}

bool Protocol::readFrame(int fd, Frame& frame)
{
    std::vector<char> buffer(kHeaderBytes);
    std::size_t have = 0;
    auto fill = [&](std::size_t want) {
        while (have < want) {
            const ssize_t n = ::read(fd, buffer.data() + have, want - have);
            if (n == 0) return false;
            if (n < 0) {
                if (errno == EINTR) continue;
                throw Error(Error::Kind::Io,
                            std::string("runner protocol: read: ") + std::strerror(errno));
            }
            have += static_cast<std::size_t>(n);
        }
        return true;
    };
    if (!fill(kHeaderBytes)) {
        if (have == 0) return false;
        throw Error(Error::Kind::Io, "runner protocol: stream ended inside a frame header");
    }
    // take() judges the header (magic, type, length) before the payload is read.
    Frame probe;
    std::vector<char> header(buffer);
    take(header, probe);
    const std::uint64_t length = get(buffer.data() + 8, 8);
    {
        buffer.resize(kHeaderBytes + length);
        if (!fill(buffer.size()))
            throw Error(Error::Kind::Io, "runner protocol: stream ended inside a frame");
    }
    if (!take(buffer, frame)) throw Error(Error::Kind::Internal, "runner protocol: short frame");
    return true;
}

const char* Protocol::typeName(Type type) noexcept
{
    switch (type) {
    case Type::Hello:
        return "hello";
    case Type::Run:
        return "run";
    case Type::Report:
        return "report";
    case Type::Blob:
        return "blob";
    case Type::Stats:
        return "stats";
    case Type::Quit:
        return "quit";
    case Type::Error:
        return "error";
    case Type::Progress:
        return "progress";
    }
    return "unknown";
}

} // namespace wb::runner
