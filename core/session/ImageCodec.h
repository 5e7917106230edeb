// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/HostArray.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace wb::session {

/// 8-bit pixels, interleaved, rows top to bottom.
struct Image {
    int width = 0;
    int height = 0;
    int channels = 1; ///< 1 grey, 3 RGB, 4 RGBA
    std::vector<std::uint8_t> pixels;
};

/// Reads and writes image files. Core links Qt6::Core only, so decoding lives behind this
/// interface; the `warpbench_imageio` library provides the QImage implementation (PNG, JPEG,
/// whatever Qt's image plugins read) and programs install it at start-up.
class ImageCodec {
public:
    virtual ~ImageCodec() = default;
    /// Converts to `channels` (1, 3 or 4) while decoding.
    virtual Image read(const std::filesystem::path& path, int channels) = 0;
    /// The format follows the file extension (.png, .jpg).
    virtual void write(const std::filesystem::path& path, const Image& image) = 0;

    /// The process-wide codec; nullptr until a program installs one.
    static ImageCodec* instance() noexcept;
    static void install(std::shared_ptr<ImageCodec> codec);
    /// instance(), or Error(Kind::Unavailable) saying that image support is not loaded.
    static ImageCodec& require();
};

/// Image → buffer: channels 1 gives [h, w], 3/4 give planar [c, h, w]. Integer buffers receive
/// 0–255, floating-point buffers 0–1.
HostArray imageToArray(const Image& image, ElementType type);
/// Buffer → image: [h, w] grey or [3|4, h, w] planar. Floats are clamped to 0–1 and scaled,
/// integers clamped to 0–255. Error(Kind::InvalidArgument) for other shapes.
Image arrayToImage(const HostArray& array, const std::string& bufferName);

} // namespace wb::session
