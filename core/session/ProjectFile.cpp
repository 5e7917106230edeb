// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/ProjectFile.h"

#include "core/common/Error.h"
#include "core/common/UserFile.h"
#include "core/session/detail/FileUtil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QString>
#include <QVariant>

#include <algorithm>
#include <cmath>
#include <set>

namespace wb::session {

namespace {

[[noreturn]] void invalid(const std::string& field, const std::string& what)
{
    throw Error(Error::Kind::InvalidArgument, field + ": " + what);
}

std::string str(const QString& s)
{
    return s.toStdString();
}
QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

const char* typeName(const QJsonValue& v)
{
    switch (v.type()) {
    case QJsonValue::Null:
        return "null";
    case QJsonValue::Bool:
        return "a boolean";
    case QJsonValue::Double:
        return "a number";
    case QJsonValue::String:
        return "a string";
    case QJsonValue::Array:
        return "an array";
    case QJsonValue::Object:
        return "an object";
    default:
        return "undefined";
    }
}

/// A JSON object being read, with the dotted path used in messages; checks unknown keys.
class Reader {
public:
    Reader(QJsonObject obj, std::string path)
        : m_obj(std::move(obj))
        , m_path(std::move(path))
    {
    }

    std::string field(const std::string& key) const
    {
        return m_path.empty() ? key : m_path + "." + key;
    }
    bool has(const char* key)
    {
        m_known.insert(key);
        return m_obj.contains(QLatin1String(key));
    }
    QJsonValue value(const char* key)
    {
        m_known.insert(key);
        return m_obj.value(QLatin1String(key));
    }

    std::string string(const char* key, const std::string& fallback, bool required = false)
    {
        if (!has(key)) {
            if (required) invalid(field(key), "required field is missing");
            return fallback;
        }
        const QJsonValue v = value(key);
        if (!v.isString())
            invalid(field(key), std::string("expected a string, found ") + typeName(v));
        return str(v.toString());
    }
    /// A number or an expression string.
    std::string expression(const char* key, const std::string& fallback, bool required = false)
    {
        if (!has(key)) {
            if (required) invalid(field(key), "required field is missing");
            return fallback;
        }
        return expressionOf(value(key), field(key));
    }
    static std::string expressionOf(const QJsonValue& v, const std::string& f)
    {
        if (v.isString()) {
            const std::string s = str(v.toString());
            if (s.find_first_not_of(" \t") == std::string::npos) invalid(f, "empty expression");
            return s;
        }
        // A JSON integer that fits 64 bits keeps every digit (a double would round it above
        // 2^53); larger ones are already doubles, and integer scalars refuse them as inexact.
        if (v.isDouble() && v.toVariant().typeId() == QMetaType::LongLong)
            return std::to_string(v.toInteger());
        if (v.isDouble()) return str(QString::number(v.toDouble(), 'g', 17));
        invalid(f, std::string("expected a number or an expression string, found ") + typeName(v));
    }
    double number(const char* key, double fallback, double min = -HUGE_VAL)
    {
        if (!has(key)) return fallback;
        const QJsonValue v = value(key);
        if (!v.isDouble())
            invalid(field(key), std::string("expected a number, found ") + typeName(v));
        const double d = v.toDouble();
        if (d < min) invalid(field(key), "must be at least " + str(QString::number(min)));
        return d;
    }
    std::int64_t integer(const char* key, std::int64_t fallback, std::int64_t min, std::int64_t max)
    {
        if (!has(key)) return fallback;
        const QJsonValue v = value(key);
        const double d = v.toDouble(std::nan(""));
        if (!v.isDouble() || d != std::floor(d))
            invalid(field(key), std::string("expected an integer, found ") +
                                    (v.isDouble() ? str(QString::number(d)) : typeName(v)));
        if (d < static_cast<double>(min) || d > static_cast<double>(max))
            invalid(field(key), "expected an integer in " + std::to_string(min) + "–" +
                                    std::to_string(max) + ", found " + str(QString::number(d)));
        return static_cast<std::int64_t>(d);
    }
    bool boolean(const char* key, bool fallback)
    {
        if (!has(key)) return fallback;
        const QJsonValue v = value(key);
        if (!v.isBool())
            invalid(field(key), std::string("expected true or false, found ") + typeName(v));
        return v.toBool();
    }
    QJsonArray array(const char* key)
    {
        if (!has(key)) return {};
        const QJsonValue v = value(key);
        if (!v.isArray())
            invalid(field(key), std::string("expected an array, found ") + typeName(v));
        return v.toArray();
    }
    std::optional<Reader> object(const char* key, bool required = false)
    {
        if (!has(key)) {
            if (required) invalid(field(key), "required field is missing");
            return std::nullopt;
        }
        const QJsonValue v = value(key);
        if (!v.isObject())
            invalid(field(key), std::string("expected an object, found ") + typeName(v));
        return Reader(v.toObject(), field(key));
    }
    std::vector<std::string> strings(const char* key)
    {
        std::vector<std::string> out;
        const QJsonArray a = array(key);
        for (qsizetype i = 0; i < a.size(); ++i) {
            const std::string f = field(key) + "[" + std::to_string(i) + "]";
            if (!a[i].isString())
                invalid(f, std::string("expected a string, found ") + typeName(a[i]));
            out.push_back(str(a[i].toString()));
        }
        return out;
    }
    std::map<std::string, std::string> stringMap(const char* key)
    {
        std::map<std::string, std::string> out;
        if (auto r = object(key)) {
            for (auto it = r->m_obj.begin(); it != r->m_obj.end(); ++it) {
                if (!it.value().isString())
                    invalid(r->field(str(it.key())),
                            std::string("expected a string, found ") + typeName(it.value()));
                out[str(it.key())] = str(it.value().toString());
            }
        }
        return out;
    }
    /// Call when every expected key has been read: anything else is a typo or a newer field.
    void finish() const
    {
        for (auto it = m_obj.begin(); it != m_obj.end(); ++it)
            if (!m_known.count(str(it.key()))) invalid(field(str(it.key())), "unknown field");
    }

private:
    QJsonObject m_obj;
    std::string m_path;
    std::set<std::string> m_known;
};

std::vector<std::string> dims(Reader& r, const char* key, bool required, const char* what)
{
    const std::string f = r.field(key);
    if (!r.has(key)) {
        if (required) invalid(f, "required field is missing");
        return {};
    }
    const QJsonValue v = r.value(key);
    std::vector<std::string> out;
    if (v.isDouble() || v.isString()) {
        out.push_back(Reader::expressionOf(v, f));
    } else if (v.isArray()) {
        const QJsonArray a = v.toArray();
        if (a.isEmpty() || a.size() > 3) invalid(f, std::string("expected 1–3 ") + what);
        for (qsizetype i = 0; i < a.size(); ++i) {
            const std::string fi = f + "[" + std::to_string(i) + "]";
            if (a[i].isDouble() &&
                (a[i].toDouble() < 1 || a[i].toDouble() != std::floor(a[i].toDouble())))
                invalid(f, std::string("expected 1–3 ") + what + " (element " + std::to_string(i) +
                               " is " + str(QString::number(a[i].toDouble())) + ")");
            out.push_back(Reader::expressionOf(a[i], fi));
        }
    } else {
        invalid(f, std::string("expected 1–3 ") + what + ", found " + typeName(v));
    }
    return out;
}

ElementType elementType(Reader& r, const char* key, ElementType fallback, bool required)
{
    if (!r.has(key) && !required) return fallback;
    const std::string t = r.string(key, "", required);
    if (auto e = parseElementType(t)) return *e;
    invalid(r.field(key), "unknown element type \"" + t +
                              "\" (expected f16 bf16 f32 f64 i8 i16 i32 i64 u8 u16 u32 u64 bool)");
}

Tolerance readTolerance(Reader& r, Tolerance t)
{
    const bool hasUlp = r.has("maxUlp");
    const bool hasClose = r.has("atol") || r.has("rtol");
    if (hasUlp && hasClose) invalid(r.field("maxUlp"), "give either maxUlp or atol/rtol, not both");
    if (hasUlp) {
        t.mode = Tolerance::Mode::Ulp;
        t.maxUlp = static_cast<std::uint64_t>(r.integer("maxUlp", 4, 0, std::int64_t{1} << 53));
    } else if (hasClose) {
        t.mode = Tolerance::Mode::AllClose;
    }
    t.atol = r.number("atol", t.atol, 0);
    t.rtol = r.number("rtol", t.rtol, 0);
    t.nanEqual = r.boolean("nanEqual", t.nanEqual);
    r.finish();
    return t;
}

LaunchSpec readLaunch(Reader& r, bool kernelRequired)
{
    LaunchSpec l;
    l.kernel = r.string("kernel", "", kernelRequired);
    l.grid = dims(r, "grid", true, "positive integers or expressions");
    l.block = dims(r, "block", true, "positive integers or expressions");
    l.sharedBytes = r.expression("sharedBytes", "0");
    l.bindings = r.stringMap("bindings");
    l.cooperative = r.boolean("cooperative", false);
    return l;
}

void checkName(const std::string& name, const std::string& field)
{
    if (name.empty()) invalid(field, "must not be empty");
    const bool ok = (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_') &&
                    std::all_of(name.begin(), name.end(), [](char c) {
                        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
                    });
    if (!ok) invalid(field, "\"" + name + "\" is not an identifier (letters, digits, _)");
}

/// launches[i]: a launch object with an optional "repeat" array of loops. `names` holds the
/// scalars' and buffers' names, which a loop variable may not take.
PipelineLaunch readPipelineLaunch(const QJsonValue& v, std::size_t index,
                                  const std::set<std::string>& names)
{
    const std::string f = "launches[" + std::to_string(index) + "]";
    if (!v.isObject()) invalid(f, std::string("expected an object, found ") + typeName(v));
    Reader r(v.toObject(), f);
    PipelineLaunch p;
    p.launch = readLaunch(r, true);
    const QJsonArray repeat = r.array("repeat");
    for (qsizetype j = 0; j < repeat.size(); ++j) {
        const std::string fj = r.field("repeat") + "[" + std::to_string(j) + "]";
        if (!repeat[j].isObject())
            invalid(fj, std::string("expected an object, found ") + typeName(repeat[j]));
        Reader lr(repeat[j].toObject(), fj);
        LoopSpec loop;
        loop.var = lr.string("var", "", true);
        checkName(loop.var, fj + ".var");
        if (names.count(loop.var))
            invalid(fj + ".var", "loop variable \"" + loop.var +
                                     "\" has the name of a scalar or buffer of the project");
        for (const LoopSpec& outer : p.repeat)
            if (outer.var == loop.var)
                invalid(fj + ".var",
                        "loop variable \"" + loop.var + "\" is already a loop of this launch");
        loop.type = elementType(lr, "type", ElementType::I32, false);
        if (!isInteger(loop.type) || loop.type == ElementType::Bool)
            invalid(fj + ".type", std::string("a loop variable is an integer, not ") +
                                      elementTypeName(loop.type));
        loop.from = lr.expression("from", "", true);
        loop.to = lr.expression("to", "", true);
        int steps = 0;
        for (const auto& [key, kind] :
             {std::pair{"step", LoopSpec::Step::Add}, std::pair{"times", LoopSpec::Step::Multiply},
              std::pair{"divide", LoopSpec::Step::Divide}})
            if (lr.has(key)) {
                ++steps;
                loop.step = kind;
                loop.by = lr.expression(key, "1");
            }
        if (steps > 1) invalid(fj, "give at most one of \"step\", \"times\" or \"divide\"");
        lr.finish();
        p.repeat.push_back(std::move(loop));
    }
    r.finish();
    return p;
}

QJsonValue exprJson(const std::string& e)
{
    bool ok = false;
    // An integer is written as one, every digit kept: as a double, one above 2^53 would be
    // written rounded ("46744073709551616" saved as 46744073709551620) and load as another.
    const qint64 i = QString::fromStdString(e).toLongLong(&ok);
    if (ok && std::to_string(i) == e) return QJsonValue(i);
    const double d = QString::fromStdString(e).toDouble(&ok);
    if (ok && str(QString::number(d, 'g', 17)) == e) return d;
    return qs(e);
}

QJsonArray dimsJson(const std::vector<std::string>& d)
{
    QJsonArray a;
    for (const std::string& e : d) {
        // A plain number in a dimension must be a positive integer when loaded: "-1" or "0.5"
        // stays a string expression (refused when run), so that the saved file loads again.
        const QJsonValue v = exprJson(e);
        const bool loadable =
            !v.isDouble() || (v.toDouble() >= 1 && v.toDouble() == std::floor(v.toDouble()));
        a.append(loadable ? v : QJsonValue(qs(e)));
    }
    return a;
}

QJsonObject mapJson(const std::map<std::string, std::string>& m)
{
    QJsonObject o;
    for (const auto& [k, v] : m)
        o.insert(qs(k), qs(v));
    return o;
}

QJsonArray stringsJson(const std::vector<std::string>& v)
{
    QJsonArray a;
    for (const std::string& s : v)
        a.append(qs(s));
    return a;
}

QJsonObject toleranceJson(const Tolerance& t)
{
    QJsonObject o;
    if (t.mode == Tolerance::Mode::Ulp) {
        o["maxUlp"] = static_cast<double>(t.maxUlp);
    } else {
        o["atol"] = t.atol;
        o["rtol"] = t.rtol;
    }
    o["nanEqual"] = t.nanEqual;
    return o;
}

QJsonObject launchJson(const LaunchSpec& l)
{
    QJsonObject o;
    o["kernel"] = qs(l.kernel);
    o["grid"] = dimsJson(l.grid);
    o["block"] = dimsJson(l.block);
    o["sharedBytes"] = exprJson(l.sharedBytes);
    if (!l.bindings.empty()) o["bindings"] = mapJson(l.bindings);
    if (l.cooperative) o["cooperative"] = true;
    return o;
}

/// One buffer or module global (`global`): everything but the final unknown-key check.
BufferSpec readBuffer(Reader& r, const std::string& f, std::set<std::string>& names,
                      const Tolerance& tolerance, bool global)
{
    BufferSpec b;
    b.name = r.string("name", "", true);
    checkName(b.name, f + ".name");
    if (!names.insert(b.name).second) invalid(f + ".name", "duplicate name \"" + b.name + "\"");
    b.type = elementType(r, "type", ElementType::F32, true);
    // A global is often one value: its shape defaults to [1] and "value" sets it.
    b.shape = global && !r.has("shape")
                  ? std::vector<std::string>{"1"}
                  : dims(r, "shape", true, "positive integers or expressions");
    const std::string role = r.string("role", "in");
    if (role == "in")
        b.role = BufferRole::In;
    else if (role == "out")
        b.role = BufferRole::Out;
    else if (role == "inout")
        b.role = BufferRole::InOut;
    else
        invalid(f + ".role", "expected \"in\", \"out\" or \"inout\", found \"" + role + "\"");
    if (global && r.has("value")) {
        if (r.has("init")) invalid(f, "give at most one of \"value\" or \"init\"");
        b.init.kind = Initialiser::Kind::Constant;
        b.init.value = r.expression("value", "", true);
    }
    if (auto in = r.object("init")) {
        Initialiser& init = b.init;
        const std::string kind = in->string("kind", "", true);
        const auto k = parseInitialiserKind(kind);
        if (!k)
            invalid(in->field("kind"), "unknown initialiser \"" + kind +
                                           "\" (expected zeros, constant, iota, linspace, "
                                           "uniform, normal, npy, bin or image)");
        init.kind = *k;
        using K = Initialiser::Kind;
        const bool isFile = init.kind == K::Npy || init.kind == K::Bin || init.kind == K::Image;
        init.value = in->expression("value", init.value, init.kind == K::Constant);
        init.start = in->expression("start", init.start);
        init.step = in->expression("step", init.step);
        init.stop = in->expression("stop", init.stop, init.kind == K::Linspace);
        init.low = in->expression("low", init.low);
        init.high = in->expression("high", init.high);
        init.mean = in->expression("mean", init.mean);
        init.stddev = in->expression("stddev", init.stddev);
        init.seed = static_cast<std::uint64_t>(in->integer("seed", 0, 0, (std::int64_t{1} << 53)));
        init.path = in->string("path", "", isFile);
        if (isFile && init.path.empty()) invalid(in->field("path"), "must not be empty");
        init.channels = in->string("channels", "grey");
        if (init.channels != "grey" && init.channels != "rgb" && init.channels != "rgba")
            invalid(in->field("channels"), "expected \"grey\", \"rgb\" or \"rgba\"");
        in->finish();
    }
    if (auto t = r.object("tolerance")) b.tolerance = readTolerance(*t, tolerance);
    b.exports = r.strings("exports");
    for (std::size_t e = 0; e < b.exports.size(); ++e)
        if (const std::string why = exportNameProblem(b.exports[e]); !why.empty())
            invalid(f + ".exports[" + std::to_string(e) + "]", why);
    if (global && r.has("poison"))
        invalid(f + ".poison", "a global is never poisoned (an \"out\" global starts as the "
                               "kernel source initialises it)");
    if (r.has("poison")) {
        b.poison = r.boolean("poison", true);
        if (*b.poison && b.role != BufferRole::Out)
            invalid(f + ".poison", "only \"out\" buffers can be poisoned (an \"" +
                                       std::string(bufferRoleName(b.role)) +
                                       "\" buffer's initial data is input)");
    }
    return b;
}

/// A buffer or module global as the project file writes it.
QJsonObject bufferJson(const BufferSpec& b)
{
    const Initialiser defaults;
    QJsonObject bo{{"name", qs(b.name)},
                   {"type", elementTypeName(b.type)},
                   {"shape", dimsJson(b.shape)},
                   {"role", bufferRoleName(b.role)}};
    const Initialiser& in = b.init;
    QJsonObject io{{"kind", initialiserKindName(in.kind)}};
    auto put = [&io](const char* key, const std::string& v, const std::string& def) {
        if (v != def) io[key] = exprJson(v);
    };
    // Fields a kind requires are always written, defaults or not.
    if (in.kind == Initialiser::Kind::Constant)
        io["value"] = exprJson(in.value);
    else
        put("value", in.value, defaults.value);
    put("start", in.start, defaults.start);
    put("step", in.step, defaults.step);
    if (in.kind == Initialiser::Kind::Linspace)
        io["stop"] = exprJson(in.stop);
    else
        put("stop", in.stop, defaults.stop);
    put("low", in.low, defaults.low);
    put("high", in.high, defaults.high);
    put("mean", in.mean, defaults.mean);
    put("stddev", in.stddev, defaults.stddev);
    if (in.seed) io["seed"] = static_cast<double>(in.seed);
    if (!in.path.empty()) io["path"] = qs(in.path);
    if (in.channels != defaults.channels) io["channels"] = qs(in.channels);
    if (!(in == defaults) || in.kind != Initialiser::Kind::Zeros) bo["init"] = io;
    if (b.tolerance) bo["tolerance"] = toleranceJson(*b.tolerance);
    if (!b.exports.empty()) bo["exports"] = stringsJson(b.exports);
    if (b.poison) bo["poison"] = *b.poison;
    return bo;
}

} // namespace

Session ProjectFile::load(const std::filesystem::path& path)
{
    const std::string bytes = UserFile::read(path, UserFile::kMaxTextBytes, "the project file");
    return fromJson(bytes, std::filesystem::absolute(path).parent_path(), path.string());
}

Session ProjectFile::fromJson(const std::string& json, const std::filesystem::path& baseDir,
                              const std::string& name)
{
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(json), &err);
    if (err.error != QJsonParseError::NoError)
        throw Error(Error::Kind::InvalidArgument, name + ": not valid JSON at offset " +
                                                      std::to_string(err.offset) + ": " +
                                                      str(err.errorString()));
    if (!doc.isObject())
        throw Error(Error::Kind::InvalidArgument, name + ": expected a JSON object");

    Session s;
    s.baseDir = baseDir;
    Reader root(doc.object(), "");
    if (!root.has("schemaVersion")) invalid("schemaVersion", "required field is missing");
    const std::int64_t version = root.integer("schemaVersion", 0, 1, 1 << 30);
    if (version > kSchemaVersion)
        invalid("schemaVersion", "this project uses schema version " + std::to_string(version) +
                                     ", newer than this Warpbench understands (" +
                                     std::to_string(kSchemaVersion) +
                                     "): update Warpbench to open it");

    s.name = root.string("name", "");
    s.description = root.string("description", "");

    {
        auto k = root.object("kernel", true);
        const bool hasFile = k->has("file"), hasSource = k->has("source");
        if (hasFile == hasSource) invalid("kernel", "give exactly one of \"file\" or \"source\"");
        s.kernelFile = k->string("file", "");
        if (hasFile && s.kernelFile.empty()) invalid("kernel.file", "must not be empty");
        s.kernelSource = k->string("source", "");
        s.kernelSourceFileName = k->string("name", "");
        if (k->has("name")) {
            if (hasFile) invalid("kernel.name", "only an inline \"source\" takes a name");
            const std::string& n = s.kernelSourceFileName;
            if (n.empty() || n.size() > 255 || n == "." || n == ".." ||
                n.find_first_of("/\\") != std::string::npos ||
                std::any_of(n.begin(), n.end(), [](char c) {
                    return static_cast<unsigned char>(c) < 0x20 || c == '\x7f';
                }))
                invalid("kernel.name",
                        "\"" + n +
                            "\" is not a plain file name (the name the "
                            "inline source goes by in diagnostics, e.g. \"saxpy.cu\")");
        }
        k->finish();
    }

    if (auto c = root.object("compileOptions")) {
        CompileOptions& o = s.compileOptions;
        o.arch = c->string("arch", o.arch);
        o.optLevel = static_cast<int>(c->integer("optLevel", o.optLevel, 0, 3));
        o.fastMath = c->boolean("fastMath", o.fastMath);
        o.lineInfo = c->boolean("lineInfo", o.lineInfo);
        o.deviceDebug = c->boolean("deviceDebug", o.deviceDebug);
        o.std = c->string("std", o.std);
        for (const auto& [k, v] : c->stringMap("defines"))
            o.defines.emplace_back(k, v);
        o.includeDirs = c->strings("includeDirs");
        o.maxRegCount = static_cast<int>(c->integer("maxRegCount", 0, 0, 255));
        o.extraFlags = c->strings("extraFlags");
        o.nameExpressions = c->strings("nameExpressions");
        c->finish();
    }

    std::set<std::string> names;
    const QJsonArray scalars = root.array("scalars");
    for (qsizetype i = 0; i < scalars.size(); ++i) {
        const std::string f = "scalars[" + std::to_string(i) + "]";
        if (!scalars[i].isObject())
            invalid(f, std::string("expected an object, found ") + typeName(scalars[i]));
        Reader r(scalars[i].toObject(), f);
        ScalarSpec sc;
        sc.name = r.string("name", "", true);
        checkName(sc.name, f + ".name");
        if (!names.insert(sc.name).second)
            invalid(f + ".name", "duplicate name \"" + sc.name + "\"");
        if (r.has("type") && r.value("type") == QJsonValue("struct")) {
            // {"name": "p", "type": "struct", "members": [{"name", "type", "value"}, ...]}
            const QJsonArray members = r.array("members");
            if (members.isEmpty())
                invalid(f + ".members", "a struct scalar needs at least one member");
            std::set<std::string> memberNames;
            for (qsizetype m = 0; m < members.size(); ++m) {
                const std::string fm = f + ".members[" + std::to_string(m) + "]";
                if (!members[m].isObject())
                    invalid(fm, std::string("expected an object, found ") + typeName(members[m]));
                Reader mr(members[m].toObject(), fm);
                StructMember member;
                member.name = mr.string("name", "", true);
                checkName(member.name, fm + ".name");
                if (!memberNames.insert(member.name).second)
                    invalid(fm + ".name", "duplicate member \"" + member.name + "\"");
                member.type = elementType(mr, "type", ElementType::I32, true);
                // {"name": "elements", "type": "f32", "buffer": "A"}: a pointer into buffer A.
                member.buffer = mr.string("buffer", "");
                if (mr.has("buffer") && member.buffer.empty())
                    invalid(mr.field("buffer"), "must not be empty");
                if (member.isPointer() && mr.has("value"))
                    invalid(fm, "give one of \"value\" or \"buffer\"");
                if (!member.isPointer()) member.value = mr.expression("value", "", true);
                mr.finish();
                sc.members.push_back(std::move(member));
            }
        } else {
            sc.type = elementType(r, "type", ElementType::I32, false);
            sc.value = r.expression("value", "", true);
        }
        r.finish();
        s.scalars.push_back(std::move(sc));
    }

    const QJsonArray buffers = root.array("buffers");
    for (qsizetype i = 0; i < buffers.size(); ++i) {
        const std::string f = "buffers[" + std::to_string(i) + "]";
        if (!buffers[i].isObject())
            invalid(f, std::string("expected an object, found ") + typeName(buffers[i]));
        Reader r(buffers[i].toObject(), f);
        BufferSpec b = readBuffer(r, f, names, s.tolerance, false);
        r.finish();
        s.buffers.push_back(std::move(b));
    }

    // {"name": "c_Kernel", "type": "f32", "shape": [17], "role": "in", "init": {...}}
    const QJsonArray globals = root.array("globals");
    for (qsizetype i = 0; i < globals.size(); ++i) {
        const std::string f = "globals[" + std::to_string(i) + "]";
        if (!globals[i].isObject())
            invalid(f, std::string("expected an object, found ") + typeName(globals[i]));
        Reader r(globals[i].toObject(), f);
        BufferSpec g = readBuffer(r, f, names, s.tolerance, true);
        r.finish();
        s.globals.push_back(std::move(g));
    }

    if (root.has("launches")) {
        const QJsonArray launches = root.array("launches");
        if (launches.isEmpty())
            invalid("launches", "expected at least one launch (a one-launch project gives "
                                "\"launch\" only)");
        for (qsizetype i = 0; i < launches.size(); ++i)
            s.launches.push_back(
                readPipelineLaunch(launches[i], static_cast<std::size_t>(i), names));
    }
    if (auto l = root.object("launch", !s.isPipeline())) {
        if (s.isPipeline()) {
            for (const char* key : {"kernel", "grid", "block", "sharedBytes", "bindings"})
                if (l->has(key))
                    invalid(l->field(key),
                            "a pipeline project states its kernels in \"launches\"; \"launch\" "
                            "then holds only warmup, iterations, flops, backend and device");
        } else {
            s.launch = readLaunch(*l, true);
        }
        s.warmup = static_cast<int>(l->integer("warmup", 1, 0, 1000000));
        s.iterations = static_cast<int>(l->integer("iterations", 10, 1, 1000000));
        s.flops = l->expression("flops", "");
        s.pinInputs = l->string("pinInputs", "");
        if (l->has("pinInputs") && s.pinInputs.find_first_not_of(" \t\n") == std::string::npos)
            invalid(l->field("pinInputs"),
                    "state why grade mode may not give the timed launches fresh inputs");
        const std::string backend = l->string("backend", "auto");
        const auto bk = parseBackendKind(backend);
        if (!bk)
            invalid(l->field("backend"),
                    "expected \"auto\", \"cuda\" or \"cpu\", found \"" + backend + "\"");
        s.backend = *bk;
        s.device = static_cast<int>(l->integer("device", 0, 0, 1023));
        l->finish();
    }

    if (auto t = root.object("tolerance")) s.tolerance = readTolerance(*t, Tolerance{});
    s.poisonOutputs = root.boolean("poisonOutputs", true);
    // Per-buffer overrides start from the session's tolerance: re-read them now that it is known.
    for (qsizetype i = 0; i < buffers.size(); ++i) {
        const QJsonObject bo = buffers[i].toObject();
        if (bo.contains("tolerance")) {
            Reader r(bo.value("tolerance").toObject(),
                     "buffers[" + std::to_string(i) + "].tolerance");
            s.buffers[static_cast<std::size_t>(i)].tolerance = readTolerance(r, s.tolerance);
        }
    }
    for (qsizetype i = 0; i < globals.size(); ++i) {
        const QJsonObject go = globals[i].toObject();
        if (go.contains("tolerance")) {
            Reader r(go.value("tolerance").toObject(),
                     "globals[" + std::to_string(i) + "].tolerance");
            s.globals[static_cast<std::size_t>(i)].tolerance = readTolerance(r, s.tolerance);
        }
    }

    if (auto r = root.object("reference")) {
        ReferenceSpec& ref = s.reference;
        const std::string kind = r->string("kind", "", true);
        if (kind == "none") {
            ref.kind = ReferenceSpec::Kind::None;
        } else if (kind == "cpp") {
            ref.kind = ReferenceSpec::Kind::Cpp;
            const bool hasFile = r->has("file"), hasSource = r->has("source");
            if (hasFile == hasSource)
                invalid("reference", "give exactly one of \"file\" or \"source\"");
            ref.file = r->string("file", "");
            if (hasFile && ref.file.empty()) invalid(r->field("file"), "must not be empty");
            ref.source = r->string("source", "");
            ref.function = r->string("function", "reference");
            checkName(ref.function, r->field("function"));
            if (r->has("flags")) ref.flags = r->strings("flags");
        } else if (kind == "kernel") {
            ref.kind = ReferenceSpec::Kind::Kernel;
            ref.launch.kernel = r->string("kernel", "", true);
            ref.launch.grid = r->has("grid")
                                  ? dims(*r, "grid", true, "positive integers or expressions")
                                  : s.launch.grid;
            ref.launch.block = r->has("block")
                                   ? dims(*r, "block", true, "positive integers or expressions")
                                   : s.launch.block;
            ref.launch.sharedBytes = r->expression("sharedBytes", "0");
            ref.launch.bindings = r->stringMap("bindings");
        } else if (kind == "files") {
            ref.kind = ReferenceSpec::Kind::Files;
            ref.files = r->stringMap("files");
            for (const auto& [buf, file] : ref.files) {
                const BufferSpec* b = s.findBuffer(buf);
                if (!b) b = s.findGlobal(buf);
                if (!b) invalid(r->field("files") + "." + buf, "no buffer named \"" + buf + "\"");
                if (!b->isOutput())
                    invalid(r->field("files") + "." + buf, "buffer \"" + buf + "\" is an input");
            }
        } else {
            invalid(r->field("kind"),
                    "expected \"none\", \"cpp\", \"kernel\" or \"files\", found \"" + kind + "\"");
        }
        r->finish();
    }
    root.finish();
    return s;
}

std::string ProjectFile::toJson(const Session& s)
{
    QJsonObject root;
    root["schemaVersion"] = kSchemaVersion;
    if (!s.name.empty()) root["name"] = qs(s.name);
    if (!s.description.empty()) root["description"] = qs(s.description);
    QJsonObject kernel;
    if (!s.kernelFile.empty())
        kernel["file"] = qs(s.kernelFile);
    else
        kernel["source"] = qs(s.kernelSource);
    if (s.kernelFile.empty() && !s.kernelSourceFileName.empty())
        kernel["name"] = qs(s.kernelSourceFileName);
    root["kernel"] = kernel;

    const CompileOptions& o = s.compileOptions;
    if (!(o == CompileOptions{})) {
        QJsonObject c;
        if (!o.arch.empty()) c["arch"] = qs(o.arch);
        c["optLevel"] = o.optLevel;
        c["fastMath"] = o.fastMath;
        c["lineInfo"] = o.lineInfo;
        c["deviceDebug"] = o.deviceDebug;
        c["std"] = qs(o.std);
        if (!o.defines.empty()) {
            QJsonObject d;
            for (const auto& [k, v] : o.defines)
                d.insert(qs(k), qs(v));
            c["defines"] = d;
        }
        if (!o.includeDirs.empty()) c["includeDirs"] = stringsJson(o.includeDirs);
        if (o.maxRegCount) c["maxRegCount"] = o.maxRegCount;
        if (!o.extraFlags.empty()) c["extraFlags"] = stringsJson(o.extraFlags);
        if (!o.nameExpressions.empty()) c["nameExpressions"] = stringsJson(o.nameExpressions);
        root["compileOptions"] = c;
    }

    QJsonArray scalars;
    for (const ScalarSpec& sc : s.scalars) {
        if (sc.isStruct()) {
            QJsonArray members;
            for (const StructMember& m : sc.members) {
                QJsonObject mo{{"name", qs(m.name)}, {"type", elementTypeName(m.type)}};
                if (m.isPointer())
                    mo["buffer"] = qs(m.buffer);
                else
                    mo["value"] = exprJson(m.value);
                members.append(mo);
            }
            scalars.append(
                QJsonObject{{"name", qs(sc.name)}, {"type", "struct"}, {"members", members}});
            continue;
        }
        scalars.append(QJsonObject{{"name", qs(sc.name)},
                                   {"type", elementTypeName(sc.type)},
                                   {"value", exprJson(sc.value)}});
    }
    if (!scalars.isEmpty()) root["scalars"] = scalars;

    QJsonArray buffers;
    for (const BufferSpec& b : s.buffers) {
        QJsonObject bo = bufferJson(b);
        buffers.append(bo);
    }
    if (!buffers.isEmpty()) root["buffers"] = buffers;
    QJsonArray globals;
    for (const BufferSpec& g : s.globals)
        globals.append(bufferJson(g));
    if (!globals.isEmpty()) root["globals"] = globals;

    QJsonObject launch = s.isPipeline() ? QJsonObject{} : launchJson(s.launch);
    if (s.isPipeline()) {
        QJsonArray launches;
        for (const PipelineLaunch& p : s.launches) {
            QJsonObject o = launchJson(p.launch);
            QJsonArray repeat;
            for (const LoopSpec& loop : p.repeat) {
                QJsonObject lo{{"var", qs(loop.var)},
                               {"from", exprJson(loop.from)},
                               {"to", exprJson(loop.to)}};
                if (loop.type != ElementType::I32) lo["type"] = elementTypeName(loop.type);
                switch (loop.step) {
                case LoopSpec::Step::Add:
                    if (loop.by != "1") lo["step"] = exprJson(loop.by);
                    break;
                case LoopSpec::Step::Multiply:
                    lo["times"] = exprJson(loop.by);
                    break;
                case LoopSpec::Step::Divide:
                    lo["divide"] = exprJson(loop.by);
                    break;
                }
                repeat.append(lo);
            }
            if (!repeat.isEmpty()) o["repeat"] = repeat;
            launches.append(o);
        }
        root["launches"] = launches;
    }
    launch["warmup"] = s.warmup;
    launch["iterations"] = s.iterations;
    if (!s.flops.empty()) launch["flops"] = exprJson(s.flops);
    if (!s.pinInputs.empty()) launch["pinInputs"] = QString::fromStdString(s.pinInputs);
    launch["backend"] = backendName(s.backend);
    launch["device"] = s.device;
    root["launch"] = launch;

    root["tolerance"] = toleranceJson(s.tolerance);
    if (!s.poisonOutputs) root["poisonOutputs"] = false;

    const ReferenceSpec& r = s.reference;
    QJsonObject ro{{"kind", referenceKindName(r.kind)}};
    switch (r.kind) {
    case ReferenceSpec::Kind::None:
        break;
    case ReferenceSpec::Kind::Cpp:
        if (!r.file.empty())
            ro["file"] = qs(r.file);
        else
            ro["source"] = qs(r.source);
        ro["function"] = qs(r.function);
        ro["flags"] = stringsJson(r.flags);
        break;
    case ReferenceSpec::Kind::Kernel: {
        const QJsonObject l = launchJson(r.launch);
        for (auto it = l.begin(); it != l.end(); ++it)
            ro.insert(it.key(), it.value());
        break;
    }
    case ReferenceSpec::Kind::Files:
        ro["files"] = mapJson(r.files);
        break;
    }
    root["reference"] = ro;
    return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

void ProjectFile::save(const Session& session, const std::filesystem::path& path)
{
    detail::writeFileAtomically(path, toJson(session));
}

} // namespace wb::session
