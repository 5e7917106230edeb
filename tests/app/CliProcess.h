// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>

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

/// Why the CPU backend cannot run here (empty when it can), from `warpbench-cli devices`.
inline QString cpuUnavailable()
{
    const CliRun r = runCli({QStringLiteral("devices")});
    if (r.exitCode != 0) return QStringLiteral("warpbench-cli devices failed: ") + r.err;
    for (const QString& line : r.out.split('\n'))
        if (line.startsWith(QLatin1String("cpu: unavailable"))) return line;
    return {};
}
