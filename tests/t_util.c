/*
 * t_util.c: helpers the test programs share (t_util.h).
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

#include "t_util.h"

long long t_count(const char *path, const char *sql)
{
	sqlite3 *h;
	sqlite3_stmt *s;
	long long v = -1;
	assert_int_equal(sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &s, NULL), SQLITE_OK);
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	assert_int_equal(sqlite3_finalize(s), SQLITE_OK);
	assert_int_equal(sqlite3_close(h), SQLITE_OK);
	return v;
}

void t_rmtree(const char *dir)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", dir);
}
