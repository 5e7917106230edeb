// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/ImageCodec.h"

namespace wb::session {

/// ImageCodec on QImage (Qt6::Gui): PNG, JPEG and every format of Qt's image plugins.
/// Works without a display (QImage needs no QGuiApplication).
class QtImageCodec : public ImageCodec {
public:
    Image read(const std::filesystem::path& path, int channels) override;
    void write(const std::filesystem::path& path, const Image& image) override;
};

/// Installs a QtImageCodec as ImageCodec::instance().
void installQtImageCodec();

} // namespace wb::session
