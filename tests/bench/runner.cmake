# SPDX-License-Identifier: GPL-3.0-or-later
# bench_runner: a session run through warpbench-runner vs in-process, the shared-memory transfer
# vs memcpy, and the --soak N leak check (runner RSS, device memory, live handles).
add_executable(bench_runner ${CMAKE_CURRENT_LIST_DIR}/bench_runner.cpp)
target_link_libraries(bench_runner PRIVATE Warpbench::core wb_warnings)
add_dependencies(bench_runner warpbench-runner)
target_compile_definitions(bench_runner PRIVATE WB_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
