// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QStringList>

#include <array>

namespace wb::ui {

/// A 256-entry colour table for heatmaps. NaN/Inf and unwritten elements get their own colour.
class Colormap {
public:
    enum Kind { Viridis, Inferno, Grey, CoolWarm, KindCount };

    explicit Colormap(Kind kind = Viridis);
    static QStringList names();
    Kind kind() const noexcept { return m_kind; }

    /// t in [0, 1] (clamped).
    QRgb map(double t) const noexcept;
    QRgb nonFinite() const noexcept { return qRgb(255, 0, 255); }

private:
    Kind m_kind;
    std::array<QRgb, 256> m_table{};
};

} // namespace wb::ui
