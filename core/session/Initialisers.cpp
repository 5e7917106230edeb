// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/Initialisers.h"

#include "core/common/Error.h"
#include "core/common/UserFile.h"
#include "core/session/ImageCodec.h"
#include "core/session/Npy.h"

#include <cmath>
#include <cstring>
#include <numbers>

namespace wb::session {

namespace {
void checkCount(const HostArray& loaded, const HostArray& target, const std::string& field,
                const std::string& path)
{
    if (loaded.count() != target.count())
        throw Error(Error::Kind::Io, field + ": " + path + " holds " +
                                         std::to_string(loaded.count()) + " elements (shape " +
                                         shapeToText(loaded.shape()) + ") but the buffer has " +
                                         std::to_string(target.count()) + " (shape " +
                                         shapeToText(target.shape()) + ")");
}

void convertInto(const HostArray& from, HostArray& to)
{
    if (from.type() == to.type()) {
        std::memcpy(to.data(), from.data(), to.bytes());
        return;
    }
    for (std::size_t i = 0; i < to.count(); ++i)
        to.set(i, from.at(i));
}
} // namespace

HostArray Initialisers::make(const BufferSpec& buffer, const std::vector<std::size_t>& shape,
                             const Expression& expr, const Session& session,
                             const std::string& field)
{
    HostArray a(buffer.type, shape);
    const Initialiser& in = buffer.init;
    const std::size_t n = a.count();
    switch (in.kind) {
    case Initialiser::Kind::Zeros:
        break;
    case Initialiser::Kind::Constant: {
        const double v = expr.evaluate(in.value, field + ".value");
        for (std::size_t i = 0; i < n; ++i)
            a.set(i, v);
        break;
    }
    case Initialiser::Kind::Iota: {
        const double start = expr.evaluate(in.start, field + ".start");
        const double step = expr.evaluate(in.step, field + ".step");
        for (std::size_t i = 0; i < n; ++i)
            a.set(i, start + step * static_cast<double>(i));
        break;
    }
    case Initialiser::Kind::Linspace: {
        const double start = expr.evaluate(in.start, field + ".start");
        const double stop = expr.evaluate(in.stop, field + ".stop");
        const double step = n > 1 ? (stop - start) / static_cast<double>(n - 1) : 0.0;
        for (std::size_t i = 0; i < n; ++i)
            a.set(i, start + step * static_cast<double>(i));
        if (n > 1) a.set(n - 1, stop);
        break;
    }
    case Initialiser::Kind::Uniform: {
        const double low = expr.evaluate(in.low, field + ".low");
        const double high = expr.evaluate(in.high, field + ".high");
        if (high < low)
            throw Error(Error::Kind::InvalidArgument, field + ": high must not be below low");
        std::mt19937_64 gen(in.seed);
        const bool fp = isFloatingPoint(buffer.type);
        for (std::size_t i = 0; i < n; ++i) {
            const double u = uniform01(gen());
            a.set(i, fp ? low + (high - low) * u
                        : std::min(high, std::floor(low + u * (high - low + 1.0))));
        }
        break;
    }
    case Initialiser::Kind::Normal: {
        const double mean = expr.evaluate(in.mean, field + ".mean");
        const double stddev = expr.evaluate(in.stddev, field + ".stddev");
        std::mt19937_64 gen(in.seed);
        for (std::size_t i = 0; i < n; i += 2) {
            const double u1 = static_cast<double>((gen() >> 11) + 1) * 0x1.0p-53;
            const double u2 = uniform01(gen());
            const double r = std::sqrt(-2.0 * std::log(u1));
            const double t = 2.0 * std::numbers::pi * u2;
            a.set(i, mean + stddev * r * std::cos(t));
            if (i + 1 < n) a.set(i + 1, mean + stddev * r * std::sin(t));
        }
        break;
    }
    case Initialiser::Kind::Npy: {
        const auto path = session.resolve(in.path);
        HostArray loaded = Npy::read(path, buffer.type);
        checkCount(loaded, a, field, path.string());
        convertInto(loaded, a);
        break;
    }
    case Initialiser::Kind::Bin: {
        const auto path = session.resolve(in.path);
        // The exact size is known: a larger file is refused before it is read.
        const std::string bytes = UserFile::read(
            path, a.bytes(),
            "the .bin input of " + field + " (" + std::to_string(a.bytes()) + " bytes expected)");
        if (bytes.size() != a.bytes())
            throw Error(Error::Kind::Io,
                        field + ": " + path.string() + " has " + std::to_string(bytes.size()) +
                            " bytes but the buffer needs " + std::to_string(a.bytes()) + " (" +
                            std::to_string(n) + " x " + elementTypeName(buffer.type) + ")");
        std::memcpy(a.data(), bytes.data(), a.bytes());
        break;
    }
    case Initialiser::Kind::Image: {
        const int channels = in.channels == "rgba" ? 4 : in.channels == "rgb" ? 3 : 1;
        const auto path = session.resolve(in.path);
        HostArray loaded = imageToArray(ImageCodec::require().read(path, channels), buffer.type);
        if (loaded.shape() != a.shape())
            throw Error(Error::Kind::Io, field + ": image " + path.string() + " gives shape " +
                                             shapeToText(loaded.shape()) + " but the buffer has " +
                                             shapeToText(a.shape()));
        a = std::move(loaded);
        break;
    }
    }
    return a;
}

} // namespace wb::session
