// SPDX-License-Identifier: GPL-3.0-or-later
// File → New from Expression (offscreen): the dialog shows the generated kernel or the error
// naming the field; the menu entry makes a project whose kernel editor holds the generated
// source and whose reference is the same statement; the window runs it on the CPU emulator
// and it passes.
#include "core/host/HostCompiler.h"
#include "tests/support/SuiteMain.h"
#include "tests/support/WindowTesting.h"
#include "ui/MainWindow.h"
#include "ui/common/RunController.h"
#include "ui/common/SessionDocument.h"
#include "ui/editor/KernelEditor.h"
#include "ui/project/NewFromExpression.h"
#include "ui/results/ResultsPanel.h"

#include <QAction>
#include <QApplication>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace wb;
using namespace wb::ui;

class TstNewFromExpression : public QObject {
    Q_OBJECT
    QTemporaryDir m_autosave;

private Q_SLOTS:
    void initTestCase() { isolateWindowSuite("tst_newfromexpression", m_autosave); }

    void dialogShowsSourceOrError()
    {
        NewFromExpressionDialog d;
        auto* preview = d.findChild<QPlainTextEdit*>(QStringLiteral("generatedPreview"));
        auto* ok = d.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        QVERIFY(preview && ok);
        QVERIFY(preview->toPlainText().contains(QStringLiteral("__global__ void compute_z(")));
        QVERIFY(ok->isEnabled());
        d.findChild<QLineEdit*>(QStringLiteral("scalarsEdit"))->setText(QStringLiteral("a, q"));
        QVERIFY(d.errorText().contains(QStringLiteral("scalars: 'q' does not appear")));
        QVERIFY(!ok->isEnabled());
        QVERIFY(preview->toPlainText().isEmpty());
        d.findChild<QLineEdit*>(QStringLiteral("scalarsEdit"))->setText(QStringLiteral("a=3"));
        QVERIFY(d.errorText().isEmpty());
        QVERIFY(ok->isEnabled());
    }

    void menuCreatesAProjectThatRunsOnTheEmulator()
    {
        if (!HostCompiler::find()) QSKIP("no host C++ compiler: the CPU emulator cannot build");
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QAction* entry = nullptr;
        for (QAction* a : w.menuBar()->actions())
            if (a->menu())
                for (QAction* b : a->menu()->actions())
                    if (b->text().remove(u'&').startsWith(QStringLiteral("New from Expression")))
                        entry = b;
        QVERIFY2(entry, "File → New from Expression… is missing");
        // Answer the modal dialog once it is up: fields, then "Create Project".
        bool answered = false;
        QTimer::singleShot(0, this, [&]() {
            auto* d = qobject_cast<NewFromExpressionDialog*>(QApplication::activeModalWidget());
            if (!d) return;
            d->setSpec({"z = a*x + y", session::ElementType::F32, "a=2.5", "50000"});
            answered = d->errorText().isEmpty();
            d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
        });
        entry->trigger();
        QVERIFY(answered);
        const session::Session& s = w.document()->session();
        QCOMPARE(s.launch.kernel, std::string("compute_z"));
        QCOMPARE(s.reference.kind, session::ReferenceSpec::Kind::Cpp);
        // The generated source is in the editor, editable.
        QVERIFY(w.kernelEditor()->text().contains(
            QStringLiteral("extern \"C\" __global__ void compute_z(float a, const float* x")));
        QVERIFY(!w.kernelEditor()->isReadOnly());
        QVERIFY(w.document()->isModified());

        QSignalSpy finished(w.runController(), &RunController::runFinished);
        QVERIFY(w.run());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 300000);
        const auto& report = w.runController()->lastOutcome()->report;
        QVERIFY2(report.status == session::RunReport::Status::Passed, report.message.c_str());
        QCOMPARE(report.referenceKind, session::ReferenceSpec::Kind::Cpp);
        QVERIFY(w.resultsPanel()->verdictText().contains(QStringLiteral("PASS")));
        w.document()->setModified(false);
    }
};

WB_QTEST_MAIN(TstNewFromExpression)
#include "tst_newfromexpression.moc"
