// SPDX-License-Identifier: GPL-3.0-or-later
// NVRTC stand-in: the profiler API is host code (cudaProfilerStart/Stop are called from
// host code only); kernel files include it for their host half. It declares nothing.
#pragma once
