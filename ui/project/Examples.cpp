// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/project/Examples.h"

#include "core/common/Paths.h"
#include "ui/common/SessionDocument.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace wb::ui {

QString Examples::folder()
{
    return QDir::cleanPath(QString::fromStdString((wb::dataDir() / "examples").string()));
}

QList<QPair<QString, QString>> Examples::all()
{
    QList<QPair<QString, QString>> list;
    const QString dir = QString::fromStdString((wb::dataDir() / "examples").string());
    QDirIterator it(dir, {QStringLiteral("*.wbproj")}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        list.append({QFileInfo(path).completeBaseName(), path});
    }
    std::sort(list.begin(), list.end());
    return list;
}

QList<ExampleEntry> Examples::entries()
{
    QList<ExampleEntry> entries;
    const QDir root(folder());
    for (const auto& [title, path] : all()) {
        // The installed tree's flat examples/<name>.wbproj copies (for the CLI) are not listed.
        if (QFileInfo(path).absoluteDir() == root) continue;
        ExampleEntry e;
        e.path = path;
        const QString rel = root.relativeFilePath(QFileInfo(path).absolutePath());
        e.title = rel;
        e.buggy = rel.startsWith(QStringLiteral("bugs/"));
        // The README's first line ("saxpy — a scalar parameter, …"), else the project's own.
        const QString readme = QFileInfo(path).absoluteDir().filePath(QStringLiteral("README.md"));
        try {
            if (QFileInfo::exists(readme)) {
                QString line = SessionDocument::readSource(readme, "the example's README")
                                   .section(u'\n', 0, 0)
                                   .trimmed();
                // "name — what": the menu already shows the name.
                if (const qsizetype dash = line.indexOf(QStringLiteral(" — ")); dash >= 0)
                    line = line.mid(dash + 3);
                if (!line.isEmpty()) line[0] = line[0].toUpper();
                e.description = line;
            }
            if (e.description.isEmpty()) {
                const QJsonObject o =
                    QJsonDocument::fromJson(
                        SessionDocument::readSource(path, "the example project").toUtf8())
                        .object();
                e.description = o.value(QStringLiteral("description")).toString();
            }
        } catch (const std::exception&) {
            // An unreadable README leaves the entry without its line.
        }
        entries.append(e);
    }
    return entries;
}

QString Examples::documentationDir()
{
    // Installed: <prefix>/share/doc/warpbench next to <prefix>/share/warpbench; in the build
    // tree the source tree's docs/ (WB_SOURCE_DOCS_DIR).
    const QDir data(QString::fromStdString(wb::dataDir().string()));
    const QString installed = QDir::cleanPath(data.filePath(QStringLiteral("../doc/warpbench")));
    if (QFileInfo::exists(installed + QStringLiteral("/gui.md"))) return installed;
#ifdef WB_SOURCE_DOCS_DIR
    const QString source = QStringLiteral(WB_SOURCE_DOCS_DIR);
    if (QFileInfo::exists(source + QStringLiteral("/gui.md"))) return source;
#endif
    return {};
}

} // namespace wb::ui
