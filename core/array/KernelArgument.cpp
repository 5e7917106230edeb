// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/array/KernelArgument.h"

#include "core/common/Error.h"

#include <array>
#include <cctype>
#include <utility>

namespace wb {

namespace {

struct Spelling {
    std::string_view text;
    ScalarType type;
};

// Every accepted spelling, in the canonical word order; "signed" and "int" variants included.
constexpr std::array kSpellings{
    Spelling{"bool", ScalarType::Bool},
    Spelling{"char", ScalarType::Char},
    Spelling{"signed char", ScalarType::SignedChar},
    Spelling{"unsigned char", ScalarType::UnsignedChar},
    Spelling{"short", ScalarType::Short},
    Spelling{"short int", ScalarType::Short},
    Spelling{"signed short", ScalarType::Short},
    Spelling{"signed short int", ScalarType::Short},
    Spelling{"unsigned short", ScalarType::UnsignedShort},
    Spelling{"unsigned short int", ScalarType::UnsignedShort},
    Spelling{"int", ScalarType::Int},
    Spelling{"signed", ScalarType::Int},
    Spelling{"signed int", ScalarType::Int},
    Spelling{"unsigned", ScalarType::UnsignedInt},
    Spelling{"unsigned int", ScalarType::UnsignedInt},
    Spelling{"long", ScalarType::Long},
    Spelling{"long int", ScalarType::Long},
    Spelling{"signed long", ScalarType::Long},
    Spelling{"unsigned long", ScalarType::UnsignedLong},
    Spelling{"unsigned long int", ScalarType::UnsignedLong},
    Spelling{"long long", ScalarType::LongLong},
    Spelling{"long long int", ScalarType::LongLong},
    Spelling{"signed long long", ScalarType::LongLong},
    Spelling{"unsigned long long", ScalarType::UnsignedLongLong},
    Spelling{"unsigned long long int", ScalarType::UnsignedLongLong},
    Spelling{"float", ScalarType::Float},
    Spelling{"double", ScalarType::Double},
};

constexpr std::array<std::string_view, 7> kTypeWords{"bool", "char",   "short",   "int",
                                                     "long", "signed", "unsigned"};

bool isTypeWord(std::string_view word) noexcept
{
    for (std::string_view w : kTypeWords)
        if (w == word) return true;
    return word == "float" || word == "double";
}

bool isIdentifierStart(char c) noexcept
{
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool isIdentifierChar(char c) noexcept
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

std::string_view trim(std::string_view s) noexcept
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

const std::string& knownTypes()
{
    static const std::string text = [] {
        std::string t;
        for (int i = 0; i <= static_cast<int>(ScalarType::Double); ++i) {
            if (!t.empty()) t += ", ";
            t += scalarTypeName(static_cast<ScalarType>(i));
        }
        return t;
    }();
    return text;
}

[[noreturn]] void fail(std::size_t index, std::string_view text, const std::string& why)
{
    throw Error(Error::Kind::InvalidArgument,
                "argument " + std::to_string(index) + " ('" + std::string(text) + "'): " + why);
}

KernelArgument parseOne(std::size_t index, std::string_view text)
{
    if (text.empty()) fail(index, text, "empty (a stray comma?)");
    // Tokens: identifiers and '*'.
    std::vector<std::string_view> tokens;
    for (std::size_t p = 0; p < text.size();) {
        const char c = text[p];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++p;
        } else if (c == '*') {
            tokens.push_back(text.substr(p, 1));
            ++p;
        } else if (isIdentifierStart(c)) {
            std::size_t e = p + 1;
            while (e < text.size() && isIdentifierChar(text[e]))
                ++e;
            tokens.push_back(text.substr(p, e - p));
            p = e;
        } else {
            fail(index, text,
                 std::string("unexpected character '") + c +
                     "' (an argument is '[const] <type> [*] <name>', e.g. 'const float *x')");
        }
    }
    KernelArgument arg;
    const std::string_view name = tokens.back();
    if (name == "*" || isTypeWord(name) || name == "const" || name == "__restrict__")
        fail(index, text, "the argument has no name");
    tokens.pop_back();
    std::string typeText;
    int stars = 0;
    for (std::string_view t : tokens) {
        if (t == "*") {
            if (++stars > 1) fail(index, text, "pointers to pointers are not supported");
        } else if (t == "const") {
            if (stars == 0) arg.isConst = true;
        } else if (t == "__restrict__" || t == "__restrict") {
            if (stars == 0) fail(index, text, "__restrict__ applies to pointers only");
        } else if (stars > 0) {
            fail(index, text, "unexpected '" + std::string(t) + "' after '*'");
        } else {
            if (!typeText.empty()) typeText += ' ';
            typeText += t;
        }
    }
    if (typeText.empty()) fail(index, text, "the argument has no type");
    const auto type = parseScalarType(typeText);
    if (!type) fail(index, text, "unknown type '" + typeText + "' (known: " + knownTypes() + ")");
    arg.type = *type;
    arg.pointer = stars == 1;
    if (name == "i" || name == "n")
        fail(index, text,
             "the name '" + std::string(name) +
                 "' is reserved: generated kernels define 'i' (the element index) and 'n' "
                 "(the element count)");
    if (name.starts_with("wb_"))
        fail(index, text, "names starting with 'wb_' are reserved for generated code");
    arg.name = std::string(name);
    return arg;
}

} // namespace

const char* scalarTypeName(ScalarType type) noexcept
{
    switch (type) {
    case ScalarType::Bool:
        return "bool";
    case ScalarType::Char:
        return "char";
    case ScalarType::SignedChar:
        return "signed char";
    case ScalarType::UnsignedChar:
        return "unsigned char";
    case ScalarType::Short:
        return "short";
    case ScalarType::UnsignedShort:
        return "unsigned short";
    case ScalarType::Int:
        return "int";
    case ScalarType::UnsignedInt:
        return "unsigned int";
    case ScalarType::Long:
        return "long";
    case ScalarType::UnsignedLong:
        return "unsigned long";
    case ScalarType::LongLong:
        return "long long";
    case ScalarType::UnsignedLongLong:
        return "unsigned long long";
    case ScalarType::Float:
        return "float";
    case ScalarType::Double:
        return "double";
    }
    return "?";
}

std::size_t scalarTypeSize(ScalarType type) noexcept
{
    switch (type) {
    case ScalarType::Bool:
    case ScalarType::Char:
    case ScalarType::SignedChar:
    case ScalarType::UnsignedChar:
        return 1;
    case ScalarType::Short:
    case ScalarType::UnsignedShort:
        return 2;
    case ScalarType::Int:
    case ScalarType::UnsignedInt:
    case ScalarType::Float:
        return 4;
    case ScalarType::Long:
    case ScalarType::UnsignedLong:
        return sizeof(long);
    case ScalarType::LongLong:
    case ScalarType::UnsignedLongLong:
    case ScalarType::Double:
        return 8;
    }
    return 0;
}

bool isFloatingPoint(ScalarType type) noexcept
{
    return type == ScalarType::Float || type == ScalarType::Double;
}

std::optional<ScalarType> parseScalarType(std::string_view text) noexcept
{
    std::string words;
    for (std::size_t p = 0; p < text.size();) {
        if (std::isspace(static_cast<unsigned char>(text[p]))) {
            ++p;
            continue;
        }
        std::size_t e = p;
        while (e < text.size() && !std::isspace(static_cast<unsigned char>(text[e])))
            ++e;
        if (!words.empty()) words += ' ';
        words += text.substr(p, e - p);
        p = e;
    }
    for (const Spelling& s : kSpellings)
        if (s.text == words) return s.type;
    return std::nullopt;
}

std::string KernelArgument::declaration(bool restrict) const
{
    std::string d = isConst ? "const " : "";
    d += scalarTypeName(type);
    if (pointer)
        d += restrict ? "* __restrict__ " : "* ";
    else
        d += " ";
    return d + name;
}

std::vector<KernelArgument> parseKernelArguments(std::string_view text)
{
    if (trim(text).empty())
        throw Error(Error::Kind::InvalidArgument,
                    "the argument list is empty: name at least one argument, e.g. 'float *x'");
    std::vector<KernelArgument> args;
    std::size_t index = 1;
    for (std::size_t p = 0;; ++index) {
        const std::size_t comma = text.find(',', p);
        const std::string_view piece = trim(
            text.substr(p, comma == std::string_view::npos ? std::string_view::npos : comma - p));
        KernelArgument arg = parseOne(index, piece);
        for (const KernelArgument& other : args)
            if (other.name == arg.name)
                fail(index, piece, "the name '" + arg.name + "' is used twice");
        args.push_back(std::move(arg));
        if (comma == std::string_view::npos) break;
        p = comma + 1;
    }
    return args;
}

} // namespace wb
