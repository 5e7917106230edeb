// SPDX-License-Identifier: GPL-3.0-or-later
// wb::LibraryCache: libraries stay loaded, and each first user sees them as freshly loaded.
#include "core/common/LibraryCache.h"
#include "core/host/HostCompiler.h"
#include "tests/support/SuiteMain.h"

#include <QtTest>

#include <dlfcn.h>

using namespace wb;

namespace {

/// A global with an initial value, a zero-initialised static, a function-local static with a
/// guard, a string built at load time (dynamic initialisation) and a table of pointers (RELRO).
const char* kCounterSource = R"(
#include <string>
int counter = 5;
static int calls;
static const char* const names[] = {"alpha", "beta"};
static std::string built = std::string("dyn") + "amic";
extern "C" int bump() { ++calls; return ++counter; }
extern "C" int callCount() { return calls; }
extern "C" int firstUse() { static int once = ++counter; return once; }
extern "C" const char* name(int i) { return names[i]; }
extern "C" const char* builtText() { return built.c_str(); }
)";

bool isLoaded(const std::string& path)
{
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
    if (h) dlclose(h);
    return h != nullptr;
}

} // namespace

class TestLibraryCache : public QObject {
    Q_OBJECT
    std::optional<HostCompiler> m_cxx;

    std::string build(const std::string& source)
    {
        HostCompileRequest req;
        req.source = source;
        req.sourceName = "lib.cpp";
        const HostCompileResult r = m_cxx->compileSharedLibrary(req);
        if (!r.ok) qWarning("%s", r.log.c_str());
        return r.ok ? r.libraryPath : std::string();
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_cxx = HostCompiler::find();
        if (!m_cxx) QSKIP(qPrintable(QString::fromStdString(HostCompiler::unavailableReason())));
    }

    void eachFirstUserSeesTheLibraryAsLoaded()
    {
        const std::string path = build(kCounterSource);
        QVERIFY(!path.empty());
        std::string why;
        const std::size_t restores = LibraryCache::restoreCount();
        {
            auto a = LibraryCache::acquire(path, why);
            QVERIFY2(a, why.c_str());
            auto bump = a->function<int (*)()>("bump");
            auto calls = a->function<int (*)()>("callCount");
            auto firstUse = a->function<int (*)()>("firstUse");
            QCOMPARE(bump(), 6);
            QCOMPARE(bump(), 7);
            QCOMPARE(firstUse(), 8);
            // A second user at the same time shares the state, as a second dlopen would.
            auto b = LibraryCache::acquire(path, why);
            QCOMPARE(b->function<int (*)()>("bump")(), 9);
            QCOMPARE(calls(), 3);
            QCOMPARE(LibraryCache::restoreCount(), restores);
        }
        // Nobody uses it now, but it stays loaded...
        QVERIFY(isLoaded(path));
        // ...and the next user starts from the initial values, static guard included.
        auto c = LibraryCache::acquire(path, why);
        QVERIFY2(c, why.c_str());
        QCOMPARE(LibraryCache::restoreCount(), restores + 1);
        QCOMPARE(c->function<int (*)()>("callCount")(), 0);
        QCOMPARE(c->function<int (*)()>("bump")(), 6);
        QCOMPARE(c->function<int (*)()>("firstUse")(), 7);
        // Read-only-after-relocation data and load-time objects are intact; constructors of a
        // library built from user source run when its user says so (DeferredInit, issue 25),
        // again after each restore.
        c->runDeferredInit();
        QCOMPARE(QByteArray(c->function<const char* (*)(int)>("name")(1)), QByteArray("beta"));
        QCOMPARE(QByteArray(c->function<const char* (*)()>("builtText")()), QByteArray("dynamic"));
    }

    void closesTheLeastRecentlyUsedBeyondCapacity()
    {
        const std::string first = build("extern \"C\" int one() { return 1; }");
        const std::string second = build("extern \"C\" int two() { return 2; }");
        QVERIFY(!first.empty() && !second.empty());
        LibraryCache::setCapacity(1);
        std::string why;
        {
            auto a = LibraryCache::acquire(first, why);
            auto b = LibraryCache::acquire(second, why);
            QVERIFY(a && b);
            QCOMPARE(a->function<int (*)()>("one")(), 1);
            QCOMPARE(b->function<int (*)()>("two")(), 2);
            a.reset(); // unused first, so closed first
            b.reset();
        }
        QVERIFY(!isLoaded(first));
        QVERIFY(isLoaded(second));
        LibraryCache::setCapacity(64);
    }

    void missingLibraryIsAnError()
    {
        std::string why;
        const auto lib = LibraryCache::acquire("/nonexistent/libnothing.so", why);
        QVERIFY(!lib);
        QVERIFY2(why.find("libnothing.so") != std::string::npos, why.c_str());
    }
};

WB_QTEST_GUILESS_MAIN(TestLibraryCache)
#include "tst_librarycache.moc"
