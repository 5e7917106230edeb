// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/common/ChartTheme.h"

#include <QPalette>
#include <QString>
#include <QtCharts/QChart>
#include <QtCharts/QValueAxis>

#include <algorithm>

namespace wb::ui {

void applyChartTheme(QChart* chart, const QPalette& palette)
{
    const bool dark = palette.color(QPalette::Window).lightness() < 128;
    const QChart::ChartTheme theme = dark ? QChart::ChartThemeDark : QChart::ChartThemeLight;
    if (chart->theme() != theme) chart->setTheme(theme);
    chart->setBackgroundBrush(palette.color(QPalette::Base));
    chart->setTitleBrush(palette.color(QPalette::Text));
    chart->legend()->setLabelColor(palette.color(QPalette::Text));
}

ChartTimeUnit chartTimeUnit(double largestSeconds)
{
    if (largestSeconds < 1e-6) return {"ns", 1e9};
    if (largestSeconds < 1e-3) return {"µs", 1e6};
    if (largestSeconds < 1.0) return {"ms", 1e3};
    return {"s", 1.0};
}

void makeAxisReadable(QValueAxis* axis, const QString& title, int ticks)
{
    axis->setTitleText(title);
    axis->setLabelFormat(QStringLiteral("%.3g"));
    axis->setTickCount(std::max(2, ticks));
}

} // namespace wb::ui
