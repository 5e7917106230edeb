// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/teaching/GuidePanel.h"

#include "core/common/Error.h"
#include "core/common/UserFile.h"

#include <QDir>
#include <QFileInfo>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>

namespace wb::ui {

GuidePanel::GuidePanel(QWidget* parent)
    : QTextBrowser(parent)
{
    setOpenExternalLinks(true);
    setAccessibleName(tr("Example guide"));
    // Prose at the window's font: Presentation Mode's 18 pt is large enough, no zoom on top.
    setProperty("wbPresentationNoZoom", true);
}

QString GuidePanel::guidePathFor(const QString& projectPath)
{
    return QFileInfo(projectPath).absoluteDir().filePath(QStringLiteral("GUIDE.md"));
}

bool GuidePanel::showGuideFor(const QString& projectPath)
{
    const QString path = guidePathFor(projectPath);
    QString text;
    m_hasGuide = QFileInfo::exists(path);
    if (m_hasGuide) {
        // Through UserFile: a FIFO or a device named GUIDE.md must not block the window.
        try {
            text = QString::fromStdString(
                UserFile::read(path.toStdString(), UserFile::kMaxTextBytes, "the guide"));
        } catch (const Error& e) {
            text = tr("*The guide cannot be shown:* %1").arg(QString::fromStdString(e.what()));
        }
        setSearchPaths({QFileInfo(path).absolutePath()});
        setMarkdown(text);
    } else {
        setMarkdown(tr("*This project has no guide.* Put a `GUIDE.md` next to the project file: "
                       "what it teaches, and what to try."));
    }
    codeFollowsTheFont();
    return m_hasGuide;
}

void GuidePanel::codeFollowsTheFont()
{
    constexpr int kMaxHeadingAdjustment = 1; // QTextFormat's "large": 1.2 × the prose
    // Markdown's code gets the system's fixed font with its own point size: at Presentation
    // Mode's zoom `__syncthreads()` would stay tiny beside huge prose. Code keeps its family
    // and takes the panel's size.
    QTextCursor cursor(document());
    for (QTextBlock block = document()->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            QTextCharFormat format = fragment.charFormat();
            if (!fragment.isValid()) continue;
            // Headings at most 1.2 × the prose (Markdown's # is 2 ×: at a projector's font a
            // title filled the panel).
            const bool heading =
                format.intProperty(QTextFormat::FontSizeAdjustment) > kMaxHeadingAdjustment;
            if (!heading && !format.hasProperty(QTextFormat::FontPointSize)) continue;
            format.clearProperty(QTextFormat::FontPointSize);
            if (heading) format.setProperty(QTextFormat::FontSizeAdjustment, kMaxHeadingAdjustment);
            cursor.setPosition(fragment.position());
            cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
            cursor.setCharFormat(format);
        }
    }
}

} // namespace wb::ui
