// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/Paths.h"
#include "core/cuda/CompileCache.h"
#include "core/cuda/Compiler.h"
#include "tests/support/SuiteMain.h"

#include <QCoreApplication>
#include <QProcess>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QTest>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <unistd.h>

namespace fs = std::filesystem;
using wb::CompileOptions;
using wb::CompileResult;
using wb::cuda::CompileCache;
using wb::cuda::Compiler;
using Cache = CompileResult::Cache;

namespace {

const std::string kSource =
    "extern \"C\" __global__ void saxpy(float a, const float* x, float* y, int n)\n"
    "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] += a * x[i]; }\n";

fs::path cacheRoot()
{
    return wb::cacheDir() / "nvrtc";
}

std::vector<fs::path> entries()
{
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(cacheRoot(), ec))
        if (e.path().extension() == ".wbnvrtc") files.push_back(e.path());
    return files;
}

CompileResult compile(const std::string& src = kSource, const CompileOptions& o = {})
{
    return Compiler::instance().compile(src, "saxpy.cu", o, "sm_90");
}

/// The log without ptxas's timing lines, which differ between two real compiles.
std::string stableLog(const std::string& log)
{
    std::string out;
    std::size_t pos = 0;
    while (pos < log.size()) {
        std::size_t end = log.find('\n', pos);
        if (end == std::string::npos) end = log.size();
        const std::string line = log.substr(pos, end - pos);
        if (line.find("Compile time =") == std::string::npos) out += line + "\n";
        pos = end + 1;
    }
    return out;
}

/// The compiled output without the per-call fields (cache, compileMs, ptxas timings).
void compareOutputs(const CompileResult& a, const CompileResult& b)
{
    QCOMPARE(a.ok, b.ok);
    QCOMPARE(a.sourceName, b.sourceName);
    QCOMPARE(stableLog(a.log), stableLog(b.log));
    QVERIFY(a.diagnostics == b.diagnostics);
    QCOMPARE(a.target, b.target);
    QCOMPARE(a.ptx, b.ptx);
    QVERIFY(a.binary == b.binary);
    QVERIFY(a.kernels == b.kernels);
    QCOMPARE(a.compilerVersion, b.compilerVersion);
}

std::string readFile(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeFile(const fs::path& p, const std::string& data)
{
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
}

CompileCache::Key keyFromFileName(const fs::path& p)
{
    const std::string hex = p.stem().string();
    CompileCache::Key key{};
    for (std::size_t i = 0; i < key.size(); ++i)
        key[i] = static_cast<std::uint8_t>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
    return key;
}

} // namespace

class TestCompileCache : public QObject {
    Q_OBJECT

private:
    CompileResult m_reference; // a fresh compile of kSource

    /// Empties both layers so each test starts from a cold cache.
    void resetCache()
    {
        Compiler::instance().clearMemoryCache();
        std::error_code ec;
        fs::remove_all(cacheRoot(), ec);
    }

    /// The entry rewritten by the recompile loads again (from disk) and is right.
    void expectValidEntry()
    {
        Compiler::instance().clearMemoryCache();
        const CompileResult r = compile();
        QCOMPARE(r.cache, Cache::DiskHit);
        compareOutputs(r, m_reference);
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!Compiler::instance().available())
            QFAIL(Compiler::instance().unavailableReason().c_str());
        Compiler::instance().setCacheEnabled(true);
        resetCache();
        m_reference = compile();
        QVERIFY2(m_reference.ok, m_reference.log.c_str());
        QCOMPARE(m_reference.cache, Cache::Miss);
    }

    void init() { resetCache(); }

    void memoryHit()
    {
        const CompileResult first = compile();
        QCOMPARE(first.cache, Cache::Miss);
        const CompileResult second = compile();
        QCOMPARE(second.cache, Cache::MemoryHit);
        compareOutputs(second, first);
        QCOMPARE(second.log, first.log); // the very same result
        compareOutputs(second, m_reference);
    }

    void diskHitAfterMemoryClear()
    {
        const CompileResult first = compile();
        QCOMPARE(first.cache, Cache::Miss);
        QCOMPARE(entries().size(), std::size_t(1));
        Compiler::instance().clearMemoryCache();
        const CompileResult fromDisk = compile();
        QCOMPARE(fromDisk.cache, Cache::DiskHit);
        compareOutputs(fromDisk, first);
        QCOMPARE(fromDisk.log, first.log);
        // The disk hit filled the memory layer.
        QCOMPARE(compile().cache, Cache::MemoryHit);
    }

    void freshCacheInstanceReadsDisk()
    {
        const CompileResult first = compile();
        const std::vector<fs::path> files = entries();
        QCOMPARE(files.size(), std::size_t(1));
        CompileCache other(cacheRoot());
        const CompileCache::Key key = keyFromFileName(files[0]);
        QVERIFY(!other.findInMemory(key));
        const auto loaded = other.findOnDisk(key);
        QVERIFY(loaded);
        QCOMPARE(loaded->cache, Cache::DiskHit);
        compareOutputs(*loaded, first);
        QVERIFY(other.findInMemory(key));
    }

    void freshProcessReadsDisk()
    {
        QCOMPARE(compile().cache, Cache::Miss);
        // The same binary in child mode compiles kSource once and prints the cache outcome.
        QProcess child;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("WARPBENCH_CACHE_DIR", QString::fromStdString(wb::cacheDir().string()));
        child.setProcessEnvironment(env);
        child.start(QCoreApplication::applicationFilePath(), {"--child-compile"});
        QVERIFY(child.waitForFinished(60000));
        QCOMPARE(child.exitCode(), 0);
        const QByteArray out = child.readAllStandardOutput().trimmed();
        QCOMPARE(out, QByteArray("disk-hit ok"));
    }

    void truncatedEntryIsRecompiled()
    {
        compile();
        const fs::path file = entries().at(0);
        const std::string good = readFile(file);
        for (const std::size_t keep :
             {std::size_t(0), std::size_t(10), good.size() / 2, good.size() - 1}) {
            writeFile(file, good.substr(0, keep));
            Compiler::instance().clearMemoryCache();
            const CompileResult r = compile();
            QCOMPARE(r.cache, Cache::Miss); // detected, never loaded
            compareOutputs(r, m_reference);
            expectValidEntry();
        }
    }

    void flippedByteIsRecompiled()
    {
        compile();
        const fs::path file = entries().at(0);
        const std::string good = readFile(file);
        // Header (magic, length, checksum, key) and payload (start, middle, last byte).
        for (const std::size_t at :
             {std::size_t(0), std::size_t(17), std::size_t(26), std::size_t(40), std::size_t(64),
              good.size() / 2, good.size() - 1}) {
            std::string bad = good;
            bad[at] = static_cast<char>(bad[at] ^ 0x20);
            writeFile(file, bad);
            Compiler::instance().clearMemoryCache();
            const CompileResult r = compile();
            QCOMPARE(r.cache, Cache::Miss);
            compareOutputs(r, m_reference);
            expectValidEntry();
        }
        // Appended garbage too.
        writeFile(file, good + "x");
        Compiler::instance().clearMemoryCache();
        QCOMPARE(compile().cache, Cache::Miss);
    }

    void optionsChangeMisses()
    {
        QCOMPARE(compile().cache, Cache::Miss);
        CompileOptions o;
        o.defines.emplace_back("SOMETHING", "1");
        QCOMPARE(compile(kSource, o).cache, Cache::Miss);
        QCOMPARE(compile(kSource, o).cache, Cache::MemoryHit);
        o.defines[0].second = "2";
        QCOMPARE(compile(kSource, o).cache, Cache::Miss);
        CompileOptions arch;
        arch.arch = "sm_80";
        const CompileResult a80 = compile(kSource, arch);
        QCOMPARE(a80.cache, Cache::Miss);
        QCOMPARE(a80.target, std::string("sm_80"));
        CompileOptions opt;
        opt.optLevel = 1;
        QCOMPARE(compile(kSource, opt).cache, Cache::Miss);
        CompileOptions fm;
        fm.fastMath = true;
        QCOMPARE(compile(kSource, fm).cache, Cache::Miss);
        CompileOptions ne;
        ne.nameExpressions = {"&saxpy"};
        QCOMPARE(compile(kSource, ne).cache, Cache::Miss);
        // A different default arch from the caller is a different target.
        QCOMPARE(Compiler::instance().compile(kSource, "saxpy.cu", {}, "sm_89").cache, Cache::Miss);
        QCOMPARE(compile(kSource + "\n").cache, Cache::Miss);
        QCOMPARE(Compiler::instance().compile(kSource, "other.cu", {}, "sm_90").cache, Cache::Miss);
        QCOMPARE(compile().cache, Cache::MemoryHit);
    }

    void includedHeaderChangeMisses()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const fs::path header = fs::path(dir.path().toStdString()) / "factor.cuh";
        writeFile(header, "#define FACTOR 2\n");
        const std::string src = "#include \"factor.cuh\"\n"
                                "__global__ void k(int* a) { a[0] = FACTOR * 1000 + 1; }\n";
        CompileOptions o;
        o.includeDirs = {dir.path().toStdString()};
        const CompileResult first = compile(src, o);
        QVERIFY2(first.ok, first.log.c_str());
        QVERIFY(first.ptx.find("2001") != std::string::npos);
        QCOMPARE(compile(src, o).cache, Cache::MemoryHit);
        writeFile(header, "#define FACTOR 3\n");
        const CompileResult second = compile(src, o);
        QCOMPARE(second.cache, Cache::Miss);
        QVERIFY(second.ptx.find("3001") != std::string::npos);
    }

    void headerNextToSourceChangeMisses()
    {
        // NVRTC finds quoted includes next to the source name; those headers are keyed too.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const fs::path folder = dir.path().toStdString();
        writeFile(folder / "near.cuh", "#define NEAR 4\n#include \"nested.cuh\"\n");
        writeFile(folder / "nested.cuh", "#define NESTED 5\n");
        const std::string src =
            "#include \"near.cuh\"\n"
            "__global__ void k(int* a) { a[0] = NEAR * 1000 + NESTED * 100 + 7; }\n";
        const std::string name = (folder / "k.cu").string();
        const CompileResult first = Compiler::instance().compile(src, name, {}, "sm_90");
        QVERIFY2(first.ok, first.log.c_str());
        QVERIFY(first.ptx.find("4507") != std::string::npos);
        QCOMPARE(Compiler::instance().compile(src, name, {}, "sm_90").cache, Cache::MemoryHit);
        writeFile(folder / "nested.cuh", "#define NESTED 6\n");
        const CompileResult second = Compiler::instance().compile(src, name, {}, "sm_90");
        QCOMPARE(second.cache, Cache::Miss);
        QVERIFY(second.ptx.find("4607") != std::string::npos);
    }

    void failedCompileNotOnDisk()
    {
        const std::string bad = "__global__ void k() { nope; }\n";
        const CompileResult r = compile(bad);
        QVERIFY(!r.ok);
        QCOMPARE(r.cache, Cache::Miss);
        QVERIFY(entries().empty());
        const CompileResult again = compile(bad);
        QCOMPARE(again.cache, Cache::MemoryHit);
        QVERIFY(again.diagnostics == r.diagnostics);
        Compiler::instance().clearMemoryCache();
        QCOMPARE(compile(bad).cache, Cache::Miss);
    }

    void missingHeaderIsNotCached()
    {
        // Creating the header later must not be answered with the old failure.
        const std::string src = "#include \"appears_later.cuh\"\n__global__ void k() {}\n";
        QCOMPARE(compile(src).cache, Cache::Miss);
        QCOMPARE(compile(src).cache, Cache::Miss);
    }

    void disabledCache()
    {
        Compiler::instance().setCacheEnabled(false);
        const CompileResult a = compile();
        const CompileResult b = compile();
        Compiler::instance().setCacheEnabled(true);
        QCOMPARE(a.cache, Cache::Disabled);
        QCOMPARE(b.cache, Cache::Disabled);
        QVERIFY(entries().empty());
        compareOutputs(a, m_reference);
    }

    void environmentDisablesCache()
    {
        QProcess child;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("WARPBENCH_CACHE_DIR", QString::fromStdString(wb::cacheDir().string()));
        env.insert("WARPBENCH_NO_CACHE", "1");
        child.setProcessEnvironment(env);
        child.start(QCoreApplication::applicationFilePath(), {"--child-compile"});
        QVERIFY(child.waitForFinished(60000));
        QCOMPARE(child.exitCode(), 0);
        QCOMPARE(child.readAllStandardOutput().trimmed(), QByteArray("disabled ok"));
        QVERIFY(entries().empty());
    }

    void concurrentSameSource()
    {
        std::vector<std::future<CompileResult>> jobs;
        for (int i = 0; i < 4; ++i)
            jobs.push_back(std::async(std::launch::async, [] { return compile(); }));
        int misses = 0;
        for (auto& j : jobs) {
            const CompileResult r = j.get();
            compareOutputs(r, m_reference);
            misses += r.cache == Cache::Miss ? 1 : 0;
        }
        QCOMPARE(misses, 1); // the others waited for that compile (or found its result)
        QCOMPARE(entries().size(), std::size_t(1));
        Compiler::instance().clearMemoryCache();
        QCOMPARE(compile().cache, Cache::DiskHit);
    }

    void diskLimitEvictsLeastRecentlyUsed()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const fs::path folder = dir.path().toStdString();
        const CompileCache::Key probe =
            CompileCache::makeKey({"probe", "", nullptr, nullptr, "", ""});
        const std::uintmax_t entrySize = CompileCache::serialize(probe, m_reference).size();
        // Room for three entries: after each trim at most 80 % of that (two entries) remain.
        CompileCache cache(folder, 512, entrySize * 3);
        std::vector<CompileCache::Key> keys;
        for (int i = 0; i < 6; ++i) {
            const std::string src = "source " + std::to_string(i);
            keys.push_back(CompileCache::makeKey({src, "", nullptr, nullptr, "", ""}));
        }
        auto shared = std::make_shared<const CompileResult>(m_reference);
        auto setAge = [&](const CompileCache::Key& key, int secondsAgo) {
            fs::last_write_time(cache.entryPath(key), fs::file_time_type::clock::now() -
                                                          std::chrono::seconds(secondsAgo));
        };
        for (std::size_t i = 0; i < 4; ++i) {
            QVERIFY(cache.store(keys[i], shared, true));
            setAge(keys[i], 100 - static_cast<int>(i) * 10); // key 0 oldest
        }
        // Using key 0 makes it the most recent.
        cache.clearMemory();
        QVERIFY(cache.findOnDisk(keys[0]));
        cache.trimDisk();
        QVERIFY(fs::exists(cache.entryPath(keys[0])));
        QVERIFY(fs::exists(cache.entryPath(keys[3])));
        QVERIFY(!fs::exists(cache.entryPath(keys[1])));
        QVERIFY(!fs::exists(cache.entryPath(keys[2])));
        // A stale temporary from a crashed writer goes too; a fresh one stays.
        const fs::path stale = cache.entryPath(keys[4]).string() + ".tmp.1.0";
        const fs::path fresh = cache.entryPath(keys[5]).string() + ".tmp.1.1";
        writeFile(stale, "partial");
        writeFile(fresh, "partial");
        fs::last_write_time(stale, fs::file_time_type::clock::now() - std::chrono::hours(2));
        cache.trimDisk();
        QVERIFY(!fs::exists(stale));
        QVERIFY(fs::exists(fresh));
    }

    // Issue 26: a full disk under the cache is one warning line, not a silent miss every run
    // (the compile itself succeeded and is served from memory).
    void fullDiskIsOneWarning()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QProcess mount;
        mount.start(QStringLiteral("mount"),
                    {QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"),
                     QStringLiteral("size=1m"), QStringLiteral("tmpfs"), dir.path()});
        if (!mount.waitForFinished(10000) || mount.exitStatus() != QProcess::NormalExit ||
            mount.exitCode() != 0)
            QSKIP("cannot mount a 1 MiB tmpfs here (needs root)");
        struct Unmount {
            QString path;
            ~Unmount() { QProcess::execute(QStringLiteral("umount"), {path}); }
        } unmount{dir.path()};
        const fs::path folder = dir.path().toStdString();
        CompileCache cache(folder, 512, std::uintmax_t{1} << 30);
        CompileResult big = m_reference;
        big.log = std::string(2 << 20, 'x'); // 2 MiB: cannot fit
        auto shared = std::make_shared<const CompileResult>(big);
        QTemporaryFile captured;
        QVERIFY(captured.open());
        std::fflush(stderr);
        const int saved = ::dup(2);
        ::dup2(captured.handle(), 2);
        const bool first = cache.store(
            CompileCache::makeKey({"full 1", "", nullptr, nullptr, "", ""}), shared, true);
        const bool second = cache.store(
            CompileCache::makeKey({"full 2", "", nullptr, nullptr, "", ""}), shared, true);
        std::fflush(stderr);
        ::dup2(saved, 2);
        ::close(saved);
        QVERIFY(!first && !second);
        captured.seek(0);
        const QString said = QString::fromUtf8(captured.readAll());
        QCOMPARE(said.count('\n'), 1);
        QVERIFY2(said.startsWith("warpbench: warning: no space left on device in the cache " +
                                 dir.path()) &&
                     said.contains("compiled kernels are not kept on disk"),
                 qPrintable(said));
        int leftovers = 0;
        for (const auto& e : fs::directory_iterator(folder))
            leftovers += e.path().filename().string().find(".tmp.") != std::string::npos;
        QCOMPARE(leftovers, 0); // partial files removed
    }

    void serializeRoundTrip()
    {
        CompileResult r;
        r.ok = true;
        r.sourceName = "x.cu";
        r.log = "log text\nwith lines";
        r.diagnostics.push_back({"x.cu",
                                 3,
                                 7,
                                 wb::Severity::Warning,
                                 "177-D",
                                 "unused",
                                 {"detected during instantiation of \"f<int>\""}});
        r.target = "sm_90";
        r.ptx = ".version 9.0";
        r.binary = {0x7f, 'E', 'L', 'F', 0, 255};
        wb::KernelInfo k;
        k.name = "scale<float, 128>";
        k.loweredName = "_Z5scaleIfLi128EEvPT_S0_";
        k.signature = "void scale<float, 128>(float*, float)";
        k.isTemplateInstance = true;
        k.params.push_back({"data", "float*", 8, 0, 8, true, "float", false});
        k.params.push_back({"factor", "float", 4, 8, 4, false, "", false});
        k.resources = {32, 4, 8, 16, 1024, 12, 1, true};
        r.kernels.push_back(k);
        r.compilerVersion = "NVRTC 13.0";
        r.compileMs = 12.5;
        const CompileCache::Key key =
            CompileCache::makeKey({"src", "x.cu", nullptr, nullptr, "v", ""});
        const std::string bytes = CompileCache::serialize(key, r);
        const auto back = CompileCache::deserialize(key, bytes);
        QVERIFY(back);
        compareOutputs(*back, r);
        QCOMPARE(back->compileMs, r.compileMs);
        // Another key's file is rejected even when intact.
        CompileCache::Key other = key;
        other[5] ^= 1;
        QVERIFY(!CompileCache::deserialize(other, bytes));
    }

    void damagedPayloadWithValidChecksum()
    {
        // A payload that passes the checksum but is cut short or altered must never crash the
        // reader, and a cut one must be rejected (the reader checks every length).
        const CompileCache::Key key =
            CompileCache::makeKey({"src", "x.cu", nullptr, nullptr, "v", ""});
        const std::string good = CompileCache::serialize(key, m_reference);
        const std::size_t h = CompileCache::kHeaderSize;
        auto reseal = [&](std::string file) {
            const std::uint64_t length = file.size() - h;
            const std::uint64_t sum =
                CompileCache::payloadChecksum(std::string_view(file).substr(h));
            std::memcpy(file.data() + 16, &length, 8);
            std::memcpy(file.data() + 24, &sum, 8);
            return file;
        };
        QVERIFY(CompileCache::deserialize(key, reseal(good)));
        for (std::size_t keep = h; keep < good.size(); keep += 1 + (good.size() - h) / 509)
            QVERIFY(!CompileCache::deserialize(key, reseal(good.substr(0, keep))));
        std::uint32_t state = 12345;
        for (int i = 0; i < 2000; ++i) {
            state = state * 1664525u + 1013904223u;
            std::string bad = good;
            const std::size_t at = h + state % (good.size() - h);
            bad[at] = static_cast<char>(bad[at] ^ static_cast<char>(1 + (state >> 24) % 255));
            (void)CompileCache::deserialize(key, reseal(bad)); // must not crash or overrun
        }
    }

    void keySeparatesFields()
    {
        const std::vector<std::string> f1{"-DA", "B"};
        const std::vector<std::string> f2{"-DAB"};
        QVERIFY(CompileCache::makeKey({"s", "n", &f1, nullptr, "v", ""}) !=
                CompileCache::makeKey({"s", "n", &f2, nullptr, "v", ""}));
        QVERIFY(CompileCache::makeKey({"ab", "c", nullptr, nullptr, "v", ""}) !=
                CompileCache::makeKey({"a", "bc", nullptr, nullptr, "v", ""}));
        QVERIFY(CompileCache::makeKey({"s", "n", nullptr, nullptr, "NVRTC 13.0", ""}) !=
                CompileCache::makeKey({"s", "n", nullptr, nullptr, "NVRTC 13.1", ""}));
    }
};

int main(int argc, char** argv)
{
    // Child mode for the fresh-process tests: one compile, report the cache outcome.
    if (argc == 2 && std::string(argv[1]) == "--child-compile") {
        const CompileResult r = compile();
        const char* state = r.cache == Cache::DiskHit    ? "disk-hit"
                            : r.cache == Cache::Disabled ? "disabled"
                            : r.cache == Cache::Miss     ? "miss"
                                                         : "memory-hit";
        std::cout << state << (r.ok ? " ok" : " failed") << std::endl;
        return 0;
    }
    // Outside CTest (which sets it per test) keep the user's cache untouched.
    QTemporaryDir fallback;
    if (qEnvironmentVariableIsEmpty("WARPBENCH_CACHE_DIR"))
        qputenv("WARPBENCH_CACHE_DIR", fallback.path().toLocal8Bit());
    QCoreApplication app(argc, argv);
    TestCompileCache test;
    return wb::test::runSuite(test, argc, argv);
}

#include "tst_compilecache.moc"
