// Sorting is exact: the kernel must give the same permutation of the same keys.
#include <algorithm>

void reference(unsigned int n, float* keys)
{
    std::sort(keys, keys + n);
}
