// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cpu/detail/KernelSource.h"
#include "tests/support/SuiteMain.h"

#include <QElapsedTimer>
#include <QtTest/QtTest>

#include <algorithm>

using wb::cpu::detail::KernelSource;

class TestKernelSource : public QObject {
    Q_OBJECT

    static int lines(const std::string& s)
    {
        return static_cast<int>(std::count(s.begin(), s.end(), '\n'));
    }

private Q_SLOTS:
    void findsKernelsAndParameterNames()
    {
        const std::string src =
            "// __global__ void commented(int x);\n"
            "namespace a { namespace b {\n"
            "__global__ void k1(const float* __restrict__ in, float out[], int n = 3);\n"
            "}}\n"
            "extern \"C\" {\n"
            "__global__ void __launch_bounds__(256, 2) k2(void) { const char* s = \"__global__ "
            "void fake()\"; }\n"
            "}\n"
            "template <typename T, int N>\n"
            "__global__ void k3(T* p, int) {}\n"
            "__global__ void a::b::k1(const float* __restrict__ in, float out[], int n) {}\n";
        const KernelSource ks = KernelSource::scan(src, "s.cu");
        QVERIFY(ks.refusals.empty());
        QCOMPARE(ks.kernels.size(), std::size_t{3});
        QCOMPARE(QString::fromStdString(ks.kernels[0].name), QStringLiteral("a::b::k1"));
        QCOMPARE(ks.kernels[0].line, 3);
        QCOMPARE(ks.kernels[0].paramNames, (std::vector<std::string>{"in", "out", "n"}));
        QCOMPARE(QString::fromStdString(ks.kernels[1].name), QStringLiteral("k2"));
        QVERIFY(ks.kernels[1].externC);
        QVERIFY(ks.kernels[1].paramNames.empty());
        QCOMPARE(QString::fromStdString(ks.kernels[2].name), QStringLiteral("k3"));
        QVERIFY(ks.kernels[2].isTemplate);
        QCOMPARE(ks.kernels[2].paramNames, (std::vector<std::string>{"p", "param1"}));
        QVERIFY(!ks.needsFibers);
    }

    void detectsBarriersAndConstants()
    {
        const std::string src = "__constant__ float table[16];\n"
                                "namespace n { __constant__ int scale = 2; }\n"
                                "__global__ void k() { __syncwarp(); }\n";
        const KernelSource ks = KernelSource::scan(src, "s.cu");
        QVERIFY(ks.needsFibers);
        QCOMPARE(ks.constants, (std::vector<std::string>{"table", "n::scale"}));
    }

    /// Namespace-scope __device__ variables are module globals too; functions, templates,
    /// extern declarations and locals are not.
    void detectsDeviceVariables()
    {
        const std::string src = "__device__ unsigned int g_count = 0;\n"
                                "__device__ float g_hist[64];\n"
                                "__device__ __constant__ int both[2];\n"
                                "extern __device__ int elsewhere;\n"
                                "__device__ float twice(float x) { return 2 * x; }\n"
                                "__device__ __forceinline__ int one() { return 1; }\n"
                                "template <typename T> __device__ T zero;\n"
                                "namespace ns { __device__ int inner; }\n"
                                "struct S { __device__ int f(); };\n"
                                "__global__ void k() { __shared__ int s; }\n";
        const KernelSource ks = KernelSource::scan(src, "s.cu");
        QCOMPARE(ks.constants,
                 (std::vector<std::string>{"g_count", "g_hist", "both", "ns::inner"}));
    }

    void rewritesKeepLineNumbers()
    {
        const std::string src = "#include <cassert>\n"
                                "__global__ void k(float* o) {\n"
                                "    extern __shared__ __align__(16) float\n"
                                "        smem[];\n"
                                "    static __shared__ int count;\n"
                                "    o[0] = smem[0] + count;\n"
                                "}\n";
        const KernelSource ks = KernelSource::scan(src, "s.cu");
        QCOMPARE(lines(ks.rewritten), lines(src));
        QVERIFY(ks.rewritten.find("static thread_local float (&smem)[] = reinterpret_cast<float "
                                  "(&)[]>(::wbcpu::dynamicShared);") != std::string::npos);
        QVERIFY(ks.rewritten.find("cassert") == std::string::npos);
        QVERIFY(ks.rewritten.find("          __shared__ int count;") != std::string::npos);
        // The rest of the text is untouched, columns included.
        QVERIFY(ks.rewritten.find("    o[0] = smem[0] + count;\n") != std::string::npos);
    }

    // Issue 24: public kernels put the specifiers in any order (cuda-samples' threadFenceReduction
    // writes `extern float __shared__ smem[]`, reductionMultiBlockCG `extern double __shared__`),
    // and align with an expression; each is the same dynamic shared array.
    void dynamicSharedInAnySpecifierOrder()
    {
        const std::string src = "template <class T> __global__ void k(T* o) {\n"
                                "    extern float __shared__ a[];\n"
                                "    extern double __shared__ b[];\n"
                                "    extern __shared__ __align__(sizeof(T)) unsigned char c[];\n"
                                "    extern const __shared__ int d[];\n"
                                "    extern int e[];\n"
                                "}\n";
        const KernelSource ks = KernelSource::scan(src, "s.cu");
        QCOMPARE(lines(ks.rewritten), lines(src));
        for (const char* decl :
             {"float (&a)[]", "double (&b)[]", "unsigned char (&c)[]", "const int (&d)[]"})
            QVERIFY2(ks.rewritten.find(std::string("static thread_local ") + decl) !=
                         std::string::npos,
                     decl);
        // A plain extern array is not shared memory and stays as written.
        QVERIFY(ks.rewritten.find("    extern int e[];\n") != std::string::npos);
    }

    // Issue 15: 50,000-character identifiers in shared declarations and includes overflowed
    // std::regex's stack.
    void longIdentifiersDoNotCrash()
    {
        const std::string id(50'000, 's');
        const std::string src = "#include <" + id + ">\n#include <cooperative_groups/" + id +
                                ".h>\n__global__ void " + id +
                                "(float* o) {\n"
                                "    extern __shared__ " +
                                id + " " + id +
                                "[];\n"
                                "    static __shared__ " +
                                id +
                                " c;\n"
                                "}\n";
        const KernelSource ks = KernelSource::scan(src, "s.cu");
        QCOMPARE(lines(ks.rewritten), lines(src));
        QVERIFY(ks.rewritten.find("static thread_local " + id + " (&" + id + ")[]") !=
                std::string::npos);
        QVERIFY(ks.rewritten.find("      __shared__ " + id + " c;") != std::string::npos);
        QCOMPARE(ks.refusals.size(), std::size_t{1});
        QCOMPARE(ks.refusals[0].line, 2);
        QCOMPARE(ks.refusals[0].column, 11);
    }

    void unterminatedSharedDeclarationsStayLinear()
    {
        std::string src;
        for (int i = 0; i < 20'000; ++i)
            src += "extern __shared__ float a ";
        QElapsedTimer timer;
        timer.start();
        const KernelSource ks = KernelSource::scan(src, "s.cu");
        QVERIFY2(timer.elapsed() < 5'000, QByteArray::number(timer.elapsed()));
        QCOMPARE(ks.rewritten, src);
    }

    void refusalsPointAtTheConstruct()
    {
        const std::string src = "__global__ void k(int* p)\n"
                                "{\n"
                                "    /* asm in a comment is fine */ int x = 0;\n"
                                "    asm volatile(\"\" ::: \"memory\");\n"
                                "}\n";
        const KernelSource ks = KernelSource::scan(src, "s.cu");
        // Inside a kernel: that kernel is refused, not the file, and its text goes.
        QVERIFY(ks.refusals.empty());
        QCOMPARE(ks.kernels.size(), std::size_t{1});
        const auto& refusals = ks.kernels[0].refusals;
        QCOMPARE(refusals.size(), std::size_t{1});
        QCOMPARE(refusals[0].line, 4);
        QCOMPARE(refusals[0].column, 5);
        QCOMPARE(QString::fromStdString(refusals[0].file), QStringLiteral("s.cu"));
        QCOMPARE(lines(ks.rewritten), lines(src));
        QVERIFY(ks.rewritten.find("asm") == std::string::npos);
    }
    // Issue 24 part 7: a forward declaration with other parameter names comes first; binding
    // uses the names of the definition, whose body uses them.
    void definitionNamesTheParameters()
    {
        const std::string src =
            "__global__ void Fan1(float *m, float *a, int Size, int t);\n"
            "__global__ void Fan1(float *m_cuda, float *a_cuda, int Size, int t)\n"
            "{ m_cuda[t] = a_cuda[Size]; }\n";
        const KernelSource ks = KernelSource::scan(src, "s.cu");
        QCOMPARE(ks.kernels.size(), std::size_t{1});
        QCOMPARE(ks.kernels[0].paramNames,
                 (std::vector<std::string>{"m_cuda", "a_cuda", "Size", "t"}));
        QVERIFY(ks.kernels[0].defined);
        // Trace mode rewrites both, so that they stay one function.
        const std::string traced = KernelSource::withTracedPointers(src);
        QCOMPARE(lines(traced), lines(src));
        QVERIFY(traced.find("float *m,") == std::string::npos);
        QVERIFY(traced.find("float *m_cuda") == std::string::npos);
        QCOMPARE(std::count(traced.begin(), traced.end(), '<'), 4); // traced_ptr<float> x4
    }

    // Issue 24 part 7: texture<> in a group that is not compiled refuses nothing; elsewhere it
    // refuses the kernels that use it, not the file.
    void texturesAfterConditionalCompilation_data()
    {
        QTest::addColumn<QString>("prefix");
        QTest::addColumn<bool>("refused");
        QTest::newRow("#ifdef undefined") << "" << false;
        QTest::newRow("#define before") << "#define USE_TEXTURE\n" << true;
        QTest::newRow("#define 0 and #if") << "#define USE_TEXTURE 0\n" << true; // #ifdef: defined
    }
    void texturesAfterConditionalCompilation()
    {
        QFETCH(QString, prefix);
        QFETCH(bool, refused);
        const std::string src =
            prefix.toStdString() +
            "#ifdef USE_TEXTURE\n"
            "texture<float, 1, cudaReadModeElementType> texData;\n"
            "__global__ void viaTexture(float* out) { out[0] = tex1Dfetch(texData, "
            "0); }\n"
            "#else\n"
            "__global__ void viaTexture(float* out) { out[0] = 1.0f; }\n"
            "#endif\n"
            "__global__ void plain(float* out) { out[1] = 2.0f; }\n";
        const KernelSource ks = KernelSource::scan(src, "s.cu");
        QVERIFY(ks.refusals.empty());
        QCOMPARE(ks.kernels.size(), std::size_t{2});
        QCOMPARE(ks.kernels[0].name, std::string("viaTexture"));
        QCOMPARE(ks.kernels[0].refusals.empty(), !refused);
        QVERIFY(ks.kernels[1].refusals.empty());
        QCOMPARE(lines(ks.rewritten), lines(src));
        if (refused) {
            QCOMPARE(ks.kernels[0].refusals[0].line, 4); // tex1Dfetch, after the #define

            QVERIFY(ks.kernels[0].refusals[0].message.find("textures") != std::string::npos);
            // The reference and the refused kernel's definition are gone from the compiled text.
            QVERIFY(ks.rewritten.find("texData") == std::string::npos);
        }
    }

    /// A macro another header defines may or may not be defined here: an include guard must
    /// not hide the header's own kernels.
    void macrosOfOtherFilesAreUnknown()
    {
        const std::string header = "#ifndef SCALARPROD_CUH\n#define SCALARPROD_CUH\n"
                                   "__global__ void k(float* p) {}\n#endif\n";
        const KernelSource ks =
            KernelSource::scan(header, "s.cuh", {{"SCALARPROD_CUH", KernelSource::kUnknownMacro}});
        QCOMPARE(ks.kernels.size(), std::size_t{1});
        const KernelSource viaDefined = KernelSource::scan(
            "#if defined(USE_X)\n__global__ void a() {}\n#else\n__global__ void b() {}\n#endif\n",
            "s.cu", {{"USE_X", KernelSource::kUnknownMacro}});
        QCOMPARE(viaDefined.kernels.size(), std::size_t{2});
    }

    void conditionsFollowDefinesAndMacros()
    {
        const std::string src = "#if defined(FAST) && VARIANT >= 2\n"
                                "__global__ void fast(int* p) { asm(\"\"); }\n"
                                "#elif __GNUC__ > 3\n" // unknown to the scan: kept
                                "__global__ void gnu(int* p) {}\n"
                                "#else\n"
                                "__global__ void slow(int* p) {}\n"
                                "#endif\n"
                                "#if 0\n__global__ void never() { asm(\"\"); }\n#endif\n";
        const KernelSource without = KernelSource::scan(src, "s.cu");
        QVERIFY(without.refusals.empty());
        QCOMPARE(without.kernels.size(), std::size_t{2}); // gnu, slow
        QCOMPARE(without.kernels[0].name, std::string("gnu"));
        const KernelSource with =
            KernelSource::scan(src, "s.cu", {{"FAST", "1"}, {"VARIANT", "3"}});
        QCOMPARE(with.kernels.size(), std::size_t{1});
        QCOMPARE(with.kernels[0].name, std::string("fast"));
        QCOMPARE(with.kernels[0].refusals.size(), std::size_t{1});
    }
};

WB_QTEST_GUILESS_MAIN(TestKernelSource)
#include "tst_kernelsource.moc"
