// SPDX-License-Identifier: GPL-3.0-or-later
// Bounded mutation fuzzing of the project loader (ProjectFile) and of the .npy parser: every
// input either loads or is refused with a wb::Error; a crash, a hang or any other exception
// fails the test. A project that loads must save and load again to the same JSON. Seeds are
// the examples' and the tests' .wbproj files. A few seconds in CI; $WB_FUZZ_SECONDS for more
// (tests/fuzz/FuzzMutator.h).
#include "core/common/Error.h"
#include "core/session/Npy.h"
#include "core/session/ProjectFile.h"
#include "tests/fuzz/FuzzMutator.h"
#include "tests/support/SuiteMain.h"

#include <QDirIterator>
#include <QTest>

#include <filesystem>
#include <fstream>
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
    return seeds;
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

    void npyParser()
    {
        std::vector<std::string> seeds;
        const std::vector<std::vector<std::size_t>> shapes = {{4}, {2, 3}, {1, 2, 2}, {0}};
        for (const ElementType t : {ElementType::F32, ElementType::U8, ElementType::F64})
            for (const std::vector<std::size_t>& shape : shapes)
                seeds.push_back(Npy::serialize(HostArray(t, shape)));
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
