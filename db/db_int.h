/*
 * db_int.h: what the files of db/ share and nobody else uses.
 */
#ifndef FDTUNE_DB_INT_H
#define FDTUNE_DB_INT_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Formats a message into err[0..n) (err may be NULL when n is 0); returns -1. */
__attribute__((format(printf, 3, 4)))
int db_fail(char *err, size_t n, const char *fmt, ...);

/* The VFS that injects the faults FDTUNE_FAULT asks for (db_fault.c), or
 * NULL, the default VFS, when it asks for none. */
const char *db_fault_vfs(void);

/* The identity of process pid, "BOOT_ID/START_TICKS" (Linux /proc), which
 * tells it from a later process given the same pid; -1 when it cannot be
 * read (no such process, no /proc). */
int db_proc_id(long pid, char *buf, size_t n);

/* SQLite's file: URI of path with query appended ("mode=ro"), the path
 * percent-encoded where URIs need it; truncated to n bytes at most. */
static inline void db_uri(char *uri, size_t n, const char *path, const char *query)
{
	size_t o = (size_t)snprintf(uri, n, "file:");
	for (const char *c = path; *c && o + 4 < n; c++)
		o += (size_t)(strchr("?#%", *c) ? snprintf(uri + o, n - o, "%%%02X", (unsigned char)*c)
						: snprintf(uri + o, n - o, "%c", *c));
	if (o < n)
		snprintf(uri + o, n - o, "?%s", query);
}

#include <math.h>
#include <sqlite3.h>

/* A database handle; json: db_json_int's statement, prepared on its first
 * use and kept until db_close (replay parses thousands of configurations). */
struct db { sqlite3 *h; sqlite3_stmt *json; };

/* The codec 'zlib' of the sources and codes tables (db_source.c):
 * db_deflate makes *z (malloc'ed, *zn bytes) of p[0..len); db_inflate fills
 * out[0..len) from z[0..zn), and fails unless it inflates to exactly len
 * bytes. FDT_OK or FDT_FAIL (out of memory, or zlib refused). */
int db_deflate(const void *p, size_t len, unsigned char **z, size_t *zn);
int db_inflate(const void *z, size_t zn, void *out, size_t len);

/* The keyed read of both tables: the row of sql (?1 the key; its first
 * columns codec, size, body) inflated into *out (calloc'ed, *size bytes
 * and a NUL after them), at most max bytes. FDT_OK with *row left on the
 * row for the caller's other columns (the caller finalizes it, and checks
 * the sum); FDT_NOMATCH where no row has the key; FDT_FAIL with err set
 * (a row in a form this fdtune does not read, a body that does not
 * inflate to size bytes, out of memory), *row NULL unless FDT_OK. what
 * and by name the kind and its key in the messages ("source", "hash"). */
int db_zget(sqlite3 *h, const char *sql, const char *key, const char *what, const char *by,
	    size_t max, sqlite3_stmt **row, char **out, size_t *size, char *err, size_t n);

/* SQL for the current UTC time, as the tables store it. */
#define NOW "strftime('%Y-%m-%dT%H:%M:%SZ','now')"

/* A configuration's record on a device model is its newest run, where it is
 * ok: a run of it again (a recheck, placements) replaces, never only adds
 * to, what is known of it, so a lucky early time does not stand forever, and
 * a configuration whose newest run gave a wrong result, failed to compile or
 * to launch, or asked for more than the device has, has no record (a timeout
 * or a load error, which may pass, leaves the one before).  Boards of one
 * model pool their runs.  DB_CURRENT: those rows of v_runs (schema version
 * 2 on), with a column nth (1); a filter on problem_id outside it is pushed
 * into its window, so a query for one problem reads that problem's runs
 * (only a plain problem_id = value is; DB_CURRENT_IDS_OF below takes any
 * filter, and only the ids).  Migration 6 makes DB_CURRENT the view
 * v_current: the text is frozen there, so a change to it is a new macro and
 * a new migration. */
#define DB_CURRENT \
	"SELECT * FROM (SELECT v.*, ROW_NUMBER() OVER (PARTITION BY device, arch, problem_id," \
	" config_id ORDER BY created DESC, run_id DESC) AS nth FROM v_runs v" \
	" WHERE status IN ('ok', 'wrong_result', 'compile_error', 'launch_error'," \
	" 'resource_limit')) WHERE nth = 1 AND status = 'ok' AND median_ms IS NOT NULL"
/* DB_CURRENT_IDS_OF(cond): the run ids of DB_CURRENT among the runs r (of
 * devices d) where the SQL condition cond holds, computed on the runs and
 * devices tables alone, 3x faster than DB_CURRENT's rows over a whole
 * history, and with a cond on r.problem_id only those problems' runs are
 * ranked. With cond "1", the run ids of every row of DB_CURRENT. */
#define DB_CURRENT_IDS_OF(cond) \
	"SELECT id FROM (SELECT r.id, r.status, r.median_ms, ROW_NUMBER() OVER" \
	" (PARTITION BY d.name, d.arch, r.problem_id, r.config_id ORDER BY r.created DESC," \
	" r.id DESC) AS nth FROM runs r JOIN devices d ON d.id = r.device_id" \
	" WHERE r.status IN ('ok', 'wrong_result', 'compile_error', 'launch_error'," \
	" 'resource_limit') AND (" cond ")) WHERE nth = 1 AND status = 'ok'" \
	" AND median_ms IS NOT NULL"
/* A cond for it: r.problem_id is of a problem matching the filter of
 * parameters ?2 family, ?3 precision, ?4 radius, ?6-?8 size (NULL / 0 =
 * any), as db_best's queries bind them. */
#define DB_PROBLEM_MATCH \
	"r.problem_id IN (SELECT id FROM problems WHERE (?2 IS NULL OR family = ?2)" \
	" AND (?3 IS NULL OR precision = ?3) AND (?4 = 0 OR radius = ?4)" \
	" AND (?6 = 0 OR (nx = ?6 AND ny = ?7 AND nz = ?8)))"

/* The SELECT of the view v_strategies (schema 3), over the passes P: the
 * view's text in migration 3, which must not change, and db_strategies'
 * query over a snapshot of v_passes (db_strategy.c). */
#define DB_STRATEGIES(P) \
	"SELECT *, two_pass_ms / fused_ms AS fused_vs_two,\n" \
	" three_pass_ms / fused_ms AS fused_vs_three,\n" \
	" CASE WHEN fused_ms <= coalesce(min(two_pass_ms, three_pass_ms), two_pass_ms, three_pass_ms,\n" \
	"   fused_ms) THEN 'fused' WHEN two_pass_ms <= coalesce(three_pass_ms, two_pass_ms)\n" \
	"   THEN 'two-pass' ELSE 'three-pass' END AS winner\n" \
	"FROM (SELECT f.device, f.arch, f.radius, f.nx, f.ny, f.nz, f.precision, f.ms AS fused_ms,\n" \
	" (SELECT min(a.ms + b.ms) FROM " P " a JOIN " P " b USING (device, arch, radius,\n" \
	"   nx, ny, nz, precision) WHERE a.device = f.device AND a.arch = f.arch\n" \
	"   AND a.radius = f.radius AND a.nx = f.nx AND a.ny = f.ny AND a.nz = f.nz\n" \
	"   AND a.precision = f.precision AND a.acc = 0 AND b.acc = 1\n" \
	"   AND ((a.family = 'xy' AND b.family = 'z') OR (a.family = 'z' AND b.family = 'xy')))\n" \
	"  AS two_pass_ms,\n" \
	" (SELECT min(a.ms + b.ms + c.ms) FROM " P " a JOIN " P " b USING (device, arch,\n" \
	"   radius, nx, ny, nz, precision) JOIN " P " c USING (device, arch, radius, nx, ny,\n" \
	"   nz, precision) WHERE a.device = f.device AND a.arch = f.arch\n" \
	"   AND a.radius = f.radius AND a.nx = f.nx AND a.ny = f.ny AND a.nz = f.nz\n" \
	"   AND a.precision = f.precision AND a.acc = 0 AND b.acc = 1 AND c.acc = 1\n" \
	"   AND a.family IN ('x', 'y', 'z') AND b.family IN ('x', 'y', 'z')\n" \
	"   AND c.family IN ('x', 'y', 'z') AND a.family <> b.family AND a.family <> c.family\n" \
	"   AND b.family < c.family) AS three_pass_ms\n" \
	"FROM " P " f WHERE f.family = 'xyz')"

/* The schema's migrations (db_schema.c): entry i takes version i to i + 1. */
extern const char *const db_migrations[];

/* A value bound to a statement parameter; kind 'n' (or text NULL) binds NULL. */
struct val { char k; long long i; double d; const char *s; };


/* First row of a statement: columns 0..3 as integers, column 0 as real and
 * as text (truncated, newlines made spaces); got = rows returned, or rows
 * changed by a statement without result columns. */
struct res { long long i[4]; double d; char t[128]; int got; };

/* Runs sql with v[0..nv-1] bound to ?1..?nv to completion; returns the
 * SQLite code, with sqlite3_errmsg(h) describing a failure (db.c). */
int db_run1(sqlite3 *h, const char *sql, const struct val *v, int nv, struct res *r);
/* db_run1, 0 or -1 with err saying what failed (what) and a hint. */
int db_stmt(sqlite3 *h, const char *sql, const struct val *v, int nv, struct res *r,
			const char *what, char *err, size_t n);
/* sqlite3_exec of sql (several statements, no results), with db_stmt's message. */
int db_exec(sqlite3 *h, const char *sql, const char *what, char *err, size_t n);
/* Closes h (NULL allowed); a failure, a bug of db/, is told on stderr. */
void db_shut(sqlite3 *h);
/* *out = a new struct db that owns *h, and *h = NULL; -1 when out of memory
 * (*h is left to the caller). */
int db_wrap(sqlite3 **h, struct db **out, char *err, size_t n);

/* What every command says of a database of a newer fdtune: path, its
 * schema version, DB_SCHEMA_LATEST. */
#define DB_NEWER_MSG "%s was written by a newer fdtune (schema version %d; this fdtune " \
	"reads up to %d): use that fdtune or a later one; this one changes nothing in it"

/* Recognises the database behind h (path names it in messages) without
 * writing to it: an fdtune database, or an empty file (version 0); refuses
 * any other file, a newer schema (DB_NEWER_MSG), a version no fdtune writes
 * (negative, or 0 on a file marked as fdtune's that has tables) and, when check is 1, a file
 * that fails SQLite's quick_check. *ver = its schema version. Sets a busy
 * timeout on h. */
int db_recognise(sqlite3 *h, const char *path, int check, int *ver, char *err, size_t n);
/* Applies migrations cur+1..upto to h, each in its own transaction that also
 * sets user_version; a version applied meanwhile by another process is skipped.
 * cur outside 0..DB_SCHEMA_LATEST (or upto above it) fails with nothing run. */
int db_migrate(sqlite3 *h, int cur, int upto, char *err, size_t n);
/* 1 when this process may write path and create files in its directory
 * (db_path.c): what SQLite needs to open it for writing in WAL mode. */
int db_path_writable(const char *path);
/* The query of the file: URI through which a reader opens the existing
 * database at path (db_read.c): "" (read-write, for a writer may come and
 * SQLite's close removes -wal and -shm) where this process may write the
 * file and its directory, else "mode=ro" where a -wal with content is
 * beside it, else "immutable=1". A reader never writes through it. */
const char *db_read_query(const char *path);

struct db_filter;
/* The filters of struct db_filter as SQL over v_runs' columns, ?1..?4:
 * device, family, precision, radius; db_filter_prepare binds them, ?5 to
 * all, ?6..?8 to the size (db_best.c). */
#define DB_MATCH \
	" status = 'ok' AND median_ms IS NOT NULL" \
	" AND (?1 IS NULL OR" DB_DEVICE_HAS("device", "arch", "?1") ")" \
	" AND (?2 IS NULL OR family = ?2) AND (?3 IS NULL OR precision = ?3)" \
	" AND (?4 = 0 OR radius = ?4)"
int db_filter_prepare(sqlite3 *h, const char *sql, const struct db_filter *f, int all,
					  sqlite3_stmt **st);
/* " the filters (device ~x, ...)" naming the active filters, or "". */
const char *db_filter_desc(const struct db_filter *f, char *b, size_t n);
/* FDT_NOMATCH with the message for no match: the filters and, when a size
 * was asked for, the nearest size recorded; -1 on error. */
int db_filter_nomatch(sqlite3 *h, const struct db_filter *f, char *err, size_t n);

#endif
