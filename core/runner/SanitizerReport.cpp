// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/runner/SanitizerReport.h"

#include "core/common/Text.h"

#include <cstdlib>
#include <regex>
#include <sstream>

namespace wb::runner {

namespace {

struct Record {
    std::string title;
    std::vector<std::string> details;
};

/// "oob_write(float *, int)" → "oob_write"; "void ns::k<int>(int *)" → "ns::k<int>".
std::string kernelName(std::string s)
{
    s = std::string(trim(s));
    int depth = 0;
    for (std::size_t i = s.size(); i-- > 0;) {
        if (s[i] == ')')
            ++depth;
        else if (s[i] == '(' && --depth == 0) {
            s = s.substr(0, i);
            break;
        }
    }
    if (s.rfind("void ", 0) == 0) s = s.substr(5); // kernels return void
    if (const auto sp = s.rfind(' '); sp != std::string::npos && s.find('<') == std::string::npos)
        s = s.substr(sp + 1);
    return std::string(trim(s));
}

Dim3 dim3Of(const std::smatch& m, std::size_t first)
{
    return Dim3{static_cast<unsigned>(std::stoul(m[first].str())),
                static_cast<unsigned>(std::stoul(m[first + 1].str())),
                static_cast<unsigned>(std::stoul(m[first + 2].str()))};
}

/// "at k()+0x70 in /tmp/kernel.cu:6", "at 0x70 in k()", "at k()+0x70" → kernel, file, line.
void parseLocation(const std::string& where, MemoryFinding& f)
{
    static const std::regex withLine(R"(^(.*?)\+0x[0-9a-fA-F]+ in (.+):(\d+)$)");
    static const std::regex oldStyle(R"(^0x[0-9a-fA-F]+ in (.+?):(\d+):(.+)$)");
    static const std::regex noLine(R"(^0x[0-9a-fA-F]+ in (.+)$)");
    static const std::regex symbolOnly(R"(^(.*?)\+0x[0-9a-fA-F]+(?: in .*)?$)");
    std::smatch m;
    if (std::regex_match(where, m, withLine)) {
        f.kernel = kernelName(m[1].str());
        f.file = m[2].str();
        f.line = std::stoi(m[3].str());
    } else if (std::regex_match(where, m, oldStyle)) {
        f.file = m[1].str();
        f.line = std::stoi(m[2].str());
        f.kernel = kernelName(m[3].str());
    } else if (std::regex_match(where, m, noLine)) {
        f.kernel = kernelName(m[1].str());
    } else if (std::regex_match(where, m, symbolOnly)) {
        f.kernel = kernelName(m[1].str());
    }
}

bool skipped(const std::string& title)
{
    static const char* const prefixes[] = {"COMPUTE-SANITIZER",
                                           "Program hit",
                                           "ERROR SUMMARY",
                                           "LEAK SUMMARY",
                                           "RACECHECK SUMMARY",
                                           "Saved host",
                                           "Target application returned",
                                           "Leaked",
                                           "Host Frame"};
    for (const char* p : prefixes)
        if (title.rfind(p, 0) == 0) return true;
    return title.empty();
}

MemoryFinding parseRecord(const Record& r)
{
    static const std::regex access(
        R"(^Invalid (?:(__global__|__shared__|__local__|__generic__|global|shared|local) )?(read|write|atomic) of size (\d+) bytes?)");
    static const std::regex race(
        R"(^(?:Error|Warning|ERROR|WARNING): Race reported between (\w+) access at (.+?)(?: \[\d+ hazards?\])?$)");
    static const std::regex raceAnd(R"(^and (\w+) access at (.+?)(?: \[\d+ hazards?\])?$)");
    static const std::regex at(R"(^at (.+)$)");
    static const std::regex by(
        R"(^by thread \((\d+),(\d+),(\d+)\) in block \((\d+),(\d+),(\d+)\))");
    static const std::regex address(R"(^Address (0x[0-9a-fA-F]+) is (.+)$)");

    MemoryFinding f;
    std::smatch m;
    std::string what;
    std::string space;
    if (std::regex_search(r.title, m, access)) {
        space = m[1].str();
        f.isWrite = m[2].str() == "write";
        f.accessSize = static_cast<std::uint32_t>(std::stoul(m[3].str()));
        what = m[2].str() + " of " + m[3].str() + " byte" + (f.accessSize == 1 ? "" : "s");
        f.kind = MemoryFinding::Kind::InvalidAddress;
    } else if (std::regex_match(r.title, m, race)) {
        f.kind = MemoryFinding::Kind::Other;
        f.isWrite = m[1].str() == "Write";
        parseLocation(m[2].str(), f);
        what = "shared-memory race: " + m[1].str() + " access at " +
               (f.line ? f.file + ":" + std::to_string(f.line) : f.kernel);
    } else {
        what = r.title;
        f.kind = r.title.find("Misaligned") != std::string::npos ? MemoryFinding::Kind::Misaligned
                 : r.title.find("Illegal Address") != std::string::npos
                     ? MemoryFinding::Kind::InvalidAddress
                     : MemoryFinding::Kind::Other;
    }
    std::string where;
    for (const std::string& d : r.details) {
        if (std::regex_match(d, m, raceAnd)) {
            MemoryFinding other;
            parseLocation(m[2].str(), other);
            what += " and " + m[1].str() + " access at " +
                    (other.line ? other.file + ":" + std::to_string(other.line) : other.kernel);
        } else if (f.kernel.empty() && std::regex_match(d, m, at)) {
            parseLocation(m[1].str(), f);
        } else if (std::regex_search(d, m, by)) {
            f.thread = dim3Of(m, 1);
            f.block = dim3Of(m, 4);
            f.located = true;
        } else if (std::regex_match(d, m, address)) {
            f.address = std::strtoull(m[1].str().c_str(), nullptr, 16);
            const std::string is = m[2].str();
            if (is.find("misaligned") != std::string::npos)
                f.kind = MemoryFinding::Kind::Misaligned;
            else if (is.find("out of bounds") != std::string::npos)
                f.kind = MemoryFinding::Kind::OutOfBounds;
            where = " at " + m[1].str() + " is " + is;
        } else if (d.rfind("and is ", 0) == 0) {
            where += ": " + d.substr(7);
        }
    }
    f.message = (space.empty() ? "" : space + " ") + what + where;
    return f;
}

} // namespace

SanitizerReport SanitizerReport::parse(const std::string& text)
{
    SanitizerReport rep;
    std::vector<Record> records;
    std::istringstream in(text);
    std::string line;
    bool inBacktrace = false;
    static const std::regex summary(R"(ERROR SUMMARY: (\d+) errors?)");
    static const std::regex toolLine(
        R"(^(?:Tool|Running|Using) .*\b(memcheck|racecheck|initcheck|synccheck)\b)");
    while (std::getline(in, line)) {
        if (line.rfind("=========", 0) != 0) continue;
        std::string body = line.substr(9);
        std::smatch m;
        if (std::regex_search(body, m, summary)) rep.errorCount = std::stoi(m[1].str());
        const std::size_t indent = body.find_first_not_of(' ');
        if (indent == std::string::npos) {
            inBacktrace = false;
            continue;
        }
        const std::string content(trim(body));
        if (rep.tool.empty() && std::regex_search(content, m, toolLine)) rep.tool = m[1].str();
        if (indent <= 1) {
            inBacktrace = false;
            records.push_back(Record{content, {}});
            continue;
        }
        if (content.rfind("Saved host backtrace", 0) == 0) inBacktrace = true;
        if (!inBacktrace && !records.empty()) records.back().details.push_back(content);
    }
    for (const Record& r : records)
        if (!skipped(r.title)) rep.findings.push_back(parseRecord(r));
    if (rep.tool.empty()) {
        for (const MemoryFinding& f : rep.findings)
            if (f.message.rfind("shared-memory race", 0) == 0) rep.tool = "racecheck";
    }
    return rep;
}

} // namespace wb::runner
