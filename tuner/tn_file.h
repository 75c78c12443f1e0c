/*
 * tn_file.h: the files fdtune's commands write and the templates they read
 * whole (tn_file.c), each failure told with the path and the system's reason;
 * and the transfers on the pipes between fdtune's processes.
 * Functions return 0, or FDT_FAIL with the message in err[0..n).
 */
#ifndef TN_FILE_H
#define TN_FILE_H

#include <stddef.h>
#include <stdio.h>

/* mkdir -p dir: dir and its missing parents. */
int tn_mkdirs(const char *dir, char *err, size_t n);
/* Opens a temporary file beside path for writing into *f (NULL on failure);
 * refuses where path is a symbolic link or exists and is no regular file.
 * path itself is untouched until tn_file_close. */
int tn_file_open(const char *path, FILE **f, char *err, size_t n);
/* Closes f, opened on path by tn_file_open, in any case, and renames it over
 * path; fails (path as it was, the temporary file removed) when a write to
 * f failed, the close does (buffered data reach the file there) or the
 * rename does. *replaced (may be NULL) = 1 when a file at path was replaced. */
int tn_file_close(FILE *f, const char *path, int *replaced, char *err, size_t n);
/* Closes f, opened on path by tn_file_open, and removes what it wrote:
 * path stays as it was. */
void tn_file_abort(FILE *f, const char *path);
/* The whole text of path, NUL-terminated, into *text (malloc'ed; NULL on
 * failure). */
int tn_file_read(const char *path, char **text, char *err, size_t n);
/* Moves len bytes to (out = 1) or from fd, across short transfers and
 * interruptions; nonzero when the other end is gone (or out of order). */
int tn_xfer(int fd, void *buf, size_t len, int out);

#endif
