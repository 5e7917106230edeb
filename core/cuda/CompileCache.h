// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/CompileResult.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace wb::cuda {

/// The two-layer cache of NVRTC results: an in-memory map (key → shared immutable result) in
/// front of one file per entry under a directory (cacheDir()/nvrtc). Entries are written
/// atomically (temporary file + rename) and carry a header with magic, format version, payload
/// length, the key and a checksum, so a truncated or corrupted file is detected (and removed)
/// instead of loaded. Thread-safe. The format is described in docs/compiler.md.
class CompileCache {
public:
    using Key = std::array<std::uint8_t, 32>; ///< SHA-256

    /// Everything a compile's output depends on.
    struct KeyInput {
        std::string_view source;
        std::string_view sourceName;
        const std::vector<std::string>* flags = nullptr; ///< all NVRTC options, arch included
        const std::vector<std::string>* nameExpressions = nullptr;
        std::string_view compilerVersion; ///< "NVRTC 13.0"
        std::string_view headers;         ///< contents of user headers
    };
    static Key makeKey(const KeyInput& input);
    static std::string hexKey(const Key& key);

    /// `directory` is created on first store. `memoryCapacity` bounds the in-memory layer
    /// (entries), `diskLimitBytes` the entry files: past it the least recently used ones are
    /// deleted.
    explicit CompileCache(std::filesystem::path directory, std::size_t memoryCapacity = 512,
                          std::uintmax_t diskLimitBytes = std::uintmax_t(512) << 20);

    const std::filesystem::path& directory() const noexcept { return m_directory; }
    std::filesystem::path entryPath(const Key& key) const;

    std::shared_ptr<const CompileResult> findInMemory(const Key& key) const;
    /// Reads and verifies the entry file; a valid one is also put in memory. A damaged file is
    /// deleted and nullptr returned (the caller recompiles).
    std::shared_ptr<const CompileResult> findOnDisk(const Key& key);
    /// Stores in memory and, when `persist`, on disk. Disk errors are not fatal (returns false).
    bool store(const Key& key, std::shared_ptr<const CompileResult> result, bool persist);
    void clearMemory();
    /// Deletes least recently used entry files (and stale temporaries) until the directory
    /// holds at most 80 % of the disk limit; the newest entry always stays. Runs on its own
    /// every few stores.
    void trimDisk();

    /// The entry file format, exposed for tests: serialize() gives the complete file contents.
    static std::string serialize(const Key& key, const CompileResult& result);
    static std::optional<CompileResult> deserialize(const Key& key, std::string_view file);
    /// The payload checksum stored at offset 24 (a 64-bit multiply-xor hash, not cryptographic).
    static std::uint64_t payloadChecksum(std::string_view payload) noexcept;
    static constexpr std::size_t kHeaderSize = 64;

private:
    std::filesystem::path m_directory;
    std::size_t m_capacity;
    std::uintmax_t m_diskLimit;
    std::atomic<unsigned> m_stores{0};
    mutable std::mutex m_mutex;
    struct KeyHash {
        std::size_t operator()(const Key& k) const noexcept;
    };
    std::unordered_map<Key, std::shared_ptr<const CompileResult>, KeyHash> m_memory;
    std::deque<Key> m_order; // insertion order, for eviction
};

} // namespace wb::cuda
