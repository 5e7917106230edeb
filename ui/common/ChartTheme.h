// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QChart;
class QPalette;
class QString;
class QValueAxis;

namespace wb::ui {

/// Gives a chart the light or dark Qt Charts theme that matches `palette`, with the palette's
/// own background so charts sit in the window like the other panels. Call before adding series
/// (a theme change recolours them).
void applyChartTheme(QChart* chart, const QPalette& palette);

/// The unit a time axis reads best in for values up to `largestSeconds`: its name ("µs") and
/// how many of it make a second.
struct ChartTimeUnit {
    const char* name;
    double perSecond;
};
ChartTimeUnit chartTimeUnit(double largestSeconds);

/// A value axis whose labels stay short ("%.3g") and few enough (`ticks`) to never be elided,
/// with `title` (name the unit there, not in every label).
void makeAxisReadable(QValueAxis* axis, const QString& title, int ticks);

} // namespace wb::ui
