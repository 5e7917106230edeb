// SPDX-License-Identifier: GPL-3.0-or-later
// The child of tst_warpbenchtest: plain uses of the SDK macros, steered by the environment
// ($WB_CHILD_PROJECT, $WB_CHILD_FOLDER, and the helpers' own $WARPBENCH_TEST_BACKEND /
// $WARPBENCH_TEST_FALLBACK). Not a test by itself: its verdicts are what the parent checks.
#include "core/testing/WarpbenchTest.h"

#include <QObject>
#include <QTest>

namespace {

QString env(const char* name)
{
    return qEnvironmentVariable(name);
}

/// A 1-D f32 buffer of n elements. (Built whole: GCC 12 -O3 reports a false -Wrestrict for a
/// one-character literal assigned to a member string.)
wb::session::BufferSpec floatBuffer(std::string name, wb::session::BufferRole role,
                                    wb::session::Initialiser init)
{
    return {std::move(name),
            wb::session::ElementType::F32,
            {"n"},
            role,
            std::move(init),
            std::nullopt,
            {},
            std::nullopt};
}

wb::session::Session inCodeSession(bool correct)
{
    wb::session::Session s;
    s.name = correct ? "in_code_pass" : "in_code_mismatch";
    s.kernelSource =
        R"(extern "C" __global__ void add(float* out, const float* a, int n, float bias)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] + bias;
}
extern "C" __global__ void add_reference(float* out, const float* a, int n, float bias)
{
    for (int i = 0; i < n; ++i) out[i] = a[i] + bias;
}
extern "C" __global__ void add_reference_wrong(float* out, const float* a, int n, float bias)
{
    for (int i = 0; i < n; ++i) out[i] = a[i] + bias + (i == 42 ? 1.0f : 0.0f);
}
)";
    s.scalars = {{"n", wb::session::ElementType::I32, "100"},
                 {"bias", wb::session::ElementType::F32, "0.5"}};
    wb::session::Initialiser iota;
    iota.kind = wb::session::Initialiser::Kind::Iota;
    s.buffers = {floatBuffer("out", wb::session::BufferRole::Out, {}),
                 floatBuffer("a", wb::session::BufferRole::In, iota)};
    s.launch.kernel = "add";
    s.launch.grid = {"ceil(n/32)"};
    s.launch.block = {"32"};
    s.reference.kind = wb::session::ReferenceSpec::Kind::Kernel;
    // The mismatching variant checks against a reference that is off by one at element 42.
    s.reference.launch.kernel = correct ? "add_reference" : "add_reference_wrong";
    s.reference.launch.grid = {"1"};
    s.reference.launch.block = {"1"};
    s.tolerance.atol = 0;
    s.tolerance.rtol = 0;
    return s;
}

} // namespace

class SdkChild : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void project() { WB_VERIFY_PROJECT(env("WB_CHILD_PROJECT")); }
    void projectOnCpu()
    {
        WB_VERIFY_PROJECT(env("WB_CHILD_PROJECT").toStdString().c_str(),
                          wb::testing::RunOptions::on(wb::BackendKind::Cpu));
    }
    void folder_data() { wb::testing::addProjectRows(env("WB_CHILD_FOLDER")); }
    void folder()
    {
        QFETCH(QString, project);
        WB_VERIFY_PROJECT(project);
    }
    void inCodePass() { WB_VERIFY_SESSION(inCodeSession(true)); }
    void inCodeMismatch() { WB_VERIFY_SESSION(inCodeSession(false)); }
};

QTEST_GUILESS_MAIN(SdkChild)
#include "sdk_child.moc"
