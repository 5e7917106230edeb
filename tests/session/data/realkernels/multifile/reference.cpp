#include "reference_common.h"

void reference(float* d_C, const float* d_A, const float* d_B, int vectorN, int elementN)
{
    for (int v = 0; v < vectorN; ++v)
        d_C[v] = static_cast<float>(dot(d_A + v * elementN, d_B + v * elementN, elementN));
}
