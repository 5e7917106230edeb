// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/Poison.h"

#include <cstring>

namespace wb::session {

namespace {
std::uint64_t elementBits(const HostArray& a, std::size_t index) noexcept
{
    const std::size_t size = elementSize(a.type());
    std::uint64_t v = 0;
    std::memcpy(&v, a.data() + index * size, size); // little-endian host
    return v;
}
} // namespace

std::string withThousands(std::uint64_t value)
{
    std::string digits = std::to_string(value);
    std::string out;
    const std::size_t n = digits.size();
    for (std::size_t i = 0; i < n; ++i) {
        if (i && (n - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

std::string CoverageStats::message(const std::string& buffer) const
{
    if (!checked || unwritten == 0) return {};
    std::string s = withThousands(unwritten);
    s.append(" of ").append(withThousands(total)).append(" elements of '").append(buffer);
    s.append(unwritten == 1 ? "' was never written" : "' were never written");
    if (!hint.empty()) s.append(" — ").append(hint);
    return s;
}

std::uint64_t Poison::bits(ElementType type) noexcept
{
    switch (type) {
    case ElementType::F16:
        return 0x7eadu; // quiet NaN, payload 0x0ad
    case ElementType::BF16:
        return 0x7fadu; // quiet NaN, payload 0x2d
    case ElementType::F32:
        return 0x7fc0deadu; // quiet NaN, payload 0xdead
    case ElementType::F64:
        return 0x7ff8deaddeaddeadull;
    case ElementType::I8:
    case ElementType::U8:
    case ElementType::Bool: // neither 0 nor 1: no kernel stores it as a bool
        return 0xdeu;
    case ElementType::I16:
    case ElementType::U16:
        return 0xdeadu;
    case ElementType::I32:
    case ElementType::U32:
        return 0xdeadbeefu;
    case ElementType::I64:
    case ElementType::U64:
        return 0xdeadbeefdeadbeefull;
    }
    return 0;
}

void Poison::fill(HostArray& array) noexcept
{
    const std::size_t size = elementSize(array.type());
    const std::uint64_t b = bits(array.type());
    std::uint8_t* p = array.data();
    for (std::size_t i = 0; i < array.count(); ++i)
        std::memcpy(p + i * size, &b, size);
}

bool Poison::holds(const HostArray& array, std::size_t index) noexcept
{
    return elementBits(array, index) == bits(array.type());
}

std::vector<std::uint8_t> Poison::unwrittenMask(const HostArray& result, const HostArray* expected)
{
    std::vector<std::uint8_t> mask(result.count(), 0);
    const std::uint64_t b = bits(result.type());
    const bool useRef =
        expected && expected->type() == result.type() && expected->count() == result.count();
    for (std::size_t i = 0; i < result.count(); ++i)
        mask[i] = elementBits(result, i) == b && !(useRef && elementBits(*expected, i) == b);
    return mask;
}

std::vector<std::size_t> Poison::unwrittenIndices(const HostArray& result,
                                                  const HostArray* expected, std::size_t limit)
{
    std::vector<std::size_t> out;
    const std::vector<std::uint8_t> mask = unwrittenMask(result, expected);
    for (std::size_t i = 0; i < mask.size() && out.size() < limit; ++i)
        if (mask[i]) out.push_back(i);
    return out;
}

CoverageStats Poison::check(const HostArray& result, const HostArray* expected,
                            const LaunchConfig* launch)
{
    CoverageStats c;
    c.checked = true;
    c.total = result.count();
    const std::uint64_t b = bits(result.type());
    const bool useRef =
        expected && expected->type() == result.type() && expected->count() == result.count();
    for (std::size_t i = 0; i < result.count(); ++i) {
        if (elementBits(result, i) != b) continue;
        if (useRef && elementBits(*expected, i) == b) {
            ++c.ambiguous;
            continue;
        }
        if (c.unwritten == 0) c.firstUnwritten = i;
        c.lastUnwritten = i;
        ++c.unwritten;
    }
    if (c.unwritten == 0) return c;
    c.tailOnly = c.lastUnwritten == c.total - 1 && c.firstUnwritten == c.total - c.unwritten;
    const std::uint64_t threads = launch ? launch->grid.volume() * launch->block.volume() : 0;
    const bool twoD = result.shape().size() >= 2;
    if (c.unwritten == c.total) {
        c.hint =
            "the kernel wrote nothing here: wrong buffer bound, or every thread returned early?";
    } else if (c.tailOnly && !twoD) {
        c.hint = "last block does not cover the tail?";
        if (threads && threads < c.total)
            c.hint += " (" + withThousands(threads) + " threads for " + withThousands(c.total) +
                      " elements: round the grid up, e.g. ceil(n/block))";
    } else if (twoD) {
        // Rows and columns by name (x = column, y = row): "[0, 104]" reads either way.
        const auto& shape = result.shape();
        const std::size_t cols = shape.back(), rows = shape[shape.size() - 2];
        const auto first = result.coordinates(c.firstUnwritten);
        // (Appended piece by piece: GCC 12 -O3 warns falsely on chained temporaries here.)
        std::string hint = "first at ";
        for (std::size_t i = 0; i + 2 < first.size(); ++i)
            hint.append("[").append(std::to_string(first[i])).append("] ");
        hint.append("row ").append(std::to_string(first[first.size() - 2]));
        hint.append(", column ").append(std::to_string(first.back()));
        hint.append(" of a ").append(result.shapeText()).append(" array (");
        hint.append(std::to_string(rows)).append(" rows × ").append(std::to_string(cols));
        hint.append(" columns): do the blocks cover every row and column?");
        c.hint = std::move(hint);
    } else {
        c.hint = "gaps inside the array: do some threads skip their element or share one?";
    }
    return c;
}

} // namespace wb::session
