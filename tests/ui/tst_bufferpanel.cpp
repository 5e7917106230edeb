// SPDX-License-Identifier: GPL-3.0-or-later
// Buffers, scalars and parameter bindings edited through their models and delegates, with
// validation as you type, against a real session document.
#include "tests/support/SuiteMain.h"
#include "ui/buffers/BufferPanel.h"
#include "ui/buffers/BufferTableModel.h"
#include "ui/buffers/ScalarTableModel.h"
#include "ui/common/SessionDocument.h"
#include "ui/common/ValidatingDelegate.h"
#include "ui/launch/ParamBindingModel.h"

#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QStyleOptionViewItem>
#include <QTableView>
#include <QTest>
#include <QToolButton>

using namespace wb;
using namespace wb::ui;

class TestBufferPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void validation()
    {
        SessionDocument doc; // new session: scalars n, factor; buffers in, out
        BufferTableModel model(&doc);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), int(BufferTableModel::ColumnCount));
        QVERIFY(
            model.validate(0, BufferTableModel::ShapeColumn, QStringLiteral("n*2, 4")).isEmpty());
        QVERIFY(model.validate(0, BufferTableModel::ShapeColumn, QStringLiteral("m"))
                    .contains(QStringLiteral("m")));
        QVERIFY(!model.validate(0, BufferTableModel::ShapeColumn, QStringLiteral("1, 2, 3, 4"))
                     .isEmpty());
        QVERIFY(!model.validate(0, BufferTableModel::NameColumn, QStringLiteral("2abc")).isEmpty());
        QVERIFY(model.validate(0, BufferTableModel::NameColumn, QStringLiteral("out"))
                    .contains(QStringLiteral("out")));
        QVERIFY(model.validate(0, BufferTableModel::NameColumn, QStringLiteral("n"))
                    .contains(QStringLiteral("scalar")));
        QVERIFY(!model.validate(0, BufferTableModel::TypeColumn, QStringLiteral("f33")).isEmpty());
        QVERIFY(
            model.validate(0, BufferTableModel::InitColumn, QStringLiteral("uniform -1 1 seed=3"))
                .isEmpty());
        QVERIFY(model.validate(0, BufferTableModel::InitColumn, QStringLiteral("gaussian 0 1"))
                    .contains(QStringLiteral("unknown")));
        QVERIFY(
            !model.validate(0, BufferTableModel::InitColumn, QStringLiteral("constant")).isEmpty());
        QVERIFY(!model.validate(0, BufferTableModel::InitColumn, QStringLiteral("zeros seed=2"))
                     .isEmpty());
        // Refused values leave the session as it was.
        QVERIFY(!model.setData(model.index(0, BufferTableModel::ShapeColumn), QStringLiteral("m")));
        QCOMPARE(doc.session().buffers[0].shape, std::vector<std::string>{"n"});
        QVERIFY(!doc.isModified());
    }

    void editsReachTheSession()
    {
        SessionDocument doc;
        BufferTableModel buffers(&doc);
        ScalarTableModel scalars(&doc);
        QVERIFY(buffers.setData(buffers.index(0, BufferTableModel::InitColumn),
                                QStringLiteral("normal 0 2 seed=9")));
        const auto& init = doc.session().buffers[0].init;
        QCOMPARE(init.kind, session::Initialiser::Kind::Normal);
        QCOMPARE(init.stddev, std::string("2"));
        QCOMPARE(init.seed, std::uint64_t(9));
        QVERIFY(doc.isModified());
        QVERIFY(
            buffers.setData(buffers.index(0, BufferTableModel::TypeColumn), QStringLiteral("f64")));
        QCOMPARE(doc.session().buffers[0].type, session::ElementType::F64);
        // Sizes follow the scalars they are written in.
        QVERIFY(scalars.setData(scalars.index(0, ScalarTableModel::ValueColumn),
                                QStringLiteral("2048")));
        QCOMPARE(buffers.index(1, BufferTableModel::SizeColumn).data().toString().remove(u' '),
                 QLocale().formattedDataSize(2048 * 4, 1, QLocale::DataSizeSIFormat).remove(u' '));
        QCOMPARE(scalars.index(0, ScalarTableModel::EvaluatedColumn).data().toString(),
                 QStringLiteral("2048"));
        QVERIFY(
            !scalars.validate(1, ScalarTableModel::ValueColumn, QStringLiteral("zz+1")).isEmpty());

        // Renaming a buffer keeps explicit bindings on it.
        doc.edit(SessionDocument::Part::Launch,
                 [](session::Session& s) { s.launch.bindings["src"] = "in"; });
        QVERIFY(buffers.setData(buffers.index(0, BufferTableModel::NameColumn),
                                QStringLiteral("input")));
        QCOMPARE(doc.session().launch.bindings.at("src"), std::string("input"));

        const int added = buffers.addBuffer();
        QCOMPARE(added, 2);
        QCOMPARE(doc.session().buffers.size(), std::size_t(3));
        const int copy = buffers.duplicateBuffer(0);
        QCOMPARE(doc.session().buffers[std::size_t(copy)].name, std::string("input_copy"));
        QCOMPARE(doc.session().buffers[std::size_t(copy)].init, doc.session().buffers[0].init);
        buffers.removeBuffer(copy);
        buffers.removeBuffer(added);
        QCOMPARE(doc.session().buffers.size(), std::size_t(2));
        QCOMPARE(scalars.addScalar(), 2);
        scalars.removeScalar(2);
        QCOMPARE(doc.session().scalars.size(), std::size_t(2));
    }

    void delegateValidatesWhileTyping()
    {
        SessionDocument doc;
        BufferPanel panel(&doc);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QTableView* view = panel.bufferTable();
        const QModelIndex shape = panel.bufferModel()->index(0, BufferTableModel::ShapeColumn);
        view->setCurrentIndex(shape);
        view->edit(shape);
        auto* editor = view->findChild<QLineEdit*>();
        QVERIFY(editor);
        editor->selectAll();
        QTest::keyClicks(editor, QStringLiteral("n*"));
        QVERIFY(editor->property("wbInvalid").toBool()); // "n*" does not evaluate
        QVERIFY(!editor->toolTip().isEmpty());
        QTest::keyClicks(editor, QStringLiteral("2"));
        QVERIFY(!editor->property("wbInvalid").toBool());
        QTest::keyClick(editor, Qt::Key_Return);
        QTRY_COMPARE(doc.session().buffers[0].shape,
                     std::vector<std::string>{"n*2"}); // committed queued
        QSignalSpy activated(&panel, &BufferPanel::bufferActivated);
        const QRect cell = view->visualRect(panel.bufferModel()->index(1, 0));
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, cell.center());
        QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, cell.center());
        // Double-click edits the cell (issue 17); the viewer opens from View.
        QTRY_VERIFY(view->findChild<QLineEdit*>() && view->findChild<QLineEdit*>()->isVisible());
        QCOMPARE(activated.count(), 0);
        QTest::keyClick(view->findChild<QLineEdit*>(), Qt::Key_Escape);
        auto* viewButton = panel.findChild<QToolButton*>(QStringLiteral("viewBufferButton"));
        QVERIFY(viewButton);
        viewButton->click();
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.first().first().toString(), QStringLiteral("out"));
    }

    /// The panel names the project's module globals beside the buffers' memory.
    void moduleGlobalsAreShown()
    {
        SessionDocument doc;
        BufferPanel panel(&doc);
        const auto memoryText = [&panel] {
            for (const QLabel* l : panel.findChildren<QLabel*>())
                if (l->text().contains(QStringLiteral("buffer"))) return l->text();
            return QString();
        };
        QVERIFY(!memoryText().contains(QStringLiteral("global")));
        doc.edit(SessionDocument::Part::Buffers, [](session::Session& s) {
            session::BufferSpec g;
            g.name = "c_filter";
            g.shape = {"9"};
            s.globals = {g};
        });
        QVERIFY2(memoryText().contains(QStringLiteral("1 module global(s): c_filter")) ||
                     memoryText().contains(QStringLiteral("1 module global: c_filter")),
                 qPrintable(memoryText()));
        // Globals share the names of buffers and scalars.
        BufferTableModel buffers(&doc);
        QVERIFY(buffers.validate(0, BufferTableModel::NameColumn, QStringLiteral("c_filter"))
                    .contains(QStringLiteral("module global")));
        ScalarTableModel scalars(&doc);
        QVERIFY(scalars.validate(0, ScalarTableModel::NameColumn, QStringLiteral("c_filter"))
                    .contains(QStringLiteral("module global")));
    }

    void bindingsAreTypeChecked()
    {
        SessionDocument doc;
        ParamBindingModel model(&doc);
        KernelInfo k;
        k.name = "scale";
        auto param = [](const char* name, const char* type, bool ptr, const char* pointee,
                        std::size_t size) {
            KernelParam p;
            p.name = name;
            p.type = type;
            p.isPointer = ptr;
            p.pointee = pointee;
            p.size = size;
            return p;
        };
        k.params = {param("out", "float*", true, "float", 8),
                    param("in", "const float*", true, "float", 8),
                    param("factor", "float", false, "", 4), param("n", "int", false, "", 4)};
        model.setKernel(&k);
        QCOMPARE(model.rowCount(), 4);
        QVERIFY(model.allValid());
        QCOMPARE(model.index(0, ParamBindingModel::CheckColumn).data().toString(),
                 QStringLiteral("✓"));
        // A pointer bound to a scalar, a value bound to a buffer, a type mismatch.
        QVERIFY(model.setData(model.index(0, ParamBindingModel::BoundColumn),
                              QStringLiteral("factor")));
        QVERIFY(model.check(0).contains(QStringLiteral("scalar")));
        QVERIFY(
            model.setData(model.index(0, ParamBindingModel::BoundColumn), QStringLiteral("out")));
        QVERIFY(model.check(0).isEmpty());
        QVERIFY(
            model.setData(model.index(3, ParamBindingModel::BoundColumn), QStringLiteral("in")));
        QVERIFY(model.check(3).contains(QStringLiteral("buffer")));
        QVERIFY(model.setData(model.index(3, ParamBindingModel::BoundColumn), QStringLiteral("n")));
        // A buffer at an element offset (`in + 1`); a scalar cannot be offset.
        QVERIFY(model.setData(model.index(1, ParamBindingModel::BoundColumn),
                              QStringLiteral("in + 1")));
        QVERIFY2(model.check(1).isEmpty(), qPrintable(model.check(1)));
        QVERIFY(
            model.setData(model.index(3, ParamBindingModel::BoundColumn), QStringLiteral("n + 1")));
        QVERIFY(model.check(3).contains(QStringLiteral("only a buffer")));
        QVERIFY(model.setData(model.index(3, ParamBindingModel::BoundColumn), QStringLiteral("n")));
        QVERIFY(
            model.setData(model.index(1, ParamBindingModel::BoundColumn), QStringLiteral("in")));
        doc.edit(SessionDocument::Part::Buffers,
                 [](session::Session& s) { s.buffers[0].type = session::ElementType::F64; });
        QVERIFY(model.check(1).contains(
            QStringLiteral("f64"))); // `in` is const float* but buffer in is f64
        QVERIFY(!model.allValid());
        QCOMPARE(model.candidates(1), (QStringList{QStringLiteral("in"), QStringLiteral("out")}));
        QCOMPARE(model.candidates(2), (QStringList{QStringLiteral("n"), QStringLiteral("factor")}));
    }
};

WB_QTEST_MAIN(TestBufferPanel)
#include "tst_bufferpanel.moc"
