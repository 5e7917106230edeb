# SPDX-License-Identifier: GPL-3.0-or-later
# The NVRTC layer (owned by the nvrtc work); included from core/cuda/CMakeLists.txt.
target_sources(warpbench_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/Compiler.cpp
    ${CMAKE_CURRENT_LIST_DIR}/CompileCache.cpp
    ${CMAKE_CURRENT_LIST_DIR}/detail/DiagnosticParser.cpp
    ${CMAKE_CURRENT_LIST_DIR}/detail/KernelDiscovery.cpp
    ${CMAKE_CURRENT_LIST_DIR}/detail/NvrtcApi.cpp
    ${CMAKE_CURRENT_LIST_DIR}/detail/PtxParser.cpp)
