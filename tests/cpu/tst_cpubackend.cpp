// SPDX-License-Identifier: GPL-3.0-or-later
// Conformance of the CPU emulator: CUDA kernels from tests/cpu/kernels/ run and are checked
// against references computed here. WB_TEST_BACKEND=cuda runs the same table on the GPU.
#include "core/backend/Backend.h"
#include "core/common/Error.h"
#include "core/cpu/CpuBackend.h"
#include "core/cpu/detail/DeviceCheck.h"
#include "core/cuda/Compiler.h"
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
                  unsigned shared = 0, bool cooperative = false)
    {
        LaunchConfig c;
        c.grid = grid;
        c.block = block;
        c.sharedBytes = shared;
        c.cooperative = cooperative;
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
        {"cg_block_sum",
         "cg_reduce.cu",
         {},
         [](Harness& h) {
             const int n = 100000, blocks = 40, threads = 256;
             auto in = randomVector<float>(n, 0, 1, 23);
             auto& din = h.upload(in, "in");
             auto& dp = h.upload(std::vector<float>(blocks, 0), "partial");
             h.launch("cg_block_sum", {blocks}, {threads}, Args().ptr(din).ptr(dp).val(n));
             auto p = h.download<float>(dp, blocks);
             for (int b = 0; b < blocks; ++b) {
                 double ref = 0;
                 for (int i = b * threads; i < n; i += blocks * threads)
                     for (int k = i; k < std::min(n, i + threads); ++k)
                         ref += in[k];
                 QVERIFY2(
                     near(p[b], float(ref), 1e-4f),
                     qPrintable(QStringLiteral("block %1: %2 vs %3").arg(b).arg(p[b]).arg(ref)));
             }
         }},
        {"cg_tile_ops",
         "cg_reduce.cu",
         {},
         [](Harness& h) {
             const int blocks = 3, threads = 80, n = blocks * threads;
             auto in = randomVector<int>(n, -1000, 1000, 24);
             in[17] = 950;
             auto& din = h.upload(in, "in");
             auto& dout = h.upload(std::vector<int>(13 * n, 0), "out");
             h.launch("cg_tile_ops", {blocks}, {threads}, Args().ptr(din).ptr(dout));
             auto out = h.download<int>(dout, 13 * std::size_t(n));
             for (int t = 0; t < n; ++t) {
                 const int first = t / 16 * 16, r = t % 16;
                 const auto v = [&](int k) { return in[std::size_t(first + k)]; };
                 int mn = v(0), mx = v(0), a = v(0), o = v(0), x = v(0), incl = 0, excl = 0,
                     runMax = v(0);
                 unsigned ballot = 0, match = 0;
                 bool any = false, all = true;
                 for (int k = 0; k < 16; ++k) {
                     mn = std::min(mn, v(k));
                     mx = std::max(mx, v(k));
                     if (k) {
                         a &= v(k);
                         o |= v(k);
                         x ^= v(k);
                     }
                     if (k <= r) {
                         incl += v(k);
                         runMax = std::max(runMax, v(k));
                     }
                     if (k < r) excl += v(k);
                     if (v(k) > 0) ballot |= 1u << k;
                     if ((v(k) & 3) == (v(r) & 3)) match |= 1u << k;
                     any = any || v(k) > 900;
                     all = all && v(k) > -900;
                 }
                 const int ref[13] = {mn,
                                      mx,
                                      a,
                                      o,
                                      x,
                                      incl,
                                      excl,
                                      runMax,
                                      int(ballot),
                                      (any ? 2 : 0) + (all ? 1 : 0),
                                      v(3) + v(r ^ 5) + v(r + 2 < 16 ? r + 2 : r) +
                                          v(r >= 1 ? r - 1 : r),
                                      (t % threads) / 16 * 1000 + 5 * 100 + r,
                                      int(match)};
                 for (int k = 0; k < 13; ++k)
                     QVERIFY2(out[13 * std::size_t(t) + std::size_t(k)] == ref[k],
                              qPrintable(QStringLiteral("thread %1, result %2: %3 vs %4")
                                             .arg(t)
                                             .arg(k)
                                             .arg(out[13 * std::size_t(t) + std::size_t(k)])
                                             .arg(ref[k])));
             }
         }},
        {"cg_block_scan",
         "cg_scan.cu",
         {},
         [](Harness& h) {
             const int n = 1000;
             auto in = randomVector<int>(n, -50, 100, 25);
             auto& din = h.upload(in, "in");
             auto& dout = h.upload(std::vector<int>(n, 0), "out");
             h.launch("cg_block_scan", {(n + 255) / 256}, {256}, Args().ptr(din).ptr(dout).val(n));
             auto out = h.download<int>(dout, n);
             int run = 0;
             for (int i = 0; i < n; ++i) {
                 run = (i % 256 == 0 ? 0 : run) + in[i];
                 QCOMPARE(out[i], run);
             }
         }},
        {"cg_group_sums",
         "cg_groups.cu",
         {},
         [](Harness& h) {
             auto& dout = h.upload(std::vector<int>(6, 0), "out");
             h.launch("cg_group_sums", {1}, {64}, Args().ptr(dout), 64 * sizeof(int));
             const auto out = h.download<int>(dout, 6);
             QCOMPARE(out[0], 63 * 64 / 2);
             for (int k = 0; k < 4; ++k)
                 QCOMPARE(out[1 + k], 16 * 16 * k + 120);
             QCOMPARE(out[5], 64 * 1000 + 64);
         }},
        {"cg_filter",
         "cg_coalesced.cu",
         {},
         [](Harness& h) {
             const int n = 5000;
             auto src = randomVector<int>(n, -100, 100, 26);
             auto& ddst = h.upload(std::vector<int>(n, 0), "dst");
             auto& dcount = h.upload(std::vector<int>{0}, "count");
             auto& dsrc = h.upload(src, "src");
             h.launch("cg_filter", {(n + 127) / 128}, {128},
                      Args().ptr(ddst).ptr(dcount).ptr(dsrc).val(n));
             std::vector<int> positive;
             for (int v : src)
                 if (v > 0) positive.push_back(v);
             const int count = h.download<int>(dcount, 1)[0];
             QCOMPARE(count, int(positive.size()));
             auto dst = h.download<int>(ddst, std::size_t(count));
             std::sort(dst.begin(), dst.end());
             std::sort(positive.begin(), positive.end());
             QVERIFY(dst == positive);
         }},
        {"cg_coalesced_info",
         "cg_coalesced.cu",
         {},
         [](Harness& h) {
             const int blocks = 2, threads = 48, n = blocks * threads;
             auto& dout = h.upload(std::vector<int>(8 * n, 0), "out");
             h.launch("cg_coalesced_info", {blocks}, {threads}, Args().ptr(dout));
             const auto out = h.download<int>(dout, 8 * std::size_t(n));
             for (int i = 0; i < n; ++i) {
                 const int t = i % threads, lane = t % 32;
                 const int lanesInWarp = std::min(32, threads - t / 32 * 32);
                 int ref[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
                 if (lane % 3 == 0) {
                     std::vector<int> g;
                     for (int l = 0; l < lanesInWarp; ++l)
                         if (l % 3 == 0) g.push_back(l);
                     const int size = int(g.size());
                     const int rank = int(std::find(g.begin(), g.end(), lane) - g.begin());
                     const auto sub = [&](auto keep) {
                         int s = 0, rk = 0;
                         for (int l : g)
                             if (keep(l)) {
                                 if (l < lane) ++rk;
                                 ++s;
                             }
                         return s * 100 + rk;
                     };
                     int sum = 0, before = 0;
                     unsigned ballot = 0;
                     for (int r = 0; r < size; ++r) {
                         sum += g[std::size_t(r)];
                         if (r < rank) before += g[std::size_t(r)];
                         if (g[std::size_t(r)] > 10) ballot |= 1u << r;
                     }
                     ref[0] = size;
                     ref[1] = rank;
                     ref[2] = sub([&](int l) { return l % 2 == lane % 2; });
                     ref[3] = sub([&](int l) { return (l < 16) == (lane < 16); });
                     ref[4] = sum;
                     ref[5] = (rank + 1) * 100 + before;
                     ref[6] = int(ballot);
                     ref[7] = (rank + 1 < size ? g[std::size_t(rank + 1)] : lane) * 100 +
                              (rank >= 2 ? g[std::size_t(rank - 2)] : lane);
                 }
                 for (int k = 0; k < 8; ++k)
                     QVERIFY2(out[8 * std::size_t(i) + std::size_t(k)] == ref[k],
                              qPrintable(QStringLiteral("thread %1, result %2: %3 vs %4")
                                             .arg(i)
                                             .arg(k)
                                             .arg(out[8 * std::size_t(i) + std::size_t(k)])
                                             .arg(ref[k])));
             }
         }},
        // Partitions that finish their collectives at different times meet again at the
        // parent's sync() (binaryPartitionCG and warpAggregatedAtomicsCG idioms).
        {"cg_parity_stats",
         "cg_partition.cu",
         {},
         [](Harness& h) {
             const int n = 5000;
             const auto in = randomVector<int>(n, -1000, 1000, 31);
             auto& din = h.upload(in, "in");
             auto& dstats = h.upload(std::vector<int>{0, 0, 0, -2147483647 - 1}, "stats");
             auto& dfirst = h.upload(std::vector<int>(n, 0), "first");
             h.launch("cg_parity_stats", {4}, {256},
                      Args().ptr(din).ptr(dstats).ptr(dfirst).val(n));
             int ref[4] = {0, 0, 0, -2147483647 - 1};
             for (int v : in) {
                 if (v & 1) {
                     ++ref[0];
                     ref[1] += v;
                 } else {
                     ref[2] += v;
                     ref[3] = std::max(ref[3], v);
                 }
             }
             const auto stats = h.download<int>(dstats, 4);
             for (int k = 0; k < 4; ++k)
                 QCOMPARE(stats[std::size_t(k)], ref[k]);
             const auto first = h.download<int>(dfirst, n);
             CHECK_ALL(std::size_t(n), first[i] == in[i / 32 * 32], "first");
         }},
        {"cg_bucket_max",
         "cg_partition.cu",
         {},
         [](Harness& h) {
             const int n = 3000, buckets = 5;
             const auto bucketOf = randomVector<int>(n, 0, buckets + 1, 32);
             const auto values = randomVector<int>(n, 0, 100000, 33);
             auto& dbucket = h.upload(bucketOf, "bucketOf");
             auto& dvalues = h.upload(values, "values");
             auto& dmax = h.upload(std::vector<int>(buckets, -1), "maxima");
             auto& dlast = h.upload(std::vector<int>(n, -1), "last");
             h.launch("cg_bucket_max", {(n + 127) / 128}, {128},
                      Args().ptr(dbucket).ptr(dvalues).ptr(dmax).ptr(dlast).val(n).val(buckets));
             std::vector<int> maxima(buckets, -1), last(n, -1);
             for (int i = 0; i < n; ++i)
                 if (bucketOf[std::size_t(i)] < buckets)
                     maxima[std::size_t(bucketOf[std::size_t(i)])] = std::max(
                         maxima[std::size_t(bucketOf[std::size_t(i)])], values[std::size_t(i)]);
             for (int w = 0; w * 32 < n; ++w) {
                 const int lo = w * 32, hi = std::min(n, lo + 32);
                 int top = -1;
                 for (int i = lo; i < hi; ++i)
                     if (bucketOf[std::size_t(i)] < buckets) top = i;
                 if (top < 0) continue;
                 int m = -1;
                 for (int i = lo; i < hi; ++i)
                     if (bucketOf[std::size_t(i)] == bucketOf[std::size_t(top)])
                         m = std::max(m, values[std::size_t(i)]);
                 for (int i = lo; i < hi; ++i)
                     if (bucketOf[std::size_t(i)] < buckets) last[std::size_t(i)] = m;
             }
             QVERIFY(h.download<int>(dmax, buckets) == maxima);
             const auto got = h.download<int>(dlast, n);
             CHECK_ALL(std::size_t(n), got[i] == last[i], "last");
         }},
        {"cg_multi_warp",
         "cg_multi_warp.cu",
         {},
         [](Harness& h) {
             const int blocks = 2, threads = 192, n = blocks * threads;
             auto in = randomVector<int>(n, -100, 100, 28);
             auto& din = h.upload(in, "in");
             auto& dout = h.upload(std::vector<int>(8 * n, 0), "out");
             h.launch("cg_multi_warp", {blocks}, {threads}, Args().ptr(din).ptr(dout));
             const auto out = h.download<int>(dout, 8 * std::size_t(n));
             for (int t = 0; t < n; ++t) {
                 const int first = t / 64 * 64, r = t % 64;
                 const auto v = [&](int k) { return in[std::size_t(first + k)]; };
                 int sum = 0, incl = 0, excl = 0;
                 bool any = false, all = true;
                 for (int k = 0; k < 64; ++k) {
                     sum += v(k);
                     if (k <= r) incl += v(k);
                     if (k < r) excl = k == 0 ? v(0) : std::max(excl, v(k));
                     any = any || v(k) > 90;
                     all = all && v(k) > -90;
                 }
                 const int ref[8] = {sum,
                                     incl,
                                     r == 0 ? 0 : excl,
                                     v(37),
                                     (any ? 2 : 0) + (all ? 1 : 0),
                                     (t % threads) / 64 * 100 + 3 * 10 + r / 32,
                                     in[std::size_t(t / threads * threads + ((t % threads) ^ 63))],
                                     r + 64000};
                 for (int k = 0; k < 8; ++k)
                     QVERIFY2(out[8 * std::size_t(t) + std::size_t(k)] == ref[k],
                              qPrintable(QStringLiteral("thread %1, result %2: %3 vs %4")
                                             .arg(t)
                                             .arg(k)
                                             .arg(out[8 * std::size_t(t) + std::size_t(k)])
                                             .arg(ref[k])));
             }
         }},
        {"cg_grid_sum",
         "cg_grid.cu",
         {},
         [](Harness& h) {
             const int n = 100000, blocks = 8;
             auto in = randomVector<float>(n, 0, 1, 27);
             auto& din = h.upload(in, "in");
             auto& dp = h.upload(std::vector<float>(blocks, 0), "partial");
             auto& dout = h.upload(std::vector<float>(2 * blocks, 0), "out");
             h.launch("cg_grid_sum", {blocks}, {256}, Args().ptr(din).ptr(dp).ptr(dout).val(n), 0,
                      true);
             const auto out = h.download<float>(dout, 2 * blocks);
             double ref = 0;
             for (float v : in)
                 ref += v;
             for (int b = 0; b < blocks; ++b) {
                 QVERIFY2(
                     near(out[b], float(ref), 1e-4f),
                     qPrintable(QStringLiteral("block %1: %2 vs %3").arg(b).arg(out[b]).arg(ref)));
                 QCOMPARE(out[b], out[0]);
                 QCOMPARE(out[blocks + b], 2.0f * out[0]);
             }
         }},
        {"atomics_overloads",
         "atomics_overloads.cu",
         {},
         [](Harness& h) {
             const int n = 3000;
             auto in = randomVector<int>(n, -2000000000, 2000000000, 22);
             in[5] = 0;
             in[6] = -1;
             auto& din = h.upload(in, "in");
             auto& dc = h.upload(std::vector<unsigned>(7, 0u), "counters");
             auto& di = h.upload(std::vector<int>{-3, 0}, "ints");
             auto& dl = h.upload(std::vector<long long>{LLONG_MAX, LLONG_MIN, -1, 0}, "lls");
             auto& ds = h.upload(std::vector<unsigned short>{65000}, "shorts");
             auto& db = h.upload(std::vector<unsigned>(20 * n, 0u), "bits");
             auto& df = h.upload(std::vector<float>(n, 0.0f), "floats");
             h.launch("atomics_overloads", {(n + 127) / 128}, {128},
                      Args().ptr(din).val(n).ptr(dc).ptr(di).ptr(dl).ptr(ds).ptr(db).ptr(df));
             const auto c = h.download<unsigned>(dc, 7);
             QCOMPARE(c[0], unsigned(n));
             QCOMPARE(c[1], 0u - unsigned(n));
             QCOMPARE(c[2], unsigned(n % 10));
             QCOMPARE(c[3], unsigned((7 - n % 7) % 7));
             QCOMPARE(c[4], 2u * unsigned(n));
             QCOMPARE(c[5], 3u * unsigned(n));
             unsigned umaxRef = 0;
             int orRef = 0;
             long long lmin = LLONG_MAX, lmax = LLONG_MIN, land = -1, lxor = 0;
             for (int i = 0; i < n; ++i) {
                 umaxRef = std::max(umaxRef, unsigned(in[i]));
                 orRef |= 1 << (i % 31);
                 lmin = std::min<long long>(lmin, in[i]);
                 lmax = std::max<long long>(lmax, in[i]);
                 land &= ~(1ll << (i % 63));
                 lxor ^= static_cast<long long>(in[i]) * (1ll << 20);
             }
             QCOMPARE(c[6], umaxRef);
             const auto ints = h.download<int>(di, 2);
             QCOMPARE(ints[0], 7);
             QCOMPARE(ints[1], orRef);
             const auto lls = h.download<long long>(dl, 4);
             QCOMPARE(lls[0], lmin);
             QCOMPARE(lls[1], lmax);
             QCOMPARE(lls[2], land);
             QCOMPARE(lls[3], lxor);
             QCOMPARE(h.download<unsigned short>(ds, 1)[0], static_cast<unsigned short>(65000 + n));

             const auto brev = [](unsigned x) {
                 unsigned r = 0;
                 for (int k = 0; k < 32; ++k)
                     r |= ((x >> k) & 1u) << (31 - k);
                 return r;
             };
             const auto clz32 = [](unsigned x) { return x ? __builtin_clz(x) : 32; };
             const auto clz64 = [](unsigned long long x) { return x ? __builtin_clzll(x) : 64; };
             const auto sext24 = [](unsigned x) {
                 return static_cast<long long>(static_cast<std::int32_t>(x << 8) >> 8);
             };
             const auto bits = h.download<unsigned>(db, 20 * std::size_t(n));
             const auto floats = h.download<float>(df, n);
             for (int i = 0; i < n; ++i) {
                 const int v = in[i], vn = in[(i + 1) % n];
                 const unsigned u = unsigned(v), w = unsigned(vn);
                 const unsigned long long uw = (static_cast<unsigned long long>(u) << 32) | w;
                 unsigned ref[20];
                 ref[0] = std::min(u, w) ^ std::max(u, w);
                 ref[1] = unsigned(std::min<long long>(v, vn) - std::max<long long>(v, vn)) ^
                          unsigned(std::min(uw, 12345ull) + std::max(uw, 7ull));
                 ref[2] = std::min(u, w);
                 ref[3] = std::max(u, w);
                 ref[4] = unsigned(std::llabs(static_cast<long long>(v) - vn)) + 7u;
                 ref[5] = (u > w ? u - w : w - u) + 1u;
                 ref[6] = brev(u);
                 ref[7] =
                     unsigned(((static_cast<unsigned long long>(brev(w)) << 32) | brev(u)) >> 7);
                 {
                     const unsigned s = (unsigned(i) * 2654435761u) & 0x7777u;
                     const unsigned long long x = (static_cast<unsigned long long>(w) << 32) | u;
                     unsigned r = 0;
                     for (int k = 0; k < 4; ++k)
                         r |= unsigned((x >> (((s >> (4 * k)) & 7u) * 8)) & 0xffu) << (8 * k);
                     ref[8] = r;
                 }
                 // __funnelshift_*(lo, hi, shift) shifts hi:lo, here w:u
                 const unsigned long long hl = (static_cast<unsigned long long>(w) << 32) | u;
                 const auto fl2 = [&](unsigned sh) { return unsigned((hl << sh) >> 32); };
                 const auto fr2 = [&](unsigned sh) { return unsigned(hl >> sh); };
                 ref[9] = fl2(unsigned(i) & 31u) ^ fr2((unsigned(i) * 7u) & 31u);
                 ref[10] = fl2(std::min(unsigned(i % 40), 32u)) ^
                           fr2(std::min(unsigned(i % 41) + 3u, 32u));
                 ref[11] =
                     unsigned(clz32(u) + 64 * __builtin_ffs(v) + 4096 * __builtin_popcount(u));
                 ref[12] = unsigned(clz64(uw) + 128 * __builtin_ffsll(static_cast<long long>(uw)) +
                                    16384 * __builtin_popcountll(uw));
                 ref[13] = unsigned(static_cast<unsigned long long>(sext24(u) * sext24(w)));
                 ref[14] = (u & 0xffffffu) * (w & 0xffffffu);
                 ref[15] = unsigned(int((static_cast<long long>(v) + vn) >> 1) ^
                                    int((static_cast<long long>(v) + vn + 1) >> 1));
                 ref[16] = unsigned((static_cast<unsigned long long>(u) + w) >> 1) ^
                           unsigned((static_cast<unsigned long long>(u) + w + 1) >> 1);
                 {
                     const double a = v, bb = vn * 0.5;
                     unsigned long long ab, bbb;
                     std::memcpy(&ab, &a, 8);
                     std::memcpy(&bbb, &bb, 8);
                     ref[17] = unsigned(ab >> 32) ^ unsigned(bbb & 0xffffffffu);
                     const float fv = float(v);
                     unsigned fb;
                     std::memcpy(&fb, &fv, 4);
                     ref[18] = fb ^ w;
                 }
                 ref[19] = unsigned((static_cast<unsigned long long>(u) * w) >> 32) +
                           unsigned(int((static_cast<long long>(v) * vn) >> 32));
                 for (int k = 0; k < 20; ++k)
                     QVERIFY2(bits[20 * std::size_t(i) + std::size_t(k)] == ref[k],
                              qPrintable(QStringLiteral("thread %1, result %2: %3 vs %4")
                                             .arg(i)
                                             .arg(k)
                                             .arg(bits[20 * std::size_t(i) + std::size_t(k)])
                                             .arg(ref[k])));
                 const float sat = std::clamp(float(v) / 100000.0f, 0.0f, 1.0f);
                 const float fref =
                     float(double(sat + float(vn) / 1024.0f) + std::min(1.0, double(v)));
                 QVERIFY2(near(floats[i], fref, 1e-5f),
                          qPrintable(QStringLiteral("floats[%1]").arg(i)));
             }
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

    // grid.sync() needs a cooperative launch; a cooperative grid must fit at once; a block
    // that leaves before grid.sync() is named, never a hang.
    void gridSyncNeedsCooperativeLaunch()
    {
        if (!onCpu()) QSKIP("grid.sync() without a cooperative launch is undefined on a GPU");
        Harness h{*m_backend, build("cg_grid.cu", {}), {}};
        QVERIFY(h.program);
        auto& din = h.upload(std::vector<float>(1000, 1.0f), "in");
        auto& dp = h.upload(std::vector<float>(4, 0), "partial");
        auto& dout = h.upload(std::vector<float>(8, 0), "out");
        try {
            h.launch("cg_grid_sum", {4}, {256}, Args().ptr(din).ptr(dp).ptr(dout).val(1000));
            QFAIL("the launch should have failed");
        } catch (const Error& e) {
            QCOMPARE(e.kind(), Error::Kind::Runtime);
            const std::string msg = e.what();
            QVERIFY2(msg.find("grid.sync() at cg_grid.cu:25") != std::string::npos, e.what());
            QVERIFY2(msg.find("\"cooperative\": true") != std::string::npos, e.what());
        }
        // The same program launched cooperatively afterwards works.
        h.launch("cg_grid_sum", {4}, {256}, Args().ptr(din).ptr(dp).ptr(dout).val(1000), 0, true);
        QCOMPARE(h.download<float>(dout, 8)[7], 2000.0f);
    }

    void cooperativeGridMustFitAtOnce()
    {
        Harness h{*m_backend, build("cg_grid.cu", {}), {}};
        QVERIFY(h.program);
        auto& din = h.upload(std::vector<float>(1000, 1.0f), "in");
        auto& dp = h.upload(std::vector<float>(100000, 0), "partial");
        auto& dout = h.upload(std::vector<float>(200000, 0), "out");
        try {
            h.launch("cg_grid_sum", {100000}, {256}, Args().ptr(din).ptr(dp).ptr(dout).val(1000), 0,
                     true);
            QFAIL("the launch should have been refused");
        } catch (const Error& e) {
            QCOMPARE(e.kind(), Error::Kind::InvalidArgument);
            QVERIFY2(std::string(e.what()).find("co-resident") != std::string::npos, e.what());
        }
    }

    void gridSyncNotReachedByEveryBlockIsReported()
    {
        if (!onCpu()) QSKIP("a grid.sync() some blocks never reach hangs a GPU");
        Harness h{*m_backend, build("cg_grid.cu", {}), {}};
        QVERIFY(h.program);
        auto& dp = h.upload(std::vector<float>(4, 0), "partial");
        try {
            h.launch("cg_grid_early_exit", {4}, {32}, Args().ptr(dp), 0, true);
            QFAIL("the launch should have failed");
        } catch (const Error& e) {
            QCOMPARE(e.kind(), Error::Kind::Runtime);
            const std::string msg = e.what();
            QVERIFY2(msg.find("grid.sync() at cg_grid.cu:46 is not reached by every block") !=
                         std::string::npos,
                     e.what());
            QVERIFY2(msg.find("3 blocks wait there; 1 block exited (the last: block (0,0,0))") !=
                         std::string::npos,
                     e.what());
        }
    }

    // The sandbox runs a cooperative launch's blocks on their own OS threads, one at a time,
    // handing over at grid.sync(): the bounds-checked build gives the same sums.
    void cooperativeLaunchInBoundsCheckedMode()
    {
        if (!onCpu()) QSKIP("bounds-checked mode belongs to the CPU emulator");
        Harness h{*m_backend, build("cg_grid.cu", {}, {cpu::CpuBackend::kBoundsCheckFlag}), {}};
        QVERIFY(h.program);
        auto& din = h.upload(std::vector<float>(3000, 0.5f), "in");
        auto& dp = h.upload(std::vector<float>(6, 0), "partial");
        auto& dout = h.upload(std::vector<float>(12, 0), "out");
        h.launch("cg_grid_sum", {6}, {128}, Args().ptr(din).ptr(dp).ptr(dout).val(3000), 0, true);
        const auto out = h.download<float>(dout, 12);
        for (int b = 0; b < 6; ++b) {
            QCOMPARE(out[std::size_t(b)], 1500.0f);
            QCOMPARE(out[std::size_t(6 + b)], 3000.0f);
        }
    }

    void gridSyncAndSyncthreadsAreNotOneBarrier()
    {
        if (!onCpu()) QSKIP("mismatched barriers are undefined behaviour on a GPU");
        const std::string source = R"(#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* out)
{
    if (threadIdx.x < 16) cg::this_grid().sync();
    else __syncthreads();
    out[threadIdx.x] = 1;
}
)";
        const CompileResult r = m_backend->compile(source, "mixed.cu", {});
        QVERIFY2(r.ok, r.log.c_str());
        Harness h{*m_backend, m_backend->load(r), {}};
        auto& d = h.upload(std::vector<int>(32, 0), "out");
        try {
            h.launch("k", {2}, {32}, Args().ptr(d), 0, true);
            QFAIL("the launch should have failed");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).find("grid.sync() at mixed.cu:5 and __syncthreads() at "
                                                "mixed.cu:6 are the same barrier") !=
                         std::string::npos,
                     e.what());
        }
    }

    // coalesced_threads() groups the lanes that reach it together; a lane that took the other
    // branch and waits at a barrier does not keep the group from forming.
    void coalescedGroupsFormBesideBarriers()
    {
        if (!onCpu()) QSKIP("checks the emulator's scheduling of coalesced groups");
        const std::string source = R"(#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* out)
{
    if (threadIdx.x % 2 == 0) {
        cg::coalesced_group g = cg::coalesced_threads();
        out[threadIdx.x] = g.size() * 100 + g.thread_rank();
    }
    __syncthreads();
    if (threadIdx.x % 2 == 1) out[threadIdx.x] = cg::coalesced_threads().size();
}
)";
        const CompileResult r = m_backend->compile(source, "coalesced.cu", {});
        QVERIFY2(r.ok, r.log.c_str());
        Harness h{*m_backend, m_backend->load(r), {}};
        auto& d = h.upload(std::vector<int>(40, -1), "out");
        h.launch("k", {1}, {40}, Args().ptr(d));
        const auto out = h.download<int>(d, 40);
        for (int t = 0; t < 40; ++t) {
            const int warpLanes = t < 32 ? 32 : 8;
            const int expected = t % 2 == 0 ? (warpLanes / 2) * 100 + (t % 32) / 2 : warpLanes / 2;
            QVERIFY2(out[std::size_t(t)] == expected,
                     qPrintable(QStringLiteral("thread %1: %2 vs %3")
                                    .arg(t)
                                    .arg(out[std::size_t(t)])
                                    .arg(expected)));
        }
    }

    // __activemask() is the lanes that reach it together (as coalesced_threads()): all of the
    // warp where it runs converged, the lanes of one side inside a branch; a kernel with no
    // other warp operation runs in fiber mode for it. Only the emulator's answer is fixed: a
    // GPU may run a short branch predicated, with every lane active.
    void activeMaskIsTheConvergedLanes()
    {
        if (!onCpu()) QSKIP("checks the emulator's grouping of lanes at __activemask()");
        const std::string source = R"(__global__ void k(unsigned* masks)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    masks[3 * i] = __activemask();
    if (threadIdx.x % 4 == 1)
        masks[3 * i + 1] = __activemask();
    else
        masks[3 * i + 1] = ~__activemask();
    if (threadIdx.x % 2 == 0) return;
    masks[3 * i + 2] = __activemask();
}
)";
        const CompileResult r = m_backend->compile(source, "activemask.cu", {});
        QVERIFY2(r.ok, r.log.c_str());
        Harness h{*m_backend, m_backend->load(r), {}};
        const int blocks = 2, threads = 48, n = blocks * threads;
        auto& d = h.upload(std::vector<unsigned>(3 * n, 0), "masks");
        h.launch("k", {blocks}, {threads}, Args().ptr(d));
        const auto out = h.download<unsigned>(d, 3 * std::size_t(n));
        for (int i = 0; i < n; ++i) {
            const int t = i % threads;
            const unsigned warp = t < 32 ? 0xffffffffu : 0xffffu;
            const unsigned side = t % 4 == 1 ? 0x22222222u & warp : ~0x22222222u & warp;
            const unsigned expected[3] = {warp, t % 4 == 1 ? side : ~side,
                                          t % 2 == 0 ? 0u : 0xaaaaaaaau & warp};
            for (int k = 0; k < 3; ++k)
                QVERIFY2(out[3 * std::size_t(i) + std::size_t(k)] == expected[k],
                         qPrintable(QStringLiteral("thread %1, mask %2: 0x%3 vs 0x%4")
                                        .arg(i)
                                        .arg(k)
                                        .arg(out[3 * std::size_t(i) + std::size_t(k)], 0, 16)
                                        .arg(expected[k], 0, 16)));
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

    // Issue 26: new[] of more than the host has (std::bad_alloc in the emulated kernel) says
    // it ran out of memory, and where, instead of only "stopped in block (0,0,0)".
    void failedHeapAllocationSaysOutOfMemory()
    {
        if (!onCpu()) QSKIP("device-side new of 1 PiB fails differently on a GPU");
        // The pointer escapes through a volatile global, so that new/delete is not elided.
        const std::string src = "char* volatile g_keep;\n"
                                "__global__ void k(int* out, unsigned long long bytes)\n"
                                "{\n"
                                "    char* p = new char[bytes];\n"
                                "    g_keep = p;\n"
                                "    g_keep[0] = 1;\n"
                                "    out[threadIdx.x] = g_keep[0];\n"
                                "    delete[] g_keep;\n"
                                "}\n";
        const CompileResult r = m_backend->compile(src, "alloc.cu", {});
        QVERIFY2(r.ok, r.log.c_str());
        Harness h{*m_backend, m_backend->load(r), {}};
        auto& d = h.upload(std::vector<int>(32, 0), "out");
        h.launch("k", {1}, {32}, Args().ptr(d).val(std::uint64_t{1} << 20)); // 1 MiB: fine
        for (const unsigned threads : {1u, 32u}) {
            try {
                h.launch("k", {2}, {threads}, Args().ptr(d).val(std::uint64_t{1} << 50));
                QFAIL("the launch should have failed");
            } catch (const Error& e) {
                const std::string msg = e.what();
                QVERIFY2(msg.find("kernel 'k': out of memory: a heap allocation in the kernel") !=
                                 std::string::npos &&
                             msg.find("std::bad_alloc") != std::string::npos &&
                             msg.find("in block (") != std::string::npos &&
                             msg.find("thread (") != std::string::npos,
                         e.what());
            }
        }
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

    // Operations whose masks overlap may be pending at once (lanes of one partition still in
    // their shuffles while the others reach the warp's sync); only when they wait for each
    // other's lanes is the launch stopped, naming both.
    void overlappingMasksWaitingForEachOtherAreReported()
    {
        if (!onCpu()) QSKIP("an inconsistent warp mask is undefined behaviour on a GPU");
        const std::string src =
            "__global__ void k(int* out)\n"
            "{\n"
            "    const int v = (int)threadIdx.x;\n"
            "    if (threadIdx.x < 16) out[threadIdx.x] = __shfl_sync(0xffffffffu, v, 0);\n"
            "    else out[threadIdx.x] = __shfl_sync(0xffff0001u, v, 0);\n"
            "}\n";
        const CompileResult r = m_backend->compile(src, "overlap.cu", {});
        QVERIFY2(r.ok, r.log.c_str());
        Harness h{*m_backend, m_backend->load(r), {}};
        auto& d = h.upload(std::vector<int>(32, 0), "out");
        try {
            h.launch("k", {1}, {32}, Args().ptr(d));
            QFAIL("the launch should have failed");
        } catch (const Error& e) {
            const std::string msg = e.what();
            QVERIFY2(msg.find("inconsistent warp mask in warp 0") != std::string::npos, e.what());
            QVERIFY2(msg.find("overlap.cu:4 with mask 0xffffffff") != std::string::npos, e.what());
            QVERIFY2(msg.find("overlap.cu:5 with mask 0xffff0001") != std::string::npos, e.what());
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
                                "    assert(v[blockIdx.x * blockDim.x + threadIdx.x] >= 0);\n"
                                "}\n";
        const CompileResult r = m_backend->compile(src, "assert.cu", {});
        QVERIFY2(r.ok, r.log.c_str());
        Harness h{*m_backend, m_backend->load(r), {}};
        // The failing thread is in the last block: one worker runs several blocks in a row (loop
        // mode), and the report named block (0,0,0) for every one of them (issue 24).
        std::vector<int> v(3 * 64, 1);
        v[2 * 64 + 37] = -1;
        auto& d = h.upload(v, "v");
        try {
            h.launch("k", {3}, {64}, Args().ptr(d));
            QFAIL("the launch should have failed");
        } catch (const Error& e) {
            const std::string msg = e.what();
            QVERIFY2(msg.find("assertion 'v[blockIdx.x * blockDim.x + threadIdx.x] >= 0' failed "
                              "at assert.cu:4") != std::string::npos,
                     e.what());
            QVERIFY2(msg.find("block (2,0,0), thread (37,0,0)") != std::string::npos, e.what());
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
        QTest::newRow("cluster sync")
            << "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n__global__ "
               "void k() { cg::this_cluster().sync(); }\n"
               "__global__ void other(int* p) { p[0] = 1; }\n"
            << 3 << "clusters" << true;
        QTest::newRow("texture") << "__global__ void k(cudaTextureObject_t t, float* o)\n{ o[0] = "
                                    "tex1Dfetch<float>(t, 0); }\n"
                                    "__global__ void other(int* p) { p[0] = 1; }\n"
                                 << 1 << "textures" << true;
        // With -rdc NVRTC accepts the launch (the device-code check, issue 25); the emulator
        // refuses the kernel. Without it NVRTC refuses the file, on both backends.
        QTest::newRow("dynamic parallelism")
            << "__global__ void child() {}\n__global__ void k() { child<<<1, 1>>>(); }\n"
            << 2 << "dynamic parallelism" << true;
        QTest::newRow("dynamic parallelism without -rdc")
            << "__global__ void child() {}\n__global__ void k() { child<<<1, 1>>>(); }\n"
            << 2 << "device-side kernel launch" << false;
    }

    void refusedConstructs()
    {
        if (!onCpu()) QSKIP("these constructs are refused by the CPU emulator only");
        QFETCH(QString, source);
        QFETCH(int, line);
        QFETCH(QString, needle);
        QFETCH(bool, alone);
        CompileOptions options;
        if (QByteArray(QTest::currentDataTag()) == "dynamic parallelism")
            options.extraFlags.push_back("-rdc=true");
        if (!alone && !cuda::Compiler::instance().available())
            QSKIP("NVRTC refuses this file; it is not installed here");
        const CompileResult r = m_backend->compile(source.toStdString(), "refused.cu", options);
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

    /// Issue 25: the emulator compiles a kernel file as device code with NVRTC first (as the
    /// CUDA backend does), so a host function called in it is refused with NVRTC's own message
    /// at the user's line, before the host compiler runs; the check is served from NVRTC's
    /// compile cache the next time.
    void hostCallsAreRefusedAsOnTheGpu()
    {
        if (!onCpu()) QSKIP("the device-code check is the CPU emulator's");
        if (!cuda::Compiler::instance().available())
            QSKIP(
                qPrintable(QStringLiteral("NVRTC is not installed (the sandbox alone stops "
                                          "host calls): ") +
                           QString::fromStdString(cuda::Compiler::instance().unavailableReason())));
        const std::string readsAFile = "#include <cstdio>\n"
                                       "__global__ void k(int* out)\n"
                                       "{\n"
                                       "    FILE* f = fopen(\"/etc/passwd\", \"r\");\n"
                                       "    out[0] = f != nullptr;\n"
                                       "}\n";
        const CompileResult r = m_backend->compile(readsAFile, "host.cu", {});
        QVERIFY(!r.ok);
        QVERIFY(r.libraryPath.empty()); // the host compiler never ran
        QVERIFY2(r.compilerVersion.rfind("NVRTC ", 0) == 0, r.compilerVersion.c_str());
        QVERIFY2(r.log.find("device-code check") == 0, r.log.c_str());
        const Diagnostic& d = r.diagnostics.front();
        QCOMPARE(d.file, std::string("host.cu"));
        QCOMPARE(d.line, 4);
        QCOMPARE(d.severity, Severity::Error);
        QVERIFY2(d.message == "identifier \"FILE\" is undefined", d.message.c_str());
        bool noted = false;
        for (const Diagnostic& e : r.diagnostics)
            for (const std::string& c : e.context)
                noted =
                    noted || c.find("compiles a kernel file as device code") != std::string::npos;
        QVERIFY(noted);

        // A host function the file declares itself: ptxas refuses the call, at its line.
        const std::string shell = "extern \"C\" int system(const char*);\n"
                                  "__global__ void k(int* out)\n"
                                  "{\n"
                                  "    out[0] = system(\"touch /tmp/wb-never\");\n"
                                  "}\n";
        const CompileResult s = m_backend->compile(shell, "shell.cu", {});
        QVERIFY(!s.ok);
        QCOMPARE(s.diagnostics.front().message, std::string("Unresolved extern function 'system'"));
        QCOMPARE(s.diagnostics.front().file, std::string("shell.cu"));
        QCOMPARE(s.diagnostics.front().line, 4);

        // Device code compiles as before; its check is a hit in NVRTC's cache afterwards.
        const std::string fine = "#include <cstdio>\n"
                                 "__global__ void k(int* out) { printf(\"%d\\n\", out[0]); }\n";
        CompileOptions o;
        o.extraFlags = {cpu::CpuBackend::kBoundsCheckFlag, "--host-flag=-Wall"};
        QVERIFY(m_backend->compile(fine, "fine.cu", {}).ok);
        const CompileResult again = cuda::Compiler::instance().compile(
            fine, "fine.cu", cpu::detail::deviceCheckOptions({}));
        QVERIFY(again.ok);
        QVERIFY(again.cache == CompileResult::Cache::MemoryHit ||
                again.cache == CompileResult::Cache::DiskHit);
        // The emulator's own flags never reach NVRTC; the emulated architecture is the default.
        const CompileOptions forNvrtc = cpu::detail::deviceCheckOptions(o);
        QVERIFY(forNvrtc.extraFlags.empty());
        QCOMPARE(forNvrtc.arch, std::string("sm_90"));
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
