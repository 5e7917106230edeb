// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace wb {

/// One kernel parameter, as the compiler laid it out.
struct KernelParam {
    std::string name;       ///< from the source ("dest"); "param0" when it has none
    std::string type;       ///< C++ spelling, typedefs resolved where known ("float*")
    std::size_t size = 0;   ///< bytes in the parameter buffer
    std::size_t offset = 0; ///< offset in the parameter buffer
    std::size_t alignment = 0;
    bool isPointer = false;
    std::string pointee;  ///< "float" for float*, empty for values
    bool isConst = false; ///< pointer to const

    friend bool operator==(const KernelParam&, const KernelParam&) = default;
};

/// Registers, spills, stack and memory of one compiled kernel (ptxas -v, or the driver).
struct ResourceUsage {
    int registers = 0;
    int spillStoreBytes = 0;
    int spillLoadBytes = 0;
    int stackFrameBytes = 0;
    int sharedBytes = 0; ///< static shared memory
    int constBytes = 0;
    int barriers = 0;
    bool known = false; ///< false when ptxas did not run (compute_XX target)

    friend bool operator==(const ResourceUsage&, const ResourceUsage&) = default;
};

/// A __global__ function found in a compiled source.
struct KernelInfo {
    std::string name;        ///< how the user names it: "multiply_them", "scale<float, 128>"
    std::string loweredName; ///< symbol in the module: "multiply_them", "_Z5scaleIfLi128EEvPT_S1_"
    std::string signature;   ///< demangled: "void scale<float, 128>(float*, float*)"
    bool externC = false;
    bool isTemplateInstance = false;
    std::vector<KernelParam> params;
    ResourceUsage resources;

    friend bool operator==(const KernelInfo&, const KernelInfo&) = default;
};

} // namespace wb
