/*
 * db_pick.c - the lookups of fdtune export and libfdtune's tools: the record
 * to export (db_pick: the fastest, or by an energy objective the most
 * frugal), the devices and sizes recorded for a problem, and one integer
 * of a configuration's JSON. The filters are bound as db_best binds them.
 */
#include "db.h"
#include "db_int.h"

#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#define MATCH DB_MATCH

int db_pick(struct db *d, const struct db_filter *f, long long run, struct db_pick *p,
			char *err, size_t n)
{
	static const struct db_filter any = {NULL, NULL, NULL, 0, 0, 0, 0, DB_OBJ_TIME};
	static const char sql[] =
		"SELECT run_id, device, arch, family, radius, nx, ny, nz, precision, params, median_ms,"
		" gbs, pct_copy, created FROM v_runs WHERE" MATCH
		" AND (?6 = 0 OR (nx = ?6 AND ny = ?7 AND nz = ?8))"
		" AND (CASE WHEN ?9 = 0 THEN run_id IN (" DB_CURRENT_IDS_OF(DB_PROBLEM_MATCH) ")"
		" ELSE run_id = ?9 END)"
		" ORDER BY nx * ny * nz DESC, coalesce(json_extract(params, '$.acc'), 0), median_ms,"
		" run_id LIMIT 1";      /* a storing run (acc 0) before an accumulating one */
	/* by an energy objective: the record (v_current) of the configuration
     * of least energy, or energy-delay product, measured */
#define BY(key) \
		"SELECT run_id, device, arch, family, radius, nx, ny, nz, precision, params, median_ms," \
		" gbs, pct_copy, created FROM v_energy WHERE" MATCH \
		" AND (?6 = 0 OR (nx = ?6 AND ny = ?7 AND nz = ?8)) AND (?9 = 0 OR run_id = ?9)" \
		" ORDER BY nx * ny * nz DESC, coalesce(json_extract(params, '$.acc'), 0), " key "," \
		" run_id LIMIT 1"
	static const char *const sqls[] = { sql, BY("j_per_gpt"), BY("edp") };
#undef BY
	sqlite3_stmt *st = NULL;
	sqlite3 *h = NULL;
	int src, rc = FDT_FAIL;

	if (!p || db_handle(d, &h, err, n))
		return p ? FDT_FAIL : db_fail(err, n, "db_pick: no result structure");
	f = f ? f : &any;
	memset(p, 0, sizeof *p);
	if (f->objective < DB_OBJ_TIME || f->objective > DB_OBJ_EDP)
		return db_fail(err, n, "db_pick: objective %d is none of time, energy, edp", f->objective);
	if (f->objective != DB_OBJ_TIME && db_version(d) < 8)
		return db_fail(err, n, "this database (schema %d) has no energy measured; measure it "
					   "with fdtune sweep --recheck K --energy", db_version(d));
	src = db_filter_prepare(h, sqls[f->objective], f, 0, &st);
	if (src == SQLITE_OK)
		src = sqlite3_bind_int64(st, 9, run);
	if (src == SQLITE_OK && (src = sqlite3_step(st)) == SQLITE_ROW) {
		const char *t[6];
		int k[6] = {1, 2, 3, 8, 9, 13};
		for (int i = 0; i < 6; i++)
			t[i] = (const char *)sqlite3_column_text(st, k[i]);
		p->run = sqlite3_column_int64(st, 0);
		snprintf(p->device, sizeof p->device, "%s", t[0] ? t[0] : "");
		snprintf(p->arch, sizeof p->arch, "%s", t[1] ? t[1] : "");
		snprintf(p->family, sizeof p->family, "%s", t[2] ? t[2] : "");
		snprintf(p->precision, sizeof p->precision, "%s", t[3] ? t[3] : "");
		snprintf(p->params, sizeof p->params, "%s", t[4] ? t[4] : "{}");
		snprintf(p->created, sizeof p->created, "%s", t[5] ? t[5] : "");
		p->radius = sqlite3_column_int(st, 4);
		p->nx = sqlite3_column_int(st, 5);
		p->ny = sqlite3_column_int(st, 6);
		p->nz = sqlite3_column_int(st, 7);
		p->median_ms = sqlite3_column_double(st, 10);
		p->gbs = sqlite3_column_double(st, 11);
		p->pct_copy = sqlite3_column_double(st, 12);
		rc = 0;
	} else if (src == SQLITE_DONE) {
		char desc[256];
		if (run) {
			db_fail(err, n, "no successful run %lld matches%s", run, db_filter_desc(f, desc, sizeof desc));
			rc = FDT_NOMATCH;
		} else
			rc = db_filter_nomatch(h, f, err, n);
	} else {
		rc = db_fail(err, n, "db_pick: query failed: %s", sqlite3_errmsg(h));
	}
	if (sqlite3_finalize(st) != SQLITE_OK && rc == 0)
		rc = db_fail(err, n, "db_pick: %s", sqlite3_errmsg(h));
	return rc;
}

int db_json_int(struct db *d, const char *json, const char *key, int *v, int *found,
				char *err, size_t n)
{
	sqlite3 *h = NULL;
	int src, rc = FDT_FAIL;

	if (db_handle(d, &h, err, n))
		return FDT_FAIL;
	src = d->json ? SQLITE_OK
				  : sqlite3_prepare_v2(h, "SELECT json_extract(?1, '$.' || ?2)", -1, &d->json, NULL);
	if (src == SQLITE_OK && (src = sqlite3_bind_text(d->json, 1, json, -1, SQLITE_STATIC)) == SQLITE_OK &&
		(src = sqlite3_bind_text(d->json, 2, key, -1, SQLITE_STATIC)) == SQLITE_OK &&
		(src = sqlite3_step(d->json)) == SQLITE_ROW) {
		*found = sqlite3_column_type(d->json, 0) == SQLITE_INTEGER;
		*v = sqlite3_column_int(d->json, 0);
		rc = 0;
	} else {
		rc = db_fail(err, n, "db_json_int(%s): %s", key, sqlite3_errmsg(h));
	}
	if (d->json) {
		sqlite3_reset(d->json);         /* its code repeats the step's, reported above */
		sqlite3_clear_bindings(d->json);
	}
	return rc;
}

int db_devices(struct db *d, const struct db_filter *f, char names[][256], int max, int *count,
			   char *err, size_t n)
{
	static const struct db_filter any = {NULL, NULL, NULL, 0, 0, 0, 0, DB_OBJ_TIME};
	static const char sql[] =
		"SELECT DISTINCT device FROM v_runs WHERE" MATCH
		" AND (?6 = 0 OR (nx = ?6 AND ny = ?7 AND nz = ?8)) ORDER BY device";
	sqlite3_stmt *st = NULL;
	sqlite3 *h = NULL;
	int src, rc = 0;

	*count = 0;
	if (db_handle(d, &h, err, n))
		return FDT_FAIL;
	f = f ? f : &any;
	src = db_filter_prepare(h, sql, f, 0, &st);
	while (src == SQLITE_OK && (src = sqlite3_step(st)) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(st, 0);
		src = SQLITE_OK;
		if (*count == max) {
			rc = db_fail(err, n, "db_devices: more than %d devices match", max);
			break;
		}
		snprintf(names[(*count)++], 256, "%s", t ? t : "");
	}
	if (!rc && src != SQLITE_DONE && src != SQLITE_OK)
		rc = db_fail(err, n, "db_devices: %s", sqlite3_errmsg(h));
	if (sqlite3_finalize(st) != SQLITE_OK && !rc)
		rc = db_fail(err, n, "db_devices: %s", sqlite3_errmsg(h));
	return rc;
}

int db_sizes(struct db *d, const struct db_filter *f, int sizes[][3], int max, int *count,
			 char *err, size_t n)
{
	static const char sql[] =
		"SELECT DISTINCT nx, ny, nz FROM v_runs WHERE" MATCH
		" AND (?6 = 0 OR (nx = ?6 AND ny = ?7 AND nz = ?8)) ORDER BY nx * ny * nz, nx, ny, nz";
	sqlite3_stmt *st = NULL;
	sqlite3 *h = NULL;
	int src, rc = 0;

	*count = 0;
	if (db_handle(d, &h, err, n))
		return FDT_FAIL;
	src = db_filter_prepare(h, sql, f, 0, &st);
	while (src == SQLITE_OK && (src = sqlite3_step(st)) == SQLITE_ROW) {
		src = SQLITE_OK;
		if (*count == max) {
			rc = db_fail(err, n, "db_sizes: more than %d sizes match", max);
			break;
		}
		for (int k = 0; k < 3; k++)
			sizes[*count][k] = sqlite3_column_int(st, k);
		(*count)++;
	}
	if (!rc && src != SQLITE_DONE && src != SQLITE_OK)
		rc = db_fail(err, n, "db_sizes: %s", sqlite3_errmsg(h));
	if (sqlite3_finalize(st) != SQLITE_OK && !rc)
		rc = db_fail(err, n, "db_sizes: %s", sqlite3_errmsg(h));
	return rc;
}
