// SPDX-License-Identifier: GPL-3.0-or-later
// Tests core/profiling/ProfileCodec.* and ProfileReport.*: a ProfileResult with counters and
// warnings survives the trip through the runner's JSON exactly; options, states and malformed
// input; the counter rows and the CLI text.
#include "core/common/Error.h"
#include "core/profiling/MetricTable.h"
#include "core/profiling/ProfileCodec.h"
#include "core/profiling/Statistics.h"
#include "tests/support/SuiteMain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <cmath>
#include <limits>

using namespace wb::profiling;

namespace {

ProfileResult makeResult()
{
    ProfileResult r;
    r.device.name = "Test GPU";
    r.device.nominalSmClockHz = 1.98e9;
    r.device.peaks.bandwidthBytesPerS = 4.8e12;
    r.timing.method = "cuda-event";
    r.timing.samplesMs = {0.0105, 0.0110, 0.0102, 0.0108, 0.01049999999999999};
    r.timing.statsMs = computeStatistics(r.timing.samplesMs);
    r.timing.stopReason = StopReason::NoiseReached;
    r.workload.bytes = 800000.0;
    CounterReport c;
    c.chip = "GH100";
    c.passes = 8;
    c.launches = 1;
    c.ranges = 1;
    for (const auto& [name, value] : std::vector<std::pair<std::string, double>>{
             {"gpu__time_duration.sum", 10400.0},
             {"sm__throughput.avg.pct_of_peak_sustained_elapsed", 12.345678901234567},
             {"dram__bytes_read.sum", 4.0e6},
             {"made_up__metric.sum", 3.0}})
        c.values.push_back({name, value, findMetric(name)});
    c.warnings = {"metric 'nonsense' is not known for GH100: dropped"};
    r.counters = c;
    r.warnings = {"CUPTI timing unavailable, CUDA events used: no CUPTI", "second warning"};
    return r;
}

} // namespace

class TestProfileCodec : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void roundTripIsExact()
    {
        const ProfileReport before = ProfileReport::fromResult(makeResult(), true);
        QVERIFY(before.profiled());
        QVERIFY(before.counterStatus && before.counterStatus->ok());
        QCOMPARE(before.passes, std::size_t(8));
        QVERIFY(before.summaries.size() > 10);
        // Through text, as on the wire.
        const QByteArray wire = QJsonDocument(ProfileCodec::toJson(before)).toJson();
        const ProfileReport after = ProfileCodec::fromJson(QJsonDocument::fromJson(wire).object());
        QCOMPARE(after.status.state, before.status.state);
        QCOMPARE(after.device, std::string("Test GPU"));
        QCOMPARE(after.timingMethod, std::string("cuda-event"));
        QCOMPARE(after.flushL2, true);
        QCOMPARE(after.stopReason, before.stopReason);
        QCOMPARE(after.chip, std::string("GH100"));
        QCOMPARE(after.passes, before.passes);
        QVERIFY(after.counterStatus && after.counterStatus->ok());
        QVERIFY(after.summaries == before.summaries); // every double bit for bit
        QCOMPARE(after.warnings, before.warnings);
        QCOMPARE(after.warnings.size(), std::size_t(2));
    }

    void counterStatusAndNonFiniteValues()
    {
        ProfileReport r = ProfileReport::fromResult(makeResult(), false);
        r.counterStatus = ProfilerStatus{ProfilerStatus::State::InsufficientPrivileges,
                                         "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"};
        r.summaries.push_back(
            {"wb/x/nan", "NaN", "", std::numeric_limits<double>::quiet_NaN(), ""});
        r.summaries.push_back(
            {"wb/x/inf", "Inf", "", -std::numeric_limits<double>::infinity(), ""});
        const ProfileReport back = ProfileCodec::fromJson(ProfileCodec::toJson(r));
        QVERIFY(back.counterStatus);
        QCOMPARE(back.counterStatus->state, ProfilerStatus::State::InsufficientPrivileges);
        QCOMPARE(back.counterStatus->message, std::string("CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"));
        QCOMPARE(back.flushL2, false);
        QVERIFY(std::isnan(back.summaries[back.summaries.size() - 2].value));
        QCOMPARE(back.summaries.back().value, -std::numeric_limits<double>::infinity());

        // No counters asked for: no counterStatus key, none after the trip.
        ProfileReport timingOnly = ProfileReport::fromResult(makeResult(), true);
        timingOnly.counterStatus.reset();
        QVERIFY(!ProfileCodec::toJson(timingOnly).contains(QStringLiteral("counterStatus")));
        QVERIFY(!ProfileCodec::fromJson(ProfileCodec::toJson(timingOnly)).counterStatus);
    }

    void notProfiledKeepsItsReason()
    {
        const ProfileReport r = ProfileReport::notProfiled(
            {ProfilerStatus::State::UnsupportedDevice, "needs the CUDA backend"});
        const ProfileReport back = ProfileCodec::fromJson(ProfileCodec::toJson(r));
        QVERIFY(!back.profiled());
        QCOMPARE(back.status.state, ProfilerStatus::State::UnsupportedDevice);
        QCOMPARE(back.status.message, std::string("needs the CUDA backend"));
        QVERIFY(back.summaries.empty());
        QVERIFY(QString::fromStdString(back.toText())
                    .contains(QStringLiteral("needs the CUDA backend")));
    }

    void malformedInputThrows()
    {
        QJsonObject j = ProfileCodec::toJson(ProfileReport::fromResult(makeResult(), true));
        QJsonObject bad = j;
        bad["status"] = QJsonObject{{"state", "melted"}, {"message", ""}};
        QVERIFY_THROWS_EXCEPTION(wb::Error, ProfileCodec::fromJson(bad));
        bad = j;
        bad.remove(QStringLiteral("status"));
        QVERIFY_THROWS_EXCEPTION(wb::Error, ProfileCodec::fromJson(bad));
        bad = j;
        bad["summaries"] = QJsonArray{QJsonObject{{"tag", "wb/x"}, {"value", "lots"}}};
        QVERIFY_THROWS_EXCEPTION(wb::Error, ProfileCodec::fromJson(bad));
        bad = j;
        bad["passes"] = -1;
        QVERIFY_THROWS_EXCEPTION(wb::Error, ProfileCodec::fromJson(bad));
        for (ProfilerStatus::State s :
             {ProfilerStatus::State::Ok, ProfilerStatus::State::NoDriver,
              ProfilerStatus::State::NoCupti, ProfilerStatus::State::InsufficientPrivileges,
              ProfilerStatus::State::ProfilerBusy, ProfilerStatus::State::UnsupportedDevice,
              ProfilerStatus::State::InvalidMetric, ProfilerStatus::State::Failed})
            QCOMPARE(ProfileCodec::stateFromName(profilerStateName(s)), s);
    }

    void optionsRoundTrip()
    {
        SessionProfileOptions o;
        o.timing = TimingMethod::CuptiActivity;
        o.flushL2 = false;
        o.counters = false;
        o.replay = ReplayMode::User;
        const SessionProfileOptions back =
            ProfileCodec::optionsFromJson(ProfileCodec::optionsToJson(o));
        QCOMPARE(back.timing, TimingMethod::CuptiActivity);
        QCOMPARE(back.flushL2, false);
        QCOMPARE(back.counters, false);
        QCOMPARE(back.replay, ReplayMode::User);
        const SessionProfileOptions defaults = ProfileCodec::optionsFromJson({});
        QCOMPARE(defaults.timing, TimingMethod::CudaEvents);
        QVERIFY(defaults.flushL2 && defaults.counters);
        QVERIFY_THROWS_EXCEPTION(wb::Error,
                                 ProfileCodec::optionsFromJson(QJsonObject{{"timing", "sundial"}}));
    }

    void counterRowsAndText()
    {
        const ProfileReport r = ProfileReport::fromResult(makeResult(), true);
        const std::vector<CounterRow> rows = r.counterRows();
        QCOMPARE(rows.size(), std::size_t(4)); // "passes" is not a counter row
        QCOMPARE(rows[0].metric, std::string("gpu__time_duration.sum"));
        QCOMPARE(rows[0].name, std::string("Duration"));
        QCOMPARE(rows[0].unit, std::string("ns"));
        QCOMPARE(rows[0].value, 10400.0); // back in the metric's own unit
        QCOMPARE(rows[2].unit, std::string("bytes"));
        QCOMPARE(rows[2].value, 4.0e6);
        QCOMPARE(rows[3].name, std::string("made_up__metric.sum"));
        QCOMPARE(rows[3].unit, std::string());
        const QString text = QString::fromStdString(r.toText());
        for (const char* s :
             {"Test GPU", "cuda-event", "L2 flushed", "median", "Counters  ok", "8 passes", "GH100",
              "Duration", "10400", "ns", "DRAM read", "warning: second warning"})
            QVERIFY2(text.contains(QLatin1String(s)),
                     qPrintable(s + QStringLiteral(" in\n") + text));
    }
};

WB_QTEST_MAIN(TestProfileCodec)
#include "tst_profilecodec.moc"
