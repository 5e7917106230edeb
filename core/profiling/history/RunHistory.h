// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiling/RunRecord.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace wb::profiling {

/// The run history of a project: an SQLite database (Qt Sql, QSQLITE) beside the project
/// (`<project>.wbhistory`) or in the app data folder for unsaved sessions. The schema is
/// versioned with `PRAGMA user_version` and migrated forward on open.
///
/// Errors are wb::Error: Kind::Timeout when another connection holds the database locked past
/// the busy timeout (nothing is written; retry later), Kind::Io for a corrupt file (named in
/// the message, never overwritten) or any other database failure. Every write is one
/// transaction: a failure leaves the file as it was.
///
/// A RunHistory belongs to the thread that opened it (a Qt Sql rule): use it from the worker.
class RunHistory {
public:
    static constexpr int kSchemaVersion = 2;

    struct OpenOptions {
        int busyTimeoutMs = 5000; ///< how long a write waits for another connection's lock
        /// Corrupt file: false → throw (file untouched); true → rename it to
        /// `<file>.corrupt-<UTC time>`, start an empty history, and say so in warning().
        bool moveCorruptAside = false;
    };

    /// `<project without extension>.wbhistory` next to the project file.
    static std::filesystem::path pathForProject(const std::filesystem::path& projectFile);
    /// `<app data>/warpbench/unsaved.wbhistory` (QStandardPaths::GenericDataLocation), for
    /// sessions without a project file. The folder is created.
    static std::filesystem::path pathForUnsaved();

    /// Opens or creates the history, migrating older schemas. Throws wb::Error.
    explicit RunHistory(const std::filesystem::path& file);
    RunHistory(const std::filesystem::path& file, const OpenOptions& options);
    ~RunHistory();
    RunHistory(const RunHistory&) = delete;
    RunHistory& operator=(const RunHistory&) = delete;

    const std::filesystem::path& file() const noexcept { return m_file; }
    /// Non-empty when opening had to move a corrupt file aside (says where).
    const std::string& warning() const noexcept { return m_warning; }
    int schemaVersion() const;

    /// Stores a run (id, createdAt and sourceHash are filled in) and returns its id.
    std::int64_t record(RunRecord& run);
    /// Runs, newest first, without source text; `kernel` empty = all kernels; limit 0 = all.
    std::vector<RunRecord> list(const std::string& kernel = {}, std::size_t limit = 0) const;
    /// One run with its source snapshot.
    std::optional<RunRecord> get(std::int64_t id) const;
    /// Marks a run as the baseline of its kernel (the previous baseline of that kernel is
    /// unmarked).
    void setBaseline(std::int64_t id);
    void clearBaseline(const std::string& kernel);
    std::optional<RunRecord> baseline(const std::string& kernel) const;
    /// Source diff and metric deltas from run `before` to run `after`. Throws if either is missing.
    RunComparison compare(std::int64_t before, std::int64_t after) const;
    /// compare(baseline of the run's kernel, run); nullopt when the kernel has no baseline.
    std::optional<RunComparison> compareWithBaseline(std::int64_t run) const;

private:
    void open(const OpenOptions& options);
    void migrate();
    std::filesystem::path m_file;
    std::string m_connection; ///< Qt Sql connection name (unique per instance)
    std::string m_warning;
};

} // namespace wb::profiling
