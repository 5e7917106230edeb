// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/buffers/Colormap.h"

#include <QObject>

#include <algorithm>
#include <cmath>
#include <vector>

namespace wb::ui {

namespace {
struct Stop {
    double t;
    int r, g, b;
};

// Control points sampled from matplotlib's viridis / inferno and Moreland's cool-warm.
const std::vector<Stop>& stops(Colormap::Kind kind)
{
    static const std::vector<Stop> viridis = {
        {0.00, 68, 1, 84},    {0.13, 71, 44, 122},  {0.25, 59, 81, 139},
        {0.38, 44, 113, 142}, {0.50, 33, 144, 141}, {0.63, 39, 173, 129},
        {0.75, 92, 200, 99},  {0.88, 170, 220, 50}, {1.00, 253, 231, 37}};
    static const std::vector<Stop> inferno = {
        {0.00, 0, 0, 4},      {0.13, 31, 12, 72},   {0.25, 85, 15, 109},
        {0.38, 136, 34, 106}, {0.50, 186, 54, 85},  {0.63, 227, 89, 51},
        {0.75, 249, 140, 10}, {0.88, 249, 201, 50}, {1.00, 252, 255, 164}};
    static const std::vector<Stop> grey = {{0.0, 0, 0, 0}, {1.0, 255, 255, 255}};
    static const std::vector<Stop> coolwarm = {{0.00, 59, 76, 192},
                                               {0.25, 141, 176, 254},
                                               {0.50, 221, 221, 221},
                                               {0.75, 244, 154, 123},
                                               {1.00, 180, 4, 38}};
    switch (kind) {
    case Colormap::Inferno:
        return inferno;
    case Colormap::Grey:
        return grey;
    case Colormap::CoolWarm:
        return coolwarm;
    default:
        return viridis;
    }
}

int lerp(int a, int b, double f)
{
    return static_cast<int>(std::lround(a + (b - a) * f));
}
} // namespace

Colormap::Colormap(Kind kind)
    : m_kind(kind)
{
    const auto& s = stops(kind);
    for (std::size_t i = 0; i < m_table.size(); ++i) {
        const double t = static_cast<double>(i) / 255.0;
        std::size_t k = 1;
        while (k + 1 < s.size() && s[k].t < t)
            ++k;
        const Stop& a = s[k - 1];
        const Stop& b = s[k];
        const double f = std::clamp((t - a.t) / (b.t - a.t), 0.0, 1.0);
        m_table[i] = qRgb(lerp(a.r, b.r, f), lerp(a.g, b.g, f), lerp(a.b, b.b, f));
    }
}

QStringList Colormap::names()
{
    return {QObject::tr("viridis"), QObject::tr("inferno"), QObject::tr("grey"),
            QObject::tr("cool-warm")};
}

QRgb Colormap::map(double t) const noexcept
{
    if (!std::isfinite(t)) return nonFinite();
    const double c = std::clamp(t, 0.0, 1.0);
    return m_table[static_cast<std::size_t>(c * 255.0 + 0.5)];
}

} // namespace wb::ui
