// SPDX-License-Identifier: GPL-3.0-or-later
// Probe: CUPTI PC sampling on a kernel with a known hot loop (NVRTC -lineinfo), plus kernels of
// the matmul_tiled / reduction examples for ncu.
#include <cuda.h>
#include <cupti_pcsampling.h>
#include <cupti_result.h>
#include <nvrtc.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#define CK(x)                                                                                      \
    do {                                                                                           \
        CUresult r_ = (x);                                                                         \
        if (r_ != CUDA_SUCCESS) {                                                                  \
            const char* s_ = nullptr;                                                              \
            cuGetErrorName(r_, &s_);                                                               \
            std::printf("CUDA FAIL %s: %s\n", #x, s_);                                             \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)
#define CP(x)                                                                                      \
    do {                                                                                           \
        CUptiResult r_ = (x);                                                                      \
        if (r_ != CUPTI_SUCCESS) {                                                                 \
            const char* s_ = nullptr;                                                              \
            cuptiGetResultString(r_, &s_);                                                         \
            std::printf("CUPTI FAIL %s: %d %s\n", #x, int(r_), s_ ? s_ : "?");                     \
        }                                                                                          \
    } while (0)

using Clock = std::chrono::steady_clock;
static double ms(Clock::time_point a)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - a).count();
}

static const char* kHot = R"(__global__ void hot(float* x, int n, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    for (int k = 0; k < iters; ++k)
        v = sqrtf(v * 1.0001f + 0.5f);
    x[i] = v;
}
)";

static std::string readFile(const std::string& p)
{
    std::ifstream f(p);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

struct Built {
    std::vector<char> cubin;
    std::string ptx;
};

static std::string g_lowered;
static Built compile(const std::string& src, const std::string& name, const std::string& out,
                     const char* kernel = nullptr)
{
    nvrtcProgram prog;
    nvrtcCreateProgram(&prog, src.c_str(), name.c_str(), 0, nullptr, nullptr);
    if (kernel) nvrtcAddNameExpression(prog, kernel);
    // The flags Warpbench's Compiler gives NVRTC for a hotspot profile (lineInfo on).
    const char* opts[] = {"-arch=sm_90",
                          "-std=c++17",
                          "--ptxas-options=-O3",
                          "-lineinfo",
                          "-I/usr/local/cuda/include",
                          "--ptxas-options=-v"};
    auto t = Clock::now();
    nvrtcResult rc = nvrtcCompileProgram(prog, 6, opts);
    std::printf("compile %s: %d (%.1f ms)\n", name.c_str(), int(rc), ms(t));
    size_t logSize = 0;
    nvrtcGetProgramLogSize(prog, &logSize);
    std::string log(logSize, '\0');
    nvrtcGetProgramLog(prog, log.data());
    if (logSize > 1) std::printf("log: %s\n", log.c_str());
    if (kernel) {
        const char* low = nullptr;
        nvrtcGetLoweredName(prog, kernel, &low);
        g_lowered = low ? low : "";
        std::printf("lowered %s -> %s\n", kernel, g_lowered.c_str());
    }
    Built b;
    size_t n = 0;
    nvrtcGetCUBINSize(prog, &n);
    b.cubin.resize(n);
    nvrtcGetCUBIN(prog, b.cubin.data());
    nvrtcGetPTXSize(prog, &n);
    b.ptx.resize(n);
    nvrtcGetPTX(prog, b.ptx.data());
    nvrtcDestroyProgram(&prog);
    std::ofstream(out + ".cubin", std::ios::binary)
        .write(b.cubin.data(), std::streamsize(b.cubin.size()));
    std::ofstream(out + ".ptx") << b.ptx.c_str();
    return b;
}

struct Sampler {
    CUcontext ctx;
    std::vector<std::string> names;
    std::vector<uint32_t> indices;
    CUpti_PCSamplingData data{};
    std::vector<CUpti_PCSamplingPCData> pcs;
    std::vector<std::vector<CUpti_PCSamplingStallReason>> reasons;

    void allocate(CUpti_PCSamplingData& d, std::vector<CUpti_PCSamplingPCData>& p,
                  std::vector<std::vector<CUpti_PCSamplingStallReason>>& r, size_t numPcs)
    {
        p.assign(numPcs, CUpti_PCSamplingPCData{});
        r.assign(numPcs, std::vector<CUpti_PCSamplingStallReason>(names.size()));
        for (size_t i = 0; i < numPcs; ++i) {
            p[i].size = sizeof(CUpti_PCSamplingPCData);
            p[i].stallReason = r[i].data();
        }
        d = {};
        d.size = sizeof(CUpti_PCSamplingData);
        d.collectNumPcs = numPcs;
        d.pPcData = p.data();
    }

    bool enable()
    {
        auto t = Clock::now();
        CUpti_PCSamplingEnableParams e{};
        e.size = CUpti_PCSamplingEnableParamsSize;
        e.ctx = ctx;
        CUptiResult r = cuptiPCSamplingEnable(&e);
        const char* s = nullptr;
        cuptiGetResultString(r, &s);
        std::printf("enable: %d %s (%.2f ms)\n", int(r), s, ms(t));
        if (r != CUPTI_SUCCESS) return false;
        t = Clock::now();
        size_t num = 0;
        CUpti_PCSamplingGetNumStallReasonsParams np{};
        np.size = CUpti_PCSamplingGetNumStallReasonsParamsSize;
        np.ctx = ctx;
        np.numStallReasons = &num;
        CP(cuptiPCSamplingGetNumStallReasons(&np));
        std::vector<char*> raw(num);
        for (auto& c : raw)
            c = static_cast<char*>(std::calloc(CUPTI_STALL_REASON_STRING_SIZE, 1));
        indices.assign(num, 0);
        CUpti_PCSamplingGetStallReasonsParams sp{};
        sp.size = CUpti_PCSamplingGetStallReasonsParamsSize;
        sp.ctx = ctx;
        sp.numStallReasons = num;
        sp.stallReasonIndex = indices.data();
        sp.stallReasons = raw.data();
        CP(cuptiPCSamplingGetStallReasons(&sp));
        names.clear();
        for (size_t i = 0; i < num; ++i) {
            names.push_back(raw[i]);
            std::free(raw[i]);
        }
        std::printf("stall reasons (%zu, %.2f ms):", num, ms(t));
        for (size_t i = 0; i < num; ++i)
            std::printf(" [%u]%s", indices[i], names[i].c_str());
        std::printf("\n");
        return true;
    }

    void configure(uint32_t period, size_t numPcs)
    {
        allocate(data, pcs, reasons, numPcs);
        std::vector<CUpti_PCSamplingConfigurationInfo> info;
        CUpti_PCSamplingConfigurationInfo a{};
        a.attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE;
        a.attributeData.collectionModeData.collectionMode =
            CUPTI_PC_SAMPLING_COLLECTION_MODE_KERNEL_SERIALIZED;
        info.push_back(a);
        a = {};
        a.attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD;
        a.attributeData.samplingPeriodData.samplingPeriod = period;
        info.push_back(a);
        a = {};
        a.attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_STALL_REASON;
        a.attributeData.stallReasonData.stallReasonCount = indices.size();
        a.attributeData.stallReasonData.pStallReasonIndex = indices.data();
        info.push_back(a);
        a = {};
        a.attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER;
        a.attributeData.samplingDataBufferData.samplingDataBuffer = &data;
        info.push_back(a);
        a = {};
        a.attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_ENABLE_START_STOP_CONTROL;
        a.attributeData.enableStartStopControlData.enableStartStopControl = 1;
        info.push_back(a);
        a = {};
        a.attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_OUTPUT_DATA_FORMAT;
        a.attributeData.outputDataFormatData.outputDataFormat =
            CUPTI_PC_SAMPLING_OUTPUT_DATA_FORMAT_PARSED;
        info.push_back(a);
        a = {};
        a.attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SCRATCH_BUFFER_SIZE;
        a.attributeData.scratchBufferSizeData.scratchBufferSize = size_t(4) << 20;
        info.push_back(a);
        a = {};
        a.attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_HARDWARE_BUFFER_SIZE;
        a.attributeData.hardwareBufferSizeData.hardwareBufferSize = size_t(64) << 20;
        info.push_back(a);
        auto t = Clock::now();
        CUpti_PCSamplingConfigurationInfoParams p{};
        p.size = CUpti_PCSamplingConfigurationInfoParamsSize;
        p.ctx = ctx;
        p.numAttributes = info.size();
        p.pPCSamplingConfigurationInfo = info.data();
        CP(cuptiPCSamplingSetConfigurationAttribute(&p));
        for (auto& i : info)
            if (i.attributeStatus != CUPTI_SUCCESS)
                std::printf("  attribute %d status %d\n", int(i.attributeType),
                            int(i.attributeStatus));
        std::printf("configure: %.2f ms\n", ms(t));
    }

    void print(const char* what, CUpti_PCSamplingData& d, const Built& b, const char* fn)
    {
        std::printf("%s: totalSamples=%llu dropped=%llu nonUser=%llu totalNumPcs=%zu remaining=%zu "
                    "rangeId=%llu hwFull=%u\n",
                    what, (unsigned long long)d.totalSamples, (unsigned long long)d.droppedSamples,
                    (unsigned long long)d.nonUsrKernelsTotalSamples, d.totalNumPcs,
                    d.remainingNumPcs, (unsigned long long)d.rangeId,
                    unsigned(d.hardwareBufferFull));
        uint64_t sum = 0;
        std::map<uint32_t, uint64_t> perLine;
        for (size_t i = 0; i < d.totalNumPcs; ++i) {
            const auto& pc = d.pPcData[i];
            uint64_t s = 0;
            std::string rs;
            for (size_t k = 0; k < pc.stallReasonCount; ++k) {
                s += pc.stallReason[k].samples;
                uint32_t idx = pc.stallReason[k].pcSamplingStallReasonIndex;
                std::string nm = "?";
                for (size_t q = 0; q < indices.size(); ++q)
                    if (indices[q] == idx) nm = names[q];
                rs += " " + nm + "=" + std::to_string(pc.stallReason[k].samples);
            }
            sum += s;
            CUpti_GetSassToSourceCorrelationParams c{};
            c.size = CUpti_GetSassToSourceCorrelationParamsSize;
            c.cubin = b.cubin.data();
            c.cubinSize = b.cubin.size();
            c.functionName = pc.functionName ? pc.functionName : fn;
            c.pcOffset = pc.pcOffset;
            CUptiResult r = cuptiGetSassToSourceCorrelation(&c);
            std::printf(
                "  pc fn=%s idx=%u crc=%llx off=0x%llx corr=%u samples=%llu line=%u file=%s "
                "dir=%s (r=%d)%s\n",
                pc.functionName ? pc.functionName : "(null)", pc.functionIndex,
                (unsigned long long)pc.cubinCrc, (unsigned long long)pc.pcOffset, pc.correlationId,
                (unsigned long long)s, c.lineNumber, c.fileName ? c.fileName : "-",
                c.dirName ? c.dirName : "-", int(r), rs.c_str());
            perLine[c.lineNumber] += s;
            std::free(c.fileName);
            std::free(c.dirName);
        }
        std::printf("  sum of PC samples %llu\n", (unsigned long long)sum);
        for (auto& [l, s] : perLine)
            std::printf("  line %u: %llu (%.1f%%)\n", l, (unsigned long long)s,
                        sum ? 100.0 * double(s) / double(sum) : 0.0);
    }

    void startStop(CUfunction f, CUdeviceptr x, int n, int iters, const Built& b, int launches)
    {
        auto t = Clock::now();
        CUpti_PCSamplingStartParams sp{};
        sp.size = CUpti_PCSamplingStartParamsSize;
        sp.ctx = ctx;
        CP(cuptiPCSamplingStart(&sp));
        double tStart = ms(t);
        auto tl = Clock::now();
        for (int l = 0; l < launches; ++l) {
            void* args[] = {&x, &n, &iters};
            CK(cuLaunchKernel(f, unsigned((n + 255) / 256), 1, 1, 256, 1, 1, 0, nullptr, args,
                              nullptr));
        }
        CK(cuCtxSynchronize());
        double tLaunch = ms(tl);
        t = Clock::now();
        CUpti_PCSamplingStopParams st{};
        st.size = CUpti_PCSamplingStopParamsSize;
        st.ctx = ctx;
        CP(cuptiPCSamplingStop(&st));
        double tStop = ms(t);
        t = Clock::now();
        CUpti_PCSamplingData got{};
        std::vector<CUpti_PCSamplingPCData> gp;
        std::vector<std::vector<CUpti_PCSamplingStallReason>> gr;
        allocate(got, gp, gr, 1000);
        CUpti_PCSamplingGetDataParams g{};
        g.size = CUpti_PCSamplingGetDataParamsSize;
        g.ctx = ctx;
        g.pcSamplingData = &got;
        CP(cuptiPCSamplingGetData(&g));
        std::printf("start %.2f ms, launches+sync %.2f ms, stop %.2f ms, getData %.2f ms\n", tStart,
                    tLaunch, tStop, ms(t));
        print("getData", got, b, "hot");
        print("configured buffer", data, b, "hot");
    }

    void disable(const Built& b)
    {
        auto t = Clock::now();
        CUpti_PCSamplingDisableParams d{};
        d.size = CUpti_PCSamplingDisableParamsSize;
        d.ctx = ctx;
        CP(cuptiPCSamplingDisable(&d));
        std::printf("disable %.2f ms\n", ms(t));
        print("after disable, configured buffer", data, b, "hot");
    }
};

static int pcs(const std::string& out, bool loadFirst, uint32_t period, int iters)
{
    Built b = compile(kHot, "hot.cu", out + "/hot", "hot");
    CK(cuInit(0));
    CUdevice dev;
    CK(cuDeviceGet(&dev, 0));
    CUcontext ctx;
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    const int n = 1 << 20;
    CUdeviceptr x;
    CK(cuMemAlloc(&x, n * 4));
    CK(cuMemsetD32(x, 0x3f800000, n));
    CUmodule mod = nullptr;
    CUfunction f = nullptr;
    auto load = [&] {
        CK(cuModuleLoadData(&mod, b.cubin.data()));
        CK(cuModuleGetFunction(&f, mod, g_lowered.c_str()));
    };
    if (loadFirst) {
        load();
        void* args[] = {&x, (void*)&n, &iters};
        CK(cuLaunchKernel(f, n / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
        CK(cuCtxSynchronize());
    }
    Sampler s{ctx};
    auto t = Clock::now();
    if (!s.enable()) return 1;
    s.configure(period, 2000);
    if (!loadFirst) load();
    // plain timing of the kernel
    auto tk = Clock::now();
    {
        void* args[] = {&x, (void*)&n, &iters};
        CK(cuLaunchKernel(f, n / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
        CK(cuCtxSynchronize());
    }
    std::printf("one launch while enabled (not started): %.2f ms\n", ms(tk));
    s.startStop(f, x, n, iters, b, 1);
    s.disable(b);
    std::printf("whole sampling session %.2f ms\n", ms(t));
    // second round: is re-enable in the same context fine?
    std::printf("--- second round (same context)\n");
    t = Clock::now();
    if (s.enable()) {
        s.configure(period, 2000);
        s.startStop(f, x, n, iters, b, 1);
        s.disable(b);
    }
    std::printf("second session %.2f ms\n", ms(t));
    return 0;
}

static int runExample(const std::string& which, int launches)
{
    CK(cuInit(0));
    CUdevice dev;
    CK(cuDeviceGet(&dev, 0));
    CUcontext ctx;
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    std::string dir = "resources/examples/" + which + "/";
    std::string file = which + ".cu";
    Built b = compile(readFile(dir + file), file, "/tmp/" + which,
                      which == "matmul_tiled" ? "matmul_tiled" : "block_sum");
    CUmodule mod;
    CK(cuModuleLoadData(&mod, b.cubin.data()));
    CUfunction f;
    if (which == "matmul_tiled") {
        int n = 200;
        CK(cuModuleGetFunction(&f, mod, g_lowered.c_str()));
        std::vector<float> h(size_t(n) * n);
        for (size_t i = 0; i < h.size(); ++i)
            h[i] = float((i * 2654435761u) % 1000) / 500.f - 1.f;
        CUdeviceptr A, B, C;
        CK(cuMemAlloc(&A, h.size() * 4));
        CK(cuMemAlloc(&B, h.size() * 4));
        CK(cuMemAlloc(&C, h.size() * 4));
        CK(cuMemcpyHtoD(A, h.data(), h.size() * 4));
        CK(cuMemcpyHtoD(B, h.data(), h.size() * 4));
        void* args[] = {&A, &B, &C, &n};
        for (int l = 0; l < launches; ++l)
            CK(cuLaunchKernel(f, 13, 13, 1, 16, 16, 1, 0, nullptr, args, nullptr));
    } else {
        int n = 65536;
        CK(cuModuleGetFunction(&f, mod, g_lowered.c_str()));
        std::vector<float> h(size_t(n), 0.5f);
        CUdeviceptr in, p;
        CK(cuMemAlloc(&in, h.size() * 4));
        CK(cuMemAlloc(&p, 256 * 4));
        CK(cuMemcpyHtoD(in, h.data(), h.size() * 4));
        void* args[] = {&in, &p, &n};
        for (int l = 0; l < launches; ++l)
            CK(cuLaunchKernel(f, 256, 1, 1, 256, 1, 1, 1024, nullptr, args, nullptr));
    }
    CK(cuCtxSynchronize());
    std::printf("ran %s %d time(s)\n", which.c_str(), launches);
    return 0;
}

int main(int argc, char** argv)
{
    std::string mode = argc > 1 ? argv[1] : "pcs";
    if (mode == "pcs")
        return pcs(argv[2], std::string(argv[3]) == "loadfirst", uint32_t(std::atoi(argv[4])),
                   std::atoi(argv[5]));
    if (mode == "run") return runExample(argv[2], argc > 3 ? std::atoi(argv[3]) : 1);
    if (mode == "compile") {
        compile(readFile(argv[2]), argv[3], argv[4]);
        return 0;
    }
    return 2;
}
