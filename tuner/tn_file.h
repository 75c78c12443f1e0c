/*
 * tn_file.h: the files fdtune's commands write and the templates they read
 * whole (tn_file.c), each failure told with the path and the system's reason.
 * Functions return 0, or TN_EX_FAIL with the message in err[0..n).
 */
#ifndef TN_FILE_H
#define TN_FILE_H

#include <stddef.h>
#include <stdio.h>

/* mkdir -p dir: dir and its missing parents. */
int tn_mkdirs(const char *dir, char *err, size_t n);
/* Opens path for writing (created or emptied) into *f. */
int tn_file_open(const char *path, FILE **f, char *err, size_t n);
/* Closes f, opened on path by tn_file_open, in any case; fails when a write
 * to f failed or when the close does (buffered data reach the file there). */
int tn_file_close(FILE *f, const char *path, char *err, size_t n);
/* The whole text of path, NUL-terminated, into *text (malloc'ed; NULL on
 * failure). */
int tn_file_read(const char *path, char **text, char *err, size_t n);

#endif
