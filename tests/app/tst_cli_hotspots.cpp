// SPDX-License-Identifier: GPL-3.0-or-later
// GPU: `warpbench-cli profile --hotspots` end to end (runner, -lineinfo compile, PC sampling,
// ProfileCodec, the CLI's text and JSON) on tests/profiling/data/hotloop, whose line 9 is hot.
#include "CliProcess.h"
#include "tests/support/SuiteMain.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

namespace {
const QString kProject =
    QStringLiteral(WB_SOURCE_DIR "/tests/profiling/data/hotloop/hotloop.wbproj");
} // namespace

class TestCliHotspots : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        const QString why = cudaUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
    }

    void jsonTopLines()
    {
        QElapsedTimer t;
        t.start();
        const CliRun r = runCli({QStringLiteral("profile"), QStringLiteral("--hotspots"),
                                 QStringLiteral("--json"), kProject});
        qInfo("profile --hotspots --json: %lld ms", static_cast<long long>(t.elapsed()));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        const QJsonObject profile =
            QJsonDocument::fromJson(r.out.toUtf8()).object()["profile"].toObject();
        if (profile["hotspotStatus"].toObject()["state"].toString() == "insufficient privileges")
            QSKIP(qPrintable(profile["hotspotStatus"].toObject()["message"].toString()));
        QCOMPARE(profile["hotspotStatus"].toObject()["state"].toString(), QStringLiteral("ok"));
        const QJsonArray top = profile["topLines"].toArray();
        QVERIFY(!top.isEmpty() && top.size() <= 10);
        const QJsonObject first = top[0].toObject();
        QCOMPARE(first["line"].toInt(), 9);
        QVERIFY(first["file"].toString().endsWith(QLatin1String("hotloop.cu")));
        QCOMPARE(first["source"].toString(), QStringLiteral("w = sqrtf(v * w + 0.75f);"));
        QVERIFY(first["share"].toDouble() > 0.5);
        QVERIFY(!first["topStall"].toString().isEmpty());
        QVERIFY(profile["hotspots"].toObject()["instructions"].toArray().size() > 3);
    }

    void textTopLines()
    {
        const CliRun r = runCli({QStringLiteral("profile"), QStringLiteral("--hotspots"),
                                 QStringLiteral("--no-counters"), kProject});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        qInfo("%s", qPrintable(r.out));
        const qsizetype at = r.out.indexOf(QLatin1String("Hotspots (PC sampling"));
        if (at < 0 && r.out.contains(QLatin1String("insufficient privileges")))
            QSKIP("PC sampling is not permitted here");
        QVERIFY2(at >= 0, qPrintable(r.out));
        // The first row after the column heads is line 9, with its source text.
        const QStringList rows = r.out.mid(at).split('\n');
        QVERIFY(rows.size() > 3);
        QVERIFY2(rows[2].trimmed().startsWith(QLatin1String("9 ")), qPrintable(rows[2]));
        QVERIFY2(rows[3].contains(QLatin1String("| w = sqrtf(v * w + 0.75f);")),
                 qPrintable(rows[3]));
    }
};

WB_QTEST_GUILESS_MAIN(TestCliHotspots)
#include "tst_cli_hotspots.moc"
