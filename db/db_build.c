/*
 * db_build.c: what the database says of the build behind a run: the
 * compiler, its version, the target and the options it was given, the hash
 * of the source it compiled, and the resources it reported. An export reads
 * it to reproduce that build and to check that what it embeds is the build
 * that was measured (tuner/export/tn_exp_build.c).
 */
#include "db.h"
#include "db_int.h"

#include <stdio.h>
#include <string.h>

/* Copies column c of st into buf[0..n), "" for NULL. */
static void text(sqlite3_stmt *st, int c, char *buf, size_t n)
{
	const unsigned char *t = sqlite3_column_text(st, c);
	snprintf(buf, n, "%s", t ? (const char *)t : "");
}

/* Prepares sql on h with run bound to ?1, into *st; an SQLite code. */
static int prep(sqlite3 *h, const char *sql, long long run, sqlite3_stmt **st)
{
	int s = sqlite3_prepare_v2(h, sql, -1, st, NULL);
	return s == SQLITE_OK ? sqlite3_bind_int64(*st, 1, run) : s;
}

/* Column c of st as an int, -1 for NULL (unknown). */
static int num(sqlite3_stmt *st, int c)
{
	return sqlite3_column_type(st, c) == SQLITE_NULL ? -1 : sqlite3_column_int(st, c);
}

int db_run_build(struct db *d, long long run, struct db_build_row *b, char *err, size_t n)
{
	static const char sql[] =
		"SELECT b.id, b.compiler, b.compiler_version, b.arch, b.options, b.source_hash,"
		" b.regs, b.lds_bytes, b.spill_bytes, b.status, b.config_id = r.config_id"
		" FROM runs r JOIN builds b ON b.id = r.build_id WHERE r.id = ?1";
	sqlite3_stmt *st = NULL;
	sqlite3 *h = NULL;
	int rc = FDT_FAIL, s;

	if (!b)
		return db_fail(err, n, "db_run_build: no result structure");
	memset(b, 0, sizeof *b);
	if (db_handle(d, &h, err, n))
		return FDT_FAIL;
	if (prep(h, sql, run, &st) != SQLITE_OK) {
		rc = db_fail(err, n, "reading the build of run %lld: %s", run, sqlite3_errmsg(h));
		goto done;
	}
	s = sqlite3_step(st);
	if (s == SQLITE_DONE) {
		rc = db_fail(err, n, "run %lld has no build recorded (a run of an older fdtune, or "
					 "merged without its builds)", run);
		goto done;
	}
	if (s != SQLITE_ROW) {
		rc = db_fail(err, n, "reading the build of run %lld: %s", run, sqlite3_errmsg(h));
		goto done;
	}
	b->id = sqlite3_column_int64(st, 0);
	text(st, 1, b->compiler, sizeof b->compiler);
	text(st, 2, b->compiler_version, sizeof b->compiler_version);
	text(st, 3, b->arch, sizeof b->arch);
	text(st, 4, b->options, sizeof b->options);
	text(st, 5, b->source_hash, sizeof b->source_hash);
	b->regs = num(st, 6);
	b->lds_bytes = num(st, 7);
	b->spill_bytes = num(st, 8);
	text(st, 9, b->status, sizeof b->status);
	if (!sqlite3_column_int(st, 10)) {   /* its source is another kernel's */
		rc = db_fail(err, n, "run %lld was recorded with build %lld, which is of another "
					 "configuration (a database edited by hand?)", run, b->id);
		goto done;
	}
	rc = 0;
done:
	if (sqlite3_finalize(st) != SQLITE_OK && rc == 0)
		rc = db_fail(err, n, "reading the build of run %lld: %s", run, sqlite3_errmsg(h));
	return rc;
}

int db_run_repeats(struct db *d, long long run, const char *values, long long *ids, int max,
				   int *count, char *err, size_t n)
{
	/* a configuration matches when every parameter of values, absent from
     * its params and so at its default, has the value asked for */
	static const char sql[] =
		"SELECT o.id FROM runs r JOIN devices dr ON dr.id = r.device_id"
		" JOIN runs o ON o.problem_id = r.problem_id"
		" JOIN devices dx ON dx.id = o.device_id AND dx.name = dr.name AND dx.arch = dr.arch"
		" JOIN configs c ON c.id = o.config_id"
		" WHERE r.id = ?1 AND o.status = 'ok' AND o.median_ms IS NOT NULL"
		" AND NOT EXISTS (SELECT 1 FROM json_each(?2) j WHERE"
		"  coalesce(json_extract(c.params, '$.' || j.key), json_extract(j.value, '$[1]'))"
		"  IS NOT json_extract(j.value, '$[0]'))"
		" ORDER BY o.id = r.id DESC, o.id DESC";
	sqlite3_stmt *st = NULL;
	sqlite3 *h = NULL;
	int rc = FDT_FAIL, s;

	*count = 0;
	if (db_handle(d, &h, err, n))
		return FDT_FAIL;
	if (prep(h, sql, run, &st) != SQLITE_OK ||
		(s = sqlite3_bind_text(st, 2, values, -1, SQLITE_TRANSIENT)) != SQLITE_OK)
		goto done;
	while (*count < max && (s = sqlite3_step(st)) == SQLITE_ROW)
		ids[(*count)++] = sqlite3_column_int64(st, 0);
	if (s == SQLITE_ROW || s == SQLITE_DONE)
		rc = 0;
done:
	if (sqlite3_finalize(st) != SQLITE_OK && rc == 0)
		rc = FDT_FAIL;
	if (rc)
		db_fail(err, n, "reading the repeats of run %lld: %s", run, sqlite3_errmsg(h));
	return rc;
}
