/*
 * db.c - opening, checking and migrating fdtune's results database (the
 * migrations are in db_schema.c, the inserts in db_record.c).  A file is only ever written after
 * it has been recognised as empty or as an fdtune database with a schema
 * this build understands; anything else is refused untouched.  Every insert
 * is one autocommitted statement with bound parameters.  db_best lives in
 * db_best.c, the sweeps of dead processes in db_reap.c, the opening of a
 * database only to read it (and db_open, which chooses) in db_read.c.
 * A path is checked before SQLite opens it (db_path_check, below): SQLite
 * reports a directory, a device such as /dev/null, a missing directory or
 * a file without permission as "disk I/O error" or "unable to open
 * database file"; the check names what is wrong and what to do instead.
 */
#include "db.h"
#include "db_int.h"

#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>




int db_fail(char *err, size_t n, const char *fmt, ...)
{
	va_list ap;

	if (err && n) {
		va_start(ap, fmt);
		vsnprintf(err, n, fmt, ap);
		va_end(ap);
	}
	return FDT_FAIL;
}

static const char *hint(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_CONSTRAINT: return "check status/mode values, JSON params and referenced ids";
	case SQLITE_BUSY: case SQLITE_LOCKED: return "another process holds the lock; retry later";
	case SQLITE_FULL: case SQLITE_IOERR: return "check free disk space and the filesystem";
	case SQLITE_READONLY: case SQLITE_PERM: case SQLITE_CANTOPEN:
		return "check file and directory permissions";
	default: return "see the SQLite message";
	}
}

static int sqlerr(sqlite3 *h, int rc, const char *what, char *err, size_t n)
{
	const char *f = sqlite3_db_filename(h, "main");

	if ((rc & 0xff) == SQLITE_FULL)
		return db_fail(err, n, "%s: disk full: the filesystem of %s has no space left; free "
					   "space there (or choose another database) and run the same command again: "
					   "what is recorded is kept", what, f && *f ? f : "the database");
	if ((rc & 0xff) == SQLITE_CORRUPT || (rc & 0xff) == SQLITE_NOTADB)
		return db_fail(err, n, "%s: %s is damaged (SQLite: %s); move it aside or choose "
					   "another database", what, f && *f ? f : "the database",
					   sqlite3_errmsg(h));
	return db_fail(err, n, "%s: %s (%s)", what, sqlite3_errmsg(h), hint(rc));
}

/* As sqlerr, but a file SQLite cannot read is reported as such, by name. */
static int badfile(sqlite3 *h, int rc, const char *path, char *err, size_t n)
{
	if ((rc & 0xff) != SQLITE_NOTADB && (rc & 0xff) != SQLITE_CORRUPT)
		return sqlerr(h, rc, path, err, n);
	return db_fail(err, n, "%s is not a usable SQLite database: %s; move it aside or choose another database",
				path, sqlite3_errmsg(h));
}

/* Runs sql with v[0..nv-1] bound to ?1..?nv to completion; returns the
 * SQLite code, with sqlite3_errmsg(h) describing a failure. */
int db_run1(sqlite3 *h, const char *sql, const struct val *v, int nv, struct res *r)
{
	sqlite3_stmt *st = NULL;
	const unsigned char *t;
	int rc, frc, i, rows = 0;

	memset(r, 0, sizeof *r);
	rc = sqlite3_prepare_v2(h, sql, -1, &st, NULL);
	for (i = 0; rc == SQLITE_OK && i < nv; i++) {
		if (v[i].k == 's' && v[i].s)
			rc = sqlite3_bind_text(st, i + 1, v[i].s, -1, SQLITE_STATIC);
		else if (v[i].k == 'i')
			rc = sqlite3_bind_int64(st, i + 1, v[i].i);
		else if (v[i].k == 'd')
			rc = sqlite3_bind_double(st, i + 1, v[i].d);
		else
			rc = sqlite3_bind_null(st, i + 1);
	}
	if (rc != SQLITE_OK)
		goto done;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (rows++)
			continue;
		for (i = 0; i < 4 && i < sqlite3_column_count(st); i++)
			r->i[i] = sqlite3_column_int64(st, i);
		r->d = sqlite3_column_double(st, 0);
		t = sqlite3_column_text(st, 0);
		snprintf(r->t, sizeof r->t, "%s", t ? (const char *)t : "");
		for (i = 0; r->t[i]; i++)
			r->t[i] = r->t[i] == '\n' ? ' ' : r->t[i];
	}
	if (rc != SQLITE_DONE)
		goto done;
	r->got = sqlite3_column_count(st) > 0 ? rows : sqlite3_changes(h);
	rc = SQLITE_OK;
done:
	frc = sqlite3_finalize(st);
	return rc != SQLITE_OK ? rc : frc;
}

int db_stmt(sqlite3 *h, const char *sql, const struct val *v, int nv, struct res *r,
				const char *what, char *err, size_t n)
{
	int rc = db_run1(h, sql, v, nv, r);

	return rc == SQLITE_OK ? 0 : sqlerr(h, rc, what, err, n);
}

/* sqlite3_exec: for multi-statement SQL without results. */
int db_exec(sqlite3 *h, const char *sql, const char *what, char *err, size_t n)
{
	int rc = sqlite3_exec(h, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : sqlerr(h, rc, what, err, n);
}

/* Closes h (NULL allowed).  Only a statement left unfinalized, a bug in this
 * module, makes sqlite3_close fail; the close is then deferred to the last
 * finalize and the bug reported on stderr, as there is no caller to tell. */
void db_shut(sqlite3 *h)
{
	if (h && sqlite3_close(h) != SQLITE_OK) {
		fprintf(stderr, "fdtune: internal error closing database: %s\n", sqlite3_errmsg(h));
		if (sqlite3_close_v2(h) != SQLITE_OK)
			fprintf(stderr, "fdtune: database connection left open\n");
	}
}

int db_migrate(sqlite3 *h, int cur, int upto, char *err, size_t n)
{
	char sql[64], what[48];
	struct res r;
	int rc = FDT_FAIL, v;

	/* db_migrations[v - 1] exists for v in 1..DB_SCHEMA_LATEST only */
	if (cur < 0 || cur > DB_SCHEMA_LATEST || upto > DB_SCHEMA_LATEST)
		return db_fail(err, n, "unknown schema version %d (this fdtune knows 0..%d); "
					   "nothing was changed", cur < 0 || cur > DB_SCHEMA_LATEST ? cur : upto,
					   DB_SCHEMA_LATEST);
	for (v = cur + 1; v <= upto; v++) {
		snprintf(what, sizeof what, "schema migration %d", v);
		if (db_exec(h, "BEGIN IMMEDIATE", what, err, n) ||
			db_stmt(h, "PRAGMA user_version", NULL, 0, &r, what, err, n))
			goto done;
		if (r.i[0] < v) {
			if (db_exec(h, db_migrations[v - 1], what, err, n))
				goto done;
			/* PRAGMA takes no bound parameters; v is our own integer. */
			snprintf(sql, sizeof sql, "PRAGMA user_version=%d", v);
			if (db_exec(h, sql, what, err, n))
				goto done;
		}
		if (db_exec(h, "COMMIT", what, err, n))
			goto done;
	}
	rc = 0;
done:
	if (rc && !sqlite3_get_autocommit(h) &&
		sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL) != SQLITE_OK && err && n) {
		size_t k = strlen(err);
		if (k + 1 < n)
			snprintf(err + k, n - k, "; rollback failed too: %s", sqlite3_errmsg(h));
	}
	return rc;
}

int db_recognise(sqlite3 *h, const char *path, int exists, int *ver, char *err, size_t n)
{
	struct res r;
	int rc, app;

	if (db_exec(h, "PRAGMA busy_timeout=5000", "set busy timeout", err, n))
		return FDT_FAIL;
	rc = db_run1(h, "SELECT (SELECT application_id FROM pragma_application_id),"
				 " (SELECT user_version FROM pragma_user_version),"
				 " (SELECT count(*) FROM sqlite_master WHERE type = 'table'),"
				 " (SELECT count(*) FROM sqlite_master)", NULL, 0, &r);
	if (rc != SQLITE_OK)
		return badfile(h, rc, path, err, n);
	app = (int)r.i[0];
	*ver = (int)r.i[1];
	if (app != DB_APPLICATION_ID && (app != 0 || r.i[3] > 0 || *ver != 0))
		return db_fail(err, n, "%s is not an fdtune database (application_id 0x%08x, %lld tables); choose another database",
					path, (unsigned)app, r.i[2]);
	if (*ver > DB_SCHEMA_LATEST)
		return db_fail(err, n, DB_NEWER_MSG, path, *ver, DB_SCHEMA_LATEST);
	/* no fdtune writes a negative version, nor marks a file as its own
     * without migrating it past 0: refused, nothing written */
	if (*ver < 0 || (*ver == 0 && app == DB_APPLICATION_ID && r.i[3] > 0))
		return db_fail(err, n, "%s is not an fdtune database: unknown schema version %d "
					   "(this fdtune knows 1..%d); move it aside or choose another database",
					   path, *ver, DB_SCHEMA_LATEST);
	if (exists) {
		rc = db_run1(h, "PRAGMA quick_check(1)", NULL, 0, &r);
		if (rc != SQLITE_OK)
			return badfile(h, rc, path, err, n);
		if (strcmp(r.t, "ok") != 0)
			return db_fail(err, n, "%s fails SQLite's quick_check (%s); move it aside or choose another database",
						path, r.t);
	}
	return 0;
}

/* PRAGMA journal_mode=WAL into r. While another process creates the file
 * or switches it to WAL, SQLite may answer SQLITE_BUSY at once, without the
 * busy handler; so a busy answer is asked again, every 20 ms for up to the
 * busy timeout (5 s), before it is an error. */
static int set_wal(sqlite3 *h, struct res *r, char *err, size_t n)
{
	int rc = SQLITE_BUSY;
	for (int k = 0; k < 250 && ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED);
	     k++) {
		if (k)
			sqlite3_sleep(20);
		rc = db_run1(h, "PRAGMA journal_mode=WAL", NULL, 0, r);
	}
	return rc == SQLITE_OK ? 0 : sqlerr(h, rc, "set WAL journal mode", err, n);
}

/* Recognises the file behind h (db_recognise); then applies the connection
 * settings and migrations up to upto. */
static int setup(sqlite3 *h, const char *path, int exists, int upto, char *err, size_t n)
{
	struct res r;
	int ver;

	if (sqlite3_db_readonly(h, "main") != 0)
		return db_fail(err, n, "%s cannot be opened for writing; fix its permissions or choose another database", path);
	if (db_recognise(h, path, exists, &ver, err, n))
		return FDT_FAIL;
	if (db_exec(h, "PRAGMA foreign_keys=ON", "enable foreign keys", err, n) ||
		db_exec(h, "PRAGMA synchronous=NORMAL", "set synchronous=NORMAL", err, n) ||
		set_wal(h, &r, err, n))
		return FDT_FAIL;
	if (strcmp(r.t, "wal") != 0 && strcmp(r.t, "memory") != 0)
		return db_fail(err, n, "cannot put %s in WAL mode (journal_mode is '%s'); put --db on a local filesystem",
					path, r.t);
	return db_migrate(h, ver, upto, err, n);
}

int db_open_version(const char *path, int upto, struct db **out, char *err, size_t n)
{
	struct stat st;
	sqlite3 *h = NULL;
	int rc, exists;

	if (out)
		*out = NULL;
	if (!path || !*path || !out)
		return db_fail(err, n, "db_open: path and out are required");
	if (upto < 1 || upto > DB_SCHEMA_LATEST)
		return db_fail(err, n, "db_open: schema version %d is outside 1..%d", upto, DB_SCHEMA_LATEST);
	if (db_path_check(path, 1, err, n))
		return FDT_FAIL;
	errno = 0;
	exists = stat(path, &st) == 0;
	if (!exists && errno != ENOENT)
		return db_fail(err, n, "cannot access %s: %s; check the path and its permissions", path,
					strerror(errno));
	rc = sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI |
						 (exists ? 0 : SQLITE_OPEN_CREATE), db_fault_vfs());
	if (rc != SQLITE_OK) {
		rc = db_fail(err, n, "cannot open %s: %s; check the path and its permissions", path,
				  h ? sqlite3_errmsg(h) : sqlite3_errstr(rc));
		goto done;
	}
	rc = setup(h, path, exists, upto, err, n);
	if (!rc)
		rc = db_wrap(&h, out, err, n);
done:
	db_shut(h);
	return rc;
}

int db_wrap(sqlite3 **h, struct db **out, char *err, size_t n)
{
	if (!(*out = malloc(sizeof **out)))
		return db_fail(err, n, "opening %s: out of memory", sqlite3_db_filename(*h, "main"));
	(*out)->h = *h;
	(*out)->json = NULL;
	*h = NULL;
	return 0;
}

void db_close(struct db *d)
{
	if (d) {
		sqlite3_finalize(d->json);      /* its error, if any, was the last use's */
		db_shut(d->h);
	}
	free(d);
}

int db_version(struct db *d)
{
	struct res r;

	if (!d || db_run1(d->h, "PRAGMA user_version", NULL, 0, &r) != SQLITE_OK)
		return -1;
	return (int)r.i[0];
}

int db_full(struct db *d)
{
	return d && (sqlite3_errcode(d->h) & 0xff) == SQLITE_FULL;
}

int db_damaged(struct db *d, const char *err)
{
	const int c = d ? sqlite3_errcode(d->h) & 0xff : 0;
	return c == SQLITE_CORRUPT || c == SQLITE_NOTADB ||
	       (err && (strstr(err, sqlite3_errstr(SQLITE_CORRUPT)) ||
			strstr(err, sqlite3_errstr(SQLITE_NOTADB))));
}

int db_handle(struct db *d, struct sqlite3 **h, char *err, size_t n)
{
	if (!d || !h)
		return db_fail(err, n, "db_handle: database and output pointer are required");
	*h = d->h;
	return 0;
}

/* The directory of path (dirname, on a copy) into dir[0..n). */
static void dir_of(const char *path, char *dir, size_t n)
{
	char copy[4096];

	snprintf(copy, sizeof copy, "%s", path);
	snprintf(dir, n, "%s", dirname(copy));
}

int db_path_check(const char *path, int write, char *err, size_t n)
{
	struct stat st, ds;
	char dir[4096];

	if (strlen(path) >= sizeof dir)
		return db_fail(err, n, "%.200s...: path too long", path);
	dir_of(path, dir, sizeof dir);
	if (stat(path, &st)) {
		if (errno != ENOENT)
			return db_fail(err, n, "cannot access %s: %s; check the path and its permissions",
						   path, strerror(errno));
		if (!write)
			return db_fail(err, n, "no database at %s; give the path of a database that "
						   "fdtune sweep wrote", path);
		if (stat(dir, &ds))
			return db_fail(err, n, "cannot create %s: its directory %s %s; create it "
						   "(mkdir -p %s) or choose another path", path, dir,
						   errno == ENOENT ? "does not exist" : strerror(errno), dir);
		if (!S_ISDIR(ds.st_mode))
			return db_fail(err, n, "cannot create %s: %s is not a directory", path, dir);
		if (access(dir, W_OK | X_OK))
			return db_fail(err, n, "cannot create %s: directory %s is not writable (%s); "
						   "choose another path", path, dir, strerror(errno));
		return 0;
	}
	if (S_ISDIR(st.st_mode))
		return db_fail(err, n, "%s is a directory, not a database file; give the path of a "
					   "file (e.g. %s/fdtune.db)", path, strcmp(path, "/") ? path : "");
	if (!S_ISREG(st.st_mode))
		return db_fail(err, n, "%s is not a regular file (a %s); give the path of a database "
					   "file", path, S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "device" :
					   S_ISFIFO(st.st_mode) ? "pipe" : S_ISSOCK(st.st_mode) ? "socket" :
					   "special file");
	if (access(path, write ? R_OK | W_OK : R_OK))
		return db_fail(err, n, "%s cannot be %s: %s; fix its permissions or choose another "
					   "path", path, write ? "read and written" : "read", strerror(errno));
	/* SQLite writes its -wal and -shm files next to the database */
	if (write && access(dir, W_OK | X_OK))
		return db_fail(err, n, "%s is in a directory that is not writable (%s: %s), where "
					   "SQLite must keep its -wal and -shm files; move the database or fix "
					   "the permissions", path, dir, strerror(errno));
	return 0;
}

int db_path_writable(const char *path)
{
	char dir[4096];

	if (strlen(path) >= sizeof dir)
		return 0;
	dir_of(path, dir, sizeof dir);
	return !access(path, R_OK | W_OK) && !access(dir, W_OK | X_OK);
}
