// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QChart;
class QPalette;

namespace wb::ui {

/// Gives a chart the light or dark Qt Charts theme that matches `palette`, with the palette's
/// own background so charts sit in the window like the other panels. Call before adding series
/// (a theme change recolours them).
void applyChartTheme(QChart* chart, const QPalette& palette);

} // namespace wb::ui
