// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/detail/FileUtil.h"

#include "core/common/Error.h"

#include <QSaveFile>
#include <QString>

namespace wb::session::detail {

void writeFileAtomically(const std::filesystem::path& path, const std::string& bytes)
{
    if (path.has_parent_path()) {
        std::error_code ec;
        std::filesystem::create_directories(path.parent_path(), ec);
    }
    QSaveFile file(QString::fromStdString(path.string()));
    if (!file.open(QIODevice::WriteOnly))
        throw Error(Error::Kind::Io,
                    path.string() + ": cannot write: " + file.errorString().toStdString());
    if (file.write(bytes.data(), static_cast<qint64>(bytes.size())) !=
        static_cast<qint64>(bytes.size()))
        throw Error(Error::Kind::Io,
                    path.string() + ": write failed: " + file.errorString().toStdString());
    if (!file.commit())
        throw Error(Error::Kind::Io,
                    path.string() + ": could not save: " + file.errorString().toStdString());
}

} // namespace wb::session::detail
