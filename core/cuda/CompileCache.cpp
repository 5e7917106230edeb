// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cuda/CompileCache.h"

#include "core/common/Checksum.h"
#include "core/common/Paths.h"

#include <QCryptographicHash>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <system_error>

namespace wb::cuda {

namespace {

constexpr char kMagic[8] = {'W', 'B', 'N', 'V', 'R', 'T', 'C', '\0'};
constexpr std::uint32_t kFormatVersion = 1;
// magic(8) version(4) headerSize(4) payloadLength(8) checksum(8) key(32)
constexpr std::size_t kHeaderSize = CompileCache::kHeaderSize;

std::uint64_t checksum(std::string_view data) noexcept
{
    return fastChecksum(data);
}

class Writer {
public:
    void u8(std::uint8_t v) { m_out.push_back(static_cast<char>(v)); }
    void u32(std::uint32_t v) { raw(&v, 4); }
    void u64(std::uint64_t v) { raw(&v, 8); }
    void i32(int v) { u32(static_cast<std::uint32_t>(v)); }
    void f64(double v) { raw(&v, 8); }
    void str(std::string_view s)
    {
        u32(static_cast<std::uint32_t>(s.size()));
        m_out.append(s.data(), s.size());
    }
    void raw(const void* p, std::size_t n) { m_out.append(static_cast<const char*>(p), n); }
    std::string& out() { return m_out; }

private:
    std::string m_out;
};

class Reader {
public:
    explicit Reader(std::string_view in)
        : m_in(in)
    {
    }
    bool ok() const noexcept { return m_ok; }
    std::uint8_t u8()
    {
        std::uint8_t v = 0;
        raw(&v, 1);
        return v;
    }
    std::uint32_t u32()
    {
        std::uint32_t v = 0;
        raw(&v, 4);
        return v;
    }
    std::uint64_t u64()
    {
        std::uint64_t v = 0;
        raw(&v, 8);
        return v;
    }
    int i32() { return static_cast<int>(u32()); }
    double f64()
    {
        double v = 0;
        raw(&v, 8);
        return v;
    }
    std::string str()
    {
        const std::uint32_t n = u32();
        if (!m_ok || n > m_in.size() - m_pos) {
            m_ok = false;
            return {};
        }
        std::string s(m_in.substr(m_pos, n));
        m_pos += n;
        return s;
    }
    /// A count that cannot exceed what is left (each element takes ≥ 1 byte).
    std::uint32_t count()
    {
        const std::uint32_t n = u32();
        if (n > m_in.size() - m_pos) m_ok = false;
        return m_ok ? n : 0;
    }
    bool atEnd() const noexcept { return m_pos == m_in.size(); }

private:
    void raw(void* p, std::size_t n)
    {
        if (!m_ok || n > m_in.size() - m_pos) {
            m_ok = false;
            return;
        }
        std::memcpy(p, m_in.data() + m_pos, n);
        m_pos += n;
    }
    std::string_view m_in;
    std::size_t m_pos = 0;
    bool m_ok = true;
};

void writeDiagnostic(Writer& w, const Diagnostic& d)
{
    w.str(d.file);
    w.i32(d.line);
    w.i32(d.column);
    w.u8(static_cast<std::uint8_t>(d.severity));
    w.str(d.code);
    w.str(d.message);
    w.u32(static_cast<std::uint32_t>(d.context.size()));
    for (const std::string& c : d.context)
        w.str(c);
}

Diagnostic readDiagnostic(Reader& r)
{
    Diagnostic d;
    d.file = r.str();
    d.line = r.i32();
    d.column = r.i32();
    const std::uint8_t sev = r.u8();
    d.severity = sev <= static_cast<std::uint8_t>(Severity::Fatal) ? static_cast<Severity>(sev)
                                                                   : Severity::Error;
    d.code = r.str();
    d.message = r.str();
    const std::uint32_t n = r.count();
    d.context.reserve(n);
    for (std::uint32_t i = 0; i < n && r.ok(); ++i)
        d.context.push_back(r.str());
    return d;
}

void writeKernel(Writer& w, const KernelInfo& k)
{
    w.str(k.name);
    w.str(k.loweredName);
    w.str(k.signature);
    w.u8(static_cast<std::uint8_t>((k.externC ? 1 : 0) | (k.isTemplateInstance ? 2 : 0)));
    w.u32(static_cast<std::uint32_t>(k.params.size()));
    for (const KernelParam& p : k.params) {
        w.str(p.name);
        w.str(p.type);
        w.u64(p.size);
        w.u64(p.offset);
        w.u64(p.alignment);
        w.u8(static_cast<std::uint8_t>((p.isPointer ? 1 : 0) | (p.isConst ? 2 : 0)));
        w.str(p.pointee);
    }
    const ResourceUsage& u = k.resources;
    for (const int v : {u.registers, u.spillStoreBytes, u.spillLoadBytes, u.stackFrameBytes,
                        u.sharedBytes, u.constBytes, u.barriers})
        w.i32(v);
    w.u8(u.known ? 1 : 0);
}

KernelInfo readKernel(Reader& r)
{
    KernelInfo k;
    k.name = r.str();
    k.loweredName = r.str();
    k.signature = r.str();
    const std::uint8_t flags = r.u8();
    k.externC = flags & 1;
    k.isTemplateInstance = flags & 2;
    const std::uint32_t n = r.count();
    k.params.reserve(n);
    for (std::uint32_t i = 0; i < n && r.ok(); ++i) {
        KernelParam p;
        p.name = r.str();
        p.type = r.str();
        p.size = r.u64();
        p.offset = r.u64();
        p.alignment = r.u64();
        const std::uint8_t pf = r.u8();
        p.isPointer = pf & 1;
        p.isConst = pf & 2;
        p.pointee = r.str();
        k.params.push_back(std::move(p));
    }
    ResourceUsage& u = k.resources;
    for (int* v : {&u.registers, &u.spillStoreBytes, &u.spillLoadBytes, &u.stackFrameBytes,
                   &u.sharedBytes, &u.constBytes, &u.barriers})
        *v = r.i32();
    u.known = r.u8() != 0;
    return k;
}

} // namespace

std::uint64_t CompileCache::payloadChecksum(std::string_view payload) noexcept
{
    return checksum(payload);
}

std::size_t CompileCache::KeyHash::operator()(const Key& k) const noexcept
{
    std::size_t h;
    std::memcpy(&h, k.data(), sizeof h); // the key is already a uniform hash
    return h;
}

CompileCache::Key CompileCache::makeKey(const KeyInput& in)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    auto add = [&hash](std::string_view field) {
        // Length-prefixed so that field boundaries are part of the key.
        const std::uint64_t n = field.size();
        hash.addData(QByteArrayView(reinterpret_cast<const char*>(&n), sizeof n));
        hash.addData(QByteArrayView(field.data(), static_cast<qsizetype>(field.size())));
    };
    add("warpbench-nvrtc-key-1");
    add(in.compilerVersion);
    add(in.sourceName);
    add(in.source);
    if (in.flags)
        for (const std::string& f : *in.flags)
            add(f);
    add("--name-expressions--");
    if (in.nameExpressions)
        for (const std::string& e : *in.nameExpressions)
            add(e);
    add(in.headers);
    const QByteArrayView digest = hash.resultView();
    Key key{};
    std::memcpy(key.data(), digest.data(), key.size());
    return key;
}

std::string CompileCache::hexKey(const Key& key)
{
    static constexpr char digits[] = "0123456789abcdef";
    std::string hex;
    hex.reserve(key.size() * 2);
    for (const std::uint8_t b : key) {
        hex += digits[b >> 4];
        hex += digits[b & 15];
    }
    return hex;
}

CompileCache::CompileCache(std::filesystem::path directory, std::size_t memoryCapacity,
                           std::uintmax_t diskLimitBytes)
    : m_directory(std::move(directory))
    , m_capacity(memoryCapacity == 0 ? 1 : memoryCapacity)
    , m_diskLimit(diskLimitBytes)
{
}

std::filesystem::path CompileCache::entryPath(const Key& key) const
{
    return m_directory / (hexKey(key) + ".wbnvrtc");
}

std::shared_ptr<const CompileResult> CompileCache::findInMemory(const Key& key) const
{
    std::lock_guard lock(m_mutex);
    const auto it = m_memory.find(key);
    return it == m_memory.end() ? nullptr : it->second;
}

std::shared_ptr<const CompileResult> CompileCache::findOnDisk(const Key& key)
{
    const std::string path = entryPath(key).string();
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) return nullptr;
    struct stat st {};
    std::string data;
    bool readOk = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0;
    if (readOk) {
        data.resize(static_cast<std::size_t>(st.st_size));
        std::size_t got = 0;
        while (got < data.size()) {
            const ssize_t n = ::read(fd, data.data() + got, data.size() - got);
            if (n <= 0) break;
            got += static_cast<std::size_t>(n);
        }
        readOk = got == data.size();
    }
    // Mark it recently used for trimDisk() (one syscall on an open file).
    if (readOk) ::futimens(fd, nullptr);
    ::close(fd);
    std::optional<CompileResult> result;
    if (readOk) result = deserialize(key, data);
    if (!result) {
        std::error_code ec;
        std::filesystem::remove(path, ec); // damaged: never loaded, replaced by the recompile
        return nullptr;
    }
    auto shared = std::make_shared<const CompileResult>(std::move(*result));
    store(key, shared, false);
    return shared;
}

bool CompileCache::store(const Key& key, std::shared_ptr<const CompileResult> result, bool persist)
{
    {
        std::lock_guard lock(m_mutex);
        auto [it, inserted] = m_memory.insert_or_assign(key, result);
        (void)it;
        if (inserted) {
            m_order.push_back(key);
            while (m_memory.size() > m_capacity && !m_order.empty()) {
                m_memory.erase(m_order.front());
                m_order.pop_front();
            }
        }
    }
    if (!persist) return true;

    std::error_code ec;
    std::filesystem::create_directories(m_directory, ec);
    static std::atomic<unsigned> counter{0};
    const std::filesystem::path final = entryPath(key);
    const std::filesystem::path temp = final.string() + ".tmp." + std::to_string(::getpid()) + "." +
                                       std::to_string(counter.fetch_add(1));
    const std::string bytes = serialize(key, *result);
    // O_EXCL|O_NOFOLLOW: never write through a file or symlink someone else put at the name.
    // A full disk is worth one line (every later run compiles again); the compile itself
    // succeeded and its result is used from memory.
    const auto noSpace = [this] {
        warnAboutCache(cacheFullMessage(m_directory) +
                       ": compiled kernels are not kept on disk, so every new process compiles "
                       "them again");
    };
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        if (errno == ENOSPC) noSpace();
        return false;
    }
    std::size_t written = 0;
    int error = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            error = n < 0 ? errno : EIO;
            break;
        }
        written += static_cast<std::size_t>(n);
    }
    if (::close(fd) != 0 && !error) error = errno;
    if (error || written != bytes.size()) {
        if (error == ENOSPC) noSpace();
        std::filesystem::remove(temp, ec);
        return false;
    }
    std::filesystem::rename(temp, final, ec); // atomic: readers see the old file or the new one
    if (ec) {
        std::filesystem::remove(temp, ec);
        return false;
    }
    // A directory scan costs far less than the compile that led here; still, not every time.
    if (m_stores.fetch_add(1) % 16 == 0) trimDisk();
    return true;
}

void CompileCache::trimDisk()
{
    namespace fs = std::filesystem;
    struct Entry {
        fs::path path;
        fs::file_time_type used;
        std::uintmax_t size;
    };
    std::vector<Entry> entries;
    std::uintmax_t total = 0;
    std::error_code ec;
    const auto staleBefore = fs::file_time_type::clock::now() - std::chrono::hours(1);
    for (auto it = fs::directory_iterator(m_directory, ec); !ec && it != fs::directory_iterator();
         it.increment(ec)) {
        const fs::path& p = it->path();
        std::error_code e2;
        const auto used = it->last_write_time(e2);
        if (e2) continue;
        if (p.extension() == ".wbnvrtc") {
            const std::uintmax_t size = it->file_size(e2);
            if (e2) continue;
            entries.push_back({p, used, size});
            total += size;
        } else if (p.filename().string().find(".wbnvrtc.tmp.") != std::string::npos &&
                   used < staleBefore) {
            fs::remove(p, e2); // left by a process that died while writing
        }
    }
    if (total <= m_diskLimit || entries.size() < 2) return;
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.used < b.used; });
    const std::uintmax_t target = m_diskLimit / 5 * 4;
    for (std::size_t i = 0; i + 1 < entries.size() && total > target; ++i) {
        std::error_code e2;
        if (fs::remove(entries[i].path, e2)) total -= entries[i].size;
    }
}

void CompileCache::clearMemory()
{
    std::lock_guard lock(m_mutex);
    m_memory.clear();
    m_order.clear();
}

std::string CompileCache::serialize(const Key& key, const CompileResult& r)
{
    Writer w;
    w.out().reserve(kHeaderSize + r.ptx.size() + r.binary.size() + r.log.size() + 1024);
    w.out().resize(kHeaderSize); // header filled in below
    w.u8(r.ok ? 1 : 0);
    w.str(r.sourceName);
    w.str(r.log);
    w.u32(static_cast<std::uint32_t>(r.diagnostics.size()));
    for (const Diagnostic& d : r.diagnostics)
        writeDiagnostic(w, d);
    w.str(r.target);
    w.str(r.ptx);
    w.str(std::string_view(reinterpret_cast<const char*>(r.binary.data()), r.binary.size()));
    w.str(r.libraryPath);
    w.u32(static_cast<std::uint32_t>(r.kernels.size()));
    for (const KernelInfo& k : r.kernels)
        writeKernel(w, k);
    w.str(r.compilerVersion);
    w.f64(r.compileMs);

    std::string& out = w.out();
    const std::string_view payload(out.data() + kHeaderSize, out.size() - kHeaderSize);
    const std::uint64_t length = payload.size();
    const std::uint64_t sum = checksum(payload);
    const std::uint32_t headerSize = kHeaderSize;
    char* h = out.data();
    std::memcpy(h, kMagic, 8);
    std::memcpy(h + 8, &kFormatVersion, 4);
    std::memcpy(h + 12, &headerSize, 4);
    std::memcpy(h + 16, &length, 8);
    std::memcpy(h + 24, &sum, 8);
    std::memcpy(h + 32, key.data(), 32);
    return out;
}

std::optional<CompileResult> CompileCache::deserialize(const Key& key, std::string_view file)
{
    if (file.size() < kHeaderSize || std::memcmp(file.data(), kMagic, 8) != 0) return std::nullopt;
    std::uint32_t version = 0;
    std::uint32_t headerSize = 0;
    std::uint64_t length = 0;
    std::uint64_t sum = 0;
    std::memcpy(&version, file.data() + 8, 4);
    std::memcpy(&headerSize, file.data() + 12, 4);
    std::memcpy(&length, file.data() + 16, 8);
    std::memcpy(&sum, file.data() + 24, 8);
    if (version != kFormatVersion || headerSize != kHeaderSize) return std::nullopt;
    if (std::memcmp(file.data() + 32, key.data(), 32) != 0) return std::nullopt;
    if (length != file.size() - kHeaderSize) return std::nullopt;
    const std::string_view payload = file.substr(kHeaderSize);
    if (checksum(payload) != sum) return std::nullopt;

    Reader r(payload);
    CompileResult res;
    res.ok = r.u8() != 0;
    res.sourceName = r.str();
    res.log = r.str();
    const std::uint32_t nd = r.count();
    res.diagnostics.reserve(nd);
    for (std::uint32_t i = 0; i < nd && r.ok(); ++i)
        res.diagnostics.push_back(readDiagnostic(r));
    res.target = r.str();
    res.ptx = r.str();
    const std::string bin = r.str();
    res.binary.assign(bin.begin(), bin.end());
    res.libraryPath = r.str();
    const std::uint32_t nk = r.count();
    res.kernels.reserve(nk);
    for (std::uint32_t i = 0; i < nk && r.ok(); ++i)
        res.kernels.push_back(readKernel(r));
    res.compilerVersion = r.str();
    res.compileMs = r.f64();
    if (!r.ok() || !r.atEnd()) return std::nullopt;
    res.cache = CompileResult::Cache::DiskHit;
    return res;
}

} // namespace wb::cuda
