/*
 * t_lib.c: libfdtune on a copy of the H100 database: an exact match, the
 * nearest size, the default when the device or database is missing, bad
 * files and families; and `make install` with a program built through
 * pkg-config, as README's example does.
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

#include "fdtune.h"

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
			 t_count(db, "select cast(max(gbs) * 10 as int) from v_runs where status='ok' "
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
			 t_count(db, "select cast(max(gbs) * 10 as int) from v_runs where status='ok' "
				 "and family = 'xyz' and radius = 8 and nx = 512 and precision = 'fp32'"));
	assert_int_not_equal(fdtune_lookup(d, "H100", "nope", 4, 8, 8, 8, "fp32", &c, err, sizeof err), 0);
	assert_non_null(strstr(err, "unknown family 'nope'"));
	fdtune_close(d);
	/* no database at all */
	assert_int_equal(fdtune_lookup(NULL, "H100", "xyz", 2, 64, 64, 64, "fp32", &c, err, sizeof err), 0);
	assert_int_equal(c.source, FDTUNE_DEFAULT);
	assert_non_null(strstr(c.params, "\"vec\":2"));
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

/* make install, then README's example built against the installed copy. */
static void installed(void **st)
{
	const char *root = getenv("ROOT");
	char cmd[2048];
	(void)st;
	if (!root)
		skip();
	snprintf(cmd, sizeof cmd, "env -u MAKEFLAGS -u MFLAGS make -s -C '%s' install PREFIX=%s/prefix >/dev/null && "
		 "sed -n '/^```c libfdtune/,/^```$/p' '%s/README.md' | sed '1d;$d' > %s/ex.c && "
		 "PKG_CONFIG_PATH=%s/prefix/lib/pkgconfig cc -std=c11 -Wall -Wextra -Werror %s/ex.c "
		 "-o %s/ex $(PKG_CONFIG_PATH=%s/prefix/lib/pkgconfig pkg-config --cflags --libs fdtune) && "
		 "%s/ex %s | grep -q 'vec='", root, dir, root, dir, dir, dir, dir, dir, dir, db);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(lookups), cmocka_unit_test(bad_files), cmocka_unit_test(installed),
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
