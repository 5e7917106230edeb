// SPDX-License-Identifier: GPL-3.0-or-later
// __half and __nv_bfloat16 for the CPU emulator: 16-bit storage, arithmetic through float with
// round-to-nearest-even back to 16 bits (what the GPU's single operations produce).
#pragma once

#include <cstdint>
#include <cstring>

namespace wbcpu {

inline std::uint32_t floatBits(float f)
{
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
inline float bitsFloat(std::uint32_t u)
{
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

inline std::uint16_t floatToHalfBits(float f)
{
    const std::uint32_t x = floatBits(f);
    const std::uint32_t sign = (x >> 16) & 0x8000u;
    const std::uint32_t absx = x & 0x7fffffffu;
    if (absx >= 0x7f800000u) // inf or nan
        return static_cast<std::uint16_t>(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0u));
    if (absx >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u); // overflow → inf
    if (absx < 0x38800000u) {                                                   // subnormal or zero
        if (absx < 0x33000000u) return static_cast<std::uint16_t>(sign); // < half of min subnormal
        const std::uint32_t e = absx >> 23;
        const std::uint32_t m = (absx & 0x7fffffu) | 0x800000u;
        // value = m * 2^(e-150); in units of the smallest subnormal (2^-24): m >> (126 - e)
        const std::uint32_t shift = 126u - e;
        const std::uint32_t q = m >> shift;
        const std::uint32_t rem = m & ((1u << shift) - 1u);
        const std::uint32_t halfway = 1u << (shift - 1u);
        std::uint32_t h = q;
        if (rem > halfway || (rem == halfway && (q & 1u))) ++h;
        return static_cast<std::uint16_t>(sign | h);
    }
    // normal: rebias exponent 127 → 15, round mantissa 23 → 10 bits
    std::uint32_t h = ((absx - 0x38000000u) >> 13);
    const std::uint32_t rem = absx & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;
    return static_cast<std::uint16_t>(sign | h);
}

inline float halfBitsToFloat(std::uint16_t h)
{
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t e = (h >> 10) & 0x1fu;
    const std::uint32_t m = h & 0x3ffu;
    if (e == 0) {
        if (m == 0) return bitsFloat(sign);
        return (sign ? -1.0f : 1.0f) * static_cast<float>(m) * 5.9604644775390625e-8f; // m * 2^-24
    }
    if (e == 31) return bitsFloat(sign | 0x7f800000u | (m << 13));
    return bitsFloat(sign | ((e + 112u) << 23) | (m << 13));
}

inline std::uint16_t floatToBf16Bits(float f)
{
    const std::uint32_t x = floatBits(f);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return static_cast<std::uint16_t>((x >> 16) | 0x40u); // nan
    const std::uint32_t rounding = 0x7fffu + ((x >> 16) & 1u);
    return static_cast<std::uint16_t>((x + rounding) >> 16);
}
inline float bf16BitsToFloat(std::uint16_t b)
{
    return bitsFloat(static_cast<std::uint32_t>(b) << 16);
}

/// A 16-bit float type parameterised by its conversions.
template <std::uint16_t (*ToBits)(float), float (*ToFloat)(std::uint16_t), int Tag> struct Half16 {
    std::uint16_t bits;
    Half16() = default;
    Half16(float f)
        : bits(ToBits(f))
    {
    }
    Half16(double d)
        : bits(ToBits(static_cast<float>(d)))
    {
    }
    Half16(int i)
        : bits(ToBits(static_cast<float>(i)))
    {
    }
    Half16(unsigned i)
        : bits(ToBits(static_cast<float>(i)))
    {
    }
    Half16(long long i)
        : bits(ToBits(static_cast<float>(i)))
    {
    }
    operator float() const { return ToFloat(bits); }
    static Half16 fromBits(std::uint16_t b)
    {
        Half16 h;
        h.bits = b;
        return h;
    }
    Half16& operator+=(Half16 o) { return *this = Half16(float(*this) + float(o)); }
    Half16& operator-=(Half16 o) { return *this = Half16(float(*this) - float(o)); }
    Half16& operator*=(Half16 o) { return *this = Half16(float(*this) * float(o)); }
    Half16& operator/=(Half16 o) { return *this = Half16(float(*this) / float(o)); }
    friend Half16 operator+(Half16 a, Half16 b) { return Half16(float(a) + float(b)); }
    friend Half16 operator-(Half16 a, Half16 b) { return Half16(float(a) - float(b)); }
    friend Half16 operator*(Half16 a, Half16 b) { return Half16(float(a) * float(b)); }
    friend Half16 operator/(Half16 a, Half16 b) { return Half16(float(a) / float(b)); }
    friend Half16 operator-(Half16 a)
    {
        return fromBits(static_cast<std::uint16_t>(a.bits ^ 0x8000u));
    }
    friend Half16 operator+(Half16 a) { return a; }
    friend bool operator==(Half16 a, Half16 b) { return float(a) == float(b); }
    friend bool operator!=(Half16 a, Half16 b) { return float(a) != float(b); }
    friend bool operator<(Half16 a, Half16 b) { return float(a) < float(b); }
    friend bool operator>(Half16 a, Half16 b) { return float(a) > float(b); }
    friend bool operator<=(Half16 a, Half16 b) { return float(a) <= float(b); }
    friend bool operator>=(Half16 a, Half16 b) { return float(a) >= float(b); }
};

} // namespace wbcpu

using __half = wbcpu::Half16<wbcpu::floatToHalfBits, wbcpu::halfBitsToFloat, 0>;
using __nv_bfloat16 = wbcpu::Half16<wbcpu::floatToBf16Bits, wbcpu::bf16BitsToFloat, 1>;
using half = __half;
using nv_bfloat16 = __nv_bfloat16;
struct __half2 {
    __half x, y;
};
struct __nv_bfloat162 {
    __nv_bfloat16 x, y;
};

inline __half __float2half(float f)
{
    return __half(f);
}
inline __half __float2half_rn(float f)
{
    return __half(f);
}
inline __half __double2half(double d)
{
    return __half(d);
}
inline float __half2float(__half h)
{
    return float(h);
}
inline __half __int2half_rn(int i)
{
    return __half(i);
}
inline int __half2int_rn(__half h)
{
    return static_cast<int>(nearbyintf(float(h)));
}
inline int __half2int_rz(__half h)
{
    return static_cast<int>(float(h));
}
inline unsigned short __half_as_ushort(__half h)
{
    return h.bits;
}
inline short __half_as_short(__half h)
{
    return static_cast<short>(h.bits);
}
inline __half __ushort_as_half(unsigned short b)
{
    return __half::fromBits(b);
}
inline __half __short_as_half(short b)
{
    return __half::fromBits(static_cast<std::uint16_t>(b));
}
inline __nv_bfloat16 __float2bfloat16(float f)
{
    return __nv_bfloat16(f);
}
inline __nv_bfloat16 __float2bfloat16_rn(float f)
{
    return __nv_bfloat16(f);
}
inline float __bfloat162float(__nv_bfloat16 b)
{
    return float(b);
}
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 b)
{
    return b.bits;
}
inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short b)
{
    return __nv_bfloat16::fromBits(b);
}
inline __half2 __floats2half2_rn(float a, float b)
{
    return __half2{__half(a), __half(b)};
}
inline __half2 __float2half2_rn(float a)
{
    return __half2{__half(a), __half(a)};
}
inline float __low2float(__half2 h)
{
    return float(h.x);
}
inline float __high2float(__half2 h)
{
    return float(h.y);
}
inline __half2 __hadd2(__half2 a, __half2 b)
{
    return __half2{a.x + b.x, a.y + b.y};
}
inline __half2 __hmul2(__half2 a, __half2 b)
{
    return __half2{a.x * b.x, a.y * b.y};
}

#define WB_HALF_OPS(T, SFX)                                                                        \
    inline T __hadd##SFX(T a, T b)                                                                 \
    {                                                                                              \
        return a + b;                                                                              \
    }                                                                                              \
    inline T __hsub##SFX(T a, T b)                                                                 \
    {                                                                                              \
        return a - b;                                                                              \
    }                                                                                              \
    inline T __hmul##SFX(T a, T b)                                                                 \
    {                                                                                              \
        return a * b;                                                                              \
    }                                                                                              \
    inline T __hdiv##SFX(T a, T b)                                                                 \
    {                                                                                              \
        return a / b;                                                                              \
    }                                                                                              \
    inline T __hneg##SFX(T a)                                                                      \
    {                                                                                              \
        return -a;                                                                                 \
    }                                                                                              \
    inline T __habs##SFX(T a)                                                                      \
    {                                                                                              \
        return T::fromBits(static_cast<std::uint16_t>(a.bits & 0x7fffu));                          \
    }                                                                                              \
    inline T __hfma##SFX(T a, T b, T c)                                                            \
    {                                                                                              \
        return T(fmaf(float(a), float(b), float(c)));                                              \
    }                                                                                              \
    inline bool __heq##SFX(T a, T b)                                                               \
    {                                                                                              \
        return a == b;                                                                             \
    }                                                                                              \
    inline bool __hne##SFX(T a, T b)                                                               \
    {                                                                                              \
        return a != b;                                                                             \
    }                                                                                              \
    inline bool __hlt##SFX(T a, T b)                                                               \
    {                                                                                              \
        return a < b;                                                                              \
    }                                                                                              \
    inline bool __hle##SFX(T a, T b)                                                               \
    {                                                                                              \
        return a <= b;                                                                             \
    }                                                                                              \
    inline bool __hgt##SFX(T a, T b)                                                               \
    {                                                                                              \
        return a > b;                                                                              \
    }                                                                                              \
    inline bool __hge##SFX(T a, T b)                                                               \
    {                                                                                              \
        return a >= b;                                                                             \
    }                                                                                              \
    inline T __hmax##SFX(T a, T b)                                                                 \
    {                                                                                              \
        return a > b ? a : b;                                                                      \
    }                                                                                              \
    inline T __hmin##SFX(T a, T b)                                                                 \
    {                                                                                              \
        return a < b ? a : b;                                                                      \
    }
WB_HALF_OPS(__half, )
#undef WB_HALF_OPS
// The _rn forms forbid contraction into an fma on the GPU; the emulator never contracts, so
// they are the plain operations here.
inline __half __hadd_rn(__half a, __half b)
{
    return a + b;
}
inline __half __hsub_rn(__half a, __half b)
{
    return a - b;
}
inline __half __hmul_rn(__half a, __half b)
{
    return a * b;
}
inline __half hsqrt(__half a)
{
    return __half(sqrtf(float(a)));
}
inline __half hexp(__half a)
{
    return __half(expf(float(a)));
}
inline __half hlog(__half a)
{
    return __half(logf(float(a)));
}
inline __half hrsqrt(__half a)
{
    return __half(1.0f / sqrtf(float(a)));
}
inline bool __hisnan(__half a)
{
    return std::isnan(float(a));
}
inline bool __hisinf(__half a)
{
    return std::isinf(float(a));
}
inline __nv_bfloat16 __hadd(__nv_bfloat16 a, __nv_bfloat16 b)
{
    return a + b;
}
inline __nv_bfloat16 __hmul(__nv_bfloat16 a, __nv_bfloat16 b)
{
    return a * b;
}
inline __nv_bfloat16 __hsub(__nv_bfloat16 a, __nv_bfloat16 b)
{
    return a - b;
}
inline __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c)
{
    return __nv_bfloat16(fmaf(float(a), float(b), float(c)));
}

// atomicAdd on 16-bit floats and their pairs (cuda_fp16.h / cuda_bf16.h): compare-and-swap loops
// on the storage, the sum rounded as the arithmetic above rounds it.
#define WB_HALF_ATOMIC(T, EXPR)                                                                    \
    inline T atomicAdd(T* p, T v)                                                                  \
    {                                                                                              \
        WB_RACE_MODE(wbcpu::abi::RaceLegacy, wbcpu::abi::RaceDevice);                              \
        return wbcpu::casLoop(p, [v](T o) { return EXPR; });                                       \
    }                                                                                              \
    inline T atomicAdd_block(T* p, T v)                                                            \
    {                                                                                              \
        WB_RACE_MODE(wbcpu::abi::RaceLegacy, wbcpu::abi::RaceBlock);                               \
        return atomicAdd(p, v);                                                                    \
    }                                                                                              \
    inline T atomicAdd_system(T* p, T v)                                                           \
    {                                                                                              \
        WB_RACE_MODE(wbcpu::abi::RaceLegacy, wbcpu::abi::RaceSystem);                              \
        return atomicAdd(p, v);                                                                    \
    }
WB_HALF_ATOMIC(__half, o + v)
WB_HALF_ATOMIC(__nv_bfloat16, o + v)
WB_HALF_ATOMIC(__half2, (__half2{o.x + v.x, o.y + v.y}))
WB_HALF_ATOMIC(__nv_bfloat162, (__nv_bfloat162{o.x + v.x, o.y + v.y}))
#undef WB_HALF_ATOMIC
