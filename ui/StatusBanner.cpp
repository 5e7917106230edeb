// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/StatusBanner.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace wb::ui {

StatusBanner::StatusBanner(QWidget* parent)
    : QFrame(parent)
{
    setObjectName(QStringLiteral("statusBanner"));
    setFrameShape(QFrame::StyledPanel);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    m_label = new QLabel(this);
    m_label->setWordWrap(true);
    m_label->setTextFormat(Qt::RichText);
    m_label->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_label->setOpenExternalLinks(true);
    // A long path or message wraps (or is clipped) in the banner, never widening the window.
    m_label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("✕"));
    close->setAutoRaise(true);
    close->setToolTip(tr("Hide"));
    layout->addWidget(m_label, 1);
    layout->addWidget(close, 0, Qt::AlignTop);
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    hide();
}

void StatusBanner::setMessages(const QList<QPair<Level, QString>>& messages)
{
    if (messages.isEmpty()) {
        m_full.clear();
        m_headlines.clear();
        m_label->clear();
        m_label->setToolTip({});
        hide();
        return;
    }
    Level worst = Level::Info;
    QStringList lines, headlines;
    for (const auto& [level, text] : messages) {
        worst = std::max(worst, level);
        const char* mark = level == Level::Error ? "⛔" : level == Level::Warning ? "⚠" : "ℹ";
        lines << QStringLiteral("%1 %2").arg(QString::fromUtf8(mark), text);
        // The headline: the leading bold part when there is one.
        const qsizetype end =
            text.startsWith(QStringLiteral("<b>")) ? text.indexOf(QStringLiteral("</b>")) : -1;
        headlines << QStringLiteral("%1 %2").arg(QString::fromUtf8(mark),
                                                 end > 0 ? text.left(end + 4) : text);
    }
    m_full = lines.join(QStringLiteral("<br>"));
    m_headlines = headlines.join(QStringLiteral(" "));
    updateText();
    // Fixed, readable colours on both light and dark palettes.
    const char* bg = worst == Level::Error     ? "#f8d7da"
                     : worst == Level::Warning ? "#fff3cd"
                                               : "#d9ecff";
    const char* fg = worst == Level::Error     ? "#58151c"
                     : worst == Level::Warning ? "#4d3800"
                                               : "#0b3558";
    setStyleSheet(
        QStringLiteral("#statusBanner { background: %1; border: 1px solid %2; border-radius: 3px; }"
                       "#statusBanner QLabel, #statusBanner QToolButton { color: %2; }")
            .arg(QLatin1String(bg), QLatin1String(fg)));
    show();
}

QString StatusBanner::text() const
{
    return m_full;
}

QString StatusBanner::shownText() const
{
    return m_label->text();
}

void StatusBanner::setCompact(bool compact)
{
    m_compact = compact;
    updateText();
}

void StatusBanner::updateText()
{
    m_label->setText(m_compact ? m_headlines : m_full);
    m_label->setToolTip(m_compact ? m_full : QString());
}

void StatusBanner::changeEvent(QEvent* event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        for (QWidget* child : findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly))
            child->setFont(font());
}

} // namespace wb::ui
