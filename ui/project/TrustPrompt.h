// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/FlagPolicy.h"

#include <QString>

#include <vector>

class QWidget;

namespace wb::ui {

/// The question the window asks before a project's compiler flags outside the allowed set run
/// (issue 15): a dialog listing the exact flags and what they can do, with "Trust and run" and
/// "Cancel". Its object name is "trustPrompt" and the trust button's "trustButton", so that
/// tests can answer it.
class TrustPrompt {
public:
    /// True when the user chose "Trust and run". `project` names the project in the text.
    static bool ask(QWidget* parent, const QString& project,
                    const std::vector<FlagRefusal>& refusals);
};

} // namespace wb::ui
