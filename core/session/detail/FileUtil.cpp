// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/detail/FileUtil.h"

#include "core/common/Error.h"

#include <QSaveFile>
#include <QString>

#include <fstream>
#include <sstream>

namespace wb::session::detail {

std::string readFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw Error(Error::Kind::Io,
                    path.string() + ": cannot open for reading (" +
                        (std::filesystem::exists(path) ? "permission denied" : "no such file") +
                        ")");
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

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
