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
template <> struct Traits<ElementType::I8> : IntTraits<std::int8_t> {};
template <> struct Traits<ElementType::I16> : IntTraits<std::int16_t> {};
template <> struct Traits<ElementType::I32> : IntTraits<std::int32_t> {};
template <> struct Traits<ElementType::I64> : IntTraits<std::int64_t> {};
template <> struct Traits<ElementType::U8> : IntTraits<std::uint8_t> {};
template <> struct Traits<ElementType::U16> : IntTraits<std::uint16_t> {};
template <> struct Traits<ElementType::U32> : IntTraits<std::uint32_t> {};
template <> struct Traits<ElementType::U64> : IntTraits<std::uint64_t> {};

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

template <typename T> std::uint64_t intUlp(T a, T b) noexcept
{
    return a > b ? static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b)
                 : static_cast<std::uint64_t>(b) - static_cast<std::uint64_t>(a);
}

template <ElementType E>
void diffRange(const typename Traits<E>::T* a, const typename Traits<E>::T* b, std::size_t begin,
               std::size_t end, const Tolerance& tol, std::size_t firstK, Partial& p)
{
    using Tr = Traits<E>;
    const bool ulpMode = tol.mode == Tolerance::Mode::Ulp;
    const double atol = tol.atol, rtol = tol.rtol;
    const std::uint64_t maxUlp = tol.maxUlp;
    auto record = [&](std::size_t i, double va, double vb, double err, std::uint64_t ulp) {
        ++p.mismatches;
        if (p.first.size() < firstK) p.first.push_back(Mismatch{i, {}, va, vb, err, ulp});
    };
    for (std::size_t i = begin; i < end; ++i) {
        const double va = Tr::value(a[i]);
        const double vb = Tr::value(b[i]);
        if constexpr (Tr::kFloat) {
            if (!std::isfinite(va) || !std::isfinite(vb)) [[unlikely]] {
                const bool na = std::isnan(va), nb = std::isnan(vb);
                p.nanA += na;
                p.nanB += nb;
                p.infA += std::isinf(va);
                p.infB += std::isinf(vb);
                const bool equal = (na && nb) ? tol.nanEqual : (!na && !nb && va == vb);
                if (!equal)
                    record(i, va, vb, std::fabs(va - vb), std::numeric_limits<std::uint64_t>::max());
                continue;
            }
        }
        const double err = std::fabs(va - vb);
        const double ab = std::fabs(vb);
        std::uint64_t ulp;
        if constexpr (Tr::kFloat) {
            const std::int64_t ka = Tr::key(a[i]), kb = Tr::key(b[i]);
            ulp = ka > kb ? static_cast<std::uint64_t>(ka) - static_cast<std::uint64_t>(kb)
                          : static_cast<std::uint64_t>(kb) - static_cast<std::uint64_t>(ka);
        } else {
            ulp = intUlp(a[i], b[i]);
        }
        const double rel = err == 0 ? 0.0 : (ab == 0 ? std::numeric_limits<double>::infinity()
                                                     : err / ab);
        p.maxAbs = std::max(p.maxAbs, err);
        p.maxRel = std::max(p.maxRel, rel);
        p.maxUlp = std::max(p.maxUlp, ulp);
        p.sumAbs += err;
        p.sumSq += err * err;
        ++p.hist[histogramBin(err)];
        const bool bad = ulpMode ? ulp > maxUlp : !(err <= atol + rtol * ab);
        if (bad) [[unlikely]]
            record(i, va, vb, err, ulp);
    }
}

template <ElementType E>
std::vector<Partial> runThreads(const HostArray& actual, const HostArray& expected,
                                const Tolerance& tol, const DiffOptions& opt)
{
    using T = typename Traits<E>::T;
    const T* a = actual.as<T>();
    const T* b = expected.as<T>();
    const std::size_t n = actual.count();
    unsigned threads = opt.threads ? opt.threads : std::max(1u, std::thread::hardware_concurrency());
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
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work, t);
    work(0);
    pool.clear(); // joins
    return parts;
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
    HostArray converted;
    const HostArray* expected = &expectedIn;
    if (expectedIn.type() != actual.type()) {
        converted = HostArray(actual.type(), actual.shape());
        for (std::size_t i = 0; i < converted.count(); ++i) converted.set(i, expectedIn.at(i));
        expected = &converted;
    }

    std::vector<Partial> parts;
    switch (actual.type()) {
#define WB_DIFF_CASE(E)                                                                            \
    case ElementType::E: parts = runThreads<ElementType::E>(actual, *expected, tolerance, options); break;
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
            if (s.firstMismatches.size() < options.firstK) s.firstMismatches.push_back(std::move(m));
    }
    // Every finite pair lands in exactly one histogram bin.
    for (std::uint64_t h : s.histogram) s.compared += h;
    for (Mismatch& m : s.firstMismatches) m.coordinates = actual.coordinates(m.index);
    if (s.compared) {
        s.meanAbs = sumAbs / static_cast<double>(s.compared);
        s.rms = std::sqrt(sumSq / static_cast<double>(s.compared));
    }
    s.mismatchFraction = s.count ? static_cast<double>(s.mismatches) / static_cast<double>(s.count) : 0.0;
    return s;
}

} // namespace wb::session
