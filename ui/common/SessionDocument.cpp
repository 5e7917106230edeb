// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/common/SessionDocument.h"

#include "core/common/Error.h"
#include "core/common/UserFile.h"
#include "core/session/ProjectFile.h"
#include "core/session/ProjectTrust.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

#include <algorithm>
#include <cctype>
#include <set>

namespace wb::ui {

namespace {

const char* kNewKernel = R"(__global__ void scale(float* out, const float* in, float factor, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = factor * in[i];
}
)";

const char* kNewReference = R"(void reference(float* out, const float* in, float factor, int n)
{
    for (int i = 0; i < n; ++i)
        out[i] = factor * in[i];
}
)";

/// A source file of the project, through UserFile (a FIFO or device never blocks the window),
/// with CRLF line ends made LF as QIODevice::Text did.
QString readText(const std::filesystem::path& path, const std::string& what)
{
    QString text = QString::fromStdString(UserFile::read(path, UserFile::kMaxTextBytes, what));
    text.replace(QLatin1String("\r\n"), QLatin1String("\n"));
    return text;
}

void writeText(const std::filesystem::path& path, const QString& text)
{
    QSaveFile file(QString::fromStdString(path.string()));
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text) || file.write(text.toUtf8()) < 0 ||
        !file.commit())
        throw Error(Error::Kind::Io,
                    "cannot write " + path.string() + ": " + file.errorString().toStdString());
}

/// Whether expression `e` uses the identifier `name` (not as part of a longer one).
bool mentionsWord(const std::string& e, const std::string& name)
{
    const auto ident = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    };
    for (std::size_t at = e.find(name); at != std::string::npos; at = e.find(name, at + 1)) {
        const bool before = at > 0 && ident(e[at - 1]);
        const bool after = at + name.size() < e.size() && ident(e[at + name.size()]);
        if (!before && !after) return true;
    }
    return false;
}

/// A file name for a project's separate source in `dir`: `preferred` unless another file of
/// that name is there already, else `fallback`.
std::string sourceName(const std::filesystem::path& dir, const std::string& preferred,
                       const std::string& fallback)
{
    std::error_code ec;
    return std::filesystem::exists(dir / preferred, ec) ? fallback : preferred;
}

/// Copies `from` to `to` (folders made), unless it is already there.
void copyInto(const std::filesystem::path& from, const std::filesystem::path& to)
{
    std::error_code ec;
    if (std::filesystem::exists(to, ec) && std::filesystem::equivalent(from, to, ec)) return;
    std::filesystem::create_directories(to.parent_path());
    std::filesystem::copy_file(from, to, std::filesystem::copy_options::overwrite_existing, ec);
    if (ec)
        throw Error(Error::Kind::Io,
                    "cannot copy " + from.string() + " to " + to.string() + ": " + ec.message());
}

} // namespace

SessionDocument::SessionDocument(QObject* parent)
    : QObject(parent)
{
    newSession();
}

QString SessionDocument::displayName() const
{
    if (!m_exampleOf.isEmpty()) return tr("%1 (example)").arg(QFileInfo(m_exampleOf).fileName());
    return m_path.isEmpty() ? tr("Untitled") : QFileInfo(m_path).fileName();
}

QString SessionDocument::readSource(const QString& path, const std::string& what)
{
    return readText(path.toStdString(), what);
}

QString SessionDocument::kernelFilePath() const
{
    if (m_path.isEmpty() || m_session.kernelFile.empty()) return {};
    return QString::fromStdString(m_session.resolve(m_session.kernelFile).string());
}

QString SessionDocument::referenceFilePath() const
{
    if (m_path.isEmpty() || m_session.reference.kind != session::ReferenceSpec::Kind::Cpp ||
        m_session.reference.file.empty())
        return {};
    return QString::fromStdString(m_session.resolve(m_session.reference.file).string());
}

void SessionDocument::setModified(bool modified)
{
    if (m_modified == modified) return;
    m_modified = modified;
    Q_EMIT modifiedChanged(modified);
}

session::Session SessionDocument::runnableSession() const
{
    session::Session s = m_session;
    // The text replaces the file; #include still looks next to the file, and diagnostics,
    // memory findings and races name the file (the tab's name), not kernel.cu.
    if (!s.kernelFile.empty()) {
        s.compileOptions.sourceDir = s.resolve(s.kernelFile).parent_path().string();
        s.kernelSourceFileName = s.kernelSourceName();
    }
    s.kernelFile.clear();
    s.kernelSource = m_kernelText.toStdString();
    if (s.reference.kind == session::ReferenceSpec::Kind::Cpp) {
        s.reference.file.clear();
        s.reference.source = m_referenceText.toStdString();
    }
    return s;
}

void SessionDocument::setKernelText(const QString& text)
{
    if (text == m_kernelText) return;
    m_kernelText = text;
    if (m_session.kernelFile.empty()) m_session.kernelSource = text.toStdString();
    setModified(true);
    Q_EMIT edited(Part::Kernel);
}

void SessionDocument::setReferenceText(const QString& text)
{
    if (text == m_referenceText) return;
    m_referenceText = text;
    // Typing a reference into a project that has none makes it a C++ reference again.
    if (m_session.reference.kind == session::ReferenceSpec::Kind::None &&
        !text.trimmed().isEmpty()) {
        m_session.reference.kind = session::ReferenceSpec::Kind::Cpp;
        m_session.reference.file.clear();
    }
    if (m_session.reference.file.empty()) m_session.reference.source = text.toStdString();
    setModified(true);
    Q_EMIT edited(Part::Reference);
}

void SessionDocument::edit(Part part, const std::function<void(session::Session&)>& change)
{
    change(m_session);
    setModified(true);
    Q_EMIT edited(part);
}

void SessionDocument::newSession()
{
    session::Session s;
    s.name = "untitled";
    s.kernelSource = kNewKernel;
    s.scalars = {{"n", session::ElementType::I32, "1024"},
                 {"factor", session::ElementType::F32, "2"}};
    session::BufferSpec in;
    in.name = "in";
    in.shape = {"n"};
    in.init.kind = session::Initialiser::Kind::Uniform;
    in.init.seed = 1;
    session::BufferSpec out;
    out.name = "out";
    out.shape = {"n"};
    out.role = session::BufferRole::Out;
    s.buffers = {in, out};
    s.launch.kernel = "scale";
    s.launch.grid = {"ceil(n/256)"};
    s.launch.block = {"256"};
    s.reference.kind = session::ReferenceSpec::Kind::Cpp;
    s.reference.source = kNewReference;
    setSession(std::move(s), QString(), QString::fromUtf8(kNewKernel),
               QString::fromUtf8(kNewReference));
}

session::SignatureSpecs SessionDocument::createFromSignature(const KernelInfo& kernel,
                                                             QStringList* removed)
{
    session::SignatureSpecs added;
    edit(Part::All, [&](session::Session& s) {
        // The editor's text decides in, out and inout by what the body does with each pointer.
        added = session::SignatureSpecs::apply(s, kernel, "1024", m_kernelText.toStdString());
        // What the new project's template brought and this kernel does not take goes, when
        // still exactly as the template made it (nothing the user typed is removed).
        SessionDocument templ;
        const session::Session& t = templ.m_session;
        const auto param = [&kernel](const std::string& name) {
            return std::any_of(kernel.params.begin(), kernel.params.end(),
                               [&](const KernelParam& p) { return p.name == name; });
        };
        std::erase_if(s.buffers, [&](const session::BufferSpec& b) {
            const session::BufferSpec* tb = t.findBuffer(b.name);
            const bool drop = tb && *tb == b && !param(b.name);
            if (drop && removed) removed->append(QString::fromStdString(b.name));
            return drop;
        });
        // A scalar of the template stays while a shape, the launch or a value still uses it.
        const auto used = [&s](const std::string& name) {
            const auto mentions = [&name](const std::string& e) { return mentionsWord(e, name); };
            for (const auto& b : s.buffers)
                if (std::any_of(b.shape.begin(), b.shape.end(), mentions)) return true;
            for (const auto* v : {&s.launch.grid, &s.launch.block})
                if (std::any_of(v->begin(), v->end(), mentions)) return true;
            for (const auto& sc : s.scalars)
                if (sc.name != name && mentions(sc.value)) return true;
            return mentions(s.launch.sharedBytes);
        };
        std::erase_if(s.scalars, [&](const session::ScalarSpec& sc) {
            const session::ScalarSpec* ts = t.findScalar(sc.name);
            const bool drop = ts && *ts == sc && !param(sc.name) && !used(sc.name);
            if (drop && removed) removed->append(QString::fromStdString(sc.name));
            return drop;
        });
        if (s.reference.kind == session::ReferenceSpec::Kind::Cpp && s.reference.file.empty() &&
            m_referenceText == templ.m_referenceText && kernel.name != t.launch.kernel) {
            s.reference.kind = session::ReferenceSpec::Kind::None;
            s.reference.source.clear();
            m_referenceText.clear();
            if (removed) removed->append(QStringLiteral("reference.cpp"));
        }
    });
    return added;
}

void SessionDocument::load(const QString& path, bool flagsTrusted, const QString& exampleOf)
{
    const std::filesystem::path p = path.toStdString();
    session::Session s = session::ProjectFile::load(p);
    s.flagsTrusted = flagsTrusted;
    const QString kernel = s.kernelFile.empty()
                               ? QString::fromStdString(s.kernelSource)
                               : readText(s.resolve(s.kernelFile), "the kernel source");
    QString reference;
    if (s.reference.kind == session::ReferenceSpec::Kind::Cpp)
        reference = s.reference.file.empty()
                        ? QString::fromStdString(s.reference.source)
                        : readText(s.resolve(s.reference.file), "the C++ reference source");
    setSession(std::move(s), QFileInfo(path).absoluteFilePath(), kernel, reference, exampleOf);
}

void SessionDocument::setFlagsTrusted(bool trusted)
{
    m_session.flagsTrusted = trusted;
}

void SessionDocument::setSession(session::Session session, const QString& path,
                                 const QString& kernelText, const QString& referenceText,
                                 const QString& exampleOf)
{
    m_session = std::move(session);
    m_kernelText = kernelText;
    m_referenceText = referenceText;
    m_kernelOnDisk = m_session.kernelFile.empty() ? QString() : kernelText;
    m_referenceOnDisk = m_session.reference.file.empty() ? QString() : referenceText;
    m_exampleOf = exampleOf;
    const bool pathChanged = path != m_path;
    m_path = path;
    m_modified = true; // force the signal below
    setModified(false);
    if (pathChanged) Q_EMIT filePathChanged(m_path);
    Q_EMIT sessionReplaced();
}

void SessionDocument::save(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    const std::filesystem::path p = absolute.toStdString();
    session::Session s = m_session;
    const std::filesystem::path newBase = p.parent_path();
    // Sources in their own files next to the project (kernel.cu, reference.cpp), so that the
    // kernel can be edited in any editor; inline sources of older projects move out too.
    const std::string stem = p.stem().string();
    if (s.kernelFile.empty()) s.kernelFile = sourceName(newBase, "kernel.cu", stem + ".cu");
    if (s.reference.kind == session::ReferenceSpec::Kind::Cpp && s.reference.file.empty())
        s.reference.file = sourceName(newBase, "reference.cpp", stem + "_reference.cpp");
    // Separate source files keep their relative names: saving into another folder writes them
    // there too (Save As copies the project, it never rewrites the original's files).
    auto target = [&](const std::string& file) {
        const std::filesystem::path f(file);
        return f.is_absolute() ? f : newBase / f;
    };
    if (!s.kernelFile.empty()) {
        const std::filesystem::path file = target(s.kernelFile);
        std::filesystem::create_directories(file.parent_path());
        writeText(file, m_kernelText);
    } else {
        s.kernelSource = m_kernelText.toStdString();
    }
    if (s.reference.kind == session::ReferenceSpec::Kind::Cpp) {
        if (!s.reference.file.empty()) {
            const std::filesystem::path file = target(s.reference.file);
            std::filesystem::create_directories(file.parent_path());
            writeText(file, m_referenceText);
        } else {
            s.reference.source = m_referenceText.toStdString();
        }
    }
    // An example's copy becomes a whole project: its data files (relative, inside the example)
    // and its guide are copied along. Other projects' data files stay where they are.
    std::set<std::string> copied;
    if (!m_exampleOf.isEmpty() && s.baseDir != newBase) {
        auto copyData = [&](std::string& path) {
            const std::filesystem::path rel = std::filesystem::path(path).lexically_normal();
            if (path.empty() || rel.is_absolute() || *rel.begin() == "..") return;
            copyInto(m_session.resolve(path), newBase / rel);
            copied.insert(path);
        };
        for (auto& b : s.buffers)
            copyData(b.init.path);
        for (auto& [name, file] : s.reference.files)
            copyData(file);
        for (const char* extra : {"GUIDE.md", "README.md"}) {
            std::error_code ec;
            const std::filesystem::path from = m_session.resolve(extra);
            if (std::filesystem::is_regular_file(from, ec) &&
                !std::filesystem::exists(newBase / extra, ec))
                copyInto(from, newBase / extra);
        }
    }
    // Data files of initialisers and expected outputs stay where they are.
    if (s.baseDir != newBase) {
        auto rebase = [&](std::string& path) {
            if (path.empty() || std::filesystem::path(path).is_absolute() || copied.count(path))
                return;
            path = std::filesystem::absolute(m_session.resolve(path)).lexically_normal().string();
        };
        for (auto& b : s.buffers)
            rebase(b.init.path);
        for (auto& [name, file] : s.reference.files)
            rebase(file);
    }
    s.baseDir = newBase;
    session::ProjectFile::save(s, p);
    // The user trusted these flags in this window: their own saved file does not ask again.
    if (s.flagsTrusted && !session::ProjectTrust::review(s).empty())
        session::ProjectTrust::remember(session::ProjectTrust::fileHash(p));
    m_session = std::move(s);
    m_kernelOnDisk = m_kernelText;
    m_referenceOnDisk = m_session.reference.file.empty() ? QString() : m_referenceText;
    const bool pathChanged = absolute != m_path || !m_exampleOf.isEmpty();
    m_exampleOf.clear(); // the saved copy is the user's own project now
    m_path = absolute;
    setModified(false);
    if (pathChanged) Q_EMIT filePathChanged(m_path);
}

std::string SessionDocument::snapshotJson() const
{
    return session::ProjectFile::toJson(runnableSession());
}

} // namespace wb::ui
