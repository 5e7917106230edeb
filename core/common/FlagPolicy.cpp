// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/FlagPolicy.h"

#include <algorithm>
#include <string_view>
#include <system_error>

namespace wb {

namespace {

bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.substr(0, prefix.size()) == prefix;
}

bool oneOf(std::string_view s, std::initializer_list<std::string_view> words)
{
    return std::find(words.begin(), words.end(), s) != words.end();
}

/// A value made only of letters, digits and `extra` (and not empty): no paths, no spaces.
bool isToken(std::string_view s, std::string_view extra)
{
    if (s.empty()) return false;
    for (const char c : s) {
        const bool alnum =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (!alnum && extra.find(c) == std::string_view::npos) return false;
    }
    return true;
}

/// The first of `prefixes` that `flag` starts with, or empty.
std::string_view prefixOf(std::string_view flag, std::initializer_list<std::string_view> prefixes)
{
    for (const std::string_view p : prefixes)
        if (startsWith(flag, p)) return p;
    return {};
}

constexpr std::string_view kNotAllowed =
    "is not in the set of flags a project may pass (see docs/sessions.md, \"Compiler flags and "
    "trust\")";

/// Why a host flag outside the set is refused, in words; the known dangerous ones by name.
std::string hostReason(std::string_view flag)
{
    if (startsWith(flag, "@")) return "reads further flags from a file (a response file)";
    if (flag == "-wrapper" || startsWith(flag, "-wrapper"))
        return "runs a program of the project's choice around every compiler step";
    if (startsWith(flag, "-fplugin")) return "loads a plugin (arbitrary code) into the compiler";
    if (startsWith(flag, "-B") || startsWith(flag, "--prefix") || startsWith(flag, "-iprefix"))
        return "makes the compiler run its programs (cc1plus, as, ld) from another folder";
    if (startsWith(flag, "-specs") || startsWith(flag, "--specs"))
        return "a specs file can run any command";
    if (startsWith(flag, "-fuse-ld") || startsWith(flag, "--ld-path"))
        return "makes the compiler run another linker program";
    if (startsWith(flag, "-Wl,") || startsWith(flag, "-Xlinker") || startsWith(flag, "-T"))
        return "passes options to the linker (plugins, scripts)";
    if (startsWith(flag, "-Wa,") || startsWith(flag, "-Xassembler"))
        return "passes options to the assembler";
    if (startsWith(flag, "-Wp,") || startsWith(flag, "-Xpreprocessor"))
        return "passes options to the preprocessor";
    if (flag == "-o" || startsWith(flag, "-o")) return "writes the output somewhere else";
    if (flag == "-x" || startsWith(flag, "-x")) return "changes the language of the inputs";
    if (startsWith(flag, "-save-temps") || startsWith(flag, "-M") || startsWith(flag, "-fdump") ||
        startsWith(flag, "-fprofile") || startsWith(flag, "-fopt-info") ||
        startsWith(flag, "-fstack-usage") || startsWith(flag, "-fcallgraph-info"))
        return "writes files outside the build";
    if (!startsWith(flag, "-")) return "is an input file: a project may not add inputs";
    return std::string(kNotAllowed);
}

/// g++ flags that take their argument as the next argv entry.
bool takesSeparateArgument(std::string_view flag)
{
    return oneOf(flag,
                 {"-D",       "-U",       "-I",       "-isystem",    "-iquote",        "-idirafter",
                  "-include", "-imacros", "-L",       "--param",     "-wrapper",       "-x",
                  "-o",       "-B",       "-Xlinker", "-Xassembler", "-Xpreprocessor", "-T",
                  "-specs",   "-iprefix"});
}

} // namespace

FlagPolicy::FlagPolicy(std::filesystem::path projectDir)
    : m_projectDir(std::move(projectDir))
{
    std::error_code ec;
    if (m_projectDir.empty()) m_projectDir = std::filesystem::current_path(ec);
    const std::filesystem::path canonical = std::filesystem::weakly_canonical(m_projectDir, ec);
    if (!ec) m_projectDir = canonical;
}

bool FlagPolicy::isInsideProject(const std::string& path) const
{
    if (path.empty()) return false;
    std::filesystem::path p(path);
    if (p.is_relative()) p = m_projectDir / p;
    // weakly_canonical follows symlinks of the part that exists and folds "..": a link inside
    // the project that points out of it resolves to its target.
    std::error_code ec;
    p = std::filesystem::weakly_canonical(p, ec);
    if (ec) return false;
    auto pi = p.begin();
    for (auto ri = m_projectDir.begin(); ri != m_projectDir.end(); ++ri, ++pi) {
        if (ri->empty() && std::next(ri) == m_projectDir.end()) break; // trailing separator
        if (pi == p.end() || *pi != *ri) return false;
    }
    return true;
}

std::vector<FlagRefusal> FlagPolicy::check(Compiler compiler, const std::vector<std::string>& flags,
                                           const std::string& field) const
{
    return compiler == Compiler::Host ? checkHost(flags, field) : checkNvrtc(flags, field);
}

std::vector<FlagRefusal> FlagPolicy::checkIncludeDirs(const std::vector<std::string>& dirs,
                                                      const std::string& field) const
{
    std::vector<FlagRefusal> out;
    for (const std::string& d : dirs)
        if (!isInsideProject(d))
            out.push_back({field, d, "is outside the project folder (headers are read from it)"});
    return out;
}

std::vector<FlagRefusal> FlagPolicy::checkHost(const std::vector<std::string>& flags,
                                               const std::string& field) const
{
    std::vector<FlagRefusal> out;
    for (std::size_t i = 0; i < flags.size(); ++i) {
        const std::string_view f = flags[i];
        // Joined and separate forms alike: "-Idir" and "-I" "dir".
        std::string_view opt = f;
        std::string_view arg;
        std::string shown(f);
        bool separate = false;
        if (takesSeparateArgument(f)) {
            if (i + 1 >= flags.size()) {
                out.push_back({field, shown, "needs an argument after it"});
                continue;
            }
            separate = true;
            arg = flags[i + 1];
            shown += " " + flags[i + 1];
        }
        const auto refuse = [&](std::string reason) {
            out.push_back({field, shown, std::move(reason)});
        };
        const auto joined = [&](std::string_view prefix) {
            return separate ? arg : f.substr(prefix.size());
        };
        if (separate) ++i;

        // Defines: one argv entry, whatever the text.
        if (const std::string_view p = prefixOf(opt, {"-D", "-U"}); !p.empty()) {
            if (joined(p).empty()) refuse("needs a macro name");
            continue;
        }
        // Paths: inside the project folder only.
        if (const std::string_view p = prefixOf(
                opt, {"-isystem", "-iquote", "-idirafter", "-include", "-imacros", "-I", "-L"});
            !p.empty() && (separate || f.size() > p.size())) {
            const std::string path(joined(p));
            if (!isInsideProject(path))
                refuse("reads files outside the project folder ('" + path +
                       "' does not resolve inside it)");
            continue;
        }
        if (oneOf(opt, {"-O",
                        "-O0",
                        "-O1",
                        "-O2",
                        "-O3",
                        "-Os",
                        "-Og",
                        "-Oz",
                        "-Ofast",
                        "-g",
                        "-g0",
                        "-g1",
                        "-g2",
                        "-g3",
                        "-ggdb",
                        "-w",
                        "-pedantic",
                        "-pedantic-errors",
                        "-pthread",
                        "-fPIC",
                        "-fpic",
                        "-fopenmp",
                        "-fopenmp-simd",
                        "-ffast-math",
                        "-fno-fast-math",
                        "-funroll-loops",
                        "-fno-unroll-loops",
                        "-fno-exceptions",
                        "-fno-rtti",
                        "-fstrict-aliasing",
                        "-fno-strict-aliasing",
                        "-ftree-vectorize",
                        "-fno-tree-vectorize",
                        "-fno-math-errno",
                        "-fno-trapping-math",
                        "-fassociative-math",
                        "-freciprocal-math",
                        "-fno-signed-zeros",
                        "-fwrapv",
                        "-fomit-frame-pointer",
                        "-fno-omit-frame-pointer",
                        "-fpermissive",
                        "-fno-sanitize-recover"}))
            continue;
        if (const std::string_view p = prefixOf(opt, {"-std=", "-march=", "-mtune=", "-mcpu="});
            !p.empty() && isToken(joined(p), "+-_."))
            continue;
        if (const std::string_view p =
                prefixOf(opt, {"-fsanitize=", "-fno-sanitize=", "-fno-sanitize-recover=",
                               "-ffp-contract=", "-fvect-cost-model=", "-ftemplate-depth=",
                               "-fconstexpr-depth=", "-fconstexpr-steps=", "-fexcess-precision="});
            !p.empty() && isToken(joined(p), ",-_"))
            continue;
        // Warnings: "-Wall", "-Wno-x", "-Werror=x"; no comma, so never "-Wl,", "-Wa,", "-Wp,".
        if (startsWith(opt, "-W") && (opt.size() == 2 || isToken(opt.substr(2), "-_=+"))) continue;
        // Target options ("-mavx2", "-mno-fma", "-mprefer-vector-width=512").
        if (startsWith(opt, "-m") && opt.size() > 2 && isToken(opt.substr(2), "-_=.")) continue;
        if (startsWith(opt, "-l") && opt.size() > 2 && isToken(opt.substr(2), "-_+.")) continue;
        if (opt == "--param" || startsWith(opt, "--param=")) {
            if (isToken(opt == "--param" ? arg : opt.substr(8), "-_=")) continue;
        }
        refuse(hostReason(opt));
    }
    return out;
}

std::vector<FlagRefusal> FlagPolicy::checkNvrtc(const std::vector<std::string>& flags,
                                                const std::string& field) const
{
    std::vector<FlagRefusal> out;
    for (std::size_t i = 0; i < flags.size(); ++i) {
        const std::string_view f = flags[i];
        std::string shown(f);
        std::string_view arg;
        bool separate = false;
        if (oneOf(f, {"-D", "-U", "-I", "-include"})) {
            if (i + 1 >= flags.size()) {
                out.push_back({field, shown, "needs an argument after it"});
                continue;
            }
            separate = true;
            arg = flags[i + 1];
            shown += " " + flags[i + 1];
            ++i;
        }
        const auto refuse = [&](std::string reason) {
            out.push_back({field, shown, std::move(reason)});
        };
        const auto joined = [&](std::string_view prefix) {
            return separate ? arg : f.substr(prefix.size());
        };
        if (const std::string_view p =
                prefixOf(f, {"--define-macro=", "--undefine-macro=", "-D", "-U"});
            !p.empty()) {
            if (joined(p).empty()) refuse("needs a macro name");
            continue;
        }
        if (const std::string_view p =
                prefixOf(f, {"--include-path=", "--pre-include=", "-include=", "-include", "-I"});
            !p.empty()) {
            const std::string path(joined(p));
            if (!isInsideProject(path))
                refuse("reads files outside the project folder ('" + path +
                       "' does not resolve inside it)");
            continue;
        }
        if (oneOf(f, {"--use_fast_math",
                      "-use_fast_math",
                      "-lineinfo",
                      "--generate-line-info",
                      "-G",
                      "--device-debug",
                      "-w",
                      "--disable-warnings",
                      "-restrict",
                      "--restrict",
                      "-ewp",
                      "--extensible-whole-program",
                      "-extra-device-vectorization",
                      "--extra-device-vectorization",
                      "-err-no",
                      "--display-error-number",
                      "-no-err-no",
                      "--no-display-error-number",
                      "-default-device",
                      "--device-as-default-execution-space",
                      "-device-int128",
                      "--device-int128",
                      "-minimal",
                      "--minimal",
                      "-dw",
                      "--dump-warnings"}))
            continue;
        if (const std::string_view p = prefixOf(f, {"--gpu-architecture=",
                                                    "-arch=",
                                                    "--std=",
                                                    "-std=",
                                                    "--maxrregcount=",
                                                    "-maxrregcount=",
                                                    "--fmad=",
                                                    "-fmad=",
                                                    "--ftz=",
                                                    "-ftz=",
                                                    "--prec-div=",
                                                    "-prec-div=",
                                                    "--prec-sqrt=",
                                                    "-prec-sqrt=",
                                                    "--dopt=",
                                                    "-dopt=",
                                                    "--relocatable-device-code=",
                                                    "-rdc=",
                                                    "--diag-suppress=",
                                                    "-diag-suppress=",
                                                    "--diag-error=",
                                                    "-diag-error=",
                                                    "--diag-warn=",
                                                    "-diag-warn=",
                                                    "--builtin-move-forward=",
                                                    "-builtin-move-forward=",
                                                    "--builtin-initializer-list=",
                                                    "-builtin-initializer-list=",
                                                    "--split-compile=",
                                                    "-split-compile=",
                                                    "--Werror=",
                                                    "-Werror="});
            !p.empty() && isToken(f.substr(p.size()), "+-_.,"))
            continue;
        // ptxas runs inside NVRTC: a few reporting and optimisation options only.
        if (const std::string_view p = prefixOf(f, {"--ptxas-options=", "-Xptxas="});
            !p.empty() &&
            oneOf(f.substr(p.size()),
                  {"-v", "--verbose", "-O0", "-O1", "-O2", "-O3", "--warn-on-spills",
                   "-warn-spills", "--warn-on-local-memory-usage", "-warn-lmem-usage",
                   "--warn-on-double-precision-use", "-warn-double-usage", "-dlcm=ca", "-dlcm=cg"}))
            continue;
        if (startsWith(f, "--time") || startsWith(f, "-time") ||
            startsWith(f, "--fdevice-time-trace") || startsWith(f, "-fdevice-time-trace"))
            refuse("writes a file of the project's choice");
        else
            refuse(std::string(kNotAllowed));
    }
    return out;
}

std::string FlagPolicy::describe(const std::vector<FlagRefusal>& refusals)
{
    std::string text;
    for (const FlagRefusal& r : refusals) {
        if (!text.empty()) text += '\n';
        text += r.field + ": '" + r.flag + "' " + r.reason;
    }
    return text;
}

} // namespace wb
