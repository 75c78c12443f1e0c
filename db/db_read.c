/*
 * db_read.c: opening a results database only to read it, as fdtune best,
 * export, report, replay and merge's sources do. On a cluster the tuned
 * database often sits in a group directory its users may read but not
 * write, so a reader writes nothing to the file and leaves nothing beside
 * it: no -wal, -shm or journal. How SQLite is asked to open it depends on
 * what this process may do there:
 *   - the file and its directory writable: a read-write connection with
 *     PRAGMA query_only, so that SQLite's usual close (the last connection
 *     checkpoints and removes -wal and -shm) leaves the directory as it was,
 *     while a sweep writing the same file is seen as any reader sees it;
 *   - else, a -wal file with content beside it (a writer is at work, or
 *     one stopped before a checkpoint): mode=ro, which reads through the
 *     -wal and its -shm as they are;
 *   - else immutable=1: the file read as it is, without locks, which is
 *     right for a file nobody writes (one the owner writes again has its
 *     -wal and is read the previous way from then on).
 * db_read does not run SQLite's quick_check, which reads every page (0.3 s
 * on a 44 MB history, seconds on a database of many nights, at every
 * query of best, report and replay): a page found damaged when a query
 * reads it fails that query, and the CLI names the file (tn_cli_db_said);
 * damage that leaves every page well formed (a pointer to the wrong page)
 * may go unseen there. db_read_checked, for what leaves the database
 * (export, merge's sources, compact, --seeds-from, libfdtune's
 * companion) and for db_open, checks the whole file first.
 * A database of an older schema is copied into memory (SQLite's backup)
 * and migrated there, never in the file; a newer one is refused with
 * DB_NEWER_MSG, as db_open refuses it. db_open, here too, opens a regular
 * file the process may not write as db_read does, anything else read-write.
 */
#include "db.h"
#include "db_int.h"

#include <string.h>
#include <sys/stat.h>

const char *db_read_query(const char *path)
{
	char wal[4200];
	struct stat st;

	if (db_path_writable(path))
		return "";
	snprintf(wal, sizeof wal, "%s-wal", path);
	return !stat(wal, &st) && st.st_size > 0 ? "mode=ro" : "immutable=1";
}

/* Replaces *h by an in-memory copy of its main database migrated to the
 * latest schema from version ver; the file behind *h is only read. */
static int migrate_copy(sqlite3 **h, const char *path, int ver, char *err, size_t n)
{
	sqlite3 *m = NULL;
	sqlite3_backup *b;
	int rc = sqlite3_open_v2(":memory:", &m, SQLITE_OPEN_READWRITE, NULL);

	if (rc != SQLITE_OK) {
		rc = db_fail(err, n, "reading %s: cannot open a database in memory: %s", path,
					 m ? sqlite3_errmsg(m) : sqlite3_errstr(rc));
		goto done;
	}
	b = sqlite3_backup_init(m, "main", *h, "main");
	if (!b) {
		rc = db_fail(err, n, "reading %s into memory: %s", path, sqlite3_errmsg(m));
		goto done;
	}
	sqlite3_backup_step(b, -1);
	if (sqlite3_backup_finish(b) != SQLITE_OK) {
		rc = db_fail(err, n, "reading %s into memory: %s", path, sqlite3_errmsg(m));
		goto done;
	}
	rc = db_migrate(m, ver, DB_SCHEMA_LATEST, err, n);
	if (rc)
		goto done;
	db_shut(*h);
	*h = m;
	m = NULL;
done:
	db_shut(m);
	return rc ? FDT_FAIL : FDT_OK;
}

/* db_read and db_read_checked: check 1 runs SQLite's quick_check too. */
static int opener(const char *path, int check, struct db **out, char *err, size_t n)
{
	sqlite3 *h = NULL;
	char uri[4200];
	const char *q;
	int rc, ver;

	if (out)
		*out = NULL;
	if (!path || !*path || !out)
		return db_fail(err, n, "db_read: path and out are required");
	if (db_path_check(path, 0, err, n))
		return FDT_FAIL;
	q = db_read_query(path);
	db_uri(uri, sizeof uri, path, q);
	rc = sqlite3_open_v2(uri, &h, SQLITE_OPEN_URI | (*q ? SQLITE_OPEN_READONLY :
						 SQLITE_OPEN_READWRITE), db_fault_vfs());
	if (rc != SQLITE_OK) {
		rc = db_fail(err, n, "cannot open %s to read it: %s; check the path and its "
					 "permissions", path, h ? sqlite3_errmsg(h) : sqlite3_errstr(rc));
		goto done;
	}
	rc = db_exec(h, "PRAGMA query_only=1", "open read-only", err, n);
	if (!rc)
		rc = db_recognise(h, path, check, &ver, err, n);
	if (!rc && ver < DB_SCHEMA_LATEST)
		rc = migrate_copy(&h, path, ver, err, n);
	if (!rc)
		rc = db_wrap(&h, out, err, n);
done:
	db_shut(h);
	return rc ? FDT_FAIL : FDT_OK;
}

int db_read(const char *path, struct db **out, char *err, size_t n)
{
	return opener(path, 0, out, err, n);
}

int db_read_checked(const char *path, struct db **out, char *err, size_t n)
{
	return opener(path, 1, out, err, n);
}

int db_open(const char *path, struct db **out, char *err, size_t n)
{
	struct stat st;

	if (path && !stat(path, &st) && S_ISREG(st.st_mode) && !db_path_writable(path))
		return db_read_checked(path, out, err, n);      /* refused as db_open refuses */
	return db_open_version(path, DB_SCHEMA_LATEST, out, err, n);
}
