// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/Session.h"

#include <QString>

#include <optional>

namespace wb::ui {

/// The one-line form of an initialiser used in the buffer table:
/// `zeros`, `constant 3.5`, `iota 0 1`, `linspace 0 1`, `uniform 0 1 seed=7`,
/// `normal 0 1 seed=7`, `npy data/a.npy`, `bin a.bin`, `image photo.png rgb`.
/// Numbers may be expressions without spaces (`N/2`).
struct InitialiserText {
    static QString format(const session::Initialiser& init);
    /// nullopt and `error` set when the text is not an initialiser.
    static std::optional<session::Initialiser> parse(const QString& text, QString* error);
};

} // namespace wb::ui
