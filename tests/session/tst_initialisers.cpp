// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/Error.h"
#include "core/session/ImageCodec.h"
#include "core/session/Initialisers.h"
#include "core/session/Npy.h"
#include "core/session/imageio/QtImageCodec.h"
#include "tests/support/SuiteMain.h"

#include <QImage>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>
#include <numbers>

using namespace wb::session;

namespace {
HostArray make(ElementType t, std::vector<std::size_t> shape, Initialiser init,
               const Session& s = Session{})
{
    BufferSpec b;
    b.name = "x";
    b.type = t;
    b.init = std::move(init);
    Expression e;
    e.setVariable("N", 8);
    return Initialisers::make(b, shape, e, s, "buffers[0].init");
}
} // namespace

class TestInitialisers : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { installQtImageCodec(); }

    void zerosConstantIotaLinspace()
    {
        Initialiser z;
        const HostArray a = make(ElementType::F32, {4}, z);
        for (std::size_t i = 0; i < 4; ++i)
            QCOMPARE(a.at(i), 0.0);

        Initialiser c;
        c.kind = Initialiser::Kind::Constant;
        c.value = "N/2";
        const HostArray b = make(ElementType::I16, {2, 3}, c);
        for (std::size_t i = 0; i < 6; ++i)
            QCOMPARE(b.at(i), 4.0);

        Initialiser io;
        io.kind = Initialiser::Kind::Iota;
        io.start = "10";
        io.step = "0.5";
        const HostArray d = make(ElementType::F64, {5}, io);
        for (std::size_t i = 0; i < 5; ++i)
            QCOMPARE(d.at(i), 10.0 + 0.5 * static_cast<double>(i));

        Initialiser ls;
        ls.kind = Initialiser::Kind::Linspace;
        ls.start = "0";
        ls.stop = "1";
        const HostArray l = make(ElementType::F64, {5}, ls);
        QCOMPARE(l.at(0), 0.0);
        QCOMPARE(l.at(2), 0.5);
        QCOMPARE(l.at(4), 1.0);
        // Half precision stores the rounded value.
        const HostArray h = make(ElementType::F16, {5}, ls);
        QCOMPARE(h.at(1), 0.25);
        QCOMPARE(halfToFloat(floatToHalf(0.1f)), 0.0999755859375f);
        QCOMPARE(halfToFloat(floatToHalf(65504.f)), 65504.f);
        QVERIFY(std::isinf(halfToFloat(floatToHalf(70000.f))));
        QCOMPARE(halfToFloat(floatToHalf(5.9604645e-8f)), 5.9604645e-8f);    // smallest subnormal
        QCOMPARE(bfloat16ToFloat(floatToBfloat16(1.0f + 1.0f / 256)), 1.0f); // ties to even
    }

    void uniformMatchesTheDocumentedAlgorithm()
    {
        // The standard fixes mt19937_64's sequence: its 10000th output from the default seed.
        std::mt19937_64 check;
        check.discard(9999);
        QCOMPARE(check(), 9981545732273789042ull);

        Initialiser u;
        u.kind = Initialiser::Kind::Uniform;
        u.low = "-2";
        u.high = "3";
        u.seed = 1234;
        const HostArray a = make(ElementType::F64, {1000}, u);
        std::mt19937_64 g(1234);
        for (std::size_t i = 0; i < 1000; ++i) {
            const double x = static_cast<double>(g() >> 11) / 9007199254740992.0;
            QCOMPARE(a.at(i), -2.0 + 5.0 * x);
        }
        QVERIFY(a == make(ElementType::F64, {1000}, u)); // same seed, same data
        u.seed = 1235;
        QVERIFY(!(a == make(ElementType::F64, {1000}, u)));

        // Integers: inclusive [low, high].
        u.low = "0";
        u.high = "3";
        u.seed = 7;
        const HostArray ints = make(ElementType::I32, {4000}, u);
        std::mt19937_64 g2(7);
        int seen[4] = {};
        for (std::size_t i = 0; i < 4000; ++i) {
            const double x = static_cast<double>(g2() >> 11) / 9007199254740992.0;
            QCOMPARE(ints.at(i), std::floor(x * 4.0));
            ++seen[static_cast<int>(ints.at(i))];
        }
        for (int s : seen)
            QVERIFY(s > 800);
    }

    void normalMatchesBoxMuller()
    {
        Initialiser n;
        n.kind = Initialiser::Kind::Normal;
        // Whole strings, not literals: GCC 12 at -O3 warns falsely (-Wstringop-overflow,
        // "accessing 9223372036854775810 or more bytes") on a literal assigned here.
        n.mean = std::string("1");
        n.stddev = std::string("2");
        n.seed = 42;
        const HostArray a = make(ElementType::F64, {1001}, n);
        std::mt19937_64 g(42);
        for (std::size_t i = 0; i < 1001; i += 2) {
            const double u1 = static_cast<double>((g() >> 11) + 1) / 9007199254740992.0;
            const double u2 = static_cast<double>(g() >> 11) / 9007199254740992.0;
            const double r = std::sqrt(-2.0 * std::log(u1));
            QCOMPARE(a.at(i), 1.0 + 2.0 * r * std::cos(2 * std::numbers::pi * u2));
            if (i + 1 < 1001)
                QCOMPARE(a.at(i + 1), 1.0 + 2.0 * r * std::sin(2 * std::numbers::pi * u2));
        }
        double sum = 0;
        for (std::size_t i = 0; i < a.count(); ++i)
            sum += a.at(i);
        QVERIFY(std::fabs(sum / 1001.0 - 1.0) < 0.2);
        const HostArray f = make(ElementType::F32, {1001}, n);
        for (std::size_t i = 0; i < 1001; ++i)
            QCOMPARE(f.at(i), static_cast<double>(static_cast<float>(a.at(i))));
    }

    void fromNpyAndBin()
    {
        QTemporaryDir dir;
        Session s;
        s.baseDir = dir.path().toStdString();
        HostArray src(ElementType::F64, {6});
        for (std::size_t i = 0; i < 6; ++i)
            src.set(i, 1.5 * static_cast<double>(i));
        Npy::write(s.resolve("in.npy"), src);
        Initialiser in;
        in.kind = Initialiser::Kind::Npy;
        in.path = "in.npy";
        const HostArray conv = make(ElementType::F32, {2, 3}, in, s); // converted, reshaped
        for (std::size_t i = 0; i < 6; ++i)
            QCOMPARE(conv.at(i), 1.5 * static_cast<double>(i));
        try {
            make(ElementType::F32, {7}, in, s);
            QFAIL("size mismatch accepted");
        } catch (const wb::Error& e) {
            QVERIFY2(QString(e.what()).contains("buffers[0].init") &&
                         QString(e.what()).contains("holds 6 elements"),
                     e.what());
        }
        in.path = "missing.npy";
        QVERIFY_THROWS_EXCEPTION(wb::Error, make(ElementType::F32, {6}, in, s));

        {
            std::ofstream out(s.resolve("raw.bin"), std::ios::binary);
            const std::int16_t v[3] = {-1, 2, 300};
            out.write(reinterpret_cast<const char*>(v), sizeof v);
        }
        Initialiser bin;
        bin.kind = Initialiser::Kind::Bin;
        bin.path = "raw.bin";
        const HostArray b = make(ElementType::I16, {3}, bin, s);
        QCOMPARE(b.at(0), -1.0);
        QCOMPARE(b.at(2), 300.0);
        QVERIFY_THROWS_EXCEPTION(wb::Error, make(ElementType::I32, {3}, bin, s));
    }

    void fromImageAndBack()
    {
        QTemporaryDir dir;
        Session s;
        s.baseDir = dir.path().toStdString();
        QImage img(4, 3, QImage::Format_RGB888);
        for (int y = 0; y < 3; ++y)
            for (int x = 0; x < 4; ++x)
                img.setPixelColor(x, y, QColor(x * 60, y * 100, 17));
        QVERIFY(img.save(dir.filePath("in.png")));
        Initialiser im;
        im.kind = Initialiser::Kind::Image;
        im.path = "in.png";
        im.channels = "rgb";
        const HostArray u8 = make(ElementType::U8, {3, 3, 4}, im, s);
        QCOMPARE(u8.at(0 * 12 + 1 * 4 + 2), 120.0); // R plane, y=1, x=2
        QCOMPARE(u8.at(1 * 12 + 2 * 4 + 0), 200.0); // G plane, y=2
        QCOMPARE(u8.at(2 * 12 + 0), 17.0);          // B plane
        const HostArray f = make(ElementType::F32, {3, 3, 4}, im, s);
        QCOMPARE(f.at(1 * 12 + 2 * 4), static_cast<double>(static_cast<float>(200.0 / 255.0)));
        im.channels = "grey";
        const HostArray grey = make(ElementType::U8, {3, 4}, im, s);
        QCOMPARE(grey.shape().size(), 2u);
        QVERIFY_THROWS_EXCEPTION(wb::Error, make(ElementType::U8, {4, 3}, im, s));

        // Export: planar RGB → PNG → the same pixels.
        ImageCodec::require().write(s.resolve("out.png"), arrayToImage(u8, "img"));
        QImage back(dir.filePath("out.png"));
        QCOMPARE(back.pixelColor(2, 1), QColor(120, 100, 17));
        QVERIFY_THROWS_EXCEPTION(wb::Error, arrayToImage(HostArray(ElementType::U8, {5}), "v"));
    }
};

WB_QTEST_GUILESS_MAIN(TestInitialisers)
#include "tst_initialisers.moc"
