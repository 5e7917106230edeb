// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/Paths.h"
#include "tests/support/SuiteMain.h"

#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

/// cacheDir() without HOME: per user, private, owner-checked.
class TestPaths : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_tmp;
    fs::path expected() const
    {
        return fs::path(m_tmp.path().toStdString()) /
               ("warpbench-cache-" + std::to_string(::geteuid()));
    }
    static mode_t modeOf(const fs::path& p)
    {
        struct stat st {};
        return ::lstat(p.c_str(), &st) == 0 ? st.st_mode & 07777 : 0;
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_tmp.isValid());
        for (const char* name : {"WARPBENCH_CACHE_DIR", "XDG_CACHE_HOME", "HOME"})
            qunsetenv(name);
        qputenv("TMPDIR", m_tmp.path().toUtf8());
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(m_tmp.path().toStdString()))
            fs::remove_all(e.path(), ec);
    }
    void explicitDirectoryWins()
    {
        qputenv("WARPBENCH_CACHE_DIR", (m_tmp.path() + "/mine").toUtf8());
        QCOMPARE(wb::cacheDir(), fs::path(m_tmp.path().toStdString() + "/mine"));
        QVERIFY(fs::is_directory(m_tmp.path().toStdString() + "/mine"));
    }
    void withoutHomeTheCacheIsPerUserAndPrivate()
    {
        const fs::path dir = wb::cacheDir();
        QCOMPARE(dir, expected());
        QCOMPARE(modeOf(dir), mode_t{0700});
        QCOMPARE(wb::cacheDir(), dir); // reused as it is
    }
    void openDirectoryIsEmptiedAndClosed()
    {
        const fs::path dir = expected();
        fs::create_directory(dir);
        ::chmod(dir.c_str(), 0777);
        std::ofstream(dir / "planted.so") << "x";
        QCOMPARE(wb::cacheDir(), dir);
        QCOMPARE(modeOf(dir), mode_t{0700});
        QVERIFY(!fs::exists(dir / "planted.so"));
    }
    void symlinkIsNotFollowed()
    {
        const fs::path target = fs::path(m_tmp.path().toStdString()) / "elsewhere";
        fs::create_directory(target);
        ::chmod(target.c_str(), 0700);
        fs::create_directory_symlink(target, expected());
        const fs::path dir = wb::cacheDir();
        QVERIFY(dir != expected());
        QVERIFY(dir.string().rfind(expected().string() + "-", 0) == 0);
        QVERIFY(fs::is_directory(fs::symlink_status(dir)));
        QCOMPARE(modeOf(dir), mode_t{0700});
    }
    void otherOwnerIsLeftAlone()
    {
        if (::geteuid() != 0) QSKIP("needs root to make a directory owned by another user");
        const fs::path dir = expected();
        fs::create_directory(dir);
        ::chmod(dir.c_str(), 0700);
        std::ofstream(dir / "theirs") << "x";
        QCOMPARE(::chown(dir.c_str(), 12345, 12345), 0);
        const fs::path used = wb::cacheDir();
        QVERIFY(used != dir);
        QCOMPARE(modeOf(used), mode_t{0700});
        QVERIFY(fs::exists(dir / "theirs")); // not ours to delete
    }
    // Issue 26: a cache folder that cannot be written is replaced by the private temporary
    // one, with one line on stderr saying so (once per process).
    void unwritableCacheFallsBackWithOneWarning()
    {
        const fs::path file = fs::path(m_tmp.path().toStdString()) / "a-file";
        std::ofstream(file) << "x";
        const fs::path wanted = file / "cache"; // cannot be created: its parent is a file
        qputenv("WARPBENCH_CACHE_DIR", QByteArray::fromStdString(wanted.string()));
        QTemporaryFile captured;
        QVERIFY(captured.open());
        std::fflush(stderr);
        const int saved = ::dup(2);
        ::dup2(captured.handle(), 2);
        const fs::path first = wb::cacheDir();
        const fs::path second = wb::cacheDir();
        std::fflush(stderr);
        ::dup2(saved, 2);
        ::close(saved);
        qunsetenv("WARPBENCH_CACHE_DIR");
        QCOMPARE(first, expected());
        QCOMPARE(second, first);
        QCOMPARE(modeOf(first), mode_t{0700});
        captured.seek(0);
        const QString said = QString::fromUtf8(captured.readAll());
        QCOMPARE(said.count('\n'), 1);
        QVERIFY2(said.startsWith("warpbench: warning: the cache folder " +
                                 QString::fromStdString(wanted.string()) +
                                 " cannot be written (Not a directory); using a private "
                                 "temporary cache " +
                                 QString::fromStdString(first.string())),
                 qPrintable(said));
    }
    void limitFromEnvironment()
    {
        qunsetenv("WARPBENCH_CACHE_MAX_MB");
        QCOMPARE(wb::cacheLimitBytes(), std::uintmax_t{1024} << 20);
        qputenv("WARPBENCH_CACHE_MAX_MB", "5");
        QCOMPARE(wb::cacheLimitBytes(), std::uintmax_t{5} << 20);
        qputenv("WARPBENCH_CACHE_MAX_MB", "lots");
        QCOMPARE(wb::cacheLimitBytes(), std::uintmax_t{1024} << 20);
        qunsetenv("WARPBENCH_CACHE_MAX_MB");
    }
};

WB_QTEST_GUILESS_MAIN(TestPaths)
#include "tst_paths.moc"
