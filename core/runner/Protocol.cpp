// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/runner/Protocol.h"

#include "core/common/Error.h"

#include <QJsonDocument>
#include <QJsonParseError>

#include <cerrno>
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

bool Protocol::take(std::vector<char>& buffer, Frame& frame)
{
    if (buffer.size() < kHeaderBytes) return false;
    if (get(buffer.data(), 4) != kMagic)
        throw Error(Error::Kind::Internal,
                    "runner protocol: the other side is not a Warpbench runner (bad frame magic)");
    const std::uint64_t length = get(buffer.data() + 8, 8);
    if (length > kMaxPayload)
        throw Error(Error::Kind::Internal,
                    "runner protocol: frame of " + std::to_string(length) + " bytes is too large");
    if (buffer.size() < kHeaderBytes + length) return false;
    frame.version = static_cast<std::uint16_t>(get(buffer.data() + 4, 2));
    frame.type = static_cast<Type>(get(buffer.data() + 6, 2));
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
    const std::uint64_t length = get(buffer.data() + 8, 8);
    if (get(buffer.data(), 4) == kMagic && length <= kMaxPayload) {
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
