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
#include <string.h>
#include <sys/wait.h>
#include <dirent.h>

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

int t_sh(const char *cmd, char *out, size_t n)
{
	char *c;
	size_t len = strlen(cmd) + 16, k;
	FILE *p;
	int st;
	assert_non_null(c = malloc(len));
	snprintf(c, len, "( %s ) 2>&1", cmd);
	p = popen(c, "r");
	free(c);
	assert_non_null(p);
	k = fread(out, 1, n - 1, p);
	out[k] = 0;
	while (k == n - 1 && fgetc(p) != EOF)   /* the rest unread: drain it */
		;
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int t_fdtune(const char *env, const char *args, char *out, size_t n)
{
	char cmd[8192];
	const char *bin = getenv("FDTUNE");
	snprintf(cmd, sizeof cmd, "%s %s %s", env, bin ? bin : "./fdtune", args);
	return t_sh(cmd, out, n);
}

void t_expect(const char *env, const char *args, int status, const char *needle, char *out,
	      size_t n)
{
	int st = t_fdtune(env, args, out, n);
	if (st != status || !strstr(out, needle))
		print_error("fdtune %s -> %d, wanted %d and \"%s\":\n%s\n", args, st, status,
			    needle, out);
	assert_int_equal(st, status);
	assert_non_null(strstr(out, needle));
}

void t_ok(const char *cmd, char *out, size_t n)
{
	int st = t_sh(cmd, out, n);
	if (st)
		print_error("%s\n-> %d:\n%s\n", cmd, st, out);
	assert_int_equal(st, 0);
}

void t_nvcc(char *path, size_t n)
{
	if (t_sh("command -v nvcc || ls /usr/local/cuda/bin/nvcc", path, n))
		path[0] = 0;
	path[strcspn(path, "\n")] = 0;
}

int t_install(const char *root, const char *prefix)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "env -u MAKEFLAGS -u MFLAGS make -s -C '%s' install PREFIX=%s "
		 "INST=%s.build >/dev/null", root, prefix, prefix);
	return system(cmd) ? -1 : 0;
}

int t_setup_install(char *dir, const char *root, char *db, size_t dn, char *nvcc, size_t nn,
		    int *installed)
{
	const char *src = getenv("RESULTS_DB");
	char cmd[1024];
	*installed = 0;
	if (!mkdtemp(dir))
		return -1;
	snprintf(db, dn, "%s/h100.db", dir);
	snprintf(cmd, sizeof cmd, "cp '%s' %s", src ? src : "results/h100/fdtune.db", db);
	if (system(cmd))
		return -1;
	t_nvcc(nvcc, nn);
	snprintf(cmd, sizeof cmd, "%s/prefix", dir);
	*installed = !t_install(root, cmd);
	return 0;
}

void t_rmtree(const char *dir)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", dir);
}

/* Overwrites the cells of table t's root page in the database at path (an
 * interior page where t spans several): pages a query reads and a reader
 * does not check at open. */
void t_damage_root(const char *path, const char *t)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	long long root, psz;
	FILE *f;

	assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(h, "SELECT (SELECT rootpage FROM sqlite_master WHERE "
					    "name = ?1), (SELECT page_size FROM pragma_page_size)", -1,
					    &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_bind_text(st, 1, t, -1, SQLITE_STATIC), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	root = sqlite3_column_int64(st, 0);
	psz = sqlite3_column_int64(st, 1);
	assert_int_equal(sqlite3_finalize(st), SQLITE_OK);
	assert_int_equal(sqlite3_close(h), SQLITE_OK);
	assert_true(root > 1 && psz >= 1024);
	assert_non_null(f = fopen(path, "r+b"));
	assert_int_equal(fseek(f, (long)(root * psz - psz / 2), SEEK_SET), 0);
	for (long long i = 0; i < psz / 2; i++)
		fputc(0xa5, f);
	assert_int_equal(fclose(f), 0);
}

int t_at_nice(int nice)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int m = 0;
	assert_non_null(d);
	while ((e = readdir(d))) {
		char path[300], buf[1024], *p = NULL;
		FILE *f;
		int x;
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "/proc/self/task/%s/stat", e->d_name);
		if (!(f = fopen(path, "r")))
			continue;       /* a thread that has just ended */
		/* after the ")" that ends the name: fields 3..; nice is field 19 */
		if (fgets(buf, sizeof buf, f))
			p = strrchr(buf, ')');
		fclose(f);
		if (p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u "
				"%*d %*d %*d %d", &x) == 1)
			m += x == nice;
	}
	closedir(d);
	return m;
}
