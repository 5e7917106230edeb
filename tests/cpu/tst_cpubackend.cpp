// SPDX-License-Identifier: GPL-3.0-or-later
// Conformance of the CPU emulator: CUDA kernels from tests/cpu/kernels/ run and are checked
// against references computed here. WB_TEST_BACKEND=cuda runs the same table on the GPU.
#include "core/backend/Backend.h"
#include "core/common/Error.h"
#include "core/cpu/CpuBackend.h"
#include "tests/support/SuiteMain.h"

#include <QtTest/QtTest>

#include <cmath>
#include <cstring>
#include <deque>
#include <fstream>
#include <functional>
#include <numeric>
#include <random>
#include <sstream>

using namespace wb;

namespace {

std::string readKernel(const std::string& file)
{
    std::ifstream in(std::string(WB_SOURCE_DIR) + "/tests/cpu/kernels/" + file);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// Launch arguments with stable storage.
class Args {
public:
    template <typename T> Args& val(T v)
    {
        auto& bytes = m_storage.emplace_back(sizeof(T));
        std::memcpy(bytes.data(), &v, sizeof(T));
        m_args.push_back({bytes.data(), sizeof(T), false});
        return *this;
    }
    Args& ptr(const BackendBuffer& b, std::size_t byteOffset = 0)
    {
        const std::uint64_t a = b.address() + byteOffset;
        auto& bytes = m_storage.emplace_back(8);
        std::memcpy(bytes.data(), &a, 8);
        m_args.push_back({bytes.data(), 8, true});
        return *this;
    }
    std::span<const KernelArgValue> span() const { return m_args; }

private:
    std::deque<std::vector<unsigned char>> m_storage;
    std::vector<KernelArgValue> m_args;
};

struct Harness {
    Backend& backend;
    std::unique_ptr<BackendProgram> program;
    std::vector<std::unique_ptr<BackendBuffer>> buffers;

    template <typename T> BackendBuffer& upload(const std::vector<T>& data, const char* label)
    {
        buffers.push_back(backend.allocate(data.size() * sizeof(T), label));
        backend.upload(*buffers.back(), data.data(), data.size() * sizeof(T));
        return *buffers.back();
    }
    template <typename T> std::vector<T> download(const BackendBuffer& b, std::size_t n)
    {
        std::vector<T> out(n);
        backend.download(b, out.data(), n * sizeof(T));
        return out;
    }
    double launch(const std::string& kernel, Dim3 grid, Dim3 block, const Args& args,
                  unsigned shared = 0)
    {
        LaunchConfig c;
        c.grid = grid;
        c.block = block;
        c.sharedBytes = shared;
        return backend.launch(*program, kernel, c, args.span());
    }
};

template <typename T> std::vector<T> randomVector(std::size_t n, T lo, T hi, unsigned seed)
{
    std::mt19937 rng(seed);
    std::vector<T> v(n);
    if constexpr (std::is_floating_point_v<T>) {
        std::uniform_real_distribution<T> d(lo, hi);
        for (T& x : v)
            x = d(rng);
    } else {
        std::uniform_int_distribution<long long> d(lo, hi);
        for (T& x : v)
            x = static_cast<T>(d(rng));
    }
    return v;
}

bool near(float a, float b, float rel = 1e-5f)
{
    return std::fabs(a - b) <= rel * std::max(1.0f, std::fabs(b));
}

#define CHECK_ALL(n, cond, what)                                                                   \
    for (std::size_t i_ = 0; i_ < (n); ++i_) {                                                     \
        const std::size_t i = i_;                                                                  \
        if (!(cond)) QFAIL(qPrintable(QStringLiteral("%1 differs at %2").arg(what).arg(i)));       \
    }

struct Case {
    const char* name;
    const char* file;
    std::vector<std::string> nameExpressions;
    std::function<void(Harness&)> run;
};

float halfRound(float f)
{
    // Reference rounding to binary16 (round to nearest even) through the exponent scale.
    if (f == 0.0f || !std::isfinite(f)) return f;
    int e = 0;
    std::frexp(f, &e);
    const int exp = std::max(e - 1, -14);
    const float ulp = std::ldexp(1.0f, exp - 10);
    return std::nearbyint(f / ulp) * ulp;
}

const std::vector<Case>& cases()
{
    static const std::vector<Case> table = {
        {"vector_add",
         "vector_add.cu",
         {},
         [](Harness& h) {
             const int n = 100000;
             auto a = randomVector<float>(n, -1, 1, 1), b = randomVector<float>(n, -1, 1, 2);
             auto& da = h.upload(a, "a");
             auto& db = h.upload(b, "b");
             auto& dc = h.upload(std::vector<float>(n, 0), "c");
             h.launch("vector_add", {(n + 255) / 256}, {256},
                      Args().ptr(da).ptr(db).ptr(dc).val(n));
             auto c = h.download<float>(dc, n);
             CHECK_ALL(n, c[i] == a[i] + b[i], "c");
         }},
        {"saxpy",
         "saxpy.cu",
         {},
         [](Harness& h) {
             const int n = 50000;
             auto x = randomVector<float>(n, -2, 2, 3), y = randomVector<float>(n, -2, 2, 4);
             auto& dx = h.upload(x, "x");
             auto& dy = h.upload(y, "y");
             h.launch("saxpy", {40}, {128}, Args().val(n).val(1.5f).ptr(dx).ptr(dy));
             auto r = h.download<float>(dy, n);
             CHECK_ALL(n, r[i] == std::fma(1.5f, x[i], y[i]), "y");
         }},
        {"stencil2d",
         "stencil2d.cu",
         {},
         [](Harness& h) {
             const int w = 97, ht = 61;
             auto in = randomVector<float>(w * ht, 0, 1, 5);
             auto& din = h.upload(in, "in");
             auto& dout = h.upload(std::vector<float>(w * ht, -1), "out");
             h.launch("stencil2d", {(w + 15) / 16, (ht + 15) / 16}, {16, 16},
                      Args().ptr(din).ptr(dout).val(w).val(ht));
             auto out = h.download<float>(dout, w * ht);
             for (int y = 0; y < ht; ++y)
                 for (int x = 0; x < w; ++x) {
                     const int i = y * w + x;
                     const bool border = x == 0 || y == 0 || x == w - 1 || y == ht - 1;
                     const float ref = border ? in[i]
                                              : 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] +
                                                                         in[i - w] + in[i + w]);
                     QVERIFY2(near(out[i], ref),
                              qPrintable(QStringLiteral("at %1,%2").arg(x).arg(y)));
                 }
         }},
        {"matmul_naive",
         "matmul_naive.cu",
         {},
         [](Harness& h) {
             const int M = 37, N = 45, K = 29;
             auto A = randomVector<float>(M * K, -1, 1, 6),
                  B = randomVector<float>(K * N, -1, 1, 7);
             auto& dA = h.upload(A, "A");
             auto& dB = h.upload(B, "B");
             auto& dC = h.upload(std::vector<float>(M * N, 0), "C");
             h.launch("matmul_naive", {(N + 15) / 16, (M + 15) / 16}, {16, 16},
                      Args().ptr(dA).ptr(dB).ptr(dC).val(M).val(N).val(K));
             auto C = h.download<float>(dC, M * N);
             for (int r = 0; r < M; ++r)
                 for (int c = 0; c < N; ++c) {
                     float acc = 0;
                     for (int k = 0; k < K; ++k)
                         acc += A[r * K + k] * B[k * N + c];
                     QVERIFY(near(C[r * N + c], acc, 1e-4f));
                 }
         }},
        {"matmul_tiled",
         "matmul_tiled.cu",
         {},
         [](Harness& h) {
             const int M = 50, N = 33, K = 70;
             auto A = randomVector<float>(M * K, -1, 1, 8),
                  B = randomVector<float>(K * N, -1, 1, 9);
             auto& dA = h.upload(A, "A");
             auto& dB = h.upload(B, "B");
             auto& dC = h.upload(std::vector<float>(M * N, 0), "C");
             h.launch("matmul_tiled", {(N + 15) / 16, (M + 15) / 16}, {16, 16},
                      Args().ptr(dA).ptr(dB).ptr(dC).val(M).val(N).val(K));
             auto C = h.download<float>(dC, M * N);
             for (int r = 0; r < M; ++r)
                 for (int c = 0; c < N; ++c) {
                     double acc = 0;
                     for (int k = 0; k < K; ++k)
                         acc += double(A[r * K + k]) * B[k * N + c];
                     QVERIFY(near(C[r * N + c], float(acc), 1e-4f));
                 }
         }},
        {"transpose",
         "transpose.cu",
         {},
         [](Harness& h) {
             const int w = 100, ht = 70;
             auto in = randomVector<float>(w * ht, -5, 5, 10);
             auto& din = h.upload(in, "in");
             auto& dout = h.upload(std::vector<float>(w * ht, 0), "out");
             h.launch("transpose", {(w + 31) / 32, (ht + 31) / 32}, {32, 8},
                      Args().ptr(dout).ptr(din).val(w).val(ht));
             auto out = h.download<float>(dout, w * ht);
             for (int y = 0; y < ht; ++y)
                 for (int x = 0; x < w; ++x)
                     QCOMPARE(out[x * ht + y], in[y * w + x]);
         }},
        {"reduce_tree",
         "reduce_tree.cu",
         {},
         [](Harness& h) {
             const int n = 100000, blocks = (n + 511) / 512;
             auto in = randomVector<float>(n, 0, 1, 11);
             auto& din = h.upload(in, "in");
             auto& dp = h.upload(std::vector<float>(blocks, 0), "partial");
             h.launch("reduce_tree", {unsigned(blocks)}, {256}, Args().ptr(din).ptr(dp).val(n));
             auto p = h.download<float>(dp, blocks);
             for (int b = 0; b < blocks; ++b) {
                 double ref = 0;
                 for (int i = b * 512; i < std::min(n, b * 512 + 512); ++i)
                     ref += in[i];
                 QVERIFY2(near(p[b], float(ref), 1e-4f),
                          qPrintable(QStringLiteral("block %1").arg(b)));
             }
         }},
        {"reduce_warp",
         "reduce_warp.cu",
         {},
         [](Harness& h) {
             const int n = 77777;
             auto in = randomVector<int>(n, -1000, 1000, 12);
             auto& din = h.upload(in, "in");
             auto& dt = h.upload(std::vector<int>(1, 0), "total");
             h.launch("reduce_warp", {(n + 255) / 256}, {256}, Args().ptr(din).ptr(dt).val(n));
             QCOMPARE(h.download<int>(dt, 1)[0], std::accumulate(in.begin(), in.end(), 0));
         }},
        {"scan_block",
         "scan_block.cu",
         {},
         [](Harness& h) {
             const int n = 1000;
             auto in = randomVector<unsigned>(n, 0, 100, 13);
             auto& din = h.upload(in, "in");
             auto& dout = h.upload(std::vector<unsigned>(n, 0), "out");
             h.launch("scan_block", {(n + 127) / 128}, {128}, Args().ptr(din).ptr(dout).val(n));
             auto out = h.download<unsigned>(dout, n);
             unsigned run = 0;
             for (int i = 0; i < n; ++i) {
                 run = (i % 128 == 0 ? 0u : run) + in[i];
                 QCOMPARE(out[i], run);
             }
         }},
        {"histogram",
         "histogram.cu",
         {},
         [](Harness& h) {
             const int n = 200000;
             auto data = randomVector<unsigned char>(n, 0, 255, 14);
             auto& dd = h.upload(data, "data");
             auto& db = h.upload(std::vector<unsigned>(64, 0), "bins");
             h.launch("histogram", {30}, {256}, Args().ptr(dd).val(n).ptr(db));
             auto bins = h.download<unsigned>(db, 64);
             std::vector<unsigned> ref(64, 0);
             for (unsigned char c : data)
                 ++ref[c % 64];
             CHECK_ALL(64, bins[i] == ref[i], "bin");
         }},
        {"dynamic_shared",
         "dynamic_shared.cu",
         {},
         [](Harness& h) {
             const int block = 96, blocks = 11, n = block * blocks;
             auto in = randomVector<double>(n, -1, 1, 15);
             auto& din = h.upload(in, "in");
             auto& dout = h.upload(std::vector<double>(n, 0), "out");
             h.launch("reverse_segments", {blocks}, {block}, Args().ptr(din).ptr(dout),
                      block * sizeof(double));
             auto out = h.download<double>(dout, n);
             CHECK_ALL(std::size_t(n), out[i] == in[(i / block) * block + (block - 1 - i % block)],
                       "out");
         }},
        {"template_name_expression",
         "template_scale.cu",
         {"scale<float, 128>"},
         [](Harness& h) {
             const KernelInfo* k = h.program->compiled().findKernel("scale<float, 128>");
             QVERIFY(k);
             QCOMPARE(k->params.size(), std::size_t{2});
             QVERIFY(k->params[0].isPointer);
             QCOMPARE(QString::fromStdString(k->params[0].pointee), QStringLiteral("float"));
             QCOMPARE(k->params[1].size, sizeof(int));
             const int n = 1000;
             auto v = randomVector<float>(n, -1, 1, 16);
             auto& dv = h.upload(v, "data");
             h.launch("scale<float, 128>", {(n + 127) / 128}, {128}, Args().ptr(dv).val(n));
             auto r = h.download<float>(dv, n);
             CHECK_ALL(std::size_t(n), r[i] == v[i] * 128.0f, "data");
         }},
        {"constant_memory",
         "constant_poly.cu",
         {},
         [](Harness& h) {
             const float c[4] = {1.0f, -2.0f, 0.5f, 0.25f};
             h.backend.setConstant(*h.program, "coeffs", c, sizeof c);
             const int n = 4096;
             auto x = randomVector<float>(n, -3, 3, 17);
             auto& dx = h.upload(x, "x");
             auto& dy = h.upload(std::vector<float>(n, 0), "y");
             h.launch("poly", {n / 256}, {256}, Args().ptr(dx).ptr(dy).val(n));
             auto y = h.download<float>(dy, n);
             CHECK_ALL(std::size_t(n),
                       near(y[i], c[0] + x[i] * (c[1] + x[i] * (c[2] + x[i] * c[3]))), "y");
         }},
        {"half_arithmetic",
         "half_axpy.cu",
         {},
         [](Harness& h) {
             const int n = 3000;
             auto xf = randomVector<float>(n, -4, 4, 18), yf = randomVector<float>(n, -4, 4, 19);
             std::vector<std::uint16_t> xh(n), yh(n);
             const auto toHalf = [](float f) {
                 // exact: the inputs are first rounded to half, then encoded
                 const float r = halfRound(f);
                 std::uint32_t u;
                 std::memcpy(&u, &r, 4);
                 const std::uint32_t sign = (u >> 16) & 0x8000u;
                 const float a = std::fabs(r);
                 if (a == 0.0f) return std::uint16_t(sign);
                 int e;
                 const float m = std::frexp(a, &e); // a = m * 2^e, m in [0.5,1)
                 if (e - 1 < -14) return std::uint16_t(sign | std::uint32_t(std::ldexp(a, 24)));
                 return std::uint16_t(sign | std::uint32_t((e - 1 + 15) << 10) |
                                      std::uint32_t(std::ldexp(m * 2 - 1, 10)));
             };
             const auto fromHalf = [](std::uint16_t b) {
                 const int e = (b >> 10) & 31, m = b & 1023;
                 const float v = e == 0 ? std::ldexp(float(m), -24)
                                        : std::ldexp(1.0f + float(m) / 1024.0f, e - 15);
                 return (b & 0x8000) ? -v : v;
             };
             for (int i = 0; i < n; ++i) {
                 xh[i] = toHalf(xf[i]);
                 yh[i] = toHalf(yf[i]);
             }
             auto& dx = h.upload(xh, "x");
             auto& dy = h.upload(yh, "y");
             h.launch("half_axpy", {(n + 255) / 256}, {256},
                      Args().val(0.75f).ptr(dx).ptr(dy).val(n));
             auto r = h.download<std::uint16_t>(dy, n);
             for (int i = 0; i < n; ++i) {
                 const float ref = halfRound(halfRound(0.75f * fromHalf(xh[i])) + fromHalf(yh[i]));
                 QVERIFY2(
                     fromHalf(r[i]) == ref,
                     qPrintable(
                         QStringLiteral("at %1: %2 vs %3").arg(i).arg(fromHalf(r[i])).arg(ref)));
             }
         }},
        {"warp_vote",
         "warp_vote.cu",
         {},
         [](Harness& h) {
             const int block = 64, blocks = 4, n = block * blocks;
             auto in = randomVector<int>(n, -50, 150, 20);
             auto& din = h.upload(in, "in");
             auto& dballots = h.upload(std::vector<unsigned>(n / 32, 0), "ballots");
             auto& dsums = h.upload(std::vector<int>(n, 0), "sums");
             auto& dcounts = h.upload(std::vector<int>(blocks, 0), "counts");
             h.launch("warp_vote", {blocks}, {block},
                      Args().ptr(din).ptr(dballots).ptr(dsums).ptr(dcounts));
             auto ballots = h.download<unsigned>(dballots, n / 32);
             auto sums = h.download<int>(dsums, n);
             auto counts = h.download<int>(dcounts, blocks);
             for (int w = 0; w < n / 32; ++w) {
                 unsigned ref = 0;
                 int sum = 0;
                 bool any = false;
                 for (int l = 0; l < 32; ++l) {
                     ref |= (in[w * 32 + l] > 0 ? 1u : 0u) << l;
                     sum += in[w * 32 + l];
                     any = any || in[w * 32 + l] > 100;
                 }
                 QCOMPARE(ballots[w], ref);
                 for (int l = 0; l < 32; ++l)
                     QCOMPARE(sums[w * 32 + l], sum + (any ? 1000000 : 0));
             }
             for (int b = 0; b < blocks; ++b)
                 QCOMPARE(counts[b],
                          int(std::count_if(in.begin() + b * block, in.begin() + (b + 1) * block,
                                            [](int v) { return v > 0; })));
         }},
        {"atomics",
         "atomics_mix.cu",
         {},
         [](Harness& h) {
             const int n = 10000;
             auto in = randomVector<int>(n, -100000, 100000, 21);
             auto& din = h.upload(in, "in");
             auto& dmin = h.upload(std::vector<int>{INT_MAX}, "imin");
             auto& dmax = h.upload(std::vector<int>{INT_MIN}, "imax");
             auto& dor = h.upload(std::vector<unsigned>{0u}, "uor");
             auto& dull = h.upload(std::vector<unsigned long long>{0ull}, "ull");
             auto& dd = h.upload(std::vector<double>{0.0}, "dsum");
             auto& df = h.upload(std::vector<float>{0.0f}, "fsum");
             auto& dcas = h.upload(std::vector<int>{0}, "cas");
             h.launch(
                 "atomics_mix", {(n + 127) / 128}, {128},
                 Args().ptr(din).val(n).ptr(dmin).ptr(dmax).ptr(dor).ptr(dull).ptr(dd).ptr(df).ptr(
                     dcas));
             QCOMPARE(h.download<int>(dmin, 1)[0], *std::min_element(in.begin(), in.end()));
             QCOMPARE(h.download<int>(dmax, 1)[0], *std::max_element(in.begin(), in.end()));
             unsigned orRef = 0;
             unsigned long long absSum = 0;
             double half = 0;
             for (int v : in) {
                 orRef |= 1u << (unsigned(v) & 31u);
                 absSum += static_cast<unsigned long long>(v < 0 ? -v : v);
                 half += v * 0.5;
             }
             QCOMPARE(h.download<unsigned>(dor, 1)[0], orRef);
             QCOMPARE(h.download<unsigned long long>(dull, 1)[0], absSum);
             QVERIFY(std::fabs(h.download<double>(dd, 1)[0] - half) < 1e-6);
             QCOMPARE(h.download<float>(df, 1)[0], float(n));
             QCOMPARE(h.download<int>(dcas, 1)[0], n);
         }},
    };
    return table;
}

} // namespace

class TestCpuBackend : public QObject {
    Q_OBJECT

    std::unique_ptr<Backend> m_backend;
    QString m_kind;
    QTemporaryDir m_cache;

    bool onCpu() const { return m_kind == QStringLiteral("cpu"); }

    std::unique_ptr<BackendProgram> build(const std::string& file,
                                          const std::vector<std::string>& names,
                                          std::vector<std::string> extraFlags = {})
    {
        CompileOptions o;
        o.nameExpressions = names;
        o.extraFlags = std::move(extraFlags);
        const CompileResult r = m_backend->compile(readKernel(file), file, o);
        if (!r.ok) {
            std::string msg = "compile of " + file + " failed:\n" + r.log;
            qWarning("%s", msg.c_str());
            return nullptr;
        }
        return m_backend->load(r);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_cache.isValid());
        qputenv("WARPBENCH_CACHE_DIR", m_cache.path().toUtf8());
        m_kind = qEnvironmentVariable("WB_TEST_BACKEND", QStringLiteral("cpu"));
        if (m_kind == QStringLiteral("cpu")) {
            m_backend = cpu::makeCpuBackend();
        } else if (m_kind == QStringLiteral("cuda")) {
            try {
                m_backend = createBackend(BackendKind::Cuda, 0);
            } catch (const Error& e) {
                QSKIP(qPrintable(QStringLiteral("no usable GPU: ") + QString::fromUtf8(e.what())));
            }
        } else {
            QFAIL("WB_TEST_BACKEND must be cpu or cuda");
        }
    }

    void conformance_data()
    {
        QTest::addColumn<int>("index");
        for (std::size_t i = 0; i < cases().size(); ++i)
            QTest::newRow(cases()[i].name) << int(i);
    }

    void conformance()
    {
        QFETCH(int, index);
        const Case& c = cases()[static_cast<std::size_t>(index)];
        Harness h{*m_backend, build(c.file, c.nameExpressions), {}};
        QVERIFY(h.program);
        try {
            c.run(h);
        } catch (const Error& e) {
            QFAIL(e.what());
        }
    }

    void divergentBarrierIsReported()
    {
        if (!onCpu()) QSKIP("a divergent barrier is undefined behaviour on a GPU (it may hang)");
        Harness h{*m_backend, build("divergent_barrier.cu", {}), {}};
        QVERIFY(h.program);
        auto& d = h.upload(std::vector<float>(128, 0), "data");
        try {
            h.launch("divergent_barrier", {2}, {64}, Args().ptr(d));
            QFAIL("the launch should have failed");
        } catch (const Error& e) {
            const std::string msg = e.what();
            QCOMPARE(e.kind(), Error::Kind::Runtime);
            QVERIFY2(msg.find("divergent_barrier") != std::string::npos, e.what());
            QVERIFY2(msg.find("block (1,0,0)") != std::string::npos, e.what());
            QVERIFY2(msg.find("__syncthreads() at divergent_barrier.cu:7") != std::string::npos,
                     e.what());
            QVERIFY2(msg.find("threads (0,0,0)–(15,0,0) wait there") != std::string::npos,
                     e.what());
            QVERIFY2(msg.find("threads (16,0,0)–(63,0,0) exited") != std::string::npos, e.what());
        }
    }

    // Barrier flavours over blocks of many shapes, launch after launch (the emulator keeps its
    // thread fibers from block to block and launch to launch), and again after launches that
    // stopped inside a barrier kernel (an assertion, a divergent barrier).
    void barriersAcrossLaunchesAndFailures()
    {
        // Line 1: NVRTC has no <cassert>; the assertion is only exercised on the CPU emulator
        // (below), so on a GPU it compiles away. Either way the kernel's lines stay the same.
        const std::string src =
            std::string(onCpu() ? "#include <cassert>\n" : "#define assert(e) ((void)0)\n") +
            "__global__ void flavours(int* out, int salt)\n"
            "{\n"
            "    __shared__ int s[1024];\n"
            "    const unsigned n = blockDim.x * blockDim.y * blockDim.z;\n"
            "    const unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * "
            "threadIdx.z);\n"
            "    s[t] = int(t) * 3 + salt;\n"
            "    const int count = __syncthreads_count((t + blockIdx.x) % 3 == 0);\n"
            "    const int all = __syncthreads_and(s[(t + 1) % n] >= salt);\n"
            "    const int any = __syncthreads_or(t == n - 1 && blockIdx.x % 2 == 1);\n"
            "    const int notAll = __syncthreads_and(t != n / 2);\n"
            "    assert(salt != 13 || t != n / 2);\n"
            "    const int neighbours = s[(t + 1) % n] + s[(t + n - 1) % n];\n"
            "    __syncthreads();\n"
            "    s[t] = neighbours;\n"
            "    __syncthreads();\n"
            "    int* o = out + 6 * (blockIdx.x * n + t);\n"
            "    o[0] = count;\n"
            "    o[1] = all;\n"
            "    o[2] = any;\n"
            "    o[3] = notAll;\n"
            "    o[4] = s[(t + 7) % n];\n"
            "    o[5] = 1;\n"
            "}\n";
        const CompileResult r = m_backend->compile(src, "flavours.cu", {});
        QVERIFY2(r.ok, r.log.c_str());
        Harness h{*m_backend, m_backend->load(r), {}};
        struct Shape {
            unsigned blocks;
            Dim3 block;
        };
        const Shape shapes[] = {{3, {256, 1, 1}}, {2, {8, 4, 2}}, {1, {1024, 1, 1}},
                                {2, {33, 1, 1}},  {5, {1, 1, 1}}, {4, {32, 3, 1}}};
        const auto runShapes = [&](int salt) {
            for (const Shape& sh : shapes) {
                const unsigned n = sh.block.x * sh.block.y * sh.block.z;
                auto& d = h.upload(std::vector<int>(6 * sh.blocks * n, -1), "out");
                h.launch("flavours", {sh.blocks, 1, 1}, sh.block, Args().ptr(d).val(salt));
                const auto out = h.download<int>(d, 6 * sh.blocks * n);
                for (unsigned b = 0; b < sh.blocks; ++b) {
                    int count = 0;
                    for (unsigned u = 0; u < n; ++u)
                        count += (u + b) % 3 == 0 ? 1 : 0;
                    for (unsigned t = 0; t < n; ++t) {
                        const unsigned u = (t + 7) % n;
                        const int neighbours =
                            int((u + 1) % n) * 3 + int((u + n - 1) % n) * 3 + 2 * salt;
                        const int expected[6] = {count, 1, b % 2 == 1 ? 1 : 0, 0, neighbours, 1};
                        for (int k = 0; k < 6; ++k)
                            if (out[6 * (b * n + t) + unsigned(k)] != expected[k])
                                QFAIL(qPrintable(QStringLiteral("block %1 of %2 threads, thread "
                                                                "%3, value %4: %5, expected %6")
                                                     .arg(b)
                                                     .arg(n)
                                                     .arg(t)
                                                     .arg(k)
                                                     .arg(out[6 * (b * n + t) + unsigned(k)])
                                                     .arg(expected[k])));
                    }
                }
            }
        };
        runShapes(5);
        if (!onCpu()) return; // the failures below are undefined behaviour on a GPU
        auto& d = h.upload(std::vector<int>(6 * 2 * 64, 0), "out");
        try {
            h.launch("flavours", {2, 1, 1}, {64, 1, 1}, Args().ptr(d).val(13));
            QFAIL("the launch should have failed");
        } catch (const Error& e) {
            const std::string msg = e.what();
            QVERIFY2(msg.find("assertion 'salt != 13 || t != n / 2' failed at flavours.cu:12") !=
                         std::string::npos,
                     e.what());
            QVERIFY2(msg.find("thread (32,0,0)") != std::string::npos, e.what());
        }
        Harness divergent{*m_backend, build("divergent_barrier.cu", {}), {}};
        QVERIFY(divergent.program);
        auto& dd = divergent.upload(std::vector<float>(128, 0), "data");
        QVERIFY_THROWS_EXCEPTION(Error,
                                 divergent.launch("divergent_barrier", {2}, {64}, Args().ptr(dd)));
        runShapes(2);
    }

    void inconsistentWarpMaskIsReported()
    {
        if (!onCpu()) QSKIP("an inconsistent warp mask is undefined behaviour on a GPU");
        const std::string src = "__global__ void k(int* out)\n"
                                "{\n"
                                "    unsigned mask = threadIdx.x < 8 ? 0xffu : 0xffffffffu;\n"
                                "    out[threadIdx.x] = __shfl_sync(mask, (int)threadIdx.x, 0);\n"
                                "}\n";
        const CompileResult r = m_backend->compile(src, "mask.cu", {});
        QVERIFY2(r.ok, r.log.c_str());
        Harness h{*m_backend, m_backend->load(r), {}};
        auto& d = h.upload(std::vector<int>(32, 0), "out");
        try {
            h.launch("k", {1}, {32}, Args().ptr(d));
            QFAIL("the launch should have failed");
        } catch (const Error& e) {
            const std::string msg = e.what();
            QVERIFY2(msg.find("inconsistent warp mask") != std::string::npos, e.what());
            QVERIFY2(msg.find("mask.cu:4") != std::string::npos, e.what());
        }
    }

    void deviceGlobalsStartFreshOnEachLoad()
    {
        // Like cuModuleLoad, every load starts from the globals' initial values, also when the
        // CPU emulator keeps the kernel library loaded between runs (wb::LibraryCache).
        const std::string src = "__device__ int calls = 40;\n"
                                "__global__ void k(int* out) { out[0] = atomicAdd(&calls, 1); }\n";
        const CompileResult r = m_backend->compile(src, "globals.cu", {});
        QVERIFY2(r.ok, r.log.c_str());
        for (int load = 0; load < 3; ++load) {
            Harness h{*m_backend, m_backend->load(r), {}};
            auto& d = h.upload(std::vector<int>(1, 0), "out");
            h.launch("k", {1}, {1}, Args().ptr(d));
            QCOMPARE(h.download<int>(d, 1)[0], 40);
            h.launch("k", {1}, {1}, Args().ptr(d)); // within one load the global lives on
            QCOMPARE(h.download<int>(d, 1)[0], 41);
        }
    }

    void assertionStopsTheLaunch()
    {
        if (!onCpu()) QSKIP("device assertions are sticky errors on a GPU");
        const std::string src = "#include <cassert>\n"
                                "__global__ void k(const int* v)\n"
                                "{\n"
                                "    assert(v[threadIdx.x] >= 0);\n"
                                "}\n";
        const CompileResult r = m_backend->compile(src, "assert.cu", {});
        QVERIFY2(r.ok, r.log.c_str());
        Harness h{*m_backend, m_backend->load(r), {}};
        std::vector<int> v(64, 1);
        v[37] = -1;
        auto& d = h.upload(v, "v");
        try {
            h.launch("k", {1}, {64}, Args().ptr(d));
            QFAIL("the launch should have failed");
        } catch (const Error& e) {
            const std::string msg = e.what();
            QVERIFY2(msg.find("assertion 'v[threadIdx.x] >= 0' failed at assert.cu:4") !=
                         std::string::npos,
                     e.what());
            QVERIFY2(msg.find("thread (37,0,0)") != std::string::npos, e.what());
        }
    }

    void outOfBoundsIsReportedInBoundsCheckedMode()
    {
        if (!onCpu())
            QSKIP("bounds-checked mode belongs to the CPU emulator (use compute-sanitizer on the "
                  "GPU)");
        auto program = build("out_of_bounds.cu", {}, {cpu::CpuBackend::kBoundsCheckFlag});
        QVERIFY(program);
        QCOMPARE(QString::fromStdString(program->compiled().target),
                 QStringLiteral("host-x86_64-bounds-checked"));
        Harness h{*m_backend, std::move(program), {}};
        const int n = 200;
        auto& d = h.upload(std::vector<float>(n, 0), "data");
        try {
            h.launch("off_by_one", {2}, {128}, Args().ptr(d).val(n));
            QFAIL("the launch should have failed");
        } catch (const Error& e) {
            const std::string msg = e.what();
            QCOMPARE(e.kind(), Error::Kind::Runtime);
            QVERIFY2(msg.find("out_of_bounds.cu:7") != std::string::npos, e.what());
            QVERIFY2(msg.find("block (1,0,0), thread (72,0,0)") != std::string::npos, e.what());
        }
        auto* cpuBackend = dynamic_cast<cpu::CpuBackend*>(m_backend.get());
        QVERIFY(cpuBackend);
        QCOMPARE(cpuBackend->lastFindings().size(), std::size_t{1});
        const MemoryFinding& f = cpuBackend->lastFindings().front();
        QCOMPARE(f.kind, MemoryFinding::Kind::OutOfBounds);
        QCOMPARE(QString::fromStdString(f.file), QStringLiteral("out_of_bounds.cu"));
        QCOMPARE(f.line, 7);
        QVERIFY(f.located);
        QCOMPARE(f.block, (Dim3{1, 0, 0}));
        QCOMPARE(f.thread, (Dim3{72, 0, 0}));
        QVERIFY(f.isWrite);
        QCOMPARE(f.accessSize, 4u);

        // The same kernel within bounds runs in the sandbox and returns its results.
        h.launch("off_by_one", {2}, {100}, Args().ptr(d).val(n - 1));
        auto out = h.download<float>(d, n);
        CHECK_ALL(std::size_t(n), out[i] == 2.0f * float(i), "data");
    }

    void misalignedAccessIsReportedInBoundsCheckedMode()
    {
        if (!onCpu())
            QSKIP("bounds-checked mode belongs to the CPU emulator (use compute-sanitizer on the "
                  "GPU)");
        Harness h{*m_backend, build("misaligned.cu", {}, {cpu::CpuBackend::kBoundsCheckFlag}), {}};
        QVERIFY(h.program);
        auto& d = h.upload(std::vector<char>(256, 0), "bytes");
        try {
            h.launch("misaligned", {1}, {8}, Args().ptr(d));
            QFAIL("the launch should have failed");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).find("misaligned.cu:6") != std::string::npos, e.what());
        }
        auto* cpuBackend = dynamic_cast<cpu::CpuBackend*>(m_backend.get());
        QVERIFY(cpuBackend);
        QCOMPARE(cpuBackend->lastFindings().size(), std::size_t{1});
        const MemoryFinding& f = cpuBackend->lastFindings().front();
        QCOMPARE(f.kind, MemoryFinding::Kind::Misaligned);
        QCOMPARE(f.line, 6);
        QVERIFY(f.located);
        QCOMPARE(f.thread, (Dim3{0, 0, 0}));
        QCOMPARE(f.block, (Dim3{0, 0, 0}));
        QVERIFY(f.address % 4 != 0);
    }

    void diagnosticsAtUserLine()
    {
        const std::string src = "__global__ void k(float* out)\n"
                                "{\n"
                                "    out[threadIdx.x] = undefined_name;\n"
                                "}\n";
        const CompileResult r = m_backend->compile(src, "diag.cu", {});
        QVERIFY(!r.ok);
        QVERIFY(!r.diagnostics.empty());
        const Diagnostic& d = r.diagnostics.front();
        QCOMPARE(QString::fromStdString(d.file), QStringLiteral("diag.cu"));
        QCOMPARE(d.line, 3);
        if (onCpu()) QCOMPARE(d.column, 24);
        QVERIFY2(d.message.find("undefined_name") != std::string::npos, d.message.c_str());
    }

    void refusedConstructs_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("needle");
        // Inside a kernel a construct refuses that kernel alone: the file compiles, the kernel
        // is missing with a warning at the construct, and the file's other kernels run.
        QTest::addColumn<bool>("alone");
        QTest::newRow("asm") << "__global__ void k(int* p)\n{\n  int lane;\n  asm(\"mov.u32 %0, "
                                "%%laneid;\" : \"=r\"(lane));\n  p[0] = lane;\n}\n"
                                "__global__ void other(int* p) { p[0] = 1; }\n"
                             << 4 << "inline PTX assembly" << true;
        QTest::newRow("grid sync")
            << "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n__global__ "
               "void k() { cg::this_grid().sync(); }\n"
            << 1 << "cooperative_groups.h" << false;
        QTest::newRow("texture") << "__global__ void k(cudaTextureObject_t t, float* o)\n{ o[0] = "
                                    "tex1Dfetch<float>(t, 0); }\n"
                                    "__global__ void other(int* p) { p[0] = 1; }\n"
                                 << 1 << "textures" << true;
        QTest::newRow("dynamic parallelism")
            << "__global__ void child() {}\n__global__ void k() { child<<<1, 1>>>(); }\n"
            << 2 << "dynamic parallelism" << true;
    }

    void refusedConstructs()
    {
        if (!onCpu()) QSKIP("these constructs are refused by the CPU emulator only");
        QFETCH(QString, source);
        QFETCH(int, line);
        QFETCH(QString, needle);
        QFETCH(bool, alone);
        const CompileResult r = m_backend->compile(source.toStdString(), "refused.cu", {});
        QVERIFY(!r.diagnostics.empty());
        QCOMPARE(r.diagnostics.front().line, line);
        QVERIFY2(r.diagnostics.front().message.find(needle.toStdString()) != std::string::npos,
                 r.diagnostics.front().message.c_str());
        if (!alone) {
            QVERIFY(!r.ok);
            QCOMPARE(r.diagnostics.front().severity, Severity::Error);
            return;
        }
        QVERIFY2(r.ok, r.log.c_str());
        QCOMPARE(r.diagnostics.front().severity, Severity::Warning);
        QVERIFY(r.diagnostics.front().message.rfind("kernel 'k' cannot run on the CPU emulator",
                                                    0) == 0);
        QVERIFY(!r.findKernel("k"));
        QVERIFY(!r.kernels.empty()); // other / child
    }

    void kernelDiscovery()
    {
        if (!onCpu()) QSKIP("checks the emulator's kernel table");
        const std::string src = "namespace ops {\n"
                                "struct Pair { int a; double b; };\n"
                                "__global__ void __launch_bounds__(128) fill(Pair p, const float* "
                                "__restrict__ src, float* dst, unsigned n) {}\n"
                                "}\n"
                                "extern \"C\" __global__ void plain() {}\n"
                                "template <typename T> __global__ void generic(T* x) {}\n";
        const CompileResult r = m_backend->compile(src, "disc.cu", {});
        QVERIFY2(r.ok, r.log.c_str());
        QCOMPARE(r.kernels.size(), std::size_t{2});
        const KernelInfo* fill = r.findKernel("ops::fill");
        QVERIFY(fill);
        QCOMPARE(fill->params.size(), std::size_t{4});
        QCOMPARE(QString::fromStdString(fill->params[0].name), QStringLiteral("p"));
        QCOMPARE(fill->params[0].size, std::size_t{16});
        QCOMPARE(fill->params[0].alignment, std::size_t{8});
        QVERIFY(!fill->params[0].isPointer);
        QCOMPARE(QString::fromStdString(fill->params[1].name), QStringLiteral("src"));
        QVERIFY(fill->params[1].isPointer && fill->params[1].isConst);
        QCOMPARE(fill->params[2].offset, std::size_t{24});
        QCOMPARE(QString::fromStdString(fill->params[3].type), QStringLiteral("unsigned int"));
        const KernelInfo* plain = r.findKernel("plain");
        QVERIFY(plain && plain->externC && plain->params.empty());
        bool warned = false;
        for (const Diagnostic& d : r.diagnostics)
            warned = warned || (d.severity == Severity::Warning &&
                                d.message.find("generic") != std::string::npos);
        QVERIFY(warned);
    }

    void argumentsAreChecked()
    {
        Harness h{*m_backend, build("vector_add.cu", {}), {}};
        QVERIFY(h.program);
        auto& d = h.upload(std::vector<float>(4, 0), "a");
        try {
            h.launch("vector_add", {1}, {4}, Args().ptr(d).ptr(d).val(1).val(4));
            QFAIL("the launch should have failed");
        } catch (const Error& e) {
            QCOMPARE(e.kind(), Error::Kind::InvalidArgument);
            QVERIFY2(std::string(e.what()).find("'c'") != std::string::npos, e.what());
        }
    }

    void missingHostCompiler()
    {
        if (!onCpu()) QSKIP("about the CPU emulator");
        const QByteArray old = qgetenv("WARPBENCH_CXX");
        qputenv("WARPBENCH_CXX", "/nonexistent/g++");
        auto backend = cpu::makeCpuBackend();
        const CompileResult r = backend->compile(readKernel("vector_add.cu"), "vector_add.cu", {});
        if (old.isNull())
            qunsetenv("WARPBENCH_CXX");
        else
            qputenv("WARPBENCH_CXX", old);
        QVERIFY(!r.ok);
        QVERIFY(!r.diagnostics.empty());
        QVERIFY2(r.diagnostics.front().message.find("host C++ compiler") != std::string::npos,
                 r.diagnostics.front().message.c_str());
        QVERIFY2(r.diagnostics.front().message.find("/nonexistent/g++") != std::string::npos,
                 r.diagnostics.front().message.c_str());
    }

    void singleThreadGivesSameResults()
    {
        if (!onCpu()) QSKIP("about the CPU emulator's thread pool");
        cpu::CpuBackend one(1);
        QCOMPARE(one.threadCount(), 1);
        CompileOptions o;
        const CompileResult r = one.compile(readKernel("reduce_warp.cu"), "reduce_warp.cu", o);
        QVERIFY2(r.ok, r.log.c_str());
        Harness h{one, one.load(r), {}};
        const int n = 4096;
        auto in = randomVector<int>(n, -10, 10, 30);
        auto& din = h.upload(in, "in");
        auto& dt = h.upload(std::vector<int>(1, 0), "total");
        h.launch("reduce_warp", {n / 128}, {128}, Args().ptr(din).ptr(dt).val(n));
        QCOMPARE(h.download<int>(dt, 1)[0], std::accumulate(in.begin(), in.end(), 0));
    }
};

WB_QTEST_GUILESS_MAIN(TestCpuBackend)
#include "tst_cpubackend.moc"
