// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/debug/DebugTarget.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace wb::debug {

class GdbMi;

/// A breakpoint on a line of the kernel source, with an optional condition in CUDA terms
/// ("blockIdx.x == 2 && threadIdx.x == 17"; gdb evaluates it with the prelude's macros).
struct Breakpoint {
    int line = 0;
    std::string condition;
};

/// Where the chosen thread stopped, and why.
struct DebugStop {
    enum class Reason { Breakpoint, Step, Exited, Interrupted, Error };
    Reason reason = Reason::Error;
    std::string file; ///< the kernel source's name when the thread is in the kernel
    int line = 0;
    std::string function;
    Dim3 block{};
    Dim3 thread{};
    unsigned phase = 0;  ///< barriers the thread has passed in its block
    std::string message; ///< exit status, error text, or "the thread returned from the kernel"
    bool inKernel() const { return reason == Reason::Breakpoint || reason == Reason::Step; }
};

/// A variable as gdb prints it.
struct DebugVariable {
    std::string name;
    std::string type;
    std::string value;
    bool argument = false;
    int declLine = 0; ///< the line of its declaration (DWARF, through gdb); 0 when unknown
    /// A local declared on or after the stop's line: its declaration has not run yet, `value` is
    /// whatever its stack slot held (see docs/debugger.md).
    bool notYetInitialised = false;
};

/// A `__shared__` array of the block at the stop, element by element (gdb's text of each).
struct SharedArray {
    std::string name;
    std::string type;
    std::vector<std::string> elements;
    std::string error; ///< why it could not be read (elements then empty)
};

/// Where a thread of the block is relative to the stop, from the emulator's debug record
/// (Chosen: the thread the session stopped in).
enum class ThreadWhere { NotStarted, Running, AtBarrier, AtWarpOp, Exited, Chosen };
const char* threadWhereName(ThreadWhere w);

/// One thread of the block in the "all threads" table.
struct ThreadRow {
    Dim3 thread{};
    unsigned linear = 0;
    unsigned phase = 0;       ///< its barrier phase now
    ThreadWhere where{};      ///< now
    int waitLine = 0;         ///< the barrier or warp operation it waits at now
    bool reachedLine = false; ///< it executed the stop's line in the stop's phase
    unsigned hits = 0;        ///< how often it executed that line in that phase
    std::string value;        ///< the expression at its first such arrival ("" if it never did)
};

/// The chosen thread's warp.
struct WarpLane {
    unsigned lane = 0;
    Dim3 thread{};
    bool exists = false; ///< false past the end of a partial last warp
    bool atLine = false; ///< executes the stop's line in this phase (active, not diverged)
    ThreadWhere where{};
    int waitLine = 0;
    bool inExchange = false; ///< took part in the last warp operation
    std::uint64_t given = 0;
    std::uint64_t got = 0;
};
struct WarpView {
    unsigned warp = 0;
    std::vector<WarpLane> lanes; ///< 32
    bool hasExchange = false;
    std::string exchange; ///< "__shfl_down_sync at reduce.cu:12 (mask 0xffffffff, 16)"
};

/// A debugging session of one launch on the CPU emulator: gdb (core/debug/GdbMi) runs the
/// emulator's sandbox (`warpbench-cpu-sandbox --debug`) on the prepared request, every kernel
/// thread as a fiber, the kernel built -O0 -g3. Synchronous: call from one thread (the GUI
/// uses a worker thread). Every call that runs the kernel returns where the chosen thread
/// stopped. Destroying the session kills gdb and the debugged process. See docs/debugger.md.
class DebugSession {
public:
    explicit DebugSession(DebugTarget target);
    ~DebugSession();
    DebugSession(const DebugSession&) = delete;
    DebugSession& operator=(const DebugSession&) = delete;

    const DebugTarget& target() const noexcept { return m_target; }

    /// Breakpoints set before start() or while stopped. Returns gdb's number; throws
    /// Error(InvalidArgument) for a condition gdb cannot parse (when it can tell).
    int addBreakpoint(const Breakpoint& bp);
    void removeBreakpoint(int number);

    /// Runs the launch to the first breakpoint hit (or to its end).
    DebugStop start();
    DebugStop resume(); ///< continue
    DebugStop stepOver();
    DebugStop stepInto();
    /// Stops a running kernel (from another thread); the running call then returns Interrupted.
    void interrupt();
    /// Kills gdb and the debugged process; later calls throw.
    void stop() noexcept;
    bool finished() const noexcept { return m_finished; }
    /// The debugged process (0 when none): another thread may interrupt it with SIGINT.
    std::int64_t inferiorPid() const noexcept;
    const DebugStop& lastStop() const noexcept { return m_last; }

    /// At a stop in the kernel: its locals (arguments included, __shared__ variables left to
    /// sharedMemory()), those not yet initialised at the stop's line marked.
    std::vector<DebugVariable> locals();
    /// The `__shared__` variables visible at the stop: those of the stopped function's scope
    /// and those of the file's scope (never another kernel's).
    std::vector<SharedArray> sharedMemory();
    /// Throws Error(InvalidArgument) with gdb's own message ("No symbol \"x\" in current
    /// context.") when `expression` cannot be evaluated in the chosen thread's frame whatever
    /// the thread: an unknown name, a syntax error, a missing member. Checked by gdb's `whatis`
    /// (types only, no memory read), so a value that only some threads cannot read passes.
    void checkExpression(const std::string& expression);
    /// gdb's value of `expression` in the chosen thread's frame.
    std::string evaluate(const std::string& expression);
    /// Every thread of the stopped block: where it is now (phase, barrier) and the value of
    /// `expression` when it executed the stop's line in the stop's barrier phase. The values
    /// come from a second debugged run of the same launch replayed to that point (the
    /// emulator's schedule is deterministic), so this session is not disturbed. An expression
    /// that checkExpression() refuses throws its Error(InvalidArgument) before any replay.
    std::vector<ThreadRow> allThreads(const std::string& expression);
    /// The chosen thread's warp; `rows` (from allThreads) says which lanes are at the line.
    WarpView warp(const std::vector<ThreadRow>& rows);

    /// `expression` in terms gdb can evaluate in the kernel: the CUDA builtins threadIdx,
    /// blockIdx, blockDim, gridDim and warpSize (macros of the prelude, which gdb cannot expand
    /// at the kernel's lines: see docs/debugger.md) become the emulator's thread-local
    /// coordinates; string and character literals are left alone.
    static std::string gdbExpression(const std::string& expression);
    /// The locals of `locals` marked not yet initialised that `expression` names (a member or a
    /// qualified name is not a local): the all-threads values of such an expression are what
    /// that memory held, which the views say.
    static std::vector<std::string> uninitialisedIn(const std::string& expression,
                                                    const std::vector<DebugVariable>& locals);
    /// The block a condition requires through top-level conjuncts `blockIdx.<axis> == <n>`
    /// (-1 for an axis it leaves free), or nullopt when it requires none.
    static std::optional<std::array<int, 3>> blockOf(const std::string& condition);

    /// Per call that runs the kernel (start/resume/step): the most it may take.
    void setRunTimeoutMs(int ms) { m_runTimeoutMs = ms; }

private:
    DebugStop runCommand(const std::string& cmd, DebugStop::Reason reason);
    DebugStop readStop(const struct MiRecord& r, DebugStop::Reason reason);
    void selectKernelFrame();
    void setBreakpointsEnabled(bool on);
    std::vector<std::string> sharedInScope();
    std::vector<std::pair<std::string, int>> declarationLines();
    std::vector<std::uint32_t> readThreadRecords(unsigned count);

    DebugTarget m_target;
    std::unique_ptr<GdbMi> m_gdb;
    std::vector<std::pair<int, Breakpoint>> m_breakpoints;
    DebugStop m_last;
    bool m_started = false;
    bool m_finished = false;
    int m_python = 0; ///< gdb's Python helper: 0 not defined yet, 1 defined, -1 unavailable
    int m_runTimeoutMs = 60'000;
};

} // namespace wb::debug
