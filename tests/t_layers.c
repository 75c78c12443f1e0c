/*
 * t_layers.c: fdtune's files in layers a tool can check (tests/layers.sh).
 * The objects of fdtune and libfdtune, through nm: no circle between files
 * and no arrow from a lower folder to a higher one (runtime and gen below
 * db below tuner). And the check itself, on made-up graphs: it passes a
 * clean one, and names the edges of a circle of three files and of an
 * arrow from db/ up to tuner/. And one style (tests/style.sh): the C files
 * indented with tabs, no whitespace at the end of a line; a file indented
 * with spaces is named.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "t_util.h"

static const char *root(void)
{
	const char *r = getenv("ROOT");
	return r && *r ? r : ".";
}

static void fdtune_objects(void **st)
{
	char cmd[16384], out[8192];
	(void)st;
	snprintf(cmd, sizeof cmd, "cd '%s' && sh tests/layers.sh %s %s", root(), T_LAYER_B,
		 T_LAYER_OBJS);
	if (t_sh(cmd, out, sizeof out) != 0)
		fail_msg("%s", out);
	assert_non_null(strstr(out, "no circle, no arrow up a floor"));
}

/* layers.sh --syms on the lines given; its status, its output in out. */
static int check(const char *lines, char *out, size_t n)
{
	char path[] = "/tmp/t_layers_XXXXXX", cmd[512];
	int fd = mkstemp(path), rc;
	FILE *f;
	assert_true(fd >= 0);
	assert_non_null(f = fdopen(fd, "w"));
	fputs(lines, f);
	assert_int_equal(fclose(f), 0);
	snprintf(cmd, sizeof cmd, "sh '%s/tests/layers.sh' --syms %s", root(), path);
	rc = t_sh(cmd, out, n);
	remove(path);
	return rc;
}

static void made_up(void **st)
{
	char out[4096];
	(void)st;
	/* tuner -> db -> gen, and a file that needs nothing: clean */
	assert_int_equal(check("D gen/g.o g\nD db/d.o d\nU db/d.o g\nD tuner/t.o t\n"
			       "U tuner/t.o d\nU tuner/t.o printf\n", out, sizeof out), 0);
	assert_non_null(strstr(out, "3 files, 2 edges"));
	/* a -> b -> c -> a, and d -> a outside the circle */
	assert_int_equal(check("D tuner/a.o fa\nD tuner/b.o fb\nD tuner/c.o fc\nD tuner/d.o fd\n"
			       "U tuner/a.o fb\nU tuner/b.o fc\nU tuner/c.o fa\nU tuner/d.o fa\n",
			       out, sizeof out), 1);
	assert_non_null(strstr(out, "circle: tuner/a.o needs fb of tuner/b.o"));
	assert_non_null(strstr(out, "circle: tuner/c.o needs fa of tuner/a.o"));
	assert_null(strstr(out, "tuner/d.o"));
	/* db needing tuner: up a floor */
	assert_int_equal(check("D db/x.o x\nD tuner/y.o y\nU db/x.o y\n", out, sizeof out), 1);
	assert_non_null(strstr(out, "db/x.o needs y of tuner/y.o, a floor above it"));
}

static void one_style(void **st)
{
	char cmd[1024], out[8192], dir[] = "/tmp/t_style_XXXXXX";
	FILE *f;
	(void)st;
	snprintf(cmd, sizeof cmd, "sh '%s/tests/style.sh' '%s'", root(), root());
	if (t_sh(cmd, out, sizeof out) != 0)
		fail_msg("%s", out);
	assert_non_null(strstr(out, "files, clean"));
	/* a tree of one file indented with spaces */
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof cmd, "mkdir -p %s/gen %s/runtime %s/db %s/tuner %s/tests %s/examples",
		 dir, dir, dir, dir, dir, dir);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof cmd, "%s/db/x.c", dir);
	assert_non_null(f = fopen(cmd, "w"));
	fputs("int f(void)\n{\n    return 0;\n}\n", f);
	assert_int_equal(fclose(f), 0);
	snprintf(cmd, sizeof cmd, "sh '%s/tests/style.sh' %s", root(), dir);
	assert_int_equal(t_sh(cmd, out, sizeof out), 1);
	assert_non_null(strstr(out, "db/x.c:3: indented with spaces"));
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest t[] = { cmocka_unit_test(fdtune_objects), cmocka_unit_test(made_up),
		cmocka_unit_test(one_style) };
	return cmocka_run_group_tests_name("layers", t, NULL, NULL);
}
