/*
 * db_source.c: the generated sources the database keeps (schema 7, table
 * sources). A build records the hash of the source it compiled; the source
 * itself is kept for the builds that matter (a sweep's contenders, and what
 * fdtune compact keeps), so that an export, or a later fdtune, can make the
 * measured build again after the templates have changed. A source is kept
 * once per hash, deflated with zlib, and checked against its hash whenever
 * it is read back: a body that does not inflate to text of that hash is an
 * error, never a kernel.
 */
#include "db.h"
#include "db_int.h"
#include "gen.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* Largest source kept or read back: generated kernels are tens of KiB. */
#define MAXSRC (4u << 20)

int db_deflate(const void *p, size_t len, unsigned char **z, size_t *zn)
{
	uLongf k = compressBound((uLong)len);
	*z = malloc(k);
	if (!*z || compress2(*z, &k, p, (uLong)len, Z_BEST_COMPRESSION) != Z_OK) {
		free(*z);
		*z = NULL;
		return FDT_FAIL;
	}
	*zn = (size_t)k;
	return FDT_OK;
}

int db_inflate(const void *z, size_t zn, void *out, size_t len)
{
	uLongf got = (uLongf)len;
	return z && uncompress(out, &got, z, (uLong)zn) == Z_OK && got == (uLongf)len ?
	       FDT_OK : FDT_FAIL;
}

int db_zget(sqlite3 *h, const char *sql, const char *key, const char *what, const char *by,
	    size_t max, sqlite3_stmt **row, char **out, size_t *size, char *err, size_t n)
{
	sqlite3_stmt *st = NULL;
	const void *body;
	const char *codec;
	sqlite3_int64 len;
	int rc = FDT_FAIL, s, bn;

	*row = NULL;
	*out = NULL;
	*size = 0;
	s = sqlite3_prepare_v2(h, sql, -1, &st, NULL);
	if (s == SQLITE_OK)
		s = sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	if (s == SQLITE_OK && (s = sqlite3_step(st)) == SQLITE_DONE) {
		rc = FDT_NOMATCH;
		db_fail(err, n, "the database keeps no %s of %s %s", what, by, key);
		goto done;
	}
	if (s != SQLITE_ROW) {
		rc = db_fail(err, n, "reading %s %s: %s", what, key, sqlite3_errmsg(h));
		goto done;
	}
	codec = (const char *)sqlite3_column_text(st, 0);
	len = sqlite3_column_int64(st, 1);
	body = sqlite3_column_blob(st, 2);
	bn = sqlite3_column_bytes(st, 2);
	if (!codec || strcmp(codec, "zlib") || len <= 0 || (size_t)len > max || !body) {
		rc = db_fail(err, n, "%s %s is kept in a form this fdtune does not read (codec "
			     "'%s', %lld bytes)", what, key, codec ? codec : "", (long long)len);
		goto done;
	}
	if (!(*out = calloc(1, (size_t)len + 1))) {
		rc = db_fail(err, n, "reading %s %s: out of memory", what, key);
		goto done;
	}
	if (db_inflate(body, (size_t)bn, *out, (size_t)len)) {
		rc = db_fail(err, n, "%s %s is damaged: its body does not inflate to the %lld "
			     "bytes recorded", what, key, (long long)len);
		goto done;
	}
	*size = (size_t)len;
	*row = st;
	return FDT_OK;
done:
	sqlite3_finalize(st);
	free(*out);
	*out = NULL;
	return rc;
}

int db_source_put(struct db *d, const char *hash, const char *src, char *err, size_t n)
{
	sqlite3 *h = NULL;
	sqlite3_stmt *st = NULL;
	unsigned char *z = NULL;
	size_t len, zn;
	char sh[17];
	int rc = FDT_FAIL, s;

	if (!hash || !src || !*src)
		return db_fail(err, n, "db_source_put: a hash and a source are required");
	len = strlen(src);
	gen_hash(src, sh);
	if (strcmp(sh, hash))
		return db_fail(err, n, "keeping a source: it hashes to %s, not to %s as its build "
					   "says", sh, hash);
	if (len > MAXSRC)
		return db_fail(err, n, "keeping source %s: %zu bytes, over the %u this fdtune keeps",
					   hash, len, MAXSRC);
	if (db_handle(d, &h, err, n))
		return FDT_FAIL;
	if (db_deflate(src, len, &z, &zn)) {
		rc = db_fail(err, n, "keeping source %s: zlib could not deflate it", hash);
		goto done;
	}
	s = sqlite3_prepare_v2(h, "INSERT OR IGNORE INTO sources(hash, codec, size, body)"
							  " VALUES (?1, 'zlib', ?2, ?3)", -1, &st, NULL);
	if (s == SQLITE_OK)
		s = sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
	if (s == SQLITE_OK)
		s = sqlite3_bind_int64(st, 2, (sqlite3_int64)len);
	if (s == SQLITE_OK)
		s = sqlite3_bind_blob(st, 3, z, (int)zn, SQLITE_STATIC);
	if (s == SQLITE_OK)
		s = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
	if (s != SQLITE_OK) {
		rc = db_fail(err, n, "keeping source %s: %s%s", hash, sqlite3_errmsg(h),
					 db_full(d) ? " (the disk is full: free space and sweep again)" : "");
		goto done;
	}
	rc = 0;
done:
	sqlite3_finalize(st);
	free(z);
	return rc;
}

int db_source_get(struct db *d, const char *hash, char **src, char *err, size_t n)
{
	sqlite3 *h = NULL;
	sqlite3_stmt *st = NULL;
	char *out = NULL, sh[17];
	size_t size;
	int rc;

	*src = NULL;
	if (!hash || !*hash)
		return FDT_NOMATCH;
	if (db_handle(d, &h, err, n))
		return FDT_FAIL;
	if ((rc = db_zget(h, "SELECT codec, size, body FROM sources WHERE hash = ?1", hash,
			  "source", "hash", MAXSRC, &st, &out, &size, err, n)))
		return rc;
	gen_hash(out, sh);
	if (strlen(out) != size || strcmp(sh, hash)) {
		rc = db_fail(err, n, "source %s is damaged: it hashes to %s", hash, sh);
		goto done;
	}
	*src = out;
	out = NULL;
done:
	sqlite3_finalize(st);
	free(out);
	return rc;
}

int db_source_count(struct db *d, long long *count, char *err, size_t n)
{
	sqlite3 *h = NULL;
	struct res r;
	if (db_handle(d, &h, err, n))
		return FDT_FAIL;
	if (db_stmt(h, "SELECT count(*) FROM sources", NULL, 0, &r, "counting sources", err, n))
		return FDT_FAIL;
	*count = r.i[0];
	return 0;
}
