/*
 * t_fortran.c: the Fortran side of fdtune, built with gfortran on the CPU.
 * exported_modules: fdtune export --fortran for a stencil, a time-stepping
 * (iso3dfd) and an fp64 kernel and for --all-devices; each NAME.f90 compiles,
 * and tests/f90_layout.f90 linked with tests/f90_layout.c checks that its
 * types have the sizes and offsets of NAME.h's structs, that a grid passes by
 * value as the launch function takes it, and that its NAME_coef gives C's
 * weights bit for bit. Skipped, saying why, where gfortran is missing
 * (`make test` installs it through .ci/deps.sh).
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
#include <sys/wait.h>

static char dir[] = "/tmp/fdt_f90XXXXXX", db[256], out[65536];
static const char *root, *bin;

/* Runs cmd under sh with stdout and stderr in out; returns its status. */
static int sh(const char *cmd)
{
	FILE *p;
	size_t n;
	int st;
	assert_non_null(p = popen(cmd, "r"));
	n = fread(out, 1, sizeof out - 1, p);
	out[n] = 0;
	st = pclose(p);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		print_error("%s\n-> %d:\n%s\n", cmd, st, out);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int have(const char *tool)
{
	char cmd[256];
	snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", tool);
	return !system(cmd);
}

static void exported_modules(void **st)
{
	static const char *const specs[] = {
		"-r 4 -n 512", "-f iso3dfd -r 8", "-f z -r 3 --precision fp64", "-r 4 --all-devices",
	};
	char cmd[4096], e[300];
	(void)st;
	if (!have("gfortran")) {
		print_message("gfortran is not installed: apt-get install gfortran\n");
		skip();
	}
	/* a second device with one run, for --all-devices */
	snprintf(cmd, sizeof cmd, "sqlite3 %s \"insert into devices(vendor, name, arch, uuid, copy_gbs) "
		 "select vendor, 'Fake GPU', 'sm_80', 'x', copy_gbs from devices limit 1; "
		 "insert into runs(sweep_id, build_id, device_id, problem_id, config_id, status, "
		 "median_ms, gbs, mcells, pct_copy) select sweep_id, build_id, (select id from devices "
		 "where name = 'Fake GPU'), problem_id, config_id, status, median_ms * 2, gbs / 2, "
		 "mcells / 2, pct_copy from runs where id = (select run_id from v_best where family = "
		 "'xyz' and radius = 4 limit 1)\"", db);
	assert_int_equal(sh(cmd), 0);
	for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
		snprintf(e, sizeof e, "%s/k%zu", dir, i);
		snprintf(cmd, sizeof cmd, "'%s' export --db %s %s --name k --fortran --out %s 2>&1 && "
			 "cc -std=c11 -Wall -Wextra -Werror -I%s -c '%s/tests/f90_layout.c' -o %s/l.o && "
			 "gfortran -std=f2008 -Wall -Wextra -Werror -J%s -I%s %s/k.f90 "
			 "'%s/tests/f90_layout.f90' %s/l.o -o %s/l 2>&1 && %s/l", bin, db, specs[i], e,
			 e, root, e, e, e, e, root, e, e, e);
		assert_int_equal(sh(cmd), 0);
		assert_non_null(strstr(out, "k.f90: module k_fdtune"));
		assert_non_null(strstr(out, "layout ok: radius "));
		assert_non_null(strstr(out, i == 2 ? "element bytes 8" : "element bytes 4"));
		/* where the configuration came from, as k.h says it */
		snprintf(cmd, sizeof cmd, "grep -q '^! %s on NVIDIA H100 80GB HBM3 (sm_90), run [0-9]*, "
			 "for ' %s/k.f90 && grep -q '^ \\* %s on NVIDIA H100 80GB HBM3' %s/k.h && "
			 "grep -q 'GB/s, [0-9.]*%% of the copy bandwidth' %s/k.f90 && "
			 "grep -q 'DO NOT EDIT' %s/k.f90", i == 3 ? "Selected" : "Tuned", e,
			 i == 3 ? "Selected" : "Tuned", e, e, e);
		assert_int_equal(sh(cmd), 0);
	}
	snprintf(cmd, sizeof cmd, "grep -q 'type(c_ptr), value :: next, prev, vel' %s/k1/k.f90 && "
		 "grep -q 'fd_real = c_double' %s/k2/k.f90 && grep -q '^! On any other device' "
		 "%s/k3/k.f90", dir, dir, dir);
	assert_int_equal(sh(cmd), 0);
	/* Fortran names: a letter first, at most 63 characters with _fdtune */
	snprintf(cmd, sizeof cmd, "'%s' export --db %s --fortran --name _k --out %s/bad 2>&1; "
		 "echo status $?", bin, db, dir);
	sh(cmd);
	assert_non_null(strstr(out, "must start with a letter"));
	assert_non_null(strstr(out, "status 2"));
	snprintf(cmd, sizeof cmd, "'%s' export --db %s --fortran --name "
		 "a23456789012345678901234567890123456789012345678901234567 --out %s/bad 2>&1; "
		 "echo status $?", bin, db, dir);
	sh(cmd);
	assert_non_null(strstr(out, "at most 56 characters"));
	assert_non_null(strstr(out, "status 2"));
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(exported_modules),
	};
	const char *src = getenv("RESULTS_DB");
	char cmd[600];
	int rc;
	root = getenv("ROOT") ? getenv("ROOT") : ".";
	bin = getenv("FDTUNE") ? getenv("FDTUNE") : "./fdtune";
	if (!mkdtemp(dir))
		return 1;
	snprintf(db, sizeof db, "%s/h100.db", dir);
	snprintf(cmd, sizeof cmd, "cp '%s' %s", src ? src : "results/h100/fdtune.db", db);
	if (system(cmd))
		return 1;
	rc = cmocka_run_group_tests_name("fortran", t, NULL, NULL);
	t_rmtree(dir);
	return rc;
}
