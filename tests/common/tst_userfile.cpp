// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/Error.h"
#include "core/common/UserFile.h"
#include "tests/support/SuiteMain.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>

using wb::UserFile;

namespace {
QString errorOf(const std::filesystem::path& path, std::uint64_t maxBytes = 1 << 20)
{
    try {
        UserFile::read(path, maxBytes, "the test input");
    } catch (const wb::Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}
} // namespace

class TestUserFile : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void readsRegularFilesAndSymlinks()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::filesystem::path file = dir.path().toStdString() + "/a.txt";
        std::ofstream(file, std::ios::binary) << std::string("hello\0world", 11);
        QCOMPARE(UserFile::read(file, 11, "x"), std::string("hello\0world", 11));
        const std::filesystem::path link = dir.path().toStdString() + "/link.txt";
        std::filesystem::create_symlink(file, link);
        QCOMPARE(UserFile::read(link, 100, "x").size(), std::size_t{11});
        std::ofstream(dir.path().toStdString() + "/empty");
        QCOMPARE(UserFile::read(dir.path().toStdString() + "/empty", 0, "x"), std::string());
    }
    void fifoDoesNotBlock()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string fifo = (dir.path() + "/pipe").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        QElapsedTimer timer;
        timer.start();
        const QString message = errorOf(fifo);
        QVERIFY2(message.contains("FIFO") && message.contains("not a regular file") &&
                     message.contains("the test input") && message.contains("pipe"),
                 qPrintable(message));
        QVERIFY(timer.elapsed() < 2000);
        // A symlink to it is no way around the check.
        std::filesystem::create_symlink(fifo, dir.path().toStdString() + "/to-pipe");
        QVERIFY(errorOf(dir.path().toStdString() + "/to-pipe").contains("FIFO"));
    }
    void devicesAndDirectoriesAreRefused()
    {
        const QString zero = errorOf("/dev/zero");
        QVERIFY2(zero.contains("character device") && zero.contains("/dev/zero"), qPrintable(zero));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString d = errorOf(dir.path().toStdString());
        QVERIFY2(d.contains("a directory, not a regular file"), qPrintable(d));
    }
    // Issue 26: open() fails on a socket ("No such device or address"); the message says what
    // the path is, as docs/sessions.md promises.
    void socketIsNamedAsASocket()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = (dir.path() + "/in.npy").toStdString();
        const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
        QVERIFY(fd >= 0);
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        QVERIFY(path.size() < sizeof addr.sun_path);
        std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
        QCOMPARE(::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr), 0);
        const QString message = errorOf(path);
        ::close(fd);
        QVERIFY2(message.contains("in.npy: cannot read the test input: it is a socket, not a "
                                  "regular file"),
                 qPrintable(message));
        QVERIFY2(!message.contains("No such device"), qPrintable(message));
    }
    void sizeIsCheckedBeforeReading()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::filesystem::path file = dir.path().toStdString() + "/big";
        std::ofstream(file, std::ios::binary) << std::string(4096, 'x');
        const QString message = errorOf(file, 4095);
        QVERIFY2(message.contains("4096 bytes") && message.contains("4095 bytes allowed"),
                 qPrintable(message));
        QCOMPARE(UserFile::read(file, 4096, "x").size(), std::size_t{4096});
    }
    void missingFile()
    {
        const QString message = errorOf("/nonexistent/dir/file");
        QVERIFY2(message.contains("no such file"), qPrintable(message));
    }
};

WB_QTEST_GUILESS_MAIN(TestUserFile)
#include "tst_userfile.moc"
