// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/Error.h"
#include "core/session/ProjectFile.h"
#include "tests/support/SuiteMain.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace wb::session;

namespace {
const char* kValid = R"json({
  "schemaVersion": 1,
  "name": "t",
  "kernel": {"file": "k.cu"},
  "compileOptions": {"optLevel": 2, "defines": {"TILE": "16"}, "fastMath": true},
  "scalars": [{"name": "N", "type": "i32", "value": 64}, {"name": "alpha", "type": "f32", "value": "N/2"}],
  "buffers": [
    {"name": "x", "type": "f32", "shape": ["N"], "role": "in", "init": {"kind": "uniform", "seed": 3, "low": -1}},
    {"name": "y", "type": "f32", "shape": ["N"], "role": "inout", "init": {"kind": "npy", "path": "y.npy"},
     "tolerance": {"maxUlp": 2}, "exports": ["y.bin"]},
    {"name": "m", "type": "u8", "shape": [4, "N/4", 2], "role": "out"}
  ],
  "launch": {"kernel": "saxpy", "grid": ["ceil(N/32)"], "block": [32], "sharedBytes": 0,
             "bindings": {"n": "N"}, "warmup": 2, "iterations": 5, "backend": "cpu", "device": 0},
  "reference": {"kind": "cpp", "file": "ref.cpp", "function": "ref"},
  "tolerance": {"atol": 0.001, "rtol": 0.0001, "nanEqual": true}
})json";

QString errorOf(const QString& json)
{
    try {
        ProjectFile::fromJson(json.toStdString(), "/base");
    } catch (const wb::Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

QString withChange(const QString& from, const QString& to)
{
    QString s = QString::fromUtf8(kValid);
    Q_ASSERT(s.contains(from));
    return s.replace(from, to);
}
} // namespace

class TestProjectFile : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void loadsEveryField()
    {
        const Session s = ProjectFile::fromJson(kValid, "/base");
        QCOMPARE(s.kernelFile, std::string("k.cu"));
        QCOMPARE(s.resolve("k.cu").string(), std::string("/base/k.cu"));
        QCOMPARE(s.resolve("/abs/k.cu").string(), std::string("/abs/k.cu"));
        QCOMPARE(s.compileOptions.optLevel, 2);
        QVERIFY(s.compileOptions.fastMath);
        QCOMPARE(s.scalars.size(), 2u);
        QCOMPARE(s.scalars[0].value, std::string("64"));
        QCOMPARE(s.buffers[2].shape, (std::vector<std::string>{"4", "N/4", "2"}));
        QCOMPARE(s.buffers[1].role, BufferRole::InOut);
        QVERIFY(s.buffers[1].tolerance.has_value());
        QCOMPARE(s.buffers[1].tolerance->mode, Tolerance::Mode::Ulp);
        QVERIFY(s.buffers[1].tolerance->nanEqual); // inherits the session's
        QCOMPARE(s.buffers[0].init.seed, 3u);
        QCOMPARE(s.launch.bindings.at("n"), std::string("N"));
        QCOMPARE(s.iterations, 5);
        QCOMPARE(s.backend, wb::BackendKind::Cpu);
        QCOMPARE(s.reference.kind, ReferenceSpec::Kind::Cpp);
        QCOMPARE(s.tolerance.atol, 0.001);
    }
    void roundTrip()
    {
        QTemporaryDir dir;
        const Session a = ProjectFile::fromJson(kValid, dir.path().toStdString());
        const std::string path = dir.filePath("p.wbproj").toStdString();
        ProjectFile::save(a, path);
        const Session b = ProjectFile::load(path);
        QVERIFY(a == b);
        QCOMPARE(b.baseDir, a.baseDir);
        ProjectFile::save(b, path);
        QVERIFY(ProjectFile::load(path) == a);
    }
    void cooperativeLaunchIsKept()
    {
        QVERIFY(!ProjectFile::fromJson(kValid, "/base").launch.cooperative);
        const Session a = ProjectFile::fromJson(
            withChange(R"x("sharedBytes": 0,)x", R"x("sharedBytes": 0, "cooperative": true,)x")
                .toStdString(),
            "/base");
        QVERIFY(a.launch.cooperative);
        const std::string json = ProjectFile::toJson(a);
        QVERIFY(json.find("\"cooperative\": true") != std::string::npos);
        QVERIFY(ProjectFile::fromJson(json, "/base") == a);
    }
    /// Found by tst_fuzzprojectfile: an expression string that reads as a number outside what a
    /// dimension accepts ("-1", "0.5") was saved as that number, and the saved file no longer
    /// loaded. It stays a string (and the run refuses it, naming the field).
    void dimensionExpressionsThatLookLikeBadNumbersStayStrings()
    {
        const Session a = ProjectFile::fromJson(
            withChange(R"x("grid": ["ceil(N/32)"])x", R"x("grid": [1, "-1", "0.5"])x")
                .toStdString(),
            "/base");
        const Session b = ProjectFile::fromJson(ProjectFile::toJson(a), "/base");
        QVERIFY(a == b);
        QCOMPARE(b.launch.grid, (std::vector<std::string>{"1", "-1", "0.5"}));
    }
    /// Found by tst_fuzzprojectfile: an empty "path" of an npy initialiser loaded, was left out
    /// when saved, and the saved file no longer loaded ("required field is missing").
    void emptyFileNamesAreRefused()
    {
        QVERIFY(errorOf(withChange(R"x("path": "y.npy")x", R"x("path": "")x"))
                    .startsWith("buffers[1].init.path: must not be empty"));
        QVERIFY(errorOf(withChange(R"x("file": "k.cu")x", R"x("file": "")x"))
                    .startsWith("kernel.file: must not be empty"));
        QVERIFY(errorOf(withChange(R"x("file": "ref.cpp")x", R"x("file": "")x"))
                    .startsWith("reference.file: must not be empty"));
    }
    void specialFilesAreRefusedAtOnce()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString fifo = dir.filePath("p.wbproj");
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        for (const QString& path : {fifo, QStringLiteral("/dev/zero"), dir.path()}) {
            try {
                ProjectFile::load(path.toStdString());
                QFAIL("no error");
            } catch (const wb::Error& e) {
                QCOMPARE(e.kind(), wb::Error::Kind::Io);
                QVERIFY2(QString(e.what()).contains("not a regular file"), e.what());
                QVERIFY2(QString(e.what()).contains("the project file"), e.what());
            }
        }
    }
    void roundTripShippedExamples()
    {
        QDirIterator it(QStringLiteral(WB_SOURCE_DIR "/resources/examples"), {"*.wbproj"},
                        QDir::Files, QDirIterator::Subdirectories);
        int n = 0;
        QTemporaryDir dir;
        while (it.hasNext()) {
            const std::string path = it.next().toStdString();
            const Session a = ProjectFile::load(path);
            const std::string copy = dir.filePath("copy.wbproj").toStdString();
            ProjectFile::save(a, copy);
            Session b = ProjectFile::load(copy);
            b.baseDir = a.baseDir;
            QVERIFY2(a == b, path.c_str());
            ++n;
        }
        QCOMPARE(n, 16); // 12 examples + 4 deliberately buggy variants (bugs/)
    }
    /// An integer above 2^53 (refused when run, but loadable) is saved with every digit: the
    /// fuzzer found "block": 46744073709551616 saved as 46744073709551620.
    void bigIntegersSaveExactly()
    {
        const std::string json =
            R"({"schemaVersion": 1, "name": "big", "kernel": {"file": "k.cu"},)"
            R"( "buffers": [{"name": "out", "type": "f32", "shape": [128], "role": "out"}],)"
            R"( "launch": {"kernel": "k", "grid": [4], "block": 46744073709551616}})";
        const Session a = ProjectFile::fromJson(json, "/tmp", "big.wbproj");
        QCOMPARE(a.launch.block.front(), std::string("46744073709551616"));
        const std::string saved = ProjectFile::toJson(a);
        QVERIFY2(saved.find("46744073709551616") != std::string::npos, saved.c_str());
        QCOMPARE(ProjectFile::toJson(ProjectFile::fromJson(saved, "/tmp", "big.wbproj")), saved);
    }
    void poisonSettingsRoundTrip()
    {
        QTemporaryDir dir;
        const char* json =
            R"({"schemaVersion": 1, "kernel": {"source": "k"}, "poisonOutputs": false,
            "buffers": [{"name": "a", "type": "f32", "shape": [4], "role": "out", "poison": true},
                        {"name": "b", "type": "f32", "shape": [4], "role": "out"},
                        {"name": "c", "type": "f32", "shape": [4], "role": "inout"}],
            "launch": {"kernel": "k", "grid": [1], "block": [4]}})";
        const Session a = ProjectFile::fromJson(json, dir.path().toStdString());
        QCOMPARE(a.poisonOutputs, false);
        QVERIFY(a.poisons(a.buffers[0]));
        QVERIFY(!a.poisons(a.buffers[1]));
        QVERIFY(!a.poisons(a.buffers[2])); // inout: its initial data is input
        const std::string path = dir.filePath("p.wbproj").toStdString();
        ProjectFile::save(a, path);
        QVERIFY(ProjectFile::load(path) == a);
        try {
            ProjectFile::fromJson(R"({"schemaVersion": 1, "kernel": {"source": "k"},
                "buffers": [{"name": "c", "type": "f32", "shape": [4], "role": "inout", "poison": true}],
                "launch": {"kernel": "k", "grid": [1], "block": [4]}})",
                                  dir.path().toStdString());
            QFAIL("poison on an inout buffer was accepted");
        } catch (const wb::Error& e) {
            QVERIFY2(QString(e.what()).contains("buffers[0].poison"), e.what());
        }
    }
    void sessionWithoutBuffers()
    {
        // A kernel that only takes scalars (and writes a global) needs no buffer.
        const std::string json = R"x({"schemaVersion": 1,
            "kernel": {"source": "__global__ void k(int n) {}"},
            "scalars": [{"name": "n", "type": "i32", "value": 3},
                        {"name": "big", "type": "u64", "value": 9007199254740993},
                        {"name": "flag", "type": "bool", "value": "true"}],
            "launch": {"kernel": "k", "grid": [1], "block": [1]}})x";
        const Session s = ProjectFile::fromJson(json, {}, "t.wbproj");
        QVERIFY(s.buffers.empty());
        // A JSON integer above 2^53 keeps every digit.
        QCOMPARE(s.scalars[1].value, std::string("9007199254740993"));
        QCOMPARE(s.scalars[2].type, ElementType::Bool);
        const Session again = ProjectFile::fromJson(ProjectFile::toJson(s), {}, "t.wbproj");
        QVERIFY(again == s);
    }
    /// Issue 29: an inline source keeps the name the window's tab gives it, so a race or a
    /// diagnostic names that file, not kernel.cu; the name survives a round trip.
    void inlineSourceKeepsItsName()
    {
        const std::string json = R"x({"schemaVersion": 1,
            "kernel": {"source": "__global__ void k(int n) {}", "name": "missing_syncthreads.cu"},
            "scalars": [{"name": "n", "type": "i32", "value": 3}],
            "launch": {"kernel": "k", "grid": [1], "block": [1]}})x";
        const Session s = ProjectFile::fromJson(json, {}, "t.wbproj");
        QCOMPARE(s.kernelSourceName(), std::string("missing_syncthreads.cu"));
        const Session again = ProjectFile::fromJson(ProjectFile::toJson(s), {}, "t.wbproj");
        QVERIFY(again == s);
        Session unnamed = s;
        unnamed.kernelSourceFileName.clear();
        QCOMPARE(unnamed.kernelSourceName(), std::string("kernel.cu"));
        Session file = s;
        file.kernelFile = "sub/k.cu";
        QCOMPARE(file.kernelSourceName(), std::string("k.cu"));
    }
    void validationMessagesNameTheField_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("shape") << withChange(R"x("shape": [4, "N/4", 2])x", R"x("shape": [4, 0])x")
                               << "buffers[2].shape: expected 1–3 positive integers";
        QTest::newRow("shape4") << withChange(R"x("shape": [4, "N/4", 2])x",
                                              R"x("shape": [1, 2, 3, 4])x")
                                << "buffers[2].shape: expected 1–3 positive integers";
        QTest::newRow("type") << withChange(R"x("type": "u8")x", R"x("type": "u9")x")
                              << "buffers[2].type: unknown element type \"u9\"";
        QTest::newRow("role") << withChange(R"x("role": "out")x", R"x("role": "output")x")
                              << "buffers[2].role: expected \"in\", \"out\" or \"inout\"";
        QTest::newRow("cooperative")
            << withChange(R"x("sharedBytes": 0,)x", R"x("sharedBytes": 0, "cooperative": 1,)x")
            << "launch.cooperative: expected true or false";
        QTest::newRow("unknown") << withChange(R"x("role": "out")x",
                                               R"x("role": "out", "shpe": 1)x")
                                 << "buffers[2].shpe: unknown field";
        QTest::newRow("init") << withChange(R"x("kind": "uniform")x", R"x("kind": "gauss")x")
                              << "buffers[0].init.kind: unknown initialiser \"gauss\"";
        QTest::newRow("npyPath") << withChange(R"x("kind": "npy", "path": "y.npy")x",
                                               R"x("kind": "npy")x")
                                 << "buffers[1].init.path: required field is missing";
        QTest::newRow("seed") << withChange(R"x("seed": 3)x", R"x("seed": -3)x")
                              << "buffers[0].init.seed: expected an integer in";
        QTest::newRow("dup") << withChange(R"x({"name": "m")x", R"x({"name": "x")x")
                             << "buffers[2].name: duplicate name \"x\"";
        QTest::newRow("ident") << withChange(R"x({"name": "m")x", R"x({"name": "2m")x")
                               << "buffers[2].name: \"2m\" is not an identifier";
        QTest::newRow("scalar")
            << withChange(R"x("value": 64)x", R"x("value": true)x")
            << "scalars[0].value: expected a number or an expression string, found a boolean";
        QTest::newRow("grid") << withChange(R"x("grid": ["ceil(N/32)"])x", R"x("grid": [])x")
                              << "launch.grid: expected 1–3 positive integers";
        QTest::newRow("kernel") << withChange(R"x("kernel": "saxpy", )x", "")
                                << "launch.kernel: required field is missing";
        QTest::newRow("backend") << withChange(R"x("backend": "cpu")x", R"x("backend": "tpu")x")
                                 << "launch.backend: expected \"auto\", \"cuda\" or \"cpu\"";
        QTest::newRow("iterations") << withChange(R"x("iterations": 5)x", R"x("iterations": 0)x")
                                    << "launch.iterations: expected an integer in 1–";
        QTest::newRow("tol") << withChange(R"x("maxUlp": 2)x", R"x("maxUlp": 2, "atol": 1)x")
                             << "buffers[1].tolerance.maxUlp: give either maxUlp or atol/rtol";
        QTest::newRow("atol") << withChange(R"x("atol": 0.001)x", R"x("atol": -1)x")
                              << "tolerance.atol: must be at least 0";
        QTest::newRow("refKind")
            << withChange(R"x("kind": "cpp")x", R"x("kind": "python")x")
            << "reference.kind: expected \"none\", \"cpp\", \"kernel\" or \"files\"";
        QTest::newRow("export") << withChange(R"x(["y.bin"])x", R"x(["y.tiff"])x")
                                << "buffers[1].exports[0]: expected a file name ending in";
        // Issue 26: exports are plain file names inside the output folder.
        QTest::newRow("exportAbsolute")
            << withChange(R"x(["y.bin"])x", R"x(["/root/x.bin"])x")
            << "buffers[1].exports[0]: \"/root/x.bin\" is a path: an export is a file name";
        QTest::newRow("exportParent")
            << withChange(R"x(["y.bin"])x", R"x(["y.bin", "../../y.npy"])x")
            << "buffers[1].exports[1]: \"../../y.npy\" is a path";
        QTest::newRow("exportSubfolder") << withChange(R"x(["y.bin"])x", R"x(["sub/y.npy"])x")
                                         << "buffers[1].exports[0]: \"sub/y.npy\" is a path";
        QTest::newRow("exportBackslash") << withChange(R"x(["y.bin"])x", R"x(["..\\y.npy"])x")
                                         << "buffers[1].exports[0]: \"..\\y.npy\" is a path";
        QTest::newRow("exportNul") << withChange(R"x(["y.bin"])x", R"x(["x.npy\u0000.png"])x")
                                   << "buffers[1].exports[0]: a file name cannot contain a NUL";
        QTest::newRow("exportControl") << withChange(R"x(["y.bin"])x", R"x(["x\n.npy"])x")
                                       << "buffers[1].exports[0]: a file name cannot contain "
                                          "control characters";
        QTest::newRow("exportEmpty") << withChange(R"x(["y.bin"])x", R"x([""])x")
                                     << "buffers[1].exports[0]: must not be empty";
        QTest::newRow("exportDots") << withChange(R"x(["y.bin"])x", R"x([".."])x")
                                    << "buffers[1].exports[0]: \"..\" is not a file name";
        QTest::newRow("exportLong")
            << withChange(R"x(["y.bin"])x", "[\"" + QString(300, 'a') + ".npy\"]")
            << "buffers[1].exports[0]: a file name has at most 255 bytes";
        QTest::newRow("kernelSrc")
            << withChange(R"x({"file": "k.cu"})x", R"x({"file": "k.cu", "source": "x"})x")
            << "kernel: give exactly one of";
        // Issue 29: an inline source's name is a plain file name, for inline sources only.
        QTest::newRow("kernelNameWithFile")
            << withChange(R"x({"file": "k.cu"})x", R"x({"file": "k.cu", "name": "k.cu"})x")
            << "kernel.name: only an inline \"source\" takes a name";
        QTest::newRow("kernelNamePath")
            << withChange(R"x({"file": "k.cu"})x", R"x({"source": "x", "name": "../k.cu"})x")
            << "kernel.name: \"../k.cu\" is not a plain file name";
        QTest::newRow("newer") << withChange(R"x("schemaVersion": 1)x", R"x("schemaVersion": 7)x")
                               << "schemaVersion: this project uses schema version 7, newer than "
                                  "this Warpbench understands (1)";
        QTest::newRow("noVersion") << withChange(R"x("schemaVersion": 1,)x", "")
                                   << "schemaVersion: required field is missing";
        QTest::newRow("json") << QString("{ \"schemaVersion\": 1, ") << "not valid JSON";
    }
    void validationMessagesNameTheField()
    {
        QFETCH(QString, json);
        QFETCH(QString, message);
        const QString got = errorOf(json);
        QVERIFY2(got.contains(message), qPrintable("got: " + got));
    }
    void unreadableFile()
    {
        try {
            ProjectFile::load("/nonexistent/p.wbproj");
            QFAIL("no error");
        } catch (const wb::Error& e) {
            QCOMPARE(e.kind(), wb::Error::Kind::Io);
        }
    }
    void atomicSaveReplacesTheFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("p.wbproj");
        const Session a = ProjectFile::fromJson(kValid, dir.path().toStdString());
        ProjectFile::save(a, path.toStdString());
        // QSaveFile writes a temporary file and renames it over the old one: the old file is
        // never opened for writing, so its inode is replaced, not truncated and rewritten.
        struct stat before {};
        QCOMPARE(::stat(path.toLocal8Bit().constData(), &before), 0);
        Session b = a;
        b.name = "changed";
        ProjectFile::save(b, path.toStdString());
        struct stat after {};
        QCOMPARE(::stat(path.toLocal8Bit().constData(), &after), 0);
        QVERIFY(before.st_ino != after.st_ino);
        QCOMPARE(ProjectFile::load(path.toStdString()).name, std::string("changed"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"p.wbproj"}); // no leftovers
    }
    void failedSaveKeepsTheOldFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("p.wbproj");
        const Session a = ProjectFile::fromJson(kValid, dir.path().toStdString());
        ProjectFile::save(a, path.toStdString());
        // A save into a read-only folder fails without touching the existing file.
        QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::ExeOwner);
        Session b = a;
        b.name = "changed";
        bool threw = false;
        try {
            ProjectFile::save(b, path.toStdString());
        } catch (const wb::Error&) {
            threw = true;
        }
        QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        if (!threw)
            QSKIP("running as root: a read-only folder does not stop writes "
                  "(atomicSaveReplacesTheFile covers the mechanism)");
        QCOMPARE(ProjectFile::load(path.toStdString()).name, std::string("t"));
    }
};

WB_QTEST_GUILESS_MAIN(TestProjectFile)
#include "tst_projectfile.moc"
