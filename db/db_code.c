/*
 * db_code.c: the code objects the database keeps (schema 9, table codes),
 * so that a program tuning online on a GPU model or a grid size the
 * database has not seen (libfdtune, tuner/online/) loads its candidates
 * instead of compiling them: a compile takes about a second, longer than a
 * whole short run. A code object is kept under the compile cache's key of
 * its source (tn_cache_key: the source, the compiler with its version and
 * options, the arch), so that it is exactly what that program would have
 * compiled; another compiler finds nothing and compiles as before. Its
 * body is deflated with zlib and checked against its sum (gen_hash_bytes
 * of the code) whenever it is read back: a body that does not inflate to
 * code of that sum is an error, never a kernel. meta is the compile
 * cache's line of the build (registers, LDS, spills, compile ms, options).
 */
#include "db.h"
#include "db_int.h"
#include "gen.h"

#include <stdlib.h>
#include <string.h>

/* Largest code object kept or read back: fdtune's are tens of KiB. */
#define MAXCODE (16u << 20)

int db_code_put(struct db *d, const struct db_code *c, const void *code, size_t size,
		char *err, size_t n)
{
	sqlite3 *h = NULL;
	sqlite3_stmt *st = NULL;
	unsigned char *z = NULL;
	size_t zn;
	char sum[17];
	int rc = FDT_FAIL, s;

	if (!c || !c->key || !*c->key || !code || !size)
		return db_fail(err, n, "db_code_put: a key and a code object are required");
	if (size > MAXCODE)
		return db_fail(err, n, "keeping code %s: %zu bytes, over the %u this fdtune keeps",
			       c->key, size, MAXCODE);
	if (db_handle(d, &h, err, n))
		return FDT_FAIL;
	gen_hash_bytes(code, size, sum);
	if (db_deflate(code, size, &z, &zn)) {
		rc = db_fail(err, n, "keeping code %s: zlib could not deflate it", c->key);
		goto done;
	}
	s = sqlite3_prepare_v2(h, "INSERT OR REPLACE INTO codes(key, arch, compiler, source_hash,"
			       " meta, codec, size, sum, body) VALUES (?1, ?2, ?3, ?4, ?5, 'zlib',"
			       " ?6, ?7, ?8)", -1, &st, NULL);
	if (s == SQLITE_OK)
		s = sqlite3_bind_text(st, 1, c->key, -1, SQLITE_STATIC);
	if (s == SQLITE_OK)
		s = sqlite3_bind_text(st, 2, c->arch ? c->arch : "", -1, SQLITE_STATIC);
	if (s == SQLITE_OK)
		s = sqlite3_bind_text(st, 3, c->compiler ? c->compiler : "", -1, SQLITE_STATIC);
	if (s == SQLITE_OK)
		s = sqlite3_bind_text(st, 4, c->source_hash ? c->source_hash : "", -1,
				      SQLITE_STATIC);
	if (s == SQLITE_OK)
		s = sqlite3_bind_text(st, 5, c->meta ? c->meta : "", -1, SQLITE_STATIC);
	if (s == SQLITE_OK)
		s = sqlite3_bind_int64(st, 6, (sqlite3_int64)size);
	if (s == SQLITE_OK)
		s = sqlite3_bind_text(st, 7, sum, -1, SQLITE_STATIC);
	if (s == SQLITE_OK)
		s = sqlite3_bind_blob(st, 8, z, (int)zn, SQLITE_STATIC);
	if (s == SQLITE_OK)
		s = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
	if (s != SQLITE_OK) {
		rc = db_fail(err, n, "keeping code %s: %s%s", c->key, sqlite3_errmsg(h),
			     db_full(d) ? " (the disk is full: free space and try again)" : "");
		goto done;
	}
	rc = 0;
done:
	sqlite3_finalize(st);
	free(z);
	return rc;
}

int db_code_get(struct db *d, const char *key, char **meta, void **code, size_t *size,
		char *err, size_t n)
{
	sqlite3 *h = NULL;
	sqlite3_stmt *st = NULL;
	const char *sum, *m;
	char *out = NULL, got_sum[17];
	int rc;

	*meta = NULL;
	*code = NULL;
	*size = 0;
	if (!key || !*key)
		return FDT_NOMATCH;
	if (db_handle(d, &h, err, n))
		return FDT_FAIL;
	/* one byte more, a NUL (db_zget): a driver that takes a code object
	 * for text never reads past it */
	if ((rc = db_zget(h, "SELECT codec, size, body, sum, meta FROM codes WHERE key = ?1", key,
			  "code", "key", MAXCODE, &st, &out, size, err, n)))
		return rc;
	sum = (const char *)sqlite3_column_text(st, 3);
	m = (const char *)sqlite3_column_text(st, 4);
	if (!sum || !m) {
		rc = db_fail(err, n, "code %s is kept in a form this fdtune does not read (no sum "
			     "or build line)", key);
		goto done;
	}
	gen_hash_bytes(out, *size, got_sum);
	if (strcmp(got_sum, sum)) {
		rc = db_fail(err, n, "code %s is damaged: it sums to %s, not %s", key, got_sum, sum);
		goto done;
	}
	if (!(*meta = strdup(m))) {
		rc = db_fail(err, n, "reading code %s: out of memory", key);
		goto done;
	}
	*code = out;
	out = NULL;
done:
	if (rc)
		*size = 0;
	sqlite3_finalize(st);
	free(out);
	return rc;
}

int db_code_count(struct db *d, const char *arch, const char *compiler, long long *count,
		  char *err, size_t n)
{
	sqlite3 *h = NULL;
	sqlite3_stmt *st = NULL;
	int s;
	*count = 0;
	if (db_handle(d, &h, err, n))
		return FDT_FAIL;
	s = sqlite3_prepare_v2(h, "SELECT count(*) FROM codes WHERE (?1 IS NULL OR arch = ?1)"
			       " AND (?2 IS NULL OR compiler = ?2)", -1, &st, NULL);
	if (s == SQLITE_OK)
		s = sqlite3_bind_text(st, 1, arch, -1, SQLITE_STATIC);
	if (s == SQLITE_OK)
		s = sqlite3_bind_text(st, 2, compiler, -1, SQLITE_STATIC);
	if (s == SQLITE_OK)
		s = sqlite3_step(st) == SQLITE_ROW ? SQLITE_OK : SQLITE_ERROR;
	if (s == SQLITE_OK)
		*count = sqlite3_column_int64(st, 0);
	else
		db_fail(err, n, "counting code objects: %s", sqlite3_errmsg(h));
	sqlite3_finalize(st);
	return s == SQLITE_OK ? 0 : FDT_FAIL;
}

int db_each_code_source(struct db *d, int top,
			int (*fn)(void *ctx, const char *arch, const char *hash), void *ctx,
			char *err, size_t n)
{
	sqlite3 *h = NULL;
	sqlite3_stmt *st = NULL;
	int s, rc = 0;
	if (db_handle(d, &h, err, n))
		return FDT_FAIL;
	s = sqlite3_prepare_v2(h, "SELECT DISTINCT c.arch, b.source_hash FROM (SELECT arch,"
			       " build_id, ROW_NUMBER() OVER (PARTITION BY device, arch, problem_id"
			       " ORDER BY median_ms, run_id) AS rk FROM v_current) c"
			       " JOIN builds b ON b.id = c.build_id"
			       " JOIN sources s ON s.hash = b.source_hash"
			       " WHERE c.rk <= ?1 ORDER BY c.arch, b.source_hash", -1, &st, NULL);
	if (s == SQLITE_OK)
		s = sqlite3_bind_int(st, 1, top);
	if (s == SQLITE_OK)
		while ((s = sqlite3_step(st)) == SQLITE_ROW)
			if ((rc = fn(ctx, (const char *)sqlite3_column_text(st, 0),
				     (const char *)sqlite3_column_text(st, 1))) != 0)
				break;
	if (rc == 0 && s != SQLITE_DONE) {
		rc = db_fail(err, n, "listing the sources to keep code of: %s", sqlite3_errmsg(h));
	}
	sqlite3_finalize(st);
	return rc < 0 ? FDT_FAIL : rc;
}
