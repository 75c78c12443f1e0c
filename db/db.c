/*
 * db.c - opening, checking and migrating fdtune's results database, and
 * the insert / insert-or-get functions.  A file is only ever written after
 * it has been recognised as empty or as an fdtune database with a schema
 * this build understands; anything else is refused untouched.  Every insert
 * is one autocommitted statement with bound parameters.  db_best lives in
 * db_best.c, the checks of a path in db_path.c, the sweeps of dead processes
 * in db_reap.c.
 */
#include "db.h"
#include "db_int.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

struct db { sqlite3 *h; };

#define NOW "strftime('%Y-%m-%dT%H:%M:%SZ','now')"
#define STR_(x) #x
#define STR(x) STR_(x)

/* migrations[i] takes the schema from version i to i + 1.  Released entries
 * are never edited; changes are appended as new versions. */
static const char *const migrations[] = {
    /* 1: tables only */
    "CREATE TABLE devices(id INTEGER PRIMARY KEY, vendor TEXT NOT NULL, name TEXT NOT NULL,\n"
    " arch TEXT NOT NULL, uuid TEXT NOT NULL DEFAULT '', sms INTEGER, mem_bytes INTEGER,\n"
    " l2_bytes INTEGER, lds_per_block INTEGER, max_threads INTEGER, copy_gbs REAL,\n"
    " memcpy_gbs REAL, copy_bytes INTEGER, calibrated_at TEXT, UNIQUE(vendor,name,arch,uuid));\n"
    "CREATE TABLE problems(id INTEGER PRIMARY KEY, family TEXT NOT NULL, radius INTEGER NOT NULL,\n"
    " nx INTEGER NOT NULL, ny INTEGER NOT NULL, nz INTEGER NOT NULL, precision TEXT NOT NULL,\n"
    " UNIQUE(family,radius,nx,ny,nz,precision));\n"
    "CREATE TABLE configs(id INTEGER PRIMARY KEY, family TEXT NOT NULL,\n"
    " params TEXT NOT NULL CHECK(json_valid(params)), UNIQUE(family,params));\n"
    "CREATE TABLE sweeps(id INTEGER PRIMARY KEY, cmdline TEXT NOT NULL, host TEXT NOT NULL,\n"
    " device_id INTEGER REFERENCES devices(id), problem_id INTEGER NOT NULL REFERENCES problems(id),\n"
    " mode TEXT NOT NULL CHECK(mode IN ('gpu','compile-only')),\n"
    " started TEXT NOT NULL DEFAULT (" NOW "), ended TEXT,\n"
    " status TEXT NOT NULL DEFAULT 'running' CHECK(status IN ('running','done','failed','interrupted')),\n"
    " n_space INTEGER, n_pruned INTEGER, message TEXT);\n"
    "CREATE TABLE builds(id INTEGER PRIMARY KEY, config_id INTEGER NOT NULL REFERENCES configs(id),\n"
    " sweep_id INTEGER REFERENCES sweeps(id), compiler TEXT NOT NULL, compiler_version TEXT NOT NULL,\n"
    " arch TEXT NOT NULL, options TEXT NOT NULL, source_hash TEXT NOT NULL, compile_ms REAL,\n"
    " regs INTEGER, lds_bytes INTEGER, spill_bytes INTEGER,\n"
    " status TEXT NOT NULL CHECK(status IN ('ok','compile_error','gen_error')), log TEXT,\n"
    " created TEXT NOT NULL DEFAULT (" NOW "));\n"
    "CREATE TABLE runs(id INTEGER PRIMARY KEY, sweep_id INTEGER REFERENCES sweeps(id),\n"
    " build_id INTEGER REFERENCES builds(id), device_id INTEGER NOT NULL REFERENCES devices(id),\n"
    " problem_id INTEGER NOT NULL REFERENCES problems(id),\n"
    " config_id INTEGER NOT NULL REFERENCES configs(id),\n"
    " status TEXT NOT NULL CHECK(status IN ('ok','compile_error','load_error','launch_error',"
    "'wrong_result','resource_limit','timeout')),\n"
    " message TEXT, median_ms REAL, min_ms REAL, max_ms REAL, reps INTEGER, gbs REAL, mcells REAL,\n"
    " pct_copy REAL, max_err REAL, err_bound REAL, created TEXT NOT NULL DEFAULT (" NOW "));\n"
    "PRAGMA application_id = " STR(DB_APPLICATION_ID) ";\n",

    /* 2: indexes, and the views used by db_best and from the sqlite3 shell */
    "CREATE INDEX runs_dev_prob_status ON runs(device_id, problem_id, status);\n"
    "CREATE INDEX builds_config ON builds(config_id);\n"
    "CREATE VIEW v_runs AS SELECT r.id AS run_id, r.sweep_id, r.build_id, r.device_id,\n"
    " d.name AS device, d.arch, r.problem_id, p.family, p.radius, p.nx, p.ny, p.nz, p.precision,\n"
    " r.config_id, c.params, b.regs, b.lds_bytes, b.spill_bytes, r.status, r.message,\n"
    " r.median_ms, r.min_ms, r.max_ms, r.reps, r.gbs, r.mcells, r.pct_copy, r.max_err,\n"
    " r.err_bound, r.created\n"
    "FROM runs r JOIN devices d ON d.id = r.device_id JOIN problems p ON p.id = r.problem_id\n"
    " JOIN configs c ON c.id = r.config_id LEFT JOIN builds b ON b.id = r.build_id;\n"
    "CREATE VIEW v_best AS SELECT device, arch, family, radius, nx, ny, nz, precision, params,\n"
    " median_ms, gbs, pct_copy, mcells, regs, spill_bytes, reps, run_id\n"
    "FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY device_id, problem_id\n"
    "                                   ORDER BY median_ms, run_id) AS rk\n"
    "      FROM v_runs WHERE status = 'ok' AND median_ms IS NOT NULL)\n"
    "WHERE rk = 1;\n"
    "CREATE VIEW v_failures AS SELECT device_id, device, arch, problem_id, family, radius,\n"
    " nx, ny, nz, precision, status, count(*) AS n\n"
    "FROM v_runs WHERE status <> 'ok' GROUP BY device_id, problem_id, status;\n",

    /* 3: the evaluation strategies of the xyz sum, from the best of each pass.
     * v_passes: the fastest ok run of each family, problem and device, apart
     * for storing (acc 0) and accumulating (acc 1) kernels. v_strategies: for
     * each xyz problem, fused (one xyz pass) against two passes (xy then z,
     * or z then xy) and three passes (one of x, y, z storing, the other two
     * accumulating), each pass its own best; speedups are over fused. */
    "CREATE VIEW v_passes AS SELECT device, arch, family, radius, nx, ny, nz, precision,\n"
    " coalesce(json_extract(params, '$.acc'), 0) AS acc, min(median_ms) AS ms\n"
    "FROM v_runs WHERE status = 'ok' AND median_ms IS NOT NULL\n"
    "GROUP BY device, arch, family, radius, nx, ny, nz, precision, acc;\n"
    "CREATE VIEW v_strategies AS SELECT *, two_pass_ms / fused_ms AS fused_vs_two,\n"
    " three_pass_ms / fused_ms AS fused_vs_three,\n"
    " CASE WHEN fused_ms <= coalesce(min(two_pass_ms, three_pass_ms), two_pass_ms, three_pass_ms,\n"
    "   fused_ms) THEN 'fused' WHEN two_pass_ms <= coalesce(three_pass_ms, two_pass_ms)\n"
    "   THEN 'two-pass' ELSE 'three-pass' END AS winner\n"
    "FROM (SELECT f.device, f.arch, f.radius, f.nx, f.ny, f.nz, f.precision, f.ms AS fused_ms,\n"
    " (SELECT min(a.ms + b.ms) FROM v_passes a JOIN v_passes b USING (device, arch, radius,\n"
    "   nx, ny, nz, precision) WHERE a.device = f.device AND a.arch = f.arch\n"
    "   AND a.radius = f.radius AND a.nx = f.nx AND a.ny = f.ny AND a.nz = f.nz\n"
    "   AND a.precision = f.precision AND a.acc = 0 AND b.acc = 1\n"
    "   AND ((a.family = 'xy' AND b.family = 'z') OR (a.family = 'z' AND b.family = 'xy')))\n"
    "  AS two_pass_ms,\n"
    " (SELECT min(a.ms + b.ms + c.ms) FROM v_passes a JOIN v_passes b USING (device, arch,\n"
    "   radius, nx, ny, nz, precision) JOIN v_passes c USING (device, arch, radius, nx, ny,\n"
    "   nz, precision) WHERE a.device = f.device AND a.arch = f.arch\n"
    "   AND a.radius = f.radius AND a.nx = f.nx AND a.ny = f.ny AND a.nz = f.nz\n"
    "   AND a.precision = f.precision AND a.acc = 0 AND b.acc = 1 AND c.acc = 1\n"
    "   AND a.family IN ('x', 'y', 'z') AND b.family IN ('x', 'y', 'z')\n"
    "   AND c.family IN ('x', 'y', 'z') AND a.family <> b.family AND a.family <> c.family\n"
    "   AND b.family < c.family) AS three_pass_ms\n"
    "FROM v_passes f WHERE f.family = 'xyz');\n",

    /* 4: boards of one model pool their runs in v_best: a sweep over
     * --devices 0,1 shares one space out between two boards, and its best
     * is the best of both */
    "DROP VIEW v_best;\n"
    "CREATE VIEW v_best AS SELECT device, arch, family, radius, nx, ny, nz, precision, params,\n"
    " median_ms, gbs, pct_copy, mcells, regs, spill_bytes, reps, run_id\n"
    "FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY device, arch, problem_id\n"
    "                                   ORDER BY median_ms, run_id) AS rk\n"
    "      FROM v_runs WHERE status = 'ok' AND median_ms IS NOT NULL)\n"
    "WHERE rk = 1;\n",

    /* 5: the process that owns a sweep: its pid and an identity that tells it
     * from a later process with the same pid (db_proc_id), so that a sweep
     * whose process is gone can be marked interrupted (db_reap_sweeps) */
    "ALTER TABLE sweeps ADD COLUMN pid INTEGER;\n"
    "ALTER TABLE sweeps ADD COLUMN proc_id TEXT;\n",
};
_Static_assert(sizeof migrations / sizeof migrations[0] == DB_SCHEMA_LATEST,
               "one migration per schema version");

int db_fail(char *err, size_t n, const char *fmt, ...)
{
    va_list ap;

    if (err && n) {
        va_start(ap, fmt);
        vsnprintf(err, n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static const char *hint(int rc)
{
    switch (rc & 0xff) {
    case SQLITE_CONSTRAINT: return "check status/mode values, JSON params and referenced ids";
    case SQLITE_BUSY: case SQLITE_LOCKED: return "another process holds the lock; retry later";
    case SQLITE_FULL: case SQLITE_IOERR: return "check free disk space and the filesystem";
    case SQLITE_READONLY: case SQLITE_PERM: case SQLITE_CANTOPEN:
        return "check file and directory permissions";
    case SQLITE_NOTADB: case SQLITE_CORRUPT: return "move the file aside or choose another --db";
    default: return "see the SQLite message";
    }
}

static int sqlerr(sqlite3 *h, int rc, const char *what, char *err, size_t n)
{
    const char *f = sqlite3_db_filename(h, "main");

    if ((rc & 0xff) == SQLITE_FULL)
        return db_fail(err, n, "%s: disk full: the filesystem of %s has no space left; free "
                       "space there (or choose another --db) and run the same command again: "
                       "what is recorded is kept", what, f && *f ? f : "the database");
    return db_fail(err, n, "%s: %s (%s)", what, sqlite3_errmsg(h), hint(rc));
}

/* As sqlerr, but a file SQLite cannot read is reported as such, by name. */
static int badfile(sqlite3 *h, int rc, const char *path, char *err, size_t n)
{
    if ((rc & 0xff) != SQLITE_NOTADB && (rc & 0xff) != SQLITE_CORRUPT)
        return sqlerr(h, rc, path, err, n);
    return db_fail(err, n, "%s is not a usable SQLite database: %s; move it aside or choose another --db",
                path, sqlite3_errmsg(h));
}

/* A value bound to a statement parameter; kind 'n' (or text NULL) binds NULL. */
struct val { char k; long long i; double d; const char *s; };

static struct val txt(const char *s) { return (struct val){'s', 0, 0, s}; }
static struct val num(long long i) { return (struct val){'i', i, 0, NULL}; }
static struct val pos(long long i) { return (struct val){i > 0 ? 'i' : 'n', i, 0, NULL}; }
static struct val nneg(long long i) { return (struct val){i >= 0 ? 'i' : 'n', i, 0, NULL}; }
static struct val real(double d) { return (struct val){isnan(d) ? 'n' : 'd', 0, d, NULL}; }

/* First row of a statement: columns 0..3 as integers, column 0 as real and
 * as text (truncated, newlines made spaces); got = rows returned, or rows
 * changed by a statement without result columns. */
struct res { long long i[4]; double d; char t[128]; int got; };

/* Runs sql with v[0..nv-1] bound to ?1..?nv to completion; returns the
 * SQLite code, with sqlite3_errmsg(h) describing a failure. */
static int run1(sqlite3 *h, const char *sql, const struct val *v, int nv, struct res *r)
{
    sqlite3_stmt *st = NULL;
    const unsigned char *t;
    int rc, frc, i, rows = 0;

    memset(r, 0, sizeof *r);
    rc = sqlite3_prepare_v2(h, sql, -1, &st, NULL);
    for (i = 0; rc == SQLITE_OK && i < nv; i++) {
        if (v[i].k == 's' && v[i].s)
            rc = sqlite3_bind_text(st, i + 1, v[i].s, -1, SQLITE_STATIC);
        else if (v[i].k == 'i')
            rc = sqlite3_bind_int64(st, i + 1, v[i].i);
        else if (v[i].k == 'd')
            rc = sqlite3_bind_double(st, i + 1, v[i].d);
        else
            rc = sqlite3_bind_null(st, i + 1);
    }
    if (rc != SQLITE_OK)
        goto done;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (rows++)
            continue;
        for (i = 0; i < 4 && i < sqlite3_column_count(st); i++)
            r->i[i] = sqlite3_column_int64(st, i);
        r->d = sqlite3_column_double(st, 0);
        t = sqlite3_column_text(st, 0);
        snprintf(r->t, sizeof r->t, "%s", t ? (const char *)t : "");
        for (i = 0; r->t[i]; i++)
            r->t[i] = r->t[i] == '\n' ? ' ' : r->t[i];
    }
    if (rc != SQLITE_DONE)
        goto done;
    r->got = sqlite3_column_count(st) > 0 ? rows : sqlite3_changes(h);
    rc = SQLITE_OK;
done:
    frc = sqlite3_finalize(st);
    return rc != SQLITE_OK ? rc : frc;
}

static int stmt(sqlite3 *h, const char *sql, const struct val *v, int nv, struct res *r,
                const char *what, char *err, size_t n)
{
    int rc = run1(h, sql, v, nv, r);

    return rc == SQLITE_OK ? 0 : sqlerr(h, rc, what, err, n);
}

/* sqlite3_exec: for multi-statement SQL without results. */
static int exec(sqlite3 *h, const char *sql, const char *what, char *err, size_t n)
{
    int rc = sqlite3_exec(h, sql, NULL, NULL, NULL);

    return rc == SQLITE_OK ? 0 : sqlerr(h, rc, what, err, n);
}

/* Closes h (NULL allowed).  Only a statement left unfinalized, a bug in this
 * module, makes sqlite3_close fail; the close is then deferred to the last
 * finalize and the bug reported on stderr, as there is no caller to tell. */
static void shut(sqlite3 *h)
{
    if (h && sqlite3_close(h) != SQLITE_OK) {
        fprintf(stderr, "fdtune: internal error closing database: %s\n", sqlite3_errmsg(h));
        if (sqlite3_close_v2(h) != SQLITE_OK)
            fprintf(stderr, "fdtune: database connection left open\n");
    }
}

/* Applies migrations cur+1..upto, each in its own transaction that also sets
 * user_version; a version applied meanwhile by another process is skipped. */
static int migrate(sqlite3 *h, int cur, int upto, char *err, size_t n)
{
    char sql[64], what[48];
    struct res r;
    int rc = -1, v;

    for (v = cur + 1; v <= upto; v++) {
        snprintf(what, sizeof what, "schema migration %d", v);
        if (exec(h, "BEGIN IMMEDIATE", what, err, n) ||
            stmt(h, "PRAGMA user_version", NULL, 0, &r, what, err, n))
            goto done;
        if (r.i[0] < v) {
            if (exec(h, migrations[v - 1], what, err, n))
                goto done;
            /* PRAGMA takes no bound parameters; v is our own integer. */
            snprintf(sql, sizeof sql, "PRAGMA user_version=%d", v);
            if (exec(h, sql, what, err, n))
                goto done;
        }
        if (exec(h, "COMMIT", what, err, n))
            goto done;
    }
    rc = 0;
done:
    if (rc && !sqlite3_get_autocommit(h) &&
        sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL) != SQLITE_OK && err && n) {
        size_t k = strlen(err);
        if (k + 1 < n)
            snprintf(err + k, n - k, "; rollback failed too: %s", sqlite3_errmsg(h));
    }
    return rc;
}

/* Recognises the file behind h, writing nothing unless it is empty or an
 * fdtune database this build can handle; then applies the connection
 * settings and migrations up to upto. */
static int setup(sqlite3 *h, const char *path, int exists, int upto, char *err, size_t n)
{
    struct res r;
    int rc, app, ver;

    if (sqlite3_db_readonly(h, "main") != 0)
        return db_fail(err, n, "%s cannot be opened for writing; fix its permissions or choose another --db", path);
    if (exec(h, "PRAGMA busy_timeout=5000", "set busy timeout", err, n))
        return -1;
    rc = run1(h, "SELECT (SELECT application_id FROM pragma_application_id),"
                 " (SELECT user_version FROM pragma_user_version),"
                 " (SELECT count(*) FROM sqlite_master WHERE type = 'table'),"
                 " (SELECT count(*) FROM sqlite_master)", NULL, 0, &r);
    if (rc != SQLITE_OK)
        return badfile(h, rc, path, err, n);
    app = (int)r.i[0];
    ver = (int)r.i[1];
    if (app != DB_APPLICATION_ID && (app != 0 || r.i[3] > 0 || ver != 0))
        return db_fail(err, n, "%s is not an fdtune database (application_id 0x%08x, %lld tables); choose another --db path",
                    path, (unsigned)app, r.i[2]);
    if (ver > DB_SCHEMA_LATEST)
        return db_fail(err, n, "%s: database schema version %d is newer than this fdtune (%d); upgrade fdtune",
                    path, ver, DB_SCHEMA_LATEST);
    if (exists) {
        rc = run1(h, "PRAGMA quick_check(1)", NULL, 0, &r);
        if (rc != SQLITE_OK)
            return badfile(h, rc, path, err, n);
        if (strcmp(r.t, "ok") != 0)
            return db_fail(err, n, "%s fails SQLite's quick_check (%s); move it aside or choose another --db",
                        path, r.t);
    }
    if (exec(h, "PRAGMA foreign_keys=ON", "enable foreign keys", err, n) ||
        exec(h, "PRAGMA synchronous=NORMAL", "set synchronous=NORMAL", err, n) ||
        stmt(h, "PRAGMA journal_mode=WAL", NULL, 0, &r, "set WAL journal mode", err, n))
        return -1;
    if (strcmp(r.t, "wal") != 0 && strcmp(r.t, "memory") != 0)
        return db_fail(err, n, "cannot put %s in WAL mode (journal_mode is '%s'); put --db on a local filesystem",
                    path, r.t);
    return migrate(h, ver, upto, err, n);
}

int db_open_version(const char *path, int upto, struct db **out, char *err, size_t n)
{
    struct stat st;
    sqlite3 *h = NULL;
    int rc, exists;

    if (out)
        *out = NULL;
    if (!path || !*path || !out)
        return db_fail(err, n, "db_open: path and out are required");
    if (upto < 1 || upto > DB_SCHEMA_LATEST)
        return db_fail(err, n, "db_open: schema version %d is outside 1..%d", upto, DB_SCHEMA_LATEST);
    if (db_path_check(path, 1, err, n))
        return -1;
    errno = 0;
    exists = stat(path, &st) == 0;
    if (!exists && errno != ENOENT)
        return db_fail(err, n, "cannot access %s: %s; check the path and its permissions", path,
                    strerror(errno));
    rc = sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI |
                         (exists ? 0 : SQLITE_OPEN_CREATE), db_fault_vfs());
    if (rc != SQLITE_OK) {
        rc = db_fail(err, n, "cannot open %s: %s; check the path and its permissions", path,
                  h ? sqlite3_errmsg(h) : sqlite3_errstr(rc));
        goto done;
    }
    rc = setup(h, path, exists, upto, err, n);
    if (rc)
        goto done;
    *out = malloc(sizeof **out);
    if (!*out) {
        rc = db_fail(err, n, "db_open: out of memory");
        goto done;
    }
    (*out)->h = h;
    h = NULL;
done:
    shut(h);
    return rc;
}

int db_open(const char *path, struct db **out, char *err, size_t n)
{
    return db_open_version(path, DB_SCHEMA_LATEST, out, err, n);
}

void db_close(struct db *d)
{
    if (d)
        shut(d->h);
    free(d);
}

int db_version(struct db *d)
{
    struct res r;

    if (!d || run1(d->h, "PRAGMA user_version", NULL, 0, &r) != SQLITE_OK)
        return -1;
    return (int)r.i[0];
}

int db_full(struct db *d)
{
    return d && (sqlite3_errcode(d->h) & 0xff) == SQLITE_FULL;
}

int db_handle(struct db *d, struct sqlite3 **h, char *err, size_t n)
{
    if (!d || !h)
        return db_fail(err, n, "db_handle: database and output pointer are required");
    *h = d->h;
    return 0;
}

/* Insert-or-get: sel and ins take the same parameters; ins must be
 * "INSERT ... ON CONFLICT DO NOTHING RETURNING id". */
static int getid(struct db *d, const char *sel, const char *ins, const struct val *v, int nv,
                 long long *id, const char *what, char *err, size_t n)
{
    struct res r;

    if (stmt(d->h, sel, v, nv, &r, what, err, n))
        return -1;
    if (!r.got && stmt(d->h, ins, v, nv, &r, what, err, n))
        return -1;
    if (!r.got && stmt(d->h, sel, v, nv, &r, what, err, n)) /* lost a race: now present */
        return -1;
    if (!r.got)
        return db_fail(err, n, "%s: row not found after insert; retry", what);
    *id = r.i[0];
    return 0;
}

/* Runs sql, an INSERT ... RETURNING id or an UPDATE of one row by id, which
 * must return or change exactly one row; *id (when id) = the returned id. */
static int one(struct db *d, const char *sql, const struct val *v, int nv, long long *id,
               const char *what, char *err, size_t n)
{
    struct res r;

    if (stmt(d->h, sql, v, nv, &r, what, err, n))
        return -1;
    if (r.got != 1)
        return db_fail(err, n, "%s: %d rows matched, expected 1; pass an id returned by fdtune's db_ calls",
                    what, r.got);
    if (id)
        *id = r.i[0];
    return 0;
}

/* As one for an INSERT ... SELECT ... RETURNING id, which may also insert
 * nothing when cond is set: *id (when id) = 0 then. */
static int once(struct db *d, const char *sql, const struct val *v, int nv, int cond,
                long long *id, const char *what, char *err, size_t n)
{
    struct res r;

    if (!cond)
        return one(d, sql, v, nv, id, what, err, n);
    if (stmt(d->h, sql, v, nv, &r, what, err, n))
        return -1;
    if (r.got > 1)
        return db_fail(err, n, "%s: %d rows inserted, expected at most 1", what, r.got);
    if (id)
        *id = r.got ? r.i[0] : 0;
    return 0;
}

static int need(const void *p, const char *what, char *err, size_t n)
{
    return p ? 0 : db_fail(err, n, "%s is required (got NULL)", what);
}

int db_device_id(struct db *d, const struct db_device *dev, long long *id, char *err, size_t n)
{
    if (need(d, "database", err, n) || need(dev, "device", err, n) || need(id, "id", err, n) ||
        need(dev->vendor, "device vendor", err, n) || need(dev->name, "device name", err, n) ||
        need(dev->arch, "device arch", err, n))
        return -1;
    struct val v[] = {txt(dev->vendor), txt(dev->name), txt(dev->arch),
                      txt(dev->uuid ? dev->uuid : ""), pos(dev->sms), pos(dev->mem_bytes),
                      pos(dev->l2_bytes), pos(dev->lds_per_block), pos(dev->max_threads)};
    return one(d, "INSERT INTO devices(vendor, name, arch, uuid, sms, mem_bytes, l2_bytes,"
                  " lds_per_block, max_threads) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)"
                  " ON CONFLICT(vendor, name, arch, uuid) DO UPDATE SET"
                  " sms = coalesce(excluded.sms, sms),"
                  " mem_bytes = coalesce(excluded.mem_bytes, mem_bytes),"
                  " l2_bytes = coalesce(excluded.l2_bytes, l2_bytes),"
                  " lds_per_block = coalesce(excluded.lds_per_block, lds_per_block),"
                  " max_threads = coalesce(excluded.max_threads, max_threads) RETURNING id",
               v, 9, id, "record device", err, n);
}

int db_device_set_copy(struct db *d, long long dev, double copy_gbs, double memcpy_gbs,
                       long long bytes, char *err, size_t n)
{
    char what[64];

    if (need(d, "database", err, n))
        return -1;
    snprintf(what, sizeof what, "record copy calibration of device %lld", dev);
    struct val v[] = {num(dev), real(copy_gbs), real(memcpy_gbs), pos(bytes)};
    return one(d, "UPDATE devices SET copy_gbs = ?2, memcpy_gbs = ?3, copy_bytes = ?4,"
                  " calibrated_at = " NOW " WHERE id = ?1",
               v, 4, NULL, what, err, n);
}

int db_device_copy(struct db *d, long long dev, double *copy_gbs, char *err, size_t n)
{
    struct res r;

    if (need(d, "database", err, n) || need(copy_gbs, "copy_gbs", err, n))
        return -1;
    struct val v[] = {num(dev)};
    if (stmt(d->h, "SELECT coalesce(copy_gbs, 0) FROM devices WHERE id = ?1", v, 1, &r,
             "read copy calibration", err, n))
        return -1;
    if (!r.got)
        return db_fail(err, n, "no device with id %lld; pass an id from db_device_id", dev);
    *copy_gbs = r.d;
    return 0;
}

int db_problem_id(struct db *d, const char *family, int radius, int nx, int ny, int nz,
                  const char *precision, long long *id, char *err, size_t n)
{
    if (need(d, "database", err, n) || need(family, "family", err, n) ||
        need(precision, "precision", err, n) || need(id, "id", err, n))
        return -1;
    if (radius < 0 || nx <= 0 || ny <= 0 || nz <= 0)
        return db_fail(err, n, "invalid problem (radius %d, %dx%dx%d): radius must be >= 0, sizes > 0",
                    radius, nx, ny, nz);
    struct val v[] = {txt(family), num(radius), num(nx), num(ny), num(nz), txt(precision)};
    return getid(d, "SELECT id FROM problems WHERE family = ?1 AND radius = ?2 AND nx = ?3"
                    " AND ny = ?4 AND nz = ?5 AND precision = ?6",
                 "INSERT INTO problems(family, radius, nx, ny, nz, precision)"
                 " VALUES(?1,?2,?3,?4,?5,?6) ON CONFLICT DO NOTHING RETURNING id",
                 v, 6, id, "record problem", err, n);
}

int db_config_id(struct db *d, const char *family, const char *params_json, long long *id,
                 char *err, size_t n)
{
    if (need(d, "database", err, n) || need(family, "family", err, n) ||
        need(params_json, "params_json", err, n) || need(id, "id", err, n))
        return -1;
    struct val v[] = {txt(family), txt(params_json)};
    return getid(d, "SELECT id FROM configs WHERE family = ?1 AND params = ?2",
                 "INSERT INTO configs(family, params) VALUES(?1,?2)"
                 " ON CONFLICT DO NOTHING RETURNING id",
                 v, 2, id, "record config", err, n);
}

int db_sweep_begin(struct db *d, const char *cmdline, const char *host, long long dev,
                   long long prob, const char *mode, long long *id, char *err, size_t n)
{
    if (need(d, "database", err, n) || need(cmdline, "cmdline", err, n) ||
        need(host, "host", err, n) || need(mode, "mode", err, n) || need(id, "id", err, n))
        return -1;
    char proc[128];
    int v5 = db_version(d) >= 5;

    if (db_proc_id((long)getpid(), proc, sizeof proc))
        proc[0] = 0;
    struct val v[] = {txt(cmdline), txt(host), pos(dev), num(prob), txt(mode),
                      num((long long)getpid()), txt(proc[0] ? proc : NULL)};
    return one(d, v5 ? "INSERT INTO sweeps(cmdline, host, device_id, problem_id, mode, pid,"
                       " proc_id) VALUES(?1,?2,?3,?4,?5,?6,?7) RETURNING id"
                     : "INSERT INTO sweeps(cmdline, host, device_id, problem_id, mode)"
                       " VALUES(?1,?2,?3,?4,?5) RETURNING id",
               v, v5 ? 7 : 5, id, "record sweep start", err, n);
}

int db_sweep_end(struct db *d, long long id, const char *status, long long n_space,
                 long long n_pruned, const char *message, char *err, size_t n)
{
    char what[64];

    if (need(d, "database", err, n) || need(status, "status", err, n))
        return -1;
    if (strcmp(status, "done") && strcmp(status, "failed") && strcmp(status, "interrupted"))
        return db_fail(err, n, "sweep status '%s' is invalid; use done, failed or interrupted", status);
    snprintf(what, sizeof what, "record end of sweep %lld", id);
    struct val v[] = {num(id), txt(status), nneg(n_space), nneg(n_pruned), txt(message)};
    const char *sql = "UPDATE sweeps SET ended = " NOW ", status = ?2, n_space = ?3,"
                      " n_pruned = ?4, message = ?5 WHERE id = ?1";
    if (!one(d, sql, v, 5, NULL, what, err, n))
        return 0;
    /* on a full disk, the WAL copied into the database and truncated
     * usually leaves room for this one row */
    if (!db_full(d) || sqlite3_wal_checkpoint_v2(d->h, "main", SQLITE_CHECKPOINT_TRUNCATE, NULL,
                                                 NULL) != SQLITE_OK)
        return -1;
    return one(d, sql, v, 5, NULL, what, err, n);
}

static int build_add(struct db *d, const struct db_build *b, long long prob, long long *id,
                     char *err, size_t n)
{
    if (need(d, "database", err, n) || need(b, "build", err, n) ||
        need(b->compiler, "compiler", err, n) ||
        need(b->compiler_version, "compiler_version", err, n) || need(b->arch, "arch", err, n) ||
        need(b->options, "options", err, n) || need(b->source_hash, "source_hash", err, n) ||
        need(b->status, "build status", err, n))
        return -1;
    struct val v[] = {num(b->config_id), pos(b->sweep_id), txt(b->compiler),
                      txt(b->compiler_version), txt(b->arch), txt(b->options),
                      txt(b->source_hash), real(b->compile_ms), nneg(b->regs),
                      nneg(b->lds_bytes), nneg(b->spill_bytes), txt(b->status), txt(b->log),
                      pos(prob)};
    /* the condition is db_build_recorded's */
    return once(d, "INSERT INTO builds(config_id, sweep_id, compiler, compiler_version, arch,"
                   " options, source_hash, compile_ms, regs, lds_bytes, spill_bytes, status, log)"
                   " SELECT ?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13 WHERE ?14 IS NULL"
                   " OR NOT EXISTS (SELECT 1 FROM builds WHERE config_id = ?1 AND arch = ?5"
                   " AND compiler = ?3 AND status IN ('ok', 'compile_error')"
                   " AND sweep_id IN (SELECT id FROM sweeps WHERE problem_id = ?14)) RETURNING id",
                v, 14, prob > 0, id, "record build", err, n);
}

int db_build_add(struct db *d, const struct db_build *b, long long *id, char *err, size_t n)
{
    return build_add(d, b, 0, id, err, n);
}

int db_build_add_once(struct db *d, const struct db_build *b, long long prob, long long *id,
                      char *err, size_t n)
{
    if (prob <= 0)
        return db_fail(err, n, "db_build_add_once: problem id %lld is not a problem's id", prob);
    return build_add(d, b, prob, id, err, n);
}

static int run_add(struct db *d, const struct db_run *x, int cond, long long *id, char *err,
                   size_t n)
{
    if (need(d, "database", err, n) || need(x, "run", err, n) ||
        need(x->status, "run status", err, n))
        return -1;
    struct val v[] = {pos(x->sweep_id), pos(x->build_id), num(x->device_id),
                      num(x->problem_id), num(x->config_id), txt(x->status), txt(x->message),
                      real(x->median_ms), real(x->min_ms), real(x->max_ms), nneg(x->reps),
                      real(x->gbs), real(x->mcells), real(x->pct_copy), real(x->max_err),
                      real(x->err_bound), num(cond)};
    /* the condition is db_run_recorded's */
    return once(d, "INSERT INTO runs(sweep_id, build_id, device_id, problem_id, config_id,"
                   " status, message, median_ms, min_ms, max_ms, reps, gbs, mcells, pct_copy,"
                   " max_err, err_bound)"
                   " SELECT ?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16 WHERE ?17 = 0"
                   " OR NOT EXISTS (SELECT 1 FROM runs WHERE device_id = ?3 AND problem_id = ?4"
                   " AND config_id = ?5 AND status IN ('ok', 'compile_error', 'wrong_result',"
                   " 'resource_limit', 'launch_error', 'timeout') AND NOT EXISTS (SELECT 1"
                   " FROM builds b WHERE b.id = runs.build_id AND b.status = 'gen_error'))"
                   " RETURNING id",
                v, 17, cond, id, "record run", err, n);
}

int db_run_add(struct db *d, const struct db_run *x, long long *id, char *err, size_t n)
{
    return run_add(d, x, 0, id, err, n);
}

int db_run_add_once(struct db *d, const struct db_run *x, long long *id, char *err, size_t n)
{
    return run_add(d, x, 1, id, err, n);
}

int db_run_recorded(struct db *d, long long dev, long long prob, long long cfg, int *yes,
                    double *ms, char *err, size_t n)
{
    struct res r;

    if (need(d, "database", err, n) || need(yes, "yes", err, n))
        return -1;
    struct val v[] = {num(dev), num(prob), num(cfg)};
    if (ms) {
        if (stmt(d->h, "SELECT coalesce(min(median_ms), -1) FROM runs WHERE device_id = ?1"
                       " AND problem_id = ?2 AND config_id = ?3 AND status = 'ok'", v, 3, &r,
                 "look up recorded times", err, n))
            return -1;
        *ms = r.d;
    }
    if (stmt(d->h, "SELECT count(*) FROM runs WHERE device_id = ?1 AND problem_id = ?2"
                   " AND config_id = ?3 AND status IN ('ok', 'compile_error', 'wrong_result',"
                   " 'resource_limit', 'launch_error', 'timeout') AND NOT EXISTS (SELECT 1 FROM builds b"
                   " WHERE b.id = runs.build_id AND b.status = 'gen_error')", v, 3, &r,
             "look up recorded runs", err, n))
        return -1;
    *yes = r.i[0] > 0;
    return 0;
}

int db_build_recorded(struct db *d, long long cfg, long long prob, const char *arch,
                      const char *compiler, int *yes, char *err, size_t n)
{
    struct res r;

    if (need(d, "database", err, n) || need(yes, "yes", err, n) || need(arch, "arch", err, n) ||
        need(compiler, "compiler", err, n))
        return -1;
    /* the source depends on the problem (radius, precision): a build counts
     * only for the problem of its sweep */
    struct val v[] = {num(cfg), txt(arch), txt(compiler), num(prob)};
    if (stmt(d->h, "SELECT count(*) FROM builds WHERE config_id = ?1 AND arch = ?2"
                   " AND compiler = ?3 AND status IN ('ok', 'compile_error')"
                   " AND sweep_id IN (SELECT id FROM sweeps WHERE problem_id = ?4)", v, 4, &r,
             "look up recorded builds", err, n))
        return -1;
    *yes = r.i[0] > 0;
    return 0;
}
