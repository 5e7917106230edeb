// Row-major C = A * B accumulated in double.
void reference(const float* A, const float* B, float* C, int n)
{
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) {
            double acc = 0;
            for (int k = 0; k < n; ++k) acc += double(A[r * n + k]) * double(B[k * n + c]);
            C[r * n + c] = static_cast<float>(acc);
        }
}
