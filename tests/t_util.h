/*
 * t_util.h: helpers the test programs share. Include after cmocka.h.
 */
#ifndef T_UTIL_H
#define T_UTIL_H

/* The integer in the first column of the first row of sql on the database
 * at path (-1 when there is no row); fails the test on an SQLite error. */
long long t_count(const char *path, const char *sql);
/* Overwrites the second half of table t's root page in the database at path
 * (its cells; an interior page where t spans several pages): damage that a
 * query reading t finds and a check at open (quick_check) finds too. */
void t_damage_root(const char *path, const char *t);
/* Runs cmd under sh with its stdout and stderr in out[0..n) (cut to fit,
 * NUL-terminated); the exit status, -1 when it did not exit. */
int t_sh(const char *cmd, char *out, size_t n);
/* t_sh(cmd) into out, which must exit 0; prints what it printed when not. */
void t_ok(const char *cmd, char *out, size_t n);
/* t_sh of "$FDTUNE args" (./fdtune when FDTUNE is unset), env (VAR=value
 * words, or "") before it. */
int t_fdtune(const char *env, const char *args, char *out, size_t n);
/* t_fdtune(env, args) into out, which must exit with status and print
 * needle; prints what it did print when it does not. */
void t_expect(const char *env, const char *args, int status, const char *needle, char *out,
	      size_t n);
/* nvcc's path (from PATH, else /usr/local/cuda/bin) in path[0..n), or "". */
void t_nvcc(char *path, size_t n);
/* `make install PREFIX=prefix` of the tree at root, quietly, the installed
 * fdtune built in prefix.build (INST: installs running at once do not share
 * it); 0 when it worked. */
int t_install(const char *root, const char *prefix);
/* The set-up of the tests of an installed fdtune (t_fortran, t_pkg): makes
 * the temporary directory dir (a mkdtemp template), copies $RESULTS_DB (else
 * results/h100/fdtune.db) to dir/h100.db, named in db[0..dn), finds nvcc into
 * nvcc[0..nn) ("" where there is none) and installs root into dir/prefix.
 * 0, or -1 when the directory or the copy failed; *installed says whether
 * the install worked. */
int t_setup_install(char *dir, const char *root, char *db, size_t dn, char *nvcc, size_t nn,
		    int *installed);
/* Removes the directory tree dir (made by the test with mkdtemp). */
void t_rmtree(const char *dir);

/* The number of this process's threads whose nice value is nice, read from
 * /proc/self/task (a thread that ends meanwhile may or may not count). */
int t_at_nice(int nice);
#endif
