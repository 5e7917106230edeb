// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>

#include <cstdint>
#include <string>
#include <vector>

namespace wb::runner {

/// The runner's wire format: frames on a byte stream (the runner's stdin/stdout, or an ssh
/// channel). Every frame is a 16-byte header — magic "WBRN", protocol version (u16), frame
/// type (u16), payload length (u64), little-endian — followed by the payload: compact JSON for
/// every type except Blob, whose payload is qCompress'ed buffer bytes (remote runners only;
/// local runners put buffer contents in shared memory and send descriptors). See docs/runner.md.
class Protocol {
public:
    static constexpr std::uint32_t kMagic = 0x4e524257; ///< "WBRN" read as little-endian u32
    static constexpr std::uint16_t kVersion = 2;
    static constexpr std::size_t kHeaderBytes = 16;
    static constexpr std::uint64_t kMaxPayload = std::uint64_t{1} << 40;
    /// Run and Report frames (a session, a report with its logs and diagnostics).
    static constexpr std::uint64_t kMaxDocumentPayload = std::uint64_t{256} << 20;
    /// Every other JSON frame (Hello, Stats, Quit, Error, Progress).
    static constexpr std::uint64_t kMaxSmallPayload = std::uint64_t{1} << 20;

    enum class Type : std::uint16_t {
        Hello = 1,  ///< both ways: {"version", "pid", "transport": "shm"|"inline"}
        Run = 2,    ///< client → runner: {"session", "baseDir", "name", "options"}
        Report = 3, ///< runner → client: {"report", "buffers", "findings", "shm", "exiting"}
        Blob = 4,   ///< runner → client: one compressed buffer (inline transport), before Report
        Stats = 5,  ///< both ways: request {} / answer {"pid", "vmRssKb", "handles", ...}
        Quit = 6,   ///< client → runner
        Error = 7,  ///< runner → client: {"message"}; the runner exits after sending it
        Progress =
            8, ///< runner → client: {"phase": "launch", "kernel"} when a run starts launching
    };

    struct Frame {
        std::uint16_t version = kVersion;
        Type type = Type::Error;
        std::vector<char> payload;
        QJsonObject json() const; ///< the payload parsed as a JSON object (throws wb::Error)
    };

    /// `version` is kVersion except in tests of the version check.
    static std::vector<char> encode(Type type, const QJsonObject& json,
                                    std::uint16_t version = kVersion);
    static std::vector<char> encode(Type type, const char* data, std::size_t size,
                                    std::uint16_t version = kVersion);

    /// Tries to take one frame off the front of `buffer`. Returns false when more bytes are
    /// needed. Throws wb::Error(Internal) as soon as the header is there on a bad magic ("not
    /// a Warpbench runner", quoting the first bytes), an unknown frame type, or a payload
    /// longer than payloadLimit() of its type — never waiting for (or buffering) such a
    /// payload. The version is returned as sent, for the caller to judge; frames of another
    /// version are only checked for their magic and kMaxPayload.
    static bool take(std::vector<char>& buffer, Frame& frame);
    /// The longest payload a frame of `type` may have: kMaxPayload for Blob (a buffer),
    /// kMaxDocumentPayload for Run and Report, kMaxSmallPayload for the rest.
    static std::uint64_t payloadLimit(Type type) noexcept;
    /// Whether `type` is one of the types above.
    static bool knownType(std::uint16_t type) noexcept;
    /// Up to `max` bytes of `data` as printable text (other bytes as \xNN), for messages
    /// that quote what a peer sent.
    static std::string quote(const char* data, std::size_t size, std::size_t max = 80);

    /// Blocking helpers on a file descriptor (the runner's side). writeAll retries on EINTR and
    /// short writes; readFrame returns false at end of stream. Both throw wb::Error(Io).
    static void writeAll(int fd, const std::vector<char>& bytes);
    static bool readFrame(int fd, Frame& frame);

    static const char* typeName(Type type) noexcept;
};

} // namespace wb::runner
