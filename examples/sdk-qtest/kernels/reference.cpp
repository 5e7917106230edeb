// SPDX-License-Identifier: GPL-3.0-or-later
// The reference: the same computation in plain C++, called with the session's buffers and
// scalars bound by name (y is in/out: it starts from the same initial values as the kernel's).
void reference(float* y, const float* x, float a, int n)
{
    for (int i = 0; i < n; ++i)
        y[i] = a * x[i] + y[i];
}
