/*
 * fz_db.c: libFuzzer target for reading a hostile database. The input is a
 * script that turns a fresh fdtune database (made by db_open, so it has the
 * current schema, application id and version) into a hostile one; then
 * every reader of fdtune runs on it in-process: libfdtune's fdtune_open and
 * fdtune_lookup, db_merge of it into a good database, and, where db_open
 * accepts it, db_best (table, CSV, JSON; best and all), db_strategies,
 * db_pick, db_each_run, db_devices, tn_report_write and fdtune export
 * (tn_cmd_export, also --all-devices). They may refuse the file, never
 * crash, leak or misbehave.
 *
 * One line is one step; fields are separated by '|':
 *   !loose                 every table rebuilt without types or constraints
 *   !drop|T                table T dropped
 *   !table|T|C1|C2...      table T replaced by one of columns C1, C2, ...
 *                          (none typed): missing and extra columns
 *   !version|N, !appid|N   PRAGMA user_version, application_id
 *   T|V1|V2...             a row inserted into T, in column order; missing
 *                          values are NULL, extra ones dropped. V is iN an
 *                          integer, rX a real, tS text S, n NULL, xS a blob
 *                          of S's bytes, hN:S text S repeated to N bytes
 *                          (at most 1 MiB)
 * CHECK constraints are off while the script runs, so wrong statuses and
 * modes get in; NOT NULL and types go with !loose.
 */
#define _POSIX_C_SOURCE 200809L
#include "db.h"
#include "fdtune.h"
#include "tn_cli.h"
#include "tn_report.h"

#include <dirent.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static char dir[] = "/tmp/fz_dbXXXXXX", path[64], good[64], tgt[64], out[64];
static const char *const tables[] = { "devices", "problems", "configs", "sweeps", "builds", "runs" };

static void rmfiles(const char *d)
{
	DIR *dp = opendir(d);
	struct dirent *e;
	char p[512];
	while (dp && (e = readdir(dp)))
		if (e->d_name[0] != '.' && strcmp(e->d_name, "good.db")) {
			snprintf(p, sizeof p, "%s/%s", d, e->d_name);
			unlink(p);
		}
	if (dp)
		closedir(dp);
}

static int copy(const char *from, const char *to)
{
	FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
	char buf[65536];
	size_t k;
	int rc = !a || !b;
	while (!rc && (k = fread(buf, 1, sizeof buf, a)) > 0)
		rc = fwrite(buf, 1, k, b) != k;
	if (a)
		fclose(a);
	if (b && fclose(b))
		rc = 1;
	return rc;
}

static void cleanup(void)
{
	rmfiles(out);
	rmdir(out);
	rmfiles(dir);
	unlink(good);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct db *d;
	char err[512];
	(void)argc;
	(void)argv;
	opterr = 0;
	if (!freopen("/dev/null", "w", stdout) || !mkdtemp(dir))
		abort();
	snprintf(path, sizeof path, "%s/h.db", dir);
	snprintf(good, sizeof good, "%s/good.db", dir);
	snprintf(tgt, sizeof tgt, "%s/t.db", dir);
	snprintf(out, sizeof out, "%s/out", dir);
	atexit(cleanup);
	/* a fresh database in rollback mode, copied as the start of each input */
	if (db_open(good, &d, err, sizeof err))
		abort();
	db_close(d);
	{
		sqlite3 *h;
		if (sqlite3_open(good, &h) || sqlite3_exec(h, "PRAGMA journal_mode=DELETE", 0, 0, 0) ||
		    sqlite3_close(h))
			abort();
	}
	return 0;
}

static void bind(sqlite3_stmt *st, int i, char *v, size_t *budget)
{
	switch (*v) {
	case 'i': sqlite3_bind_int64(st, i, strtoll(v + 1, NULL, 0)); break;
	case 'r': sqlite3_bind_double(st, i, strtod(v + 1, NULL)); break;
	case 't': sqlite3_bind_text(st, i, v + 1, -1, SQLITE_TRANSIENT); break;
	case 'x': sqlite3_bind_blob(st, i, v + 1, (int)strlen(v + 1), SQLITE_TRANSIENT); break;
	case 'h': {
		char *colon, *b;
		size_t len = strtoul(v + 1, &colon, 10), pl;
		if (*colon != ':' || !(pl = strlen(colon + 1)))
			break;
		if (len > 1 << 20)
			len = 1 << 20;
		if (len > *budget)
			len = *budget;
		*budget -= len;
		if (!(b = malloc(len + 1)))
			break;
		for (size_t k = 0; k < len; k++)
			b[k] = colon[1 + k % pl];
		sqlite3_bind_text(st, i, b, (int)len, free);
		break;
	}
	default: break; /* NULL */
	}
}

static void step(sqlite3 *h, char *line, size_t *budget)
{
	char *f[64], *save = NULL, *sql = NULL;
	int nf = 0;
	for (char *t = strtok_r(line, "|", &save); t && nf < 64; t = strtok_r(NULL, "|", &save))
		f[nf++] = t;
	if (!nf)
		return;
	if (!strcmp(f[0], "!loose")) {
		for (size_t i = 0; i < sizeof tables / sizeof *tables; i++) {
			sql = sqlite3_mprintf("ALTER TABLE \"%w\" RENAME TO fz_old;"
					      "CREATE TABLE \"%w\" AS SELECT * FROM fz_old;"
					      "DROP TABLE fz_old;", tables[i], tables[i]);
			sqlite3_exec(h, "PRAGMA legacy_alter_table=ON", 0, 0, 0);
			sqlite3_exec(h, sql, 0, 0, 0);
			sqlite3_free(sql);
		}
		return;
	}
	if (!strcmp(f[0], "!drop") && nf > 1) {
		sql = sqlite3_mprintf("DROP TABLE IF EXISTS \"%w\"", f[1]);
	} else if (!strcmp(f[0], "!table") && nf > 1) {
		char *cols = sqlite3_mprintf("");
		for (int i = 2; i < nf && cols; i++) {
			char *c = sqlite3_mprintf("%s%s\"%w\"", cols, i > 2 ? "," : "", f[i]);
			sqlite3_free(cols);
			cols = c;
		}
		sql = sqlite3_mprintf("DROP TABLE IF EXISTS \"%w\"; CREATE TABLE \"%w\"(%s)", f[1], f[1],
				      cols && *cols ? cols : "x");
		sqlite3_free(cols);
	} else if (!strcmp(f[0], "!version") && nf > 1) {
		sql = sqlite3_mprintf("PRAGMA user_version=%d", atoi(f[1]));
	} else if (!strcmp(f[0], "!appid") && nf > 1) {
		sql = sqlite3_mprintf("PRAGMA application_id=%d", (int)strtol(f[1], NULL, 0));
	} else if (f[0][0] != '!') {
		sqlite3_stmt *st = NULL;
		char *q = sqlite3_mprintf("SELECT * FROM \"%w\"", f[0]);
		int nc = 0;
		if (q && sqlite3_prepare_v2(h, q, -1, &st, NULL) == SQLITE_OK)
			nc = sqlite3_column_count(st);
		sqlite3_finalize(st);
		sqlite3_free(q);
		if (nc <= 0 || nc > 64)
			return;
		{
			char vals[200] = "?";
			for (int i = 1; i < nc; i++)
				strcat(vals, ",?");
			q = sqlite3_mprintf("INSERT INTO \"%w\" VALUES(%s)", f[0], vals);
		}
		st = NULL;
		if (q && sqlite3_prepare_v2(h, q, -1, &st, NULL) == SQLITE_OK) {
			for (int i = 1; i < nf && i <= nc; i++)
				bind(st, i, f[i], budget);
			sqlite3_step(st);
		}
		sqlite3_finalize(st);
		sqlite3_free(q);
		return;
	}
	if (sql)
		sqlite3_exec(h, sql, 0, 0, 0);
	sqlite3_free(sql);
}

static int each(void *ctx, const char *params, const char *status, double ms)
{
	(void)params;
	(void)status;
	(void)ms;
	return ++*(int *)ctx > 1000;
}

static void export(const char *extra)
{
	char *argv[] = { "export", "--db", path, "--out", out, "--name", "k", (char *)extra, "-r",
			 "4", NULL };
	optind = 0;
	tn_cmd_export(extra ? 10 : 7, argv);
}

static void readers(void)
{
	static const struct db_filter some = { "H", "xyz", "fp32", 4, 512, 512, 512, DB_OBJ_TIME };
	const struct db_filter *fs[] = { NULL, &some };
	char err[2048], names[8][256];
	struct db *d = NULL;
	fdtune_db *lib = NULL;
	FILE *null = fopen("/dev/null", "w");
	long long runs, builds;

	/* readers that leave the file as it is first */
	if (!fdtune_open(path, &lib, err, sizeof err)) {
		struct fdtune_config c;
		const char *devs[] = { "", "H100", "sm_90" };
		for (int i = 0; i < 3; i++)
			if (!fdtune_lookup(lib, devs[i], "xyz", 4, 512, 512, 512, "fp32", &c, err,
					   sizeof err))
				fdtune_param(&c, "vec", 1);
		fdtune_close(lib);
	}
	if (!copy(good, tgt) && !db_open(tgt, &d, err, sizeof err)) {
		db_merge(d, path, NULL, &runs, &builds, err, sizeof err);
		db_close(d);
	}
	export(NULL);
	export("--all-devices");
	if (!db_open(path, &d, err, sizeof err)) {
		struct db_pick p;
		struct db_filter rf = { 0 };
		sqlite3 *h;
		int cnt = 0, np;
		for (int k = 0; k < 2; k++) {
			for (int fmt = DB_TABLE; fmt <= DB_JSON; fmt++) {
				db_best(d, fs[k], fmt, 0, null, err, sizeof err);
				db_best(d, fs[k], fmt, 1, null, err, sizeof err);
				db_strategies(d, fs[k], fmt, null, err, sizeof err);
			}
			if (!db_pick(d, fs[k], 0, &p, err, sizeof err))
				db_each_run(d, p.run, each, &cnt, err, sizeof err);
			db_devices(d, fs[k], names, 8, &cnt, err, sizeof err);
		}
		if (!db_handle(d, &h, err, sizeof err))
			tn_report_write(h, path, &rf, out, &np, err, sizeof err);
		db_close(d);
	}
	if (null)
		fclose(null);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s, *line, *save = NULL;
	size_t budget = 4 << 20;
	sqlite3 *h = NULL;

	rmfiles(out);
	rmfiles(dir);
	if (copy(good, path) || !(s = malloc(size + 1)))
		return 0;
	memcpy(s, data, size);
	s[size] = 0;
	if (sqlite3_open(path, &h) == SQLITE_OK) {
		sqlite3_exec(h, "PRAGMA ignore_check_constraints=ON", 0, 0, 0);
		for (line = strtok_r(s, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			step(h, line, &budget);
	}
	sqlite3_close(h);
	free(s);
	readers();
	return 0;
}
