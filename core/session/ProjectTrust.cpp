// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/ProjectTrust.h"

#include "core/cpu/CpuBackend.h"
#include "core/session/Session.h"

#include <QCryptographicHash>
#include <QFile>
#include <QSettings>
#include <QString>

#include <cstring>

namespace wb::session {

namespace {

const QString kSettingsGroup = QStringLiteral("trustedProjects");

} // namespace

std::vector<FlagRefusal> ProjectTrust::reviewReference(const Session& s)
{
    if (s.reference.kind != ReferenceSpec::Kind::Cpp) return {};
    return FlagPolicy(s.baseDir).check(FlagPolicy::Compiler::Host, s.reference.flags,
                                       "reference.flags");
}

std::vector<FlagRefusal> ProjectTrust::reviewKernel(const Session& s)
{
    const FlagPolicy policy(s.baseDir);
    const std::string field = "compileOptions.extraFlags";
    std::vector<FlagRefusal> out =
        policy.checkIncludeDirs(s.compileOptions.includeDirs, "compileOptions.includeDirs");
    std::vector<std::string> nvrtc;
    std::vector<std::string> host;
    const std::size_t prefix = std::strlen(cpu::CpuBackend::kHostFlagPrefix);
    for (const std::string& f : s.compileOptions.extraFlags) {
        if (checkModeOfFlag(f)) continue; // a check mode's spelling, no compiler flag
        if (f.rfind(cpu::CpuBackend::kHostFlagPrefix, 0) == 0)
            host.push_back(f.substr(prefix));
        else
            nvrtc.push_back(f);
    }
    for (FlagRefusal& r : policy.check(FlagPolicy::Compiler::Nvrtc, nvrtc, field))
        out.push_back(std::move(r));
    for (FlagRefusal& r : policy.check(FlagPolicy::Compiler::Host, host, field)) {
        r.flag = cpu::CpuBackend::kHostFlagPrefix + r.flag;
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<FlagRefusal> ProjectTrust::review(const Session& s)
{
    std::vector<FlagRefusal> out = reviewReference(s);
    for (FlagRefusal& r : reviewKernel(s))
        out.push_back(std::move(r));
    return out;
}

std::string ProjectTrust::refusalMessage(const std::vector<FlagRefusal>& refusals,
                                         std::string_view howToTrust)
{
    std::string text = "this project passes compiler flags outside the allowed set, refused "
                       "because a project file must not run commands:\n" +
                       FlagPolicy::describe(refusals);
    if (!howToTrust.empty()) {
        text += '\n';
        text.append(howToTrust);
    }
    return text;
}

std::string ProjectTrust::fileHash(const std::filesystem::path& projectFile)
{
    QFile f(QString::fromStdString(projectFile.string()));
    if (!f.open(QIODevice::ReadOnly)) return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (!hash.addData(&f)) return {};
    return hash.result().toHex().toStdString();
}

bool ProjectTrust::isRemembered(const std::string& hash)
{
    if (hash.empty()) return false;
    QSettings settings;
    return settings.value(kSettingsGroup + QLatin1Char('/') + QString::fromStdString(hash), false)
        .toBool();
}

void ProjectTrust::remember(const std::string& hash)
{
    if (hash.empty()) return;
    QSettings settings;
    settings.setValue(kSettingsGroup + QLatin1Char('/') + QString::fromStdString(hash), true);
}

} // namespace wb::session
