// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/runner/BufferCodec.h"

#include "core/common/Error.h"
#include "core/session/ReportJson.h"

#include <QJsonArray>

#include <cstring>

namespace wb::runner {

namespace {

std::string ss(const QJsonValue& v)
{
    return v.toString().toStdString();
}

using session::json::dim;
using session::json::sizes;

} // namespace

QJsonObject BufferCodec::arrayHeader(const session::HostArray& a)
{
    return QJsonObject{{"type", session::elementTypeName(a.type())}, {"shape", sizes(a.shape())}};
}

session::HostArray BufferCodec::arrayFromHeader(const QJsonObject& o, std::uint64_t maxBytes)
{
    const auto type = session::parseElementType(ss(o["type"]));
    if (!type)
        throw Error(Error::Kind::Internal,
                    "runner protocol: unknown element type " + ss(o["type"]));
    const std::vector<std::size_t> shape = sizes(o["shape"]);
    // The size is checked before anything is allocated: a shape from a misbehaving runner must
    // be an error message, not std::bad_alloc.
    std::uint64_t bytes = elementSize(*type);
    for (std::size_t d : shape)
        if (d == 0) bytes = 0;
    for (std::size_t d : shape) {
        if (bytes == 0) break;
        if (bytes > maxBytes / d)
            throw Error(Error::Kind::Internal,
                        "runner protocol: a buffer of shape " + session::shapeToText(shape) +
                            " is larger than the " + std::to_string(maxBytes) +
                            " bytes the runner sent for it");
        bytes *= d;
    }
    if (bytes > maxBytes)
        throw Error(Error::Kind::Internal, "runner protocol: a buffer of shape " +
                                               session::shapeToText(shape) +
                                               " is larger than the " + std::to_string(maxBytes) +
                                               " bytes the runner sent for it");
    return session::HostArray(*type, shape);
}

namespace {

template <typename T> session::HostArray toArray(session::ElementType type, const std::vector<T>& v)
{
    session::HostArray a(type, {v.size()});
    if (!v.empty()) std::memcpy(a.data(), v.data(), v.size() * sizeof(T));
    return a;
}

template <typename T>
std::vector<T> fromArray(std::map<std::string, session::HostArray>& arrays, const std::string& key,
                         std::size_t count)
{
    const auto it = arrays.find(key);
    if (it == arrays.end() || it->second.bytes() != count * sizeof(T))
        throw Error(Error::Kind::Internal,
                    "runner protocol: trace array '" + key + "' is missing or of the wrong size");
    std::vector<T> v(count);
    if (count) std::memcpy(v.data(), it->second.data(), count * sizeof(T));
    arrays.erase(it);
    return v;
}

} // namespace

QJsonObject BufferCodec::traceHeader(const WriteTrace& t)
{
    return QJsonObject{{"buffer", QString::fromStdString(t.buffer)},
                       {"shape", sizes(t.shape)},
                       {"elementSize", static_cast<double>(t.elementSize)},
                       {"grid", dim(t.grid)},
                       {"block", dim(t.block)},
                       {"count", static_cast<double>(t.count())},
                       {"untraced", static_cast<double>(t.untraced)}};
}

std::map<std::string, session::HostArray> BufferCodec::traceArrays(const WriteTrace& t)
{
    using session::ElementType;
    const std::string p = t.buffer + "/";
    std::map<std::string, session::HostArray> out;
    out.emplace(p + "lastWriter", toArray(ElementType::I64, t.lastWriter));
    out.emplace(p + "writes", toArray(ElementType::I32, t.writes));
    out.emplace(p + "atomicWrites", toArray(ElementType::I32, t.atomicWrites));
    out.emplace(p + "multipleWriters", toArray(ElementType::U8, t.multipleWriters));
    out.emplace(p + "untracedMask", toArray(ElementType::U8, t.untracedMask));
    return out;
}

WriteTrace BufferCodec::traceFromParts(const QJsonObject& h,
                                       std::map<std::string, session::HostArray>& arrays)
{
    WriteTrace t;
    t.buffer = ss(h["buffer"]);
    t.shape = sizes(h["shape"]);
    t.elementSize = static_cast<std::size_t>(h["elementSize"].toDouble());
    t.grid = dim(h["grid"]);
    t.block = dim(h["block"]);
    t.untraced = static_cast<std::size_t>(h["untraced"].toDouble());
    const auto n = static_cast<std::size_t>(h["count"].toDouble());
    const std::string p = t.buffer + "/";
    t.lastWriter = fromArray<std::uint64_t>(arrays, p + "lastWriter", n);
    t.writes = fromArray<std::uint32_t>(arrays, p + "writes", n);
    t.atomicWrites = fromArray<std::uint32_t>(arrays, p + "atomicWrites", n);
    t.multipleWriters = fromArray<std::uint8_t>(arrays, p + "multipleWriters", n);
    t.untracedMask = fromArray<std::uint8_t>(arrays, p + "untracedMask", n);
    return t;
}

} // namespace wb::runner
