// SPDX-License-Identifier: GPL-3.0-or-later
// Tests core/profiling/RunHistory.*: round trips, baselines, comparisons, migration from
// schema 1, refusal of newer/foreign files, a locked database (clear error, retry, no data
// loss) and corrupt files (clear error naming the file, never overwritten).
#include "core/common/Error.h"
#include "core/profiling/history/RunHistory.h"
#include "tests/support/SuiteMain.h"

#include <QFile>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <chrono>
#include <cmath>
#include <fstream>
#include <sstream>
#include <thread>

using namespace wb::profiling;

namespace {

RunRecord sampleRun(const std::string& kernel, const std::string& source, double medianS)
{
    RunRecord r;
    r.kernel = kernel;
    r.backend = "cuda";
    r.source = source;
    r.options.arch = "sm_90";
    r.options.defines = {{"TILE", "32"}, {"FAST", ""}};
    r.options.extraFlags = {"--extra-device-vectorization"};
    r.launch.grid = {4096, 2, 1};
    r.launch.block = {256, 1, 1};
    r.launch.sharedBytes = 1024;
    r.device.name = "NVIDIA H200";
    r.device.arch = "sm_90";
    r.device.multiprocessors = 132;
    r.device.totalMemoryBytes = 150ull << 30;
    r.metrics = {{"wb/timing/median", "Median", "duration", medianS, "Median time"},
                 {"wb/counter/dram__bytes_read.sum", "DRAM read", "bytes", 268435456.0, ""}};
    r.verdict = "pass";
    r.note = "first try";
    return r;
}

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// A second, independent connection to the same file (another program, in effect).
class OtherConnection {
public:
    explicit OtherConnection(const QString& file, const QString& name)
        : m_name(name)
    {
        QSqlDatabase db = QSqlDatabase::addDatabase("QSQLITE", m_name);
        db.setDatabaseName(file);
        if (!db.open()) qFatal("cannot open the other connection");
    }
    ~OtherConnection()
    {
        QSqlDatabase::database(m_name).close();
        QSqlDatabase::removeDatabase(m_name);
    }
    bool exec(const QString& sql)
    {
        QSqlQuery q(QSqlDatabase::database(m_name));
        const bool ok = q.exec(sql);
        if (!ok) qWarning("%s: %s", qPrintable(sql), qPrintable(q.lastError().text()));
        return ok;
    }
    int count(const QString& sql)
    {
        QSqlQuery q(QSqlDatabase::database(m_name));
        return q.exec(sql) && q.next() ? q.value(0).toInt() : -1;
    }

private:
    QString m_name;
};

} // namespace

class TestRunHistory : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void paths()
    {
        QCOMPARE(RunHistory::pathForProject("/p/saxpy.wbproj"),
                 std::filesystem::path("/p/saxpy.wbhistory"));
        QCOMPARE(RunHistory::pathForUnsaved().filename(),
                 std::filesystem::path("unsaved.wbhistory"));
    }

    void roundTrip()
    {
        QTemporaryDir dir;
        const std::string file = dir.filePath("p.wbhistory").toStdString();
        RunRecord a = sampleRun("saxpy", "__global__ void saxpy() {}\n", 250e-6);
        RunRecord b = sampleRun("saxpy", "__global__ void saxpy() { /* v2 */ }\n", 240e-6);
        RunRecord c = sampleRun("copy", "__global__ void copy() {}\n", 100e-6);
        {
            RunHistory h(file);
            QCOMPARE(h.schemaVersion(), RunHistory::kSchemaVersion);
            QCOMPARE(h.record(a), std::int64_t{1});
            QCOMPARE(h.record(b), std::int64_t{2});
            QCOMPARE(h.record(c), std::int64_t{3});
            QVERIFY(!a.createdAt.empty());
            QCOMPARE(a.sourceHash.size(), std::size_t{64});
        }
        RunHistory h(file); // reopened: everything came from disk
        const std::optional<RunRecord> got = h.get(1);
        QVERIFY(got);
        QCOMPARE(got->kernel, a.kernel);
        QCOMPARE(got->backend, a.backend);
        QCOMPARE(got->source, a.source);
        QCOMPARE(got->sourceHash, a.sourceHash);
        QVERIFY(got->options == a.options);
        QVERIFY(got->launch == a.launch);
        QCOMPARE(got->device.name, a.device.name);
        QCOMPARE(got->device.multiprocessors, 132);
        QCOMPARE(got->device.totalMemoryBytes, a.device.totalMemoryBytes);
        QCOMPARE(got->metrics.size(), a.metrics.size());
        for (std::size_t i = 0; i < a.metrics.size(); ++i)
            QVERIFY(got->metrics[i] == a.metrics[i]);
        QCOMPARE(got->verdict, a.verdict);
        QCOMPARE(got->note, a.note);
        QCOMPARE(got->createdAt, a.createdAt);
        QVERIFY(!h.get(99));

        const std::vector<RunRecord> all = h.list();
        QCOMPARE(all.size(), std::size_t{3});
        QCOMPARE(all[0].id, std::int64_t{3}); // newest first
        QVERIFY(all[0].source.empty());       // lists carry no source text
        QCOMPARE(all[2].metrics.size(), std::size_t{2});
        QCOMPARE(h.list("saxpy").size(), std::size_t{2});
        QCOMPARE(h.list("saxpy", 1).front().id, std::int64_t{2});
    }

    void sourcesAreStoredOnce()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath("p.wbhistory");
        {
            RunHistory h(file.toStdString());
            for (int i = 0; i < 3; ++i) {
                RunRecord r = sampleRun("k", "same source\n", 1e-3);
                h.record(r);
            }
        }
        OtherConnection other(file, "count");
        QCOMPARE(other.count("SELECT count(*) FROM sources"), 1);
        QCOMPARE(other.count("SELECT count(*) FROM runs"), 3);
        QCOMPARE(other.count("SELECT count(*) FROM metrics"), 6);
    }

    void baselinesAndComparison()
    {
        QTemporaryDir dir;
        RunHistory h(dir.filePath("p.wbhistory").toStdString());
        RunRecord a = sampleRun("saxpy", "int a;\nint b;\nint c;\n", 200e-6);
        RunRecord b = sampleRun("saxpy", "int a;\nint B;\nint c;\n", 150e-6);
        b.launch.block = {512, 1, 1};
        b.verdict = "fail: 2 mismatches";
        h.record(a);
        h.record(b);
        QVERIFY(!h.baseline("saxpy"));
        QVERIFY(!h.compareWithBaseline(b.id));

        h.setBaseline(a.id);
        QCOMPARE(h.baseline("saxpy")->id, a.id);
        QVERIFY(h.get(a.id)->baseline);
        RunRecord c = sampleRun("saxpy", "int a;\n", 100e-6);
        c.baseline = true; // recording a new baseline unmarks the old one
        h.record(c);
        QCOMPARE(h.baseline("saxpy")->id, c.id);
        QVERIFY(!h.get(a.id)->baseline);
        h.setBaseline(a.id);

        const std::optional<RunComparison> cmp = h.compareWithBaseline(b.id);
        QVERIFY(cmp);
        QCOMPARE(cmp->before.id, a.id);
        QVERIFY(!cmp->sameSource);
        QCOMPARE(cmp->sourceDiff, std::string("--- run 1\n+++ run 2\n@@ -1,3 +1,3 @@\n int a;\n"
                                              "-int b;\n+int B;\n int c;\n"));
        const MetricDelta& median = cmp->metrics.front();
        QCOMPARE(median.tag, std::string("wb/timing/median"));
        QVERIFY(std::fabs(*median.deltaPercent - (-25.0)) < 1e-9);
        QCOMPARE(*cmp->metrics[1].deltaPercent, 0.0);
        QCOMPARE(cmp->settingChanges.size(), std::size_t{2}); // launch and verdict
        QVERIFY(cmp->settingChanges[0].find("block 256x1x1") != std::string::npos);
        QVERIFY(cmp->settingChanges[0].find("block 512x1x1") != std::string::npos);

        h.clearBaseline("saxpy");
        QVERIFY(!h.baseline("saxpy"));
        QVERIFY_THROWS_EXCEPTION(wb::Error, h.setBaseline(42));
        QVERIFY_THROWS_EXCEPTION(wb::Error, h.compare(1, 42));
    }

    void metricDeltasPairByTag()
    {
        const std::vector<Summary> before{
            {"x", "X", "", 10, ""}, {"gone", "G", "", 1, ""}, {"zero", "Z", "", 0, ""}};
        const std::vector<Summary> after{
            {"new", "N", "", 5, ""}, {"x", "X", "", 12, ""}, {"zero", "Z", "", 3, ""}};
        const std::vector<MetricDelta> d = metricDeltas(before, after);
        QCOMPARE(d.size(), std::size_t{4});
        QCOMPARE(*d[0].deltaPercent, 20.0);
        QVERIFY(!d[1].after && !d[1].deltaPercent);
        QVERIFY(!d[2].deltaPercent); // from 0: no percentage
        QCOMPARE(d[3].tag, std::string("new"));
        QVERIFY(!d[3].before);
    }

    void migratesFromVersion1()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath("old.wbhistory");
        {
            OtherConnection old(file, "v1");
            QFile sql(QStringLiteral(WB_TEST_DATA_DIR "/history-v1.sql"));
            QVERIFY(sql.open(QIODevice::ReadOnly));
            for (const QString& statement : QString::fromUtf8(sql.readAll()).split(";\n")) {
                QString s = statement;
                QStringList lines = s.split('\n');
                lines.removeIf([](const QString& l) { return l.startsWith("--"); });
                s = lines.join('\n').trimmed();
                if (!s.isEmpty()) QVERIFY(old.exec(s));
            }
            QCOMPARE(old.count("PRAGMA user_version"), 1);
        }
        RunHistory h(file.toStdString());
        QCOMPARE(h.schemaVersion(), 2);
        const std::optional<RunRecord> first = h.get(1);
        QVERIFY(first);
        QCOMPARE(first->kernel, std::string("saxpy"));
        QCOMPARE(first->backend, std::string("cuda"));
        QCOMPARE(first->source,
                 std::string("__global__ void saxpy(float a, float* x, float* y) { }"));
        QCOMPARE(first->options.arch, std::string("sm_90"));
        QCOMPARE(first->launch.grid.x, 4096u);
        QCOMPARE(first->device.name, std::string("NVIDIA H200"));
        QCOMPARE(first->verdict, std::string("pass"));
        QCOMPARE(first->metrics.size(), std::size_t{5});
        QCOMPARE(first->metrics[1].tag, std::string("wb/timing/median"));
        QVERIFY(std::fabs(first->metrics[1].value - 0.25e-3) < 1e-15);
        QCOMPARE(first->metrics[4].value, 120.0);
        const std::optional<RunRecord> second = h.get(2);
        QCOMPARE(second->sourceHash, first->sourceHash);
        QCOMPARE(second->metrics.size(), std::size_t{1});
        QCOMPARE(second->verdict, std::string(""));
        RunRecord next = sampleRun("saxpy", "new\n", 1e-4);
        QCOMPARE(h.record(next), std::int64_t{3});
        h.setBaseline(1);
        const RunComparison cmp = *h.compareWithBaseline(3);
        QCOMPARE(cmp.metrics[1].tag, std::string("wb/timing/median"));
        QVERIFY(std::fabs(*cmp.metrics[1].deltaPercent - (-60.0)) < 1e-9);
        QVERIFY(!cmp.metrics[0].deltaPercent); // min: not in the new run
    }

    void refusesNewerAndForeignFiles()
    {
        QTemporaryDir dir;
        const QString newer = dir.filePath("newer.wbhistory");
        {
            OtherConnection c(newer, "newer");
            QVERIFY(c.exec("CREATE TABLE future (x)"));
            QVERIFY(c.exec("PRAGMA user_version = 99"));
        }
        const std::string before = readFile(newer.toStdString());
        try {
            RunHistory h(newer.toStdString());
            QFAIL("a newer schema was opened");
        } catch (const wb::Error& e) {
            QVERIFY(std::string(e.what()).find("newer Warpbench") != std::string::npos);
        }
        QCOMPARE(readFile(newer.toStdString()), before);

        const QString foreign = dir.filePath("foreign.sqlite");
        {
            OtherConnection c(foreign, "foreign");
            QVERIFY(c.exec("CREATE TABLE contacts (name)"));
        }
        QVERIFY_THROWS_EXCEPTION(wb::Error, RunHistory(foreign.toStdString()));
    }

    void lockedDatabaseFailsClearlyThenRetrySucceeds()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath("p.wbhistory");
        RunHistory::OpenOptions options;
        options.busyTimeoutMs = 200;
        RunHistory h(file.toStdString(), options);
        RunRecord first = sampleRun("k", "one\n", 1e-3);
        h.record(first);

        OtherConnection other(file, "locker");
        QVERIFY(other.exec("BEGIN EXCLUSIVE"));
        QVERIFY(other.exec(
            "INSERT INTO sources (hash, text) VALUES ('other', 'written by the other program')"));
        RunRecord blocked = sampleRun("k", "two\n", 2e-3);
        const auto start = std::chrono::steady_clock::now();
        try {
            h.record(blocked);
            QFAIL("recording succeeded while another connection held an exclusive lock");
        } catch (const wb::Error& e) {
            QCOMPARE(e.kind(), wb::Error::Kind::Timeout);
            const std::string what = e.what();
            QVERIFY2(what.find("locked") != std::string::npos, e.what());
            QVERIFY2(what.find(file.toStdString()) != std::string::npos, e.what());
        }
        const double waited =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        QVERIFY2(waited >= 0.15, "the busy timeout was not honoured");
        QCOMPARE(blocked.id, std::int64_t{0});
        QVERIFY(other.exec("COMMIT"));

        // Retry: it goes in, and neither the other program's write nor the first run is lost.
        QCOMPARE(h.record(blocked), std::int64_t{2});
        QCOMPARE(h.list().size(), std::size_t{2});
        QCOMPARE(other.count("SELECT count(*) FROM sources WHERE hash = 'other'"), 1);
        QCOMPARE(h.get(1)->source, std::string("one\n"));
    }

    void lockReleasedWithinTimeoutIsWaitedFor()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath("p.wbhistory");
        RunHistory h(file.toStdString()); // default busy timeout: 5 s
        std::atomic<bool> locked{false};
        std::thread holder([&] {
            OtherConnection other(file, "holder");
            other.exec("BEGIN EXCLUSIVE");
            locked = true;
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            other.exec("COMMIT");
        });
        while (!locked)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        RunRecord r = sampleRun("k", "waited\n", 1e-3);
        const auto start = std::chrono::steady_clock::now();
        h.record(r);
        const double waited =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        holder.join();
        QCOMPARE(r.id, std::int64_t{1});
        QVERIFY(waited > 0.2);
        QCOMPARE(h.get(1)->source, std::string("waited\n"));
    }

    void corruptFileIsNamedAndKept()
    {
        QTemporaryDir dir;
        const std::string file = dir.filePath("broken.wbhistory").toStdString();
        std::string garbage = "This is not an SQLite database, just bytes.\n";
        while (garbage.size() < 8192)
            garbage += garbage;
        {
            std::ofstream out(file, std::ios::binary);
            out << garbage;
        }
        try {
            RunHistory h(file);
            QFAIL("a corrupt file was opened");
        } catch (const wb::Error& e) {
            QCOMPARE(e.kind(), wb::Error::Kind::Io);
            const std::string what = e.what();
            QVERIFY2(what.find(file) != std::string::npos, e.what());
            QVERIFY2(what.find("corrupt") != std::string::npos, e.what());
        }
        QCOMPARE(readFile(file), garbage); // untouched

        RunHistory::OpenOptions options;
        options.moveCorruptAside = true;
        RunHistory h(file, options);
        QVERIFY(h.warning().find("kept as") != std::string::npos);
        const auto pos = h.warning().find(file + ".corrupt-");
        QVERIFY2(pos != std::string::npos, h.warning().c_str());
        const std::string aside = h.warning().substr(pos, h.warning().find('\'', pos) - pos);
        QCOMPARE(readFile(aside), garbage); // the damaged file is kept, byte for byte
        RunRecord r = sampleRun("k", "fresh\n", 1e-3);
        QCOMPARE(h.record(r), std::int64_t{1});
    }

    void damagedDatabaseIsDetected()
    {
        QTemporaryDir dir;
        const std::string file = dir.filePath("damaged.wbhistory").toStdString();
        {
            RunHistory h(file);
            for (int i = 0; i < 50; ++i) {
                RunRecord r =
                    sampleRun("k", "source " + std::to_string(i) + std::string(2000, 'x'), 1e-3);
                h.record(r);
            }
        }
        // Overwrite the middle of the file (b-tree pages) with garbage, keep the header.
        std::string bytes = readFile(file);
        QVERIFY(bytes.size() > 16384);
        for (std::size_t i = 4096; i < bytes.size() - 4096; ++i)
            bytes[i] = static_cast<char>(i * 7);
        {
            std::ofstream out(file, std::ios::binary | std::ios::trunc);
            out << bytes;
        }
        try {
            RunHistory h(file);
            QFAIL("a damaged database was opened without complaint");
        } catch (const wb::Error& e) {
            QVERIFY2(std::string(e.what()).find(file) != std::string::npos, e.what());
        }
        QCOMPARE(readFile(file), bytes);
    }
};

WB_QTEST_GUILESS_MAIN(TestRunHistory)
#include "tst_runhistory.moc"
