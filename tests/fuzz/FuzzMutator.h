// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A small deterministic mutation fuzzer for the bounded fuzz tests (tst_fuzzprojectfile,
// tst_fuzzprotocol): byte edits, splices between seeds and JSON-aware replacements of numbers
// and strings by edge values. The tests run for a time budget: a few seconds by default (CI),
// $WB_FUZZ_SECONDS for longer runs by hand, from seed $WB_FUZZ_SEED (default 1). A failing
// input is written to $WB_FUZZ_ARTIFACTS (default the system temp folder) and named in the
// failure message. See docs/testing.md.

#include <QByteArray>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QString>
#include <QtGlobal>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace wb::fuzz {

struct Budget {
    double seconds = 3;
    std::uint64_t seed = 1;

    static Budget fromEnvironment(double defaultSeconds)
    {
        Budget b;
        b.seconds = defaultSeconds;
        bool ok = false;
        const double s = qEnvironmentVariable("WB_FUZZ_SECONDS").toDouble(&ok);
        if (ok && s > 0) b.seconds = s;
        const qulonglong seed = qEnvironmentVariable("WB_FUZZ_SEED").toULongLong(&ok);
        if (ok) b.seed = seed;
        return b;
    }
};

class Mutator {
public:
    explicit Mutator(std::uint64_t seed)
        : m_rng(seed)
    {
    }

    std::size_t below(std::size_t n) { return n ? std::size_t(m_rng() % n) : 0; }
    bool chance(unsigned percent) { return below(100) < percent; }

    /// One to four mutations of `input`; `seeds` provide material for splices.
    std::string mutate(std::string input, const std::vector<std::string>& seeds)
    {
        const std::size_t rounds = 1 + below(4);
        for (std::size_t r = 0; r < rounds; ++r)
            input = mutateOnce(std::move(input), seeds);
        if (input.size() > kMaxSize) input.resize(kMaxSize);
        return input;
    }

    /// Values that often break parsers and range checks.
    static const std::vector<std::string>& edgeValues()
    {
        static const std::vector<std::string> v = {
            "0",
            "-0",
            "1",
            "-1",
            "0.5",
            "1e308",
            "-1e308",
            "1e-320",
            "1e10",
            "4294967296",
            "4294967312",
            "2147483647",
            "2147483648",
            "-2147483649",
            "9007199254740993",
            "18446744073709551616",
            "1e400",
            "\"2^32+16\"",
            "\"1/0\"",
            "\"0/0\"",
            "\"-1\"",
            "\"n*n*n*n*n*n\"",
            "\"ceil(\"",
            "\"\"",
            "\" \"",
            "null",
            "true",
            "false",
            "[]",
            "{}",
            "[1,2,3,4]",
            "[0]",
            "[2048]",
            "[1024,2]",
            "[1,1,65]",
            "\"/dev/zero\"",
            "\".\"",
            "\"..\"",
            "\"/proc/self/mem\"",
            "\"../../../../etc/passwd\"",
            "\"\\u0000\"",
            "\"f16\"",
            "\"bf16\"",
            "\"u64\"",
            "\"npy\"",
            "\"bin\"",
            "\"image\"",
            "\"cpu\"",
            "\"cuda\"",
            "\"files\"",
            "\"kernel\"",
            "\"cpp\"",
            "{\"kind\":\"npy\"}",
            "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"};
        return v;
    }

private:
    static constexpr std::size_t kMaxSize = 1 << 16;

    std::string mutateOnce(std::string s, const std::vector<std::string>& seeds)
    {
        switch (below(10)) {
        case 0: // flip a bit
            if (!s.empty()) {
                const std::size_t at = below(s.size());
                s[at] = static_cast<char>(s[at] ^ (1 << below(8)));
            }
            break;
        case 1: // random byte
            if (!s.empty()) s[below(s.size())] = static_cast<char>(below(256));
            break;
        case 2: { // insert random bytes
            std::string bytes(1 + below(8), '\0');
            for (char& c : bytes)
                c = static_cast<char>(below(256));
            s.insert(below(s.size() + 1), bytes);
            break;
        }
        case 3: // delete a range
            if (!s.empty()) {
                const std::size_t at = below(s.size());
                s.erase(at, 1 + below(std::min<std::size_t>(64, s.size() - at)));
            }
            break;
        case 4: // truncate
            s.resize(below(s.size() + 1));
            break;
        case 5: // splice a piece of another seed
            if (!seeds.empty()) {
                const std::string& other = seeds[below(seeds.size())];
                if (!other.empty()) {
                    const std::size_t from = below(other.size());
                    const std::size_t len =
                        1 + below(std::min<std::size_t>(128, other.size() - from));
                    s.insert(below(s.size() + 1), other.substr(from, len));
                }
            }
            break;
        case 6: // duplicate a range
            if (!s.empty()) {
                const std::size_t at = below(s.size());
                const std::size_t len = 1 + below(std::min<std::size_t>(256, s.size() - at));
                s.insert(below(s.size() + 1), s.substr(at, len));
            }
            break;
        default: // replace a JSON value (number, string, literal) by an edge value
            s = replaceValue(std::move(s));
            break;
        }
        return s;
    }

    std::string replaceValue(std::string s)
    {
        // Positions just after ':' or '[' or ',' start a value; find one at random.
        std::vector<std::size_t> starts;
        for (std::size_t i = 0; i < s.size(); ++i)
            if (s[i] == ':' || s[i] == '[' || s[i] == ',') starts.push_back(i + 1);
        if (starts.empty()) return s;
        std::size_t at = starts[below(starts.size())];
        while (at < s.size() && s[at] == ' ')
            ++at;
        std::size_t end = at;
        if (end < s.size() && s[end] == '"') {
            ++end;
            while (end < s.size() && s[end] != '"')
                end += s[end] == '\\' ? 2 : 1;
            end = std::min(end + 1, s.size());
        } else {
            while (end < s.size() && s[end] != ',' && s[end] != '}' && s[end] != ']' &&
                   s[end] != '{' && s[end] != '[')
                ++end;
        }
        const auto& edges = edgeValues();
        s.replace(at, end - at, edges[below(edges.size())]);
        return s;
    }

    std::mt19937_64 m_rng;
};

/// Saves a failing input and returns where, for the failure message.
inline QString saveArtifact(const std::string& input, const QString& name)
{
    QString dir = qEnvironmentVariable("WB_FUZZ_ARTIFACTS");
    if (dir.isEmpty()) dir = QDir::tempPath();
    QDir().mkpath(dir);
    const QString path = dir + "/" + name;
    QFile f(path);
    if (f.open(QIODevice::WriteOnly)) f.write(input.data(), static_cast<qint64>(input.size()));
    return path;
}

} // namespace wb::fuzz
