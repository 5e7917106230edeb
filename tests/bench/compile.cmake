# SPDX-License-Identifier: GPL-3.0-or-later
# bench_compile: NVRTC layer speed against raw NVRTC (no GPU needed); included from CMakeLists.txt.
add_executable(bench_compile ${CMAKE_CURRENT_LIST_DIR}/bench_compile.cpp)
target_link_libraries(bench_compile PRIVATE Warpbench::core wb_warnings)
