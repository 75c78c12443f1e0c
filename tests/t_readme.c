/*
 * t_readme.c: the figures of README.md and of the pages of docs/ against
 * results/h100/history.db (issue 23; the history of every run, which `make
 * history` restores). tests/readme.sh computes each figure of README and its
 * pages that comes from the database with the command the text writes beside
 * it and fails where the text says otherwise; this runs it on README.md (with
 * docs/), which must pass, keeping the figures it computed (FIGURES_OUT), and
 * on a copy of both with one figure changed in the page that holds it, which
 * must fail naming it: checked against the figures kept (FIGURES_IN),
 * computed again only where the first run did not keep them all. Needs $ROOT
 * (the repository), $FDTUNE and sqlite3; $HISTORY_DB is the database.
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

static char dir[] = "/tmp/fdt_readmeXXXXXX";
static char out[65536];

/* sh tests/readme.sh README in $ROOT (README's path: the docs/ beside it are
 * read with it), env (VAR=value words, or "") before it; its exit status, its
 * output in out. */
static int check(const char *env, const char *readme)
{
	const char *root = getenv("ROOT"), *db = getenv("HISTORY_DB");
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "cd '%s' && %s sh tests/readme.sh '%s' '%s'", root, env, readme,
		 db ? db : "results/h100/history.db");
	return t_sh(cmd, out, sizeof out);
}

/* README.md as it is: every figure right; the figures kept in dir/fig. */
static void figures(void **st)
{
	const char *root = getenv("ROOT");
	char readme[512], env[512];
	int rc;
	(void)st;
	if (!root)
		skip();
	snprintf(readme, sizeof readme, "%s/README.md", root);
	snprintf(env, sizeof env, "FIGURES_OUT='%s/fig'", dir);
	rc = check(env, readme);
	if (rc)
		print_error("%s\n", out);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, " 0 wrong"));
}

/* The figure of the best xyz R = 4 run as issue 23 found it (2447 GB/s,
 * the first sweep's), changed in a copy of README.md and docs/ in the page
 * that states it first, in readme.sh's order (README.md, then docs/ by
 * name): the check names it. Against the figures figures() kept, where it
 * kept them all; else computed again. */
static void a_wrong_figure(void **st)
{
	const char *root = getenv("ROOT");
	char cmd[4096], readme[512], env[512] = "", done[512];
	(void)st;
	if (!root)
		skip();
	snprintf(readme, sizeof readme, "%s/README.md", dir);
	snprintf(cmd, sizeof cmd,
		 "cp '%s/README.md' '%s/' && cp -R '%s/docs' '%s/' && "
		 "f=$(grep -l 'runs at [0-9.]* GB/s' '%s/README.md' '%s'/docs/*.md | head -n 1) && "
		 "[ -n \"$f\" ] && sed -i '0,/runs at [0-9.]* GB\\/s/s//runs at 2447 GB\\/s/' \"$f\" && "
		 "! { cmp -s '%s/README.md' '%s' && diff -r '%s/docs' '%s/docs' > /dev/null; }",
		 root, dir, root, dir, dir, dir, root, readme, root, dir);
	t_ok(cmd, out, sizeof out);
	snprintf(done, sizeof done, "%s/fig/done", dir);
	if (!access(done, F_OK))
		snprintf(env, sizeof env, "FIGURES_IN='%s/fig'", dir);
	assert_int_not_equal(check(env, readme), 0);
	assert_non_null(strstr(out, "(best xyz R = 4)"));
	assert_non_null(strstr(out, " 1 wrong"));
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(figures), cmocka_unit_test(a_wrong_figure),
	};
	int rc;
	if (!mkdtemp(dir))
		return 1;
	rc = cmocka_run_group_tests_name("readme", t, NULL, NULL);
	t_rmtree(dir);
	return rc;
}
