// SPDX-License-Identifier: GPL-3.0-or-later
// warpbench-cpu-sandbox: runs one launch of a sanitizer-instrumented kernel library for the CPU
// emulator's bounds-checked mode, in its own process (libasan preloaded by the parent).
// Request: a text file written by core/cpu/detail/Sandbox.cpp. Buffers are copied into
// heap blocks of their exact size, so AddressSanitizer's redzones sit right behind them.
// Race-check mode ("races 1"): the library is ThreadSanitizer-instrumented and the accesses go
// to the RaceDetector (TsanHooks.cpp), which watches the buffers and the block's shared memory.
// The blocks run on "workers N" threads; a launch whose parallel run found a race in global
// memory runs again on one thread from the same inputs, so that the reported list does not
// depend on how the workers interleaved.
// --serve: race-check launches one after another from the host (core/cpu/detail/
// SandboxServer.cpp) on descriptor 3, the buffers inline, the library loaded and the process
// sealed once (see runServer).
#include "core/common/DynamicLibrary.h"
#include "core/common/Sandbox.h"
#include "core/cpu/detail/BlockRunner.h"
#include "core/cpu/detail/DebugRecord.h"
#include "core/cpu/detail/RaceDetector.h"
#include "core/cpu/detail/ThreadPool.h"
#include "core/debug/DebugTarget.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <ucontext.h>
#include <unistd.h>

#include <csignal>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace abi = wbcpu::abi;

namespace {

const abi::ModuleDesc* g_module = nullptr;

// Race-checked launches of the served sandbox (runServer): each buffer lies in its own mapping
// between inaccessible guard areas; an access past either end is caught before it happens
// (RaceDetector::addGuard), any other fault of the kernel's code by a signal handler. Either
// ends the launch with the races found so far, a "WB-RACE-FAULT" line and the error line.
constexpr std::size_t kGuardBefore = std::size_t{1} << 16;
constexpr std::size_t kGuardAfter = std::size_t{1} << 20;
constexpr std::size_t kPage = 4096;
bool g_guarded = false;         ///< buffers come from guardedBuffer()
std::FILE* g_raceOut = nullptr; ///< where the race lines and the answer go
std::atomic_flag g_faulting = ATOMIC_FLAG_INIT;

std::size_t guardedBytes(std::size_t size)
{
    return (std::max<std::size_t>(size, 1) + kPage - 1) / kPage * kPage;
}

/// A buffer of `size` bytes at kGuardBefore into a mapping of guardedBytes(size) + the guards,
/// or nullptr.
unsigned char* guardedBuffer(std::size_t size)
{
    const std::size_t total = kGuardBefore + guardedBytes(size) + kGuardAfter;
    void* map = mmap(nullptr, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map == MAP_FAILED) return nullptr;
    unsigned char* data = static_cast<unsigned char*>(map) + kGuardBefore;
    if (mprotect(data, guardedBytes(size), PROT_READ | PROT_WRITE) != 0) {
        munmap(map, total);
        return nullptr;
    }
    return data;
}

void freeGuarded(unsigned char* data, std::size_t size)
{
    if (data) munmap(data - kGuardBefore, kGuardBefore + guardedBytes(size) + kGuardAfter);
}

[[noreturn]] void reportFault(const wb::cpu::detail::RaceDetector& d,
                              const wb::cpu::detail::RaceDetector::Fault& f, const char* what)
{
    if (g_faulting.test_and_set()) // another worker reports: the process ends with its report
        for (;;)
            ::pause();
    std::FILE* out = g_raceOut ? g_raceOut : stdout;
    // The shared-memory accesses this worker held for the end of their barrier interval: no
    // more of the interval will run.
    if (wb::cpu::detail::RaceDetector* active = wb::cpu::detail::RaceDetector::active)
        active->finishHere();
    d.printReports(out);
    std::fprintf(out, "WB-RACE-FAULT %d %lld %zu %d %u %u %u %u %u %u %u %llu\n", f.region,
                 static_cast<long long>(f.offset), f.size, f.write ? 1 : 0, f.pc, f.block.x,
                 f.block.y, f.block.z, f.thread.x, f.thread.y, f.thread.z,
                 static_cast<unsigned long long>(f.address));
    std::fprintf(out, "WB-SANDBOX error %s\n", what);
    std::fflush(out);
    ::_exit(3);
}

void outOfBounds(const wb::cpu::detail::RaceDetector& d,
                 const wb::cpu::detail::RaceDetector::Fault& f)
{
    reportFault(d, f, "out-of-bounds access");
}

/// SIGSEGV or SIGBUS while a race-checked launch runs: the faulting instruction and thread.
void onFault(int sig, siginfo_t* info, void* context)
{
    const wb::cpu::detail::RaceDetector* d = wb::cpu::detail::RaceDetector::active;
    if (!d) {
        std::signal(sig, SIG_DFL);
        std::raise(sig);
        return;
    }
    wb::cpu::detail::RaceDetector::Fault f;
    f.address = reinterpret_cast<std::uintptr_t>(info->si_addr);
#if defined(__x86_64__)
    const auto* uc = static_cast<const ucontext_t*>(context);
    const auto rip = static_cast<std::uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
    // +1: report lines are looked up at pc - 1 (the call of a hook); this is the instruction.
    f.pc = static_cast<std::uint32_t>(rip - d->libraryBase() + 1);
    f.write = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#else
    static_cast<void>(context);
#endif
    d->currentThread(f.block, f.thread);
    d->locate(f);
    reportFault(*d, f, sig == SIGBUS ? "SIGBUS (bus error)" : "SIGSEGV (invalid address)");
}

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

/// The writable data of the kernel library (its __device__ and __constant__ variables and the
/// prelude's own state), kept to put back before a launch runs again. The RELRO part, read-only
/// after loading, is left out.
class WritableData {
public:
    explicit WritableData(const void* code)
        : m_code(reinterpret_cast<std::uintptr_t>(code))
    {
        dl_iterate_phdr(&collect, this);
    }
    void restore() const
    {
        for (const auto& [at, bytes] : m_ranges)
            std::memcpy(reinterpret_cast<void*>(at), bytes.data(), bytes.size());
    }

private:
    static int collect(dl_phdr_info* info, std::size_t, void* data);
    std::uintptr_t m_code;
    std::vector<std::pair<std::uintptr_t, std::vector<unsigned char>>> m_ranges;
};

int WritableData::collect(dl_phdr_info* info, std::size_t, void* data)
{
    auto* self = static_cast<WritableData*>(data);
    const std::uintptr_t code = self->m_code;
    bool contains = false;
    std::uintptr_t relroBegin = 0, relroEnd = 0;
    const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr)& ph = info->dlpi_phdr[i];
        if (ph.p_type == PT_LOAD && code >= info->dlpi_addr + ph.p_vaddr &&
            code < info->dlpi_addr + ph.p_vaddr + ph.p_memsz)
            contains = true;
        if (ph.p_type == PT_GNU_RELRO) { // made read-only in whole pages by the loader
            relroBegin = (info->dlpi_addr + ph.p_vaddr) & ~(page - 1);
            relroEnd = (info->dlpi_addr + ph.p_vaddr + ph.p_memsz) & ~(page - 1);
        }
    }
    if (!contains) return 0;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr)& ph = info->dlpi_phdr[i];
        if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_W)) continue;
        std::uintptr_t begin = info->dlpi_addr + ph.p_vaddr;
        const std::uintptr_t end = begin + ph.p_memsz;
        if (begin >= relroBegin && begin < relroEnd) begin = std::min(end, relroEnd);
        if (begin >= end) continue;
        const auto* p = reinterpret_cast<const unsigned char*>(begin);
        self->m_ranges.push_back({begin, std::vector<unsigned char>(p, p + (end - begin))});
    }
    return 1;
}

/// One launch as the host asks for it (the request file's or the server's lines).
struct Request {
    std::string library, kernel;
    unsigned dims[7] = {};
    struct Buffer {
        std::size_t size = 0;
        std::string file; ///< "-": the bytes follow the request (--serve)
        bool present = false;
    };
    std::vector<Buffer> buffers;
    std::vector<std::pair<unsigned, std::pair<unsigned, std::size_t>>> pointerArgs;
    std::vector<std::pair<unsigned, std::vector<unsigned char>>> rawArgs;
    std::vector<std::pair<std::string, std::vector<unsigned char>>> constants;
    std::vector<std::pair<unsigned, std::string>> constantFiles; ///< written back after the run
    bool races = false;
    bool cooperative = false;
    std::uint64_t schedule = 0;
    int workers = 1;
    struct SharedVar {
        std::size_t offset = 0, size = 0;
    };
    std::vector<SharedVar> sharedVars;

    /// One line of the request; false for "run" (the end of a served request).
    bool parse(const std::string& line)
    {
        std::istringstream ls(line);
        std::string what;
        ls >> what;
        if (what == "run") return false;
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
            b.present = true;
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
        else if (what == "workers")
            ls >> workers;
        else if (what == "sharedvar") {
            SharedVar v;
            ls >> v.offset >> v.size;
            sharedVars.push_back(v);
        }
        return true;
    }
};

/// The worker threads and their fiber runners, kept between the launches of a server.
struct Workers {
    std::unique_ptr<wb::cpu::detail::ThreadPool> pool;
    std::vector<std::unique_ptr<wb::cpu::detail::BlockRunner>> runners;

    void resize(int n)
    {
        if (pool && pool->size() == n) return;
        pool = std::make_unique<wb::cpu::detail::ThreadPool>(n);
        runners.clear();
        runners.resize(static_cast<std::size_t>(n));
    }
    wb::cpu::detail::BlockRunner& runner(int worker, std::uint64_t schedule)
    {
        auto& r = runners[static_cast<std::size_t>(worker)];
        if (!r)
            r = std::make_unique<wb::cpu::detail::BlockRunner>(1024 *
                                                               1024); // sanitized frames are larger
        r->setSchedule(schedule);
        return *r;
    }
};

struct Outcome {
    double ms = 0;
    std::string error; ///< empty: the launch completed
    std::unique_ptr<wb::cpu::detail::RaceDetector> detector;
};

/// Runs every block of `kd` once: on `workers` threads (one: in order on this thread, as the
/// debugger needs), or all at once for a cooperative launch.
/// `readOnly`: per buffer, race-check it as read-only (RaceDetector::addRegion), or empty;
/// `learn`: RaceDetector::learnSharedWrites().
Outcome runLaunch(const Request& rq, const abi::KernelDesc* kd, void** args, bool debug,
                  int workers, Workers& pool, wb_cpu_module_fn moduleFn,
                  const std::vector<unsigned char*>& bufferData, const std::vector<char>& readOnly,
                  bool learn)
{
    Outcome out;
    const unsigned* dims = rq.dims;
    wb::cpu::detail::LaunchState state;
    state.kernel = rq.kernel;
    state.grid = {dims[0], dims[1], dims[2]};
    state.block = {dims[3], dims[4], dims[5]};
    state.cooperative = rq.cooperative;
    wb::cpu::detail::HostRuntime runtime{};
    wb::cpu::detail::initRuntime(runtime, state);
    abi::ThreadState base{};
    base.blockSize = state.block;
    base.gridSize = state.grid;
    base.rt = &runtime.rt;

    abi::KernelDesc tracked{};
    // This thread's instance of the shared memory (the emulator's is thread_local).
    const auto sharedOfThisThread = [&](const std::function<void(void*, std::size_t, int)>& add) {
        LoadedLibrary loaded;
        loaded.code = reinterpret_cast<const void*>(moduleFn);
        g_module->dynamicSharedBuffer(); // allocates the library's TLS block on this thread
        dl_iterate_phdr(&findLibrary, &loaded);
        for (std::size_t i = 0; i < rq.sharedVars.size(); ++i)
            if (loaded.tls && rq.sharedVars[i].offset + rq.sharedVars[i].size <= loaded.tlsSize)
                add(static_cast<unsigned char*>(loaded.tls) + rq.sharedVars[i].offset,
                    rq.sharedVars[i].size, static_cast<int>(1000 + i));
    };
    if (rq.races) {
        LoadedLibrary loaded;
        loaded.code = reinterpret_cast<const void*>(moduleFn);
        dl_iterate_phdr(&findLibrary, &loaded);
        out.detector = std::make_unique<wb::cpu::detail::RaceDetector>(
            loaded.bias, state.block, state.grid, 256, rq.cooperative, workers);
        if (learn) out.detector->learnSharedWrites();
        state.warpSynced = [d = out.detector.get()](unsigned warpBase, unsigned mask) {
            d->warpSynced(warpBase, mask);
        };
        state.tileSynced = [d = out.detector.get()](unsigned first, unsigned count) {
            d->tileSynced(first, count);
        };
        for (std::size_t i = 0; i < bufferData.size(); ++i) {
            if (!bufferData[i]) continue;
            out.detector->addRegion(bufferData[i], rq.buffers[i].size, static_cast<int>(i), false,
                                    i < readOnly.size() && readOnly[i]);
            if (g_guarded)
                out.detector->addGuard(static_cast<int>(i), bufferData[i] - kGuardBefore,
                                       bufferData[i] + guardedBytes(rq.buffers[i].size) +
                                           kGuardAfter);
        }
        g_blockSync = runtime.rt.blockSync;
        runtime.rt.blockSync = &blockSyncTracked;
        g_warpOp = runtime.rt.warpOp;
        runtime.rt.warpOp = &warpOpTracked;
        g_runThread = kd->runThread;
        tracked = *kd;
        tracked.runThread = &runThreadTracked;
        kd = &tracked;
        wb::cpu::detail::RaceDetector::active = out.detector.get();
    }
    wb::cpu::detail::RaceDetector* detector = out.detector.get();
    const std::uint64_t schedule = rq.schedule;
    const auto started = std::chrono::steady_clock::now();
    const std::uint64_t blocks = std::uint64_t{dims[0]} * dims[1] * dims[2];
    const auto blockIndexOf = [&](std::uint64_t b) {
        return abi::Dim{static_cast<unsigned>(b % dims[0]),
                        static_cast<unsigned>((b / dims[0]) % dims[1]),
                        static_cast<unsigned>(b / (std::uint64_t{dims[0]} * dims[1]))};
    };
    if (rq.cooperative) {
        // Every block at once, each on its own OS thread (its own __shared__ instance), but one
        // at a time: a block runs until it waits at grid.sync() or ends, then hands over. The
        // race detector and the sanitizers see one thread at a time.
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
            if (detector)
                sharedOfThisThread([&](void* at, std::size_t size, int id) {
                    detector->addRegion(at, size, id, true);
                });
            try {
                wb::cpu::detail::BlockRunner blockRunner(1024 * 1024);
                blockRunner.setSchedule(schedule);
                blockRunner.run(*kd, args, st);
            } catch (const std::exception& e) {
                state.setError("kernel '" + rq.kernel + "', block " +
                               wb::cpu::detail::formatDim(st.blockIndex) + ": " + e.what());
            }
            state.blockExited(st.blockIndex);
        };
        std::vector<std::thread> threads;
        for (std::uint64_t b = 0; b < blocks; ++b)
            threads.emplace_back(runCooperativeBlock, b);
        for (std::thread& t : threads)
            t.join();
    } else {
        std::vector<char> watched(static_cast<std::size_t>(workers), 0);
        const wb::cpu::detail::ThreadPool::RangeFn runBlocks = [&](std::uint64_t begin,
                                                                   std::uint64_t end, int worker) {
            if (detector && !watched[static_cast<std::size_t>(worker)]) {
                sharedOfThisThread([&](void* at, std::size_t size, int id) {
                    detector->addWorkerRegion(worker, at, size, id);
                });
                watched[static_cast<std::size_t>(worker)] = 1;
            }
            wb::cpu::detail::BlockRunner& runner = pool.runner(worker, schedule);
            for (std::uint64_t i = begin; i < end && !state.failed; ++i) {
                const std::uint64_t b = wb::cpu::detail::scheduledBlock(schedule, i, blocks);
                abi::ThreadState st = base;
                st.blockIndex = blockIndexOf(b);
                st.dynamicShared = g_module->dynamicSharedBuffer();
                if (detector) detector->startBlock(worker, i);
                if (kd->needsFibers || schedule || debug)
                    runner.run(*kd, args, st);
                else if (kd->runBlock(args, &st, b, 1) != 0 && !state.failed)
                    state.setError("kernel '" + rq.kernel + "' stopped in block " +
                                   wb::cpu::detail::formatDim(st.blockIndex));
            }
        };
        if (workers > 1)
            pool.pool->run(blocks, runBlocks, state.failed);
        else
            runBlocks(0, blocks, 0);
    }
    out.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
                 .count();
    if (detector) detector->finish();
    wb::cpu::detail::RaceDetector::active = nullptr;
    if (state.failed) out.error = state.error;
    return out;
}

/// Through descriptors opened before sealing: false when a write fails.
bool writeAll(int fd, const void* data, std::size_t size)
{
    const char* p = static_cast<const char*>(data);
    while (size > 0) {
        const ssize_t n = ::write(fd, p, size);
        if (n <= 0) return false;
        p += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

/// A loaded kernel library, its code run once (sealed first).
struct Library {
    wb::DynamicLibrary lib;
    wb_cpu_module_fn moduleFn = nullptr;
};

/// Runs `rq` with the buffers in `bufferData` (nullptr where the request has none) and writes
/// the race lines and the "WB-SANDBOX ok|error" line to `out`; the buffers and module globals
/// stay as the launch left them. Returns false on failure (the error line written).
bool serve(const Request& rq, const Library& library, bool debug, Workers& pool,
           const std::vector<unsigned char*>& bufferData, double& ms, std::FILE* out)
{
    const auto failed = [&](const std::string& why) {
        std::fprintf(out, "WB-SANDBOX error %s\n", why.c_str());
        std::fflush(out);
        return false;
    };
    const abi::KernelDesc* kd = nullptr;
    for (unsigned i = 0; i < g_module->kernelCount; ++i)
        if (rq.kernel == g_module->kernels[i].name) kd = &g_module->kernels[i];
    if (!kd) return failed("no kernel '" + rq.kernel + "' in " + rq.library);
    for (const auto& [name, bytes] : rq.constants) {
        bool set = false;
        for (unsigned i = 0; i < g_module->constantCount; ++i)
            if (name == g_module->constants[i].name) {
                if (bytes.size() > g_module->constants[i].size)
                    return failed("__constant__ '" + name + "' is smaller than the data given");
                std::memcpy(g_module->constants[i].address, bytes.data(), bytes.size());
                set = true;
            }
        if (!set) return failed("no __constant__ variable '" + name + "'");
    }
    std::vector<std::vector<unsigned char>> storage(kd->paramCount);
    for (const auto& [i, bytes] : rq.rawArgs)
        if (i < storage.size()) storage[i] = bytes;
    for (const auto& [i, where] : rq.pointerArgs) {
        if (i >= storage.size() || where.first >= bufferData.size()) continue;
        const auto addr = reinterpret_cast<std::uint64_t>(bufferData[where.first]) + where.second;
        storage[i].resize(8);
        std::memcpy(storage[i].data(), &addr, 8);
    }
    std::vector<void*> args;
    for (auto& s : storage)
        args.push_back(s.data());
    if (rq.cooperative && debug)
        return failed("a cooperative launch (grid.sync()) cannot run under the thread debugger, "
                      "which runs one block at a time; debug it without \"cooperative\"");

    const int workers = rq.races && !debug && !rq.cooperative ? std::max(1, rq.workers) : 1;
    pool.resize(workers);
    // Buffers that the kernel reaches only through pointers to const are race-checked as
    // read-only: their reads are not recorded; and each worker learns from its first block which
    // __shared__ variables each barrier interval writes. A write that breaks either assumption
    // (a cast, a pointer kept elsewhere; a block that writes where the first did not) is seen,
    // and the launch runs again from its inputs with every read recorded.
    std::vector<char> readOnly(bufferData.size(), 0);
    if (rq.races) {
        std::vector<int> constant(bufferData.size(), 0), other(bufferData.size(), 0);
        for (const auto& [i, where] : rq.pointerArgs) {
            if (i >= kd->paramCount || where.first >= bufferData.size()) continue;
            const abi::ParamDesc& p = kd->params[i];
            ++(p.isPointer && p.isConst ? constant : other)[where.first];
        }
        for (std::size_t b = 0; b < bufferData.size(); ++b)
            readOnly[b] = bufferData[b] && constant[b] > 0 && other[b] == 0;
    }
    const bool anyReadOnly = std::find(readOnly.begin(), readOnly.end(), 1) != readOnly.end();
    // A launch that may have to run again (above, or on one worker below): what it starts from.
    std::vector<std::vector<unsigned char>> inputs;
    std::unique_ptr<WritableData> globals;
    const bool learn = rq.races && !rq.cooperative && !rq.sharedVars.empty();
    if (workers > 1 || anyReadOnly || learn) {
        for (std::size_t i = 0; i < bufferData.size(); ++i)
            inputs.emplace_back(bufferData[i],
                                bufferData[i] ? bufferData[i] + rq.buffers[i].size : bufferData[i]);
        globals = std::make_unique<WritableData>(reinterpret_cast<const void*>(library.moduleFn));
    }
    const auto restore = [&] {
        for (std::size_t i = 0; i < bufferData.size(); ++i)
            if (bufferData[i]) std::memcpy(bufferData[i], inputs[i].data(), inputs[i].size());
        globals->restore();
    };
    Outcome o = runLaunch(rq, kd, args.data(), debug, workers, pool, library.moduleFn, bufferData,
                          readOnly, learn);
    ms = o.ms;
    if (o.detector && o.detector->assumptionBroken()) {
        restore();
        o = runLaunch(rq, kd, args.data(), debug, workers, pool, library.moduleFn, bufferData, {},
                      false);
        ms += o.ms;
    }
    if (o.error.empty() && o.detector && workers > 1 && o.detector->hasGlobalReports()) {
        // Which global-memory conflicts the two-slot shadow catches, and the example of each,
        // depend on how the workers interleaved: the list comes from a run in block order.
        restore();
        o = runLaunch(rq, kd, args.data(), debug, 1, pool, library.moduleFn, bufferData, {}, false);
        ms += o.ms;
    }
    if (o.detector) o.detector->print(out);
    if (!o.error.empty()) return failed(o.error);
    return true;
}

/// The module globals named by "constout" lines, as the kernel left them.
bool writeConstants(const Request& rq, std::size_t k, int fd)
{
    const unsigned c = rq.constantFiles[k].first;
    if (c >= rq.constants.size()) return true;
    for (unsigned i = 0; i < g_module->constantCount; ++i) {
        if (rq.constants[c].first != g_module->constants[i].name) continue;
        if (!writeAll(fd, g_module->constants[i].address, rq.constants[c].second.size()))
            return false;
    }
    return true;
}

/// Loads the library without running its code; on failure says why.
std::string openLibrary(Library& library, const std::string& path)
{
    // Loading runs no code of the library (DeferredInit); its code runs sealed, below.
    library.lib = wb::DynamicLibrary::open({path});
    if (!library.lib) return "cannot load " + path + ": " + library.lib.error();
    library.moduleFn = library.lib.function<wb_cpu_module_fn>("wb_cpu_module");
    if (!library.moduleFn) return path + " has no wb_cpu_module";
    return {};
}

/// Seals this process, then runs the library's constructors; on failure says why.
std::string sealAndInit(const Library& library, const std::string& kernel, bool allowReadingFiles)
{
    try {
        wb::sandbox::setActivity("kernel", "kernel '" + kernel + "'");
        wb::sandbox::seal(allowReadingFiles);
    } catch (const std::exception& e) {
        return e.what();
    }
    library.lib.runDeferredInit();
    g_module = library.moduleFn();
    return {};
}

/// Reads exactly `size` bytes; false at the end of the input.
bool readExactly(std::FILE* in, void* data, std::size_t size)
{
    return size == 0 || std::fread(data, 1, size, in) == size;
}

/// --serve: requests on descriptor 3, each its lines up to "run" and then the bytes of its
/// buffers (in the order of the "buffer" lines); the answer on the same descriptor: the
/// "WB-RACE" lines, "WB-SANDBOX ok <ms>" and the buffers and "constout" globals as the
/// launch left them, or "WB-SANDBOX error <why>" and the end of the process. The library of
/// the first request is loaded and the process sealed then; a request for another library is
/// an error. Ends at the end of the input.
int runServer()
{
    std::FILE* in = fdopen(3, "r");
    std::FILE* out = fdopen(dup(3), "w");
    if (!in || !out) return fail("--serve: descriptor 3 is not open");
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    Library library;
    std::string libraryPath;
    Workers pool;
    struct Held {
        unsigned char* data = nullptr;
        std::size_t size = 0;
    };
    std::vector<Held> held; ///< the buffers (guardedBuffer()), reused while their sizes stay
    g_guarded = true;
    g_raceOut = out;
    wb::cpu::detail::RaceDetector::outOfBounds = &outOfBounds;
    struct sigaction action {};
    action.sa_sigaction = &onFault;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, nullptr);
    sigaction(SIGBUS, &action, nullptr);
    for (;;) {
        Request rq;
        bool complete = false;
        for (std::string line; !complete;) {
            line.clear();
            int c = 0;
            while ((c = std::fgetc(in)) != EOF && c != '\n')
                line += static_cast<char>(c);
            if (c == EOF) return 0;
            complete = !rq.parse(line);
        }
        if (held.size() < rq.buffers.size()) held.resize(rq.buffers.size());
        std::vector<unsigned char*> data(rq.buffers.size(), nullptr);
        for (std::size_t i = 0; i < rq.buffers.size(); ++i) {
            if (!rq.buffers[i].present) continue;
            Held& h = held[i];
            if (h.size != rq.buffers[i].size || !h.data) {
                freeGuarded(h.data, h.size);
                h.size = rq.buffers[i].size;
                h.data = guardedBuffer(h.size);
                if (!h.data) {
                    std::fprintf(out, "WB-SANDBOX error cannot map %zu bytes for a buffer\n",
                                 h.size);
                    std::fflush(out);
                    return 3;
                }
            }
            if (!readExactly(in, h.data, h.size)) return 0;
            data[i] = h.data;
        }
        const auto failed = [&](const std::string& why) {
            std::fprintf(out, "WB-SANDBOX error %s\n", why.c_str());
            std::fflush(out);
            return 3;
        };
        if (libraryPath.empty()) {
            if (std::string why = openLibrary(library, rq.library); !why.empty())
                return failed(why);
            if (std::string why = sealAndInit(library, rq.kernel, false); !why.empty())
                return failed(why);
            libraryPath = rq.library;
        } else if (rq.library != libraryPath) {
            return failed("this sandbox serves " + libraryPath + ", not " + rq.library);
        }
        wb::sandbox::setActivity("kernel", "kernel '" + rq.kernel + "'");
        double ms = 0;
        if (!serve(rq, library, false, pool, data, ms, out)) return 3;
        std::fprintf(out, "WB-SANDBOX ok %.6f\n", ms);
        std::fflush(out);
        const int fd = fileno(out);
        for (std::size_t i = 0; i < data.size(); ++i)
            if (data[i] && !writeAll(fd, data[i], rq.buffers[i].size)) return 3;
        for (std::size_t k = 0; k < rq.constantFiles.size(); ++k)
            if (!writeConstants(rq, k, fd)) return 3;
    }
}

} // namespace

// Sanitizer hooks: say which emulated thread was running when a report starts.
extern "C" __attribute__((visibility("default"))) void __asan_on_error()
{
    reportCurrentThread();
}
extern "C" __attribute__((visibility("default"))) void __ubsan_on_report()
{
    reportCurrentThread();
}

int main(int argc, char** argv)
{
    if (argc >= 2 && std::strcmp(argv[1], "--prepare-debug") == 0)
        return wb::debug::prepareDebugMain(argc, argv);
    if (argc == 2 && std::strcmp(argv[1], "--serve") == 0) return runServer();
    // --debug: run under the thread debugger (core/debug): every kernel in fiber mode, so each
    // thread has its own frame; the debug record on; and never outlive the debugger.
    const bool debug = argc == 3 && std::strcmp(argv[1], "--debug") == 0;
    if (argc != 2 && !debug) return fail("usage: warpbench-cpu-sandbox [--debug] REQUEST");
    if (debug) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        wb_cpu_debug_enabled = 1;
    }
    std::ifstream in(argv[argc - 1]);
    Request rq;
    for (std::string line; std::getline(in, line);)
        rq.parse(line);
    Library library;
    if (std::string why = openLibrary(library, rq.library); !why.empty()) return fail(why);
    // Everything this process reads or writes is opened now: the buffers come in from their
    // files and go back to them after the launch, through descriptors opened before sealing.
    // Each in a heap block of its exact size, so that AddressSanitizer's redzones sit right
    // behind it.
    std::vector<unsigned char*> data(rq.buffers.size(), nullptr);
    std::vector<int> fds(rq.buffers.size(), -1);
    for (std::size_t i = 0; i < rq.buffers.size(); ++i) {
        const Request::Buffer& b = rq.buffers[i];
        if (b.file.empty()) continue;
        data[i] = static_cast<unsigned char*>(std::malloc(b.size ? b.size : 1));
        std::ifstream f(b.file, std::ios::binary);
        f.read(reinterpret_cast<char*>(data[i]), static_cast<std::streamsize>(b.size));
        fds[i] = ::open(b.file.c_str(), O_WRONLY | O_CLOEXEC);
        if (fds[i] < 0) return fail("cannot open " + b.file + " for the results");
    }
    // The module globals go back the same way (a __device__ counter the host reads).
    std::vector<int> constantFds;
    for (const auto& cf : rq.constantFiles) {
        const int fd = ::open(cf.second.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd < 0) return fail("cannot open " + cf.second + " for the module globals");
        constantFds.push_back(fd);
    }
    // Bounds-checked (AddressSanitizer preloaded): its reports read debug information.
    if (std::string why = sealAndInit(library, rq.kernel, !rq.races && !debug); !why.empty())
        return fail(why);
    Workers pool;
    double ms = 0;
    if (!serve(rq, library, debug, pool, data, ms, stdout)) return 3;
    for (std::size_t i = 0; i < data.size(); ++i) {
        if (!data[i]) continue;
        if (!writeAll(fds[i], data[i], rq.buffers[i].size))
            return fail("cannot write the results to " + rq.buffers[i].file);
        ::close(fds[i]);
        std::free(data[i]);
    }
    // Module globals as the kernel left them (a __device__ counter), for the host to read.
    for (std::size_t k = 0; k < rq.constantFiles.size(); ++k) {
        if (!writeConstants(rq, k, constantFds[k]))
            return fail("cannot write the module globals to " + rq.constantFiles[k].second);
        ::close(constantFds[k]);
    }
    std::printf("WB-SANDBOX ok %.6f\n", ms);
    return 0;
}
