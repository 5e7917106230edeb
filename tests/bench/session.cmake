# SPDX-License-Identifier: GPL-3.0-or-later
# bench_diff: the session diff engine against NumPy (np.abs(a-b).max() + np.allclose) on the
# same 100M float32 arrays, measured in the same run. Not a test: run it by hand.
add_executable(bench_diff ${CMAKE_CURRENT_LIST_DIR}/bench_diff.cpp)
target_link_libraries(bench_diff PRIVATE Warpbench::core wb_warnings)
