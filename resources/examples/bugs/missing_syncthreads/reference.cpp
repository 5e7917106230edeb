// Partial sums per block of 256, accumulated in double: the tree order of the kernel rounds
// differently from a sequential sum, hence the relative tolerance.
void reference(const float* in, float* partial, int n)
{
    const int block = 256;
    for (int b = 0; b * block < n; ++b) {
        double s = 0;
        for (int i = b * block; i < n && i < (b + 1) * block; ++i) s += in[i];
        partial[b] = static_cast<float>(s);
    }
}
