// SPDX-License-Identifier: GPL-3.0-or-later
// Multi-launch pipelines on the CUDA backend (label gpu): the same bitonic sort and scan as
// tst_pipeline, the shipped bitonic_sort example, each passing with per-launch timing, and the
// same verdicts as the CPU emulator. Skips where no usable GPU is present.
#include "PipelineProjects.h"

#include "core/backend/Backend.h"
#include "core/session/ProjectFile.h"
#include "core/session/SessionRunner.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

#include <algorithm>

using namespace wb::session;

class TestPipelineGpu : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (const auto why = wb::cudaUnavailableReason()) QSKIP(why->c_str());
    }

    void pipelinesPassOnCuda_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<int>("launches");
        QTest::newRow("bitonic") << QString(wb::test::kBitonicProject) << 36;
        QTest::newRow("scan") << QString(wb::test::kScanProject) << 3;
    }
    void pipelinesPassOnCuda()
    {
        QFETCH(QString, json);
        QFETCH(int, launches);
        Session s = ProjectFile::fromJson(json.toStdString(), "/base");
        s.backend = wb::BackendKind::Cuda;
        const RunReport r = SessionRunner::run(s, {});
        QVERIFY2(r.status == RunReport::Status::Passed, (r.message + "\n" + r.toText()).c_str());
        QCOMPARE(r.backend, wb::BackendKind::Cuda);
        QCOMPARE(r.pipeline.size(), static_cast<std::size_t>(launches));
        double medians = 0;
        for (const PipelineLaunchTiming& l : r.pipeline) {
            QCOMPARE(l.timing.samplesMs.size(), static_cast<std::size_t>(r.iterations));
            QVERIFY(l.timing.medianMs > 0);
            medians += l.timing.medianMs;
        }
        QVERIFY(r.timing.medianMs > 0);
        // Grade mode: whole passes restored and checked on the GPU too.
        SessionRunner::Options grade;
        grade.grade.enabled = true;
        grade.grade.seed = 3;
        const RunReport g = SessionRunner::run(s, grade);
        QVERIFY2(g.status == RunReport::Status::Passed, (g.message + "\n" + g.toText()).c_str());
        QVERIFY(g.coldSamples);
        QVERIFY(medians > 0);
    }

    void bitonicExamplePassesOnCuda()
    {
        Session s =
            ProjectFile::load(WB_SOURCE_DIR "/resources/examples/bitonic_sort/bitonic_sort.wbproj");
        s.backend = wb::BackendKind::Cuda;
        const RunReport r = SessionRunner::run(s, {});
        QVERIFY2(r.status == RunReport::Status::Passed, (r.message + "\n" + r.toText()).c_str());
        QCOMPARE(r.pipeline.size(), std::size_t(70)); // 1 block sort + 69 global steps
        QCOMPARE(r.pipeline.front().kernel, std::string("bitonic_sort_block"));
        QCOMPARE(r.pipeline.back().kernel, std::string("bitonic_step"));
        const HostArray& keys = r.results.at("keys");
        const auto* k = keys.as<float>();
        QVERIFY(std::is_sorted(k, k + keys.count()));
    }
};

WB_QTEST_GUILESS_MAIN(TestPipelineGpu)
#include "tst_pipeline_gpu.moc"
