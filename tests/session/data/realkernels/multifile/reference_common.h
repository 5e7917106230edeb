#pragma once
inline double dot(const float* a, const float* b, int n)
{
    double s = 0;
    for (int i = 0; i < n; ++i)
        s += double(a[i]) * double(b[i]);
    return s;
}
