# SPDX-License-Identifier: GPL-3.0-or-later
# bench_array: generated kernels, DeviceArray reductions and the device pool on the GPU, each
# beside its peer (cuMemcpyDtoD, cub::DeviceReduce::Sum, cuMemAlloc); included from CMakeLists.txt.
add_executable(bench_array ${CMAKE_CURRENT_LIST_DIR}/bench_array.cpp)
target_link_libraries(bench_array PRIVATE Warpbench::core wb_warnings)
# The CUB peer needs nvcc: built when CMake finds a CUDA compiler, else the row says why.
include(CheckLanguage)
check_language(CUDA)
if(CMAKE_CUDA_COMPILER AND NOT WB_BENCH_NO_CUB)
    enable_language(CUDA)
    add_library(wb_bench_cub_peer STATIC ${CMAKE_CURRENT_LIST_DIR}/cub_peer.cu)
    set_target_properties(wb_bench_cub_peer PROPERTIES CUDA_ARCHITECTURES "90"
                          POSITION_INDEPENDENT_CODE ON CUDA_RUNTIME_LIBRARY Static
                          CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON)
    target_link_libraries(bench_array PRIVATE wb_bench_cub_peer CUDA::cudart_static)
    target_compile_definitions(bench_array PRIVATE WB_BENCH_HAVE_CUB=1)
endif()
