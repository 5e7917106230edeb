# SPDX-License-Identifier: GPL-3.0-or-later
# bench_cpu: the CPU emulator against native code compiled the same way, in the same run.
add_executable(bench_cpu ${CMAKE_CURRENT_LIST_DIR}/bench_cpu.cpp)
target_link_libraries(bench_cpu PRIVATE Warpbench::core wb_warnings)
