// SPDX-License-Identifier: GPL-3.0-or-later
// A "remote" runner: RunnerClient starts `ssh -p PORT 127.0.0.1 warpbench-runner` against a real
// sshd that this test starts on 127.0.0.1 with host and user keys made for the test. Buffers
// then travel compressed in the stream instead of shared memory.
#include "RunnerTestUtil.h"

#include "core/backend/Backend.h"
#include "core/common/Error.h"
#include "core/runner/RunnerClient.h"
#include "core/session/SessionRunner.h"
#include "tests/support/SuiteMain.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <arpa/inet.h>
#include <cstdio>
#include <filesystem>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace wb;
using namespace wb::runner;
using namespace wb::runner::test;
using session::RunReport;

namespace {

const char* kSshd = "/usr/sbin/sshd";

int freePort()
{
    const int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    ::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len);
    ::close(s);
    return ntohs(a.sin_port);
}

bool accepts(int port)
{
    const int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    const bool ok = ::connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    ::close(s);
    return ok;
}

bool keygen(const QString& path)
{
    QProcess p;
    p.start(QStringLiteral("ssh-keygen"), {"-q", "-t", "ed25519", "-N", "", "-f", path});
    return p.waitForFinished(30000) && p.exitCode() == 0;
}

} // namespace

class TstRemoteRunner : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (!QFile::exists(QLatin1String(kSshd))) QSKIP("sshd is not installed (openssh-server)");
        try {
            createBackend(BackendKind::Cpu);
        } catch (const Error& e) {
            QSKIP(e.what());
        }
        QVERIFY(m_dir.isValid());
        const QString d = m_dir.path();
        QVERIFY(keygen(d + "/host_key"));
        QVERIFY(keygen(d + "/user_key"));
        QVERIFY(QFile::copy(d + "/user_key.pub", d + "/authorized_keys"));
        // sshd started by root needs its privilege-separation directory.
        std::error_code ec;
        if (::geteuid() == 0 && !std::filesystem::exists("/run/sshd", ec)) {
            std::filesystem::create_directories("/run/sshd", ec);
            m_createdPrivsep = !ec;
        }
        m_port = freePort();
        QFile cfg(d + "/sshd_config");
        QVERIFY(cfg.open(QIODevice::WriteOnly));
        cfg.write(
            QStringLiteral("ListenAddress 127.0.0.1\nHostKey %1/host_key\nPidFile %1/sshd.pid\n"
                           "AuthorizedKeysFile %1/authorized_keys\nStrictModes no\n"
                           "PasswordAuthentication no\nKbdInteractiveAuthentication no\n"
                           "PubkeyAuthentication yes\nPermitRootLogin prohibit-password\n"
                           "UsePAM no\nLogLevel ERROR\n")
                .arg(d)
                .toUtf8());
        cfg.close();
        m_sshd.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_sshd.start(QLatin1String(kSshd),
                     {"-D", "-e", "-f", d + "/sshd_config", "-p", QString::number(m_port)});
        QVERIFY(m_sshd.waitForStarted(10000));
        for (int i = 0; i < 200 && !accepts(m_port); ++i)
            QTest::qWait(25);
        QVERIFY2(accepts(m_port), "sshd did not start listening");
    }

    void cleanupTestCase()
    {
        if (m_sshd.state() != QProcess::NotRunning) {
            m_sshd.kill();
            m_sshd.waitForFinished(5000);
        }
        if (m_createdPrivsep) {
            std::error_code ec;
            std::filesystem::remove("/run/sshd", ec);
        }
    }

    void runsOverSsh()
    {
        RunnerClient client(config());
        RunnerClient::Request r;
        r.session = helloSession();
        r.options.backend = BackendKind::Cpu;
        const RunOutcome a = client.run(r);
        std::printf("  over ssh: %s, %.0f ms (start-up included)\n", a.report.statusName(),
                    a.elapsedMs);
        QVERIFY2(a.fault == Fault::None, (a.report.message + "\n" + a.runnerLog).c_str());
        QCOMPARE(a.report.status, RunReport::Status::Passed);
        const RunOutcome b = client.run(r); // the same warm remote runner
        QVERIFY(!b.runnerStarted);
        std::printf("  over ssh, warm: %.1f ms\n", b.elapsedMs);
        session::SessionRunner::Options opt;
        opt.backend = BackendKind::Cpu;
        const RunReport local = session::SessionRunner::run(helloSession(), opt);
        QCOMPARE(b.report.results, local.results);
        QCOMPARE(b.report.expected, local.expected);
    }

    void remoteTimeoutThenNextRunWorks()
    {
        RunnerClient client(config());
        RunnerClient::Request r;
        r.session = faultSession(
            "spin", "__global__ void k(float* out) { volatile int x = 0; while (true) x = x + 1; }",
            BackendKind::Cpu);
        r.timeoutMs = 4000;
        const RunOutcome o = client.run(r);
        std::printf("  remote fault: %s\n", o.report.message.c_str());
        QCOMPARE(o.fault, Fault::Timeout);
        RunnerClient::Request h;
        h.session = helloSession();
        h.options.backend = BackendKind::Cpu;
        QCOMPARE(client.run(h).report.status, RunReport::Status::Passed);
    }

    /// --memcheck with an ssh runner command: compute-sanitizer (here fake_runner playing it)
    /// runs on the remote side around warpbench-runner, not around the local ssh, and its
    /// report comes back over ssh's stderr as findings.
    void memcheckRunsOnTheRemoteSide()
    {
        RunnerClient::Config c = config();
        c.memoryCheck = RunnerClient::MemoryCheck::Memcheck;
        c.sanitizer = WB_FAKE_RUNNER_EXE;
        RunnerClient client(c);
        RunnerClient::Request r;
        r.session = helloSession();
        r.options.backend = BackendKind::Cpu;
        const RunOutcome o = client.run(r);
        QVERIFY2(o.fault == Fault::None, (o.report.message + "\n" + o.runnerLog).c_str());
        // The finding fails the run (exit 3).
        QCOMPARE(o.report.status, RunReport::Status::RuntimeError);
        QVERIFY2(o.report.message.find("compute-sanitizer found 1 problem") == 0,
                 o.report.message.c_str());
        QVERIFY2(o.runnerLog.find(std::string("fake compute-sanitizer wraps: ") + WB_RUNNER_EXE) !=
                     std::string::npos,
                 o.runnerLog.c_str());
        QCOMPARE(o.report.memoryFindings.size(), std::size_t{1});
        QCOMPARE(o.report.memoryFindings[0].line, 7);
        QCOMPARE(o.report.memoryFindings[0].block.x, 1u);
    }

private:
    RunnerClient::Config config() const
    {
        const QString d = m_dir.path();
        RunnerClient::Config c;
        c.command = {"ssh",
                     "-F",
                     "/dev/null",
                     "-i",
                     (d + "/user_key").toStdString(),
                     "-p",
                     std::to_string(m_port),
                     "-o",
                     "BatchMode=yes",
                     "-o",
                     "IdentitiesOnly=yes",
                     "-o",
                     "StrictHostKeyChecking=no",
                     "-o",
                     "UserKnownHostsFile=" + (d + "/known_hosts").toStdString(),
                     "-o",
                     "LogLevel=ERROR",
                     "127.0.0.1",
                     WB_RUNNER_EXE};
        return c;
    }

    QTemporaryDir m_dir;
    QProcess m_sshd;
    int m_port = 0;
    bool m_createdPrivsep = false;
};

WB_QTEST_GUILESS_MAIN(TstRemoteRunner)
#include "tst_remoterunner.moc"
