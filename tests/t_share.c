/*
 * t_share.c: databases that are shared and read-only (issue 23, section 2).
 * best, export, report, replay and merge's sources work on a 0444 database
 * in a 0555 directory, and on a writable one in a 0555 directory, as a user
 * who may not write there, and leave nothing beside it; an older schema is
 * read without being migrated in the file; a database of a newer fdtune is
 * refused by every command with the same advice; a merge whose source
 * cannot be merged creates no target and merges nothing. Runs the built
 * binary ($FDTUNE) on a copy of $RESULTS_DB. Root ignores file permissions,
 * so as root the commands run without CAP_DAC_OVERRIDE and
 * CAP_DAC_READ_SEARCH (setpriv), after a write there has been seen to fail.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "t_util.h"
#include "db.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/fdt_shareXXXXXX";
static char out[65536];
/* what runs a command as a user who may not write the read-only files */
static char as_user[128];

static void expect(const char *args, int status, const char *needle)
{
	t_expect(as_user, args, status, needle, out, sizeof out);
}

/* The integer of sql's first row on the database at path, read as it is
 * (immutable), so that the test itself leaves no -wal or -shm beside it. */
static long long count(const char *path, const char *sql)
{
	char uri[600];
	sqlite3 *h;
	sqlite3_stmt *s;
	long long v = -1;
	snprintf(uri, sizeof uri, "file:%s?immutable=1", path);
	assert_int_equal(sqlite3_open_v2(uri, &h, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &s, NULL), SQLITE_OK);
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(h);
	return v;
}

/* The names in directory d, sorted, one a line, into out. */
static const char *listing(const char *d)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "ls -A '%s'", d);
	t_ok(cmd, out, sizeof out);
	return out;
}

/* Sets as_user so that a write to file in directory d fails, or skips. */
static void drop_write(const char *d, const char *file)
{
	char cmd[1024];
	snprintf(as_user, sizeof as_user, "%s", geteuid() ? "" :
		 "setpriv --bounding-set=-dac_override,-dac_read_search");
	snprintf(cmd, sizeof cmd, "%s sh -c \": >> '%s' || touch '%s/new'\" 2>/dev/null",
		 as_user, file, d);
	if (!t_sh(cmd, out, sizeof out)) {
		print_message("a write to %s or %s succeeds despite the permissions (root without "
			      "setpriv?): cannot test a read-only database here\n", file, d);
		skip();
	}
}

/* best, export, report, replay and merge (as a source) on db, in the
 * read-only directory d, all work and leave d as it was. */
static void readers(const char *d, const char *db)
{
	char args[1024], before[1024];
	snprintf(before, sizeof before, "%.1000s", listing(d));
	snprintf(args, sizeof args, "best --db %s -f xyz -r 4 -n 512", db);
	expect(args, 0, "xyz     4  512x512x512");
	snprintf(args, sizeof args, "export --db %s -f xyz -r 4 --out %s/exp", db, dir);
	expect(args, 0, "fdt_xyz_r4.cu");
	snprintf(args, sizeof args, "report --db %s -f xyz -r 4 --out %s/rep", db, dir);
	expect(args, 0, "wrote");
	snprintf(args, sizeof args, "replay --db %s -f xyz -r 4 --seeds 2", db);
	expect(args, 0, "exhaustive");
	snprintf(args, sizeof args, "merge --db %s/m.db %s", dir, db);
	expect(args, 0, "runs and");
	assert_string_equal(listing(d), before);
	assert_true(count(db, "select count(*) from runs") > 0);
	snprintf(args, sizeof args, "%s/m.db", dir);
	assert_int_equal(count(args, "select count(*) from runs"),
			 count(db, "select count(*) from runs"));
	unlink(args);
}

static void read_only(void **st)
{
	const char *src = getenv("RESULTS_DB");
	char d[256], db[512], cmd[1024];
	(void)st;
	if (!src)
		skip();
	snprintf(d, sizeof d, "%s/ro", dir);
	snprintf(db, sizeof db, "%s/h100.db", d);
	assert_int_equal(mkdir(d, 0755), 0);
	snprintf(cmd, sizeof cmd, "cp '%s' '%s'", src, db);
	assert_int_equal(system(cmd), 0);
	/* a 0444 file in a 0555 directory */
	assert_int_equal(chmod(db, 0444), 0);
	assert_int_equal(chmod(d, 0555), 0);
	drop_write(d, db);
	readers(d, db);
	/* a writable file in a 0555 directory */
	assert_int_equal(chmod(db, 0644), 0);
	readers(d, db);
	assert_int_equal(chmod(d, 0755), 0);
	/* a writable file in a writable directory: still nothing left beside it */
	as_user[0] = 0;
	readers(d, db);
}

/* An empty database of schema version 3, read-only: read as the latest version is
 * (nothing matches), merged, and left at version 3 with nothing beside it. */
static void older(void **st)
{
	char d[256], db[512], args[1024], err[512];
	struct db *h;
	(void)st;
	snprintf(d, sizeof d, "%s/old", dir);
	snprintf(db, sizeof db, "%s/v3.db", d);
	assert_int_equal(mkdir(d, 0755), 0);
	assert_int_equal(db_open_version(db, 3, &h, err, sizeof err), 0);
	db_close(h);
	assert_int_equal(chmod(db, 0444), 0);
	assert_int_equal(chmod(d, 0555), 0);
	drop_write(d, db);
	snprintf(args, sizeof args, "best --db %s", db);
	expect(args, 3, "no successful runs match");
	snprintf(args, sizeof args, "best --db %s --strategies", db);   /* a view of version 3 */
	expect(args, 3, "");
	snprintf(args, sizeof args, "merge --db %s/m3.db %s", dir, db);
	expect(args, 0, "0 runs and 0 builds added");
	assert_string_equal(listing(d), "v3.db\n");
	assert_int_equal(count(db, "pragma user_version"), 3);
	snprintf(args, sizeof args, "%s/m3.db", dir);
	assert_int_equal(t_count(args, "pragma user_version"), DB_SCHEMA_LATEST);
	assert_int_equal(chmod(d, 0755), 0);
}

/* A database of a newer fdtune: every command refuses it with one message,
 * whose advice is not to migrate it with this fdtune. */
static void newer(void **st)
{
	static const char *const cmds[] = { "best --db %s", "export --db %s --out %s/nx",
		"report --db %s --out %s/nr", "replay --db %s", "merge --db %s/nm.db %s",
		"sweep --compile-only -q -n 8 -r 1 -p vec=1 -p bx=32 -p by=1 -p ypt=1 -p lds=0 "
		"-p nw=8 -p nt=0 -p pf=0 -p zu=1 --db %s" };
	char db[256], args[1024], want[256], err[512];
	struct db *h;
	sqlite3 *s;
	(void)st;
	snprintf(db, sizeof db, "%s/newer.db", dir);
	assert_int_equal(db_open(db, &h, err, sizeof err), 0);
	assert_int_equal(db_handle(h, &s, err, sizeof err), 0);
	assert_int_equal(sqlite3_exec(s, "pragma user_version = 99", NULL, NULL, NULL), SQLITE_OK);
	db_close(h);
	snprintf(want, sizeof want, "was written by a newer fdtune (schema version 99; this "
		 "fdtune reads up to %d): use that fdtune", DB_SCHEMA_LATEST);
	as_user[0] = 0;
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		if (i == 4)
			snprintf(args, sizeof args, cmds[i], dir, db);
		else
			snprintf(args, sizeof args, cmds[i], db, dir);
		expect(args, 1, want);
		assert_null(strstr(out, "to migrate"));
	}
	snprintf(args, sizeof args, "%s/nm.db", dir);
	assert_int_not_equal(access(args, F_OK), 0);
	assert_int_equal(t_count(db, "pragma user_version"), 99);
}

/* A merge with a missing or foreign source creates no target and merges
 * nothing of the sources before it; an existing target is left as it was. */
static void failed_merge(void **st)
{
	char good[256], foreign[256], target[256], args[2048];
	sqlite3 *h;
	(void)st;
	as_user[0] = 0;
	snprintf(good, sizeof good, "%s/good.db", dir);
	snprintf(foreign, sizeof foreign, "%s/foreign.db", dir);
	snprintf(target, sizeof target, "%s/t.db", dir);
	snprintf(args, sizeof args, "sweep --compile-only -q -j 1 -n 8 -r 1 -p vec=1 -p bx=32 "
		 "-p by=1 -p ypt=1 -p lds=0 -p nw=8 -p nt=0 -p pf=0 -p zu=1 --db %s", good);
	expect(args, 0, "done");
	assert_int_equal(sqlite3_open(foreign, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, "create table t(x)", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	snprintf(args, sizeof args, "merge --db %s %s %s/missing.db", target, good, dir);
	expect(args, 1, "missing.db");
	assert_non_null(strstr(out, "nothing was merged"));
	assert_int_not_equal(access(target, F_OK), 0);
	snprintf(args, sizeof args, "merge --db %s %s %s", target, good, foreign);
	expect(args, 1, "not an fdtune database");
	assert_non_null(strstr(out, "nothing was merged"));
	assert_int_not_equal(access(target, F_OK), 0);
	/* an existing, empty target stays empty */
	assert_int_equal(sqlite3_open(target, &h), SQLITE_OK);
	sqlite3_close(h);
	snprintf(args, sizeof args, "merge --db %s %s %s", target, good, foreign);
	expect(args, 1, "nothing was merged");
	assert_int_equal(t_count(target, "select count(*) from sqlite_master"), 0);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(read_only), cmocka_unit_test(older), cmocka_unit_test(newer),
		cmocka_unit_test(failed_merge),
	};
	int rc;
	if (!mkdtemp(dir))
		return 1;
	rc = cmocka_run_group_tests_name("share", t, NULL, NULL);
	{
		char cmd[128];
		snprintf(cmd, sizeof cmd, "chmod -R u+w '%s'", dir);   /* after a failure */
		if (system(cmd))
			fprintf(stderr, "%s failed\n", cmd);
	}
	t_rmtree(dir);
	return rc;
}
