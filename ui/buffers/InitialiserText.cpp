// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/buffers/InitialiserText.h"

#include <QObject>
#include <QRegularExpression>
#include <QStringList>

namespace wb::ui {

using Kind = session::Initialiser::Kind;

QString InitialiserText::format(const session::Initialiser& i)
{
    auto q = [](const std::string& s) { return QString::fromStdString(s); };
    switch (i.kind) {
    case Kind::Zeros:
        return QStringLiteral("zeros");
    case Kind::Constant:
        return QStringLiteral("constant %1").arg(q(i.value));
    case Kind::Iota:
        return QStringLiteral("iota %1 %2").arg(q(i.start), q(i.step));
    case Kind::Linspace:
        return QStringLiteral("linspace %1 %2").arg(q(i.start), q(i.stop));
    case Kind::Uniform:
        return QStringLiteral("uniform %1 %2 seed=%3").arg(q(i.low), q(i.high)).arg(i.seed);
    case Kind::Normal:
        return QStringLiteral("normal %1 %2 seed=%3").arg(q(i.mean), q(i.stddev)).arg(i.seed);
    case Kind::Npy:
        return QStringLiteral("npy %1").arg(q(i.path));
    case Kind::Bin:
        return QStringLiteral("bin %1").arg(q(i.path));
    case Kind::Image:
        return QStringLiteral("image %1 %2").arg(q(i.path), q(i.channels));
    }
    return QStringLiteral("zeros");
}

std::optional<session::Initialiser> InitialiserText::parse(const QString& text, QString* error)
{
    QStringList words = text.simplified().split(u' ', Qt::SkipEmptyParts);
    session::Initialiser init;
    if (words.isEmpty()) {
        *error = QObject::tr("empty: write e.g. zeros, constant 1, iota 0 1, uniform 0 1 seed=1");
        return std::nullopt;
    }
    std::optional<std::uint64_t> seed;
    for (qsizetype k = words.size() - 1; k >= 1; --k) {
        if (words[k].startsWith(QStringLiteral("seed="))) {
            bool ok = false;
            seed = words[k].mid(5).toULongLong(&ok);
            if (!ok) {
                *error = QObject::tr("seed must be a non-negative integer: %1").arg(words[k]);
                return std::nullopt;
            }
            words.removeAt(k);
        }
    }
    const QString kind = words.takeFirst().toLower();
    auto need = [&](qsizetype n, const QString& usage) {
        if (words.size() == n) return true;
        *error =
            QObject::tr("%1 takes %n value(s): %2", nullptr, static_cast<int>(n)).arg(kind, usage);
        return false;
    };
    auto s = [&](qsizetype i) { return words[i].toStdString(); };
    if (kind == u"zeros") {
        if (!need(0, QStringLiteral("zeros"))) return std::nullopt;
        init.kind = Kind::Zeros;
    } else if (kind == u"constant") {
        if (!need(1, QStringLiteral("constant VALUE"))) return std::nullopt;
        init.kind = Kind::Constant;
        init.value = s(0);
    } else if (kind == u"iota") {
        if (words.isEmpty()) words = {QStringLiteral("0"), QStringLiteral("1")};
        if (!need(2, QStringLiteral("iota START STEP"))) return std::nullopt;
        init.kind = Kind::Iota;
        init.start = s(0);
        init.step = s(1);
    } else if (kind == u"linspace") {
        if (!need(2, QStringLiteral("linspace START STOP"))) return std::nullopt;
        init.kind = Kind::Linspace;
        init.start = s(0);
        init.stop = s(1);
    } else if (kind == u"uniform" || kind == u"normal") {
        if (words.isEmpty()) words = {QStringLiteral("0"), QStringLiteral("1")};
        if (!need(2, kind == u"uniform" ? QStringLiteral("uniform LOW HIGH seed=N")
                                        : QStringLiteral("normal MEAN STDDEV seed=N")))
            return std::nullopt;
        init.kind = kind == u"uniform" ? Kind::Uniform : Kind::Normal;
        if (init.kind == Kind::Uniform) {
            init.low = s(0);
            init.high = s(1);
        } else {
            init.mean = s(0);
            init.stddev = s(1);
        }
        init.seed = seed.value_or(0);
    } else if (kind == u"npy" || kind == u"bin") {
        if (!need(1, kind + QStringLiteral(" PATH"))) return std::nullopt;
        init.kind = kind == u"npy" ? Kind::Npy : Kind::Bin;
        init.path = s(0);
    } else if (kind == u"image") {
        if (words.size() == 1) words << QStringLiteral("grey");
        if (!need(2, QStringLiteral("image PATH grey|rgb|rgba"))) return std::nullopt;
        if (words[1] != u"grey" && words[1] != u"rgb" && words[1] != u"rgba") {
            *error = QObject::tr("image channels must be grey, rgb or rgba, not %1").arg(words[1]);
            return std::nullopt;
        }
        init.kind = Kind::Image;
        init.path = s(0);
        init.channels = s(1);
    } else {
        *error =
            QObject::tr("unknown initialiser \"%1\": zeros, constant, iota, linspace, uniform, "
                        "normal, npy, bin or image")
                .arg(kind);
        return std::nullopt;
    }
    if (seed && init.kind != Kind::Uniform && init.kind != Kind::Normal) {
        *error = QObject::tr("seed= only applies to uniform and normal");
        return std::nullopt;
    }
    return init;
}

} // namespace wb::ui
