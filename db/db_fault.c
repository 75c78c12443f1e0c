/*
 * db_fault.c: fault injection under the database, for the tests only, in
 * the manner of SQLite's own I/O error tests. A VFS shim wraps the default
 * VFS and counts the writes (xWrite, xSync, xTruncate) to every file of a
 * database opened through it: the database, its WAL and its journal.
 *   FDTUNE_FAULT=db:N    the N-th write fails once with an I/O error;
 *   FDTUNE_FAULT=full:N  the N-th and every later write fail with
 *                        SQLITE_FULL, as on a disk that has filled up.
 * Each injected fault is announced on stderr ("FDTUNE_FAULT: ..."), so a
 * test knows that it happened. Without FDTUNE_FAULT (or with another
 * prefix) nothing is registered and db_open uses the default VFS.
 */
#include "db_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#define NAME "fdtune-fault"

static sqlite3_vfs vfs;
static sqlite3_vfs *root;
static long long nth, seen;     /* the write that fails, the writes so far */
static int full;                /* full:N, else db:N */

/* A file of the shim: the real file follows it in the same allocation. */
struct ff { sqlite3_file base; sqlite3_file *real; };

static int hit(int io)
{
	if (++seen < nth || (!full && seen > nth))
		return SQLITE_OK;
	if (seen == nth)
		fprintf(stderr, "fdtune: FDTUNE_FAULT: database write %lld fails (%s)\n", seen,
			full ? "disk full from now on" : "I/O error, once");
	return full ? SQLITE_FULL : io;
}

static sqlite3_file *real(sqlite3_file *f) { return ((struct ff *)f)->real; }

static int f_close(sqlite3_file *f) { return real(f)->pMethods->xClose(real(f)); }
static int f_read(sqlite3_file *f, void *b, int n, sqlite3_int64 o)
{
	return real(f)->pMethods->xRead(real(f), b, n, o);
}
static int f_write(sqlite3_file *f, const void *b, int n, sqlite3_int64 o)
{
	int rc = hit(SQLITE_IOERR_WRITE);
	return rc ? rc : real(f)->pMethods->xWrite(real(f), b, n, o);
}
static int f_truncate(sqlite3_file *f, sqlite3_int64 size)
{
	int rc = hit(SQLITE_IOERR_TRUNCATE);
	return rc ? rc : real(f)->pMethods->xTruncate(real(f), size);
}
static int f_sync(sqlite3_file *f, int flags)
{
	int rc = hit(SQLITE_IOERR_FSYNC);
	return rc ? rc : real(f)->pMethods->xSync(real(f), flags);
}
static int f_size(sqlite3_file *f, sqlite3_int64 *s)
{
	return real(f)->pMethods->xFileSize(real(f), s);
}
static int f_lock(sqlite3_file *f, int l) { return real(f)->pMethods->xLock(real(f), l); }
static int f_unlock(sqlite3_file *f, int l) { return real(f)->pMethods->xUnlock(real(f), l); }
static int f_reserved(sqlite3_file *f, int *r)
{
	return real(f)->pMethods->xCheckReservedLock(real(f), r);
}
static int f_control(sqlite3_file *f, int op, void *a)
{
	return real(f)->pMethods->xFileControl(real(f), op, a);
}
static int f_sector(sqlite3_file *f) { return real(f)->pMethods->xSectorSize(real(f)); }
static int f_chars(sqlite3_file *f)
{
	return real(f)->pMethods->xDeviceCharacteristics(real(f));
}
static int f_shmmap(sqlite3_file *f, int pg, int sz, int ext, void volatile **p)
{
	return real(f)->pMethods->xShmMap(real(f), pg, sz, ext, p);
}
static int f_shmlock(sqlite3_file *f, int o, int n, int fl)
{
	return real(f)->pMethods->xShmLock(real(f), o, n, fl);
}
static void f_shmbarrier(sqlite3_file *f) { real(f)->pMethods->xShmBarrier(real(f)); }
static int f_shmunmap(sqlite3_file *f, int del)
{
	return real(f)->pMethods->xShmUnmap(real(f), del);
}
/* no memory-mapped pages: every write goes through xWrite */
static int f_fetch(sqlite3_file *f, sqlite3_int64 o, int n, void **p)
{
	(void)f, (void)o, (void)n;
	*p = NULL;
	return SQLITE_OK;
}
static int f_unfetch(sqlite3_file *f, sqlite3_int64 o, void *p)
{
	(void)f, (void)o, (void)p;
	return SQLITE_OK;
}

static const sqlite3_io_methods methods = {
	3, f_close, f_read, f_write, f_truncate, f_sync, f_size, f_lock, f_unlock, f_reserved,
	f_control, f_sector, f_chars, f_shmmap, f_shmlock, f_shmbarrier, f_shmunmap, f_fetch,
	f_unfetch,
};

static int v_open(sqlite3_vfs *v, const char *name, sqlite3_file *f, int flags, int *out)
{
	struct ff *p = (struct ff *)f;
	int rc;
	(void)v;
	p->real = (sqlite3_file *)(p + 1);
	rc = root->xOpen(root, name, p->real, flags, out);
	/* SQLite calls xClose only where pMethods is set */
	p->base.pMethods = p->real->pMethods ? &methods : NULL;
	return rc;
}
static int v_delete(sqlite3_vfs *v, const char *name, int sync)
{
	(void)v;
	return root->xDelete(root, name, sync);
}
static int v_access(sqlite3_vfs *v, const char *name, int flags, int *res)
{
	(void)v;
	return root->xAccess(root, name, flags, res);
}
static int v_full(sqlite3_vfs *v, const char *name, int n, char *out)
{
	(void)v;
	return root->xFullPathname(root, name, n, out);
}
static void *v_dlopen(sqlite3_vfs *v, const char *name)
{
	(void)v;
	return root->xDlOpen(root, name);
}
static void v_dlerror(sqlite3_vfs *v, int n, char *msg)
{
	(void)v;
	root->xDlError(root, n, msg);
}
static void (*v_dlsym(sqlite3_vfs *v, void *h, const char *sym))(void)
{
	(void)v;
	return root->xDlSym(root, h, sym);
}
static void v_dlclose(sqlite3_vfs *v, void *h)
{
	(void)v;
	root->xDlClose(root, h);
}
static int v_random(sqlite3_vfs *v, int n, char *out)
{
	(void)v;
	return root->xRandomness(root, n, out);
}
static int v_sleep(sqlite3_vfs *v, int us)
{
	(void)v;
	return root->xSleep(root, us);
}
static int v_time(sqlite3_vfs *v, double *t)
{
	(void)v;
	return root->xCurrentTime(root, t);
}
static int v_lasterr(sqlite3_vfs *v, int n, char *msg)
{
	(void)v;
	return root->xGetLastError ? root->xGetLastError(root, n, msg) : 0;
}
static int v_time64(sqlite3_vfs *v, sqlite3_int64 *t)
{
	(void)v;
	return root->xCurrentTimeInt64(root, t);
}

const char *db_fault_vfs(void)
{
	const char *e = getenv("FDTUNE_FAULT");
	char *end;
	if (vfs.zName)
		return NAME;
	if (!e || (strncmp(e, "db:", 3) && strncmp(e, "full:", 5)))
		return NULL;
	full = *e == 'f';
	nth = strtoll(strchr(e, ':') + 1, &end, 10);
	if (nth < 1 || *end || !(root = sqlite3_vfs_find(NULL)) || root->iVersion < 2) {
		fprintf(stderr, "fdtune: FDTUNE_FAULT='%s' ignored: expected db:N or full:N, N >= 1\n", e);
		return NULL;
	}
	vfs = (sqlite3_vfs){ 2, (int)sizeof(struct ff) + root->szOsFile, root->mxPathname, NULL,
		NAME, NULL, v_open, v_delete, v_access, v_full, v_dlopen, v_dlerror, v_dlsym,
		v_dlclose, v_random, v_sleep, v_time, v_lasterr, v_time64, NULL, NULL, NULL };
	if (sqlite3_vfs_register(&vfs, 0) != SQLITE_OK) {
		vfs.zName = NULL;
		return NULL;
	}
	return NAME;
}
