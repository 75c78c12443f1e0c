/*
 * t_shipped.c: what the repository ships of results/ (issue 34), through
 * tests/shipped.sh: the tracked tree and the shipped databases within their
 * sizes, every database of results/ at this fdtune's schema, and every best
 * of every shipped database exporting its measured build, also after the
 * templates change (a line added to each, so that every source they
 * generate differs); and the check's own teeth: a database whose kept
 * source of a best is gone fails it, naming the row. And an export from a
 * database of several devices says which device's best it took. Needs $ROOT (the
 * repository, with `make history` done), $FDTUNE, sqlite3 and git.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "db.h"
#include "t_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char dir[] = "/tmp/fdt_shippedXXXXXX";
static char out[1 << 17];

/* sh tests/shipped.sh ARGS in $ROOT with env before it; its exit status,
 * its output in out. */
static int shipped(const char *env, const char *args)
{
	const char *root = getenv("ROOT");
	char cmd[8192];
	snprintf(cmd, sizeof cmd, "cd '%s' && %s sh tests/shipped.sh %s", root, env, args);
	return t_sh(cmd, out, sizeof out);
}

static void size_and_schema(void **st)
{
	char a[32];
	(void)st;
	if (!getenv("ROOT"))
		skip();
	if (shipped("", "size"))
		fail_msg("%s", out);
	snprintf(a, sizeof a, "schema %d", DB_SCHEMA_LATEST);
	if (shipped("", a))
		fail_msg("%s", out);
	assert_non_null(strstr(out, " 0 failed"));
}

/* The templates copied into dir/tpl with a line at the head of each
 * family's template: what every kernel source they generate then starts
 * with, so that no source hashes as before. */
static void changed_templates(void)
{
	const char *root = getenv("ROOT"), *fdtune = getenv("FDTUNE");
	char cmd[4096], a[1 << 14];
	snprintf(cmd, sizeof cmd, "rm -rf '%s/tpl' && cp -r '%s/templates' '%s/tpl' && for f in "
		 "'%s'/tpl/*.m4; do { echo '/* changed by t_shipped */'; cat \"$f\"; } > \"$f.new\" "
		 "&& mv \"$f.new\" \"$f\"; done", dir, root, dir, dir);
	t_ok(cmd, out, sizeof out);
	/* the source of a configuration is another one now */
	snprintf(cmd, sizeof cmd, "'%s' gen -f xyz -r 4 | md5sum", fdtune);
	t_ok(cmd, a, sizeof a);
	snprintf(cmd, sizeof cmd, "FDTUNE_TEMPLATES='%s/tpl' '%s' gen -f xyz -r 4 | md5sum", dir,
		 fdtune);
	t_ok(cmd, out, sizeof out);
	assert_string_not_equal(a, out);
}

static void bests_embed_after_templates_change(void **st)
{
	char env[1024];
	(void)st;
	if (!getenv("ROOT") || !getenv("FDTUNE"))
		skip();
	changed_templates();
	/* under the sanitizers (T_COMPILE_QUICK, as t_compile), a tenth of them */
	snprintf(env, sizeof env, "FDTUNE='%s' FDTUNE_TEMPLATES='%s/tpl' EVERY=%d", getenv("FDTUNE"),
		 dir, getenv("T_COMPILE_QUICK") ? 10 : 1);
	if (shipped(env, "embed"))
		fail_msg("%s", out);
	assert_non_null(strstr(out, " 0 failed"));
}

/* A copy of the H100's database whose kept source of the best of xyz R = 4
 * at 512^3 fp32 is gone: with the templates changed, its export cannot
 * embed the measured build, and the check says which best. */
static void a_lost_source_is_named(void **st)
{
	const char *root = getenv("ROOT");
	char cmd[4096], env[1024];
	(void)st;
	if (!root || !getenv("FDTUNE"))
		skip();
	changed_templates();
	snprintf(cmd, sizeof cmd, "cp '%s/results/h100/fdtune.db' '%s/lost.db' && sqlite3 "
		 "'%s/lost.db' \"DELETE FROM sources WHERE hash = (SELECT b.source_hash FROM v_best v "
		 "JOIN runs r ON r.id = v.run_id JOIN builds b ON b.id = r.build_id WHERE "
		 "v.family = 'xyz' AND v.radius = 4 AND v.nx = 512 AND v.precision = 'fp32'); "
		 "DELETE FROM runs WHERE problem_id NOT IN (SELECT id FROM problems WHERE family = "
		 "'xyz' AND radius = 4 AND nx = 512 AND precision = 'fp32')\"", root, dir, dir);
	t_ok(cmd, out, sizeof out);
	snprintf(env, sizeof env, "FDTUNE='%s' FDTUNE_TEMPLATES='%s/tpl'", getenv("FDTUNE"), dir);
	snprintf(cmd, sizeof cmd, "embed '%s/lost.db'", dir);
	assert_int_not_equal(shipped(env, cmd), 0);
	assert_non_null(strstr(out, "xyz R=4 512x512x512 fp32: not embedded"));
	assert_non_null(strstr(out, "1 checked, 1 failed"));
}

/* An export from the two GPUs' databases merged, no device named: it says
 * which device's best it took, and which others record the problem. */
static void a_merged_export_names_its_device(void **st)
{
	const char *root = getenv("ROOT"), *fdtune = getenv("FDTUNE");
	char cmd[4096];
	(void)st;
	if (!root || !fdtune)
		skip();
	snprintf(cmd, sizeof cmd, "'%s' merge --db '%s/both.db' '%s/results/h100/fdtune.db' "
		 "'%s/results/h200/fdtune.db' >/dev/null && '%s' export --db '%s/both.db' -f xyz "
		 "-r 4 -n 512 --out '%s/both' --name k 2>&1 >/dev/null", fdtune, dir, root, root,
		 fdtune, dir, dir);
	t_ok(cmd, out, sizeof out);
	assert_non_null(strstr(out, "2 devices record xyz R=4 512x512x512 fp32; exporting NVIDIA"));
	assert_non_null(strstr(out, "NVIDIA H100 80GB HBM3, NVIDIA H200"));
	/* named: nothing to say */
	snprintf(cmd, sizeof cmd, "'%s' export --db '%s/both.db' --device H100 -f xyz -r 4 -n 512 "
		 "--out '%s/both' --name k2 2>&1 >/dev/null", fdtune, dir, dir);
	t_ok(cmd, out, sizeof out);
	assert_null(strstr(out, "devices record"));
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(size_and_schema),
		cmocka_unit_test(bests_embed_after_templates_change),
		cmocka_unit_test(a_lost_source_is_named),
		cmocka_unit_test(a_merged_export_names_its_device),
	};
	int rc;
	if (!mkdtemp(dir))
		return 1;
	rc = cmocka_run_group_tests_name("shipped", t, NULL, NULL);
	t_rmtree(dir);
	return rc;
}
