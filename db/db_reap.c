/*
 * db_reap.c: sweeps whose process is gone, and sweeps still running. A sweep
 * records the pid of its process and an identity of that process (boot and
 * start time, db_proc_id), from schema 5 on. A sweep left 'running' on this
 * host whose pid no longer exists, or now belongs to another process, was
 * stopped without a word (kill -9, a crash, a full disk) and is marked
 * 'interrupted' by db_reap_sweeps. Sweeps of other hosts cannot be checked
 * from here and are left as they are; db_live_sweeps lists them with their
 * age, and this host's whose process is gone as interrupted (without
 * writing: it only reads).
 */
#include "db.h"
#include "db_int.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

/* The first line of file path into buf, without its newline; -1 if none. */
static int line(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	int ok = f && fgets(buf, (int)n, f);

	if (f)
		fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

int db_proc_id(long pid, char *buf, size_t n)
{
	char path[64], stat[1024], boot[64];
	const char *p;
	unsigned long long start;

	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	if (line("/proc/sys/kernel/random/boot_id", boot, sizeof boot) || line(path, stat, sizeof stat))
		return FDT_FAIL;
	/* field 22, starttime; the command name (field 2) may hold spaces and ')' */
	p = strrchr(stat, ')');
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%llu", &start) != 1)
		return FDT_FAIL;
	snprintf(buf, n, "%s/%llu", boot, start);
	return 0;
}

/* 1 when process pid has ended but its parent has not reaped it yet: a
 * zombie (state Z, or X while it goes), which kill(pid, 0) still finds. */
static int dead(long pid)
{
	char path[64], stat[1024];
	const char *p;

	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	if (line(path, stat, sizeof stat) || !(p = strrchr(stat, ')')))
		return 0;
	return p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X');
}

/* 1 when process pid, whose identity was recorded as id (NULL: unknown),
 * still runs. */
static int alive(long pid, const char *id)
{
	char now[128];

	if (pid <= 0)
		return 0;
	if ((kill((pid_t)pid, 0) && errno != EPERM) || dead(pid))
		return 0;
	if (!id || db_proc_id(pid, now, sizeof now))
		return 1;       /* it exists; nothing to tell it from another process */
	return !strcmp(now, id);
}

int db_reap_sweeps(struct db *d, FILE *log, int *reaped, char *err, size_t n)
{
	sqlite3 *h;
	sqlite3_stmt *st = NULL, *up = NULL;
	char host[256] = "";
	int rc, count = 0;

	if (reaped)
		*reaped = 0;
	if (db_handle(d, &h, err, n))
		return FDT_FAIL;
	if (db_version(d) < 5)
		return 0;       /* no pids recorded */
	if (gethostname(host, sizeof host - 1))
		return 0;       /* cannot tell which sweeps are this host's */
	/* the write lock first: a read turned write would fail at once (not
     * after the busy timeout) when another process wrote meanwhile */
	rc = sqlite3_exec(h, "BEGIN IMMEDIATE", NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(h, "SELECT id, pid, proc_id, started FROM sweeps WHERE"
							   " status = 'running' AND host = ?1 AND pid IS NOT NULL",
							-1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(h, "UPDATE sweeps SET status = 'interrupted', ended = "
								   "strftime('%Y-%m-%dT%H:%M:%SZ','now'), message = ?2"
								   " WHERE id = ?1 AND status = 'running'", -1, &up, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, 1, host, -1, SQLITE_STATIC);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long id = sqlite3_column_int64(st, 0);
		long pid = (long)sqlite3_column_int64(st, 1);
		const char *pi = (const char *)sqlite3_column_text(st, 2);
		char msg[256], started[32];

		rc = SQLITE_OK;
		if (alive(pid, pi))
			continue;
		snprintf(started, sizeof started, "%s", (const char *)sqlite3_column_text(st, 3));
		snprintf(msg, sizeof msg, "its process (pid %ld on %s) is gone: killed, crashed or "
				 "out of disk; what it recorded is kept", pid, host);
		if ((rc = sqlite3_bind_int64(up, 1, id)) != SQLITE_OK ||
			(rc = sqlite3_bind_text(up, 2, msg, -1, SQLITE_TRANSIENT)) != SQLITE_OK)
			break;
		rc = sqlite3_step(up);
		if (rc != SQLITE_DONE)
			break;
		rc = sqlite3_reset(up);
		if (sqlite3_changes(h) == 1) {
			count++;
			if (log)
				fprintf(log, "fdtune: sweep %lld, started %s by pid %ld on %s, was left "
						"running by a process that is gone; marked interrupted (what it "
						"recorded is kept; run the same command to resume it)\n",
						id, started, pid, host);
		}
	}
	if (rc == SQLITE_DONE)
		rc = SQLITE_OK;
	sqlite3_finalize(st);
	sqlite3_finalize(up);
	if (rc == SQLITE_OK && !sqlite3_get_autocommit(h))
		rc = sqlite3_exec(h, "COMMIT", NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		db_fail(err, n, "marking the sweeps of dead processes interrupted: %s (check free disk "
				"space and permissions)", sqlite3_errmsg(h));
	if (!sqlite3_get_autocommit(h))     /* after a failure: its message is in err */
		(void)sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
	if (reaped)
		*reaped = count;
	return rc == SQLITE_OK ? 0 : -1;
}

int db_live_sweeps(struct db *d, FILE *out, const char *prefix, int *count, char *err, size_t n)
{
	sqlite3 *h;
	sqlite3_stmt *st = NULL;
	char host[256] = "";
	int rc, k = 0;

	if (count)
		*count = 0;
	if (db_handle(d, &h, err, n))
		return FDT_FAIL;
	if (gethostname(host, sizeof host - 1))
		host[0] = 0;    /* no sweep can be told to be this host's: all listed as running */
	/* only read: a sweep whose process is gone is told, not marked (that is
     * db_reap_sweeps', run by the commands that write) */
	rc = sqlite3_prepare_v2(h, db_version(d) >= 5 ?
							"SELECT s.id, s.host, s.started, p.family, p.radius, p.nx, p.ny,"
							" p.nz, p.precision, s.mode,"
							" (julianday('now') - julianday(s.started)) * 24, s.pid, s.proc_id"
							" FROM sweeps s JOIN problems p ON p.id = s.problem_id"
							" WHERE s.status = 'running' ORDER BY s.id" :
							"SELECT s.id, s.host, s.started, p.family, p.radius, p.nx, p.ny,"
							" p.nz, p.precision, s.mode,"
							" (julianday('now') - julianday(s.started)) * 24, NULL, NULL"
							" FROM sweeps s JOIN problems p ON p.id = s.problem_id"
							" WHERE s.status = 'running' ORDER BY s.id", -1, &st, NULL);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		double hours = sqlite3_column_double(st, 10);
		const char *sh = (const char *)sqlite3_column_text(st, 1);
		long pid = (long)sqlite3_column_int64(st, 11);
		int gone = *host && sh && !strcmp(sh, host) &&
				   sqlite3_column_type(st, 11) != SQLITE_NULL &&
				   !alive(pid, (const char *)sqlite3_column_text(st, 12));
		char age[32], what[200];

		rc = SQLITE_OK;
		if (hours < 1)
			snprintf(age, sizeof age, "%.0f min", hours * 60);
		else
			snprintf(age, sizeof age, "%.1f h", hours);
		snprintf(what, sizeof what, "sweep %lld (%s R=%d %dx%dx%d %s, %s)",
				 sqlite3_column_int64(st, 0), sqlite3_column_text(st, 3),
				 sqlite3_column_int(st, 4), sqlite3_column_int(st, 5),
				 sqlite3_column_int(st, 6), sqlite3_column_int(st, 7),
				 sqlite3_column_text(st, 8), sqlite3_column_text(st, 9));
		k += !gone;
		if (out && gone)
			fprintf(out, "%s%s, started on host %s at %s, is interrupted: its process (pid "
					"%ld) is gone (killed or crashed); what it recorded is kept, and the "
					"same sweep command resumes it\n", prefix ? prefix : "", what, sh,
					sqlite3_column_text(st, 2), pid);
		else if (out)
			fprintf(out, "%s%s running on host %s since %s (%s ago)\n", prefix ? prefix : "",
					what, sh ? sh : "", sqlite3_column_text(st, 2), age);
	}
	if (rc == SQLITE_DONE)
		rc = SQLITE_OK;
	if (rc != SQLITE_OK)
		db_fail(err, n, "listing running sweeps: %s", sqlite3_errmsg(h));
	sqlite3_finalize(st);
	if (count)
		*count = k;
	return rc == SQLITE_OK ? 0 : -1;
}
