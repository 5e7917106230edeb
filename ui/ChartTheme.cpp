// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/ChartTheme.h"

#include <QPalette>
#include <QtCharts/QChart>

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

} // namespace wb::ui
