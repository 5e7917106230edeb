// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/ElementType.h"

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace wb::session {

namespace {
struct TypeRow {
    ElementType type;
    const char* name;
    std::size_t size;
    const char* descr;
};
constexpr std::array<TypeRow, 13> kTypes{{
    {ElementType::F16, "f16", 2, "<f2"},
    {ElementType::BF16, "bf16", 2, "<V2"},
    {ElementType::F32, "f32", 4, "<f4"},
    {ElementType::F64, "f64", 8, "<f8"},
    {ElementType::I8, "i8", 1, "|i1"},
    {ElementType::I16, "i16", 2, "<i2"},
    {ElementType::I32, "i32", 4, "<i4"},
    {ElementType::I64, "i64", 8, "<i8"},
    {ElementType::U8, "u8", 1, "|u1"},
    {ElementType::U16, "u16", 2, "<u2"},
    {ElementType::U32, "u32", 4, "<u4"},
    {ElementType::U64, "u64", 8, "<u8"},
    {ElementType::Bool, "bool", 1, "|b1"},
}};

const TypeRow& row(ElementType type) noexcept
{
    return kTypes[static_cast<std::size_t>(type)];
}

template <typename T> T loadRaw(const void* data, std::size_t index) noexcept
{
    T value;
    std::memcpy(&value, static_cast<const char*>(data) + index * sizeof(T), sizeof(T));
    return value;
}

template <typename T> void storeRaw(void* data, std::size_t index, T value) noexcept
{
    std::memcpy(static_cast<char*>(data) + index * sizeof(T), &value, sizeof(T));
}

template <typename T> T toInteger(double value) noexcept
{
    if (std::isnan(value)) return T{0};
    const double lo = static_cast<double>(std::numeric_limits<T>::lowest());
    const double hi = static_cast<double>(std::numeric_limits<T>::max());
    if (value <= lo) return std::numeric_limits<T>::lowest();
    if (value >= hi) return std::numeric_limits<T>::max();
    return static_cast<T>(value);
}
} // namespace

const char* elementTypeName(ElementType type) noexcept
{
    return row(type).name;
}

std::optional<ElementType> parseElementType(std::string_view text) noexcept
{
    for (const TypeRow& r : kTypes)
        if (text == r.name) return r.type;
    return std::nullopt;
}

std::size_t elementSize(ElementType type) noexcept
{
    return row(type).size;
}

bool isFloatingPoint(ElementType type) noexcept
{
    return type == ElementType::F16 || type == ElementType::BF16 || type == ElementType::F32 ||
           type == ElementType::F64;
}

bool isSigned(ElementType type) noexcept
{
    switch (type) {
    case ElementType::U8:
    case ElementType::U16:
    case ElementType::U32:
    case ElementType::U64:
    case ElementType::Bool:
        return false;
    default:
        return true;
    }
}

bool isInteger(ElementType type) noexcept
{
    return !isFloatingPoint(type);
}

std::string npyDescr(ElementType type)
{
    return row(type).descr;
}

std::optional<ElementType> elementTypeOfCType(std::string_view s) noexcept
{
    struct Alias {
        std::string_view spelling;
        ElementType type;
    };
    static constexpr std::array<Alias, 34> kAliases{{
        {"bool", ElementType::Bool},
        {"_Bool", ElementType::Bool},
        {"float", ElementType::F32},
        {"double", ElementType::F64},
        {"__half", ElementType::F16},
        {"half", ElementType::F16},
        {"_Float16", ElementType::F16},
        {"__nv_bfloat16", ElementType::BF16},
        {"nv_bfloat16", ElementType::BF16},
        {"__bf16", ElementType::BF16},
        {"signed char", ElementType::I8},
        {"char", ElementType::I8},
        {"int8_t", ElementType::I8},
        {"short", ElementType::I16},
        {"int16_t", ElementType::I16},
        {"int", ElementType::I32},
        {"int32_t", ElementType::I32},
        {"long long", ElementType::I64},
        {"long", ElementType::I64},
        {"int64_t", ElementType::I64},
        {"ptrdiff_t", ElementType::I64},
        {"unsigned char", ElementType::U8},
        {"uint8_t", ElementType::U8},
        {"unsigned short", ElementType::U16},
        {"uint16_t", ElementType::U16},
        {"unsigned int", ElementType::U32},
        {"unsigned", ElementType::U32},
        {"uint32_t", ElementType::U32},
        {"unsigned long long", ElementType::U64},
        {"unsigned long", ElementType::U64},
        {"uint64_t", ElementType::U64},
        {"size_t", ElementType::U64},
        {"long int", ElementType::I64},
        {"short int", ElementType::I16},
    }};
    // Strip cv-qualifiers and std:: so "const float" and "std::int32_t" match.
    std::string t(s);
    auto eraseWord = [&t](std::string_view word) {
        for (std::size_t p = t.find(word); p != std::string::npos; p = t.find(word)) {
            const bool startOk = p == 0 || t[p - 1] == ' ';
            const std::size_t end = p + word.size();
            const bool endOk = end == t.size() || t[end] == ' ';
            if (!startOk || !endOk) break;
            t.erase(p, word.size());
        }
    };
    eraseWord("const");
    eraseWord("volatile");
    eraseWord("__restrict__");
    if (t.rfind("std::", 0) == 0) t.erase(0, 5);
    // Collapse spaces.
    std::string c;
    for (char ch : t) {
        if (ch == ' ' && (c.empty() || c.back() == ' ')) continue;
        c.push_back(ch);
    }
    while (!c.empty() && c.back() == ' ')
        c.pop_back();
    if (c.rfind("std::", 0) == 0) c.erase(0, 5);
    for (const Alias& a : kAliases)
        if (c == a.spelling) return a.type;
    return std::nullopt;
}

float halfToFloat(std::uint16_t h) noexcept
{
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t exp = (h >> 10) & 0x1fu;
    std::uint32_t mant = h & 0x3ffu;
    std::uint32_t bits;
    if (exp == 0) {
        if (mant == 0) {
            bits = sign;
        } else { // subnormal: renormalise
            int e = -1;
            do {
                ++e;
                mant <<= 1;
            } while ((mant & 0x400u) == 0);
            mant &= 0x3ffu;
            bits = sign | (static_cast<std::uint32_t>(127 - 15 - e) << 23) | (mant << 13);
        }
    } else if (exp == 0x1f) {
        bits = sign | 0x7f800000u | (mant << 13);
    } else {
        bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
    }
    return std::bit_cast<float>(bits);
}

std::uint16_t floatToHalf(float value) noexcept
{
    const std::uint32_t x = std::bit_cast<std::uint32_t>(value);
    const std::uint16_t sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
    const std::uint32_t absx = x & 0x7fffffffu;
    if (absx >= 0x7f800000u) // Inf or NaN (keep NaN quiet)
        return static_cast<std::uint16_t>(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0u));
    if (absx >= 0x477ff000u) // rounds to >= 65520: overflow to Inf
        return static_cast<std::uint16_t>(sign | 0x7c00u);
    if (absx < 0x38800000u) {                // result is subnormal or zero
        if (absx < 0x33000000u) return sign; // below half the smallest subnormal
        const std::uint32_t mant = (absx & 0x7fffffu) | 0x800000u;
        // value = mant * 2^(e-150); in units of the smallest subnormal (2^-24): mant >> (126-e).
        const unsigned shift = 126u - (absx >> 23); // 14..24
        const std::uint32_t shifted = mant >> shift;
        const std::uint32_t rem = mant & ((1u << shift) - 1u);
        const std::uint32_t halfway = 1u << (shift - 1u);
        std::uint32_t result = shifted;
        if (rem > halfway || (rem == halfway && (shifted & 1u))) ++result;
        return static_cast<std::uint16_t>(sign | result);
    }
    // Normal: rebias exponent, round mantissa from 23 to 10 bits.
    std::uint32_t result = ((absx >> 23) - 127 + 15) << 10 | ((absx >> 13) & 0x3ffu);
    const std::uint32_t rem = absx & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (result & 1u))) ++result;
    return static_cast<std::uint16_t>(sign | result);
}

float bfloat16ToFloat(std::uint16_t bits) noexcept
{
    return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}

std::uint16_t floatToBfloat16(float value) noexcept
{
    const std::uint32_t x = std::bit_cast<std::uint32_t>(value);
    if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((x >> 16) | 0x40u);
    const std::uint32_t rounding = 0x7fffu + ((x >> 16) & 1u);
    return static_cast<std::uint16_t>((x + rounding) >> 16);
}

double loadAsDouble(ElementType type, const void* d, std::size_t i) noexcept
{
    switch (type) {
    case ElementType::F16:
        return halfToFloat(loadRaw<std::uint16_t>(d, i));
    case ElementType::BF16:
        return bfloat16ToFloat(loadRaw<std::uint16_t>(d, i));
    case ElementType::F32:
        return loadRaw<float>(d, i);
    case ElementType::F64:
        return loadRaw<double>(d, i);
    case ElementType::I8:
        return loadRaw<std::int8_t>(d, i);
    case ElementType::I16:
        return loadRaw<std::int16_t>(d, i);
    case ElementType::I32:
        return loadRaw<std::int32_t>(d, i);
    case ElementType::I64:
        return static_cast<double>(loadRaw<std::int64_t>(d, i));
    case ElementType::U8:
        return loadRaw<std::uint8_t>(d, i);
    case ElementType::U16:
        return loadRaw<std::uint16_t>(d, i);
    case ElementType::U32:
        return loadRaw<std::uint32_t>(d, i);
    case ElementType::U64:
        return static_cast<double>(loadRaw<std::uint64_t>(d, i));
    case ElementType::Bool:
        return loadRaw<std::uint8_t>(d, i) != 0 ? 1.0 : 0.0;
    }
    return 0;
}

bool fitsElementType(ElementType type, double value) noexcept
{
    if (isFloatingPoint(type)) {
        if (!std::isfinite(value)) return true;
        std::uint64_t bits = 0;
        storeFromDouble(type, &bits, 0, value);
        return std::isfinite(loadAsDouble(type, &bits, 0));
    }
    if (type == ElementType::Bool) return true; // any value converts, as in C++
    if (std::isnan(value)) return false;
    // Powers of two are exact doubles: lowest <= value < 2^(bits) or 2^(bits-1).
    const int bits = static_cast<int>(elementSize(type) * 8);
    const double limit = std::ldexp(1.0, isSigned(type) ? bits - 1 : bits);
    const double lowest = isSigned(type) ? -limit : 0.0;
    // Fractions are truncated toward zero, so -0.5 still fits an unsigned type.
    return (value >= lowest || value > lowest - 1.0) && value < limit;
}

std::string elementTypeRangeText(ElementType type)
{
    switch (type) {
    case ElementType::F16:
        return "±65504";
    case ElementType::BF16:
        return "±3.38953e+38";
    case ElementType::F32:
        return "±3.40282e+38";
    case ElementType::F64:
        return "±1.79769e+308";
    case ElementType::I8:
        return "-128 to 127";
    case ElementType::I16:
        return "-32768 to 32767";
    case ElementType::I32:
        return "-2147483648 to 2147483647";
    case ElementType::I64:
        return "-9223372036854775808 to 9223372036854775807";
    case ElementType::U8:
        return "0 to 255";
    case ElementType::U16:
        return "0 to 65535";
    case ElementType::U32:
        return "0 to 4294967295";
    case ElementType::U64:
        return "0 to 18446744073709551615";
    case ElementType::Bool:
        return "0 to 1";
    }
    return {};
}

void storeFromDouble(ElementType type, void* d, std::size_t i, double v) noexcept
{
    switch (type) {
    case ElementType::F16:
        storeRaw(d, i, floatToHalf(static_cast<float>(v)));
        break;
    case ElementType::BF16:
        storeRaw(d, i, floatToBfloat16(static_cast<float>(v)));
        break;
    case ElementType::F32:
        storeRaw(d, i, static_cast<float>(v));
        break;
    case ElementType::F64:
        storeRaw(d, i, v);
        break;
    case ElementType::I8:
        storeRaw(d, i, toInteger<std::int8_t>(v));
        break;
    case ElementType::I16:
        storeRaw(d, i, toInteger<std::int16_t>(v));
        break;
    case ElementType::I32:
        storeRaw(d, i, toInteger<std::int32_t>(v));
        break;
    case ElementType::I64:
        storeRaw(d, i, toInteger<std::int64_t>(v));
        break;
    case ElementType::U8:
        storeRaw(d, i, toInteger<std::uint8_t>(v));
        break;
    case ElementType::U16:
        storeRaw(d, i, toInteger<std::uint16_t>(v));
        break;
    case ElementType::U32:
        storeRaw(d, i, toInteger<std::uint32_t>(v));
        break;
    case ElementType::U64:
        storeRaw(d, i, toInteger<std::uint64_t>(v));
        break;
    case ElementType::Bool: // as C++ converts to bool: anything but zero is true
        storeRaw(d, i, static_cast<std::uint8_t>(v != 0 ? 1 : 0));
        break;
    }
}

} // namespace wb::session
