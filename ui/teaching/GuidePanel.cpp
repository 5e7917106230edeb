// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/teaching/GuidePanel.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace wb::ui {

GuidePanel::GuidePanel(QWidget* parent)
    : QTextBrowser(parent)
{
    setOpenExternalLinks(true);
    setAccessibleName(tr("Example guide"));
}

QString GuidePanel::guidePathFor(const QString& projectPath)
{
    return QFileInfo(projectPath).absoluteDir().filePath(QStringLiteral("GUIDE.md"));
}

bool GuidePanel::showGuideFor(const QString& projectPath)
{
    QFile f(guidePathFor(projectPath));
    m_hasGuide = f.open(QIODevice::ReadOnly);
    if (m_hasGuide) {
        setSearchPaths({QFileInfo(f.fileName()).absolutePath()});
        setMarkdown(QString::fromUtf8(f.readAll()));
    } else {
        setMarkdown(tr("*This project has no guide.* Put a `GUIDE.md` next to the project file: "
                       "what it teaches, and what to try."));
    }
    return m_hasGuide;
}

} // namespace wb::ui
