// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace wb::ui {

/// Element types a buffer can hold (the session's set).
enum class ElementKind { F16, BF16, F32, F64, I8, I16, I32, I64, U8, U16, U32, U64 };

std::size_t elementBytes(ElementKind kind) noexcept;
const char* elementKindName(ElementKind kind) noexcept; ///< "f32", ...
bool isFloatKind(ElementKind kind) noexcept;

/// A read-only typed view over a host copy of a buffer: what the viewers, plots and the diff
/// table read. It keeps the bytes alive through `owner`. Values are converted on demand, one
/// element at a time, so a 100M-element buffer costs nothing until it is looked at.
class ArrayView {
public:
    ArrayView() = default;
    ArrayView(std::shared_ptr<const void> owner, const std::byte* data, std::size_t count,
              ElementKind kind, std::vector<std::size_t> shape);
    /// Copies `bytes` into a view it owns.
    static ArrayView copyOf(const void* bytes, std::size_t count, ElementKind kind,
                            std::vector<std::size_t> shape);

    bool isNull() const noexcept { return m_data == nullptr; }
    std::size_t size() const noexcept { return m_count; }
    ElementKind kind() const noexcept { return m_kind; }
    /// Outermost first (C order), 1–3 extents; {size()} when flat.
    const std::vector<std::size_t>& shape() const noexcept { return m_shape; }
    /// Rows and columns when viewed as 2-D: the last extent is the width, the others fold into
    /// the rows. A 1-D array is one row.
    std::size_t width() const noexcept;
    std::size_t height() const noexcept;
    bool is2D() const noexcept { return m_shape.size() >= 2; }

    double value(std::size_t i) const noexcept;
    /// The exact value as text (integers in full, floats with enough digits to round-trip).
    QString text(std::size_t i) const;
    /// "[12]", "[3, 4]", "[1, 2, 3]" in C order.
    QString coordinates(std::size_t i) const;

    const std::byte* data() const noexcept { return m_data; }

private:
    std::shared_ptr<const void> m_owner;
    const std::byte* m_data = nullptr;
    std::size_t m_count = 0;
    ElementKind m_kind = ElementKind::F32;
    std::vector<std::size_t> m_shape;
};

/// IEEE half and bfloat16 to float.
float halfToFloat(std::uint16_t bits) noexcept;
float bfloat16ToFloat(std::uint16_t bits) noexcept;

} // namespace wb::ui
