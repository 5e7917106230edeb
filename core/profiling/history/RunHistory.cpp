// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiling/history/RunHistory.h"

#include "core/common/Error.h"
#include "core/profiling/LineDiff.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QStandardPaths>
#include <QVariant>

#include <atomic>
#include <cmath>
#include <map>
#include <system_error>

namespace wb::profiling {

namespace {

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

std::string s(const QVariant& v)
{
    return v.toString().toStdString();
}

// ---- JSON of the value types stored as text ------------------------------------------------

QJsonArray dimJson(const Dim3& d)
{
    return {static_cast<qint64>(d.x), static_cast<qint64>(d.y), static_cast<qint64>(d.z)};
}

Dim3 dimFromJson(const QJsonValue& v, Dim3 fallback)
{
    const QJsonArray a = v.toArray();
    if (a.size() != 3) return fallback;
    return {static_cast<unsigned>(a[0].toInteger()), static_cast<unsigned>(a[1].toInteger()),
            static_cast<unsigned>(a[2].toInteger())};
}

QJsonArray stringsJson(const std::vector<std::string>& list)
{
    QJsonArray a;
    for (const std::string& x : list)
        a.append(q(x));
    return a;
}

std::vector<std::string> stringsFromJson(const QJsonValue& v)
{
    std::vector<std::string> out;
    for (const QJsonValue& x : v.toArray())
        out.push_back(x.toString().toStdString());
    return out;
}

std::string compact(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString();
}

QJsonObject parseObject(const std::string& text)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
}

std::string optionsJson(const CompileOptions& o)
{
    QJsonArray defines;
    for (const auto& [name, value] : o.defines)
        defines.append(QJsonArray{q(name), q(value)});
    return compact({{"arch", q(o.arch)},
                    {"optLevel", o.optLevel},
                    {"fastMath", o.fastMath},
                    {"lineInfo", o.lineInfo},
                    {"deviceDebug", o.deviceDebug},
                    {"std", q(o.std)},
                    {"defines", defines},
                    {"includeDirs", stringsJson(o.includeDirs)},
                    {"maxRegCount", o.maxRegCount},
                    {"extraFlags", stringsJson(o.extraFlags)},
                    {"nameExpressions", stringsJson(o.nameExpressions)}});
}

CompileOptions optionsFromJson(const std::string& text)
{
    const QJsonObject j = parseObject(text);
    CompileOptions o;
    o.arch = j["arch"].toString().toStdString();
    o.optLevel = j["optLevel"].toInt(o.optLevel);
    o.fastMath = j["fastMath"].toBool();
    o.lineInfo = j["lineInfo"].toBool();
    o.deviceDebug = j["deviceDebug"].toBool();
    o.std = j["std"].toString(q(o.std)).toStdString();
    for (const QJsonValue& d : j["defines"].toArray())
        o.defines.emplace_back(d.toArray()[0].toString().toStdString(),
                               d.toArray()[1].toString().toStdString());
    o.includeDirs = stringsFromJson(j["includeDirs"]);
    o.maxRegCount = j["maxRegCount"].toInt();
    o.extraFlags = stringsFromJson(j["extraFlags"]);
    o.nameExpressions = stringsFromJson(j["nameExpressions"]);
    return o;
}

std::string launchJson(const LaunchConfig& l)
{
    return compact({{"grid", dimJson(l.grid)},
                    {"block", dimJson(l.block)},
                    {"sharedBytes", static_cast<qint64>(l.sharedBytes)},
                    {"cluster", dimJson(l.cluster)}});
}

LaunchConfig launchFromJson(const std::string& text)
{
    const QJsonObject j = parseObject(text);
    LaunchConfig l;
    l.grid = dimFromJson(j["grid"], l.grid);
    l.block = dimFromJson(j["block"], l.block);
    l.sharedBytes = static_cast<unsigned>(j["sharedBytes"].toInteger());
    l.cluster = dimFromJson(j["cluster"], l.cluster);
    return l;
}

std::string deviceJson(const DeviceDescription& d)
{
    return compact({{"name", q(d.name)},
                    {"index", d.index},
                    {"arch", q(d.arch)},
                    {"multiprocessors", d.multiprocessors},
                    {"totalMemoryBytes", static_cast<qint64>(d.totalMemoryBytes)},
                    {"peakBandwidthGBs", d.peakBandwidthGBs},
                    {"driverVersion", q(d.driverVersion)}});
}

DeviceDescription deviceFromJson(const std::string& text)
{
    const QJsonObject j = parseObject(text);
    DeviceDescription d;
    d.name = j["name"].toString().toStdString();
    d.index = j["index"].toInt();
    d.arch = j["arch"].toString().toStdString();
    d.multiprocessors = j["multiprocessors"].toInt();
    d.totalMemoryBytes = static_cast<std::uint64_t>(j["totalMemoryBytes"].toInteger());
    d.peakBandwidthGBs = j["peakBandwidthGBs"].toDouble();
    d.driverVersion = j["driverVersion"].toString().toStdString();
    return d;
}

std::string dimText(const Dim3& d)
{
    return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
}

std::string sha256(const std::string& text)
{
    return QCryptographicHash::hash(QByteArray::fromStdString(text), QCryptographicHash::Sha256)
        .toHex()
        .toStdString();
}

std::string nowUtc()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs).toStdString();
}

// ---- Schema ---------------------------------------------------------------------------------

const char* const kSchemaV2[] = {
    "CREATE TABLE sources (hash TEXT PRIMARY KEY, text TEXT NOT NULL)",
    "CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, created_at TEXT NOT NULL, "
    "kernel TEXT NOT NULL, backend TEXT NOT NULL DEFAULT '', "
    "source_hash TEXT NOT NULL REFERENCES sources(hash), "
    "options_json TEXT NOT NULL DEFAULT '{}', launch_json TEXT NOT NULL DEFAULT '{}', "
    "device_json TEXT NOT NULL DEFAULT '{}', verdict TEXT NOT NULL DEFAULT '', "
    "note TEXT NOT NULL DEFAULT '', is_baseline INTEGER NOT NULL DEFAULT 0)",
    "CREATE INDEX runs_by_kernel ON runs(kernel, id)",
    "CREATE TABLE metrics (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, "
    "tag TEXT NOT NULL, name TEXT NOT NULL, hint TEXT NOT NULL DEFAULT '', value REAL, "
    "description TEXT NOT NULL DEFAULT '', position INTEGER NOT NULL, PRIMARY KEY (run_id, tag))",
};

/// Version 1 kept timing as a JSON object in runs.timing_json with these keys (milliseconds).
struct V1Timing {
    const char* key;
    const char* tag;
    const char* name;
    const char* hint;
    double scale;
};
constexpr V1Timing kV1Timing[] = {
    {"min_ms", "wb/timing/min", "Min", "duration", 1e-3},
    {"median_ms", "wb/timing/median", "Median", "duration", 1e-3},
    {"mean_ms", "wb/timing/mean", "Mean", "duration", 1e-3},
    {"stdev_ms", "wb/timing/stdev", "Stdev", "duration", 1e-3},
    {"samples", "wb/timing/samples", "Samples", "sample_size", 1.0},
};

std::atomic<int> g_connectionCounter{0};

} // namespace

// ---- Database access helpers ------------------------------------------------------------------

namespace {

enum class Failure { Locked, Corrupt, Other };

Failure classify(const QSqlError& error)
{
    const int code = error.nativeErrorCode().toInt();
    const QString text = error.databaseText().toLower();
    if (code == 5 || code == 6 || text.contains("database is locked") || text.contains("busy"))
        return Failure::Locked;
    if (code == 11 || code == 26 || text.contains("not a database") || text.contains("malformed"))
        return Failure::Corrupt;
    return Failure::Other;
}

/// Throws the wb::Error that fits a database failure.
[[noreturn]] void fail(const QSqlError& error, const std::string& what,
                       const std::filesystem::path& file, int busyTimeoutMs)
{
    const std::string where = "run history '" + file.string() + "': " + what + " failed: ";
    switch (classify(error)) {
    case Failure::Locked:
        throw Error(Error::Kind::Timeout,
                    where + "the database is locked by another program (waited " +
                        std::to_string(busyTimeoutMs) + " ms); nothing was changed — try again");
    case Failure::Corrupt:
        throw Error(Error::Kind::Io,
                    where + "the file is corrupt (" + error.databaseText().toStdString() + ")");
    case Failure::Other:
        break;
    }
    throw Error(Error::Kind::Io, where + error.text().toStdString());
}

class Sql {
public:
    Sql(const QString& connection, const std::filesystem::path& file, int busyTimeoutMs)
        : m_db(QSqlDatabase::database(connection, false))
        , m_file(file)
        , m_busyTimeoutMs(busyTimeoutMs)
    {
    }

    QSqlQuery run(const QString& sql, const QVariantList& values = {}, const char* what = "query")
    {
        QSqlQuery query(m_db);
        query.setForwardOnly(true);
        if (!query.prepare(sql)) fail(query.lastError(), what, m_file, m_busyTimeoutMs);
        for (const QVariant& v : values)
            query.addBindValue(v);
        if (!query.exec()) fail(query.lastError(), what, m_file, m_busyTimeoutMs);
        return query;
    }
    /// One transaction around `body`: BEGIN IMMEDIATE takes the write lock up front (waiting up
    /// to the busy timeout); any exception rolls back.
    template <typename F> void transaction(const char* what, F&& body)
    {
        run("BEGIN IMMEDIATE", {}, what);
        try {
            body();
            run("COMMIT", {}, what);
        } catch (...) {
            QSqlQuery rollback(m_db);
            rollback.exec("ROLLBACK");
            throw;
        }
    }

private:
    QSqlDatabase m_db;
    std::filesystem::path m_file;
    int m_busyTimeoutMs;
};

int busyTimeoutOf(const QString& connection)
{
    const QString options = QSqlDatabase::database(connection, false).connectOptions();
    for (const QString& part : options.split(';'))
        if (part.startsWith("QSQLITE_BUSY_TIMEOUT=")) return part.mid(21).toInt();
    return 0;
}

} // namespace

std::vector<MetricDelta> metricDeltas(const std::vector<Summary>& before,
                                      const std::vector<Summary>& after)
{
    std::vector<MetricDelta> out;
    const auto delta = [](MetricDelta& d) {
        if (d.before && d.after && *d.before != 0 && std::isfinite(*d.before) &&
            std::isfinite(*d.after))
            d.deltaPercent = (*d.after - *d.before) / std::fabs(*d.before) * 100.0;
    };
    for (const Summary& b : before) {
        MetricDelta d{b.tag, b.name, b.hint, b.value, std::nullopt, std::nullopt};
        if (const Summary* a = findSummary(after, b.tag)) d.after = a->value;
        delta(d);
        out.push_back(std::move(d));
    }
    for (const Summary& a : after)
        if (!findSummary(before, a.tag))
            out.push_back({a.tag, a.name, a.hint, std::nullopt, a.value, std::nullopt});
    return out;
}

std::filesystem::path RunHistory::pathForProject(const std::filesystem::path& projectFile)
{
    std::filesystem::path p = projectFile;
    p.replace_extension(".wbhistory");
    return p;
}

std::filesystem::path RunHistory::pathForUnsaved()
{
    QString base = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    if (base.isEmpty()) base = QDir::homePath() + "/.local/share";
    const std::filesystem::path dir = std::filesystem::path(base.toStdString()) / "warpbench";
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    return dir / "unsaved.wbhistory";
}

RunHistory::RunHistory(const std::filesystem::path& file)
    : RunHistory(file, OpenOptions{})
{
}

RunHistory::RunHistory(const std::filesystem::path& file, const OpenOptions& options)
    : m_file(file)
    , m_connection("wb-history-" + std::to_string(++g_connectionCounter))
{
    try {
        open(options);
    } catch (...) {
        QSqlDatabase::removeDatabase(q(m_connection));
        throw;
    }
}

RunHistory::~RunHistory()
{
    {
        QSqlDatabase db = QSqlDatabase::database(q(m_connection), false);
        if (db.isOpen()) db.close();
    }
    QSqlDatabase::removeDatabase(q(m_connection));
}

void RunHistory::open(const OpenOptions& options)
{
    if (!QSqlDatabase::isDriverAvailable("QSQLITE"))
        throw Error(Error::Kind::Unavailable,
                    "run history: Qt's SQLite driver (QSQLITE) is missing — install "
                    "libqt6sql6-sqlite");
    const auto connect = [&] {
        QSqlDatabase db = QSqlDatabase::addDatabase("QSQLITE", q(m_connection));
        db.setDatabaseName(QString::fromStdString(m_file.string()));
        db.setConnectOptions("QSQLITE_BUSY_TIMEOUT=" + QString::number(options.busyTimeoutMs));
        if (!db.open())
            throw Error(Error::Kind::Io, "run history '" + m_file.string() + "': cannot open: " +
                                             db.lastError().text().toStdString());
    };
    connect();

    // A file that is not an SQLite database, or a damaged one, shows here.
    QString problem;
    {
        QSqlQuery check(QSqlDatabase::database(q(m_connection), false));
        if (!check.exec("PRAGMA quick_check")) {
            if (classify(check.lastError()) != Failure::Corrupt)
                fail(check.lastError(), "checking the file", m_file, options.busyTimeoutMs);
            problem = check.lastError().databaseText();
        } else if (check.next() && check.value(0).toString() != "ok") {
            problem = check.value(0).toString();
        }
    }
    if (!problem.isEmpty()) {
        const std::string why =
            "run history '" + m_file.string() + "' is corrupt (" + problem.toStdString() + ")";
        QSqlDatabase::database(q(m_connection), false).close();
        QSqlDatabase::removeDatabase(q(m_connection));
        if (!options.moveCorruptAside)
            throw Error(Error::Kind::Io, why + "; the file was left untouched. Move it away to "
                                               "start a new history.");
        const std::string stamp =
            QDateTime::currentDateTimeUtc().toString("yyyyMMdd-HHmmss").toStdString();
        std::filesystem::path aside = m_file;
        aside += ".corrupt-" + stamp;
        for (int n = 2; std::filesystem::exists(aside); ++n) {
            aside = m_file;
            aside += ".corrupt-" + stamp + "-" + std::to_string(n);
        }
        std::error_code ec;
        std::filesystem::rename(m_file, aside, ec);
        if (ec)
            throw Error(Error::Kind::Io,
                        why + "; moving it to '" + aside.string() + "' failed: " + ec.message());
        for (const char* suffix : {"-journal", "-wal", "-shm"}) {
            std::filesystem::path extra = m_file;
            extra += suffix;
            std::filesystem::path extraAside = aside;
            extraAside += suffix;
            if (std::filesystem::exists(extra, ec)) std::filesystem::rename(extra, extraAside, ec);
        }
        m_warning = why + "; it was kept as '" + aside.string() + "' and a new history was started";
        connect();
    }
    Sql(q(m_connection), m_file, options.busyTimeoutMs).run("PRAGMA foreign_keys = ON");
    migrate();
}

int RunHistory::schemaVersion() const
{
    Sql sql(q(m_connection), m_file, busyTimeoutOf(q(m_connection)));
    QSqlQuery query = sql.run("PRAGMA user_version", {}, "reading the schema version");
    return query.next() ? query.value(0).toInt() : 0;
}

void RunHistory::migrate()
{
    const int timeout = busyTimeoutOf(q(m_connection));
    Sql sql(q(m_connection), m_file, timeout);
    const int version = schemaVersion();
    if (version > kSchemaVersion)
        throw Error(Error::Kind::Io, "run history '" + m_file.string() +
                                         "' was written by a newer Warpbench (schema " +
                                         std::to_string(version) + "; this one knows up to " +
                                         std::to_string(kSchemaVersion) + "); it was not changed");
    if (version == kSchemaVersion) return;

    sql.transaction("migrating the schema", [&] {
        if (version == 0) {
            QSqlQuery tables = sql.run("SELECT count(*) FROM sqlite_master WHERE type = 'table'");
            if (tables.next() && tables.value(0).toInt() != 0)
                throw Error(Error::Kind::Io, "run history '" + m_file.string() +
                                                 "' is an SQLite file but not a Warpbench history "
                                                 "(no schema version); it was not changed");
            for (const char* statement : kSchemaV2)
                sql.run(statement, {}, "creating the schema");
        } else if (version == 1) {
            // 1 → 2: source snapshots move to a deduplicated table keyed by SHA-256; timing moves
            // from runs.timing_json to metrics rows; baseline and note columns are added.
            for (const char* statement : kSchemaV2) {
                QString st = statement;
                if (st.startsWith("CREATE TABLE runs "))
                    st.replace("CREATE TABLE runs ", "CREATE TABLE runs_v2 ");
                if (st.startsWith("CREATE INDEX")) continue;
                if (st.contains("REFERENCES runs(id)"))
                    st.replace("REFERENCES runs(id)", "REFERENCES runs_v2(id)");
                sql.run(st, {}, "migrating the schema (1 → 2)");
            }
            QSqlQuery old = sql.run("SELECT id, created_at, kernel, source, options_json, "
                                    "launch_json, device_json, timing_json, verdict FROM runs "
                                    "ORDER BY id");
            while (old.next()) {
                const std::string source = s(old.value(3));
                const std::string hash = sha256(source);
                sql.run("INSERT OR IGNORE INTO sources (hash, text) VALUES (?, ?)",
                        {q(hash), q(source)});
                sql.run("INSERT INTO runs_v2 (id, created_at, kernel, backend, source_hash, "
                        "options_json, launch_json, device_json, verdict) "
                        "VALUES (?, ?, ?, 'cuda', ?, ?, ?, ?, ?)",
                        {old.value(0), old.value(1), old.value(2), q(hash),
                         old.value(4).isNull() ? QVariant("{}") : old.value(4),
                         old.value(5).isNull() ? QVariant("{}") : old.value(5),
                         old.value(6).isNull() ? QVariant("{}") : old.value(6),
                         old.value(8).isNull() ? QVariant("") : old.value(8)});
                const QJsonObject timing = parseObject(s(old.value(7)));
                int position = 0;
                for (const V1Timing& t : kV1Timing) {
                    if (!timing.contains(t.key)) continue;
                    sql.run("INSERT INTO metrics (run_id, tag, name, hint, value, position) "
                            "VALUES (?, ?, ?, ?, ?, ?)",
                            {old.value(0), t.tag, t.name, t.hint,
                             timing[t.key].toDouble() * t.scale, position++});
                }
            }
            sql.run("DROP TABLE runs");
            sql.run("ALTER TABLE runs_v2 RENAME TO runs");
            sql.run("CREATE INDEX runs_by_kernel ON runs(kernel, id)");
        } else {
            throw Error(Error::Kind::Io, "run history '" + m_file.string() +
                                             "' has an unknown schema version " +
                                             std::to_string(version));
        }
        sql.run("PRAGMA user_version = " + QString::number(kSchemaVersion));
    });
}

std::int64_t RunHistory::record(RunRecord& run)
{
    Sql sql(q(m_connection), m_file, busyTimeoutOf(q(m_connection)));
    if (run.createdAt.empty()) run.createdAt = nowUtc();
    run.sourceHash = sha256(run.source);
    std::int64_t id = 0;
    sql.transaction("recording a run", [&] {
        sql.run("INSERT OR IGNORE INTO sources (hash, text) VALUES (?, ?)",
                {q(run.sourceHash), q(run.source)}, "recording a run");
        if (run.baseline)
            sql.run("UPDATE runs SET is_baseline = 0 WHERE kernel = ?", {q(run.kernel)});
        QSqlQuery insert =
            sql.run("INSERT INTO runs (created_at, kernel, backend, source_hash, options_json, "
                    "launch_json, device_json, verdict, note, is_baseline) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    {q(run.createdAt), q(run.kernel), q(run.backend), q(run.sourceHash),
                     q(optionsJson(run.options)), q(launchJson(run.launch)),
                     q(deviceJson(run.device)), q(run.verdict), q(run.note), run.baseline ? 1 : 0},
                    "recording a run");
        id = insert.lastInsertId().toLongLong();
        int position = 0;
        for (const Summary& m : run.metrics)
            sql.run("INSERT OR REPLACE INTO metrics (run_id, tag, name, hint, value, description, "
                    "position) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    {QVariant::fromValue<qint64>(id), q(m.tag), q(m.name), q(m.hint),
                     std::isfinite(m.value) ? QVariant(m.value) : QVariant(), q(m.description),
                     position++},
                    "recording a run");
    });
    run.id = id;
    return id;
}

namespace {

const char* const kRunColumns = "r.id, r.created_at, r.kernel, r.backend, r.source_hash, "
                                "r.options_json, r.launch_json, r.device_json, r.verdict, r.note, "
                                "r.is_baseline";

RunRecord runFromRow(const QSqlQuery& row)
{
    RunRecord r;
    r.id = row.value(0).toLongLong();
    r.createdAt = s(row.value(1));
    r.kernel = s(row.value(2));
    r.backend = s(row.value(3));
    r.sourceHash = s(row.value(4));
    r.options = optionsFromJson(s(row.value(5)));
    r.launch = launchFromJson(s(row.value(6)));
    r.device = deviceFromJson(s(row.value(7)));
    r.verdict = s(row.value(8));
    r.note = s(row.value(9));
    r.baseline = row.value(10).toInt() != 0;
    return r;
}

void loadMetrics(Sql& sql, RunRecord& r)
{
    QSqlQuery m = sql.run("SELECT tag, name, hint, value, description FROM metrics "
                          "WHERE run_id = ? ORDER BY position",
                          {QVariant::fromValue<qint64>(r.id)}, "reading metrics");
    while (m.next())
        r.metrics.push_back({s(m.value(0)), s(m.value(1)), s(m.value(2)),
                             m.value(3).isNull() ? std::nan("") : m.value(3).toDouble(),
                             s(m.value(4))});
}

} // namespace

std::vector<RunRecord> RunHistory::list(const std::string& kernel, std::size_t limit) const
{
    Sql sql(q(m_connection), m_file, busyTimeoutOf(q(m_connection)));
    QString text = QString("SELECT %1 FROM runs r").arg(kRunColumns);
    QVariantList values;
    if (!kernel.empty()) {
        text += " WHERE r.kernel = ?";
        values.append(q(kernel));
    }
    text += " ORDER BY r.id DESC";
    if (limit) text += " LIMIT " + QString::number(limit);
    std::vector<RunRecord> runs;
    QSqlQuery rows = sql.run(text, values, "listing runs");
    while (rows.next())
        runs.push_back(runFromRow(rows));
    for (RunRecord& r : runs)
        loadMetrics(sql, r);
    return runs;
}

std::optional<RunRecord> RunHistory::get(std::int64_t id) const
{
    Sql sql(q(m_connection), m_file, busyTimeoutOf(q(m_connection)));
    QSqlQuery row = sql.run(QString("SELECT %1, s.text FROM runs r JOIN sources s "
                                    "ON s.hash = r.source_hash WHERE r.id = ?")
                                .arg(kRunColumns),
                            {QVariant::fromValue<qint64>(id)}, "reading a run");
    if (!row.next()) return std::nullopt;
    RunRecord r = runFromRow(row);
    r.source = s(row.value(11));
    loadMetrics(sql, r);
    return r;
}

void RunHistory::setBaseline(std::int64_t id)
{
    Sql sql(q(m_connection), m_file, busyTimeoutOf(q(m_connection)));
    sql.transaction("setting the baseline", [&] {
        QSqlQuery row =
            sql.run("SELECT kernel FROM runs WHERE id = ?", {QVariant::fromValue<qint64>(id)});
        if (!row.next())
            throw Error(Error::Kind::InvalidArgument,
                        "run history: there is no run " + std::to_string(id));
        const QVariant kernel = row.value(0);
        sql.run("UPDATE runs SET is_baseline = 0 WHERE kernel = ?", {kernel});
        sql.run("UPDATE runs SET is_baseline = 1 WHERE id = ?", {QVariant::fromValue<qint64>(id)});
    });
}

void RunHistory::clearBaseline(const std::string& kernel)
{
    Sql sql(q(m_connection), m_file, busyTimeoutOf(q(m_connection)));
    sql.transaction("clearing the baseline", [&] {
        sql.run("UPDATE runs SET is_baseline = 0 WHERE kernel = ?", {q(kernel)});
    });
}

std::optional<RunRecord> RunHistory::baseline(const std::string& kernel) const
{
    Sql sql(q(m_connection), m_file, busyTimeoutOf(q(m_connection)));
    QSqlQuery row = sql.run("SELECT id FROM runs WHERE kernel = ? AND is_baseline = 1", {q(kernel)},
                            "reading the baseline");
    if (!row.next()) return std::nullopt;
    return get(row.value(0).toLongLong());
}

RunComparison RunHistory::compare(std::int64_t before, std::int64_t after) const
{
    std::optional<RunRecord> a = get(before);
    std::optional<RunRecord> b = get(after);
    if (!a || !b)
        throw Error(Error::Kind::InvalidArgument,
                    "run history: there is no run " + std::to_string(a ? after : before));
    RunComparison c;
    c.sameSource = a->sourceHash == b->sourceHash;
    if (!c.sameSource)
        c.sourceDiff = unifiedDiff(a->source, b->source, "run " + std::to_string(a->id),
                                   "run " + std::to_string(b->id));
    c.metrics = metricDeltas(a->metrics, b->metrics);
    if (!(a->launch == b->launch))
        c.settingChanges.push_back("launch: grid " + dimText(a->launch.grid) + " block " +
                                   dimText(a->launch.block) + " smem " +
                                   std::to_string(a->launch.sharedBytes) + " → grid " +
                                   dimText(b->launch.grid) + " block " + dimText(b->launch.block) +
                                   " smem " + std::to_string(b->launch.sharedBytes));
    if (!(a->options == b->options))
        c.settingChanges.push_back("options: " + optionsJson(a->options) + " → " +
                                   optionsJson(b->options));
    if (a->device.name != b->device.name)
        c.settingChanges.push_back("device: " + a->device.name + " → " + b->device.name);
    if (a->verdict != b->verdict)
        c.settingChanges.push_back("verdict: " + a->verdict + " → " + b->verdict);
    c.before = std::move(*a);
    c.after = std::move(*b);
    return c;
}

std::optional<RunComparison> RunHistory::compareWithBaseline(std::int64_t run) const
{
    const std::optional<RunRecord> r = get(run);
    if (!r)
        throw Error(Error::Kind::InvalidArgument,
                    "run history: there is no run " + std::to_string(run));
    const std::optional<RunRecord> base = baseline(r->kernel);
    if (!base) return std::nullopt;
    return compare(base->id, run);
}

} // namespace wb::profiling
