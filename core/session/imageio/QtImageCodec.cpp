// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/imageio/QtImageCodec.h"

#include "core/common/Error.h"
#include "core/common/UserFile.h"

#include <QBuffer>
#include <QByteArray>

#include <QImage>
#include <QImageReader>
#include <QSaveFile>
#include <QString>

#include <cstring>

namespace wb::session {

Image QtImageCodec::read(const std::filesystem::path& path, int channels)
{
    // Read through UserFile: a FIFO, device or directory is refused at once, never waited on.
    QByteArray bytes =
        QByteArray::fromStdString(UserFile::read(path, UserFile::kMaxDataBytes, "the image"));
    QBuffer buffer(&bytes);
    QImageReader reader(&buffer);
    QImage img = reader.read();
    if (img.isNull())
        throw Error(Error::Kind::Io,
                    path.string() + ": cannot read image: " + reader.errorString().toStdString());
    const QImage::Format fmt = channels == 1   ? QImage::Format_Grayscale8
                               : channels == 3 ? QImage::Format_RGB888
                                               : QImage::Format_RGBA8888;
    img = img.convertToFormat(fmt);
    Image out;
    out.width = img.width();
    out.height = img.height();
    out.channels = channels;
    const auto rowBytes = static_cast<std::size_t>(out.width) * static_cast<std::size_t>(channels);
    out.pixels.resize(rowBytes * static_cast<std::size_t>(out.height));
    for (int y = 0; y < out.height; ++y)
        std::memcpy(out.pixels.data() + static_cast<std::size_t>(y) * rowBytes,
                    img.constScanLine(y), rowBytes);
    return out;
}

void QtImageCodec::write(const std::filesystem::path& path, const Image& image)
{
    const QImage::Format fmt = image.channels == 1   ? QImage::Format_Grayscale8
                               : image.channels == 3 ? QImage::Format_RGB888
                                                     : QImage::Format_RGBA8888;
    QImage img(image.width, image.height, fmt);
    const auto rowBytes =
        static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.channels);
    for (int y = 0; y < image.height; ++y)
        std::memcpy(img.scanLine(y), image.pixels.data() + static_cast<std::size_t>(y) * rowBytes,
                    rowBytes);
    if (path.has_parent_path()) {
        std::error_code ec;
        std::filesystem::create_directories(path.parent_path(), ec);
    }
    QSaveFile file(QString::fromStdString(path.string()));
    const std::string ext = path.extension().string();
    const char* format = (ext == ".jpg" || ext == ".jpeg") ? "JPEG" : "PNG";
    if (!file.open(QIODevice::WriteOnly) || !img.save(&file, format) || !file.commit())
        throw Error(Error::Kind::Io,
                    path.string() + ": cannot write image: " + file.errorString().toStdString());
}

void installQtImageCodec()
{
    ImageCodec::install(std::make_shared<QtImageCodec>());
}

} // namespace wb::session
