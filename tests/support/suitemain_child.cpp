// SPDX-License-Identifier: GPL-3.0-or-later
// A Qt Test suite for tst_suitemain: what its functions do is chosen by WB_CHILD_MODE
// (skip-all, skip-in-init, pass-and-skip, fail).
#include "tests/support/SuiteMain.h"

#include <QByteArray>
#include <QObject>
#include <QtGlobal>

class SuiteMainChild : public QObject {
    Q_OBJECT

    static QByteArray mode() { return qgetenv("WB_CHILD_MODE"); }

private Q_SLOTS:
    void initTestCase()
    {
        if (mode() == "skip-in-init") QSKIP("no device here (initTestCase)");
    }
    void first()
    {
        if (mode() == "fail") QFAIL("a real failure");
        if (mode() != "pass-and-skip") QSKIP("no device here (first)");
    }
    void second() { QSKIP("no device here (second)"); }
    void cleanupTestCase() {}
};

WB_QTEST_GUILESS_MAIN(SuiteMainChild)
#include "suitemain_child.moc"
