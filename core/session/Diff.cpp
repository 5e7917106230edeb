// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/Diff.h"

#include "core/common/Error.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <thread>

namespace wb::session {

namespace {

/// Per element type: how to read a value as double, and its ULP ordering key.
template <ElementType E> struct Traits;

template <typename Bits> std::int64_t orderedKey(Bits bits) noexcept
{
    using S = std::make_signed_t<Bits>;
    const auto s = static_cast<S>(bits);
    // Sign-magnitude → two's complement order: -0.0 and +0.0 both map to 0.
    if (s < 0) return static_cast<std::int64_t>(std::numeric_limits<S>::min()) - s;
    return s;
}

template <> struct Traits<ElementType::F32> {
    using T = float;
    static constexpr bool kFloat = true;
    static double value(T v) noexcept { return v; }
    static std::int64_t key(T v) noexcept { return orderedKey(std::bit_cast<std::uint32_t>(v)); }
};
template <> struct Traits<ElementType::F64> {
    using T = double;
    static constexpr bool kFloat = true;
    static double value(T v) noexcept { return v; }
    static std::int64_t key(T v) noexcept { return orderedKey(std::bit_cast<std::uint64_t>(v)); }
};
template <> struct Traits<ElementType::F16> {
    using T = std::uint16_t;
    static constexpr bool kFloat = true;
    static double value(T v) noexcept { return halfToFloat(v); }
    static std::int64_t key(T v) noexcept { return orderedKey(v); }
};
template <> struct Traits<ElementType::BF16> {
    using T = std::uint16_t;
    static constexpr bool kFloat = true;
    static double value(T v) noexcept { return bfloat16ToFloat(v); }
    static std::int64_t key(T v) noexcept { return orderedKey(v); }
};
template <typename I> struct IntTraits {
    using T = I;
    static constexpr bool kFloat = false;
    static double value(T v) noexcept { return static_cast<double>(v); }
};
template <> struct Traits<ElementType::I8> : IntTraits<std::int8_t> {
};
template <> struct Traits<ElementType::I16> : IntTraits<std::int16_t> {
};
template <> struct Traits<ElementType::I32> : IntTraits<std::int32_t> {
};
template <> struct Traits<ElementType::I64> : IntTraits<std::int64_t> {
};
template <> struct Traits<ElementType::U8> : IntTraits<std::uint8_t> {
};
template <> struct Traits<ElementType::U16> : IntTraits<std::uint16_t> {
};
template <> struct Traits<ElementType::U32> : IntTraits<std::uint32_t> {
};
template <> struct Traits<ElementType::U64> : IntTraits<std::uint64_t> {
};
template <> struct Traits<ElementType::Bool> : IntTraits<std::uint8_t> {
};

struct Partial {
    double maxAbs = 0, maxRel = 0, sumAbs = 0, sumSq = 0;
    std::uint64_t maxUlp = 0;
    std::size_t mismatches = 0;
    std::size_t nanA = 0, nanB = 0, infA = 0, infB = 0;
    std::vector<Mismatch> first;
    std::uint64_t hist[DiffStats::kHistogramBins] = {};
};

inline int histogramBin(double err) noexcept
{
    if (err == 0) return 0;
    // Binary exponent straight from the bits: cheap and exact for the log2 bins.
    const int e = static_cast<int>((std::bit_cast<std::uint64_t>(err) >> 52) & 0x7ff) - 1023;
    const int bin = e - DiffStats::kHistogramMinExp + 1;
    return std::clamp(bin, 1, DiffStats::kHistogramBins - 1);
}

template <ElementType E>
std::uint64_t ulpOf(typename Traits<E>::T a, typename Traits<E>::T b) noexcept
{
    if constexpr (Traits<E>::kFloat) {
        const std::int64_t ka = Traits<E>::key(a), kb = Traits<E>::key(b);
        return ka > kb ? static_cast<std::uint64_t>(ka) - static_cast<std::uint64_t>(kb)
                       : static_cast<std::uint64_t>(kb) - static_cast<std::uint64_t>(ka);
    } else {
        return a > b ? static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b)
                     : static_cast<std::uint64_t>(b) - static_cast<std::uint64_t>(a);
    }
}

/// |a - b|: for integers from the exact difference (`ulp`), since two 64-bit integers that
/// differ by a little are the same double.
template <ElementType E> double absErrorOf(double va, double vb, std::uint64_t ulp) noexcept
{
    if constexpr (Traits<E>::kFloat)
        return std::fabs(va - vb);
    else
        return static_cast<double>(ulp);
}

template <ElementType E>
Mismatch mismatchAt(const typename Traits<E>::T* a, const typename Traits<E>::T* b, std::size_t i,
                    double va, double vb, double err, std::uint64_t ulp)
{
    Mismatch m{i, {}, va, vb, err, ulp, {}, {}};
    if constexpr (!Traits<E>::kFloat) {
        m.actualText = std::to_string(+a[i]);
        m.expectedText = std::to_string(+b[i]);
    }
    return m;
}

/// Element by element with every special case: used for blocks that hold NaN or Inf.
template <ElementType E>
void diffSlow(const typename Traits<E>::T* a, const typename Traits<E>::T* b, std::size_t begin,
              std::size_t end, const Tolerance& tol, std::size_t firstK, Partial& p)
{
    using Tr = Traits<E>;
    const bool ulpMode = tol.mode == Tolerance::Mode::Ulp;
    auto record = [&](std::size_t i, double va, double vb, double err, std::uint64_t ulp) {
        ++p.mismatches;
        if (p.first.size() < firstK) p.first.push_back(mismatchAt<E>(a, b, i, va, vb, err, ulp));
    };
    for (std::size_t i = begin; i < end; ++i) {
        const double va = Tr::value(a[i]);
        const double vb = Tr::value(b[i]);
        if constexpr (Tr::kFloat) {
            if (!std::isfinite(va) || !std::isfinite(vb)) {
                const bool na = std::isnan(va), nb = std::isnan(vb);
                p.nanA += na;
                p.nanB += nb;
                p.infA += std::isinf(va);
                p.infB += std::isinf(vb);
                const bool equal = (na && nb) ? tol.nanEqual : (!na && !nb && va == vb);
                if (!equal)
                    record(i, va, vb, std::fabs(va - vb),
                           std::numeric_limits<std::uint64_t>::max());
                continue;
            }
        }
        const std::uint64_t ulp = ulpOf<E>(a[i], b[i]);
        const double err = absErrorOf<E>(va, vb, ulp);
        const double ab = std::fabs(vb);
        const double rel = err == 0 ? 0.0 : err / ab; // err / 0 = +inf
        p.maxAbs = std::max(p.maxAbs, err);
        p.maxRel = std::max(p.maxRel, rel);
        p.maxUlp = std::max(p.maxUlp, ulp);
        p.sumAbs += err;
        p.sumSq += err * err;
        ++p.hist[histogramBin(err)];
        const bool bad = ulpMode ? ulp > tol.maxUlp : !(err <= tol.atol + tol.rtol * ab);
        if (bad) record(i, va, vb, err, ulp);
    }
}

/// The common case, a block without NaN/Inf: fixed-width lanes of independent accumulators so
/// that the compiler vectorises the loop without reassociating floating-point sums; the
/// histogram bins are stored and counted afterwards. Returns false (and changes nothing) when
/// the block holds a non-finite value.
template <ElementType E>
bool diffBlock(const typename Traits<E>::T* a, const typename Traits<E>::T* b, std::size_t begin,
               std::size_t len, const Tolerance& tol, Partial& p, std::uint8_t* bins)
{
    using Tr = Traits<E>;
    constexpr std::size_t L = 8;
    const bool ulpMode = tol.mode == Tolerance::Mode::Ulp;
    const double atol = tol.atol, rtol = tol.rtol;
    const std::uint64_t maxUlp = tol.maxUlp;
    constexpr double kMaxFinite = std::numeric_limits<double>::max();
    double mxA[L] = {}, mxR[L] = {}, sA[L] = {}, sQ[L] = {};
    std::uint64_t mxU[L] = {}, bad[L] = {}, nonFinite[L] = {};
    const typename Tr::T* pa = a + begin;
    const typename Tr::T* pb = b + begin;
    const std::size_t full = len - len % L;
    auto lane = [&](std::size_t j, std::size_t l) {
        const double va = Tr::value(pa[j]);
        const double vb = Tr::value(pb[j]);
        if constexpr (Tr::kFloat)
            nonFinite[l] += static_cast<std::uint64_t>(!(std::fabs(va) <= kMaxFinite) |
                                                       !(std::fabs(vb) <= kMaxFinite));
        const std::uint64_t ulp = ulpOf<E>(pa[j], pb[j]);
        const double err = absErrorOf<E>(va, vb, ulp);
        const double ab = std::fabs(vb);
        const double rel = err == 0 ? 0.0 : err / ab;
        mxA[l] = mxA[l] > err ? mxA[l] : err;
        mxR[l] = mxR[l] > rel ? mxR[l] : rel;
        mxU[l] = mxU[l] > ulp ? mxU[l] : ulp;
        sA[l] += err;
        sQ[l] += err * err;
        bad[l] += static_cast<std::uint64_t>(ulpMode ? ulp > maxUlp : !(err <= atol + rtol * ab));
        const int e = static_cast<int>((std::bit_cast<std::uint64_t>(err) >> 52) & 0x7ff) - 1023;
        const int bin = e - DiffStats::kHistogramMinExp + 1;
        bins[j] = static_cast<std::uint8_t>(
            err == 0
                ? 0
                : (bin < 1 ? 1
                           : (bin > DiffStats::kHistogramBins - 1 ? DiffStats::kHistogramBins - 1
                                                                  : bin)));
    };
    for (std::size_t j = 0; j < full; j += L)
        for (std::size_t l = 0; l < L; ++l)
            lane(j + l, l);
    for (std::size_t j = full; j < len; ++j)
        lane(j, j - full);
    std::uint64_t nf = 0;
    for (std::size_t l = 0; l < L; ++l)
        nf += nonFinite[l];
    if (nf) return false;
    for (std::size_t l = 0; l < L; ++l) {
        p.maxAbs = std::max(p.maxAbs, mxA[l]);
        p.maxRel = std::max(p.maxRel, mxR[l]);
        p.maxUlp = std::max(p.maxUlp, mxU[l]);
        p.sumAbs += sA[l];
        p.sumSq += sQ[l];
        p.mismatches += bad[l];
    }
    // Four interleaved counters: consecutive equal bins do not wait on each other's store.
    std::uint64_t h[4][DiffStats::kHistogramBins] = {};
    for (std::size_t j = 0; j + 4 <= len; j += 4) {
        ++h[0][bins[j]];
        ++h[1][bins[j + 1]];
        ++h[2][bins[j + 2]];
        ++h[3][bins[j + 3]];
    }
    for (std::size_t j = len - len % 4; j < len; ++j)
        ++h[0][bins[j]];
    for (int k = 0; k < DiffStats::kHistogramBins; ++k)
        p.hist[k] += h[0][k] + h[1][k] + h[2][k] + h[3][k];
    return true;
}

template <ElementType E>
void diffRange(const typename Traits<E>::T* a, const typename Traits<E>::T* b, std::size_t begin,
               std::size_t end, const Tolerance& tol, std::size_t firstK, Partial& p)
{
    using Tr = Traits<E>;
    constexpr std::size_t kBlock = 4096;
    std::uint8_t bins[kBlock];
    const bool ulpMode = tol.mode == Tolerance::Mode::Ulp;
    for (std::size_t s = begin; s < end; s += kBlock) {
        const std::size_t len = std::min(kBlock, end - s);
        const std::size_t before = p.mismatches;
        if (!diffBlock<E>(a, b, s, len, tol, p, bins)) {
            diffSlow<E>(a, b, s, s + len, tol, firstK, p);
            continue;
        }
        // Mismatches are rare: find their positions only in blocks that have some.
        for (std::size_t i = s; i < s + len && p.mismatches > before && p.first.size() < firstK;
             ++i) {
            const double va = Tr::value(a[i]), vb = Tr::value(b[i]);
            const std::uint64_t ulp = ulpOf<E>(a[i], b[i]);
            const double err = absErrorOf<E>(va, vb, ulp);
            const bool bad =
                ulpMode ? ulp > tol.maxUlp : !(err <= tol.atol + tol.rtol * std::fabs(vb));
            if (bad) p.first.push_back(mismatchAt<E>(a, b, i, va, vb, err, ulp));
        }
    }
}

/// Asked once, when the library loads: the question reads a file under /sys, which a sealed
/// process (core/common/Sandbox.h) may not open.
const unsigned kHardwareThreads = std::max(1u, std::thread::hardware_concurrency());

template <ElementType E>
std::vector<Partial> runThreads(const HostArray& actual, const HostArray& expected,
                                const Tolerance& tol, const DiffOptions& opt)
{
    using T = typename Traits<E>::T;
    const T* a = actual.as<T>();
    const T* b = expected.as<T>();
    const std::size_t n = actual.count();
    unsigned threads = opt.threads ? opt.threads : kHardwareThreads;
    // Small arrays are not worth a thread start.
    const std::size_t minPerThread = 1u << 16;
    threads = static_cast<unsigned>(std::clamp<std::size_t>(n / minPerThread, 1, threads));
    std::vector<Partial> parts(threads);
    const std::size_t chunk = (n + threads - 1) / threads;
    auto work = [&](unsigned t) {
        const std::size_t begin = std::min(n, chunk * t);
        const std::size_t end = std::min(n, begin + chunk);
        diffRange<E>(a, b, begin, end, tol, opt.firstK, parts[t]);
    };
    std::vector<std::jthread> pool;
    for (unsigned t = 1; t < threads; ++t)
        pool.emplace_back(work, t);
    work(0);
    pool.clear(); // joins
    return parts;
}

HostArray convertedTo(const HostArray& from, ElementType type)
{
    HostArray out(type, from.shape());
    for (std::size_t i = 0; i < out.count(); ++i)
        out.set(i, from.at(i));
    return out;
}

} // namespace

double DiffStats::binLowerEdge(int bin) noexcept
{
    return bin <= 0 ? 0.0 : std::ldexp(1.0, bin - 1 + kHistogramMinExp);
}

DiffStats computeDiff(const HostArray& actual, const HostArray& expectedIn,
                      const Tolerance& tolerance, const DiffOptions& options)
{
    if (actual.count() != expectedIn.count())
        throw Error(Error::Kind::InvalidArgument,
                    "cannot compare " + std::to_string(actual.count()) + " elements (shape " +
                        shapeToText(actual.shape()) + ") with " +
                        std::to_string(expectedIn.count()) + " expected (shape " +
                        shapeToText(expectedIn.shape()) + ")");
    // A floating-point reference more precise than the output (a float64 truth for a float32
    // kernel) is used as given: the output is widened, which is exact, and the error statistics
    // are against the reference itself. ULPs still count in the output's own type, against the
    // reference rounded to it: a float32 result cannot be closer than half a float32 ULP.
    if (isFloatingPoint(actual.type()) && isFloatingPoint(expectedIn.type()) &&
        elementSize(expectedIn.type()) > elementSize(actual.type())) {
        const HostArray rounded = convertedTo(expectedIn, actual.type());
        const DiffStats narrow = computeDiff(actual, rounded, tolerance, options);
        if (tolerance.mode == Tolerance::Mode::Ulp) return narrow;
        DiffStats wide =
            computeDiff(convertedTo(actual, expectedIn.type()), expectedIn, tolerance, options);
        wide.maxUlp = narrow.maxUlp;
        Tolerance exact;
        exact.mode = Tolerance::Mode::Ulp;
        exact.maxUlp = 0;
        for (Mismatch& m : wide.firstMismatches) {
            HostArray a(actual.type(), {1}), b(actual.type(), {1});
            a.set(0, actual.at(m.index));
            b.set(0, rounded.at(m.index));
            m.ulp = computeDiff(a, b, exact).maxUlp;
        }
        return wide;
    }
    HostArray converted;
    const HostArray* expected = &expectedIn;
    if (expectedIn.type() != actual.type()) {
        converted = convertedTo(expectedIn, actual.type());
        expected = &converted;
    }

    std::vector<Partial> parts;
    switch (actual.type()) {
#define WB_DIFF_CASE(E)                                                                            \
    case ElementType::E:                                                                           \
        parts = runThreads<ElementType::E>(actual, *expected, tolerance, options);                 \
        break;
        WB_DIFF_CASE(F16)
        WB_DIFF_CASE(BF16)
        WB_DIFF_CASE(F32)
        WB_DIFF_CASE(F64)
        WB_DIFF_CASE(I8)
        WB_DIFF_CASE(I16)
        WB_DIFF_CASE(I32)
        WB_DIFF_CASE(I64)
        WB_DIFF_CASE(U8)
        WB_DIFF_CASE(U16)
        WB_DIFF_CASE(U32)
        WB_DIFF_CASE(U64)
        WB_DIFF_CASE(Bool)
#undef WB_DIFF_CASE
    }

    DiffStats s;
    s.count = actual.count();
    s.histogram.assign(DiffStats::kHistogramBins, 0);
    double sumAbs = 0, sumSq = 0;
    for (Partial& p : parts) {
        s.maxAbs = std::max(s.maxAbs, p.maxAbs);
        s.maxRel = std::max(s.maxRel, p.maxRel);
        s.maxUlp = std::max(s.maxUlp, p.maxUlp);
        sumAbs += p.sumAbs;
        sumSq += p.sumSq;
        s.mismatches += p.mismatches;
        s.nanActual += p.nanA;
        s.nanExpected += p.nanB;
        s.infActual += p.infA;
        s.infExpected += p.infB;
        for (int i = 0; i < DiffStats::kHistogramBins; ++i)
            s.histogram[static_cast<std::size_t>(i)] += p.hist[i];
        for (Mismatch& m : p.first)
            if (s.firstMismatches.size() < options.firstK)
                s.firstMismatches.push_back(std::move(m));
    }
    // Every finite pair lands in exactly one histogram bin.
    for (std::uint64_t h : s.histogram)
        s.compared += h;
    for (Mismatch& m : s.firstMismatches)
        m.coordinates = actual.coordinates(m.index);
    if (s.compared) {
        s.meanAbs = sumAbs / static_cast<double>(s.compared);
        s.rms = std::sqrt(sumSq / static_cast<double>(s.compared));
    }
    s.mismatchFraction =
        s.count ? static_cast<double>(s.mismatches) / static_cast<double>(s.count) : 0.0;
    return s;
}

} // namespace wb::session
