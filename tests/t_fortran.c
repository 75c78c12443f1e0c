/*
 * t_fortran.c: the Fortran side of fdtune, built with gfortran on the CPU.
 * exported_modules: fdtune export --fortran for a stencil, a time-stepping
 * (iso3dfd) and an fp64 kernel and for --all-devices; each NAME.f90 compiles,
 * and tests/f90_layout.f90 linked with tests/f90_layout.c checks that its
 * types have the sizes and offsets of NAME.h's structs, that a grid passes by
 * value as the launch function takes it, and that its NAME_coef gives C's
 * weights bit for bit. libfdtune_module: `make install` into a temporary
 * prefix, then tests/f90_lookup.f90 built with the installed module fdtune
 * (db/fdtune.f90) and library looks up what the C library does, field for
 * field and bit for bit, the layout of fdtune_config included.
 * readme_fortran: docs/export.md's Fortran example and build commands. Skipped,
 * saying why, where gfortran is missing
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

#include "fdtune.h"

static char dir[] = "/tmp/fdt_f90XXXXXX", db[256], out[65536], nvcc[512];
static const char *root, *bin;
static int installed_ok;       /* make install PREFIX=dir/prefix worked */

/* Runs cmd under sh with stdout and stderr in out; returns its status. */
static int sh(const char *cmd)
{
	return t_sh(cmd, out, sizeof out);
}

/* Runs cmd, which must succeed; says what it printed when it does not. */
static void ok(const char *cmd)
{
	t_ok(cmd, out, sizeof out);
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
	ok(cmd);
	for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
		snprintf(e, sizeof e, "%s/k%zu", dir, i);
		snprintf(cmd, sizeof cmd, "'%s' export --db %s %s --name k --fortran --out %s 2>&1 && "
			 "cc -std=c11 -Wall -Wextra -Werror -I%s -c '%s/tests/f90_layout.c' -o %s/l.o && "
			 "gfortran -std=f2008 -Wall -Wextra -Werror -J%s -I%s %s/k.f90 "
			 "'%s/tests/f90_layout.f90' %s/l.o -o %s/l 2>&1 && %s/l", bin, db, specs[i], e,
			 e, root, e, e, e, e, root, e, e, e);
		ok(cmd);
		assert_non_null(strstr(out, "k.f90: module k_fdtune"));
		assert_non_null(strstr(out, "layout ok: radius "));
		assert_non_null(strstr(out, i == 2 ? "element bytes 8" : "element bytes 4"));
		/* where the configuration came from, as k.h says it */
		snprintf(cmd, sizeof cmd, "grep -q '^! %s on NVIDIA H100 80GB HBM3 (sm_90), run [0-9]*, "
			 "for ' %s/k.f90 && grep -q '^ \\* %s on NVIDIA H100 80GB HBM3' %s/k.h && "
			 "grep -q 'GB/s, [0-9.]*%% of the copy bandwidth' %s/k.f90 && "
			 "grep -q 'DO NOT EDIT' %s/k.f90", i == 3 ? "Selected" : "Tuned", e,
			 i == 3 ? "Selected" : "Tuned", e, e, e);
		ok(cmd);
	}
	snprintf(cmd, sizeof cmd, "grep -q 'type(c_ptr), value :: next, prev, vel' %s/k1/k.f90 && "
		 "grep -q 'fd_real = c_double' %s/k2/k.f90 && grep -q '^! On any other device' "
		 "%s/k3/k.f90", dir, dir, dir);
	ok(cmd);
	/* Fortran names: a letter first, at most 63 characters with _fdtune */
	snprintf(cmd, sizeof cmd, "'%s' export --db %s --fortran --name _k --out %s/bad 2>&1; "
		 "echo status $?", bin, db, dir);
	sh(cmd);
	assert_non_null(strstr(out, "--name '_k'"));    /* refused as C (reserved) before Fortran */
	assert_non_null(strstr(out, "status 2"));
	snprintf(cmd, sizeof cmd, "'%s' export --db %s --fortran --name "
		 "a23456789012345678901234567890123456789012345678901234567 --out %s/bad 2>&1; "
		 "echo status $?", bin, db, dir);
	sh(cmd);
	assert_non_null(strstr(out, "at most 56 characters"));
	assert_non_null(strstr(out, "status 2"));
}

/* What tests/f90_lookup.f90 prints, computed through the C library. */
static void c_lookups(FILE *o, const char *path, const char *const *q, int nq)
{
	struct fdtune_config c;
	fdtune_db *d = NULL;
	char err[1024], dev[64], fam[32], prec[16];
	int r, nx, ny, nz;
	fprintf(o, "layout|%zu|%zu|%zu|%zu|%zu|%zu|%zu|%zu|%zu|%zu|%zu|%zu|%zu|%zu\n", sizeof c,
		offsetof(struct fdtune_config, source), offsetof(struct fdtune_config, family),
		offsetof(struct fdtune_config, device), offsetof(struct fdtune_config, params),
		offsetof(struct fdtune_config, radius), offsetof(struct fdtune_config, nx),
		offsetof(struct fdtune_config, ny), offsetof(struct fdtune_config, nz),
		offsetof(struct fdtune_config, median_ms), offsetof(struct fdtune_config, gbs),
		offsetof(struct fdtune_config, np), offsetof(struct fdtune_config, name),
		offsetof(struct fdtune_config, value));
	if (fdtune_open(path, &d, err, sizeof err))
		fprintf(o, "open|%s\n", err);
	for (int i = 0; i < nq; i++) {
		long long mb, gb;
		int st;
		assert_int_equal(sscanf(q[i], "%63s %31s %d %d %d %d %15s", dev, fam, &r, &nx, &ny, &nz,
					prec), 7);
		if ((st = fdtune_lookup(d, dev, fam, r, nx, ny, nz, prec, &c, err, sizeof err))) {
			fprintf(o, "%d|%s\n", st, err);
			continue;
		}
		memcpy(&mb, &c.median_ms, sizeof mb);
		memcpy(&gb, &c.gbs, sizeof gb);
		fprintf(o, "0|%d|%s|%s|%d|%d|%d|%d|%lld|%lld|%s|%d|", (int)c.source, c.family, c.device,
			c.radius, c.nx, c.ny, c.nz, mb, gb, c.params, c.np);
		for (int k = 0; k < c.np; k++)
			fprintf(o, "%s=%d,", c.name[k], c.value[k]);
		fprintf(o, "|%d|%d|%d\n", fdtune_param(&c, "vec", -1), fdtune_param(&c, "bx", -1),
			fdtune_param(&c, "nope", -7));
	}
	fdtune_close(d);
}

/* make install, then a Fortran program built with the installed module
 * source and library looks up what the C library does, field for field. */
static void libfdtune_module(void **st)
{
	static const char *const q[] = {
		"H100 xyz 4 512 512 512 fp32", "sm_90 xyz 4 300 300 300 fp32",
		"gfx90a xyz 7 512 512 512 fp32", "H100 iso3dfd 8 512 512 512 fp32",
		"NVIDIA z 3 512 512 512 fp64", "H100 nope 4 8 8 8 fp32",
	};
	const int nq = sizeof q / sizeof *q;
	const char *const dbs[] = { db, "/nonexistent/fdtune.db" };
	char cmd[4096], *want;
	size_t wn;
	(void)st;
	if (!have("gfortran")) {
		print_message("gfortran is not installed: apt-get install gfortran\n");
		skip();
	}
	assert_true(installed_ok);
	snprintf(cmd, sizeof cmd, "cd %s && gfortran -std=f2008 -Wall -Wextra -Werror -I prefix/include "
		 "prefix/include/fdtune.f90 '%s/tests/f90_lookup.f90' -L prefix/lib -lfdtune -lsqlite3 "
		 "-o lookup 2>&1", dir, root);
	ok(cmd);
	for (int k = 0; k < 2; k++) {
		FILE *o = open_memstream(&want, &wn);
		assert_non_null(o);
		c_lookups(o, dbs[k], q, nq);
		assert_int_equal(fclose(o), 0);
		snprintf(cmd, sizeof cmd, "%s/lookup %s <<'EOF'\n", dir, dbs[k]);
		for (int i = 0; i < nq; i++)
			snprintf(cmd + strlen(cmd), sizeof cmd - strlen(cmd), "%s\n", q[i]);
		snprintf(cmd + strlen(cmd), sizeof cmd - strlen(cmd), "EOF\n");
		ok(cmd);
		if (strcmp(out, want))
			print_error("Fortran:\n%s\nC:\n%s\n", out, want);
		assert_string_equal(out, want);
		assert_non_null(strstr(out, k ? "open|cannot open" : "0|0|xyz|NVIDIA H100 80GB HBM3|4|512"));
		free(want);
	}
}

/* Online tuning through the installed module fdtune_tuning, linked as `pkg-config
 * --static` says, run with no GPU visible: the candidates are taken, every
 * step runs the program's own kernel (a bind(C) function), the tuning
 * settles on it (FDTUNE_DEFAULT), and a missing database is said. */
static void online_module(void **st)
{
	char cmd[4096];
	(void)st;
	if (!have("gfortran") || !have("pkg-config")) {
		print_message("gfortran or pkg-config is not installed\n");
		skip();
	}
	assert_true(installed_ok);
	snprintf(cmd, sizeof cmd, "cd %s && gfortran -std=f2008 -Wall -Wextra -Werror -I prefix/include "
		 "prefix/include/fdtune.f90 prefix/include/fdtune_tuning.f90 '%s/tests/f90_online.f90' $(PKG_CONFIG_PATH=prefix/lib/pkgconfig "
		 "pkg-config --static --libs fdtune) -o online 2>&1 && CUDA_VISIBLE_DEVICES= HIP_VISIBLE_DEVICES= "
		 "FDTUNE_ONLINE_DB= ./online %s 2>&1", dir, root, db);
	ok(cmd);
	if (!strstr(out, "open 0\n") || !strstr(out, "calls 5\n") || !strstr(out, "settled T 2\n") ||
	    !strstr(out, "online tuning of iso3dfd R=8 800x240x160 fp32") ||
	    !strstr(out, "open 1 fdtune_online_open: no database at /nonexistent/x.db"))
		fail_msg("%s printed:\n%s", cmd, out);
}

/* docs/export.md's Fortran: the libfdtune example, built with the installed module
 * and run, prints what the C library says; the commands that build a
 * Fortran program around an export (tests/cmake/fmain.f90 as main.f90)
 * compile and link it, with nvcc where it is installed. */
static void readme_fortran(void **st)
{
	struct fdtune_config c;
	fdtune_db *d;
	char cmd[4096], want[2048], err[512];
	(void)st;
	if (!have("gfortran")) {
		print_message("gfortran is not installed: apt-get install gfortran\n");
		skip();
	}
	assert_true(installed_ok);
	snprintf(cmd, sizeof cmd, "cd %s && sed -n '/^```fortran libfdtune/,/^```$/p' '%s/docs/export.md' | "
		 "sed '1d;$d' > example.f90 && grep -q fdtune_lookup example.f90 && gfortran -std=f2008 "
		 "-Wall -Werror prefix/include/fdtune.f90 example.f90 -Lprefix/lib -lfdtune -lsqlite3 "
		 "-o example 2>&1 && ./example %s", dir, root, db);
	ok(cmd);
	assert_int_equal(fdtune_open(db, &d, err, sizeof err), 0);
	assert_int_equal(fdtune_lookup(d, "H100", "xyz", 4, 512, 512, 512, "fp32", &c, err, sizeof err), 0);
	fdtune_close(d);
	snprintf(want, sizeof want, "%s: vec=%d bx=%d by=%d nw=%d\n", c.params, fdtune_param(&c, "vec", 1),
		 fdtune_param(&c, "bx", 64), fdtune_param(&c, "by", 4), fdtune_param(&c, "nw", 64));
	assert_string_equal(out, want);
	if (!*nvcc) {
		print_message("no nvcc in PATH or /usr/local/cuda/bin: the export's build is not tried\n");
		return;
	}
	snprintf(cmd, sizeof cmd, "cd %s && cp '%s/tests/cmake/fmain.f90' main.f90 && "
		 "sed -n '/^```sh fortran/,/^```$/p' '%s/docs/export.md' | sed '1d;$d' | "
		 "sed -e 's|^\\./fdtune|%s|' -e 's|results/h100/fdtune.db|%s|' "
		 "-e 's|\\$HOME/\\.local|%s/prefix|g' -e 's|^nvcc|%s|' > build.sh && "
		 "grep -q gfortran build.sh && sh -e build.sh 2>&1 && ./main %s", dir, root, root, bin,
		 db, dir, nvcc, db);
	ok(cmd);
	assert_true(strstr(out, "no GPU: built, not run") || strstr(out, "wave: status 0"));
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(exported_modules), cmocka_unit_test(libfdtune_module),
		cmocka_unit_test(online_module),
		cmocka_unit_test(readme_fortran),
	};
	int rc;
	root = getenv("ROOT") ? getenv("ROOT") : ".";
	bin = getenv("FDTUNE") ? getenv("FDTUNE") : "./fdtune";
	if (t_setup_install(dir, root, db, sizeof db, nvcc, sizeof nvcc, &installed_ok))
		return 1;
	rc = cmocka_run_group_tests_name("fortran", t, NULL, NULL);
	t_rmtree(dir);
	return rc;
}
