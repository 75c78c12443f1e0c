/*
 * t_db.c - cmocka tests for the results database (db/): schema creation and
 * connection settings, insert-or-get, the best-run report in CSV and table
 * form, migration from schema 1, and refusal to touch foreign, corrupt or
 * newer files, and the sweeps of dead processes marked interrupted (schema
 * 5).  Every file lives in a mkdtemp directory removed at the end.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "t_util.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db.h"

static char dir[256];
static char err[1024];

static void mkpath(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", dir, name);
}

static int setup_all(void **state)
{
	const char *t = getenv("TMPDIR");

	(void)state;
	snprintf(dir, sizeof dir, "%s/t_db.XXXXXX", t && *t ? t : "/tmp");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown_all(void **state)
{
	char p[512];
	struct dirent *e;
	DIR *dp = opendir(dir);

	(void)state;
	if (!dp)
		return -1;
	while ((e = readdir(dp))) {
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			mkpath(p, sizeof p, e->d_name);
			unlink(p);
		}
	}
	closedir(dp);
	return rmdir(dir);
}

/* First column of the first row of sql, as text ("" for no row / NULL). */
static void q(struct db *d, const char *sql, char *out, size_t n)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	const unsigned char *t;

	assert_int_equal(db_handle(d, &h, err, sizeof err), 0);
	assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
	out[0] = 0;
	if (sqlite3_step(st) == SQLITE_ROW && (t = sqlite3_column_text(st, 0)))
		snprintf(out, n, "%s", (const char *)t);
	assert_int_equal(sqlite3_finalize(st), SQLITE_OK);
}

static long long qi(struct db *d, const char *sql)
{
	char b[64];

	q(d, sql, b, sizeof b);
	return atoll(b);
}

/* Runs sql on path through a plain sqlite3 connection. */
static void raw(const char *path, const char *sql)
{
	sqlite3 *h;

	assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_close(h), SQLITE_OK);
}

/* Contents and mtime of a file, to prove that it was left alone. */
struct snap { char *buf; long len; struct timespec mtime; };

static struct snap snap(const char *path)
{
	struct snap s;
	struct stat st;
	FILE *f = fopen(path, "rb");

	assert_non_null(f);
	assert_int_equal(stat(path, &st), 0);
	s.len = (long)st.st_size;
	s.mtime = st.st_mtim;
	s.buf = malloc((size_t)s.len + 1);
	assert_non_null(s.buf);
	assert_int_equal(fread(s.buf, 1, (size_t)s.len, f), (size_t)s.len);
	fclose(f);
	return s;
}

static void same(const char *path, struct snap *a)
{
	struct snap b = snap(path);
	char side[600];

	assert_int_equal(a->len, b.len);
	assert_memory_equal(a->buf, b.buf, (size_t)a->len);
	assert_int_equal(a->mtime.tv_sec, b.mtime.tv_sec);
	assert_int_equal(a->mtime.tv_nsec, b.mtime.tv_nsec);
	snprintf(side, sizeof side, "%s-wal", path);
	assert_int_not_equal(access(side, F_OK), 0);
	snprintf(side, sizeof side, "%s-journal", path);
	assert_int_not_equal(access(side, F_OK), 0);
	free(a->buf);
	free(b.buf);
}

/* Runs db_best into memory; returns the text (caller frees) and *rc. */
static char *best(struct db *d, const struct db_filter *f, enum db_fmt fmt, int all, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	assert_non_null(m);
	err[0] = 0;
	*rc = db_best(d, f, fmt, all, m, err, sizeof err);
	assert_int_equal(fclose(m), 0);
	return buf;
}

/* Splits the RFC 4180 record at *s (ending in CRLF) into f; returns the
 * field count and advances *s past the record. */
static int record(const char **s, char f[][512], int max)
{
	const char *p = *s;
	int nf = 0;
	size_t k;

	for (;;) {
		assert_true(nf < max);
		k = 0;
		if (*p == '"') {
			for (p++; !(*p == '"' && p[1] != '"'); p++) {
				assert_true(*p != 0);
				if (*p == '"')
					p++;
				assert_true(k < 511);
				f[nf][k++] = *p;
			}
			p++;
		} else {
			while (*p && *p != ',' && *p != '\r' && *p != '\n') {
				assert_true(k < 511);
				f[nf][k++] = *p++;
			}
		}
		f[nf++][k] = 0;
		if (*p != ',')
			break;
		p++;
	}
	assert_true(p[0] == '\r' && p[1] == '\n');
	*s = p + 2;
	return nf;
}

/* Column index of name in a CSV header. */
static int col(char f[][512], int nf, const char *name)
{
	for (int i = 0; i < nf; i++)
		if (!strcmp(f[i], name))
			return i;
	fail_msg("no column %s", name);
	return -1;
}

static const struct db_device gpu = {"nvidia", "NVIDIA H100 80GB HBM3", "sm_90", "GPU-1234",
									 132, 85LL << 30, 50LL << 20, 232448, 1024};

/* Device, problem, sweep and a config with one ok build; ids returned. */
struct ids { long long dev, prob, sweep, cfg, build; };

static struct ids base(struct db *d, const char *params)
{
	struct ids x;
	struct db_build b = {0, 0, "nvcc", "12.4", "sm_90", "-O3", "abc123", 812.5, 40, 0, 0, "ok", NULL};

	assert_int_equal(db_device_id(d, &gpu, &x.dev, err, sizeof err), 0);
	assert_int_equal(db_problem_id(d, "star3d", 4, 256, 256, 256, "fp32", &x.prob, err, sizeof err), 0);
	assert_int_equal(db_sweep_begin(d, "fdtune sweep", "node1", x.dev, x.prob, "gpu", &x.sweep, err,
									sizeof err), 0);
	assert_int_equal(db_config_id(d, "star3d", params, &x.cfg, err, sizeof err), 0);
	b.config_id = x.cfg;
	b.sweep_id = x.sweep;
	assert_int_equal(db_build_add(d, &b, &x.build, err, sizeof err), 0);
	return x;
}

static long long run(struct db *d, const struct ids *x, long long cfg, long long build,
					 const char *status, double ms)
{
	struct db_run r = {x->sweep, build, x->dev, x->prob, cfg, status, NULL, ms, ms * 0.9, ms * 1.1,
					   20, 1000.0 / ms, 2.0e4 / ms, 50.0 / ms, 1e-7, 1e-5};
	long long id = 0;

	if (strcmp(status, "ok"))
		r.gbs = r.mcells = r.pct_copy = NAN;
	assert_int_equal(db_run_add(d, &r, &id, err, sizeof err), 0);
	assert_true(id > 0);
	return id;
}

/* A second configuration of x's problem, {"bx":64,"by":2}, into *cfg, and
 * its build (64 registers); returns the build's id. */
static long long second(struct db *d, const struct ids *x, long long *cfg)
{
	struct db_build b = {0, 0, "nvcc", "12.4", "sm_90", "-O3", "def456", 900, 64, 4096, 16, "ok", "log"};
	long long id;

	assert_int_equal(db_config_id(d, "star3d", "{\"bx\":64,\"by\":2}", cfg, err, sizeof err), 0);
	b.config_id = *cfg;
	b.sweep_id = x->sweep;
	assert_int_equal(db_build_add(d, &b, &id, err, sizeof err), 0);
	return id;
}

static void test_fresh(void **state)
{
	char p[512], b[64];
	struct db *d = NULL;
	struct db_run bad = {0, 0, 999, 999, 999, "ok", NULL, 1, 1, 1, 1, 1, 1, 1, 0, 0};
	long long id;

	(void)state;
	mkpath(p, sizeof p, "fresh.db");
	assert_int_equal(db_open(p, &d, err, sizeof err), 0);
	assert_int_equal(db_version(d), DB_SCHEMA_LATEST);
	q(d, "PRAGMA journal_mode", b, sizeof b);
	assert_string_equal(b, "wal");
	assert_int_equal(qi(d, "PRAGMA foreign_keys"), 1);
	assert_int_equal(qi(d, "PRAGMA busy_timeout"), 5000);
	assert_int_equal(qi(d, "PRAGMA synchronous"), 1); /* NORMAL */
	assert_int_equal(qi(d, "PRAGMA application_id"), DB_APPLICATION_ID);
	assert_int_equal(qi(d, "SELECT count(*) FROM sqlite_master WHERE type = 'view'"), 7);
	/* foreign keys are enforced, and the failure is explained */
	assert_int_not_equal(db_run_add(d, &bad, &id, err, sizeof err), 0);
	assert_non_null(strstr(err, "FOREIGN KEY"));
	assert_int_not_equal(db_sweep_begin(d, "x", "h", 0, 999, "gpu", &id, err, sizeof err), 0);
	db_close(d);
	/* reopening an up-to-date file changes nothing */
	assert_int_equal(db_open(p, &d, err, sizeof err), 0);
	assert_int_equal(db_version(d), DB_SCHEMA_LATEST);
	db_close(d);
	/* bad arguments */
	assert_int_not_equal(db_open_version(p, DB_SCHEMA_LATEST + 1, &d, err, sizeof err), 0);
	assert_null(d);
	mkpath(p, sizeof p, "no/such/dir.db");
	assert_int_not_equal(db_open(p, &d, err, sizeof err), 0);
	assert_non_null(strstr(err, p));
}

static void test_insert_or_get(void **state)
{
	char p[512];
	struct db *d;
	struct db_device dev = gpu;
	long long a, b, c;
	double gbs = -1;

	(void)state;
	mkpath(p, sizeof p, "ids.db");
	assert_int_equal(db_open(p, &d, err, sizeof err), 0);
	assert_int_equal(db_device_id(d, &dev, &a, err, sizeof err), 0);
	dev.sms = 0; /* unknown: must not overwrite */
	dev.max_threads = 2048;
	assert_int_equal(db_device_id(d, &dev, &b, err, sizeof err), 0);
	assert_int_equal(a, b);
	assert_int_equal(qi(d, "SELECT sms FROM devices"), 132);
	assert_int_equal(qi(d, "SELECT max_threads FROM devices"), 2048);
	dev.uuid = "GPU-other";
	assert_int_equal(db_device_id(d, &dev, &c, err, sizeof err), 0);
	assert_int_not_equal(a, c);

	assert_int_equal(db_device_copy(d, a, &gbs, err, sizeof err), 0);
	assert_true(gbs == 0.0);
	assert_int_equal(db_device_set_copy(d, a, 3000.5, 2900.0, 1LL << 30, err, sizeof err), 0);
	assert_int_equal(db_device_copy(d, a, &gbs, err, sizeof err), 0);
	assert_true(gbs == 3000.5);
	assert_int_equal(qi(d, "SELECT count(*) FROM devices WHERE calibrated_at LIKE '20%Z'"), 1);
	assert_int_not_equal(db_device_set_copy(d, 12345, 1, 1, 1, err, sizeof err), 0);
	assert_non_null(strstr(err, "12345"));
	assert_int_not_equal(db_device_copy(d, 12345, &gbs, err, sizeof err), 0);

	assert_int_equal(db_problem_id(d, "star3d", 2, 64, 64, 64, "fp64", &a, err, sizeof err), 0);
	assert_int_equal(db_problem_id(d, "star3d", 2, 64, 64, 64, "fp64", &b, err, sizeof err), 0);
	assert_int_equal(a, b);
	assert_int_equal(db_problem_id(d, "star3d", 2, 64, 64, 64, "fp32", &c, err, sizeof err), 0);
	assert_int_not_equal(a, c);
	assert_int_not_equal(db_problem_id(d, "star3d", 2, 0, 64, 64, "fp32", &c, err, sizeof err), 0);

	assert_int_equal(db_config_id(d, "star3d", "{\"bx\":32}", &a, err, sizeof err), 0);
	assert_int_equal(db_config_id(d, "star3d", "{\"bx\":32}", &b, err, sizeof err), 0);
	assert_int_equal(a, b);
	assert_int_equal(db_config_id(d, "star3d", "{\"bx\":64}", &c, err, sizeof err), 0);
	assert_int_not_equal(a, c);
	assert_int_not_equal(db_config_id(d, "star3d", "{bx:", &c, err, sizeof err), 0);
	assert_non_null(strstr(err, "json_valid"));
	assert_int_equal(qi(d, "SELECT count(*) FROM configs"), 2);

	/* a look-up alone: the id where the configuration is, -1 where not,
	 * and nothing written either way */
	assert_int_equal(db_config_find(d, "star3d", "{\"bx\":32}", &b, err, sizeof err), 0);
	assert_int_equal(b, a);
	assert_int_equal(db_config_find(d, "star3d", "{\"bx\":128}", &b, err, sizeof err), 0);
	assert_int_equal(b, -1);
	assert_int_equal(db_config_find(d, "other", "{\"bx\":32}", &b, err, sizeof err), 0);
	assert_int_equal(b, -1);
	assert_int_equal(qi(d, "SELECT count(*) FROM configs"), 2);
	db_close(d);
}

static void test_roundtrip(void **state)
{
	char p[512], f[24][512], b[64];
	const char *s;
	struct db *d;
	struct ids x;
	struct db_filter flt = {NULL, NULL, NULL, 0, 0, 0, 0, DB_OBJ_TIME};
	long long cfg2, cfg3, build2, slow, fast;
	char *out;
	int rc, nf;

	(void)state;
	mkpath(p, sizeof p, "round.db");
	assert_int_equal(db_open(p, &d, err, sizeof err), 0);
	x = base(d, "{\"bx\":32,\"by\":4}");
	build2 = second(d, &x, &cfg2);
	slow = run(d, &x, x.cfg, x.build, "ok", 2.0);
	fast = run(d, &x, cfg2, build2, "ok", 1.5);
	/* fastest, but wrong: a configuration of its own (a wrong result of one
     * with an ok run would take its record away: test_newest_is_record) */
	assert_int_equal(db_config_id(d, "star3d", "{\"bx\":16,\"by\":16}", &cfg3, err, sizeof err), 0);
	run(d, &x, cfg3, x.build, "wrong_result", 0.5);
	assert_int_equal(db_sweep_end(d, x.sweep, "done", 100, 40, NULL, err, sizeof err), 0);
	assert_int_not_equal(db_sweep_end(d, x.sweep, "running", 1, 1, NULL, err, sizeof err), 0);
	assert_int_not_equal(db_sweep_end(d, 999, "done", 1, 1, NULL, err, sizeof err), 0);
	assert_non_null(strstr(err, "sweep 999"));
	q(d, "SELECT status || ' ' || n_space || ' ' || (ended IS NOT NULL) FROM sweeps", b, sizeof b);
	assert_string_equal(b, "done 100 1");
	assert_int_equal(qi(d, "SELECT count(*) FROM runs WHERE status <> 'ok' AND gbs IS NULL"), 1);

	out = best(d, NULL, DB_CSV, 0, &rc);
	assert_int_equal(rc, 0);
	s = out;
	nf = record(&s, f, 24);
	assert_int_equal(col(f, nf, "run_id"), nf - 1);
	int crun = col(f, nf, "run_id"), cms = col(f, nf, "median_ms"), cpar = col(f, nf, "params"),
		creg = col(f, nf, "regs"), cdev = col(f, nf, "device"), csize = col(f, nf, "nx");
	assert_int_equal(record(&s, f, 24), nf);
	assert_int_equal(atoll(f[crun]), fast);
	assert_string_equal(f[cms], "1.5");
	assert_string_equal(f[cpar], "{\"bx\":64,\"by\":2}");
	assert_string_equal(f[creg], "64");
	assert_string_equal(f[cdev], gpu.name);
	assert_string_equal(f[csize], "256");
	assert_string_equal(s, ""); /* one row only */
	free(out);

	/* the view agrees, and counts the failure */
	assert_int_equal(qi(d, "SELECT run_id FROM v_best"), fast);
	assert_int_equal(qi(d, "SELECT n FROM v_failures WHERE status = 'wrong_result'"), 1);
	assert_int_equal(qi(d, "SELECT count(*) FROM v_failures"), 1);
	assert_int_equal(qi(d, "SELECT count(*) FROM v_runs"), 3);

	/* all = 1: both ok runs, ranked */
	out = best(d, NULL, DB_CSV, 1, &rc);
	assert_int_equal(rc, 0);
	s = out;
	nf = record(&s, f, 24);
	assert_string_equal(f[0], "rank");
	crun = col(f, nf, "run_id");
	record(&s, f, 24);
	assert_string_equal(f[0], "1");
	assert_int_equal(atoll(f[crun]), fast);
	record(&s, f, 24);
	assert_string_equal(f[0], "2");
	assert_int_equal(atoll(f[crun]), slow);
	assert_string_equal(s, "");
	free(out);

	/* table: header line plus one aligned row */
	flt.device = "sm_9"; /* matches the arch */
	flt.radius = 4;
	out = best(d, &flt, DB_TABLE, 0, &rc);
	assert_int_equal(rc, 0);
	assert_true(strncmp(out, "device", 6) == 0);
	assert_non_null(strstr(out, "GB/s"));
	assert_non_null(strstr(out, "256x256x256"));
	assert_non_null(strstr(out, "1.5000"));
	assert_int_equal(strchr(strchr(out, '\n') + 1, '\n')[1], 0); /* two lines */
	assert_true(strstr(out, "params") - out == strstr(out, "{\"bx\"") - strchr(out, '\n') - 1);
	free(out);

	/* no match: nothing printed, distinct code, explained */
	flt.radius = 2;
	out = best(d, &flt, DB_CSV, 0, &rc);
	assert_int_equal(rc, FDT_NOMATCH);
	assert_string_equal(out, "");
	assert_non_null(strstr(err, "no successful runs match"));
	free(out);
	flt.radius = 0;
	flt.family = "box3d";
	out = best(d, &flt, DB_TABLE, 1, &rc);
	assert_int_equal(rc, FDT_NOMATCH);
	assert_string_equal(out, "");
	assert_string_equal(err, "no successful runs match the filters (device ~sm_9, family box3d)");
	free(out);
	db_close(d);
}

/* db_each_record's callback: the records as "ms params;" in walk order. */
static int rec_cat(void *ctx, const char *params, double ms)
{
	char *s = ctx;
	size_t o = strlen(s);

	snprintf(s + o, 512 - o, "%g %s;", ms, params);
	return 0;
}

/* db_each_related's callback: each row's other flag, appended ("01"...). */
static int rel_other(void *ctx, const struct db_related_row *w)
{
	char *s = ctx;

	if (strlen(s) < 1)
		s[strlen(s)] = w->other ? '1' : '0';
	return 0;
}

/* A configuration's record is its newest run where that is ok: a slower run
 * of the fastest configuration again hands the best to the next one, in the
 * view, in db_best, db_pick, db_each_record and db_run_recorded alike; a
 * timeout after it changes nothing, a wrong result takes the record away;
 * the time a run was made decides, not its id. */
static void test_newest_is_record(void **state)
{
	char p[512], b[128], recs[512] = "";
	struct db *d = NULL;
	struct ids x;
	struct db_pick pk;
	long long cfg2, build2, lucky, other, again;
	double ms;
	char *out;
	int rc, yes;

	(void)state;
	mkpath(p, sizeof p, "newest.db");
	assert_int_equal(db_open(p, &d, err, sizeof err), 0);
	x = base(d, "{\"bx\":32,\"by\":4}");
	build2 = second(d, &x, &cfg2);
	lucky = run(d, &x, x.cfg, x.build, "ok", 1.0);
	other = run(d, &x, cfg2, build2, "ok", 1.2);
	assert_int_equal(qi(d, "SELECT run_id FROM v_best"), lucky);
	again = run(d, &x, x.cfg, x.build, "ok", 1.3);
	run(d, &x, x.cfg, x.build, "timeout", NAN);

	assert_int_equal(qi(d, "SELECT run_id FROM v_best"), other);
	assert_int_equal(qi(d, "SELECT count(*) FROM v_current"), 2);
	q(d, "SELECT group_concat(run_id, ' ') FROM (SELECT run_id FROM v_current ORDER BY run_id)",
	  b, sizeof b);
	snprintf(recs, sizeof recs, "%lld %lld", other, again);
	assert_string_equal(b, recs);
	assert_int_equal(qi(d, "SELECT cast(ms * 10 AS int) FROM v_passes"), 12);
	out = best(d, NULL, DB_CSV, 0, &rc);
	assert_int_equal(rc, 0);
	snprintf(recs, sizeof recs, ",%lld\r\n", other);
	assert_non_null(strstr(out, recs));
	free(out);
	out = best(d, NULL, DB_CSV, 1, &rc);        /* every record: two rows, not three */
	assert_int_equal(rc, 0);
	snprintf(recs, sizeof recs, ",%lld\r\n", lucky);
	assert_null(strstr(out, recs));
	free(out);
	assert_int_equal(db_pick(d, NULL, 0, &pk, err, sizeof err), 0);
	assert_int_equal(pk.run, other);
	assert_int_equal(db_pick(d, NULL, lucky, &pk, err, sizeof err), 0);   /* asked for by id */
	assert_int_equal(pk.run, lucky);
	recs[0] = 0;
	assert_int_equal(db_each_record(d, x.dev, x.prob, 5, rec_cat, recs, err, sizeof err), 0);
	assert_string_equal(recs, "1.2 {\"bx\":64,\"by\":2};1.3 {\"bx\":32,\"by\":4};");
	recs[0] = 0;
	assert_int_equal(db_each_record(d, x.dev, x.prob, 1, rec_cat, recs, err, sizeof err), 0);
	assert_string_equal(recs, "1.2 {\"bx\":64,\"by\":2};");
	assert_int_equal(db_run_recorded(d, x.dev, x.prob, x.cfg, &yes, &ms, err, sizeof err), 0);
	assert_int_equal(yes, 1);
	assert_true(ms > 1.29 && ms < 1.31);

	/* a wrong result after it: that configuration has no record now */
	{
		long long bad = run(d, &x, cfg2, build2, "wrong_result", 0.9);
		assert_true(bad > 0);
		assert_int_equal(qi(d, "SELECT run_id FROM v_best"), again);
		assert_int_equal(qi(d, "SELECT count(*) FROM v_current"), 1);
		recs[0] = 0;
		assert_int_equal(db_each_record(d, x.dev, x.prob, 5, rec_cat, recs, err, sizeof err), 0);
		assert_string_equal(recs, "1.3 {\"bx\":32,\"by\":4};");
	}

	/* a merged run keeps the time it was made: an older one with a higher id is not newer */
	snprintf(b, sizeof b, "UPDATE runs SET created = '2001-01-01T00:00:00Z' WHERE id = %lld", again);
	db_close(d);
	raw(p, b);
	assert_int_equal(db_open(p, &d, err, sizeof err), 0);
	assert_int_equal(qi(d, "SELECT run_id FROM v_best"), lucky);
	db_close(d);
}

/* Two boards of one model (their UUIDs differ) pool their runs: a run on
 * one is recorded for the other, db_run_add_once on the other adds nothing,
 * and the relatives of a problem on one board include the other's records
 * as the same device's; a board of another model shares none of it. */
static void test_boards_of_a_model(void **state)
{
	char p[512];
	struct db *d = NULL;
	struct ids x;
	struct db_device b2 = gpu, h200 = gpu;
	long long dev2, dev3, prob2, id = -1;
	double ms = 0;
	int yes = 0;
	char other[2] = "";

	(void)state;
	mkpath(p, sizeof p, "boards.db");
	assert_int_equal(db_open(p, &d, err, sizeof err), 0);
	x = base(d, "{\"bx\":32,\"by\":4}");
	run(d, &x, x.cfg, x.build, "ok", 1.0);
	b2.uuid = "GPU-5678";
	h200.name = "NVIDIA H200";
	h200.uuid = "GPU-1234";                     /* the same UUID string, another model */
	assert_int_equal(db_device_id(d, &b2, &dev2, err, sizeof err), 0);
	assert_int_equal(db_device_id(d, &h200, &dev3, err, sizeof err), 0);
	assert_int_not_equal(dev2, x.dev);
	assert_int_not_equal(dev3, x.dev);
	assert_int_equal(db_run_recorded(d, dev2, x.prob, x.cfg, &yes, &ms, err, sizeof err), 0);
	assert_int_equal(yes, 1);
	assert_true(ms > 0.99 && ms < 1.01);
	assert_int_equal(db_run_recorded(d, dev3, x.prob, x.cfg, &yes, &ms, err, sizeof err), 0);
	assert_int_equal(yes, 0);
	assert_true(ms < 0);
	struct db_run r = {x.sweep, x.build, dev2, x.prob, x.cfg, "ok", NULL, 0.5, 0.5, 0.5,
					   20, 1, 1, 1, 1e-7, 1e-5};
	assert_int_equal(db_run_add_once(d, &r, &id, err, sizeof err), 0);
	assert_int_equal(id, 0);
	r.device_id = dev3;
	assert_int_equal(db_run_add_once(d, &r, &id, err, sizeof err), 0);
	assert_true(id > 0);
	/* another size on board 2: board 1's record is a relative on the same device */
	assert_int_equal(db_problem_id(d, "star3d", 4, 128, 128, 128, "fp32", &prob2, err,
								   sizeof err), 0);
	struct db_related rq = {0};
	rq.device_id = dev2;
	rq.problem_id = prob2;
	rq.k = 5;
	assert_int_equal(db_each_related(d, &rq, rel_other, other, err, sizeof err), 0);
	assert_string_equal(other, "0");
	db_close(d);
}

static void test_migration(void **state)
{
	char p[512];
	struct db *d;
	struct ids x;
	long long id;
	char *out;
	int rc;

	(void)state;
	mkpath(p, sizeof p, "mig.db");
	assert_int_equal(db_open_version(p, 1, &d, err, sizeof err), 0);
	assert_int_equal(db_version(d), 1);
	assert_int_equal(qi(d, "SELECT count(*) FROM sqlite_master WHERE type IN ('view','index')"
						   " AND sql IS NOT NULL"), 0);
	assert_int_equal(qi(d, "SELECT count(*) FROM sqlite_master WHERE type = 'table'"), 6);
	x = base(d, "{\"bx\":16}");
	id = run(d, &x, x.cfg, x.build, "ok", 3.25);
	run(d, &x, x.cfg, x.build, "timeout", NAN);
	out = best(d, NULL, DB_CSV, 0, &rc);
	assert_int_equal(rc, FDT_FAIL); /* needs the v2 views */
	assert_non_null(strstr(err, "db_open"));
	free(out);
	db_close(d);

	assert_int_equal(db_open(p, &d, err, sizeof err), 0);
	assert_int_equal(db_version(d), DB_SCHEMA_LATEST);
	assert_int_equal(qi(d, "SELECT count(*) FROM sqlite_master WHERE name IN"
						   " ('v_runs','v_best','v_failures','runs_dev_prob_status','builds_config',"
						   " 'v_passes','v_strategies','v_current')"), 8);
	/* v3: a fused problem with no passes recorded has no multi-pass times */
	assert_int_equal(qi(d, "SELECT count(*) FROM v_strategies WHERE two_pass_ms IS NULL"), 0);
	assert_int_equal(qi(d, "SELECT run_id FROM v_best"), id);
	assert_int_equal(qi(d, "SELECT n FROM v_failures WHERE status = 'timeout'"), 1);
	assert_int_equal(qi(d, "SELECT count(*) FROM runs"), 2);
	db_close(d);
}

static void test_foreign(void **state)
{
	char p[512];
	struct snap s;
	struct db *d = (struct db *)&d; /* non-NULL: a failed open must reset it */

	(void)state;
	mkpath(p, sizeof p, "foreign.db");
	raw(p, "CREATE TABLE songs(title TEXT); INSERT INTO songs VALUES('x');");
	s = snap(p);
	assert_int_not_equal(db_open(p, &d, err, sizeof err), 0);
	assert_null(d);
	assert_non_null(strstr(err, "not an fdtune database"));
	assert_non_null(strstr(err, p));
	assert_non_null(strstr(err, "1 tables"));
	same(p, &s);

	/* a foreign application id alone is enough */
	mkpath(p, sizeof p, "appid.db");
	raw(p, "PRAGMA application_id = 42;");
	s = snap(p);
	assert_int_not_equal(db_open(p, &d, err, sizeof err), 0);
	assert_non_null(strstr(err, "0x0000002a"));
	same(p, &s);
}

static void test_corrupt(void **state)
{
	char p[512], sql[256];
	struct snap s;
	struct db *d;
	FILE *f;
	int i;

	(void)state;
	mkpath(p, sizeof p, "random.db");
	f = fopen(p, "wb");
	assert_non_null(f);
	srand(7);
	for (i = 0; i < 8192; i++)
		fputc(i == 0 ? 'X' : rand() & 0xff, f);
	assert_int_equal(fclose(f), 0);
	s = snap(p);
	assert_int_not_equal(db_open(p, &d, err, sizeof err), 0);
	assert_non_null(strstr(err, p));
	assert_non_null(strstr(err, "move it aside"));
	same(p, &s);

	/* a valid header over damaged pages: caught by quick_check */
	mkpath(p, sizeof p, "damaged.db");
	snprintf(sql, sizeof sql, "PRAGMA page_size = 4096; CREATE TABLE t(x); INSERT INTO t VALUES(1);"
			 " PRAGMA application_id = %d; PRAGMA user_version = 2;", DB_APPLICATION_ID);
	raw(p, sql);
	f = fopen(p, "r+b");
	assert_non_null(f);
	assert_int_equal(fseek(f, 4096, SEEK_SET), 0);
	for (i = 0; i < 4096; i++)
		fputc(0xa5, f);
	assert_int_equal(fclose(f), 0);
	s = snap(p);
	assert_int_not_equal(db_open(p, &d, err, sizeof err), 0);
	assert_non_null(strstr(err, p));
	assert_non_null(strstr(err, "move it aside"));
	same(p, &s);
}

/* A reader (db_read) opens a database without SQLite's quick_check, which
 * reads every page: a damaged page fails the query that reads it, and
 * db_damaged says so; db_read_checked (merge's sources, compact, seeds)
 * refuses the file at open, naming it. Nothing is written either way. */
static void test_damaged_pages(void **state)
{
	char p[512];
	struct snap s;
	struct db *d;
	struct ids x;
	char *out;
	int rc;

	(void)state;
	mkpath(p, sizeof p, "pages.db");
	assert_int_equal(db_open(p, &d, err, sizeof err), 0);
	x = base(d, "{\"bx\":32,\"by\":4}");
	for (int i = 0; i < 600; i++)     /* runs over several pages */
		run(d, &x, x.cfg, x.build, "ok", 1.0 + i);
	assert_int_equal(db_sweep_end(d, x.sweep, "done", 600, 600, NULL, err, sizeof err), 0);
	db_close(d);
	t_damage_root(p, "runs");
	s = snap(p);
	assert_int_equal(db_read(p, &d, err, sizeof err), 0);
	assert_int_equal(db_damaged(d, NULL), 0);
	out = best(d, NULL, DB_CSV, 0, &rc);
	free(out);
	assert_int_not_equal(rc, 0);
	assert_int_equal(db_damaged(d, NULL), 1);
	assert_int_equal(db_damaged(NULL, err), 1);     /* SQLite's words in the message */
	db_close(d);
	assert_int_equal(db_read_checked(p, &d, err, sizeof err), FDT_FAIL);
	assert_null(d);
	assert_non_null(strstr(err, p));
	assert_non_null(strstr(err, "quick_check"));
	assert_non_null(strstr(err, "move it aside"));
	assert_int_equal(db_damaged(NULL, "no such table: runs"), 0);
	same(p, &s);
}

static void test_newer(void **state)
{
	char p[512];
	struct snap s;
	struct db *d;

	(void)state;
	mkpath(p, sizeof p, "newer.db");
	assert_int_equal(db_open(p, &d, err, sizeof err), 0);
	db_close(d);
	raw(p, "PRAGMA user_version = 99;");
	s = snap(p);
	assert_int_not_equal(db_open(p, &d, err, sizeof err), 0);
	assert_non_null(strstr(err, "newer"));
	assert_non_null(strstr(err, "99"));
	same(p, &s);
}

static void test_csv_quoting(void **state)
{
	static const char params[] = "{\"name\":\"a,b\",\"say\":\"\\\"hi\\\"\",\"n\":[1,2]}";
	char p[512], f[24][512];
	const char *s;
	struct db *d;
	struct ids x;
	char *out;
	int rc, nf;

	(void)state;
	mkpath(p, sizeof p, "csv.db");
	assert_int_equal(db_open(p, &d, err, sizeof err), 0);
	x = base(d, params);
	run(d, &x, x.cfg, x.build, "ok", 1.0);
	struct db_run le = {0, 0, x.dev, x.prob, x.cfg, "load_error", "no image", NAN, NAN, NAN, -1,
						NAN, NAN, NAN, NAN, NAN};
	assert_int_equal(db_run_add(d, &le, NULL, err, sizeof err), 0); /* id is optional */
	assert_int_equal(qi(d, "SELECT count(*) FROM runs WHERE status = 'load_error' AND reps IS NULL"
						   " AND median_ms IS NULL AND sweep_id IS NULL AND build_id IS NULL"), 1);
	out = best(d, NULL, DB_CSV, 0, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "\"{\"\"name\"\":\"\"a,b\"\",\"\"say\"\":\"\"\\\"\"hi\\\"\"\"\""));
	s = out;
	nf = record(&s, f, 24);
	int cpar = col(f, nf, "params"), cdev = col(f, nf, "device");
	assert_int_equal(record(&s, f, 24), nf);
	assert_string_equal(f[cpar], params);
	assert_string_equal(f[cdev], gpu.name);
	assert_string_equal(s, "");
	free(out);
	db_close(d);
}

/* v5: a sweep records its process; sweeps of this host whose process is
 * gone (dead pid, or a pid reused by another process) are marked
 * interrupted, those of other hosts and live ones are left running. */
static void test_reap(void **state)
{
	char p[512], host[256] = "", sql[512], *log = NULL;
	size_t loglen = 0;
	struct db *d;
	struct ids x;
	long long mine, dead, reused, old;
	int reaped = -1;
	pid_t child;
	FILE *m;

	(void)state;
	assert_int_equal(gethostname(host, sizeof host - 1), 0);
	mkpath(p, sizeof p, "reap.db");
	/* a sweep recorded at schema 4 has no pid: it cannot be judged */
	assert_int_equal(db_open_version(p, 4, &d, err, sizeof err), 0);
	x = base(d, "{\"bx\":8}");
	assert_int_equal(db_sweep_begin(d, "fdtune sweep old", host, x.dev, x.prob, "gpu", &old, err,
									sizeof err), 0);
	db_close(d);
	assert_int_equal(db_open(p, &d, err, sizeof err), 0);
	assert_int_equal(db_version(d), DB_SCHEMA_LATEST);
	snprintf(sql, sizeof sql, "SELECT count(*) FROM sweeps WHERE pid IS NULL AND proc_id IS NULL"
			 " AND id IN (%lld, %lld)", x.sweep, old);
	assert_int_equal(qi(d, sql), 2);
	assert_int_equal(db_sweep_begin(d, "fdtune sweep", host, x.dev, x.prob, "gpu", &mine, err,
									sizeof err), 0);
	snprintf(sql, sizeof sql, "SELECT pid FROM sweeps WHERE id = %lld AND proc_id LIKE '%%/%%'",
			 mine);
	assert_int_equal(qi(d, sql), getpid());
	/* a process that has exited: its pid is free (or another's) */
	child = fork();
	assert_true(child >= 0);
	if (child == 0)
		_exit(0);
	assert_int_equal(waitpid(child, NULL, 0), child);
	assert_int_equal(db_sweep_begin(d, "fdtune sweep dead", host, x.dev, x.prob, "gpu", &dead,
									err, sizeof err), 0);
	snprintf(sql, sizeof sql, "UPDATE sweeps SET pid = %d WHERE id = %lld", (int)child, dead);
	assert_int_equal(qi(d, sql), 0);
	/* our pid, but another process's identity: the pid was reused */
	assert_int_equal(db_sweep_begin(d, "fdtune sweep reused", host, x.dev, x.prob, "gpu", &reused,
									err, sizeof err), 0);
	snprintf(sql, sizeof sql, "UPDATE sweeps SET proc_id = 'another-boot/1' WHERE id = %lld",
			 reused);
	assert_int_equal(qi(d, sql), 0);
	m = open_memstream(&log, &loglen);
	assert_non_null(m);
	assert_int_equal(db_reap_sweeps(d, m, &reaped, err, sizeof err), 0);
	assert_int_equal(fclose(m), 0);
	assert_int_equal(reaped, 2);
	snprintf(sql, sizeof sql, "SELECT group_concat(id || ':' || status, ' ') FROM (SELECT * FROM"
			 " sweeps WHERE id IN (%lld, %lld, %lld, %lld, %lld) ORDER BY id)", x.sweep, old, mine,
			 dead, reused);
	{
		char got[256], want[256];
		q(d, sql, got, sizeof got);
		snprintf(want, sizeof want, "%lld:running %lld:running %lld:running %lld:interrupted"
				 " %lld:interrupted", x.sweep, old, mine, dead, reused);
		assert_string_equal(got, want);
	}
	snprintf(sql, sizeof sql, "SELECT count(*) FROM sweeps WHERE id = %lld AND ended IS NOT NULL"
			 " AND message LIKE '%%pid %d%%gone%%'", dead, (int)child);
	assert_int_equal(qi(d, sql), 1);
	snprintf(sql, sizeof sql, "sweep %lld, started", dead);
	assert_non_null(strstr(log, sql));
	assert_non_null(strstr(log, "marked interrupted"));
	free(log);
	/* nothing left to mark: a second pass changes nothing */
	assert_int_equal(db_reap_sweeps(d, NULL, &reaped, err, sizeof err), 0);
	assert_int_equal(reaped, 0);
	/* what is still running is listed with its host and age */
	log = NULL;
	m = open_memstream(&log, &loglen);
	assert_non_null(m);
	assert_int_equal(db_live_sweeps(d, m, "  ", &reaped, err, sizeof err), 0);
	assert_int_equal(fclose(m), 0);
	assert_int_equal(reaped, 3);
	assert_non_null(strstr(log, "running on host node1 since "));
	assert_non_null(strstr(log, " min ago)"));
	assert_null(strstr(log, "interrupted"));
	free(log);
	db_close(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fresh),     cmocka_unit_test(test_insert_or_get),
		cmocka_unit_test(test_roundtrip), cmocka_unit_test(test_migration),
		cmocka_unit_test(test_foreign),   cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_newer),     cmocka_unit_test(test_csv_quoting),
		cmocka_unit_test(test_damaged_pages),
		cmocka_unit_test(test_reap),      cmocka_unit_test(test_newest_is_record),
		cmocka_unit_test(test_boards_of_a_model),
	};

	return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
