// dest = a * b, element by element: what multiply_them must produce.
void reference(float* dest, const float* a, const float* b, int n)
{
    for (int i = 0; i < n; ++i) dest[i] = a[i] * b[i];
}
