// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/SessionDocument.h"

#include "core/common/Error.h"
#include "core/common/UserFile.h"
#include "core/session/ProjectFile.h"
#include "core/session/ProjectTrust.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

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

} // namespace

SessionDocument::SessionDocument(QObject* parent)
    : QObject(parent)
{
    newSession();
}

QString SessionDocument::displayName() const
{
    return m_path.isEmpty() ? tr("Untitled") : QFileInfo(m_path).fileName();
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

void SessionDocument::load(const QString& path, bool flagsTrusted)
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
    setSession(std::move(s), QFileInfo(path).absoluteFilePath(), kernel, reference);
}

void SessionDocument::setFlagsTrusted(bool trusted)
{
    m_session.flagsTrusted = trusted;
}

void SessionDocument::setSession(session::Session session, const QString& path,
                                 const QString& kernelText, const QString& referenceText)
{
    m_session = std::move(session);
    m_kernelText = kernelText;
    m_referenceText = referenceText;
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
    // Data files of initialisers and expected outputs stay where they are.
    if (s.baseDir != newBase) {
        auto rebase = [&](std::string& path) {
            if (path.empty() || std::filesystem::path(path).is_absolute()) return;
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
    const bool pathChanged = absolute != m_path;
    m_path = absolute;
    setModified(false);
    if (pathChanged) Q_EMIT filePathChanged(m_path);
}

std::string SessionDocument::snapshotJson() const
{
    return session::ProjectFile::toJson(runnableSession());
}

} // namespace wb::ui
