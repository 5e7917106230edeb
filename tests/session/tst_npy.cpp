// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/Error.h"
#include "core/session/Npy.h"
#include "tests/support/SuiteMain.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include <fstream>

using namespace wb::session;

namespace {
const ElementType kAll[] = {ElementType::F16, ElementType::BF16, ElementType::F32,
                            ElementType::F64, ElementType::I8,   ElementType::I16,
                            ElementType::I32, ElementType::I64,  ElementType::U8,
                            ElementType::U16, ElementType::U32,  ElementType::U64};

/// The first python3 that imports numpy (Debian's python3-numpy lives in /usr/bin/python3,
/// which a pyenv shim earlier on PATH may hide).
QString pythonWithNumpy()
{
    for (const QString& candidate :
         {qEnvironmentVariable("WB_PYTHON"), QStringLiteral("/usr/bin/python3"),
          QStandardPaths::findExecutable("python3")}) {
        if (candidate.isEmpty()) continue;
        QProcess p;
        p.start(candidate, {"-c", "import numpy"});
        if (p.waitForFinished(30000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0)
            return candidate;
    }
    return {};
}

QString errorOf(const std::string& bytes)
{
    try {
        Npy::parse(bytes, "bad.npy");
    } catch (const wb::Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}
} // namespace

class TestNpy : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void roundTripEveryType()
    {
        QTemporaryDir dir;
        for (ElementType t : kAll) {
            for (const auto& shape : {std::vector<std::size_t>{7}, std::vector<std::size_t>{3, 5},
                                      std::vector<std::size_t>{2, 3, 4}}) {
                HostArray a(t, shape);
                for (std::size_t i = 0; i < a.count(); ++i)
                    a.set(i, static_cast<double>(i % 100) - (isSigned(t) ? 20.0 : 0.0));
                const std::string path =
                    dir.filePath(QString("a_%1.npy").arg(elementTypeName(t))).toStdString();
                Npy::write(path, a);
                const HostArray b = Npy::read(path, t);
                QVERIFY2(a == b, elementTypeName(t));
            }
        }
    }
    void numpyReadsOurFilesAndWeReadNumpys()
    {
        const QString python = pythonWithNumpy();
        if (python.isEmpty()) QSKIP("python3 with numpy is not installed");
        QTemporaryDir dir;
        const struct {
            ElementType t;
            const char* np;
        } cases[] = {
            {ElementType::F16, "float16"}, {ElementType::F32, "float32"},
            {ElementType::F64, "float64"}, {ElementType::I8, "int8"},
            {ElementType::I16, "int16"},   {ElementType::I32, "int32"},
            {ElementType::I64, "int64"},   {ElementType::U8, "uint8"},
            {ElementType::U16, "uint16"},  {ElementType::U32, "uint32"},
            {ElementType::U64, "uint64"},
        };
        for (const auto& c : cases) {
            const QString theirs = dir.filePath(QString("np_%1.npy").arg(c.np));
            const QString ours = dir.filePath(QString("wb_%1.npy").arg(c.np));
            HostArray a(c.t, {4, 6});
            for (std::size_t i = 0; i < a.count(); ++i)
                a.set(i, static_cast<double>(i * 3 % 50));
            Npy::write(ours.toStdString(), a);
            // numpy writes the same values (version 1 and, forced, version 3) and checks ours.
            const QString script =
                QString("import numpy as np, numpy.lib.format as f\n"
                        "a = (np.arange(24) * 3 % 50).astype(np.%1).reshape(4, 6)\n"
                        "np.save(r'%2', a)\n"
                        "with open(r'%2.v3', 'wb') as fh: f.write_array(fh, a, version=(3, 0))\n"
                        "b = np.load(r'%3')\n"
                        "assert b.dtype == a.dtype and b.shape == a.shape and (a == b).all(), "
                        "'mismatch'\n")
                    .arg(c.np, theirs, ours);
            QProcess p;
            p.start(python, {"-c", script});
            QVERIFY(p.waitForFinished(60000));
            QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
            QVERIFY(Npy::read(theirs.toStdString(), c.t) == a);
            QVERIFY(Npy::read((theirs + ".v3").toStdString(), c.t) == a);
        }
        // Fortran order and object arrays are refused with clear errors.
        const QString fortran = dir.filePath("fortran.npy"), object = dir.filePath("object.npy");
        QProcess p;
        p.start(
            python,
            {"-c", QString("import numpy as np\n"
                           "np.save(r'%1', np.asfortranarray(np.ones((3, 4), np.float32)))\n"
                           "np.save(r'%2', np.array([1, 'a'], dtype=object), allow_pickle=True)\n")
                       .arg(fortran, object)});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        try {
            Npy::read(fortran.toStdString());
            QFAIL("Fortran order accepted");
        } catch (const wb::Error& e) {
            QVERIFY2(QString(e.what()).contains("Fortran"), e.what());
        }
        try {
            Npy::read(object.toStdString());
            QFAIL("object array accepted");
        } catch (const wb::Error& e) {
            QVERIFY2(QString(e.what()).contains("object arrays"), e.what());
        }
    }
    void malformedFiles()
    {
        HostArray a(ElementType::F32, {10});
        const std::string good = Npy::serialize(a);
        QVERIFY(errorOf(good).isEmpty());
        QVERIFY(
            errorOf("\x94NUMPY\x01\x00\x10\x00" + std::string(100, ' ')).contains("wrong magic"));
        QVERIFY(errorOf(good.substr(0, 40)).contains("truncated .npy header"));
        QVERIFY(errorOf(good.substr(0, 8)).contains("shorter than"));
        const QString sizeErr = errorOf(good.substr(0, good.size() - 4));
        QVERIFY2(sizeErr.contains("data size does not match") && sizeErr.contains("40 bytes") &&
                     sizeErr.contains("36"),
                 qPrintable(sizeErr));
        QVERIFY(errorOf(good + "xxxx").contains("data size does not match"));
        std::string badDtype = good;
        badDtype.replace(badDtype.find("<f4"), 3, "<c8");
        QVERIFY(errorOf(badDtype).contains("unsupported dtype '<c8'"));
        std::string bigEndian = good;
        bigEndian.replace(bigEndian.find("<f4"), 3, ">f4");
        QVERIFY(errorOf(bigEndian).contains("big-endian"));
        std::string version9 = good;
        version9[6] = 9;
        QVERIFY(errorOf(version9).contains("version 9"));
        QVERIFY_THROWS_EXCEPTION(wb::Error, Npy::read("/nonexistent/file.npy"));
    }
    // Issue 15: a header is the file's text; std::regex overflowed the stack on long values.
    void longHeaderValuesDoNotCrash()
    {
        const auto v2 = [](const std::string& header) {
            std::string bytes = std::string("\x93NUMPY\x02\x00", 8);
            for (int i = 0; i < 4; ++i)
                bytes += static_cast<char>((header.size() >> (8 * i)) & 0xff);
            return bytes + header;
        };
        const std::string longDescr = "{'descr': '<" + std::string(100'000, 'f') +
                                      "', 'fortran_order': False, 'shape': (2,), }\n";
        QVERIFY(errorOf(v2(longDescr)).contains("unsupported dtype"));
        const std::string longShape = "{'descr': '<f4', 'fortran_order': False, 'shape': (" +
                                      std::string(100'000, ' ') + "), }\n";
        const QString e = errorOf(v2(longShape));
        QVERIFY2(e.contains("data size does not match"), qPrintable(e)); // a 0-d array
        const std::string hugeDim = "{'descr': '<f4', 'fortran_order': False, 'shape': (" +
                                    std::string(40, '9') + ",), }\n";
        QVERIFY(errorOf(v2(hugeDim)).contains("too large"));
        QVERIFY(errorOf(v2("{'descr': '<f4', 'fortran_order': False, 'shape': (" +
                           std::string(100'000, '(') + "\n"))
                    .contains("'shape' must be a tuple"));
    }

    // Issue 26: the header is parsed as the format defines it, a Python literal dict with
    // exactly 'descr' (str), 'fortran_order' (bool) and 'shape' (tuple of non-negative ints).
    void headerIsAPythonLiteralDict()
    {
        const auto file = [](const std::string& header, std::size_t dataBytes) {
            std::string h = header;
            while ((10 + h.size() + 1) % 64)
                h += ' ';
            h += '\n';
            std::string bytes = std::string("\x93NUMPY\x01\x00", 8);
            bytes += static_cast<char>(h.size() & 0xff);
            bytes += static_cast<char>(h.size() >> 8);
            return bytes + h + std::string(dataBytes, '\0');
        };
        const auto withShape = [&file](const std::string& shape, std::size_t dataBytes) {
            return file("{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }",
                        dataBytes);
        };
        // Accepted: what NumPy writes and what the literal syntax allows.
        QCOMPARE(Npy::parse(withShape("(3,)", 12), "a.npy").shape(), (std::vector<std::size_t>{3}));
        QCOMPARE(Npy::parse(withShape("(2, 3)", 24), "a.npy").shape(),
                 (std::vector<std::size_t>{2, 3}));
        QCOMPARE(Npy::parse(withShape("( 2 ,3 , )", 24), "a.npy").shape(),
                 (std::vector<std::size_t>{2, 3}));
        QCOMPARE(Npy::parse(withShape("(0,)", 0), "a.npy").count(), std::size_t{0});
        QCOMPARE(Npy::parse(withShape("()", 4), "a.npy").count(), std::size_t{1});
        QCOMPARE(Npy::parse(file("{\"shape\": (2,),\"fortran_order\":False,\"descr\":\"<f4\"}", 8),
                            "a.npy")
                     .shape(),
                 (std::vector<std::size_t>{2}));
        // Refused, naming the file: each used to be read as some other shape (or accepted).
        const std::vector<std::pair<std::string, std::string>> refused = {
            {withShape("(400.0,)", 1600), "plain non-negative integer"}, // was [400, 0]
            {withShape("(True,)", 4), "tuple of non-negative integers"}, // was [1]
            {withShape(std::string(5000, '(') + "3," + std::string(5000, ')'), 12),
             "tuple of non-negative integers"}, // was accepted
            {withShape("(3)", 12), "trailing comma"},
            {withShape("(-3,)", 12), "tuple of non-negative integers"},
            {withShape("[3]", 12), "tuple of non-negative integers"},
            {withShape("(3,,)", 12), "tuple of non-negative integers"},
            {withShape("(0x3,)", 12), "plain non-negative integer"},
            {withShape("(1_2,)", 48), "plain non-negative integer"},
            {withShape("(03,)", 12), "leading zero"},
            {withShape("(2 3)", 24), "expected ',' or ')'"},
            {file("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'x': 1}", 12),
             "unexpected key 'x'"},
            {file("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (3,)}", 12),
             "appears twice"},
            {file("{'descr': '<f4', 'fortran_order': False}", 12), "no 'shape'"},
            {file("{'fortran_order': False, 'shape': (3,)}", 12), "no 'descr'"},
            {file("{'descr': '<f4', 'shape': (3,)}", 12), "no 'fortran_order'"},
            {file("{'descr': '<f4', 'fortran_order': 0, 'shape': (3,)}", 12), "True or False"},
            {file("{'descr': '<f4', 'fortran_order': Falsey, 'shape': (3,)}", 12), "True or False"},
            {file("{'descr': 4, 'fortran_order': False, 'shape': (3,)}", 12), "must be a string"},
            {file("{'descr': '<f4', 'fortran_order': False, 'shape': (3,)} x", 12),
             "unexpected text after the dict"},
            {file("{'descr': '<f4' 'fortran_order': False, 'shape': (3,)}", 12),
             "expected ',' or '}'"},
            {file("'descr': '<f4', 'fortran_order': False, 'shape': (3,)", 12), "dict literal"},
            {file("{'descr': '<f4', 'fortran_order': False, 'shape': (3,)", 12), "the end"},
        };
        for (const auto& [bytes, expected] : refused) {
            const QString e = errorOf(bytes);
            QVERIFY2(e.startsWith("bad.npy: ") && e.contains(QString::fromStdString(expected)),
                     qPrintable(e + " (expected: " + QString::fromStdString(expected) + ")"));
        }
    }

    void hugeShapeIsCheckedBeforeAllocating()
    {
        // A truncated file whose header claims petabytes: refused from the sizes alone (before,
        // the array was allocated first and the allocation failed or exhausted memory).
        HostArray a(ElementType::F32, {10});
        const std::string good = Npy::serialize(a);
        const auto withShape = [&good](const std::string& shape) {
            std::string bytes = good;
            const auto at = bytes.find("(10,)");
            bytes.replace(at, 5, shape);
            return bytes.substr(0, bytes.size() - 8); // truncated data as well
        };
        const QString huge = errorOf(withShape("(1000000, 1000000, 1000)"));
        QVERIFY2(huge.contains("data size does not match") &&
                     huge.contains("4000000000000000 bytes"),
                 qPrintable(huge));
        const QString overflow = errorOf(withShape("(4294967296, 4294967296, 4294967296)"));
        QVERIFY2(overflow.contains("too large"), qPrintable(overflow));
        const QString digits = errorOf(withShape("(100000000000000000000000000000,)"));
        QVERIFY2(digits.contains("too large"), qPrintable(digits));
    }
    void specialFilesAreRefusedAtOnce()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string fifo = (dir.path() + "/pipe.npy").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        for (const std::string& path : {fifo, std::string("/dev/zero"), dir.path().toStdString()}) {
            QString message;
            try {
                Npy::read(path);
            } catch (const wb::Error& e) {
                message = QString::fromStdString(e.what());
            }
            QVERIFY2(message.contains("not a regular file"), qPrintable(message));
        }
    }
    void largeHeaderUsesVersion2()
    {
        // A 3-d shape cannot need a 64 KiB header, so check version 2 by parsing one we build.
        HostArray a(ElementType::I32, {2, 2});
        for (std::size_t i = 0; i < 4; ++i)
            a.set(i, static_cast<double>(i));
        std::string header = "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 2), }";
        header.append(70000, ' ');
        header += '\n';
        std::string v2 = std::string("\x93NUMPY\x02\x00", 8);
        for (int i = 0; i < 4; ++i)
            v2 += static_cast<char>((header.size() >> (8 * i)) & 0xff);
        v2 += header;
        v2.append(reinterpret_cast<const char*>(a.data()), a.bytes());
        QVERIFY(Npy::parse(v2, "v2.npy") == a);
    }
};

WB_QTEST_GUILESS_MAIN(TestNpy)
#include "tst_npy.moc"
