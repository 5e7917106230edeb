// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

namespace wb::ui {

/// The CUDA word lists shipped in resources/ui (compiled into the binary): keywords and
/// qualifiers, built-in variables, vector/special types, device functions and intrinsics.
struct CudaWords {
    QStringList keywords;
    QStringList builtins;
    QStringList types;
    QStringList intrinsics;

    /// Loaded once per process.
    static const CudaWords& instance();
    /// Every word, sorted, without duplicates (for autocompletion).
    QStringList all() const;
};

} // namespace wb::ui
