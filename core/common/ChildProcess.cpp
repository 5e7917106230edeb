// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/ChildProcess.h"

#include "core/common/Error.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/socket.h>
#include <unistd.h>

extern char** environ;

namespace wb {

namespace {

std::vector<char*> pointers(const std::vector<std::string>& strings)
{
    std::vector<char*> p;
    p.reserve(strings.size() + 1);
    for (const std::string& s : strings)
        p.push_back(const_cast<char*>(s.c_str()));
    p.push_back(nullptr);
    return p;
}

} // namespace

SpawnedChild spawnChild(const std::vector<std::string>& argv,
                        const std::vector<std::string>* environment, const ChildLayout& layout,
                        const std::string& what)
{
    if (argv.empty()) throw Error(Error::Kind::Unavailable, "no command for " + what);
    int sv[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        throw Error(Error::Kind::Unavailable, std::string("socketpair: ") + std::strerror(errno));
    int out[2];
    if (::pipe2(out, O_CLOEXEC) != 0) {
        const int e = errno;
        ::close(sv[0]);
        ::close(sv[1]);
        throw Error(Error::Kind::Unavailable, std::string("pipe: ") + std::strerror(e));
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (layout.nullStdin) posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    for (const int fd : layout.socketAt)
        posix_spawn_file_actions_adddup2(&fa, sv[1], fd);
    for (const int fd : layout.outputAt)
        posix_spawn_file_actions_adddup2(&fa, out[1], fd);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(
        &attr, static_cast<short>((layout.ownProcessGroup ? POSIX_SPAWN_SETPGROUP : 0) |
                                  POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF));
    posix_spawnattr_setpgroup(&attr, 0);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &all);
    std::vector<char*> args = pointers(argv);
    std::vector<char*> env;
    if (environment) env = pointers(*environment);
    char** const envp = environment ? env.data() : environ;
    SpawnedChild child;
    const int rc = layout.searchPath
                       ? ::posix_spawnp(&child.pid, args[0], &fa, &attr, args.data(), envp)
                       : ::posix_spawn(&child.pid, args[0], &fa, &attr, args.data(), envp);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    ::close(sv[1]);
    ::close(out[1]);
    if (rc != 0) {
        ::close(sv[0]);
        ::close(out[0]);
        throw Error(Error::Kind::Unavailable, "cannot start " + what + ": " + std::strerror(rc));
    }
    child.socket = sv[0];
    child.output = out[0];
    ::fcntl(child.output, F_SETFL, ::fcntl(child.output, F_GETFL) | O_NONBLOCK);
    ::fcntl(child.socket, F_SETFL, ::fcntl(child.socket, F_GETFL) | O_NONBLOCK);
    return child;
}

} // namespace wb
