// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

/// How a run's kernels are instrumented: what a backend compiles them for, and what the run
/// reports beside its results. A backend says which it can do (Backend::supports); the CPU
/// emulator does all. Modes do not combine (each changes how the kernel is built).
enum class CheckMode {
    None,
    Trace,  ///< who wrote each output element (RunReport::traces)
    Bounds, ///< every access checked: memory errors become RunReport::memoryFindings
    Races,  ///< data races on shared and global memory (RunReport::races)
};

/// "none", "trace", "bounds check", "race check": for messages.
inline const char* checkModeName(CheckMode mode) noexcept
{
    switch (mode) {
    case CheckMode::None:
        return "none";
    case CheckMode::Trace:
        return "trace";
    case CheckMode::Bounds:
        return "bounds check";
    case CheckMode::Races:
        return "race check";
    }
    return "none";
}

/// The spellings a project file may give a mode in compileOptions.extraFlags (docs/sessions.md):
/// "--cpu-trace", "--cpu-bounds-check", "--cpu-race-check".
inline constexpr const char* kTraceModeFlag = "--cpu-trace";
inline constexpr const char* kBoundsCheckModeFlag = "--cpu-bounds-check";
inline constexpr const char* kRaceCheckModeFlag = "--cpu-race-check";

/// The mode an extraFlags entry spells, or nullopt for any other flag.
inline std::optional<CheckMode> checkModeOfFlag(std::string_view flag) noexcept
{
    if (flag == kTraceModeFlag) return CheckMode::Trace;
    if (flag == kBoundsCheckModeFlag) return CheckMode::Bounds;
    if (flag == kRaceCheckModeFlag) return CheckMode::Races;
    return std::nullopt;
}

/// The modes asked for by `check` and by the project-file spellings in `extraFlags`, each once,
/// in the order first asked. More than one is an error for the backend to report.
inline std::vector<CheckMode> requestedCheckModes(CheckMode check,
                                                  const std::vector<std::string>& extraFlags)
{
    std::vector<CheckMode> modes;
    const auto add = [&modes](CheckMode m) {
        if (m != CheckMode::None && std::find(modes.begin(), modes.end(), m) == modes.end())
            modes.push_back(m);
    };
    add(check);
    for (const std::string& f : extraFlags)
        if (const auto m = checkModeOfFlag(f)) add(*m);
    return modes;
}

} // namespace wb
