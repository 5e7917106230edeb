# SPDX-License-Identifier: GPL-3.0-or-later
# bench_profiling: the workbench's CUPTI kernel duration, counters and event timing for a copy
# kernel, saxpy and a tiled matmul, next to Nsight Compute (ncu) run on the same kernels in the
# same run. Prints the reason and exits 0 where there is no GPU or no ncu.
add_executable(bench_profiling ${CMAKE_CURRENT_LIST_DIR}/bench_profiling.cpp)
target_link_libraries(bench_profiling PRIVATE Warpbench::core wb_warnings)
