/*
 * db_int.h: what the files of db/ share and nobody else uses.
 */
#ifndef FDTUNE_DB_INT_H
#define FDTUNE_DB_INT_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Formats a message into err[0..n) (err may be NULL when n is 0); returns -1. */
__attribute__((format(printf, 3, 4)))
int db_fail(char *err, size_t n, const char *fmt, ...);

/* The VFS that injects the faults FDTUNE_FAULT asks for (db_fault.c), or
 * NULL, the default VFS, when it asks for none. */
const char *db_fault_vfs(void);

/* The identity of process pid, "BOOT_ID/START_TICKS" (Linux /proc), which
 * tells it from a later process given the same pid; -1 when it cannot be
 * read (no such process, no /proc). */
int db_proc_id(long pid, char *buf, size_t n);

/* SQLite's file: URI of path with query appended ("mode=ro"), the path
 * percent-encoded where URIs need it; truncated to n bytes at most. */
static inline void db_uri(char *uri, size_t n, const char *path, const char *query)
{
	size_t o = (size_t)snprintf(uri, n, "file:");
	for (const char *c = path; *c && o + 4 < n; c++)
		o += (size_t)(strchr("?#%", *c) ? snprintf(uri + o, n - o, "%%%02X", (unsigned char)*c)
						: snprintf(uri + o, n - o, "%c", *c));
	if (o < n)
		snprintf(uri + o, n - o, "?%s", query);
}

#endif
