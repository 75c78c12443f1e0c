/*
 * t_pkg.c: fdtune's CMake package (cmake/fdtuneConfig.cmake) and the
 * installed fdtune command, on the CPU. `make install` into a temporary
 * prefix, then:
 *   package        tests/cmake, a user's project, configured with
 *                  find_package(fdtune) and built for sm_90 with nvcc
 *                  (CMAKE_CUDA_ARCHITECTURES=90) and gfortran: kernels
 *                  exported at build time by fdtune_add_kernels, again when
 *                  the database changes and not otherwise;
 *   readme_cmake   docs/export.md's CMake example, extracted, built the same way
 *                  with tests/cmake/main.cu;
 *   installed      the installed fdtune finds the installed templates
 *                  (PREFIX/share/fdtune/templates), not the build tree's,
 *                  the headers that exports paste included;
 *   version        fdtune --version, pkg-config and the CMake version file
 *                  say one version; fdtune help;
 *   hidden_tree    the installed fdtune with the source tree out of reach
 *                  (a mount namespace puts an empty directory over it):
 *                  every export mode, gen, a compile-only sweep, report and
 *                  fdtune_add_kernels with ALL_SIZES (issue 23);
 *   man_page       the installed fdtune(1) renders (man -M PREFIX/share/man,
 *                  else groff or nroff) and names the commands;
 *   completion     bash with the installed completion sourced and the
 *                  installed fdtune on PATH completes commands, options and
 *                  families (issue 35);
 *   uninstall      last: make uninstall leaves no file in the prefix, and
 *                  none of fdtune's own directories.
 * Nothing is run on a GPU. Skipped, saying why, where cmake or nvcc is
 * missing (`make test` installs cmake through .ci/deps.sh).
 */
#define _DEFAULT_SOURCE
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
static char rootbuf[4096];
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

/* docs/export.md's CMake example: its CMakeLists.txt with tests/cmake/main.cu and
 * the database as tuned.db. */
static void readme_cmake(void **st)
{
	char cmd[4096], src[512];
	(void)st;
	need_tools();
	snprintf(src, sizeof src, "%s/readme", dir);
	snprintf(cmd, sizeof cmd, "mkdir -p %s && sed -n '/^```cmake fdtune/,/^```$/p' '%s/docs/export.md' | "
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

/* One version: the command's, pkg-config's and the CMake package's. */
static void version(void **st)
{
	char cmd[2048], v[64];
	(void)st;
	assert_true(installed_ok);
	snprintf(cmd, sizeof cmd, "PKG_CONFIG_PATH=%s/prefix/lib/pkgconfig pkg-config --modversion "
		 "fdtune", dir);
	ok(cmd);
	snprintf(v, sizeof v, "%.*s", (int)strcspn(out, "\n"), out);
	assert_true(*v);
	snprintf(cmd, sizeof cmd, "%s/prefix/bin/fdtune --version", dir);
	ok(cmd);
	snprintf(cmd, sizeof cmd, "fdtune %s (templates: %s/prefix/share/fdtune/templates)\n", v, dir);
	assert_string_equal(out, cmd);
	snprintf(cmd, sizeof cmd, "grep -q 'set(PACKAGE_VERSION \"%s\")' "
		 "%s/prefix/lib/cmake/fdtune/fdtuneConfigVersion.cmake", v, dir);
	ok(cmd);
	snprintf(cmd, sizeof cmd, "%s/prefix/bin/fdtune help && %s/prefix/bin/fdtune help export",
		 dir, dir);
	ok(cmd);
	assert_non_null(strstr(out, "usage: fdtune COMMAND"));
	assert_non_null(strstr(out, "usage: fdtune export"));
}

/* The installed fdtune with the source tree out of reach: an empty tmpfs
 * over ROOT in a mount namespace of its own (unshare -m as root, else in a
 * user namespace), FDTUNE_TEMPLATES unset, the work in dir/h. */
static void hidden_tree(void **st)
{
	char cmd[8192];
	(void)st;
	assert_true(installed_ok);
	if (sh("unshare -m true 2>/dev/null || unshare -rm true")) {
		print_message("no mount namespace here (unshare -m, unshare -rm): cannot hide "
			      "the source tree\n");
		skip();
	}
	snprintf(cmd, sizeof cmd, "mkdir -p %s/h && cp '%s/tests/cmake/main.cu' %s/h/ && cat > "
		 "%s/h/CMakeLists.txt <<'E'\ncmake_minimum_required(VERSION 3.18)\n"
		 "project(h LANGUAGES C CXX CUDA)\nfind_package(fdtune 0.1 REQUIRED)\n"
		 "add_executable(app main.cu)\nfdtune_add_kernels(TARGET app DB %s NAME lap8 "
		 "FAMILY xyz RADIUS 8 ALL_SIZES)\ntarget_link_libraries(app PRIVATE fdtune::fdtune)\n"
		 "E\ncat > %s/h/run.sh <<'E'\nset -eux\nmount -t tmpfs none \"$1\"\n"
		 "test ! -e \"$1/templates/xyz.m4\"\ncd \"$2/h\"\nunset FDTUNE_TEMPLATES\n"
		 "f=$2/prefix/bin/fdtune db=$2/h100.db\n"
		 "$f --version | grep -F \"templates: $2/prefix/share/fdtune/templates\"\n"
		 "$f export --db $db -f xyz -r 4 -n 512 --out e1 --name k1\n"
		 "$f export --db $db -f xyz -r 4 -n 512 --all-devices --out e2 --name k2\n"
		 "$f export --db $db -f xyz -r 4 --all-sizes --out e3 --name k3\n"
		 "grep -q fdt_rule_pick e3/k3.cu\n"
		 "$f export --db $db -f iso3dfd -r 8 -n 512 --fortran --out e4 --name k4\n"
		 "test -s e4/k4.f90\n"
		 "$f gen -r 2 > g.cu && grep -q __global__ g.cu\n"
		 "$f sweep --compile-only -q -j 1 -n 8 -r 1 -p vec=1 -p bx=32 -p by=1 -p ypt=1 "
		 "-p lds=0 -p nw=8 -p nt=0 -p pf=0 -p zu=1 --db s.db\n"
		 "$f report --db $db -f xyz -r 4 --out rep && test -s rep/report.md\n"
		 "if [ -n \"$3\" ]; then cmake -S . -B b -DCMAKE_PREFIX_PATH=$2/prefix "
		 "-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_COMPILER=$3 && cmake --build b -j 2 && "
		 "grep -q fdt_rule_pick b/fdtune_lap8/lap8.cu; fi\necho hidden tree ok\nE\n"
		 "{ unshare -m true 2>/dev/null && u='unshare -m' || u='unshare -rm'; } && "
		 "$u sh %s/h/run.sh '%s' '%s' '%s' 2>&1",
		 dir, root, dir, dir, db, dir, dir, root, dir, nvcc);
	ok(cmd);
	assert_non_null(strstr(out, "hidden tree ok"));
	if (!*nvcc)
		print_message("no nvcc: fdtune_add_kernels not built with the tree hidden\n");
}

/* fdtune(1) as installed: man reads it from PREFIX/share/man (man-db, no
 * pager); where man is missing or a stub (Ubuntu's minimized images), groff
 * or nroff renders the installed file (.ci/deps.sh installs groff-base). */
static void man_page(void **st)
{
	char cmd[2048];
	(void)st;
	assert_true(installed_ok);
	snprintf(cmd, sizeof cmd, "test -f %s/prefix/share/man/man1/fdtune.1", dir);
	ok(cmd);
	snprintf(cmd, sizeof cmd,
		 "p=%s/prefix/share/man; f=$p/man1/fdtune.1; "
		 "m=$(MANPAGER=cat MANWIDTH=80 man -M \"$p\" fdtune 2>&1); "
		 "case $m in *SYNOPSIS*) printf '%%s\\n' \"$m\" ;; "
		 "*) echo 'man did not render it; groff or nroff:'; "
		 "if command -v groff >/dev/null 2>&1; then groff -man -Tutf8 \"$f\"; "
		 "else nroff -man \"$f\"; fi ;; esac 2>&1",
		 dir);
	ok(cmd);
	assert_non_null(strstr(out, "fdtune"));
	assert_non_null(strstr(out, "SYNOPSIS"));
	assert_non_null(strstr(out, "sweep"));
	assert_non_null(strstr(out, "FDTUNE_CACHE"));
	assert_non_null(strstr(out, "EXIT STATUS"));
}

/* Completes WORDS (the line up to the cursor, a trailing space an empty word)
 * in bash with the installed completion sourced and the installed fdtune
 * first on PATH; COMPREPLY one a line in out. */
static void complete(const char *words)
{
	char cmd[2048];
	snprintf(cmd, sizeof cmd,
		 "PATH=%s/prefix/bin:$PATH bash --norc --noprofile -c '"
		 ". %s/prefix/share/bash-completion/completions/fdtune && "
		 "read -ra COMP_WORDS <<< \"$1\" && { [[ $1 != *\" \" ]] || COMP_WORDS+=(\"\"); } && "
		 "COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) && _fdtune && printf \"%%s\\n\" \"${COMPREPLY[@]}\"' "
		 "_ '%s'",
		 dir, dir, words);
	ok(cmd);
}

/* fdtune sw<TAB>, sweep --pl<TAB>, sweep -f i<TAB> and a few more. */
static void completion(void **st)
{
	(void)st;
	assert_true(installed_ok);
	if (system("command -v bash >/dev/null 2>&1")) {
		print_message("bash is not installed\n");
		skip();
	}
	complete("fdtune sw");
	assert_string_equal(out, "sweep\n");
	complete("fdtune sweep --pl");
	assert_non_null(strstr(out, "--plan\n"));
	assert_non_null(strstr(out, "--places\n"));
	complete("fdtune sweep -f i");
	assert_string_equal(out, "iso3dfd\n");
	complete("fdtune best --family xyz,is");
	assert_string_equal(out, "xyz,iso3dfd\n");
	complete("fdtune export --prec");
	assert_string_equal(out, "--precision\n");
	complete("fdtune sweep -s gu");
	assert_string_equal(out, "guided\n");
	complete("fdtune help ex");
	assert_string_equal(out, "export\n");
	/* every family of gen --list, nothing else */
	complete("fdtune gen -f ");
	{
		static char fams[sizeof out];
		char cmd[1024];
		memcpy(fams, out, sizeof fams);
		snprintf(cmd, sizeof cmd, "%s/prefix/bin/fdtune gen --list | sed -n 's/^\\([a-z0-9_]*\\): .*/\\1/p'",
			 dir);
		ok(cmd);
		assert_string_equal(fams, out);
	}
}

/* make uninstall into the test's prefix removes every file make install put
 * there (nothing else writes into it) and fdtune's own directories. */
static void uninstall(void **st)
{
	char cmd[2048];
	(void)st;
	assert_true(installed_ok);
	snprintf(cmd, sizeof cmd, "env -u MAKEFLAGS -u MFLAGS make -s -C '%s' uninstall PREFIX=%s/prefix 2>&1",
		 root, dir);
	ok(cmd);
	snprintf(cmd, sizeof cmd, "find %s/prefix ! -type d; find %s/prefix -name fdtune -type d", dir, dir);
	ok(cmd);
	assert_string_equal(out, "");
	installed_ok = 0;
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(package), cmocka_unit_test(readme_cmake), cmocka_unit_test(installed),
		cmocka_unit_test(version), cmocka_unit_test(hidden_tree), cmocka_unit_test(man_page),
		cmocka_unit_test(completion), cmocka_unit_test(uninstall),
	};
	int rc;
	/* absolute: hidden_tree mounts over it */
	if (!(root = realpath(getenv("ROOT") ? getenv("ROOT") : ".", rootbuf)))
		return 1;
	if (t_setup_install(dir, root, db, sizeof db, nvcc, sizeof nvcc, &installed_ok))
		return 1;
	rc = cmocka_run_group_tests_name("pkg", t, NULL, NULL);
	t_rmtree(dir);
	return rc;
}
