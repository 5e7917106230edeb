// SPDX-License-Identifier: GPL-3.0-or-later
// The cheating submissions of tst_grade_cheats graded on CUDA: the same verdicts, cold L2
// samples, clocks from NVML, and the speed-of-light check against the driver's own peak.
#include "GradeCheats.h"
#include "tests/support/SuiteMain.h"

class TestGradeGpu : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        const QString why = cudaUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
    }

    void cheatersFailForTheirOwnReason() { cheats::gradeVectorCheats("cuda"); }

    /// The escapes on CUDA: NVRTC refuses each host call with its own message at the call's
    /// line (compile-error rows), the C++ reference runs in a sealed child of the CUDA runner;
    /// nothing reaches the machine.
    void escapesAreStopped() { cheats::gradeEscapes("cuda", cheats::EscapeLayer::DeviceCheck); }

    /// The result-cache cheat on the H200: fresh inputs for every timed launch, both rows pass,
    /// the reports say so (timings at n = 128 are launch overhead: not compared).
    void replayCacheFindsNothing() { cheats::replayCacheFindsNothing("cuda", false); }

    void replayIsCaughtByFreshInputs() { cheats::replayNeedsFreshInputs("cuda"); }

    /// Issue 25's measurement, n = 512 on the H200 (honest 0.066 ms, replay 0.018 ms): with
    /// fresh inputs for every timed launch the cheat is timed like the honest kernel (ratio >
    /// 0.6); with pinned inputs it replays (ratio < 0.5), so the check has teeth.
    void replayCacheGainsNothingAt512() { cheats::replayCacheFindsNothing("cuda", true, 512); }

    /// The peak comes from the driver (memory clock x bus width): no --peak-bandwidth.
    void tooFastToBeTrue() { cheats::gradeTooFast("cuda", 0); }

    void coldSamplesAndClocksAreRecorded()
    {
        const CliRun r = runCli({"run", cheats::data("vector/vector.wbproj"), "--grade", "--json",
                                 "--backend", "cuda"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        const QJsonObject rep = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QVERIFY(rep["grade"].toObject()["coldSamples"].toBool());
        const QJsonObject sol = rep["speedOfLight"].toObject();
        QVERIFY(sol["checked"].toBool());
        QVERIFY(!sol["impossible"].toBool());
        QVERIFY2(sol["peakSource"].toString().startsWith("driver"),
                 qPrintable(sol["peakSource"].toString()));
        const QJsonObject after = rep["conditions"].toObject()["after"].toObject();
        // NVML is part of every driver install; where it is missing the reason is recorded.
        if (after["source"].toString() == QLatin1String("nvml")) {
            QVERIFY(after["smClockMHz"].toInt() > 0);
            QVERIFY(after["temperatureC"].toInt() > 0);
        } else {
            QVERIFY(after["smClockMHz"].isNull());
            QVERIFY(!after["source"].toString().isEmpty());
        }
        qInfo().noquote() << "speed of light:" << sol["message"].toString();
        qInfo().noquote()
            << "conditions:"
            << QJsonDocument(rep["conditions"].toObject()).toJson(QJsonDocument::Compact);
    }
};

WB_QTEST_GUILESS_MAIN(TestGradeGpu)
#include "tst_grade_gpu.moc"
