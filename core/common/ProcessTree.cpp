// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/ProcessTree.h"

#include <dirent.h>
#include <signal.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace wb {

namespace {

/// pid → parent pid of every process visible in /proc.
std::multimap<pid_t, pid_t> childrenByParent()
{
    std::multimap<pid_t, pid_t> children;
    DIR* proc = ::opendir("/proc");
    if (!proc) return children;
    while (const dirent* e = ::readdir(proc)) {
        char* end = nullptr;
        const long pid = std::strtol(e->d_name, &end, 10);
        if (pid <= 0 || !end || *end != '\0') continue;
        std::ifstream in(std::string("/proc/") + e->d_name + "/stat");
        std::string stat;
        std::getline(in, stat);
        // "pid (comm) state ppid ...": comm may hold spaces and ')', so look after the last ')'.
        const std::size_t close = stat.rfind(')');
        if (close == std::string::npos) continue;
        std::istringstream rest(stat.substr(close + 1));
        std::string state;
        long ppid = 0;
        if (rest >> state >> ppid && ppid > 0)
            children.emplace(static_cast<pid_t>(ppid), static_cast<pid_t>(pid));
    }
    ::closedir(proc);
    return children;
}

} // namespace

std::vector<pid_t> descendantsOf(pid_t root)
{
    std::vector<pid_t> found;
    if (root <= 0) return found;
    const std::multimap<pid_t, pid_t> children = childrenByParent();
    std::vector<pid_t> frontier{root};
    while (!frontier.empty()) {
        const pid_t p = frontier.back();
        frontier.pop_back();
        const auto [begin, end] = children.equal_range(p);
        for (auto it = begin; it != end; ++it) {
            if (std::find(found.begin(), found.end(), it->second) != found.end()) continue;
            found.push_back(it->second);
            frontier.push_back(it->second);
        }
    }
    return found;
}

void killProcessTree(pid_t root) noexcept
{
    if (root <= 0) return;
    try {
        ::kill(root, SIGSTOP);
        std::vector<pid_t> stopped;
        // Until a pass finds no one new: a child forked just before its parent stopped shows up
        // in the next pass, and a stopped process forks no more.
        for (int pass = 0; pass < 8; ++pass) {
            bool fresh = false;
            for (const pid_t p : descendantsOf(root)) {
                if (std::find(stopped.begin(), stopped.end(), p) != stopped.end()) continue;
                ::kill(p, SIGSTOP);
                stopped.push_back(p);
                fresh = true;
            }
            if (!fresh) break;
        }
        for (const pid_t p : stopped)
            ::kill(p, SIGKILL);
    } catch (...) {
        // Out of memory reading /proc: at least the root goes.
    }
    ::kill(root, SIGKILL);
}

} // namespace wb
