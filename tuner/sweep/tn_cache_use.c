/*
 * tn_cache_use.c: the compile cache's size, its limit and its cleaning. An
 * entry (tn_cache.c) is KEY.txt and KEY.bin; a hit touches KEY.txt, so its
 * modification time is the entry's last use. After each sweep the cache is
 * trimmed to $FDTUNE_CACHE_MAX (default TN_CACHE_MAX_DEFAULT), the least
 * recently used entries first; `fdtune cache` shows the use, trims to another
 * limit (--max) or empties it (--clean). Only files of the cache's own forms
 * are ever removed: KEY.txt and KEY.bin with KEY of 32 hex digits, and the
 * temporary files of an interrupted write (KEY.txt.XXXXXX, KEY.bin.XXXXXX)
 * older than an hour; anything else in the directory is left and counted
 * as foreign.
 */
#define _GNU_SOURCE
#include "fdt_rc.h"
#include "tn_cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct ent { char key[33]; long long bytes; time_t used; };

static int is_key(const char *s, size_t len)
{
	if (len != 32)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

static int by_use(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;
	return (x->used > y->used) - (x->used < y->used);
}

int tn_cache_size_parse(const char *s, long long *bytes, char *err, size_t n)
{
	char *end;
	double v;
	errno = 0;
	v = strtod(s ? s : "", &end);
	if (!s || end == s || errno || v < 0) {
		snprintf(err, n, "'%s' is no size: give bytes, or a number with K, M or G "
			 "(1024-based), for example 2G", s ? s : "");
		return FDT_FAIL;
	}
	switch (*end) {
	case 'k': case 'K': v *= 1024.0; end++; break;
	case 'm': case 'M': v *= 1048576.0; end++; break;
	case 'g': case 'G': v *= 1073741824.0; end++; break;
	default: break;
	}
	if (*end == 'i' || *end == 'B')         /* 2GiB, 2GB: the same */
		end += *end == 'i' ? (end[1] == 'B' ? 2 : 1) : 1;
	if (*end || v > 9e18) {
		snprintf(err, n, "'%s' is no size: give bytes, or a number with K, M or G "
			 "(1024-based), for example 2G", s);
		return FDT_FAIL;
	}
	*bytes = (long long)v;
	return FDT_OK;
}

int tn_cache_limit(long long *max, char *err, size_t n)
{
	const char *e = getenv("FDTUNE_CACHE_MAX");
	*max = TN_CACHE_MAX_DEFAULT;
	if (!e || !*e)
		return FDT_OK;
	if (tn_cache_size_parse(e, max, err, n)) {
		size_t l = strlen(err);
		snprintf(err + l, n - l, " (FDTUNE_CACHE_MAX)");
		return FDT_FAIL;
	}
	return FDT_OK;
}

/* The size of dir/name, and its modification time; -1 when it is missing. */
static long long fsize(const char *dir, const char *name, time_t *mt)
{
	char p[4200];
	struct stat st;
	snprintf(p, sizeof p, "%s/%s", dir, name);
	if (stat(p, &st) || !S_ISREG(st.st_mode))
		return -1;
	if (mt)
		*mt = st.st_mtime;
	return (long long)st.st_size;
}

static void rm(const char *dir, const char *name)
{
	char p[4200];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	(void)unlink(p);
}

int tn_cache_trim(const char *dir, long long max, struct tn_cache_use *u, char *err, size_t n)
{
	DIR *d;
	struct dirent *e;
	struct ent *v = NULL;
	size_t nv = 0, cap = 0;
	time_t now = time(NULL);
	int rc = 1;

	memset(u, 0, sizeof *u);
	if (!(d = opendir(dir))) {
		snprintf(err, n, "cannot read the compile cache %s: %s", dir, strerror(errno));
		return FDT_FAIL;
	}
	while ((e = readdir(d))) {
		const char *s = e->d_name, *dot = strchr(s, '.');
		time_t mt = 0;
		long long b;
		if (s[0] == '.' && (!s[1] || (s[1] == '.' && !s[2])))
			continue;
		if (!dot || !is_key(s, (size_t)(dot - s)) ||
		    (strncmp(dot, ".txt", 4) && strncmp(dot, ".bin", 4))) {
			u->foreign++;
			continue;
		}
		if (dot[4] == '.') {            /* an interrupted write's temporary file */
			if ((b = fsize(dir, s, &mt)) >= 0 && now - mt > 3600)
				rm(dir, s);
			else if (b >= 0)
				u->bytes += b;
			continue;
		}
		if (dot[4] || strcmp(dot, ".txt"))
			continue;               /* KEY.bin: counted with its KEY.txt */
		if (nv == cap) {
			struct ent *w = realloc(v, (cap = cap ? 2 * cap : 256) * sizeof *v);
			if (!w) {
				snprintf(err, n, "out of memory listing the compile cache %s", dir);
				goto done;
			}
			v = w;
		}
		memcpy(v[nv].key, s, 32);
		v[nv].key[32] = 0;
		if ((b = fsize(dir, s, &v[nv].used)) < 0)
			continue;
		v[nv].bytes = b;
		nv++;
	}
	for (size_t i = 0; i < nv; i++) {
		char name[40];
		long long b;
		snprintf(name, sizeof name, "%s.bin", v[i].key);
		if ((b = fsize(dir, name, NULL)) >= 0)
			v[i].bytes += b;
		u->bytes += v[i].bytes;
	}
	u->entries = (long long)nv;
	if (nv)         /* qsort wants an array, even of none */
		qsort(v, nv, sizeof *v, by_use);
	for (size_t i = 0; max >= 0 && u->bytes > max && i < nv; i++) {
		char name[40];
		snprintf(name, sizeof name, "%s.txt", v[i].key);     /* first: the entry goes */
		rm(dir, name);
		snprintf(name, sizeof name, "%s.bin", v[i].key);
		rm(dir, name);
		u->bytes -= v[i].bytes;
		u->entries--;
		u->removed++;
		u->removed_bytes += v[i].bytes;
	}
	rc = 0;
done:
	closedir(d);
	free(v);
	return rc;
}

void tn_cache_fmt(long long b, char *s, size_t n)
{
	if (b < 1048576)
		snprintf(s, n, "%.1f KiB", b / 1024.0);
	else
		snprintf(s, n, "%.1f MiB", b / 1048576.0);
}

void tn_cache_touch(const char *dir, const char *key)
{
	char p[4200];
	snprintf(p, sizeof p, "%s/%s.txt", dir, key);
	(void)utimensat(AT_FDCWD, p, NULL, 0);  /* a read-only cache stays as it is */
}
