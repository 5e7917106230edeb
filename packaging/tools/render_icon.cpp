// SPDX-License-Identifier: GPL-3.0-or-later
// Build-time tool: renders the SVG application icon to square PNGs (the hicolor sizes), so the
// PNGs can never drift from the SVG. Usage: wb_render_icon ICON.svg OUTDIR SIZE...
// writes OUTDIR/<SIZE>x<SIZE>/<basename>.png for every SIZE.
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>

#include <cstdio>

int main(int argc, char** argv)
{
    QGuiApplication app(argc, argv); // offscreen platform: set by the build rule
    const QStringList args = QGuiApplication::arguments();
    if (args.size() < 4) {
        std::fprintf(stderr, "usage: wb_render_icon ICON.svg OUTDIR SIZE...\n");
        return 2;
    }
    QSvgRenderer svg(args[1]);
    if (!svg.isValid()) {
        std::fprintf(stderr, "wb_render_icon: cannot read %s\n", qPrintable(args[1]));
        return 1;
    }
    const QString base = QFileInfo(args[1]).completeBaseName();
    for (qsizetype i = 3; i < args.size(); ++i) {
        bool ok = false;
        const int size = args[i].toInt(&ok);
        if (!ok || size < 1) {
            std::fprintf(stderr, "wb_render_icon: bad size '%s'\n", qPrintable(args[i]));
            return 2;
        }
        QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        svg.render(&painter, QRectF(0, 0, size, size));
        painter.end();
        const QString dir = QStringLiteral("%1/%2x%2").arg(args[2]).arg(size);
        const QString file = dir + QLatin1Char('/') + base + QStringLiteral(".png");
        if (!QDir().mkpath(dir) || !image.save(file, "PNG")) {
            std::fprintf(stderr, "wb_render_icon: cannot write %s\n", qPrintable(file));
            return 1;
        }
    }
    return 0;
}
