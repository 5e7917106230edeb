// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/common/RunOutcome.h"

namespace wb::ui {

ElementKind elementKindOf(session::ElementType type) noexcept
{
    switch (type) {
    case session::ElementType::F16:
        return ElementKind::F16;
    case session::ElementType::BF16:
        return ElementKind::BF16;
    case session::ElementType::F32:
        return ElementKind::F32;
    case session::ElementType::F64:
        return ElementKind::F64;
    case session::ElementType::I8:
        return ElementKind::I8;
    case session::ElementType::I16:
        return ElementKind::I16;
    case session::ElementType::I32:
        return ElementKind::I32;
    case session::ElementType::I64:
        return ElementKind::I64;
    case session::ElementType::U8:
    case session::ElementType::Bool:
        return ElementKind::U8;
    case session::ElementType::U16:
        return ElementKind::U16;
    case session::ElementType::U32:
        return ElementKind::U32;
    case session::ElementType::U64:
        return ElementKind::U64;
    }
    return ElementKind::F32;
}

ArrayView viewOf(std::shared_ptr<const void> owner, const session::HostArray& array)
{
    return ArrayView(std::move(owner), reinterpret_cast<const std::byte*>(array.data()),
                     array.count(), elementKindOf(array.type()), array.shape());
}

} // namespace wb::ui
