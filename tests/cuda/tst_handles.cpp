// SPDX-License-Identifier: GPL-3.0-or-later
// Devices, contexts, buffers, streams, events, arrays: ownership and the live-handle registry.
#include "core/backend/Backend.h"
#include "core/cuda/Context.h"
#include "core/cuda/CudaError.h"
#include "core/cuda/DeviceArray.h"
#include "core/cuda/DeviceBuffer.h"
#include "core/cuda/Event.h"
#include "core/cuda/HandleRegistry.h"
#include "core/cuda/PinnedHostBuffer.h"
#include "core/cuda/Stream.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <optional>
#include <vector>

using wb::Error;
using namespace wb::cuda;

namespace {
std::int64_t live(HandleKind kind)
{
    return HandleRegistry::instance().usage(kind).count;
}
} // namespace

class TestHandles : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        if (const auto reason = wb::cudaUnavailableReason()) QSKIP(reason->c_str());
        QCOMPARE(HandleRegistry::instance().totalCount(), std::int64_t{0});
    }

    void deviceInfo()
    {
        QVERIFY(Device::count() > 0);
        QCOMPARE(Device::all().size(), static_cast<std::size_t>(Device::count()));
        const Device dev = Device::get(0);
        qInfo("%s, %s, %d SMs, %.1f GB, memory clock %d kHz x %d bits = %.0f GB/s peak, driver %s",
              dev.name().c_str(), dev.arch().c_str(), dev.multiprocessorCount(),
              static_cast<double>(dev.totalMemory()) / 1e9, dev.memoryClockKHz(),
              dev.memoryBusWidthBits(), dev.peakBandwidthGBs(), Device::driverVersion().c_str());
        QVERIFY(!dev.name().empty());
        QVERIFY(dev.computeCapability().major >= 7);
        QVERIFY(dev.arch().rfind("sm_", 0) == 0);
        QVERIFY(dev.multiprocessorCount() > 0);
        QVERIFY(dev.totalMemory() > 0);
        QVERIFY(dev.peakBandwidthGBs() > 0);
        QVERIFY(dev.maxThreadsPerBlock() >= 1024);
        QCOMPARE(dev.warpSize(), 32);
        QVERIFY(!Device::driverVersion().empty());
        try {
            (void)Device::get(Device::count());
            QFAIL("no error for a device that does not exist");
        } catch (const Error& e) {
            QCOMPARE(e.kind(), Error::Kind::InvalidArgument);
        }
    }

    void primaryContextIsShared()
    {
        const Context a = Context::primary(0);
        const Context b = Context::primary(Device::get(0));
        QCOMPARE(a.handle(), b.handle());
        QCOMPARE(live(HandleKind::Context), std::int64_t{1});
        const auto mem = a.memoryInfo();
        QVERIFY(mem.freeBytes > 0 && mem.freeBytes <= mem.totalBytes);
    }

    void buffersKeepTheirContextAlive()
    {
        DeviceBuffer buffer;
        {
            const Context ctx = Context::primary(0);
            buffer = DeviceBuffer(ctx, 4096, "kept");
        }
        // The Context object is gone; the buffer still holds the context.
        QCOMPARE(live(HandleKind::Context), std::int64_t{1});
        std::vector<std::uint32_t> in(1024), out(1024);
        std::iota(in.begin(), in.end(), 7u);
        buffer.upload(in.data(), 4096);
        buffer.download(out.data(), 4096);
        QCOMPARE(out, in);
        buffer = DeviceBuffer();
        QCOMPARE(live(HandleKind::Context), std::int64_t{0});
        QCOMPARE(live(HandleKind::DeviceBuffer), std::int64_t{0});
    }

    void sharedContextKeepsItAlive()
    {
        std::optional<Context> kept;
        {
            const Context ctx = Context::primary(0);
            kept.emplace(ctx.share());
            QCOMPARE(kept->handle(), ctx.handle());
            QCOMPARE(live(HandleKind::Context), std::int64_t{1});
        }
        // The Context it was shared from is gone; the share still holds the context.
        QCOMPARE(live(HandleKind::Context), std::int64_t{1});
        kept->synchronize();
        QVERIFY(kept->memoryInfo().freeBytes > 0);
        kept.reset();
        QCOMPARE(live(HandleKind::Context), std::int64_t{0});
        Context moved = Context::primary(0);
        const Context from = std::move(moved);
        QVERIFY_THROWS_EXCEPTION(Error, (void)moved.share());
    }

    void fillOnAStream()
    {
        const Context ctx = Context::primary(0);
        Stream stream(ctx);
        const std::size_t words = std::size_t{1} << 20;
        DeviceBuffer buffer(ctx, words * 4, "filled");
        buffer.fill32(0);
        buffer.fill32Async(0x3f800000u, stream); // 1.0f
        stream.synchronize();
        std::vector<float> out(words);
        buffer.download(out.data(), words * 4);
        QCOMPARE(out.front(), 1.0f);
        QCOMPARE(out.back(), 1.0f);
        QCOMPARE(std::count(out.begin(), out.end(), 1.0f), static_cast<std::ptrdiff_t>(words));
        DeviceBuffer odd(ctx, 6, "odd");
        QVERIFY_THROWS_EXCEPTION(Error, odd.fill32Async(0, stream));
        const Stream taken = std::move(stream);
        QVERIFY_THROWS_EXCEPTION(Error, buffer.fill32Async(0, stream));
        QVERIFY_THROWS_EXCEPTION(Error, DeviceBuffer().fill32Async(0, taken));
    }

    void movedFromHandles()
    {
        Context ctx = Context::primary(0);
        DeviceBuffer a(ctx, 256, "a");
        const CUdeviceptr ptr = a.ptr();
        DeviceBuffer b = std::move(a);
        QVERIFY(!a.valid());
        QVERIFY(b.valid());
        QCOMPARE(b.ptr(), ptr);
        QCOMPARE(b.label(), std::string("a"));
        QCOMPARE(live(HandleKind::DeviceBuffer), std::int64_t{1});
        char byte = 0;
        QVERIFY_THROWS_EXCEPTION(Error, a.upload(&byte, 1));

        Stream s1(ctx);
        Stream s2 = std::move(s1);
        QVERIFY(!s1.valid() && s2.valid());
        QVERIFY_THROWS_EXCEPTION(Error, s1.synchronize());
        Event e1(ctx);
        Event e2 = std::move(e1);
        QVERIFY(!e1.valid() && e2.valid());
        QCOMPARE(live(HandleKind::Stream), std::int64_t{1});
        QCOMPARE(live(HandleKind::Event), std::int64_t{1});

        Context moved = std::move(ctx);
        QVERIFY(!ctx.valid());
        QVERIFY(moved.valid());
        QVERIFY_THROWS_EXCEPTION(Error, (void)ctx.handle());
        // Moved-from handles are destroyed here without effect.
    }

    void outOfMemoryNamesTheBuffer()
    {
        const Context ctx = Context::primary(0);
        try {
            DeviceBuffer huge(ctx, std::size_t{1'000'000'000'000'000}, "huge");
            QFAIL("a 1 PB allocation succeeded");
        } catch (const Error& e) {
            qInfo("%s", e.what());
            QCOMPARE(e.kind(), Error::Kind::OutOfMemory);
            QVERIFY(std::string(e.what()).find("allocating buffer 'huge' (1.0 PB)") !=
                    std::string::npos);
        }
        // Within the device's size but beyond what is free: the driver's own answer.
        const std::size_t total = ctx.memoryInfo().totalBytes;
        try {
            DeviceBuffer tooBig(ctx, total - (std::size_t{1} << 20), "dest");
            QFAIL("allocating (almost) all device memory succeeded");
        } catch (const CudaError& e) {
            qInfo("%s", e.what());
            QCOMPARE(e.kind(), Error::Kind::OutOfMemory);
            QCOMPARE(e.result(), CUDA_ERROR_OUT_OF_MEMORY);
            QCOMPARE(e.resultName(), std::string("CUDA_ERROR_OUT_OF_MEMORY"));
            QVERIFY(e.context().find("allocating buffer 'dest'") != std::string::npos);
        }
        QCOMPARE(live(HandleKind::DeviceBuffer), std::int64_t{0});
    }

    void pinnedCopiesOnAStream()
    {
        const Context ctx = Context::primary(0);
        const std::size_t bytes = std::size_t{8} << 20;
        PinnedHostBuffer pinned(ctx, bytes, "staging");
        QCOMPARE(HandleRegistry::instance().usage(HandleKind::PinnedHostBuffer).bytes,
                 static_cast<std::int64_t>(bytes));
        auto words = pinned.as<std::uint32_t>();
        for (std::size_t i = 0; i < words.size(); ++i)
            words[i] = static_cast<std::uint32_t>(i * 3);
        DeviceBuffer device(ctx, bytes, "device");
        Stream stream(ctx);
        device.uploadAsync(pinned.data(), bytes, stream);
        std::vector<std::uint32_t> expected(words.begin(), words.end());
        stream.synchronize();
        std::memset(pinned.data(), 0, bytes);
        device.downloadAsync(pinned.data(), bytes, stream);
        stream.synchronize();
        QVERIFY(stream.query());
        QVERIFY(std::equal(words.begin(), words.end(), expected.begin()));
        QVERIFY_THROWS_EXCEPTION(Error, device.upload(pinned.data(), bytes + 1));
    }

    void eventsMeasureTime()
    {
        const Context ctx = Context::primary(0);
        Stream stream(ctx);
        Event start(ctx), stop(ctx);
        DeviceBuffer a(ctx, std::size_t{64} << 20, "a"), b(ctx, std::size_t{64} << 20, "b");
        // The synchronous-API memset and copy run on the legacy default stream: the events
        // recorded there bracket them.
        start.record();
        a.fill32(0x3f800000u);
        b.copyFrom(a, a.size());
        stop.record();
        const double ms = Event::elapsedMs(start, stop);
        QVERIFY(ms > 0 && std::isfinite(ms));
        // Recording on a stream of our own works too.
        start.record(&stream);
        stop.record(&stream);
        QVERIFY(Event::elapsedMs(start, stop) >= 0);
        float first = 0;
        b.download(&first, sizeof first);
        QCOMPARE(first, 1.0f);
    }

    void deviceArrays()
    {
        const Context ctx = Context::primary(0);
        DeviceArray<float> m(ctx, {4, 8}, "m");
        QCOMPARE(m.size(), std::size_t{32});
        QCOMPARE(m.bytes(), std::size_t{128});
        QCOMPARE(m.ndim(), std::size_t{2});
        QCOMPARE(m.shape()[0], std::size_t{4});
        QCOMPARE(m.shape()[1], std::size_t{8});
        QCOMPARE(m.shape()[2], std::size_t{1});
        std::vector<float> host(32);
        std::iota(host.begin(), host.end(), 0.5f);
        m.upload(host);
        QCOMPARE(m.download(), host);
        m.fill(1.5f);
        QCOMPARE(m.download(), std::vector<float>(32, 1.5f));
        QVERIFY_THROWS_EXCEPTION(Error, m.upload(std::vector<float>(31)));

        DeviceArray<double> d(ctx, {2, 3, 5});
        QCOMPARE(d.size(), std::size_t{30});
        d.fill(-2.25);
        QCOMPARE(d.download(), std::vector<double>(30, -2.25));
        DeviceArray<std::uint16_t> h(ctx, {7});
        h.fill(0xBEEF);
        QCOMPARE(h.download(), std::vector<std::uint16_t>(7, 0xBEEF));
        const std::vector<int> values{1, 2, 3};
        const auto fromHost = DeviceArray<int>::fromHost(ctx, values, "values");
        QCOMPARE(fromHost.download(), values);
        QVERIFY_THROWS_EXCEPTION(Error, (DeviceArray<int>(ctx, {1, 2, 3, 4})));
    }

    void cleanupTestCase()
    {
        if (wb::cudaUnavailableReason()) return;
        // Every handle of every test is gone: the registry drains to zero.
        for (int k = 0; k < static_cast<int>(HandleKind::Count); ++k) {
            const auto usage = HandleRegistry::instance().usage(static_cast<HandleKind>(k));
            QVERIFY2(usage.count == 0 && usage.bytes == 0,
                     handleKindName(static_cast<HandleKind>(k)));
        }
    }
};

WB_QTEST_GUILESS_MAIN(TestHandles)
#include "tst_handles.moc"
