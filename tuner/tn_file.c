/*
 * tn_file.c: the files fdtune's commands write (report, export, gen --all)
 * and the templates they read whole (tn_file.h). Every failure names the
 * path and the system's reason (strerror), so that a read-only or full
 * directory says so; a directory given for output is created with its
 * parents, as mkdir -p does.
 */
#include "tn.h"
#include "tn_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int tn_mkdirs(const char *dir, char *err, size_t n)
{
	char p[4096];
	size_t len = strlen(dir);
	if (len >= sizeof p) {
		snprintf(err, n, "cannot create %.200s...: path too long", dir);
		return TN_EX_FAIL;
	}
	memcpy(p, dir, len + 1);
	for (size_t i = 1; i <= len; i++) {
		if (p[i] != '/' && p[i])
			continue;
		p[i] = 0;
		if (mkdir(p, 0777) && errno != EEXIST) {
			snprintf(err, n, "cannot create %.900s: %s", p, strerror(errno));
			return TN_EX_FAIL;
		}
		p[i] = dir[i];
	}
	return 0;
}

int tn_file_open(const char *path, FILE **f, char *err, size_t n)
{
	if (!(*f = fopen(path, "w"))) {
		snprintf(err, n, "cannot write %.900s: %s", path, strerror(errno));
		return TN_EX_FAIL;
	}
	return 0;
}

int tn_file_close(FILE *f, const char *path, char *err, size_t n)
{
	/* a failed write leaves its reason in errno, unless the close fails too */
	int e = ferror(f) ? (errno ? errno : EIO) : 0;
	if (fclose(f))
		e = errno;
	if (!e)
		return 0;
	snprintf(err, n, "cannot write %.900s: %s", path, strerror(e));
	return TN_EX_FAIL;
}

int tn_file_read(const char *path, char **text, char *err, size_t n)
{
	FILE *f;
	long len = -1;
	int e = 0;
	*text = NULL;
	if (!(f = fopen(path, "rb"))) {
		snprintf(err, n, "cannot read %.900s: %s", path, strerror(errno));
		return TN_EX_FAIL;
	}
	errno = 0;
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		e = errno ? errno : EIO;
	else if (!(*text = calloc(1, (size_t)len + 1)))
		e = ENOMEM;
	else if (fread(*text, 1, (size_t)len, f) != (size_t)len)
		e = ferror(f) && errno ? errno : EIO;
	fclose(f);
	if (!e)
		return 0;
	snprintf(err, n, "cannot read %.900s: %s", path, strerror(e));
	free(*text);
	*text = NULL;
	return TN_EX_FAIL;
}
