// The block sums and the total, accumulated in double: thread t of block b adds the elements
// b*threads + t, b*threads + t + blocks*threads, ..., so block b owns the chunks of `threads`
// elements whose chunk index is b modulo `blocks`. The kernel's tree order rounds differently,
// hence the relative tolerance.
void reference(const float* in, float* partial, float* total, int n, int blocks, int threads)
{
    double all = 0;
    for (int b = 0; b < blocks; ++b) {
        double s = 0;
        for (int i = 0; i < n; ++i)
            if ((i / threads) % blocks == b) s += in[i];
        partial[b] = static_cast<float>(s);
        all += s;
    }
    total[0] = static_cast<float>(all);
}
