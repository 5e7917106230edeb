// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace wb::session {

/// The element types a session buffer or scalar can have.
/// Bool is C++'s `bool`: one byte holding 0 or 1 (NumPy's "|b1").
enum class ElementType { F16, BF16, F32, F64, I8, I16, I32, I64, U8, U16, U32, U64, Bool };

/// "f32", "u8", "bool", ... as written in project files.
const char* elementTypeName(ElementType type) noexcept;
std::optional<ElementType> parseElementType(std::string_view text) noexcept;
/// Bytes per element.
std::size_t elementSize(ElementType type) noexcept;
bool isFloatingPoint(ElementType type) noexcept;
bool isSigned(ElementType type) noexcept;
/// Integers of every width and bool: values that are compared and printed exactly.
bool isInteger(ElementType type) noexcept;
/// NumPy dtype descriptor, little-endian: "<f4", "|u1", "<f2" (bf16 has none: "<V2"... see Npy).
std::string npyDescr(ElementType type);
/// Whether a C/C++/CUDA type spelling names this element type ("float", "int32_t", "__half").
/// nullopt when the spelling names none of them (structs, vector types, void).
std::optional<ElementType> elementTypeOfCType(std::string_view spelling) noexcept;

/// IEEE binary16 / bfloat16 conversions (round to nearest even).
float halfToFloat(std::uint16_t bits) noexcept;
std::uint16_t floatToHalf(float value) noexcept;
float bfloat16ToFloat(std::uint16_t bits) noexcept;
std::uint16_t floatToBfloat16(float value) noexcept;

/// Reads element `index` of `data` (of `type`) as a double, and writes one (with C++'s
/// conversion for floats, saturating-free truncation toward zero for integers).
double loadAsDouble(ElementType type, const void* data, std::size_t index) noexcept;
void storeFromDouble(ElementType type, void* data, std::size_t index, double value) noexcept;
/// Whether storeFromDouble keeps `value` in range: integers within the type's limits (not NaN),
/// finite floats that stay finite (1e39 does not fit f32). Infinities and NaN fit float types;
/// every value fits bool (non-zero is true).
bool fitsElementType(ElementType type, double value) noexcept;
/// "-2147483648 to 2147483647", "±3.40282e+38", for messages.
std::string elementTypeRangeText(ElementType type);

} // namespace wb::session
