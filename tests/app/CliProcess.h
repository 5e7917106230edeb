// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTest>

/// Runs the built warpbench-cli and collects what a shell would see.
struct CliRun {
    int exitCode = -1;
    QString out;
    QString err;
};

inline CliRun runCli(const QStringList& args, int timeoutMs = 300000)
{
    QProcess p;
    p.start(QStringLiteral(WB_BINARY_DIR "/bin/warpbench-cli"), args);
    CliRun r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("timed out");
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

/// Why backend `kind` ("cpu", "cuda") cannot run here (empty when it can), from
/// `warpbench-cli devices`.
inline QString backendUnavailable(const QString& kind)
{
    const CliRun r = runCli({QStringLiteral("devices")});
    if (r.exitCode != 0) return QStringLiteral("warpbench-cli devices failed: ") + r.err;
    for (const QString& line : r.out.split('\n'))
        if (line.startsWith(kind + QLatin1String(": unavailable"))) return line;
    return {};
}

inline QString cpuUnavailable()
{
    return backendUnavailable(QStringLiteral("cpu"));
}

inline QString cudaUnavailable()
{
    return backendUnavailable(QStringLiteral("cuda"));
}

/// Writes `text` to `path` (a test fixture), failing the test when it cannot.
inline void writeFile(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}
