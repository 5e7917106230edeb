// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/ImageCodec.h"

#include "core/common/Error.h"

#include <algorithm>
#include <cmath>
#include <mutex>

namespace wb::session {

namespace {
std::mutex g_mutex;
std::shared_ptr<ImageCodec> g_codec;
} // namespace

ImageCodec* ImageCodec::instance() noexcept
{
    std::lock_guard lock(g_mutex);
    return g_codec.get();
}

void ImageCodec::install(std::shared_ptr<ImageCodec> codec)
{
    std::lock_guard lock(g_mutex);
    g_codec = std::move(codec);
}

ImageCodec& ImageCodec::require()
{
    if (ImageCodec* c = instance()) return *c;
    throw Error(Error::Kind::Unavailable,
                "image support is not loaded in this program (link warpbench_imageio and call "
                "wb::session::installQtImageCodec())");
}

HostArray imageToArray(const Image& image, ElementType type)
{
    const auto w = static_cast<std::size_t>(image.width);
    const auto h = static_cast<std::size_t>(image.height);
    const auto c = static_cast<std::size_t>(image.channels);
    std::vector<std::size_t> shape =
        c == 1 ? std::vector<std::size_t>{h, w} : std::vector<std::size_t>{c, h, w};
    HostArray a(type, shape);
    const double scale = isFloatingPoint(type) ? 1.0 / 255.0 : 1.0;
    for (std::size_t ch = 0; ch < c; ++ch)
        for (std::size_t y = 0; y < h; ++y)
            for (std::size_t x = 0; x < w; ++x)
                a.set((ch * h + y) * w + x, image.pixels[(y * w + x) * c + ch] * scale);
    return a;
}

Image arrayToImage(const HostArray& a, const std::string& bufferName)
{
    const auto& s = a.shape();
    Image img;
    if (s.size() == 2) {
        img.channels = 1;
        img.height = static_cast<int>(s[0]);
        img.width = static_cast<int>(s[1]);
    } else if (s.size() == 3 && (s[0] == 1 || s[0] == 3 || s[0] == 4)) {
        img.channels = static_cast<int>(s[0]);
        img.height = static_cast<int>(s[1]);
        img.width = static_cast<int>(s[2]);
    } else {
        throw Error(Error::Kind::InvalidArgument,
                    "buffer '" + bufferName + "' of shape " + shapeToText(s) +
                        " cannot be written as an image: expected [height, width] or "
                        "[1|3|4, height, width]");
    }
    const auto w = static_cast<std::size_t>(img.width);
    const auto h = static_cast<std::size_t>(img.height);
    const auto c = static_cast<std::size_t>(img.channels);
    img.pixels.resize(w * h * c);
    const bool fp = isFloatingPoint(a.type());
    for (std::size_t ch = 0; ch < c; ++ch)
        for (std::size_t y = 0; y < h; ++y)
            for (std::size_t x = 0; x < w; ++x) {
                double v = a.at((ch * h + y) * w + x);
                if (std::isnan(v)) v = 0;
                v = fp ? std::clamp(v, 0.0, 1.0) * 255.0 : std::clamp(v, 0.0, 255.0);
                img.pixels[(y * w + x) * c + ch] = static_cast<std::uint8_t>(std::lround(v));
            }
    return img;
}

} // namespace wb::session
