/*
 * t_online.c: CPU tests of online tuning (tuner/online). The candidates of
 * a size the shipped H100 database has not seen (iso3dfd and xyz R = 8 at
 * 800x240x160) come from its records, ranked as the transfer search ranks
 * them, each with its kept source, and compile on the background thread
 * with the platform's run-time compiler, no GPU needed, through the compile
 * cache (a second size finds them built); a GPU model the
 * database lacks gets the same candidates from the H100's records. A kept
 * source that does not compile fails with the compiler's message, one
 * whose text is not the recorded one is passed over, and the others are
 * built. The choice, on made-up timings: every kernel timed in turn, a
 * built candidate validated first, a failed validation dropped, no choice
 * while a compile is pending, the fastest median chosen with the tuning's
 * cost, and the default again where the chosen is dropped.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "fdtune.h"
#include "gen.h"
#include "rt.h"
#include "tn_cache.h"
#include "tn.h"
#include "tn_online.h"
#include "t_util.h"

static char dir[] = "/tmp/fdt_onXXXXXX";
static char err[1024];

static const char *shipped(void)
{
	const char *p = getenv("RESULTS_DB");
	return p ? p : "results/h100/fdtune.db";
}

/* Runs sql on the database at path, which must take it. */
static void run_sql(const char *path, const char *sql)
{
	sqlite3 *h = NULL;
	assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
	if (sqlite3_exec(h, sql, NULL, NULL, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(h));
	assert_int_equal(sqlite3_close(h), SQLITE_OK);
}

/* Copies the database at from to dir/NAME.db, its path into path[0..n). */
static void copy_db(const char *from, const char *name, char *path, size_t n)
{
	char cmd[1024], out[1024];
	snprintf(path, n, "%s/%s.db", dir, name);
	snprintf(cmd, sizeof cmd, "cp '%s' '%s'", from, path);
	t_ok(cmd, out, sizeof out);
}

/* A copy of the shipped database without its code objects (made once):
 * the candidates compile, as from a database `fdtune codes` never filled. */
static const char *nocode(void)
{
	static char path[256];
	if (!*path) {
		copy_db(shipped(), "nocode", path, sizeof path);
		run_sql(path, "DELETE FROM codes");
	}
	return path;
}

static struct tn_problem problem(const char *fam, int r, int nx, int ny, int nz)
{
	struct tn_problem pb = { tn_family(fam), r, nx, ny, nz, "fp32", { 10, 10, 10 } };
	assert_non_null(pb.fam);
	return pb;
}

/* Opens the candidates of pb on device from the database at path, waits
 * for their compiles where join is 1, and checks what every candidate must
 * be. */
static struct tn_online *opened_n(const char *path, struct tn_problem pb, const char *device,
				  int join, int cands)
{
	struct tn_on_opts o = { cands, 0, NULL, NULL };
	struct db *d = NULL;
	struct tn_online *on = NULL;
	if (db_read(path, &d, err, sizeof err))
		fail_msg("%s: %s", path, err);
	/* the H100's arch, or on an AMD build the default target of hiprtc */
	if (tn_on_open(d, &pb, device, strcmp(rt_platform(), "nvidia") ? rt_default_arch() : "sm_90",
		       &o, &on, err, sizeof err))
		fail_msg("tn_on_open: %s", err);
	db_close(d);            /* the candidates hold their sources */
	if (join)
		tn_on_join(on);
	for (int i = 0; i < on->nc; i++) {
		const struct tn_on_cand *c = &on->c[i];
		assert_int_equal(strlen(c->hash), 16);
		assert_true(c->block[0] * c->block[1] * c->block[2] >= 32);
		assert_true(c->block[0] * c->block[1] * c->block[2] <= 1024);
		assert_true(c->grid[0] >= 1 && c->grid[1] >= 1 && c->grid[2] >= 1);
		assert_true(i == 0 || c->score <= on->c[i - 1].score);
		for (int j = 0; j < i; j++)
			assert_string_not_equal(c->params, on->c[j].params);
	}
	return on;
}

static struct tn_online *opened_j(const char *path, struct tn_problem pb, const char *device,
				  int join)
{
	return opened_n(path, pb, device, join, 0);
}

static void shipped_candidates(void **st)
{
	static const char *const fams[] = { "iso3dfd", "xyz" };
	char built[TN_ON_CANDS][17] = { "" };   /* iso3dfd's candidates' hashes */
	(void)st;
	if (access(shipped(), R_OK))
		skip();
	for (int f = 0; f < 2; f++) {
		/* xyz's compiles (0.5 s each) are left out: the same code */
		struct tn_online *on = opened_j(nocode(), problem(fams[f], 8, 800, 240, 160),
						"NVIDIA H100 80GB HBM3", f == 0);
		assert_int_equal(on->nc, TN_ON_CANDS);
		assert_true(on->kin >= 2);
		if (f) {
			for (int i = 0; i < on->nc; i++)
				assert_non_null(strstr(on->c[i].from, "H100"));
			tn_on_close(on);
			continue;
		}
		tn_on_report(on, stderr);
		for (int i = 0; i < on->nc; i++) {
			const struct tn_on_cand *c = &on->c[i];
			assert_non_null(strstr(c->from, "H100"));
			snprintf(built[i], sizeof built[i], "%s", c->hash);
			if (c->state != TN_ON_BUILT)
				fail_msg("%s candidate %d: %s", fams[f], i, c->why);
			assert_non_null(c->prog.code);
			assert_true(c->prog.size > 1000);
			assert_non_null(c->src);        /* kept with the records */
		}
		assert_true(on->compile_s > 0);
		/* the validation's comparison kernel, built first */
		assert_int_equal(on->cmp_state, 2);
		assert_non_null(on->cmp_prog.code);
		tn_on_close(on);
	}
	/* the second time, the compile cache has them (a source is its kernel
	 * at every size): where there is a cache */
	if (tn_cache_dir()) {
		struct tn_online *on = opened_j(nocode(), problem("iso3dfd", 8, 700, 300, 150),
						"NVIDIA H100 80GB HBM3", 1);
		int again = 0;
		for (int i = 0; i < on->nc; i++)
			for (int j = 0; j < TN_ON_CANDS; j++)
				if (!strcmp(on->c[i].hash, built[j])) {
					assert_string_equal(on->c[i].prog.log, "from the compile cache");
					again++;
				}
		assert_true(again >= 3);
		assert_string_equal(on->cmp_prog.log, "from the compile cache");
		tn_on_close(on);
	}
}

/* A GPU model the database has no record of: the H100's records, every
 * one "other", rank the same candidates. */
static void other_model(void **st)
{
	struct tn_online *a, *b;
	(void)st;
	if (access(shipped(), R_OK))
		skip();
	a = opened_j(shipped(), problem("xyz", 8, 800, 240, 160), "NVIDIA H100 80GB HBM3", 0);
	b = opened_j(shipped(), problem("xyz", 8, 800, 240, 160), "NVIDIA H200", 0);
	assert_int_equal(a->nc, b->nc);
	for (int i = 0; i < a->nc; i++)
		assert_string_equal(a->c[i].params, b->c[i].params);
	tn_on_close(a);
	tn_on_close(b);
}

/* The shipped database copied, its first candidate's kept source replaced
 * by one that does not compile (its hash its own), its second's by a text
 * that is not the one recorded. */
static void damaged_sources(void **st)
{
	char path[256], bad_hash[17], h1[17], h2[17];
	struct tn_online *on;
	struct db *d = NULL;
	sqlite3 *h = NULL;
	char *src = NULL, *bad, *sql;
	(void)st;
	if (access(shipped(), R_OK))
		skip();
	on = opened_j(nocode(), problem("iso3dfd", 8, 800, 240, 160), "NVIDIA H100 80GB HBM3", 0);
	assert_true(on->nc >= 3);
	snprintf(h1, sizeof h1, "%s", on->c[0].hash);
	snprintf(h2, sizeof h2, "%s", on->c[1].hash);
	tn_on_close(on);
	copy_db(nocode(), "damaged", path, sizeof path);
	assert_int_equal(db_open(path, &d, err, sizeof err), 0);
	assert_int_equal(db_source_get(d, h1, &src, err, sizeof err), 0);
	assert_non_null(bad = malloc(strlen(src) + 64));
	sprintf(bad, "#error fdtune test: a kept source that does not compile\n%s", src);
	gen_hash(bad, bad_hash);
	assert_int_equal(db_source_put(d, bad_hash, bad, err, sizeof err), 0);
	assert_int_equal(db_handle(d, &h, err, sizeof err), 0);
	sql = sqlite3_mprintf("UPDATE builds SET source_hash = '%q' WHERE source_hash = '%q';"
			      "UPDATE sources SET hash = 'fdt0000000000000' WHERE hash = '%q';"
			      "UPDATE builds SET source_hash = 'fdt0000000000000' WHERE"
			      " source_hash = '%q'", bad_hash, h1, h2, h2);
	assert_int_equal(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_free(sql);
	db_close(d);
	free(src);
	free(bad);

	on = opened_n(path, problem("iso3dfd", 8, 800, 240, 160), "NVIDIA H100 80GB HBM3", 1, 4);
	tn_on_report(on, stderr);
	assert_int_equal(on->damaged, 1);
	assert_int_equal(on->nc, 4);
	assert_string_equal(on->c[0].hash, bad_hash);
	assert_int_equal(on->c[0].state, TN_ON_FAILED);
	assert_non_null(strstr(on->c[0].why, "a kept source that does not compile"));
	assert_null(on->c[0].prog.code);
	for (int i = 1; i < on->nc; i++) {
		assert_string_not_equal(on->c[i].hash, "fdt0000000000000");
		assert_int_equal(on->c[i].state, TN_ON_BUILT);
	}
	/* the failed one never runs */
	for (int k = 0; k < 10; k++)
		assert_int_not_equal(tn_on_next(on), 0);
	tn_on_close(on);
}

/* The candidates of iso3dfd R = 8 at 800x240x160 from the database at
 * path, whose code for the source of hash h is unusable: that one is passed
 * over, and the others are loaded, built. */
static void passed_over(const char *path, const char *h)
{
	struct tn_online *on = opened_j(path, problem("iso3dfd", 8, 800, 240, 160),
					"NVIDIA H100 80GB HBM3", 0);
	assert_true(on->nocode >= 1);
	assert_true(on->nc >= 1);
	for (int i = 0; i < on->nc; i++) {
		assert_string_not_equal(on->c[i].hash, h);
		assert_int_equal(on->c[i].state, TN_ON_BUILT);
	}
	tn_on_close(on);
}

/* The shipped database keeps code objects (`fdtune codes`): the candidates
 * and the comparison kernel are built at the open, before any thread
 * compiles, and each is what this compiler makes of its source. A damaged
 * code object is passed over. `fdtune codes` fills a database without
 * codes, once, and refuses bad input. */
static void kept_codes(void **st)
{
	char path[256], cmd[1024], out[8192], args[1024], h1[17];
	struct tn_online *on;
	struct rt_prog p;
	(void)st;
	if (access(shipped(), R_OK) || strcmp(rt_platform(), "nvidia"))
		skip();                 /* the shipped codes are NVRTC's for sm_90 */
	on = opened_j(shipped(), problem("iso3dfd", 8, 800, 240, 160), "NVIDIA H100 80GB HBM3", 0);
	tn_on_report(on, stderr);
	assert_int_equal(on->nc, TN_ON_CANDS);
	assert_int_equal(on->loaded, on->nc);
	for (int i = 0; i < on->nc; i++) {
		assert_int_equal(on->c[i].state, TN_ON_BUILT);
		assert_string_equal(on->c[i].prog.log, "from the database's code objects");
		assert_true(on->c[i].prog.size > 1000);
	}
	assert_int_equal(on->cmp_state, 2);
	assert_non_null(on->cmp_prog.code);
	/* the first is what this NVRTC makes of its source */
	assert_int_equal(rt_compile(on->c[0].src, "t", "sm_90", NULL, 0, &p, err, sizeof err), 0);
	assert_int_equal(p.size, on->c[0].prog.size);
	assert_memory_equal(p.code, on->c[0].prog.code, p.size);
	rt_prog_free(&p);
	snprintf(h1, sizeof h1, "%s", on->c[0].hash);
	tn_on_join(on);
	assert_true(on->compile_s == 0);
	/* a code that sums right but is no code object: never loaded */
	{
		char key[40];
		struct db *d = NULL;
		struct db_code c;
		static const char junk[] = "not a code object, though its sum is right";
		copy_db(shipped(), "junkcode", path, sizeof path);
		tn_cache_key(on->c[0].src, on->cid, "sm_90", key);
		c = (struct db_code){ key, "sm_90", on->cid, h1, "0 0 0 1.0 -arch=sm_90" };
		assert_int_equal(db_open(path, &d, err, sizeof err), 0);
		assert_int_equal(db_code_put(d, &c, junk, sizeof junk, err, sizeof err), 0);
		db_close(d);
	}
	tn_on_close(on);
	passed_over(path, h1);

	/* its code damaged: passed over, the others still loaded */
	copy_db(shipped(), "badcode", path, sizeof path);
	snprintf(cmd, sizeof cmd, "UPDATE codes SET body = zeroblob(64) WHERE source_hash = '%s'", h1);
	run_sql(path, cmd);
	passed_over(path, h1);

	/* fdtune codes: fills, then finds them kept */
	copy_db(nocode(), "fill", path, sizeof path);
	snprintf(args, sizeof args, "codes --db '%s' --top 1", path);
	t_expect("", args, 0, "code objects kept now", out, sizeof out);
	assert_true(t_count(path, "SELECT count(*) FROM codes") > 10);
	t_expect("", args, 0, ": 0 code objects kept now", out, sizeof out);
	t_expect("", "codes --top 0", 2, "--top", out, sizeof out);
	snprintf(args, sizeof args, "codes --db '%s/none.db'", dir);
	t_expect("", args, 1, "none.db", out, sizeof out);
	snprintf(cmd, sizeof cmd, "%s/none.db", dir);
	assert_int_not_equal(access(cmd, F_OK), 0);
}

/* The comparison kernel compiles for both precisions, and its source is
 * the generated one (DO NOT EDIT). */
static void cmp_kernel(void **st)
{
	(void)st;
	for (int dbl = 0; dbl < 2; dbl++) {
		struct rt_prog p;
		const char *arch = strcmp(rt_platform(), "nvidia") ? rt_default_arch() : "sm_90";
		assert_non_null(strstr(tn_on_cmp_src(dbl), "DO NOT EDIT"));
		assert_non_null(strstr(tn_on_cmp_src(dbl), dbl ? "typedef double fd_real"
							   : "typedef float fd_real"));
		memset(&p, 0, sizeof p);
		if (rt_compile(tn_on_cmp_src(dbl), "cmp.m4", arch, NULL, 0, &p, err, sizeof err))
			fail_msg("cmp.m4, dbl %d: %s\n%s", dbl, err, p.log ? p.log : "");
		assert_non_null(p.code);
		rt_prog_free(&p);
	}
}

/* An online tuning of three candidates, made by hand (no database). */
static struct tn_online *three(enum tn_on_state s0, enum tn_on_state s1, enum tn_on_state s2)
{
	struct tn_online *on = calloc(1, sizeof *on);
	assert_non_null(on);
	assert_int_equal(pthread_mutex_init(&on->mu, NULL), 0);
	on->pb = problem("xyz", 4, 100, 100, 100);
	snprintf(on->arch, sizeof on->arch, "sm_90");
	on->nc = 3;
	on->tries = 5;
	on->turn = on->chosen = TN_ON_DEFAULT;
	on->cmp_state = 2;      /* the comparison done (none: the host compares) */
	on->c[0].state = s0;
	on->c[1].state = s1;
	on->c[2].state = s2;
	for (int i = 0; i < 3; i++)
		snprintf(on->c[i].params, sizeof on->c[i].params, "{\"k\":%d}", i);
	return on;
}

/* The time of kernel i in a made-up run: the default 1.0 ms, then 0.9, 0.8
 * and 1.2 ms, with a little noise that leaves the order. */
static double ms_of(int i, int step)
{
	static const double base[] = { 1.0, 0.9, 0.8, 1.2 };
	return base[i + 1] * (1 + 0.01 * ((step * 7) % 3 - 1));
}

static void choice_in_turn(void **st)
{
	struct tn_online *on = three(TN_ON_VALID, TN_ON_VALID, TN_ON_VALID);
	int seen[4] = { 0 }, step, k;
	(void)st;
	for (step = 0; step < 4; step++) {      /* every kernel once, before any twice */
		k = tn_on_next(on);
		seen[k + 1]++;
		tn_on_timed(on, k, ms_of(k, step));
	}
	assert_true(seen[0] == 1 && seen[1] == 1 && seen[2] == 1 && seen[3] == 1);
	for (; step < 20; step++) {
		assert_int_equal(on->settled, 0);
		k = tn_on_next(on);
		tn_on_timed(on, k, ms_of(k, step));
	}
	k = tn_on_next(on);     /* the 21st step chooses */
	assert_int_equal(on->settled, 1);
	assert_int_equal(k, 1);
	assert_int_equal(on->chosen, 1);
	assert_int_equal(on->steps_tuning, 21);
	/* 5 timings of each over the chosen's 0.8 ms: about 5 x (0.2 + 0.1 + 0 + 0.4) */
	assert_true(fabs(on->cost_ms - 3.5) < 0.1);
	for (step = 0; step < 50; step++)
		assert_int_equal(tn_on_next(on), 1);
	tn_on_timed(on, 1, NAN);
	tn_on_timed(on, 1, 0.1);        /* after the choice: not counted */
	assert_int_equal(on->c[1].nt, 5);
	tn_on_report(on, stderr);
	/* the chosen fails later: the default again */
	tn_on_drop(on, 1, "launch: made up");
	assert_int_equal(tn_on_next(on), TN_ON_DEFAULT);
	tn_on_close(on);
}

static void validation_first(void **st)
{
	struct tn_online *on = three(TN_ON_VALID, TN_ON_BUILT, TN_ON_COMPILING);
	int k, step;
	(void)st;
	assert_int_equal(tn_on_next(on), 1);    /* built: validated before anything */
	tn_on_checked(on, 1, 0, "max error 3e-2 over a bound of 1e-5");
	assert_int_equal(on->c[1].state, TN_ON_DROPPED);
	assert_non_null(strstr(on->c[1].why, "validation: max error"));
	tn_on_timed(on, 1, 0.01);               /* a dropped one's timing is ignored */
	assert_int_equal(on->c[1].nt, 0);
	for (step = 0; step < 40; step++) {     /* the compile pending: no choice */
		k = tn_on_next(on);
		assert_true(k == TN_ON_DEFAULT || k == 0);
		if (on->idle)                   /* waiting: the fastest so far, untimed */
			assert_int_equal(k, 0);
		else
			tn_on_timed(on, k, ms_of(k, step));
	}
	assert_int_equal(on->settled, 0);
	assert_int_equal(on->c[0].nt, 5);
	assert_int_equal(on->nd, 5);
	assert_int_equal(on->steps_waiting, 30);        /* the 40 less 10 timed */
	pthread_mutex_lock(&on->mu);
	on->c[2].state = TN_ON_BUILT;
	pthread_mutex_unlock(&on->mu);
	assert_int_equal(tn_on_next(on), 2);
	assert_int_equal(on->idle, 0);          /* a validation is not a waiting step */
	tn_on_checked(on, 2, 1, NULL);
	tn_on_timed(on, 2, ms_of(2, 0));
	for (step = 1; !on->settled && step < 100; step++) {
		k = tn_on_next(on);
		assert_int_equal(on->idle, 0);  /* nothing left to compile: no waiting */
		tn_on_timed(on, k, ms_of(k, step));
	}
	assert_int_equal(on->settled, 1);
	assert_int_equal(on->chosen, 0);        /* 0.9 against the default's 1.0 and 1.2 */
	assert_int_equal(on->c[2].nt, 5);
	tn_on_report(on, stderr);
	tn_on_close(on);
}

static void nothing_to_try(void **st)
{
	struct tn_online *on = three(TN_ON_FAILED, TN_ON_DROPPED, TN_ON_FAILED);
	int step;
	(void)st;
	for (step = 0; step < 6; step++) {
		assert_int_equal(tn_on_next(on), TN_ON_DEFAULT);
		tn_on_timed(on, TN_ON_DEFAULT, 1.0);
	}
	assert_int_equal(on->settled, 1);
	assert_int_equal(on->chosen, TN_ON_DEFAULT);
	assert_true(fabs(on->cost_ms) < 1e-9);
	tn_on_close(on);
}

/* The validation's comparison, on host copies of a span of xyz R = 2 at
 * 10x6x5 (rows of 16, planes of 10 rows). */
static void compare_checks(void **st)
{
	struct tn_problem pb = problem("xyz", 2, 10, 6, 5);
	struct fd_grid g = { 10, 6, 5, 16, 160 };
	long long lead, len;
	float *base, *a, *b;
	char why[512];
	(void)st;
	assert_non_null(base = aligned_alloc(256, 1 << 16));
	tn_on_span(&pb, &g, (char *)base + 4096, &lead, &len);
	assert_true(lead >= 2 * 160 + 2 * 16 + 2 && lead * 4 <= 4096);
	assert_int_equal(((uintptr_t)base + 4096 - (uintptr_t)(lead * 4)) % 256, 0);
	assert_true(len >= lead + 6 * 160 + 7 * 16 + 12);
	assert_non_null(a = malloc((size_t)len * sizeof *a));
	assert_non_null(b = malloc((size_t)len * sizeof *b));
	srand(7);
	for (long long t = 0; t < len; t++)
		a[t] = (float)rand() / RAND_MAX - 0.5f;
	/* poisoned: the interior near a's, the rest left as poison */
	memset(b, 0xff, (size_t)len * sizeof *b);
	for (int z = 0; z < 5; z++)
		for (int y = 0; y < 6; y++)
			for (int x = 0; x < 10; x++) {
				long long t = lead + z * 160 + y * 16 + x;
				b[t] = a[t] * (1 + 1e-6f);
			}
	assert_int_equal(tn_on_compare(&pb, &g, a, b, lead, len, 1, why, sizeof why), 0);
	b[lead + 3 * 160 + 2 * 16 + 4] += 0.01f;
	assert_int_equal(tn_on_compare(&pb, &g, a, b, lead, len, 1, why, sizeof why), 1);
	assert_non_null(strstr(why, "differs"));
	assert_non_null(strstr(why, "at 516 elements"));
	b[lead + 3 * 160 + 2 * 16 + 4] = NAN;
	assert_int_equal(tn_on_compare(&pb, &g, a, b, lead, len, 1, why, sizeof why), 1);
	b[lead + 3 * 160 + 2 * 16 + 4] = a[lead + 3 * 160 + 2 * 16 + 4];
	b[lead + 3 * 160 + 2 * 16 + 10] = 0;    /* x = nx: the halo */
	assert_int_equal(tn_on_compare(&pb, &g, a, b, lead, len, 1, why, sizeof why), 1);
	assert_non_null(strstr(why, "outside the interior, 522 elements"));
	/* not poisoned (a kernel that reads its output): the rest as a's */
	memcpy(b, a, (size_t)len * sizeof *b);
	assert_int_equal(tn_on_compare(&pb, &g, a, b, lead, len, 0, why, sizeof why), 0);
	b[lead - 1] = 1;                        /* x = -1 */
	assert_int_equal(tn_on_compare(&pb, &g, a, b, lead, len, 0, why, sizeof why), 1);
	assert_non_null(strstr(why, "outside the interior, -1 elements"));
	free(a);
	free(b);
	free(base);
}

static int dflt_calls;
static int dflt_kernel(void *ctx, void *const *fields)
{
	(void)fields;
	dflt_calls++;
	return *(int *)ctx;
}

/* Without a GPU (the CPU machine): the candidates are dropped, said once,
 * and the program's kernel runs every step; a failure of its own is the
 * step's. */
static void step_without_gpu(void **st)
{
	struct tn_on_opts o = { 2, 0, NULL, NULL };
	struct tn_problem pb = problem("iso3dfd", 8, 800, 240, 160);
	struct fd_grid g = { 800, 240, 160, 832, 832LL * 256 };
	float coef[28] = { 0 };
	void *fields[3] = { NULL, NULL, NULL };
	struct tn_online *on = NULL;
	struct db *d = NULL;
	int fail = 0, nd = 0;
	char why[256];
	struct tn_on_call k = { fields, 3, &g, coef, dflt_kernel, &fail };
	(void)st;
	if (access(shipped(), R_OK) || (!rt_init(&nd, why, sizeof why) && nd > 0))
		skip();                 /* a GPU: t_gpu runs the example online */
	assert_int_equal(db_read(shipped(), &d, err, sizeof err), 0);
	assert_int_equal(tn_on_open(d, &pb, "NVIDIA H100 80GB HBM3", "sm_90", &o, &on, err,
				    sizeof err), 0);
	db_close(d);
	assert_int_equal(on->nc, 2);
	k.nf = 0;
	assert_int_equal(tn_on_step(on, &k, err, sizeof err), FDT_USAGE);
	k.nf = 3;
	dflt_calls = 0;
	for (int s = 0; s < 10; s++)
		assert_int_equal(tn_on_step(on, &k, err, sizeof err), 0);
	assert_int_equal(dflt_calls, 10);
	tn_on_join(on);
	for (int i = 0; i < on->nc; i++)
		assert_int_equal(tn_on_state_of(on, i), TN_ON_DROPPED);
	assert_true(on->settled && on->chosen == TN_ON_DEFAULT);
	fail = 1;
	assert_int_equal(tn_on_step(on, &k, err, sizeof err), FDT_FAIL);
	assert_non_null(strstr(err, "own kernel failed"));
	tn_on_close(on);
}

/* A settled tuning of three candidates (the second fails its validation),
 * kept in a companion: one sweep of online tuning with 2 ok runs and a
 * wrong_result; the next open starts from the kept choice and its
 * runner-up, and fdtune_lookup answers the exact problem from the
 * companion (FDTUNE_ONLINE) while other sizes still come from the
 * database. */
static void kept_and_resumed(void **st)
{
	static const double base[] = { 1.0, 0.95, 0.80, 0.90 };    /* default, #1, #2 (dropped), #3 */
	struct tn_on_opts o = { 3, 2, NULL, NULL };
	struct tn_problem pb = problem("iso3dfd", 8, 800, 240, 160);
	const char *h100 = "NVIDIA H100 80GB HBM3";
	struct tn_online *on = NULL, *again = NULL;
	struct fdtune_config cfg;
	struct db *d = NULL, *learned = NULL;
	fdtune_db *lib = NULL;
	char comp[300], chosen[512], q[1024];
	(void)st;
	if (access(shipped(), R_OK))
		skip();
	snprintf(comp, sizeof comp, "%s/companion.db", dir);
	assert_int_equal(db_read(shipped(), &d, err, sizeof err), 0);
	assert_int_equal(tn_on_open(d, &pb, h100, "sm_90", &o, &on, err, sizeof err), 0);
	tn_on_join(on);
	assert_int_equal(on->nc, 3);
	assert_int_equal(tn_on_save(on, comp, "t_online", err, sizeof err), FDT_NOMATCH);
	for (int step = 0; step < 40 && !on->settled; step++) {
		int k = tn_on_next(on);
		if (k >= 0 && tn_on_state_of(on, k) == TN_ON_BUILT) {
			tn_on_checked(on, k, k != 1, "made up: max error 1e-2 over a bound of 1e-5");
			continue;
		}
		if (!on->settled)
			tn_on_timed(on, k, base[k + 1]);
	}
	assert_true(on->settled);
	assert_int_equal(on->chosen, 2);
	snprintf(chosen, sizeof chosen, "%s", on->c[2].params);
	assert_int_equal(tn_on_save(on, comp, "t_online kept_and_resumed", err, sizeof err), 0);
	tn_on_close(on);
	assert_int_equal(t_count(comp, "SELECT count(*) FROM sweeps WHERE mode = 'gpu' AND status ="
				 " 'done' AND cmdline = '" DB_ONLINE_CMD " t_online kept_and_resumed'"
				 " AND message LIKE 'chosen: {%'"), 1);
	assert_int_equal(t_count(comp, "SELECT count(*) FROM runs WHERE status = 'ok' AND reps = 2"
				 " AND median_ms > 0 AND gbs > 0"), 2);
	assert_int_equal(t_count(comp, "SELECT count(*) FROM runs WHERE status = 'wrong_result'"
				 " AND message LIKE 'validation: made up%'"), 1);
	assert_int_equal(t_count(comp, "SELECT count(*) FROM builds WHERE source_hash IN"
				 " (SELECT hash FROM sources)"), 3);
	snprintf(q, sizeof q, "SELECT count(*) FROM runs r JOIN configs c ON c.id = r.config_id"
		 " WHERE r.median_ms = 0.9 AND c.params = '%s'", chosen);
	assert_int_equal(t_count(comp, q), 1);

	/* the next run: the kept choice first, then its runner-up */
	assert_int_equal(db_read(comp, &learned, err, sizeof err), 0);
	o.learned = learned;
	o.tries = 4;            /* timed as a first run's, not fewer */
	assert_int_equal(tn_on_open(d, &pb, h100, "sm_90", &o, &again, err, sizeof err), 0);
	assert_int_equal(again->resumed, 1);
	assert_int_equal(again->nc, 2);
	assert_int_equal(again->tries, 4);
	assert_string_equal(again->c[0].params, chosen);
	assert_non_null(strstr(again->c[0].from, "earlier run"));
	tn_on_close(again);
	/* another GPU model learns nothing from it */
	assert_int_equal(tn_on_open(d, &pb, "NVIDIA H200", "sm_90", &o, &again, err, sizeof err), 0);
	assert_int_equal(again->resumed, 0);
	tn_on_close(again);
	db_close(learned);
	db_close(d);

	/* libfdtune's lookups consult the companion first, for the exact problem */
	assert_int_equal(setenv("FDTUNE_ONLINE_DB", comp, 1), 0);
	assert_int_equal(fdtune_open(shipped(), &lib, err, sizeof err), 0);
	assert_int_equal(fdtune_lookup(lib, "H100", "iso3dfd", 8, 800, 240, 160, "fp32", &cfg, err,
				       sizeof err), 0);
	assert_int_equal(cfg.source, FDTUNE_ONLINE);
	assert_string_equal(cfg.params, chosen);
	assert_int_equal(fdtune_lookup(lib, "H100", "iso3dfd", 8, 512, 512, 512, "fp32", &cfg, err,
				       sizeof err), 0);
	assert_int_equal(cfg.source, FDTUNE_EXACT);
	fdtune_close(lib);
	assert_int_equal(setenv("FDTUNE_ONLINE_DB", "", 1), 0);
	assert_int_equal(fdtune_open(shipped(), &lib, err, sizeof err), 0);
	assert_int_equal(fdtune_lookup(lib, "H100", "iso3dfd", 8, 800, 240, 160, "fp32", &cfg, err,
				       sizeof err), 0);
	assert_int_equal(cfg.source, FDTUNE_NEAREST);
	fdtune_close(lib);
	unsetenv("FDTUNE_ONLINE_DB");
}

/* The companion's path: FDTUNE_ONLINE_DB, else under HOME; none where the
 * variable is empty. */
static void companion_path(void **st)
{
	char p[512];
	const char *home = getenv("HOME");
	(void)st;
	assert_int_equal(setenv("FDTUNE_ONLINE_DB", "/x/y.db", 1), 0);
	assert_int_equal(fdtune_online_db(p, sizeof p), 0);
	assert_string_equal(p, "/x/y.db");
	assert_int_equal(setenv("FDTUNE_ONLINE_DB", "", 1), 0);
	assert_int_equal(fdtune_online_db(p, sizeof p), 1);
	assert_string_equal(p, "");
	unsetenv("FDTUNE_ONLINE_DB");
	if (home && *home) {
		char want[512];
		snprintf(want, sizeof want, "%s/.fdtune/online.db", home);
		assert_int_equal(fdtune_online_db(p, sizeof p), 0);
		assert_string_equal(p, want);
	}
}

static int setup(void **st)
{
	(void)st;
	unsetenv("FDTUNE_ONLINE_DB");   /* the tests say where it is */
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **st)
{
	(void)st;
	t_rmtree(dir);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(choice_in_turn),
		cmocka_unit_test(validation_first),
		cmocka_unit_test(nothing_to_try),
		cmocka_unit_test(compare_checks),
		cmocka_unit_test(cmp_kernel),
		cmocka_unit_test(step_without_gpu),
		cmocka_unit_test(shipped_candidates),
		cmocka_unit_test(other_model),
		cmocka_unit_test(damaged_sources),
		cmocka_unit_test(kept_codes),
		cmocka_unit_test(kept_and_resumed),
		cmocka_unit_test(companion_path),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
