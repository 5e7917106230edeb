// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/Session.h"

#include <filesystem>
#include <string>

namespace wb::session {

/// `.wbproj` files: a JSON object with "schemaVersion" (this build writes and reads
/// kSchemaVersion; newer versions are refused). Every field is validated and an error names it
/// (`buffers[2].shape: expected 1–3 positive integers or expressions`); unknown fields are
/// errors too, so typos never pass silently. Relative paths stay relative in the Session and
/// resolve against Session::baseDir (the project file's folder). See docs/sessions.md.
class ProjectFile {
public:
    static constexpr int kSchemaVersion = 1;

    /// Error(Kind::InvalidArgument) for invalid content, Error(Kind::Io) when unreadable.
    static Session load(const std::filesystem::path& path);
    /// `baseDir` becomes the session's baseDir; `name` is used in messages.
    static Session fromJson(const std::string& json, const std::filesystem::path& baseDir,
                            const std::string& name = "project");
    static std::string toJson(const Session& session);
    /// Atomic (QSaveFile): a crash mid-save leaves the previous file intact.
    static void save(const Session& session, const std::filesystem::path& path);
};

} // namespace wb::session
