# SPDX-License-Identifier: GPL-3.0-or-later
# bench_debugger: time to the first breakpoint of matmul_tiled under the thread debugger vs a
# plain CPU-emulator run of the same session.
add_executable(bench_debugger ${CMAKE_CURRENT_LIST_DIR}/bench_debugger.cpp)
target_link_libraries(bench_debugger PRIVATE Warpbench::core wb_warnings)
add_dependencies(bench_debugger warpbench-cpu-sandbox)
target_compile_definitions(bench_debugger PRIVATE WB_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
