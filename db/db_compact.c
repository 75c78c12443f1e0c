/*
 * db_compact.c: the database users query, made from a full one (fdtune
 * compact). A night of sweeps records tens of thousands of runs, most of
 * them slow, failed or superseded; best, export, libfdtune and the transfer
 * search read only each problem's fastest records. db_compact writes a copy
 * that keeps, for each device model and problem, its K fastest records
 * (v_current) of each kind (storing, acc 0, and accumulating, acc 1, which
 * the strategies of `best --strategies` add up) with their builds (without
 * compiler logs) and configurations, every sweep, device and problem, the
 * kept sources of those builds, and every run with its energy measured;
 * db_each_unkept walks the fastest records whose build has no source kept,
 * for the caller to keep one where today's templates still make it.
 */
#include "db.h"
#include "db_int.h"

#include <stdlib.h>
#include <unistd.h>

/* What the copy drops, in one transaction: ?1 is K. */
static const char prune_sql[] =
	"CREATE TEMP TABLE ckeep AS SELECT run_id AS id FROM (SELECT run_id, ROW_NUMBER() OVER"
	" (PARTITION BY device, arch, problem_id, coalesce(json_extract(params, '$.acc'), 0)"
	"  ORDER BY median_ms, run_id) AS rk FROM v_current)"
	" WHERE rk <= ?1 UNION SELECT run_id FROM energy;";
static const char drop_sql[] =
	"DELETE FROM runs WHERE id NOT IN (SELECT id FROM temp.ckeep);"
	"DELETE FROM energy WHERE run_id NOT IN (SELECT id FROM runs);"
	"DELETE FROM builds WHERE id NOT IN (SELECT build_id FROM runs WHERE build_id IS NOT NULL);"
	"UPDATE builds SET log = NULL;"
	"DELETE FROM configs WHERE id NOT IN (SELECT config_id FROM runs)"
	" AND id NOT IN (SELECT config_id FROM builds);"
	"DELETE FROM sources WHERE hash NOT IN (SELECT source_hash FROM builds);"
	"DROP TABLE temp.ckeep;";

int db_compact(const char *from, const char *to, int k, long long *runs, char *err, size_t n)
{
	struct db *src = NULL, *dst = NULL;
	sqlite3 *h = NULL, *out = NULL;
	struct res r;
	int rc = FDT_FAIL, s, made = 0;

	if (k < 1)
		return db_fail(err, n, "compact: keep at least 1 record a problem (asked %d)", k);
	if (!access(to, F_OK))
		return db_fail(err, n, "%s exists; compact writes a new file (remove it, or name "
					   "another)", to);
	if (db_path_check(to, 1, err, n))
		return FDT_FAIL;
	/* the source as db_read reads it (migrated, in memory, to this schema),
     * whole (quick_check), copied page by page into the new file */
	if (db_read_checked(from, &src, err, n) || db_handle(src, &h, err, n))
		goto done;
	s = sqlite3_open_v2(to, &out, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	made = 1;
	if (s == SQLITE_OK) {
		sqlite3_backup *b = sqlite3_backup_init(out, "main", h, "main");
		if (!b)
			s = sqlite3_errcode(out);
		else {
			s = sqlite3_backup_step(b, -1);
			s = s == SQLITE_DONE ? sqlite3_backup_finish(b) : (sqlite3_backup_finish(b), s);
		}
	}
	if (s != SQLITE_OK) {
		db_fail(err, n, "copying %s into %s: %s", from, to,
				out ? sqlite3_errmsg(out) : sqlite3_errstr(s));
		goto done;
	}
	db_shut(out);
	out = NULL;
	db_close(src);
	src = NULL;
	if (db_open(to, &dst, err, n) || db_handle(dst, &h, err, n))
		goto done;
	{
		const struct val v = { 'i', k, 0, NULL };
		/* only rows nothing kept refers to are dropped; checking each
         * against the unindexed references would take minutes */
		if (db_exec(h, "PRAGMA foreign_keys=OFF", "compacting", err, n) ||
			db_exec(h, "BEGIN IMMEDIATE", "compacting", err, n))
			goto done;
		if (db_stmt(h, prune_sql, &v, 1, &r, "choosing the records kept", err, n) ||
			db_exec(h, drop_sql, "dropping the rest", err, n)) {
			sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
			goto done;
		}
		if (db_exec(h, "COMMIT", "compacting", err, n) ||
			db_exec(h, "PRAGMA foreign_keys=ON", "compacting", err, n) ||
			db_stmt(h, "SELECT count(*) FROM pragma_foreign_key_check", NULL, 0, &r,
					"checking references", err, n))
			goto done;
		if (r.i[0]) {
			db_fail(err, n, "compacting left %lld rows referring to rows it dropped (a bug)",
					r.i[0]);
			goto done;
		}
	}
	if (db_exec(h, "VACUUM", "compacting", err, n) ||
		db_stmt(h, "SELECT count(*) FROM runs", NULL, 0, &r, "counting runs", err, n))
		goto done;
	*runs = r.i[0];
	rc = 0;
done:
	db_shut(out);
	db_close(src);
	db_close(dst);
	if (rc && made)
		unlink(to);
	return rc;
}

int db_each_unkept(struct db *d, int k, int (*fn)(void *ctx, const struct db_unkept *u),
				   void *ctx, char *err, size_t n)
{
	static const char sql[] =
		"SELECT run_id, device, family, radius, nx, ny, nz, precision, params, source_hash, rk,"
		" coalesce(json_extract(params, '$.acc'), 0)"
		" FROM (SELECT c.*, b.source_hash, ROW_NUMBER() OVER (PARTITION BY c.device, c.arch,"
		"  c.problem_id, coalesce(json_extract(c.params, '$.acc'), 0)"
		"  ORDER BY c.median_ms, c.run_id) AS rk"
		"  FROM v_current c JOIN builds b ON b.id = c.build_id)"
		" WHERE rk <= ?1 AND source_hash <> ''"
		"  AND source_hash NOT IN (SELECT hash FROM sources)"
		" ORDER BY device, family, radius, nx, ny, nz, precision, rk";
	sqlite3 *h = NULL;
	sqlite3_stmt *st = NULL;
	int rc = 0, s;

	if (db_handle(d, &h, err, n))
		return FDT_FAIL;
	s = sqlite3_prepare_v2(h, sql, -1, &st, NULL);
	if (s == SQLITE_OK)
		s = sqlite3_bind_int(st, 1, k);
	while (s == SQLITE_OK && (s = sqlite3_step(st)) == SQLITE_ROW) {
		struct db_unkept u;
		u.run = sqlite3_column_int64(st, 0);
		u.device = (const char *)sqlite3_column_text(st, 1);
		u.family = (const char *)sqlite3_column_text(st, 2);
		u.radius = sqlite3_column_int(st, 3);
		u.nx = sqlite3_column_int(st, 4);
		u.ny = sqlite3_column_int(st, 5);
		u.nz = sqlite3_column_int(st, 6);
		u.precision = (const char *)sqlite3_column_text(st, 7);
		u.params = (const char *)sqlite3_column_text(st, 8);
		u.source_hash = (const char *)sqlite3_column_text(st, 9);
		u.rank = sqlite3_column_int(st, 10);
		u.acc = sqlite3_column_int(st, 11);
		if ((rc = fn(ctx, &u)))
			break;
		s = SQLITE_OK;
	}
	if (!rc && s != SQLITE_DONE)
		rc = db_fail(err, n, "walking the records without a kept source: %s",
					 sqlite3_errmsg(h));
	sqlite3_finalize(st);
	return rc;
}
