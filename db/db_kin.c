/*
 * db_kin.c - the kin of a problem that may have no record at all: the
 * fastest configurations recorded for every size of the same family,
 * radius and precision, on every device model of the database, each with
 * the hash of a kept source of its kernel (db_source.c) where one is kept.
 * A kernel's source does not depend on the grid's size (sizes are
 * arguments), so a kept source of a configuration at one size is its
 * kernel at every size. Online tuning (tuner/online) ranks these as the
 * transfer search ranks relatives and compiles the kept sources at run
 * time, without the generator; sweep --seeds-from ranks them, with each
 * relative's fastest with each value of each parameter (per_value), among
 * a search's seeds. Unlike db_each_related, the problem need not be in the
 * database, which is only read.
 */
#include "db.h"
#include "db_int.h"

#include <sqlite3.h>

/* ?1 family, ?2 radius, ?3 precision, ?4 k, ?5 ?6 the asking device's name
 * and arch, ?7 1: each relative's fastest with each value of each
 * parameter too (vb). cur: the records (DB_CURRENT) of the problems pr,
 * with their build's source hash; kept: a configuration's kept source, from
 * any of its records; a model is its lowest devices.id (dm), as in
 * db_related.c. */
static const char kin_sql[] =
	"WITH pr AS (SELECT id, nx, ny, nz FROM problems WHERE family = ?1 AND radius = ?2"
	"            AND precision = ?3),"
	" md AS (SELECT d.id, d.name, d.arch, (SELECT min(m.id) FROM devices m WHERE m.vendor ="
	"        d.vendor AND m.name = d.name AND m.arch = d.arch) AS dm FROM devices d),"
	" cur AS (SELECT r.device_id, r.problem_id, r.config_id, r.median_ms, b.source_hash AS h"
	"         FROM runs r LEFT JOIN builds b ON b.id = r.build_id WHERE r.id IN ("
	DB_CURRENT_IDS_OF("r.problem_id IN (SELECT id FROM pr)") ")),"
	" kept AS (SELECT config_id, min(h) AS hash FROM cur WHERE h IN (SELECT hash FROM sources)"
	"          GROUP BY config_id),"
	" k AS (SELECT md.dm, min(md.name) AS name, min(md.arch) AS arch, cur.problem_id,"
	"       cur.config_id, min(cur.median_ms) AS ms FROM cur JOIN md ON md.id = cur.device_id"
	"       GROUP BY md.dm, cur.problem_id, cur.config_id),"
	" rk AS (SELECT *, ROW_NUMBER() OVER (PARTITION BY dm, problem_id ORDER BY ms, config_id)"
	"        AS nth FROM k),"
	" vb AS (SELECT DISTINCT dm, problem_id, config_id FROM"
	"        (SELECT rk.dm, rk.problem_id, rk.config_id, ROW_NUMBER() OVER (PARTITION BY"
	"                rk.dm, rk.problem_id, j.key, j.value ORDER BY rk.ms, rk.config_id) AS vr"
	"         FROM rk JOIN configs c ON c.id = rk.config_id, json_each(c.params) j"
	"         WHERE ?7) WHERE vr = 1)"
	" SELECT c.params, rk.problem_id, pr.nx, pr.ny, pr.nz, rk.nth, rk.ms, rk.dm,"
	"        (rk.name <> ?5 OR rk.arch <> ?6), kept.hash, rk.name, rk.config_id"
	" FROM rk JOIN configs c ON c.id = rk.config_id JOIN pr ON pr.id = rk.problem_id"
	"      LEFT JOIN kept ON kept.config_id = rk.config_id"
	" WHERE rk.nth <= ?4 OR (?7 AND (rk.dm, rk.problem_id, rk.config_id) IN"
	"       (SELECT dm, problem_id, config_id FROM vb))"
	" ORDER BY rk.dm, rk.problem_id, rk.nth";

/* Prepares sql on d and binds ?1 family, ?2 radius, ?3 precision of q and
 * the integers ?4, ?5, ?6 of k[0..nk), then ?(4 + nk) and ?(5 + nk) q's
 * device and arch: SQLite's status. */
static int prepare(sqlite3 *h, const char *sql, const struct db_kin *q, const int *k, int nk,
		   sqlite3_stmt **st)
{
	int src = sqlite3_prepare_v2(h, sql, -1, st, NULL);
	if (src == SQLITE_OK)
		src = sqlite3_bind_text(*st, 1, q->family, -1, SQLITE_STATIC);
	if (src == SQLITE_OK)
		src = sqlite3_bind_int(*st, 2, q->radius);
	if (src == SQLITE_OK)
		src = sqlite3_bind_text(*st, 3, q->precision, -1, SQLITE_STATIC);
	for (int i = 0; i < nk && src == SQLITE_OK; i++)
		src = sqlite3_bind_int(*st, 4 + i, k[i]);
	if (src == SQLITE_OK)
		src = sqlite3_bind_text(*st, 4 + nk, q->device ? q->device : "", -1, SQLITE_STATIC);
	if (src == SQLITE_OK)
		src = sqlite3_bind_text(*st, 5 + nk, q->arch ? q->arch : "", -1, SQLITE_STATIC);
	return src;
}

int db_each_kin(struct db *d, const struct db_kin *q,
				int (*fn)(void *ctx, const struct db_kin_row *row), void *ctx,
				char *err, size_t n)
{
	sqlite3_stmt *st = NULL;
	sqlite3 *h = NULL;
	int src, rc = 0;

	if (!q->family || !q->precision || q->radius < 1)
		return db_fail(err, n, "db_each_kin: a family, a radius and a precision are needed");
	if (db_handle(d, &h, err, n))
		return FDT_FAIL;
	src = prepare(h, kin_sql, q, (const int[]){ q->k > 0 ? q->k : 1 }, 1, &st);
	if (src == SQLITE_OK)
		src = sqlite3_bind_int(st, 7, q->per_value != 0);
	while (src == SQLITE_OK && !rc && (src = sqlite3_step(st)) == SQLITE_ROW) {
		struct db_kin_row w;
		const char *p = (const char *)sqlite3_column_text(st, 0);
		const char *hs = (const char *)sqlite3_column_text(st, 9);
		const char *dn = (const char *)sqlite3_column_text(st, 10);
		w.r.params = p ? p : "{}";
		w.r.problem_id = sqlite3_column_int64(st, 1);
		w.r.radius = q->radius;
		w.r.nx = sqlite3_column_int(st, 2);
		w.r.ny = sqlite3_column_int(st, 3);
		w.r.nz = sqlite3_column_int(st, 4);
		w.r.rank = sqlite3_column_int(st, 5);
		w.r.ms = sqlite3_column_double(st, 6);
		w.r.device_id = sqlite3_column_int64(st, 7);
		w.r.other = sqlite3_column_int(st, 8);
		w.hash = hs;
		w.device = dn ? dn : "";
		w.config_id = sqlite3_column_int64(st, 11);
		src = SQLITE_OK;
		rc = fn(ctx, &w);
	}
	if (!rc && src != SQLITE_DONE && src != SQLITE_OK)
		rc = db_fail(err, n, "db_each_kin: %s", sqlite3_errmsg(h));
	if (sqlite3_finalize(st) != SQLITE_OK && !rc)
		rc = db_fail(err, n, "db_each_kin: %s", sqlite3_errmsg(h));
	return rc;
}

/* ?1 family, ?2 radius, ?3 precision, ?4 ?5 ?6 size, ?7 ?8 device name and
 * arch: the ok runs of online sweeps (DB_ONLINE_CMD) of the problem on the
 * device model, each configuration's newest, fastest first, with a kept
 * source of its build. */
static const char online_sql[] =
	"SELECT c.params, r.median_ms, b.source_hash FROM runs r JOIN sweeps s ON s.id = r.sweep_id"
	" JOIN problems p ON p.id = r.problem_id JOIN devices d ON d.id = r.device_id"
	" JOIN configs c ON c.id = r.config_id JOIN builds b ON b.id = r.build_id"
	" WHERE s.cmdline LIKE '" DB_ONLINE_CMD "%' AND r.status = 'ok' AND p.family = ?1"
	" AND p.radius = ?2 AND p.precision = ?3 AND p.nx = ?4 AND p.ny = ?5 AND p.nz = ?6"
	" AND d.name = ?7 AND d.arch = ?8 AND b.source_hash IN (SELECT hash FROM sources)"
	" AND r.id = (SELECT max(r2.id) FROM runs r2 JOIN sweeps s2 ON s2.id = r2.sweep_id"
	"             WHERE r2.problem_id = r.problem_id AND r2.config_id = r.config_id"
	"             AND r2.device_id = r.device_id AND s2.cmdline LIKE '" DB_ONLINE_CMD "%')"
	" ORDER BY r.median_ms, r.id";

int db_each_online(struct db *d, const struct db_kin *q, int nx, int ny, int nz,
				   int (*fn)(void *ctx, const char *params, double ms, const char *hash),
				   void *ctx, char *err, size_t n)
{
	sqlite3_stmt *st = NULL;
	sqlite3 *h = NULL;
	int src, rc = 0;

	if (!q->family || !q->precision || !q->device || !q->arch)
		return db_fail(err, n, "db_each_online: a family, a precision and a device are needed");
	if (db_handle(d, &h, err, n))
		return FDT_FAIL;
	src = prepare(h, online_sql, q, (const int[]){ nx, ny, nz }, 3, &st);
	while (src == SQLITE_OK && !rc && (src = sqlite3_step(st)) == SQLITE_ROW) {
		const char *p = (const char *)sqlite3_column_text(st, 0);
		const char *hs = (const char *)sqlite3_column_text(st, 2);
		src = SQLITE_OK;
		rc = fn(ctx, p ? p : "{}", sqlite3_column_double(st, 1), hs ? hs : "");
	}
	if (!rc && src != SQLITE_DONE && src != SQLITE_OK)
		rc = db_fail(err, n, "db_each_online: %s", sqlite3_errmsg(h));
	if (sqlite3_finalize(st) != SQLITE_OK && !rc)
		rc = db_fail(err, n, "db_each_online: %s", sqlite3_errmsg(h));
	return rc;
}
