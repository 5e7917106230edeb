// The GPU fuses alpha*x+y into one FMA (one rounding); std::fma does the same here, while the
// CPU emulator (x86-64 without FMA) rounds twice. Near zero, where y cancels alpha*x, the two
// differ by many ULPs but by less than half an ULP of alpha*x in absolute terms: hence an
// absolute tolerance rather than a ULP one.
#include <cmath>

void reference(int n, float alpha, const float* x, float* y)
{
    for (int i = 0; i < n; ++i) y[i] = std::fma(alpha, x[i], y[i]);
}
