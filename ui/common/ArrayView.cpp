// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/common/ArrayView.h"

#include <bit>
#include <cmath>
#include <cstring>

#include <QStringList>

namespace wb::ui {

std::size_t elementBytes(ElementKind kind) noexcept
{
    switch (kind) {
    case ElementKind::I8:
    case ElementKind::U8:
        return 1;
    case ElementKind::F16:
    case ElementKind::BF16:
    case ElementKind::I16:
    case ElementKind::U16:
        return 2;
    case ElementKind::F32:
    case ElementKind::I32:
    case ElementKind::U32:
        return 4;
    case ElementKind::F64:
    case ElementKind::I64:
    case ElementKind::U64:
        return 8;
    }
    return 1;
}

const char* elementKindName(ElementKind kind) noexcept
{
    switch (kind) {
    case ElementKind::F16:
        return "f16";
    case ElementKind::BF16:
        return "bf16";
    case ElementKind::F32:
        return "f32";
    case ElementKind::F64:
        return "f64";
    case ElementKind::I8:
        return "i8";
    case ElementKind::I16:
        return "i16";
    case ElementKind::I32:
        return "i32";
    case ElementKind::I64:
        return "i64";
    case ElementKind::U8:
        return "u8";
    case ElementKind::U16:
        return "u16";
    case ElementKind::U32:
        return "u32";
    case ElementKind::U64:
        return "u64";
    }
    return "?";
}

bool isFloatKind(ElementKind kind) noexcept
{
    return kind == ElementKind::F16 || kind == ElementKind::BF16 || kind == ElementKind::F32 ||
           kind == ElementKind::F64;
}

float halfToFloat(std::uint16_t h) noexcept
{
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    std::uint32_t exponent = (h >> 10) & 0x1fu;
    std::uint32_t mantissa = h & 0x3ffu;
    std::uint32_t bits = 0;
    if (exponent == 0) {
        if (mantissa == 0) {
            bits = sign;
        } else { // subnormal: normalise
            exponent = 127 - 15 + 1;
            while ((mantissa & 0x400u) == 0) {
                mantissa <<= 1;
                --exponent;
            }
            mantissa &= 0x3ffu;
            bits = sign | (exponent << 23) | (mantissa << 13);
        }
    } else if (exponent == 0x1f) {
        bits = sign | 0x7f800000u | (mantissa << 13);
    } else {
        bits = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
    }
    return std::bit_cast<float>(bits);
}

float bfloat16ToFloat(std::uint16_t bits) noexcept
{
    return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}

ArrayView::ArrayView(std::shared_ptr<const void> owner, const std::byte* data, std::size_t count,
                     ElementKind kind, std::vector<std::size_t> shape)
    : m_owner(std::move(owner))
    , m_data(data)
    , m_count(count)
    , m_kind(kind)
    , m_shape(std::move(shape))
{
    if (m_shape.empty()) m_shape = {m_count};
}

ArrayView ArrayView::copyOf(const void* bytes, std::size_t count, ElementKind kind,
                            std::vector<std::size_t> shape)
{
    auto storage = std::make_shared<std::vector<std::byte>>(count * elementBytes(kind));
    if (!storage->empty()) std::memcpy(storage->data(), bytes, storage->size());
    const std::byte* data = storage->data();
    return ArrayView(std::move(storage), data, count, kind, std::move(shape));
}

std::size_t ArrayView::width() const noexcept
{
    return m_shape.empty() ? m_count : m_shape.back();
}

std::size_t ArrayView::height() const noexcept
{
    const std::size_t w = width();
    return w == 0 ? 0 : m_count / w;
}

namespace {
template <typename T> T load(const std::byte* p) noexcept
{
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
} // namespace

double ArrayView::value(std::size_t i) const noexcept
{
    const std::byte* p = m_data + i * elementBytes(m_kind);
    switch (m_kind) {
    case ElementKind::F16:
        return halfToFloat(load<std::uint16_t>(p));
    case ElementKind::BF16:
        return bfloat16ToFloat(load<std::uint16_t>(p));
    case ElementKind::F32:
        return load<float>(p);
    case ElementKind::F64:
        return load<double>(p);
    case ElementKind::I8:
        return load<std::int8_t>(p);
    case ElementKind::I16:
        return load<std::int16_t>(p);
    case ElementKind::I32:
        return load<std::int32_t>(p);
    case ElementKind::I64:
        return static_cast<double>(load<std::int64_t>(p));
    case ElementKind::U8:
        return load<std::uint8_t>(p);
    case ElementKind::U16:
        return load<std::uint16_t>(p);
    case ElementKind::U32:
        return load<std::uint32_t>(p);
    case ElementKind::U64:
        return static_cast<double>(load<std::uint64_t>(p));
    }
    return 0;
}

QString ArrayView::text(std::size_t i) const
{
    const std::byte* p = m_data + i * elementBytes(m_kind);
    switch (m_kind) {
    case ElementKind::I64:
        return QString::number(load<std::int64_t>(p));
    case ElementKind::U64:
        return QString::number(load<std::uint64_t>(p));
    case ElementKind::F64:
        return QString::number(load<double>(p), 'g', 17);
    case ElementKind::F32:
        return QString::number(static_cast<double>(load<float>(p)), 'g', 9);
    case ElementKind::F16:
    case ElementKind::BF16:
        return QString::number(value(i), 'g', 5);
    default:
        return QString::number(static_cast<qlonglong>(value(i)));
    }
}

QString ArrayView::coordinates(std::size_t i) const
{
    if (m_shape.size() <= 1) return QStringLiteral("[%1]").arg(i);
    std::vector<std::size_t> idx(m_shape.size());
    std::size_t rest = i;
    for (std::size_t d = m_shape.size(); d-- > 0;) {
        const std::size_t extent = m_shape[d] == 0 ? 1 : m_shape[d];
        idx[d] = rest % extent;
        rest /= extent;
    }
    QStringList parts;
    for (std::size_t v : idx)
        parts << QString::number(v);
    return u'[' + parts.join(QStringLiteral(", ")) + u']';
}

} // namespace wb::ui
