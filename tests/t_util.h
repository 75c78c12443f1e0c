/*
 * t_util.h: helpers the test programs share. Include after cmocka.h.
 */
#ifndef T_UTIL_H
#define T_UTIL_H

/* The integer in the first column of the first row of sql on the database
 * at path (-1 when there is no row); fails the test on an SQLite error. */
long long t_count(const char *path, const char *sql);
/* Removes the directory tree dir (made by the test with mkdtemp). */
void t_rmtree(const char *dir);

#endif
