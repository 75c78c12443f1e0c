/*
 * tn_file.c: the files fdtune's commands write (report, export, gen --all)
 * and the templates they read whole (tn_file.h). Every failure names the
 * path and the system's reason (strerror), so that a read-only or full
 * directory says so; a directory given for output is created with its
 * parents, as mkdir -p does. A file is written whole or not at all: into a
 * temporary file beside it, renamed over it once closed; a symbolic link in
 * its place is refused, never written through.
 */
#include "tn.h"
#include "tn_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary file of path, in its directory: DIR/.BASE.PID.tmp;
 * FDT_FAIL when it does not fit tn. */
static int tmp_of(const char *path, char *tmp, size_t tn)
{
	const char *b = strrchr(path, '/');
	int d = b ? (int)(b - path) + 1 : 0;
	int k = snprintf(tmp, tn, "%.*s.%s.%ld.tmp", d, path, path + d, (long)getpid());
	return k < 0 || (size_t)k >= tn ? FDT_FAIL : FDT_OK;
}

int tn_mkdirs(const char *dir, char *err, size_t n)
{
	char p[4096];
	size_t len = strlen(dir);
	if (len >= sizeof p) {
		snprintf(err, n, "cannot create %.200s...: path too long", dir);
		return FDT_FAIL;
	}
	memcpy(p, dir, len + 1);
	for (size_t i = 1; i <= len; i++) {
		if (p[i] != '/' && p[i])
			continue;
		p[i] = 0;
		if (mkdir(p, 0777) && errno != EEXIST) {
			snprintf(err, n, "cannot create %.900s: %s", p, strerror(errno));
			return FDT_FAIL;
		}
		p[i] = dir[i];
	}
	return FDT_OK;
}

/* For the tests only, as FDTUNE_FAULT=full:N is under the database: with
 * FDTUNE_FAULT=file:SUFFIX a file whose path ends in SUFFIX fails to close
 * as on a full disk (ENOSPC), announced on stderr. */
static int fault_full(const char *path)
{
	const char *e = getenv("FDTUNE_FAULT");
	size_t k = strlen(path), m;
	if (!e || strncmp(e, "file:", 5) || !(m = strlen(e + 5)) || m > k ||
	    strcmp(path + k - m, e + 5))
		return 0;
	fprintf(stderr, "fdtune: FDTUNE_FAULT: %s fails as on a full disk\n", path);
	return 1;
}

int tn_file_open(const char *path, FILE **f, char *err, size_t n)
{
	char tmp[4200];
	struct stat st;
	int fd;

	*f = NULL;
	if (!lstat(path, &st) && S_ISLNK(st.st_mode)) {
		snprintf(err, n, "cannot write %.900s: it is a symbolic link, which fdtune does not "
			 "write through; remove it or choose another --out", path);
		return FDT_FAIL;
	}
	if (!lstat(path, &st) && !S_ISREG(st.st_mode)) {
		snprintf(err, n, "cannot write %.900s: %s", path, S_ISDIR(st.st_mode) ?
			 strerror(EISDIR) : "it exists and is not a regular file");
		return FDT_FAIL;
	}
	if (tmp_of(path, tmp, sizeof tmp)) {
		snprintf(err, n, "cannot write %.900s: path too long", path);
		return FDT_FAIL;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0666);
	if (fd < 0 || !(*f = fdopen(fd, "w"))) {
		snprintf(err, n, "cannot write %.900s: %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		return FDT_FAIL;
	}
	return FDT_OK;
}

int tn_file_close(FILE *f, const char *path, int *replaced, char *err, size_t n)
{
	/* a failed write leaves its reason in errno, unless the close fails too */
	int e = ferror(f) ? (errno ? errno : EIO) : 0;
	char tmp[4200];
	struct stat st;
	int existed;

	if (fclose(f))
		e = errno;
	if (!e && fault_full(path))
		e = ENOSPC;
	if (tmp_of(path, tmp, sizeof tmp))
		e = ENAMETOOLONG;
	existed = !lstat(path, &st);
	if (!e && existed && S_ISLNK(st.st_mode))
		e = ELOOP;      /* a link put there meanwhile: rename would replace it */
	if (!e && rename(tmp, path))
		e = errno;
	if (replaced)
		*replaced = !e && existed;
	if (!e)
		return FDT_OK;
	unlink(tmp);
	snprintf(err, n, "cannot write %.900s: %s", path, strerror(e));
	return FDT_FAIL;
}

void tn_file_abort(FILE *f, const char *path)
{
	char tmp[4200];

	fclose(f);
	if (!tmp_of(path, tmp, sizeof tmp))
		unlink(tmp);
}

int tn_file_read(const char *path, char **text, char *err, size_t n)
{
	FILE *f;
	long len = -1;
	int e = 0;
	*text = NULL;
	if (!(f = fopen(path, "rb"))) {
		snprintf(err, n, "cannot read %.900s: %s", path, strerror(errno));
		return FDT_FAIL;
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
		return FDT_OK;
	snprintf(err, n, "cannot read %.900s: %s", path, strerror(e));
	free(*text);
	*text = NULL;
	return FDT_FAIL;
}

int tn_xfer(int fd, void *buf, size_t len, int out)
{
	char *p = buf;
	while (len) {
		ssize_t k = out ? write(fd, p, len) : read(fd, p, len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return 1;
		p += k;
		len -= (size_t)k;
	}
	return 0;
}
