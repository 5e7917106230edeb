// SPDX-License-Identifier: GPL-3.0-or-later
// A misbehaving warpbench-runner for the client's tests (tst_runnerclient, tst_runnercli):
// `fake_runner MODE` (or $WB_FAKE_RUNNER_MODE) answers the protocol wrongly in one way.
//   bashrc      prints a shell greeting on stdout before anything (a remote .bashrc)
//   bigframe    answers the hello with a frame header claiming 1 GiB
//   pid:N       names pid N in its hello, then never answers the run
//   wrap        a buffer whose offset + bytes wraps around 2^64
//   farbuffer   a buffer at offset 2^53, far past the end of the shared memory
//   smallshm    shared memory of 4 KiB announced as 1 MiB
//   hugeshape   a buffer of shape [2^50] f32 said to be 4096 bytes
//   status      a report with status 42
//   unsealed    shared memory that may shrink (no F_SEAL_SHRINK)
//   midframe    half a Report header, then exits
//   blobbomb    an inline blob that claims more bytes than its buffer
// Started as `fake_runner --tool memcheck --log-file F ... PROGRAM ARGS` it plays
// compute-sanitizer: appends PROGRAM ARGS to $WB_FAKE_SANITIZER_RECORD, says on stderr which
// program it wraps, writes a one-finding memcheck report to F (with `--tool racecheck` a
// racecheck report: one hazard and its race summary) and executes PROGRAM.
#include "core/runner/Protocol.h"
#include "core/runner/SharedMemory.h"
#include "core/session/ReportJson.h"
#include "core/session/RunReport.h"

#include <QJsonArray>
#include <QJsonObject>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

using wb::runner::Protocol;
using wb::runner::SharedMemory;
using Type = Protocol::Type;

namespace {

void send(Type type, const QJsonObject& json)
{
    Protocol::writeAll(1, Protocol::encode(type, json));
}

/// A passed report with `buffers` (and `shm` when set).
void report(const QJsonArray& buffers, const QJsonObject& shm, int status = 0)
{
    wb::session::RunReport r;
    r.status = wb::session::RunReport::Status::Passed;
    QJsonObject rep = wb::session::reportToJson(r, wb::session::ReportSections::All);
    if (status) rep["status"] = status;
    QJsonObject answer{{"report", rep},
                       {"findings", QJsonArray{}},
                       {"exiting", false},
                       {"buffers", buffers},
                       {"writeMs", 0}};
    if (!shm.isEmpty()) answer["shm"] = shm;
    send(Type::Report, answer);
}

QJsonObject buffer(const char* shape, double bytes, double offset)
{
    return QJsonObject{{"set", "results"},           {"name", "out"},  {"type", "f32"},
                       {"shape", QJsonArray{shape}}, {"bytes", bytes}, {"offset", offset}};
}

/// Waits until the client hangs up (the shared memory must stay reachable meanwhile).
void linger()
{
    Protocol::Frame f;
    try {
        while (Protocol::readFrame(0, f)) {
        }
    } catch (...) {
    }
}

} // namespace

/// compute-sanitizer's part (see the header).
int sanitizer(int argc, char** argv)
{
    int i = 1;
    std::string log;
    std::string tool;
    while (i + 1 < argc && std::strncmp(argv[i], "--", 2) == 0) {
        if (std::strcmp(argv[i], "--log-file") == 0) log = argv[i + 1];
        if (std::strcmp(argv[i], "--tool") == 0) tool = argv[i + 1];
        i += 2;
    }
    if (i >= argc) return 2;
    if (const char* record = std::getenv("WB_FAKE_SANITIZER_RECORD")) {
        if (FILE* f = std::fopen(record, "a")) {
            for (int k = i; k < argc; ++k)
                std::fprintf(f, "%s%s", k > i ? " " : "", argv[k]);
            std::fprintf(f, "\n");
            std::fclose(f);
        }
    }
    std::fprintf(stderr, "fake compute-sanitizer wraps: %s\n", argv[i]);
    if (FILE* f = tool == "racecheck" ? std::fopen(log.c_str(), "w") : nullptr) {
        // A shared-memory race as `--racecheck-report all` reports it: a hazard, then the
        // analysis summary; in $WB_FAKE_SANITIZER_FILE (a kernel file a test has open).
        const char* env = std::getenv("WB_FAKE_SANITIZER_FILE");
        const char* file = env && *env ? env : "/tmp/remote/kernel.cu";
        std::fprintf(f,
                     "========= COMPUTE-SANITIZER\n"
                     "========= Error: Potential RAW hazard detected at __shared__ 0x4 in block "
                     "(2,0,0) :\n"
                     "=========     Write Thread (7,0,0) at k(float *)+0x1a0 in %s:3\n"
                     "=========     Read Thread (8,0,0) at k(float *)+0x1c0 in %s:4\n"
                     "=========     Current Value : 0, Incoming Value : 1\n"
                     "=========\n"
                     "========= Error: Race reported between Write access at k(float *)+0x1a0 "
                     "in %s:3\n"
                     "=========     and Read access at k(float *)+0x1c0 in %s:4 [32 hazards]\n"
                     "=========\n"
                     "========= RACECHECK SUMMARY: 2 hazards displayed (2 errors, 0 warnings)\n",
                     file, file, file, file);
        std::fclose(f);
    } else if (FILE* f = std::fopen(log.c_str(), "w")) {
        std::fprintf(f, "========= COMPUTE-SANITIZER\n"
                        "========= Invalid __global__ write of size 4 bytes\n"
                        "=========     at k(float *)+0x90 in /tmp/remote/kernel.cu:7\n"
                        "=========     by thread (5,0,0) in block (1,0,0)\n"
                        "=========     Address 0x7f3a5c000800 is out of bounds\n"
                        "=========\n"
                        "========= ERROR SUMMARY: 1 error\n");
        std::fclose(f);
    }
    ::execvp(argv[i], argv + i);
    std::perror("fake sanitizer: exec");
    return 127;
}

int main(int argc, char** argv)
{
    if (argc > 1 && std::strcmp(argv[1], "--tool") == 0) return sanitizer(argc, argv);
    const char* env = std::getenv("WB_FAKE_RUNNER_MODE");
    const std::string mode = argc > 1 ? argv[1] : env ? env : "";
    if (mode == "bashrc") {
        std::printf("Welcome to gpu-box! Last login: Mon Nov 30 09:12:44 2026\n");
        std::fflush(stdout);
    }
    Protocol::Frame f;
    if (!Protocol::readFrame(0, f)) return 0;
    if (mode == "bigframe") {
        std::vector<char> header = Protocol::encode(Type::Hello, nullptr, 0);
        const std::uint64_t length = std::uint64_t{1} << 30;
        for (int i = 0; i < 8; ++i)
            header[static_cast<std::size_t>(8 + i)] = static_cast<char>((length >> (8 * i)) & 0xff);
        Protocol::writeAll(1, header);
        linger();
        return 0;
    }
    double pid = static_cast<double>(::getpid());
    if (mode.rfind("pid:", 0) == 0) pid = std::atof(mode.c_str() + 4);
    send(Type::Hello,
         QJsonObject{{"version", Protocol::kVersion}, {"pid", pid}, {"transport", "shm"}});
    if (!Protocol::readFrame(0, f)) return 0;
    if (mode.rfind("pid:", 0) == 0) {
        ::sleep(60); // never answers: the client's deadline kills what it started
        return 0;
    }
    if (mode == "wrap") {
        SharedMemory m = SharedMemory::create(8192);
        // 2^64 - 4096 + 8192 wraps to 4096, inside the region.
        report({buffer("2048", 8192, 18446744073709547520.0)}, {{"fd", m.fd()}, {"size", 8192}});
        linger();
    } else if (mode == "farbuffer") {
        SharedMemory m = SharedMemory::create(8192);
        report({buffer("2048", 8192, 9007199254740992.0)}, {{"fd", m.fd()}, {"size", 8192}});
        linger();
    } else if (mode == "smallshm") {
        SharedMemory m = SharedMemory::create(4096);
        report({buffer("1024", 4096, 524288)}, {{"fd", m.fd()}, {"size", 1 << 20}});
        linger();
    } else if (mode == "unsealed") {
        const int fd = ::memfd_create("fake", 0);
        if (fd < 0 || ::ftruncate(fd, 4096) != 0) return 1;
        report({buffer("1024", 4096, 0)}, {{"fd", fd}, {"size", 4096}});
        linger();
    } else if (mode == "hugeshape") {
        SharedMemory m = SharedMemory::create(4096);
        report({buffer("1125899906842624", 4096, 0)}, {{"fd", m.fd()}, {"size", 4096}});
        linger();
    } else if (mode == "status") {
        report({}, {}, 42);
        linger();
    } else if (mode == "midframe") {
        const std::vector<char> frame = Protocol::encode(Type::Report, QJsonObject{{"x", 1}});
        Protocol::writeAll(1, std::vector<char>(frame.begin(), frame.begin() + 10));
        return 0;
    } else if (mode == "blobbomb") {
        // Claims 1 GiB uncompressed; the report says the buffer has 1 GiB too.
        const char blob[] = {0x40, 0, 0, 0, 0x78, static_cast<char>(0x9c), 3, 0};
        Protocol::writeAll(1, Protocol::encode(Type::Blob, blob, sizeof blob));
        QJsonObject b = buffer("268435456", 1073741824.0, 0);
        b.remove("offset");
        report({b}, {});
        linger();
    } else {
        std::fprintf(stderr, "fake_runner: unknown mode '%s'\n", mode.c_str());
        return 2;
    }
    return 0;
}
