/*
 * db_related.c - what the database knows about a problem's relatives: the
 * fastest configurations of the other problems (sizes, radii) of the same
 * family and precision on the same device model (or on the database's
 * other models), which the transfer search starts from, and the sizes recorded
 * for a device and problem, which fdtune replay leaves out in turn; and the
 * walks over one problem's runs (db_each_run, for replay) and over its
 * records (db_each_record, for --recheck).
 */
#include "db.h"
#include "db_int.h"

#include <sqlite3.h>

/* The records are DB_CURRENT's among the problem's family and precision
 * only (DB_CURRENT_IDS_OF), not ranked over the whole history.
 * ?1 device id (0: every device of arch ?4), ?2 the problem, ?3 a run whose
 * device and problem stand in for ?1 and ?2 where those are 0, ?5 1: leave
 * out every problem of the problem's size too, ?6 k, ?7 1: add the fastest
 * configuration with each value of each parameter, ?8 the devices walked
 * (DB_REL_*; by arch, always those of the arch), ?9 a radius (0: every
 * one). A device is a model: the
 * boards of one vendor, name and arch pool their runs, and stand under the
 * lowest devices.id among them (dm). */
static const char related_sql[] =
	"WITH t AS (SELECT coalesce(nullif(?1, 0), (SELECT device_id FROM runs WHERE id = ?3)) AS dev,"
	"           coalesce(nullif(?2, 0), (SELECT problem_id FROM runs WHERE id = ?3)) AS prob),"
	" md AS (SELECT d.id, (SELECT min(m.id) FROM devices m WHERE m.vendor = d.vendor"
	"        AND m.name = d.name AND m.arch = d.arch) AS dm FROM devices d),"
	" tm AS (SELECT (SELECT dm FROM md, t WHERE md.id = t.dev) AS dm),"
	" tp AS (SELECT p.* FROM problems p, t WHERE p.id = t.prob),"
	" r AS (SELECT md.dm AS device_id, r.problem_id, r.config_id, min(r.median_ms) AS ms"
	"       FROM runs r JOIN devices d ON d.id = r.device_id JOIN md ON md.id = r.device_id"
	"            JOIN problems p ON p.id = r.problem_id, t, tm, tp"
	"       WHERE r.id IN (" DB_CURRENT_IDS_OF("r.problem_id IN (SELECT p2.id FROM problems"
	"              p2, tp WHERE p2.family = tp.family AND p2.precision = tp.precision"
	"              AND (?9 = 0 OR p2.radius = ?9))")
	"              ) AND p.family = tp.family"
	"         AND p.precision = tp.precision"
	"         AND (CASE WHEN t.dev IS NULL THEN d.arch = ?4 AND p.id <> tp.id"
	"              WHEN ?8 = 1 THEN md.dm <> tm.dm"
	"              WHEN ?8 = 2 THEN md.dm <> tm.dm OR p.id <> tp.id"
	"              ELSE md.dm = tm.dm AND p.id <> tp.id END)"
	"         AND NOT (?5 AND p.nx = tp.nx AND p.ny = tp.ny AND p.nz = tp.nz)"
	"         AND (?9 = 0 OR p.radius = ?9)"
	"       GROUP BY md.dm, r.problem_id, r.config_id),"
	" rr AS (SELECT *, ROW_NUMBER() OVER (PARTITION BY device_id, problem_id"
	"        ORDER BY ms, config_id) AS rk FROM r),"
	/* the fastest configuration of each relative with each value of each parameter */
	" vb AS (SELECT DISTINCT device_id, problem_id, config_id FROM"
	"        (SELECT rr.device_id, rr.problem_id, rr.config_id, ROW_NUMBER() OVER (PARTITION BY"
	"                rr.device_id, rr.problem_id, j.key, j.value ORDER BY rr.ms, rr.config_id) AS vr"
	"         FROM rr JOIN configs c ON c.id = rr.config_id, json_each(c.params) j) WHERE vr = 1)"
	" SELECT c.params, p.id, p.radius, p.nx, p.ny, p.nz, rk, ms, rr.device_id,"
	"        coalesce(rr.device_id <> (SELECT dm FROM tm), 0)"
	" FROM rr JOIN problems p ON p.id = problem_id JOIN configs c ON c.id = config_id"
	" WHERE rk <= ?6 OR (?7 AND (rr.device_id, problem_id, config_id) IN"
	"       (SELECT device_id, problem_id, config_id FROM vb))"
	" ORDER BY rr.device_id, p.id, rk";

int db_each_related(struct db *d, const struct db_related *q,
					int (*fn)(void *ctx, const struct db_related_row *row), void *ctx,
					char *err, size_t n)
{
	sqlite3_stmt *st = NULL;
	sqlite3 *h = NULL;
	int src, rc = 0;

	if (db_handle(d, &h, err, n))
		return FDT_FAIL;
	src = sqlite3_prepare_v2(h, related_sql, -1, &st, NULL);
	if (src == SQLITE_OK)
		src = sqlite3_bind_int64(st, 1, q->device_id);
	if (src == SQLITE_OK)
		src = sqlite3_bind_int64(st, 2, q->problem_id);
	if (src == SQLITE_OK)
		src = sqlite3_bind_int64(st, 3, q->run);
	if (src == SQLITE_OK)
		src = sqlite3_bind_text(st, 4, q->arch ? q->arch : "", -1, SQLITE_STATIC);
	if (src == SQLITE_OK)
		src = sqlite3_bind_int(st, 5, q->skip_size);
	if (src == SQLITE_OK)
		src = sqlite3_bind_int(st, 6, q->k > 0 ? q->k : 1);
	if (src == SQLITE_OK)
		src = sqlite3_bind_int(st, 7, q->per_value);
	if (src == SQLITE_OK)
		src = sqlite3_bind_int(st, 8, q->devices);
	if (src == SQLITE_OK)
		src = sqlite3_bind_int(st, 9, q->radius);
	while (src == SQLITE_OK && !rc && (src = sqlite3_step(st)) == SQLITE_ROW) {
		struct db_related_row w;
		const char *p = (const char *)sqlite3_column_text(st, 0);
		w.params = p ? p : "{}";
		w.problem_id = sqlite3_column_int64(st, 1);
		w.radius = sqlite3_column_int(st, 2);
		w.nx = sqlite3_column_int(st, 3);
		w.ny = sqlite3_column_int(st, 4);
		w.nz = sqlite3_column_int(st, 5);
		w.rank = sqlite3_column_int(st, 6);
		w.ms = sqlite3_column_double(st, 7);
		w.device_id = sqlite3_column_int64(st, 8);
		w.other = sqlite3_column_int(st, 9);
		src = SQLITE_OK;
		rc = fn(ctx, &w);
	}
	if (!rc && src != SQLITE_DONE && src != SQLITE_OK)
		rc = db_fail(err, n, "db_each_related: %s", sqlite3_errmsg(h));
	if (sqlite3_finalize(st) != SQLITE_OK && !rc)
		rc = db_fail(err, n, "db_each_related: %s", sqlite3_errmsg(h));
	return rc;
}

/* A walk of db_each_run or db_each_record: the caller's function, called
 * with each row of the statement. */
struct walk {
	int (*run)(void *ctx, const char *params, const char *status, double ms);
	int (*rec)(void *ctx, const char *params, double ms);
	void *ctx;
};

/* Runs sql with the integers b[0..nb) bound to ?1.., calling w's function
 * with each row (params, then status and median_ms for a run, median_ms for
 * a record) until it returns nonzero, which is returned; -1 with err naming
 * what on a database error. */
static int walk_rows(struct db *d, const char *sql, const long long *b, int nb,
					 const struct walk *w, const char *what, char *err, size_t n)
{
	sqlite3_stmt *st = NULL;
	sqlite3 *h = NULL;
	int src, rc = 0;

	if (db_handle(d, &h, err, n))
		return FDT_FAIL;
	src = sqlite3_prepare_v2(h, sql, -1, &st, NULL);
	for (int i = 0; i < nb && src == SQLITE_OK; i++)
		src = sqlite3_bind_int64(st, i + 1, b[i]);
	while (src == SQLITE_OK && !rc && (src = sqlite3_step(st)) == SQLITE_ROW) {
		const char *p = (const char *)sqlite3_column_text(st, 0);
		const char *s = (const char *)sqlite3_column_text(st, 1);
		double ms = sqlite3_column_type(st, 2) == SQLITE_NULL ? -1 : sqlite3_column_double(st, 2);
		src = SQLITE_OK;
		rc = w->run ? w->run(w->ctx, p ? p : "{}", s ? s : "", ms) : w->rec(w->ctx, p ? p : "{}", ms);
	}
	if (!rc && src != SQLITE_DONE && src != SQLITE_OK)
		rc = db_fail(err, n, "%s: %s", what, sqlite3_errmsg(h));
	if (sqlite3_finalize(st) != SQLITE_OK && !rc)
		rc = db_fail(err, n, "%s: %s", what, sqlite3_errmsg(h));
	return rc;
}

int db_each_run(struct db *d, long long like,
				int (*fn)(void *ctx, const char *params, const char *status, double ms),
				void *ctx, char *err, size_t n)
{
	static const char sql[] =
		"SELECT params, status, median_ms FROM v_runs"
		" WHERE " DB_SAME_MODEL("(SELECT device_id FROM runs WHERE id = ?1)")
		" AND problem_id = (SELECT problem_id FROM runs WHERE id = ?1) ORDER BY run_id";
	const struct walk w = {fn, NULL, ctx};

	return walk_rows(d, sql, &like, 1, &w, "db_each_run", err, n);
}

int db_each_record(struct db *d, long long dev, long long prob, int k,
				   int (*fn)(void *ctx, const char *params, double ms), void *ctx,
				   char *err, size_t n)
{
	static const char sql[] =
		"SELECT params, status, median_ms FROM (" DB_CURRENT ")"
		" WHERE problem_id = ?2 AND (device, arch) = (SELECT name, arch FROM devices WHERE id = ?1)"
		" ORDER BY median_ms, run_id LIMIT ?3";
	const struct walk w = {NULL, fn, ctx};
	const long long b[] = {dev, prob, k};

	return walk_rows(d, sql, b, 3, &w, "db_each_record", err, n);
}
