/*
 * t_report.c: fdtune report. Each case runs the built binary ($FDTUNE) on a
 * copy of the H100 database (results/h100/fdtune.db next to the binary, or
 * $FDTUNE_REPORT_DB), its 512^3 problems only, in a mkdtemp directory and checks the exit status, the
 * message, report.md (device, best GB/s, copy bandwidth, a link to every
 * plot) and the plots (PNG and SVG files, non-empty, PNG magic bytes),
 * time against energy among them where the database measured it.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "t_util.h"

#include <dirent.h>
#include <libgen.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

static char dir[] = "/tmp/fdt_reportXXXXXX";
static char db[512], out[65536];

static void expect(const char *env, const char *args, int status, const char *needle)
{
	t_expect(env, args, status, needle, out, sizeof out);
}

/* The whole of file path, NUL-terminated, in a malloc'd buffer; *len its size. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b;
	long sz;
	if (!f)
		print_error("cannot open %s\n", path);
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	assert_true((sz = ftell(f)) >= 0);
	rewind(f);
	assert_non_null(b = malloc((size_t)sz + 1));
	assert_int_equal(fread(b, 1, (size_t)sz, f), (size_t)sz);
	b[sz] = 0;
	fclose(f);
	*len = (size_t)sz;
	return b;
}

/* The first column of the first row of sql on the copy, as text in b and
 * as a number (returned). */
static double query(const char *sql, char *b, size_t n)
{
	double v;
	sqlite3 *h;
	sqlite3_stmt *s;
	assert_int_equal(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &s, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	v = sqlite3_column_double(s, 0);
	snprintf(b, n, "%s", (const char *)sqlite3_column_text(s, 0));
	assert_int_equal(sqlite3_finalize(s), SQLITE_OK);
	assert_int_equal(sqlite3_close(h), SQLITE_OK);
	return v;
}

static int setup(void **st)
{
	const char *src = getenv("FDTUNE_REPORT_DB"), *bin = getenv("FDTUNE");
	char path[512], tmp[512];
	size_t len;
	char *b;
	FILE *f;
	(void)st;
	if (!src) {
		snprintf(tmp, sizeof tmp, "%s", bin ? bin : "./fdtune");
		snprintf(path, sizeof path, "%s/results/h100/fdtune.db", dirname(tmp));
		src = path;
	}
	if (!mkdtemp(dir))
		return -1;
	snprintf(db, sizeof db, "%s/h100.db", dir);
	b = slurp(src, &len);
	if (!(f = fopen(db, "wb")) || fwrite(b, 1, len, f) != len || fclose(f)) {
		free(b);
		return -1;
	}
	free(b);
	/* the cases count plots and runs of the 512^3 problems: drop the others */
	sqlite3 *h = NULL;
	int rc = sqlite3_open(db, &h) != SQLITE_OK ||
		 sqlite3_exec(h, "DELETE FROM runs WHERE problem_id IN (SELECT id FROM problems "
			      "WHERE nx <> 512 OR ny <> 512 OR nz <> 512)", NULL, NULL, NULL) != SQLITE_OK;
	if (sqlite3_close(h) != SQLITE_OK)
		rc = 1;
	return rc ? -1 : 0;
}

static int teardown(void **st)
{
	(void)st;
	t_rmtree(dir);
	return 0;
}

static int has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && !strcmp(s + a - b, suf);
}

/* "with N plots" for the H100's problem of xyz R = 4 in precision p: the
 * bandwidth plots (nw, block shape, radius) and, where its energy was
 * measured (v_energy), time against energy. */
static void plots_of(const char *p, char *want, size_t n)
{
	char sql[256], b[64];
	snprintf(sql, sizeof sql, "select count(distinct problem_id) from v_energy where family ="
		 " 'xyz' and radius = 4 and precision = '%s'", p);
	snprintf(want, n, "with %d plots", 3 + (int)query(sql, b, sizeof b));
}

static void full_report(void **st)
{
	char args[2048], rep[600], path[1024], name[256], want[300];
	char *md, *b;
	size_t len;
	int png = 0, svg = 0;
	struct dirent *e;
	DIR *d;
	(void)st;
	snprintf(rep, sizeof rep, "%s/out/report", dir);
	snprintf(args, sizeof args, "report --db %s --out %s -f xyz -r 4 --precision fp32", db, rep);
	plots_of("fp32", want, sizeof want);
	expect("", args, 0, want);

	snprintf(path, sizeof path, "%s/report.md", rep);
	md = slurp(path, &len);
	query("select name from devices", name, sizeof name);
	assert_non_null(strstr(md, name));
	snprintf(want, sizeof want, "| %.1f |",
		 query("select max(gbs) from v_current where family = 'xyz' and radius = 4 and "
		       "precision = 'fp32'", want,
		       sizeof want));
	if (!strstr(md, want))
		print_error("report.md lacks \"%s\":\n%s\n", want, md);
	assert_non_null(strstr(md, want));
	snprintf(want, sizeof want, "Copy bandwidth of the device, as last calibrated: %.0f GB/s",
		 query("select copy_gbs from devices order by calibrated_at desc limit 1", want,
		       sizeof want));
	assert_non_null(strstr(md, want));
	/* issue 35: each row says which copy bandwidth its % of copy is of: its
	 * own sweep's, gbs / pct_copy */
	assert_non_null(strstr(md, "| % of copy | of copy GB/s |"));
	snprintf(want, sizeof want, "| %.0f |",
		 query("select 100.0 * gbs / pct_copy from v_current where family = 'xyz' and"
		       " radius = 4 and precision = 'fp32' order by median_ms, run_id limit 1",
		       want, sizeof want));
	if (!strstr(md, want))
		print_error("report.md lacks the base \"%s\":\n%s\n", want, md);
	assert_non_null(strstr(md, want));
	assert_int_equal(t_count(db, "select count(*) from v_runs where status <> 'ok'"), 0);
	{       /* "(M runs)" when some configuration ran more than once */
		long long nc = t_count(db, "select count(distinct config_id) from v_runs where "
				       "family = 'xyz' and radius = 4 and precision = 'fp32'");
		long long nr = t_count(db, "select count(*) from v_runs where family = 'xyz' and "
				       "radius = 4 and precision = 'fp32'");
		char runs[64] = "";
		if (nr != nc)
			snprintf(runs, sizeof runs, " (%lld runs)", nr);
		snprintf(want, sizeof want, "Configurations run: %lld%s; %lld ok, 0 failed.", nc,
			 runs, nr);
		assert_non_null(strstr(md, want));
	}

	/* every image is linked, non-empty, and what its name says */
	assert_non_null(d = opendir(rep));
	while ((e = readdir(d))) {
		int is_png = has_suffix(e->d_name, ".png"), is_svg = has_suffix(e->d_name, ".svg");
		if (!is_png && !is_svg)
			continue;
		png += is_png;
		svg += is_svg;
		snprintf(want, sizeof want, "](%s)", e->d_name);
		if (!strstr(md, want))
			print_error("report.md does not link %s\n", e->d_name);
		assert_non_null(strstr(md, want));
		snprintf(path, sizeof path, "%s/%s", rep, e->d_name);
		b = slurp(path, &len);
		assert_true(len > 0);
		if (is_png)
			assert_memory_equal(b, "\x89PNG\r\n\x1a\n", 8);
		else
			assert_non_null(strstr(b, "<svg"));
		free(b);
	}
	closedir(d);
	plots_of("fp32", want, sizeof want);
	assert_int_equal(png, atoi(want + 5));
	assert_int_equal(svg, atoi(want + 5));
	/* and every link leads to a file */
	for (const char *p = md; (p = strstr(p, "](")); p += 2) {
		const char *q = strchr(p, ')');
		struct stat sb;
		assert_non_null(q);
		snprintf(path, sizeof path, "%s/%.*s", rep, (int)(q - p - 2), p + 2);
		if (stat(path, &sb))
			print_error("report.md links %s, which is missing\n", path);
		assert_int_equal(stat(path, &sb), 0);
	}
	free(md);
	snprintf(path, sizeof path, "%s/plots.gp", rep);
	free(slurp(path, &len));
	assert_true(len > 0);
}

static void no_match(void **st)
{
	char args[2048], rep[600], want[64];
	struct stat sb;
	(void)st;
	snprintf(rep, sizeof rep, "%s/none", dir);
	/* issue 23: an unknown family is a usage error, as for gen and sweep */
	snprintf(args, sizeof args, "report --db %s --out %s -f nope", db, rep);
	expect("", args, 2, "--family 'nope': unknown; families: xyz");
	snprintf(args, sizeof args, "report --db %s --out %s -f dxy -r 8", db, rep);
	expect("", args, 3, "nothing to report: no runs in");
	assert_non_null(strstr(out, "match --family dxy --radius 8"));
	snprintf(args, sizeof args, "report --db %s --out %s --device NoSuchGPU -r 2", db, rep);
	expect("", args, 3, "match --device NoSuchGPU --radius 2");
	assert_int_equal(stat(rep, &sb), -1); /* nothing written */
	snprintf(args, sizeof args, "report --db %s --out %s/filtered --device H100 -r 4 -f xyz "
		 "--precision fp32", db, dir);
	plots_of("fp32", want, sizeof want);
	expect("", args, 0, want);
	snprintf(args, sizeof args, "report --db %s --out %s/f64 --device H100 -r 4 -f xyz "
		 "--precision fp64", db, dir);
	plots_of("fp64", want, sizeof want);
	expect("", args, 0, want);                      /* the fp64 problem of the table */
}

static void bad_input(void **st)
{
	char args[2048], missing[600];
	struct stat sb;
	(void)st;
	snprintf(missing, sizeof missing, "%s/missing.db", dir);
	snprintf(args, sizeof args, "report --db %s --out %s/x", missing, dir);
	expect("", args, 1, "no database at");
	assert_non_null(strstr(out, missing));
	assert_int_equal(stat(missing, &sb), -1); /* not created */
	expect("", "report --help", 0, "usage: fdtune report");
	expect("", "report -r 9", 2, "--radius");
	expect("", "report extra", 2, "unexpected argument 'extra'");
	/* without gnuplot on PATH: the data are written, the message says what to install */
	snprintf(args, sizeof args, "report --db %s --out %s/nognuplot", db, dir);
	expect("PATH=/nonexistent", args, 1, "install gnuplot-nox (apt-get install gnuplot-nox)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(full_report),
		cmocka_unit_test(no_match),
		cmocka_unit_test(bad_input),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
