// The kernel is in the header next to this file, as in cuda-samples' scalarProd.
#include "scalarProd_kernel.cuh"
