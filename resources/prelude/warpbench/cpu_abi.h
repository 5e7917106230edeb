// SPDX-License-Identifier: GPL-3.0-or-later
// The binary interface between Warpbench's CPU emulator (the host, core/cpu) and a kernel
// library compiled from user CUDA source against cuda_prelude.h. Plain structs and function
// pointers only: both sides include this header, nothing else is shared.
#pragma once

namespace wbcpu::abi {

inline constexpr unsigned kVersion = 3;
/// Dynamic shared memory per block (like an H100/H200 with the opt-in maximum).
inline constexpr unsigned long kDynamicSharedCapacity = 227ul * 1024ul;

struct Dim {
    unsigned x, y, z;
};

/// Operations a lane asks of its warp; the host computes each lane's result once every lane
/// of the mask has arrived.
enum WarpOp : int {
    WarpSync = 0,
    ShflIdx,
    ShflUp,
    ShflDown,
    ShflXor,
    Ballot,
    Any,
    All,
    ReduceAddU,
    ReduceMinU,
    ReduceMaxU,
    ReduceMinI,
    ReduceMaxI,
    ReduceAnd,
    ReduceOr,
    ReduceXor,
    MatchAny,
    MatchAll,
    /// cooperative_groups::coalesced_threads(): every lane of the warp that reaches the same
    /// call (file and line) in the same pass; the result is their mask.
    Coalesce,
};

/// __syncthreads flavours; SyncGrid: cooperative_groups::grid_group::sync() (a block barrier,
/// then every block of a cooperative launch); SyncTile: the sync() of a tile of 64–512 threads
/// (a barrier of block threads [first, first + count), predicate = first | count << 16).
enum BlockOp : int { SyncPlain = 0, SyncCount, SyncAnd, SyncOr, SyncGrid, SyncTile };

/// Race-check builds: what the atomic operations and fences that follow are in CUDA's memory
/// model, told to the sandbox's detector by __wb_race_atomic_begin(raceMode(order, scope)) (the
/// compiler's ThreadSanitizer hooks carry no scope, and CUDA's atomicAdd & co. are relaxed but
/// observe-to-acquire). RaceFromCompiler: the memory order the instrumentation passes.
enum RaceOrder : int {
    RaceFromCompiler = 0,
    RaceRelaxed,
    RaceAcquire,
    RaceRelease,
    RaceAcqRel,
    RaceSeqCst,
    /// atomicAdd, atomicInc, …: relaxed, but a read of a value that a fence-then-atomic
    /// published orders what follows (CUDA's threadFenceReduction idiom)
    RaceLegacy,
};
enum RaceScope : int { RaceDevice = 0, RaceBlock, RaceSystem, RaceThread };
constexpr int raceMode(int order, int scope)
{
    return order | scope << 4;
}

struct ThreadState;

/// Services of the host, called by the kernel library.
struct Runtime {
    /// __syncthreads*: returns the reduced predicate (count/and/or) or 0.
    int (*blockSync)(ThreadState* self, int op, int predicate, const char* file, unsigned line);
    /// Warp operations: returns this lane's 64-bit result.
    unsigned long long (*warpOp)(ThreadState* self, int op, unsigned mask, unsigned long long value,
                                 int param, int width, const char* what, const char* file,
                                 unsigned line);
    /// Lanes of the caller's warp that have not exited.
    unsigned (*activeMask)(ThreadState* self);
    /// Records a failure (assert, unsupported call); the library then unwinds the thread.
    void (*fail)(ThreadState* self, const char* message, const char* file, unsigned line);
    /// 1 when the launch is cooperative (grid_group::is_valid(), grid.sync() allowed).
    int (*cooperative)(ThreadState* self);
};

/// One emulated CUDA thread. In fiber mode each thread has its own; in loop mode one is
/// reused for every thread of the block.
struct ThreadState {
    Dim threadIndex; ///< threadIdx (field names differ from the CUDA builtins, which are macros)
    Dim blockIndex;  ///< blockIdx
    Dim blockSize;   ///< blockDim
    Dim gridSize;    ///< gridDim
    unsigned linear; ///< threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)
    unsigned char* dynamicShared; ///< start of this block's dynamic shared memory
    const Runtime* rt;
    void* host; ///< the host's fiber record; nullptr in loop mode
};

/// The emulated thread running on an OS thread: its coordinates as plain values (a kernel
/// inlined into the block loop reads them like loop variables) and its state.
struct Current {
    Dim thread;    ///< threadIdx (field names differ from the CUDA builtins, which are macros)
    Dim block;     ///< blockIdx
    Dim blockSize; ///< blockDim
    Dim gridSize;  ///< gridDim
    ThreadState* st;
};

struct ParamDesc {
    const char* type;    ///< "float*", as the compiler spells it
    const char* pointee; ///< "float" for pointers, "" otherwise
    unsigned long size;
    unsigned long align;
    int isPointer;
    int isConst; ///< pointer to const
};

/// Runs every thread of blocks [first, first + count) (linear block indices, x fastest) as
/// loops (no barriers). Returns 0, or 1 after rt->fail (state->blockIndex is the failing block).
using RunBlockFn = int (*)(void** args, ThreadState* state, unsigned long long first,
                           unsigned long long count);
/// Runs one thread (fiber mode). Returns 0, or 1 after rt->fail.
using RunThreadFn = int (*)(void** args, ThreadState* state);

struct KernelDesc {
    const char* name;   ///< as the user names it: "scale<float, 128>"
    const char* symbol; ///< exported entry of this kernel in the library
    int isTemplate;
    int needsFibers; ///< barriers or warp operations appear in the source
    unsigned paramCount;
    const ParamDesc* params;
    RunBlockFn runBlock;
    RunThreadFn runThread;
};

struct ConstantDesc {
    const char* name;
    void* address;
    unsigned long size;
};

struct ModuleDesc {
    unsigned abiVersion;
    unsigned kernelCount;
    const KernelDesc* kernels;
    unsigned constantCount;
    const ConstantDesc* constants;
    unsigned long dynamicSharedCapacity;
    /// The calling OS thread's dynamic shared memory buffer (thread_local in the library).
    unsigned char* (*dynamicSharedBuffer)();
    /// The thread the calling OS thread is running now (for sanitizer reports), or nullptr.
    ThreadState* (*currentThread)();
};

} // namespace wbcpu::abi

/// Defined by the host (libwarpbench-core, loaded at program start, so its TLS is static and
/// kernel libraries reach it with the initial-exec model: no __tls_get_addr in hot loops).
extern "C" {
#ifdef WB_CPU_KERNEL_LIBRARY
extern __thread wbcpu::abi::Current wb_cpu_current __attribute__((tls_model("initial-exec")));
#else
extern __thread wbcpu::abi::Current wb_cpu_current;
#endif
}

/// Every kernel library exports this one symbol.
using wb_cpu_module_fn = const wbcpu::abi::ModuleDesc* (*)();
