// SPDX-License-Identifier: GPL-3.0-or-later
#include "SuiteMain.h"

#include <QFile>
#include <QStringList>
#include <QTemporaryDir>
#include <QXmlStreamReader>

#include <cstdio>

namespace wb::test {
namespace {

/// What one run of a suite did, read back from Qt Test's XML log.
struct Tally {
    int passed = 0;  ///< test functions (or data rows) that passed, set-up functions excluded
    int failed = 0;  ///< failures, set-up functions included
    int skipped = 0; ///< skips, set-up functions included
    QStringList reasons;
};

bool isSetUpFunction(const QString& name)
{
    return name == QLatin1String("initTestCase") || name == QLatin1String("cleanupTestCase") ||
           name == QLatin1String("init") || name == QLatin1String("cleanup");
}

Tally readLog(const QString& path)
{
    Tally t;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return t;
    QXmlStreamReader xml(&file);
    QString function;
    bool inSkip = false;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            const auto name = xml.name();
            if (name == QLatin1String("TestFunction")) {
                function = xml.attributes().value(QLatin1String("name")).toString();
            } else if (name == QLatin1String("Incident")) {
                const auto type = xml.attributes().value(QLatin1String("type"));
                inSkip = type == QLatin1String("skip");
                if (type == QLatin1String("pass") && !isSetUpFunction(function))
                    ++t.passed;
                else if (type == QLatin1String("fail") || type == QLatin1String("xpass"))
                    ++t.failed;
                else if (inSkip)
                    ++t.skipped;
            } else if (name == QLatin1String("Description") && inSkip) {
                const QString reason = xml.readElementText().trimmed();
                if (!reason.isEmpty() && !t.reasons.contains(reason)) t.reasons << reason;
            }
        } else if (xml.isEndElement() && xml.name() == QLatin1String("Incident")) {
            inSkip = false;
        }
    }
    return t;
}

/// Options that make Qt Test list things instead of running them, or choose its own loggers:
/// then the run is passed through unchanged.
bool overridesOutput(const QStringList& args)
{
    for (const QString& a : args) {
        if (a == QLatin1String("-o") || a == QLatin1String("-functions") ||
            a == QLatin1String("-datatags") || a == QLatin1String("-help") ||
            a == QLatin1String("--help") || a == QLatin1String("-xml") ||
            a == QLatin1String("-lightxml") || a == QLatin1String("-junitxml") ||
            a == QLatin1String("-tap") || a == QLatin1String("-teamcity") ||
            a == QLatin1String("-csv"))
            return true;
    }
    return false;
}

} // namespace

int runSuite(QObject& suite, int argc, char** argv)
{
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    QTemporaryDir dir;
    if (overridesOutput(args.mid(1)) || !dir.isValid()) return QTest::qExec(&suite, args);

    // The usual text on stdout, plus an XML copy from which the tally is read.
    const QString log = dir.filePath(QStringLiteral("log.xml"));
    args << QStringLiteral("-o") << QStringLiteral("-,txt") << QStringLiteral("-o")
         << log + QStringLiteral(",xml");
    const int rc = QTest::qExec(&suite, args);
    if (rc != 0) return rc;

    const Tally t = readLog(log);
    if (t.passed == 0 && t.failed == 0 && t.skipped > 0) {
        std::printf("WB-SUITE-SKIPPED: no test function ran (%d skipped): %s\n", t.skipped,
                    qPrintable(t.reasons.join(QStringLiteral("; "))));
        std::fflush(stdout);
        return kSkippedExitCode;
    }
    return rc;
}

} // namespace wb::test
