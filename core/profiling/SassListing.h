// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wb::profiling {

/// The scheduling control bits of a Volta-or-newer SASS instruction (bits 105–125 of the
/// 128-bit encoding, i.e. bits 41–61 of its second 64-bit word), as nvdisasm -hex prints the
/// encoding: stall cycles, yield bit, the scoreboard barrier the instruction sets for its
/// write / read, the barriers it waits on, and the operand reuse flags.
struct SassControl {
    int stall = 0;         ///< cycles before the next instruction issues (0–15)
    bool yield = false;    ///< the yield bit as encoded
    int writeBarrier = -1; ///< scoreboard set when the result is written; -1: none
    int readBarrier = -1;  ///< scoreboard set when the operands are read; -1: none
    unsigned waitMask = 0; ///< scoreboards waited on before issue (bit i = barrier i)
    unsigned reuse = 0;    ///< operand reuse cache flags

    /// Decodes the second word of the encoding.
    static SassControl fromHighWord(std::uint64_t word) noexcept;
    /// "S01 Y W0 R- wait{0,2}": stall, yield bit set, write / read barrier, barriers waited on.
    std::string toText() const;
    friend bool operator==(const SassControl&, const SassControl&) = default;
};

/// One SASS instruction of nvdisasm's listing, with the source line its line table gives.
struct SassInstruction {
    std::uint64_t offset = 0; ///< byte offset from the function's start ("/*0140*/")
    std::string text;         ///< "FFMA R7, R7, R0, 0.5 ;"
    std::string file;         ///< as the line table names it; "" without line information
    int line = 0;
    std::optional<SassControl> control; ///< when the listing has the encoding (-hex)
};

/// One function of the listing.
struct SassFunction {
    std::string name; ///< lowered name ("_Z12matmul_tiledPKfS0_Pfi")
    std::vector<SassInstruction> instructions;
};

/// nvdisasm's listing of a CUBIN, parsed: `nvdisasm -g -hex -c kernel.cubin` (the toolkit's
/// disassembler prints the line table as `//## File "…", line N` comments and the encoding as
/// `/* 0x… */`; both are optional). Lines that are neither instructions nor these comments are
/// skipped, so labels, directives and other tool versions' extra lines do no harm.
class SassListing {
public:
    static SassListing parse(const std::string& nvdisasmOutput);

    const std::vector<SassFunction>& functions() const noexcept { return m_functions; }
    /// The function called `name` (lowered); nullptr when absent.
    const SassFunction* function(const std::string& name) const noexcept;
    /// True when any instruction has a source line.
    bool hasLineInfo() const noexcept;
    /// Offsets of `function`'s instructions on source line `line` (file compared by file
    /// name; "" matches any).
    std::vector<std::uint64_t> offsetsForLine(const std::string& function, const std::string& file,
                                              int line) const;

private:
    std::vector<SassFunction> m_functions;
};

} // namespace wb::profiling
