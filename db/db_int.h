/*
 * db_int.h: what the files of db/ share and nobody else uses.
 */
#ifndef FDTUNE_DB_INT_H
#define FDTUNE_DB_INT_H

#include <stddef.h>

/* Formats a message into err[0..n) (err may be NULL when n is 0); returns -1. */
__attribute__((format(printf, 3, 4)))
int db_fail(char *err, size_t n, const char *fmt, ...);

#endif
