/*
 * t_source.c - cmocka tests of the sources a database keeps (schema 7,
 * db_source.c) and of the compact database made from a full one
 * (db_compact.c): a source kept comes back byte for byte, once per hash; one
 * that does not hash as its build says is refused; a damaged body is an
 * error, never a kernel; merge carries the sources of what it merges; a
 * compact copy keeps each problem's k fastest records with their builds and
 * sources, drops the rest and every compiler log, and refuses to overwrite.
 * Files live in a mkdtemp directory removed at the end.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db.h"
#include "gen.h"

static char dir[] = "/tmp/t_source.XXXXXX";
static char err[1024];

static const struct db_device gpu = { "nvidia", "Test GPU", "sm_90", "GPU-1", 132,
				      80LL << 30, 50LL << 20, 227 << 10, 1024 };

/* The first integer of sql's first row on d. */
static long long qi(struct db *d, const char *sql)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	long long v = -1;
	assert_int_equal(db_handle(d, &h, err, sizeof err), 0);
	assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* A kernel source of configuration i, distinct for each i. */
static void source(int i, char *buf, size_t n)
{
	snprintf(buf, n, "/* kernel %d */\nextern \"C\" __global__ void fdt_kernel(float *o)\n"
		 "{\n\to[threadIdx.x] = %d.0f;\n}\n", i, i);
}

/* nc configurations of one problem at path, configuration i timed at
 * 1 + i ms (so 0 is the fastest), each with a build of source(i) whose log
 * is "log i"; with keep, each build's source kept. */
static void fill(const char *path, int nc, int keep)
{
	struct db *d;
	long long dev, prob, sweep;
	assert_int_equal(db_open(path, &d, err, sizeof err), 0);
	assert_int_equal(db_device_id(d, &gpu, &dev, err, sizeof err), 0);
	assert_int_equal(db_problem_id(d, "xyz", 4, 64, 64, 64, "fp32", &prob, err, sizeof err), 0);
	assert_int_equal(db_sweep_begin(d, "fdtune sweep", "node1", dev, prob, "gpu", &sweep, err,
					sizeof err), 0);
	for (int i = 0; i < nc; i++) {
		char json[64], src[256], hash[17], log[32];
		long long cfg, build;
		snprintf(json, sizeof json, "{\"bx\":%d}", 16 * (i + 1));
		source(i, src, sizeof src);
		gen_hash(src, hash);
		snprintf(log, sizeof log, "log %d", i);
		assert_int_equal(db_config_id(d, "xyz", json, &cfg, err, sizeof err), 0);
		struct db_build b = { cfg, sweep, "nvrtc", "nvrtc 13.0", "sm_90", "-arch=sm_90", hash,
				      10, 32, 0, 0, "ok", log };
		assert_int_equal(db_build_add(d, &b, &build, err, sizeof err), 0);
		struct db_run r = { sweep, build, dev, prob, cfg, "ok", NULL, 1.0 + i, 1.0 + i,
				    1.0 + i, 30, 100, 100, 50, 1e-7, 1e-5 };
		assert_int_equal(db_run_add(d, &r, NULL, err, sizeof err), 0);
		if (keep)
			assert_int_equal(db_source_put(d, hash, src, err, sizeof err), 0);
	}
	db_close(d);
}

static void kept_and_read_back(void **st)
{
	char p[512], src[256], hash[17], *got = NULL;
	long long n;
	struct db *d;
	(void)st;
	snprintf(p, sizeof p, "%s/keep.db", dir);
	fill(p, 3, 1);
	assert_int_equal(db_open(p, &d, err, sizeof err), 0);
	assert_int_equal(db_version(d), DB_SCHEMA_LATEST);
	assert_int_equal(db_source_count(d, &n, err, sizeof err), 0);
	assert_int_equal(n, 3);
	source(1, src, sizeof src);
	gen_hash(src, hash);
	assert_int_equal(db_source_get(d, hash, &got, err, sizeof err), 0);
	assert_string_equal(got, src);
	free(got);
	/* kept once per hash; deflated, so the body is not the text */
	assert_int_equal(db_source_put(d, hash, src, err, sizeof err), 0);
	assert_int_equal(qi(d, "SELECT count(*) FROM sources"), 3);
	assert_int_equal(qi(d, "SELECT count(*) FROM sources WHERE codec = 'zlib' AND "
			       "CAST(body AS TEXT) LIKE '%kernel%'"), 0);
	/* a source that does not hash as its build says is refused */
	assert_int_equal(db_source_put(d, "0123456789abcdef", src, err, sizeof err), FDT_FAIL);
	assert_non_null(strstr(err, "hashes to"));
	/* none kept: FDT_NOMATCH, no text */
	got = (char *)1;
	assert_int_equal(db_source_get(d, "fedcba9876543210", &got, err, sizeof err), FDT_NOMATCH);
	assert_null(got);
	db_close(d);
}

static void damaged_is_an_error(void **st)
{
	char p[512], src[256], hash[17], sql[256], *got = NULL;
	struct db *d;
	sqlite3 *h;
	(void)st;
	snprintf(p, sizeof p, "%s/damaged.db", dir);
	fill(p, 2, 1);
	assert_int_equal(db_open(p, &d, err, sizeof err), 0);
	assert_int_equal(db_handle(d, &h, err, sizeof err), 0);
	source(0, src, sizeof src);
	gen_hash(src, hash);
	/* a body that is not deflated text */
	snprintf(sql, sizeof sql, "UPDATE sources SET body = x'00112233' WHERE hash = '%s'", hash);
	assert_int_equal(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(db_source_get(d, hash, &got, err, sizeof err), FDT_FAIL);
	assert_null(got);
	assert_non_null(strstr(err, "damaged"));
	/* another source's body under this hash: inflates, but hashes otherwise */
	source(1, src, sizeof src);
	gen_hash(src, sql + 200);
	snprintf(sql, 200, "UPDATE sources SET (body, size) = (SELECT body, size FROM sources "
		 "WHERE hash = '%s') WHERE hash = '%s'", sql + 200, hash);
	assert_int_equal(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(db_source_get(d, hash, &got, err, sizeof err), FDT_FAIL);
	assert_null(got);
	assert_non_null(strstr(err, "hashes to"));
	db_close(d);
}

static void merge_carries_sources(void **st)
{
	char a[512], b[512];
	struct db *d;
	long long runs, builds;
	(void)st;
	snprintf(a, sizeof a, "%s/msrc.db", dir);
	snprintf(b, sizeof b, "%s/mdst.db", dir);
	fill(a, 4, 1);
	assert_int_equal(db_open(b, &d, err, sizeof err), 0);
	assert_int_equal(db_merge(d, a, NULL, &runs, &builds, err, sizeof err), 0);
	assert_int_equal(runs, 4);
	assert_int_equal(qi(d, "SELECT count(*) FROM sources"), 4);
	assert_int_equal(qi(d, "SELECT count(*) FROM builds b JOIN sources s ON s.hash = "
			       "b.source_hash"), 4);
	db_close(d);
}

static void compact_keeps_the_fastest(void **st)
{
	char full[512], small[512];
	struct db *d;
	long long runs;
	(void)st;
	snprintf(full, sizeof full, "%s/full.db", dir);
	snprintf(small, sizeof small, "%s/small.db", dir);
	fill(full, 10, 1);
	assert_int_equal(db_compact(full, small, 3, &runs, err, sizeof err), 0);
	assert_int_equal(runs, 3);
	assert_int_equal(db_open(small, &d, err, sizeof err), 0);
	assert_int_equal(db_version(d), DB_SCHEMA_LATEST);
	/* the three fastest, their builds without logs, their configurations
	 * and sources; nothing else */
	assert_int_equal(qi(d, "SELECT count(*) FROM runs WHERE median_ms < 3.5"), 3);
	assert_int_equal(qi(d, "SELECT count(*) FROM builds"), 3);
	assert_int_equal(qi(d, "SELECT count(*) FROM builds WHERE log IS NOT NULL"), 0);
	assert_int_equal(qi(d, "SELECT count(*) FROM configs"), 3);
	assert_int_equal(qi(d, "SELECT count(*) FROM sources"), 3);
	assert_int_equal(qi(d, "SELECT count(*) FROM sweeps"), 1);
	assert_int_equal(qi(d, "SELECT count(*) FROM pragma_foreign_key_check"), 0);
	assert_int_equal(qi(d, "SELECT round(median_ms) FROM v_best"), 1);
	db_close(d);
	/* the full database is only read: as it was */
	assert_int_equal(db_open(full, &d, err, sizeof err), 0);
	assert_int_equal(qi(d, "SELECT count(*) FROM runs"), 10);
	assert_int_equal(qi(d, "SELECT count(*) FROM builds WHERE log IS NOT NULL"), 10);
	db_close(d);
	/* it writes a new file, never over one */
	assert_int_equal(db_compact(full, small, 3, &runs, err, sizeof err), FDT_FAIL);
	assert_non_null(strstr(err, "exists"));
	assert_int_equal(db_compact(full, small, 0, &runs, err, sizeof err), FDT_FAIL);
}

/* The records without a kept source are walked, fastest first. */
static int seen(void *ctx, const struct db_unkept *u)
{
	int *n = ctx;
	assert_int_equal(u->rank, *n + 1);
	assert_string_equal(u->family, "xyz");
	(*n)++;
	return 0;
}

static void unkept_records(void **st)
{
	char full[512], small[512];
	struct db *d;
	long long runs;
	int n = 0;
	(void)st;
	snprintf(full, sizeof full, "%s/nokeep.db", dir);
	snprintf(small, sizeof small, "%s/nokeep-small.db", dir);
	fill(full, 6, 0);
	assert_int_equal(db_compact(full, small, 5, &runs, err, sizeof err), 0);
	assert_int_equal(db_open(small, &d, err, sizeof err), 0);
	assert_int_equal(db_each_unkept(d, 4, seen, &n, err, sizeof err), 0);
	assert_int_equal(n, 4);
	db_close(d);
}

static int cleanup(void **state)
{
	char cmd[600];
	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(kept_and_read_back), cmocka_unit_test(damaged_is_an_error),
		cmocka_unit_test(merge_carries_sources), cmocka_unit_test(compact_keeps_the_fastest),
		cmocka_unit_test(unkept_records),
	};
	if (!mkdtemp(dir))
		return 1;
	return cmocka_run_group_tests_name("source", t, NULL, cleanup);
}
