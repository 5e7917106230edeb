# SPDX-License-Identifier: GPL-3.0-or-later
# bench_races: race-check mode against a plain emulator run of every example, in the same run.
add_executable(bench_races ${CMAKE_CURRENT_LIST_DIR}/bench_races.cpp)
target_link_libraries(bench_races PRIVATE Warpbench::core Warpbench::imageio wb_warnings)
add_dependencies(bench_races warpbench-cpu-sandbox)
