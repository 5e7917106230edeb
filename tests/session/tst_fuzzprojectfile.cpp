// SPDX-License-Identifier: GPL-3.0-or-later
// Bounded mutation fuzzing of the project loader (ProjectFile) and of the .npy parser: every
// input either loads or is refused with a wb::Error; a crash, a hang or any other exception
// fails the test. A project that loads must save and load again to the same JSON. Seeds are
// the examples' and the tests' .wbproj files. A few seconds in CI; $WB_FUZZ_SECONDS for more
// (tests/fuzz/FuzzMutator.h).
#include "core/common/Error.h"
#include "core/session/Npy.h"
#include "core/session/ProjectFile.h"
#include "core/session/SessionRunner.h"
#include "tests/fuzz/FuzzMutator.h"
#include "tests/support/SuiteMain.h"

#include <QDirIterator>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

using namespace wb::session;

namespace {

std::vector<std::string> projectSeeds()
{
    std::vector<std::string> seeds;
    for (const char* root : {WB_SOURCE_DIR "/resources/examples", WB_SOURCE_DIR "/tests"}) {
        QDirIterator it(QString::fromUtf8(root), {QStringLiteral("*.wbproj")}, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            std::ifstream in(it.next().toStdString(), std::ios::binary);
            std::ostringstream ss;
            ss << in.rdbuf();
            seeds.push_back(ss.str());
        }
    }
    std::sort(seeds.begin(), seeds.end()); // the same order on every machine: reproducible runs
    // Issue 26: exports that once escaped the output folder, as seeds of their own.
    for (const char* exports :
         {R"(["/tmp/wb-fuzz-escape.bin", "../../wb-fuzz-escape.npy"])", R"(["x.npy\u0000.png"])",
          R"(["sub/dir.npy", "..", ".", "", "a\\b.png"])", R"(["ok.npy", "ok.bin", "ok.png"])"})
        seeds.push_back(std::string(R"({"schemaVersion": 1, "name": "e", "kernel": {"file": "k.cu"},
 "scalars": [{"name": "n", "type": "i32", "value": 4}],
 "buffers": [{"name": "y", "type": "f32", "shape": ["n"], "role": "out", "exports": )") +
                        exports + R"(}],
 "launch": {"kernel": "k", "grid": [1], "block": [4]}})");
    return seeds;
}

/// .npy files: NumPy's own output for a few types and shapes, and headers that a lenient
/// parser once misread (issue 26).
std::vector<std::string> npySeeds()
{
    std::vector<std::string> seeds;
    const std::vector<std::vector<std::size_t>> shapes = {{4}, {2, 3}, {1, 2, 2}, {0}};
    for (const ElementType t : {ElementType::F32, ElementType::U8, ElementType::F64})
        for (const std::vector<std::size_t>& shape : shapes)
            seeds.push_back(Npy::serialize(HostArray(t, shape)));
    for (const std::string& shape : {std::string("(400.0,)"), std::string("(True,)"),
                                     std::string(5000, '(') + "4," + std::string(5000, ')'),
                                     std::string("(4)"), std::string("()")}) {
        std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }";
        while ((12 + header.size() + 1) % 64)
            header += ' ';
        header += '\n';
        std::string bytes = std::string("\x93NUMPY\x02\x00", 8);
        for (int i = 0; i < 4; ++i)
            bytes += static_cast<char>((header.size() >> (8 * i)) & 0xff);
        seeds.push_back(bytes + header + std::string(16, '\0'));
    }
    return seeds;
}

/// Every file and folder below `root`, as paths relative to it.
std::set<std::string> tree(const std::filesystem::path& root)
{
    std::set<std::string> out;
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(root, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
        out.insert(std::filesystem::relative(it->path(), root, ec).string());
    return out;
}

} // namespace

class TestFuzzProjectFile : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void projectLoader()
    {
        const std::vector<std::string> seeds = projectSeeds();
        QVERIFY2(seeds.size() >= 10, "expected the examples' projects as seeds");
        const wb::fuzz::Budget budget = wb::fuzz::Budget::fromEnvironment(3);
        wb::fuzz::Mutator m(budget.seed);
        const std::filesystem::path base = WB_SOURCE_DIR "/resources/examples/saxpy";
        QElapsedTimer timer;
        timer.start();
        std::uint64_t runs = 0, loaded = 0;
        while (timer.elapsed() < static_cast<qint64>(budget.seconds * 1000)) {
            const std::string input = m.mutate(seeds[m.below(seeds.size())], seeds);
            ++runs;
            std::string failure;
            try {
                const Session s = ProjectFile::fromJson(input, base, "fuzz.wbproj");
                ++loaded;
                for (const BufferSpec& b : s.buffers)
                    for (const std::string& e : b.exports)
                        if (!exportNameProblem(e).empty())
                            failure = "a project loaded with the export \"" + e +
                                      "\", which is not a plain file name";
                const std::string saved = ProjectFile::toJson(s);
                try {
                    const std::string again =
                        ProjectFile::toJson(ProjectFile::fromJson(saved, base, "saved.wbproj"));
                    if (again != saved) failure = "saving and loading again changed the project";
                } catch (const wb::Error& e) {
                    failure = std::string("a loaded project saved to JSON that does not load: ") +
                              e.what();
                }
            } catch (const wb::Error&) {
                // Refused with a message: what bad input should get.
            } catch (const std::exception& e) {
                failure = std::string("unexpected exception: ") + e.what();
            }
            if (!failure.empty()) {
                const QString path = wb::fuzz::saveArtifact(
                    input, QStringLiteral("fuzz-project-%1-%2.wbproj").arg(budget.seed).arg(runs));
                QFAIL(
                    qPrintable(QString::fromStdString(failure) + " (input saved as " + path + ")"));
            }
        }
        qInfo("project loader: %llu inputs in %.1f s (seed %llu), %llu loaded",
              static_cast<unsigned long long>(runs), static_cast<double>(timer.elapsed()) / 1000,
              static_cast<unsigned long long>(budget.seed),
              static_cast<unsigned long long>(loaded));
        QVERIFY(runs > 0);
    }

    // Issue 26: whatever a loaded project says, writing its outputs (--output DIR) creates
    // files in DIR only: nothing beside it, nothing below a subfolder of it.
    void outputsStayInTheOutputFolder()
    {
        QTemporaryDir root;
        QVERIFY(root.isValid());
        const std::filesystem::path rootPath = root.path().toStdString();
        const std::filesystem::path out = rootPath / "a" / "b" / "out";
        std::vector<std::string> seeds = projectSeeds();
        // Exports that would land inside `root` but outside `out`, where this test looks.
        seeds.push_back(
            R"({"schemaVersion": 1, "name": "e", "kernel": {"file": "k.cu"},
 "buffers": [{"name": "y", "type": "f32", "shape": [4], "role": "out", "exports": [")" +
            (rootPath / "abs.bin").string() + R"(", "../up.npy", "../../up2.npy", "./x.npy"]}],
 "launch": {"kernel": "k", "grid": [1], "block": [4]}})");
        const wb::fuzz::Budget budget = wb::fuzz::Budget::fromEnvironment(2);
        wb::fuzz::Mutator m(budget.seed + 1);
        const std::filesystem::path base = WB_SOURCE_DIR "/resources/examples/saxpy";
        QElapsedTimer timer;
        timer.start();
        std::uint64_t runs = 0, written = 0;
        while (timer.elapsed() < static_cast<qint64>(budget.seconds * 1000)) {
            const std::string input = m.mutate(seeds[m.below(seeds.size())], seeds);
            ++runs;
            Session s;
            try {
                s = ProjectFile::fromJson(input, base, "fuzz.wbproj");
            } catch (const wb::Error&) {
                continue;
            } catch (const std::exception& e) {
                QFAIL(e.what());
            }
            RunReport r;
            for (const BufferSpec& b : s.buffers)
                if (b.isOutput()) r.results.emplace(b.name, HostArray(b.type, {4}));
            std::filesystem::create_directories(out);
            try {
                SessionRunner::writeOutputs(r, s, out);
                ++written;
            } catch (const wb::Error&) {
                // An image export of a type without an image form, say: refused, in words.
            }
            for (const std::string& path : tree(rootPath)) {
                const bool inside =
                    path == "a" || path == "a/b" || path == "a/b/out" ||
                    (path.rfind("a/b/out/", 0) == 0 && path.find('/', 8) == std::string::npos);
                if (!inside) {
                    const QString saved = wb::fuzz::saveArtifact(
                        input,
                        QStringLiteral("fuzz-output-%1-%2.wbproj").arg(budget.seed).arg(runs));
                    QFAIL(qPrintable("writing the outputs created " + QString::fromStdString(path) +
                                     " outside the output folder (input saved as " + saved + ")"));
                }
            }
            std::filesystem::remove_all(out);
        }
        qInfo("output writer: %llu inputs in %.1f s, %llu written",
              static_cast<unsigned long long>(runs), static_cast<double>(timer.elapsed()) / 1000,
              static_cast<unsigned long long>(written));
        QVERIFY(runs > 0);
    }

    void npyParser()
    {
        const std::vector<std::string> seeds = npySeeds();
        const wb::fuzz::Budget budget = wb::fuzz::Budget::fromEnvironment(1);
        wb::fuzz::Mutator m(budget.seed);
        QElapsedTimer timer;
        timer.start();
        std::uint64_t runs = 0;
        while (timer.elapsed() < static_cast<qint64>(budget.seconds * 1000)) {
            const std::string input = m.mutate(seeds[m.below(seeds.size())], seeds);
            ++runs;
            try {
                const HostArray a = Npy::parse(input, "fuzz.npy");
                QVERIFY(a.bytes() <= input.size());
            } catch (const wb::Error&) {
            } catch (const std::exception& e) {
                const QString path = wb::fuzz::saveArtifact(
                    input, QStringLiteral("fuzz-npy-%1-%2.npy").arg(budget.seed).arg(runs));
                QFAIL(qPrintable(QStringLiteral("unexpected exception: ") + e.what() +
                                 " (input saved as " + path + ")"));
            }
        }
        qInfo("npy parser: %llu inputs in %.1f s", static_cast<unsigned long long>(runs),
              static_cast<double>(timer.elapsed()) / 1000);
    }
};

WB_QTEST_GUILESS_MAIN(TestFuzzProjectFile)
#include "tst_fuzzprojectfile.moc"
