/*
 * t_pkg.c: fdtune's CMake package (cmake/fdtuneConfig.cmake) and the
 * installed fdtune command, on the CPU. `make install` into a temporary
 * prefix, then:
 *   package        tests/cmake, a user's project, configured with
 *                  find_package(fdtune) and built for sm_90 with nvcc
 *                  (CMAKE_CUDA_ARCHITECTURES=90) and gfortran: kernels
 *                  exported at build time by fdtune_add_kernels, again when
 *                  the database changes and not otherwise;
 *   readme_cmake   README's CMake example, extracted, built the same way
 *                  with tests/cmake/main.cu;
 *   installed      the installed fdtune finds the installed templates
 *                  (PREFIX/share/fdtune/templates), not the build tree's,
 *                  the headers that exports paste included.
 * Nothing is run on a GPU. Skipped, saying why, where cmake or nvcc is
 * missing (`make test` installs cmake through .ci/deps.sh).
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

static char dir[] = "/tmp/fdt_pkgXXXXXX", db[256], out[65536], nvcc[512];
static const char *root;
static int installed_ok;

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

/* Skips unless cmake and nvcc are here and PREFIX holds a make install. */
static void need_tools(void)
{
	if (system("command -v cmake >/dev/null 2>&1")) {
		print_message("cmake is not installed: apt-get install cmake\n");
		skip();
	}
	if (!*nvcc) {
		print_message("no nvcc in PATH or /usr/local/cuda/bin: the CUDA toolkit is needed\n");
		skip();
	}
	assert_true(installed_ok);
}

/* Configures and builds the project in src into dir/bld with extra
 * cmake options; fails the test when either step fails. */
static void build(const char *src, const char *bld, const char *opts)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "cmake -S '%s' -B %s/%s -DCMAKE_PREFIX_PATH=%s/prefix "
		 "-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_COMPILER='%s' %s 2>&1 && "
		 "cmake --build %s/%s -j 2 2>&1", src, dir, bld, dir, nvcc, opts, dir, bld);
	ok(cmd);
}

static void package(void **st)
{
	char src[512], opts[512], cmd[1024];
	(void)st;
	need_tools();
	snprintf(src, sizeof src, "%s/tests/cmake", root);
	snprintf(opts, sizeof opts, "-DFDTUNE_TEST_DB=%s", db);
	build(src, "pkg", opts);
	assert_non_null(strstr(out, "fdtune: exporting lap8 (xyz, R = 8)"));
	assert_non_null(strstr(out, "Built target app"));
	snprintf(cmd, sizeof cmd, "test -x %s/pkg/app && grep -q 'Tuned on NVIDIA H100 80GB HBM3 "
		 "(sm_90), run [0-9]*, for 512x512x512' %s/pkg/fdtune_lap8/lap8.h", dir, dir);
	ok(cmd);
	if (!system("command -v gfortran >/dev/null 2>&1")) {
		snprintf(cmd, sizeof cmd, "test -x %s/pkg/fapp && grep -q '^module wave_fdtune' "
			 "%s/pkg/fdtune_wave/wave.f90 && grep -q 'wave_dflt' %s/pkg/fdtune_wave/wave.cu",
			 dir, dir, dir);
		ok(cmd);
	}
	/* up to date: nothing exported again; the database changed: exported again */
	snprintf(cmd, sizeof cmd, "cmake --build %s/pkg 2>&1", dir);
	ok(cmd);
	assert_null(strstr(out, "exporting"));
	snprintf(cmd, sizeof cmd, "touch %s && cmake --build %s/pkg 2>&1", db, dir);
	ok(cmd);
	assert_non_null(strstr(out, "fdtune: exporting lap8"));
	/* a bad call says what is wrong */
	snprintf(cmd, sizeof cmd, "mkdir -p %s/bad && printf 'cmake_minimum_required(VERSION 3.18)\\n"
		 "project(bad LANGUAGES C)\\nfind_package(fdtune REQUIRED)\\nadd_executable(b b.c)\\n"
		 "fdtune_add_kernels(TARGET b DB x.db NAME k FAMILY xyz RADIUS 4)\\n' > "
		 "%s/bad/CMakeLists.txt && touch %s/bad/b.c && cmake -S %s/bad -B %s/bad/b "
		 "-DCMAKE_PREFIX_PATH=%s/prefix 2>&1", dir, dir, dir, dir, dir, dir);
	assert_int_not_equal(sh(cmd), 0);
	assert_non_null(strstr(out, "enable CUDA or HIP first"));
	/* a version newer than the installed one is refused */
	snprintf(cmd, sizeof cmd, "sed -i 's/find_package(fdtune REQUIRED)/find_package(fdtune 1.0 "
		 "REQUIRED)/' %s/bad/CMakeLists.txt && cmake -S %s/bad -B %s/bad/c "
		 "-DCMAKE_PREFIX_PATH=%s/prefix 2>&1", dir, dir, dir, dir);
	assert_int_not_equal(sh(cmd), 0);
	assert_non_null(strstr(out, "not accepted"));
	assert_non_null(strstr(out, "fdtuneConfig.cmake, version: 0."));
}

/* README's CMake example: its CMakeLists.txt with tests/cmake/main.cu and
 * the database as tuned.db. */
static void readme_cmake(void **st)
{
	char cmd[4096], src[512];
	(void)st;
	need_tools();
	snprintf(src, sizeof src, "%s/readme", dir);
	snprintf(cmd, sizeof cmd, "mkdir -p %s && sed -n '/^```cmake fdtune/,/^```$/p' '%s/README.md' | "
		 "sed '1d;$d' > %s/CMakeLists.txt && grep -q fdtune_add_kernels %s/CMakeLists.txt && "
		 "cp '%s/tests/cmake/main.cu' %s/ && cp %s %s/tuned.db", src, root, src, src, root, src,
		 db, src);
	ok(cmd);
	build(src, "readme", "");
	assert_non_null(strstr(out, "fdtune: exporting lap8"));
	assert_non_null(strstr(out, "Built target app"));
}

/* The installed command reads the installed templates: it works with the
 * build tree's out of reach (FDTUNE_TEMPLATES unset) and fails, naming the
 * installed directory, once they are gone. */
static void installed(void **st)
{
	char cmd[2048];
	(void)st;
	assert_true(installed_ok);
	snprintf(cmd, sizeof cmd, "cd %s && env -u FDTUNE_TEMPLATES prefix/bin/fdtune export --db %s "
		 "-r 4 -n 512 --out inst --name k 2>&1 && test -s inst/k.cu", dir, db);
	ok(cmd);
	/* the headers an export pastes (fdt_abi.h, fdt_rule.h) are installed too */
	snprintf(cmd, sizeof cmd, "cd %s && env -u FDTUNE_TEMPLATES prefix/bin/fdtune export --db %s "
		 "-r 4 --device H100 --all-sizes --fortran --out inst --name s 2>&1 && "
		 "grep -q 'struct fd_grid {' inst/s.h && grep -q fdt_rule_pick inst/s.cu", dir, db);
	ok(cmd);
	snprintf(cmd, sizeof cmd, "cd %s && mv prefix/share/fdtune/templates t && env -u "
		 "FDTUNE_TEMPLATES prefix/bin/fdtune gen -r 2 2>&1; st=$?; mv t "
		 "prefix/share/fdtune/templates; exit $st", dir);
	assert_int_not_equal(sh(cmd), 0);
	snprintf(cmd, sizeof cmd, "%s/prefix/share/fdtune/templates", dir);
	assert_non_null(strstr(out, cmd));
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(package), cmocka_unit_test(readme_cmake), cmocka_unit_test(installed),
	};
	int rc;
	root = getenv("ROOT") ? getenv("ROOT") : ".";
	if (t_setup_install(dir, root, db, sizeof db, nvcc, sizeof nvcc, &installed_ok))
		return 1;
	rc = cmocka_run_group_tests_name("pkg", t, NULL, NULL);
	t_rmtree(dir);
	return rc;
}
