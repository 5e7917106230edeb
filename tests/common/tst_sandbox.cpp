// SPDX-License-Identifier: GPL-3.0-or-later
// core/common/Sandbox: the layers under the system-call filter (Landlock, namespaces) are used
// where the kernel allows them and reported; a forbidden call still ends the sealed process
// with "… attempted <call>" (issue 25).
#include "core/common/Error.h"
#include "core/common/Sandbox.h"
#include "core/common/detail/SandboxLayers.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

#include <fcntl.h>
#include <linux/landlock.h>
#include <sched.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <thread>

using namespace wb;

namespace {

/// The kernel's Landlock ABI, or 0 where it has none (or it is disabled).
long landlockAbi()
{
    const long abi =
        ::syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return abi > 0 ? abi : 0;
}

/// Whether an unprivileged process may enter new user, network and IPC namespaces here.
bool namespacesAllowed()
{
    const pid_t pid = ::fork();
    if (pid == 0) ::_exit(::unshare(CLONE_NEWUSER | CLONE_NEWNET | CLONE_NEWIPC) == 0 ? 0 : 1);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/// Runs `body` in a forked child; its exit status (-1 when it did not exit).
template <class Body> int inChild(Body body)
{
    const pid_t pid = ::fork();
    if (pid == 0) ::_exit(body());
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

} // namespace

class TestSandbox : public QObject {
    Q_OBJECT
private Q_SLOTS:
    /// A sealed child reports its layers: the filter always; Landlock and the namespaces where
    /// this machine has them (a forked child has one thread, so both apply).
    void layersAreReported()
    {
        const std::string layers =
            sandbox::runIsolated("test", {}, [](std::string& out) { out = sandbox::layers(); });
        qInfo().noquote() << "layers:" << QString::fromStdString(layers);
        QVERIFY2(layers.rfind("seccomp-bpf filter (", 0) == 0, layers.c_str());
        if (landlockAbi() > 0)
            QVERIFY2(layers.find("Landlock ABI " + std::to_string(landlockAbi()) +
                                 ": no file access by path") != std::string::npos &&
                         layers.find("(its one thread)") != std::string::npos,
                     layers.c_str());
        else
            QVERIFY2(layers.find("Landlock: not available") != std::string::npos, layers.c_str());
        if (namespacesAllowed())
            QVERIFY2(layers.find("namespaces: new user, network and IPC namespaces") !=
                         std::string::npos,
                     layers.c_str());
        else
            QVERIFY2(layers.find("namespaces: not available") != std::string::npos, layers.c_str());
        QVERIFY(sandbox::layers().empty()); // this process is not sealed
    }

    /// Landlock alone (no filter): every thread of the process is restricted, the ones that
    /// existed before too (Landlock restricts only the calling thread by itself); descriptors
    /// opened before stay usable; reading may be left allowed.
    void landlockCoversEveryThread()
    {
        if (landlockAbi() == 0) QSKIP("this kernel has no Landlock (or it is disabled)");
        const int status = inChild([] {
            const int before = ::open("/proc/self/status", O_RDONLY | O_CLOEXEC);
            std::atomic<int> step{0};
            std::atomic<int> threadErrno{0};
            std::thread other([&] {
                while (step.load() == 0)
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                const int fd = ::open("/etc/passwd", O_RDONLY | O_CLOEXEC);
                threadErrno = fd < 0 ? errno : 0;
                step = 2;
            });
            const std::string what = sandbox::detail::addDefenceInDepth(false);
            step = 1;
            while (step.load() != 2)
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            other.join();
            if (what.find("(all 2 threads)") == std::string::npos) return 10;
            if (threadErrno != EACCES) return 11;
            if (::open("/etc/passwd", O_RDONLY | O_CLOEXEC) >= 0 || errno != EACCES) return 12;
            if (::open("/tmp/wb-landlock-probe", O_WRONLY | O_CREAT | O_CLOEXEC, 0600) >= 0)
                return 13;
            char buf[16];
            if (before < 0 || ::read(before, buf, sizeof buf) <= 0) return 14;
            return 0;
        });
        QCOMPARE(status, 0);
        const int reading = inChild([] {
            sandbox::detail::addDefenceInDepth(true);
            if (::open("/etc/passwd", O_RDONLY | O_CLOEXEC) < 0) return 20;
            if (::open("/tmp/wb-landlock-probe", O_WRONLY | O_CREAT | O_CLOEXEC, 0600) >= 0)
                return 21;
            return 0;
        });
        QCOMPARE(reading, 0);
    }

    /// Under every layer a forbidden call is still the filter's: named, and the process ends.
    void openingAFileIsStillNamed()
    {
        try {
            sandbox::runIsolated("kernel", "kernel 'k'", [](std::string&) {
                [[maybe_unused]] const int fd = ::open("/etc/passwd", O_RDONLY);
            });
            QFAIL("the open was not stopped");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).find("kernel attempted open") == 0, e.what());
        }
        // The next sealed child works.
        QCOMPARE(sandbox::runIsolated("test", {}, [](std::string& out) { out = "ok"; }),
                 std::string("ok"));
    }
};

WB_QTEST_GUILESS_MAIN(TestSandbox)
#include "tst_sandbox.moc"
