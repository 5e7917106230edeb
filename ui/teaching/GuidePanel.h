// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QTextBrowser>

namespace wb::ui {

/// The guided-example panel: shows the GUIDE.md next to a project (what the example teaches,
/// what to try), rendered as Markdown. It follows the window's font (Presentation Mode does not
/// zoom it: property `wbPresentationNoZoom`).
class GuidePanel : public QTextBrowser {
    Q_OBJECT
public:
    explicit GuidePanel(QWidget* parent = nullptr);

    /// `<project's folder>/GUIDE.md`.
    static QString guidePathFor(const QString& projectPath);
    /// Shows the project's guide; false (and a short note instead) when it has none.
    bool showGuideFor(const QString& projectPath);
    bool hasGuide() const noexcept { return m_hasGuide; }

private:
    /// Code (inline and blocks) at the panel's font size, not the system fixed font's;
    /// headings at most 1.2 × that size.
    void codeFollowsTheFont();

    bool m_hasGuide = false;
};

} // namespace wb::ui
