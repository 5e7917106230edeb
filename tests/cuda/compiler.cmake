# SPDX-License-Identifier: GPL-3.0-or-later
# Tests of the NVRTC layer (no GPU needed: NVRTC runs anywhere); included from CMakeLists.txt.
wb_add_qtest(NAME tst_compiler SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_compiler.cpp)
# wb_add_qtest does not turn AUTOMOC on; the test classes need moc.
set_target_properties(tst_compiler PROPERTIES AUTOMOC ON)
wb_add_qtest(NAME tst_kerneldiscovery SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_kerneldiscovery.cpp)
set_target_properties(tst_kerneldiscovery PROPERTIES AUTOMOC ON)
wb_add_qtest(NAME tst_compilecache SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_compilecache.cpp)
set_target_properties(tst_compilecache PROPERTIES AUTOMOC ON)
