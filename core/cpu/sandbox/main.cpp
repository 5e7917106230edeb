// SPDX-License-Identifier: GPL-3.0-or-later
// warpbench-cpu-sandbox: runs one launch of a sanitizer-instrumented kernel library for the CPU
// emulator's bounds-checked mode, in its own process (libasan preloaded by the parent).
// Request: a text file written by core/cpu/detail/Sandbox.cpp. Buffers are copied into
// heap blocks of their exact size, so AddressSanitizer's redzones sit right behind them.
// Race-check mode ("races 1"): the library is ThreadSanitizer-instrumented and the accesses go
// to the RaceDetector (TsanHooks.cpp), which watches the buffers and the block's shared memory.
#include "core/common/DynamicLibrary.h"
#include "core/common/Sandbox.h"
#include "core/cpu/detail/BlockRunner.h"
#include "core/cpu/detail/DebugRecord.h"
#include "core/cpu/detail/RaceDetector.h"
#include "core/debug/DebugTarget.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace abi = wbcpu::abi;

namespace {

const abi::ModuleDesc* g_module = nullptr;

void reportCurrentThread()
{
    if (!g_module) return;
    const abi::ThreadState* st = g_module->currentThread();
    if (!st) return;
    std::fprintf(stderr, "WB-SANDBOX at block=(%u,%u,%u) thread=(%u,%u,%u)\n", st->blockIndex.x,
                 st->blockIndex.y, st->blockIndex.z, st->threadIndex.x, st->threadIndex.y,
                 st->threadIndex.z);
    std::fflush(stderr);
}

std::vector<unsigned char> unhex(const std::string& s)
{
    std::vector<unsigned char> out;
    if (s == "-") return out;
    for (std::size_t i = 0; i + 1 < s.size(); i += 2)
        out.push_back(static_cast<unsigned char>(std::stoul(s.substr(i, 2), nullptr, 16)));
    return out;
}

int fail(const std::string& why)
{
    std::printf("WB-SANDBOX error %s\n", why.c_str());
    return 3;
}

// Race-check mode: the host tells the detector which emulated thread runs whenever it hands
// control to one, and a barrier a thread passed starts its next phase.
int (*g_blockSync)(abi::ThreadState*, int, int, const char*, unsigned) = nullptr;
unsigned long long (*g_warpOp)(abi::ThreadState*, int, unsigned, unsigned long long, int, int,
                               const char*, const char*, unsigned) = nullptr;
abi::RunThreadFn g_runThread = nullptr;

int blockSyncTracked(abi::ThreadState* st, int op, int predicate, const char* file, unsigned line)
{
    // A tile's sync() is not a barrier of the block: the detector hears of it from the host
    // (LaunchState::tileSynced), and the block's threads keep their phase.
    const bool barrier = op != abi::SyncTile;
    if (auto* d = wb::cpu::detail::RaceDetector::active; d && barrier) d->barrierArriving(st);
    const int r = g_blockSync(st, op, predicate, file, line);
    if (auto* d = wb::cpu::detail::RaceDetector::active) {
        d->setCurrent(st);
        if (barrier) d->barrierPassed(st);
        if (op == abi::SyncGrid) d->gridPassed(st);
    }
    return r;
}
unsigned long long warpOpTracked(abi::ThreadState* st, int op, unsigned mask,
                                 unsigned long long value, int param, int width, const char* what,
                                 const char* file, unsigned line)
{
    const unsigned long long r = g_warpOp(st, op, mask, value, param, width, what, file, line);
    if (auto* d = wb::cpu::detail::RaceDetector::active) d->setCurrent(st);
    return r;
}
int runThreadTracked(void** args, abi::ThreadState* st)
{
    if (auto* d = wb::cpu::detail::RaceDetector::active) d->setCurrent(st);
    const int r = g_runThread(args, st);
    if (auto* d = wb::cpu::detail::RaceDetector::active) d->setCurrent(nullptr);
    return r;
}

/// The load bias and this thread's TLS block of the loaded library that contains `code`.
struct LoadedLibrary {
    const void* code = nullptr;
    std::uintptr_t bias = 0;
    void* tls = nullptr;
    std::size_t tlsSize = 0;
};
int findLibrary(dl_phdr_info* info, std::size_t, void* data)
{
    auto* lib = static_cast<LoadedLibrary*>(data);
    const auto code = reinterpret_cast<std::uintptr_t>(lib->code);
    bool contains = false;
    std::size_t tlsSize = 0;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr)& ph = info->dlpi_phdr[i];
        if (ph.p_type == PT_LOAD && code >= info->dlpi_addr + ph.p_vaddr &&
            code < info->dlpi_addr + ph.p_vaddr + ph.p_memsz)
            contains = true;
        if (ph.p_type == PT_TLS) tlsSize = ph.p_memsz;
    }
    if (!contains) return 0;
    lib->bias = info->dlpi_addr;
    lib->tls = info->dlpi_tls_data;
    lib->tlsSize = tlsSize;
    return 1;
}

} // namespace

// Sanitizer hooks: say which emulated thread was running when a report starts.
extern "C" void __asan_on_error()
{
    reportCurrentThread();
}
extern "C" void __ubsan_on_report()
{
    reportCurrentThread();
}

int main(int argc, char** argv)
{
    if (argc >= 2 && std::strcmp(argv[1], "--prepare-debug") == 0)
        return wb::debug::prepareDebugMain(argc, argv);
    // --debug: run under the thread debugger (core/debug): every kernel in fiber mode, so each
    // thread has its own frame; the debug record on; and never outlive the debugger.
    const bool debug = argc == 3 && std::strcmp(argv[1], "--debug") == 0;
    if (argc != 2 && !debug) return fail("usage: warpbench-cpu-sandbox [--debug] REQUEST");
    if (debug) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        wb_cpu_debug_enabled = 1;
    }
    std::ifstream in(argv[argc - 1]);
    std::string library, kernel;
    unsigned dims[7] = {};
    struct Buffer {
        std::size_t size = 0;
        std::string file;
        unsigned char* data = nullptr;
        int fd = -1;
    };
    std::vector<Buffer> buffers;
    std::vector<std::pair<unsigned, std::pair<unsigned, std::size_t>>> pointerArgs;
    std::vector<std::pair<unsigned, std::vector<unsigned char>>> rawArgs;
    std::vector<std::pair<std::string, std::vector<unsigned char>>> constants;
    std::vector<std::pair<unsigned, std::string>> constantFiles; ///< written back after the run
    bool races = false;
    bool cooperative = false;
    std::uint64_t schedule = 0;
    struct SharedVar {
        std::size_t offset = 0, size = 0;
    };
    std::vector<SharedVar> sharedVars;
    for (std::string line; std::getline(in, line);) {
        std::istringstream ls(line);
        std::string what;
        ls >> what;
        if (what == "library")
            ls >> library;
        else if (what == "kernel")
            std::getline(ls >> std::ws, kernel);
        else if (what == "dims")
            for (unsigned& d : dims)
                ls >> d;
        else if (what == "buffer") {
            unsigned i = 0;
            Buffer b;
            ls >> i >> b.size >> b.file;
            if (buffers.size() <= i) buffers.resize(i + 1);
            buffers[i] = b;
        } else if (what == "argptr") {
            unsigned i = 0, b = 0;
            std::size_t off = 0;
            ls >> i >> b >> off;
            pointerArgs.push_back({i, {b, off}});
        } else if (what == "argraw") {
            unsigned i = 0;
            std::string h;
            ls >> i >> h;
            rawArgs.push_back({i, unhex(h)});
        } else if (what == "const") {
            std::string name, h;
            ls >> name >> h;
            constants.push_back({name, unhex(h)});
        } else if (what == "constout") {
            unsigned c = 0;
            std::string file;
            ls >> c;
            std::getline(ls >> std::ws, file);
            constantFiles.push_back({c, file});
        } else if (what == "races")
            ls >> races;
        else if (what == "schedule")
            ls >> schedule;
        else if (what == "cooperative")
            ls >> cooperative;
        else if (what == "sharedvar") {
            SharedVar v;
            ls >> v.offset >> v.size;
            sharedVars.push_back(v);
        }
    }
    // Loading runs no code of the library (DeferredInit); its code runs sealed, below.
    wb::DynamicLibrary lib = wb::DynamicLibrary::open({library});
    if (!lib) return fail("cannot load " + library + ": " + lib.error());
    auto moduleFn = lib.function<wb_cpu_module_fn>("wb_cpu_module");
    if (!moduleFn) return fail(library + " has no wb_cpu_module");
    // Everything this process reads or writes is opened now: the buffers come in from their
    // files and go back to them after the launch, through descriptors opened before sealing.
    for (Buffer& b : buffers) {
        if (b.file.empty()) continue;
        b.data = static_cast<unsigned char*>(std::malloc(b.size ? b.size : 1));
        std::ifstream f(b.file, std::ios::binary);
        f.read(reinterpret_cast<char*>(b.data), static_cast<std::streamsize>(b.size));
        b.fd = ::open(b.file.c_str(), O_WRONLY | O_CLOEXEC);
        if (b.fd < 0) return fail("cannot open " + b.file + " for the results");
    }
    // The module globals go back the same way (a __device__ counter the host reads).
    std::vector<int> constantFds;
    for (const auto& cf : constantFiles) {
        const int fd = ::open(cf.second.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd < 0) return fail("cannot open " + cf.second + " for the module globals");
        constantFds.push_back(fd);
    }
    try {
        wb::sandbox::setActivity("kernel", "kernel '" + kernel + "'");
        // Bounds-checked (AddressSanitizer preloaded): its reports read debug information.
        wb::sandbox::seal(/*allowReadingFiles=*/!races && !debug);
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    lib.runDeferredInit();
    g_module = moduleFn();
    const abi::KernelDesc* kd = nullptr;
    for (unsigned i = 0; i < g_module->kernelCount; ++i)
        if (kernel == g_module->kernels[i].name) kd = &g_module->kernels[i];
    if (!kd) return fail("no kernel '" + kernel + "' in " + library);
    for (const auto& [name, bytes] : constants) {
        bool set = false;
        for (unsigned i = 0; i < g_module->constantCount; ++i)
            if (name == g_module->constants[i].name) {
                if (bytes.size() > g_module->constants[i].size)
                    return fail("__constant__ '" + name + "' is smaller than the data given");
                std::memcpy(g_module->constants[i].address, bytes.data(), bytes.size());
                set = true;
            }
        if (!set) return fail("no __constant__ variable '" + name + "'");
    }
    std::vector<std::vector<unsigned char>> storage(kd->paramCount);
    for (auto& [i, bytes] : rawArgs)
        if (i < storage.size()) storage[i] = bytes;
    for (auto& [i, where] : pointerArgs) {
        if (i >= storage.size() || where.first >= buffers.size()) continue;
        const auto addr = reinterpret_cast<std::uint64_t>(buffers[where.first].data) + where.second;
        storage[i].resize(8);
        std::memcpy(storage[i].data(), &addr, 8);
    }
    std::vector<void*> args;
    for (auto& s : storage)
        args.push_back(s.data());

    wb::cpu::detail::LaunchState state;
    state.kernel = kernel;
    state.grid = {dims[0], dims[1], dims[2]};
    state.block = {dims[3], dims[4], dims[5]};
    state.cooperative = cooperative;
    if (cooperative && debug)
        return fail("a cooperative launch (grid.sync()) cannot run under the thread debugger, "
                    "which runs one block at a time; debug it without \"cooperative\"");
    wb::cpu::detail::HostRuntime runtime{};
    wb::cpu::detail::initRuntime(runtime, state);
    wb::cpu::detail::BlockRunner runner(1024 * 1024); // sanitized frames are larger
    runner.setSchedule(schedule);
    abi::ThreadState base{};
    base.blockSize = state.block;
    base.gridSize = state.grid;
    base.rt = &runtime.rt;

    std::unique_ptr<wb::cpu::detail::RaceDetector> detector;
    abi::KernelDesc tracked{};
    if (races) {
        LoadedLibrary loaded;
        loaded.code = reinterpret_cast<const void*>(moduleFn);
        g_module->dynamicSharedBuffer(); // allocates the library's TLS block on this thread
        dl_iterate_phdr(&findLibrary, &loaded);
        detector = std::make_unique<wb::cpu::detail::RaceDetector>(loaded.bias, state.block,
                                                                   state.grid, 256, cooperative);
        state.warpSynced = [d = detector.get()](unsigned warpBase, unsigned mask) {
            d->warpSynced(warpBase, mask);
        };
        state.tileSynced = [d = detector.get()](unsigned first, unsigned count) {
            d->tileSynced(first, count);
        };
        for (std::size_t i = 0; i < buffers.size(); ++i)
            if (buffers[i].data)
                detector->addRegion(buffers[i].data, buffers[i].size, static_cast<int>(i), false);
        for (std::size_t i = 0; i < sharedVars.size(); ++i)
            if (loaded.tls && sharedVars[i].offset + sharedVars[i].size <= loaded.tlsSize)
                detector->addRegion(static_cast<unsigned char*>(loaded.tls) + sharedVars[i].offset,
                                    sharedVars[i].size, static_cast<int>(1000 + i), true);
        g_blockSync = runtime.rt.blockSync;
        runtime.rt.blockSync = &blockSyncTracked;
        g_warpOp = runtime.rt.warpOp;
        runtime.rt.warpOp = &warpOpTracked;
        g_runThread = kd->runThread;
        tracked = *kd;
        tracked.runThread = &runThreadTracked;
        kd = &tracked;
        wb::cpu::detail::RaceDetector::active = detector.get();
    }
    const auto started = std::chrono::steady_clock::now();
    const std::uint64_t blocks = std::uint64_t{dims[0]} * dims[1] * dims[2];
    const auto blockIndexOf = [&](std::uint64_t b) {
        return abi::Dim{static_cast<unsigned>(b % dims[0]),
                        static_cast<unsigned>((b / dims[0]) % dims[1]),
                        static_cast<unsigned>(b / (std::uint64_t{dims[0]} * dims[1]))};
    };
    if (cooperative) {
        // Every block at once, each on its own OS thread (its own __shared__ instance), but one
        // at a time: a block runs until it waits at grid.sync() or ends, then hands over. The
        // race detector and the sanitizers see one thread at a time, as in the loop below.
        std::mutex baton;
        state.gridWaiting = [&baton](bool waiting) {
            if (waiting)
                baton.unlock();
            else
                baton.lock();
        };
        const auto runCooperativeBlock = [&](std::uint64_t b) {
            std::lock_guard hold(baton);
            abi::ThreadState st = base;
            st.blockIndex = blockIndexOf(b);
            st.dynamicShared = g_module->dynamicSharedBuffer();
            if (detector) { // this OS thread's instance of the block's shared memory
                LoadedLibrary loaded;
                loaded.code = reinterpret_cast<const void*>(moduleFn);
                dl_iterate_phdr(&findLibrary, &loaded);
                for (std::size_t i = 0; i < sharedVars.size(); ++i)
                    if (loaded.tls && sharedVars[i].offset + sharedVars[i].size <= loaded.tlsSize)
                        detector->addRegion(static_cast<unsigned char*>(loaded.tls) +
                                                sharedVars[i].offset,
                                            sharedVars[i].size, static_cast<int>(1000 + i), true);
            }
            try {
                wb::cpu::detail::BlockRunner blockRunner(1024 * 1024);
                blockRunner.setSchedule(schedule);
                blockRunner.run(*kd, args.data(), st);
            } catch (const std::exception& e) {
                state.setError("kernel '" + kernel + "', block " +
                               wb::cpu::detail::formatDim(st.blockIndex) + ": " + e.what());
            }
            state.blockExited(st.blockIndex);
        };
        std::vector<std::thread> threads;
        for (std::uint64_t b = 0; b < blocks; ++b)
            threads.emplace_back(runCooperativeBlock, b);
        for (std::thread& t : threads)
            t.join();
    }
    for (std::uint64_t i = 0; i < blocks && !state.failed && !cooperative; ++i) {
        const std::uint64_t b = wb::cpu::detail::scheduledBlock(schedule, i, blocks);
        abi::ThreadState st = base;
        st.blockIndex = blockIndexOf(b);
        st.dynamicShared = g_module->dynamicSharedBuffer();
        if (detector) detector->startBlock();
        if (kd->needsFibers || schedule || debug)
            runner.run(*kd, args.data(), st);
        else if (kd->runBlock(args.data(), &st, b, 1) != 0 && !state.failed)
            state.setError("kernel '" + kernel + "' stopped in block " +
                           wb::cpu::detail::formatDim(st.blockIndex));
    }
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
            .count();
    wb::cpu::detail::RaceDetector::active = nullptr;
    if (detector) detector->print(stdout);
    if (state.failed) return fail(state.error);
    // Through descriptors opened before sealing: false when a write fails.
    const auto writeAll = [](int fd, const void* data, std::size_t size) {
        const char* p = static_cast<const char*>(data);
        while (size > 0) {
            const ssize_t n = ::write(fd, p, size);
            if (n <= 0) return false;
            p += n;
            size -= static_cast<std::size_t>(n);
        }
        return true;
    };
    for (Buffer& b : buffers) {
        if (!b.data) continue;
        if (!writeAll(b.fd, b.data, b.size)) return fail("cannot write the results to " + b.file);
        ::close(b.fd);
        std::free(b.data);
    }
    // Module globals as the kernel left them (a __device__ counter), for the host to read.
    for (std::size_t k = 0; k < constantFiles.size(); ++k) {
        const auto& [c, file] = constantFiles[k];
        if (c < constants.size())
            for (unsigned i = 0; i < g_module->constantCount; ++i) {
                if (constants[c].first != g_module->constants[i].name) continue;
                if (!writeAll(constantFds[k], g_module->constants[i].address,
                              constants[c].second.size()))
                    return fail("cannot write the module globals to " + file);
            }
        ::close(constantFds[k]);
    }
    std::printf("WB-SANDBOX ok %.6f\n", ms);
    return 0;
}
