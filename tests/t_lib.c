/*
 * t_lib.c: libfdtune on a copy of the H100 database: an exact match, the
 * nearest size, the default when the device or database is missing (every
 * family's, checked against the family descriptors this program links
 * with), bad files, families, radii, sizes and precisions; and `make
 * install` with a program built through pkg-config, as docs/export.md's
 * example does.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "t_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "fdtune.h"
#include "tn.h"

static char dir[] = "/tmp/fdt_libXXXXXX", db[256];

static void lookups(void **st)
{
	struct fdtune_config c;
	fdtune_db *d;
	char err[512];
	(void)st;
	assert_int_equal(fdtune_open(db, &d, err, sizeof err), 0);
	/* the best run of the sweep */
	assert_int_equal(fdtune_lookup(d, "H100", "xyz", 4, 512, 512, 512, "fp32", &c, err, sizeof err), 0);
	assert_int_equal(c.source, FDTUNE_EXACT);
	assert_true(c.gbs > 0 && c.median_ms > 0);
	assert_int_equal((long long)(c.gbs * 10),
			 t_count(db, "select cast(max(gbs) * 10 as int) from v_current where status='ok' "
				 "and family = 'xyz' and radius = 4 and nx = 512 and precision = 'fp32'"));
	assert_int_equal(fdtune_param(&c, "vec", -1),
			 t_count(db, "select json_extract(params,'$.vec') from v_best where family = 'xyz' "
				 "and radius = 4 and nx = 512 and precision = 'fp32'"));
	assert_int_equal(fdtune_param(&c, "nope", 7), 7);
	assert_string_equal(c.device, "NVIDIA H100 80GB HBM3");
	/* by arch, at a size never run: the nearest */
	assert_int_equal(fdtune_lookup(d, "sm_90", "xyz", 4, 300, 300, 300, "fp32", &c, err, sizeof err), 0);
	assert_int_equal(c.source, FDTUNE_NEAREST);
	assert_int_equal(c.nx, 256);
	/* another device, another radius: the default */
	assert_int_equal(fdtune_lookup(d, "gfx90a", "xyz", 4, 512, 512, 512, "fp32", &c, err, sizeof err), 0);
	assert_int_equal(c.source, FDTUNE_DEFAULT);
	assert_int_equal(fdtune_param(&c, "lds", -1), 2);
	assert_int_equal(fdtune_lookup(d, "gfx90a", "xyz", 7, 512, 512, 512, "fp32", &c, err, sizeof err), 0);
	assert_int_equal(c.source, FDTUNE_DEFAULT);
	assert_int_equal(c.radius, 7);
	assert_int_equal(fdtune_param(&c, "pf", -1), 0);        /* fits 48 KiB at R >= 7 */
	/* a radius swept too: the best of that sweep */
	assert_int_equal(fdtune_lookup(d, "H100", "xyz", 8, 512, 512, 512, "fp32", &c, err, sizeof err), 0);
	assert_int_equal(c.source, FDTUNE_EXACT);
	assert_int_equal((long long)(c.gbs * 10),
			 t_count(db, "select cast(max(gbs) * 10 as int) from v_current where status='ok' "
				 "and family = 'xyz' and radius = 8 and nx = 512 and precision = 'fp32'"));
	assert_int_not_equal(fdtune_lookup(d, "H100", "nope", 4, 8, 8, 8, "fp32", &c, err, sizeof err), 0);
	assert_non_null(strstr(err, "unknown family 'nope'"));
	fdtune_close(d);
	/* no database at all */
	assert_int_equal(fdtune_lookup(NULL, "H100", "xyz", 2, 64, 64, 64, "fp32", &c, err, sizeof err), 0);
	assert_int_equal(c.source, FDTUNE_DEFAULT);
	assert_non_null(strstr(c.params, "\"vec\":2"));
}

/* Issue 26: the H100's and the H200's results in one database (merged as
 * results/README.md says). Each device's name gets its own best, and a
 * device the database does not know gets the family default, not another
 * device's best. */
static void two_devices(void **st)
{
	const char *root = getenv("ROOT"), *exe = getenv("FDTUNE");
	struct fdtune_config c;
	fdtune_db *d;
	char err[512], two[300], cmd[1200];
	static const char q[] = "select cast(min(median_ms) * 1e6 as int) from runs r join devices v "
				"on v.id = r.device_id join problems p on p.id = r.problem_id where "
				"r.id in (select run_id from v_current) and p.family = 'xyz' and p.radius = 8 and "
				"p.nx = 512 and "
				"p.ny = 512 and p.nz = 512 and p.precision = 'fp32' and v.name like ";
	char qq[sizeof q + 32];
	(void)st;
	if (!root || !exe)
		skip();
	snprintf(two, sizeof two, "%s/two.db", dir);
	snprintf(cmd, sizeof cmd, "rm -f %s && '%s' merge --db %s %s '%s/results/h200/fdtune.db' "
		 ">/dev/null", two, exe, two, db, root);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(fdtune_open(two, &d, err, sizeof err), 0);
	assert_int_equal(fdtune_lookup(d, "H200", "xyz", 8, 512, 512, 512, "fp32", &c, err, sizeof err), 0);
	assert_int_equal(c.source, FDTUNE_EXACT);
	assert_string_equal(c.device, "NVIDIA H200");
	snprintf(qq, sizeof qq, "%s'%%H200%%'", q);
	assert_int_equal((long long)(c.median_ms * 1e6), t_count(two, qq));
	assert_int_equal(fdtune_lookup(d, "H100", "xyz", 8, 512, 512, 512, "fp32", &c, err, sizeof err), 0);
	assert_int_equal(c.source, FDTUNE_EXACT);
	assert_string_equal(c.device, "NVIDIA H100 80GB HBM3");
	snprintf(qq, sizeof qq, "%s'%%H100%%'", q);
	assert_int_equal((long long)(c.median_ms * 1e6), t_count(two, qq));
	/* the H200 at a size only the H100 ran: the H200's nearest, not the H100's exact */
	assert_int_equal(fdtune_lookup(d, "H200", "xyz", 8, 640, 480, 400, "fp32", &c, err, sizeof err), 0);
	assert_int_equal(c.source, FDTUNE_NEAREST);
	assert_string_equal(c.device, "NVIDIA H200");
	/* a device it does not know: the default */
	assert_int_equal(fdtune_lookup(d, "B200", "xyz", 8, 512, 512, 512, "fp32", &c, err, sizeof err), 0);
	assert_int_equal(c.source, FDTUNE_DEFAULT);
	assert_int_equal(c.median_ms, 0);
	fdtune_close(d);
}

/* With nothing recorded, every family's lookup gives its descriptor's
 * default (tuner/fam/, dflt: issue 23; libfdtune knew xyz's alone), as it
 * is where that fits 48 KiB of LDS per block, and one that fits at every
 * radius and precision. */
static void family_defaults(void **st)
{
	sqlite3 *h;
	sqlite3_stmt *q;
	char err[512];
	(void)st;
	assert_int_equal(sqlite3_open(":memory:", &h), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(h, "SELECT key, value FROM json_each(?1)", -1, &q, NULL),
			 SQLITE_OK);
	for (int i = 0; tn_families[i]; i++) {
		const struct tn_family *f = tn_families[i];
		struct fdtune_config c;
		int np = 0;
		assert_int_equal(fdtune_lookup(NULL, "any", f->name, 4, 512, 512, 512, "fp32", &c, err,
					       sizeof err), 0);
		assert_int_equal(c.source, FDTUNE_DEFAULT);
		assert_string_equal(c.family, f->name);
		sqlite3_reset(q);
		assert_int_equal(sqlite3_bind_text(q, 1, f->dflt, -1, SQLITE_STATIC), SQLITE_OK);
		while (sqlite3_step(q) == SQLITE_ROW) {
			const char *k = (const char *)sqlite3_column_text(q, 0);
			if (fdtune_param(&c, k, -1) != sqlite3_column_int(q, 1))
				fail_msg("%s's default: %s=%d, the descriptor has %d", f->name, k,
					 fdtune_param(&c, k, -1), sqlite3_column_int(q, 1));
			np++;
		}
		assert_int_equal(c.np, np);
		for (int r = 1; r <= 8; r++)
			for (int p = 0; p < 2; p++) {
				const char *prec = p ? "fp64" : "fp32";
				struct tn_problem pb = { f, r, 512, 512, 512, prec, { 1, 1, 1 } };
				struct tn_limits lim;
				int v[TN_MAXP];
				char why[256];
				assert_int_equal(fdtune_lookup(NULL, "any", f->name, r, 512, 512, 512, prec, &c,
							       err, sizeof err), 0);
				for (int k = 0; k < f->np; k++)
					v[k] = fdtune_param(&c, f->p[k].name, f->p[k].v[0]);
				tn_limits_of_arch("sm_90", &lim);
				lim.lds_optin = 48 * 1024;
				if (f->check(&pb, v, &lim, why, sizeof why))
					fail_msg("%s R=%d %s: the default %s does not fit 48 KiB: %s", f->name,
						 r, prec, c.params, why);
			}
	}
	sqlite3_finalize(q);
	sqlite3_close(h);
}

/* issue 23: a problem fdtune cannot tune is an error, not a default labelled
 * with it; a device is matched literally ('%' is no wildcard). */
static void bad_arguments(void **st)
{
	static const struct { int r, nx; const char *prec, *why; } bad[] = {
		{ 0, 64, "fp32", "radius 0" }, { 9, 64, "fp32", "radius 9" },
		{ -1, 64, "fp32", "radius -1" }, { 4, 0, "fp32", "size 0x64x64" },
		{ 4, -5, "fp32", "size -5x64x64" }, { 4, 64, "fp16", "precision 'fp16'" },
	};
	struct fdtune_config c;
	fdtune_db *d;
	char err[512];
	(void)st;
	assert_int_equal(fdtune_open(db, &d, err, sizeof err), 0);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		for (int k = 0; k < 2; k++) {   /* with the database and without */
			err[0] = 0;
			assert_int_not_equal(fdtune_lookup(k ? NULL : d, "H100", "xyz", bad[i].r,
							   bad[i].nx, 64, 64, bad[i].prec, &c, err,
							   sizeof err), 0);
			if (!strstr(err, bad[i].why))
				print_error("%s: %s\n", bad[i].why, err);
			assert_non_null(strstr(err, bad[i].why));
		}
	assert_int_equal(fdtune_lookup(d, "h100", "xyz", 4, 512, 512, 512, "fp32", &c, err,
				       sizeof err), 0);
	assert_int_equal(c.source, FDTUNE_EXACT);       /* ASCII case aside */
	assert_int_equal(fdtune_lookup(d, "H100%", "xyz", 4, 512, 512, 512, "fp32", &c, err,
				       sizeof err), 0);
	assert_int_equal(c.source, FDTUNE_DEFAULT);     /* no device is called H100% */
	fdtune_close(d);
}

/* Checks that line (export --which's, or NAME_which's "SIZE CFG") names the
 * recorded size of c and, parameter by parameter, its configuration. */
static void same_pick(const char *line, const struct fdtune_config *c, const char *what)
{
	char size[64], tok[64];
	const char *s;
	int off;
	snprintf(size, sizeof size, "%dx%dx%d", c->nx, c->ny, c->nz);
	if (!(s = strstr(line, size)))
		fail_msg("%s: '%s' does not name %s, libfdtune's pick (%s)", what, line, size, c->params);
	s += strlen(size);
	s += *s == ':';
	for (; sscanf(s, " %63[^ \n]%n", tok, &off) == 1; s += off) {
		char *eq = strchr(tok, '=');
		if (!eq || (*eq = 0, fdtune_param(c, tok, atoi(eq + 1)) != atoi(eq + 1)))
			fail_msg("%s: '%s' against libfdtune's %s", what, line, c->params);
	}
}

/* libfdtune's lookup and fdtune export --all-sizes pick the same
 * configuration for a set of grids, recorded or not: the export's --which
 * and, where nvcc is installed, NAME_which of the exported code in a
 * program (no GPU needed for one device). */
static void agrees_with_export(void **st)
{
	static const struct { const char *family, *prec; int r; } pb[] = {
		{ "xyz", "fp32", 4 }, { "iso3dfd", "fp32", 8 }, { "xyz", "fp64", 8 } };
	static const int n[][3] = { { 512, 512, 512 }, { 1000, 300, 129 }, { 128, 128, 64 },
		{ 61, 37, 29 }, { 1, 1, 1 }, { 800, 400, 200 }, { 384, 384, 192 }, { 300, 300, 300 },
		{ 2000, 100, 50 }, { 64, 64, 1024 }, { 1, 40000, 1 }, { 65536, 8, 8 } };
	const char *bin = getenv("FDTUNE");
	int nvcc = !system("command -v nvcc >/dev/null 2>&1 || test -x /usr/local/cuda/bin/nvcc");
	char cmd[4096], line[1024], e[256], ex[300];
	fdtune_db *d;
	(void)st;
	if (!bin)
		skip();
	snprintf(ex, sizeof ex, "%s/agree", dir);
	assert_int_equal(fdtune_open(db, &d, e, sizeof e), 0);
	for (size_t i = 0; i < sizeof pb / sizeof pb[0]; i++) {
		FILE *w = NULL;
		snprintf(cmd, sizeof cmd, "'%s' export --db %s -f %s -r %d --precision %s --all-sizes "
			 "--out %s --name k >/dev/null", bin, db, pb[i].family, pb[i].r, pb[i].prec, ex);
		assert_int_equal(system(cmd), 0);
		if (nvcc) {
			int o = snprintf(cmd, sizeof cmd, "cd %s && printf '#include <stdio.h>\\n#include "
					 "\"k.h\"\\nint main(void) {\\n", ex);
			for (size_t s = 0; s < sizeof n / sizeof n[0]; s++)
				o += snprintf(cmd + o, sizeof cmd - (size_t)o, "const char *s%zu = \"\", *c%zu = "
					      "k_which(%d, %d, %d, &s%zu); printf(\"%%%%s %%%%s\\\\n\", s%zu, "
					      "c%zu ? c%zu : \"none\");\\n", s, s, n[s][0], n[s][1], n[s][2],
					      s, s, s, s);
			snprintf(cmd + o, sizeof cmd - (size_t)o, "return 0; }\\n' > w.c && PATH=$PATH:"
				 "/usr/local/cuda/bin nvcc -c -arch=sm_90 k.cu -o k.o && cc -c w.c -o w.o "
				 "&& PATH=$PATH:/usr/local/cuda/bin nvcc w.o k.o -o w");
			assert_int_equal(system(cmd), 0);
			snprintf(cmd, sizeof cmd, "%s/w", ex);
			assert_non_null(w = popen(cmd, "r"));
		}
		for (size_t s = 0; s < sizeof n / sizeof n[0]; s++) {
			struct fdtune_config c;
			FILE *p;
			assert_int_equal(fdtune_lookup(d, "H100", pb[i].family, pb[i].r, n[s][0], n[s][1],
						       n[s][2], pb[i].prec, &c, e, sizeof e), 0);
			assert_int_not_equal(c.source, FDTUNE_DEFAULT);
			snprintf(cmd, sizeof cmd, "'%s' export --db %s -f %s -r %d --precision %s "
				 "--all-sizes --which %dx%dx%d", bin, db, pb[i].family, pb[i].r, pb[i].prec,
				 n[s][0], n[s][1], n[s][2]);
			assert_non_null(p = popen(cmd, "r"));
			assert_non_null(fgets(line, sizeof line, p));
			assert_int_equal(pclose(p), 0);
			same_pick(strchr(line, ':') + 1, &c, "export --which");
			if (w) {
				assert_non_null(fgets(line, sizeof line, w));
				same_pick(line, &c, "k_which");
			}
		}
		if (w)
			assert_int_equal(pclose(w), 0);
	}
	fdtune_close(d);
}

static void bad_files(void **st)
{
	char path[300], cmd[600];
	fdtune_db *d;
	char err[512];
	(void)st;
	snprintf(path, sizeof path, "%s/other.db", dir);
	snprintf(cmd, sizeof cmd, "sqlite3 %s 'create table t(x)'", path);
	assert_int_equal(system(cmd), 0);
	assert_int_not_equal(fdtune_open(path, &d, err, sizeof err), 0);
	assert_null(d);
	assert_non_null(strstr(err, "not an fdtune database"));
	snprintf(path, sizeof path, "%s/missing.db", dir);
	assert_int_not_equal(fdtune_open(path, &d, err, sizeof err), 0);
	assert_non_null(strstr(err, "cannot open"));
}

/* issue 35.2 and 35.10: NULL arguments fail (or give def) instead of
 * crashing, err NULL included; a directory and a negative schema version
 * are named; an old schema's advice names a command that migrates. */
static void null_arguments(void **st)
{
	struct fdtune_config c;
	fdtune_db *d = NULL;
	char err[512], path[300], cmd[1024];
	(void)st;
	assert_int_not_equal(fdtune_open(db, NULL, err, sizeof err), 0);
	assert_non_null(strstr(err, "db"));
	assert_int_not_equal(fdtune_open(NULL, &d, NULL, 256), 0);
	assert_null(d);
	assert_int_equal(fdtune_open(db, &d, err, sizeof err), 0);
	err[0] = 0;
	assert_int_not_equal(fdtune_lookup(d, "H100", "xyz", 4, 512, 512, 512, "fp32", NULL, err,
					   sizeof err), 0);
	assert_non_null(strstr(err, "cfg"));
	assert_int_not_equal(fdtune_lookup(d, "H100", "nosuch", 4, 512, 512, 512, "fp32", &c,
					   NULL, 256), 0);
	assert_int_not_equal(fdtune_lookup(d, NULL, "xyz", 4, 512, 512, 512, "fp32", &c, NULL,
					   256), 0);
	assert_int_not_equal(fdtune_lookup(NULL, "H100", "xyz", 0, 512, 512, 512, "fp32", &c,
					   NULL, 256), 0);
	assert_int_equal(fdtune_lookup(d, "H100", "xyz", 4, 512, 512, 512, "fp32", &c, NULL, 0), 0);
	assert_int_equal(fdtune_param(NULL, "vec", -3), -3);
	assert_int_equal(fdtune_param(&c, NULL, -4), -4);
	fdtune_close(d);
	assert_int_not_equal(fdtune_open(dir, &d, err, sizeof err), 0);
	assert_non_null(strstr(err, "is a directory"));
	snprintf(path, sizeof path, "%s/neg.db", dir);
	snprintf(cmd, sizeof cmd, "cp %s %s && sqlite3 %s 'pragma user_version=-5'", db, path, path);
	assert_int_equal(system(cmd), 0);
	assert_int_not_equal(fdtune_open(path, &d, err, sizeof err), 0);
	assert_non_null(strstr(err, "unknown schema version -5"));
	snprintf(cmd, sizeof cmd, "sqlite3 %s 'pragma user_version=1'", path);
	assert_int_equal(system(cmd), 0);
	assert_int_not_equal(fdtune_open(path, &d, err, sizeof err), 0);
	assert_non_null(strstr(err, "fdtune merge --db NEW.db"));
	assert_null(strstr(err, "fdtune best"));
}

/* make install, then docs/export.md's example built against the installed copy. */
static void installed(void **st)
{
	const char *root = getenv("ROOT");
	char cmd[2048];
	(void)st;
	if (!root)
		skip();
	snprintf(cmd, sizeof cmd, "env -u MAKEFLAGS -u MFLAGS make -s -C '%s' install PREFIX=%s/prefix "
		 "INST=%s/inst >/dev/null && sed -n '/^```c libfdtune/,/^```$/p' '%s/docs/export.md' | sed '1d;$d' > %s/ex.c && "
		 "PKG_CONFIG_PATH=%s/prefix/lib/pkgconfig cc -std=c11 -Wall -Wextra -Werror %s/ex.c "
		 "-o %s/ex $(PKG_CONFIG_PATH=%s/prefix/lib/pkgconfig pkg-config --cflags --libs fdtune) && "
		 "%s/ex %s | grep -q 'vec='", root, dir, dir, root, dir, dir, dir, dir, dir, dir, db);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(lookups), cmocka_unit_test(two_devices),
		cmocka_unit_test(family_defaults),
		cmocka_unit_test(agrees_with_export),
		cmocka_unit_test(bad_files), cmocka_unit_test(bad_arguments),
		cmocka_unit_test(null_arguments), cmocka_unit_test(installed),
	};
	const char *src = getenv("RESULTS_DB");
	char cmd[600];
	int rc;
	if (!mkdtemp(dir))
		return 1;
	snprintf(db, sizeof db, "%s/h100.db", dir);
	snprintf(cmd, sizeof cmd, "cp '%s' %s", src ? src : "results/h100/fdtune.db", db);
	if (system(cmd))
		return 1;
	rc = cmocka_run_group_tests_name("lib", t, NULL, NULL);
	t_rmtree(dir);
	return rc;
}
