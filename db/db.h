/*
 * db.h - fdtune's results database (SQLite, WAL mode).
 *
 * One file holds devices, problems, kernel configurations, sweeps, builds
 * and timed runs, so that tuning results survive crashes and can be queried
 * later (from fdtune or from the sqlite3 shell through the v_runs, v_current
 * (each configuration's record: its newest ok run), v_best and v_failures
 * views).  Every write is a single autocommitted statement:
 * a crash loses nothing already recorded.
 *
 * Conventions: functions return a status of fdt_rc.h: FDT_OK, or FDT_FAIL
 * after writing a human-readable message (what went wrong, what to do) into
 * err[0..n-1]. err may be NULL when n is 0.  db_best, db_pick,
 * db_strategies and db_source_get also return FDT_NOMATCH when nothing
 * matches; db_version returns a value, -1 on error.  Strings
 * passed in are copied; none are retained.  A struct db must be used by
 * one thread at a time.  A sweep records the process that owns it, so that
 * one left running by a dead process can be marked interrupted
 * (db_reap_sweeps).
 */
#ifndef FDTUNE_DB_H
#define FDTUNE_DB_H

#include <stddef.h>
#include <stdio.h>

#include "fdt_rc.h"

#define DB_SCHEMA_LATEST 9            /* newest schema this build can write */
#define DB_APPLICATION_ID 0x46445455  /* PRAGMA application_id, 'FDTU' */

struct db;                            /* opaque; wraps sqlite3 * */
struct sqlite3;

/*
 * Open or create the database at path and migrate it to DB_SCHEMA_LATEST.
 * Refuses (without modifying the file) anything that is not an fdtune
 * database, is corrupt, or has a newer schema than this build knows.
 * An existing file this process may not write, or whose directory it may
 * not write, is opened as db_read opens it, and every write to it fails:
 * a writer that needs to write checks db_path_check(path, 1) first.
 * On success *out must be released with db_close.
 */
int db_open(const char *path, struct db **out, char *err, size_t n);
/*
 * Open the existing database at path to read it only (db_read.c): nothing
 * is written to the file, which may be read-only and in a read-only
 * directory, and no file is left beside it. An older schema is migrated in
 * a copy in memory; what db_open refuses is refused alike, but for a file
 * whose damage only a query can find (no quick_check: a query that reads a
 * damaged page fails, db_damaged; damage that leaves the pages well formed
 * may go unseen). Every write through *out fails. Release *out with
 * db_close.
 */
int db_read(const char *path, struct db **out, char *err, size_t n);
/* As db_read, and refuses a file that fails SQLite's quick_check, as
 * db_open does: for what is copied out of the database (export, merge's
 * sources, compact, seeds). */
int db_read_checked(const char *path, struct db **out, char *err, size_t n);
/* As db_open but migrates no further than version upto (1..DB_SCHEMA_LATEST);
 * a file already past upto is opened as it is.  Meant for migration tests. */
int db_open_version(const char *path, int upto, struct db **out, char *err, size_t n);
/* 0 when path can be opened as a database (db_path.c): an existing regular
 * file, readable (and with write = 1, writable, in a writable directory), or
 * with write = 1 a missing file in a writable directory; else FDT_FAIL with err
 * naming what is wrong with the path (a directory, a device, a missing
 * directory, permissions). db_open checks its path so. */
int db_path_check(const char *path, int write, char *err, size_t n);
void db_close(struct db *d);          /* NULL is allowed */
int db_version(struct db *d);         /* PRAGMA user_version, -1 on error */
/* 1 when the last statement that failed on d found the disk full. */
int db_full(struct db *d);
/* 1 when the last statement that failed on d (NULL: none) found its file
 * damaged (SQLITE_CORRUPT or SQLITE_NOTADB: a page db_read does not check),
 * or when err (NULL: none) carries SQLite's message for either, as the
 * layers that run their own statements on db_handle's handle report it. */
int db_damaged(struct db *d, const char *err);
/* The underlying connection, owned by d (for tests and ad-hoc queries). */
int db_handle(struct db *d, struct sqlite3 **h, char *err, size_t n);

/* Numeric fields <= 0 mean "unknown": stored as NULL, and never overwrite a
 * known value.  uuid NULL is stored as ''. */
struct db_device {
	const char *vendor, *name, *arch, *uuid;
	int sms;
	long long mem_bytes, l2_bytes;
	int lds_per_block, max_threads;
};
/* Insert-or-get by (vendor,name,arch,uuid); updates the numeric fields. */
int db_device_id(struct db *d, const struct db_device *dev, long long *id, char *err, size_t n);
/* Record a copy-bandwidth calibration; also sets calibrated_at to now (UTC). */
int db_device_set_copy(struct db *d, long long dev, double copy_gbs, double memcpy_gbs,
					   long long bytes, char *err, size_t n);
/* *copy_gbs = the calibrated copy bandwidth, 0 when never calibrated.
 * An unknown device id is an error. */
int db_device_copy(struct db *d, long long dev, double *copy_gbs, char *err, size_t n);

/* Insert-or-get; radius >= 0, nx, ny, nz > 0. */
int db_problem_id(struct db *d, const char *family, int radius, int nx, int ny, int nz,
				  const char *precision, long long *id, char *err, size_t n);
/* Insert-or-get; params_json is canonical JSON text produced by the caller
 * (equal configurations must produce byte-identical text). */
int db_config_id(struct db *d, const char *family, const char *params_json, long long *id,
				 char *err, size_t n);
/* The id of that configuration, or -1 where the database has none: a read,
 * so that a sweep's look-ups of a whole space hold no write lock. */
int db_config_find(struct db *d, const char *family, const char *params_json, long long *id,
		   char *err, size_t n);

/* mode is "gpu" or "compile-only"; dev 0 = no device (stored as NULL).
 * The sweep starts with status 'running'. */
int db_sweep_begin(struct db *d, const char *cmdline, const char *host, long long dev,
				   long long prob, const char *mode, long long *id, char *err, size_t n);
/* status is 'done', 'failed' or 'interrupted'; negative counts and a NULL
 * message are stored as NULL.  Sets ended to now (UTC). */
int db_sweep_end(struct db *d, long long id, const char *status, long long n_space,
				 long long n_pruned, const char *message, char *err, size_t n);
/* db_sweep_begin records the pid of the calling process and its identity
 * (db_int.h's db_proc_id) with the sweep, from schema 5 on.
 *
 * db_reap_sweeps: marks 'interrupted' (ended now, with a message) every
 * sweep still 'running' that was begun on this host (gethostname) by a
 * process that is gone: its pid is not alive, or is alive but another
 * process (its recorded identity differs: the pid was reused). Sweeps of
 * other hosts, and those recorded before schema 5 (no pid), are left as
 * they are. One line per sweep marked goes to log (when not NULL);
 * *reaped (when not NULL) = how many. Called by a sweep and by merge when
 * they open a database. */
int db_reap_sweeps(struct db *d, FILE *log, int *reaped, char *err, size_t n);
/* Prints, after prefix, one line per sweep still marked 'running' (of any
 * host): "sweep ID (FAMILY R=.. NXxNYxNZ PREC, MODE) running on host H since
 * T (AGE ago)"; one of this host whose process is gone (db_reap_sweeps'
 * test) is said to be interrupted instead, and the database is not written.
 * *count (when not NULL) = how many still run. */
int db_live_sweeps(struct db *d, FILE *out, const char *prefix, int *count, char *err, size_t n);

/* sweep_id 0 = none; compile_ms NaN and negative regs/lds/spill = unknown
 * (NULL).  status is 'ok', 'compile_error' or 'gen_error'; log may be NULL. */
struct db_build {
	long long config_id, sweep_id;
	const char *compiler, *compiler_version, *arch, *options, *source_hash;
	double compile_ms;
	int regs, lds_bytes, spill_bytes;
	const char *status, *log;
};
int db_build_add(struct db *d, const struct db_build *b, long long *id /* may be NULL */,
				 char *err, size_t n);
/* As db_build_add, unless db_build_recorded finds a build of b's config,
 * arch and compiler for problem prob already: then nothing is recorded and
 * *id = 0. The check and the insert are one statement, so two sweeps of one
 * problem writing one database record each build once. */
int db_build_add_once(struct db *d, const struct db_build *b, long long prob, long long *id,
					  char *err, size_t n);

/* A recorded build as db_run_build reads it back; regs, lds_bytes and
 * spill_bytes are -1 where unknown. */
struct db_build_row {
	long long id;
	char compiler[64], compiler_version[64], arch[64], options[512], source_hash[17];
	char status[16];
	int regs, lds_bytes, spill_bytes;
};
/* The build that run `run` timed: 0 with *b filled; FDT_FAIL when the run has no
 * build, or one of another configuration than the run's (its source is
 * another kernel's), or on error, with err saying which. */
int db_run_build(struct db *d, long long run, struct db_build_row *b, char *err, size_t n);
/* The ok runs of run `run`'s problem on boards of its device's name and
 * arch whose configuration has the values of `values`, a JSON object
 * {"NAME": [VALUE, DEFAULT], ...}: a parameter a configuration's params lack
 * counts as DEFAULT (configurations recorded before a parameter existed).
 * `run` first, then the others newest first; at most max ids into
 * ids[0..*count). */
int db_run_repeats(struct db *d, long long run, const char *values, long long *ids, int max,
				   int *count, char *err, size_t n);

/* sweep_id, build_id 0 = none.  status is one of 'ok', 'compile_error',
 * 'load_error', 'launch_error', 'wrong_result', 'resource_limit', 'timeout'. */
struct db_run {
	long long sweep_id, build_id, device_id, problem_id, config_id;
	const char *status, *message;
	double median_ms, min_ms, max_ms;
	int reps;
	double gbs, mcells, pct_copy, max_err, err_bound;
};
/* NaN doubles (and reps < 0) are stored as NULL. */
int db_run_add(struct db *d, const struct db_run *r, long long *id /* may be NULL */, char *err,
			   size_t n);
/* The energy of run `run`, measured in the process that timed it (schema
 * 8): source names the counter ("NVML"); joules a launch and a billion
 * points; the windows' mean power, spread ((max - min) / median) and
 * seconds; the power limit and clocks in force, NaN when unknown. */
struct db_energy {
	const char *source;
	double joules, j_per_gpt, watts, spread, seconds;
	int windows;
	double limit_w, sm_mhz, mem_mhz;
};
int db_energy_add(struct db *d, long long run, const struct db_energy *e, char *err, size_t n);
/* As db_run_add, unless db_run_recorded finds a run of r's device model
 * (any board of its vendor, name and arch), problem and config already (checked in the same statement): then nothing is
 * recorded and *id = 0. */
int db_run_add_once(struct db *d, const struct db_run *r, long long *id, char *err, size_t n);

/* *yes = 1 when a run of config cfg for (dev, prob) is recorded, on any
 * board of dev's model, with an outcome worth keeping; *ms (when ms is not
 * NULL) gets its record, the median of its newest ok run on that model, or
 * -1 when it has none. A run is kept when it has an outcome that running
 * again would repeat (ok, compile_error, wrong_result,
 * resource_limit, launch_error, timeout: a kernel that faulted or hung once
 * does so again): what a resumed sweep skips. Load errors are run again. */
int db_run_recorded(struct db *d, long long dev, long long prob, long long cfg, int *yes,
					double *ms, char *err, size_t n);

/* *yes = 1 when config cfg has a build recorded for arch with compiler (its
 * name and version), ok or failed, by a sweep of problem prob: what a resumed
 * compile-only sweep skips. */
int db_build_recorded(struct db *d, long long cfg, long long prob, const char *arch,
					  const char *compiler, int *yes, char *err, size_t n);

/* The generated sources kept (db_source.c), by the hash of the text
 * (gen_hash, as builds.source_hash holds it).  db_source_put keeps src
 * deflated, unless a source of that hash is kept already; src must hash to
 * hash.  db_source_get: 0 with *src the text (malloc'ed, the caller frees),
 * checked against its hash; FDT_NOMATCH with *src NULL where none is kept;
 * FDT_FAIL where the one kept cannot be read back (damaged, an unknown codec).
 * db_source_count: how many are kept. */
int db_source_put(struct db *d, const char *hash, const char *src, char *err, size_t n);
int db_source_get(struct db *d, const char *hash, char **src, char *err, size_t n);
int db_source_count(struct db *d, long long *count, char *err, size_t n);

/* The code objects kept (db_code.c, schema 9), by the compile cache's key of
 * their source (tn_cache_key), for libfdtune's online tuning to load instead
 * of compiling. db_code_put keeps code[0..size) deflated under c->key (a
 * key kept already is replaced). db_code_get: 0 with *code (size bytes)
 * and *meta (the build's line, as the compile cache keeps it), both
 * malloc'ed for the caller to free, checked against the sum kept;
 * FDT_NOMATCH where none is kept; FDT_FAIL where the one kept cannot be
 * read back (damaged, an unknown codec). db_code_count: how many are kept
 * for arch and compiler (NULL: any). db_each_code_source: fn(ctx, arch,
 * source hash) once for each kept source of the top fastest records of
 * each device model and problem, until fn returns nonzero (returned). */
struct db_code {
	const char *key, *arch, *compiler, *source_hash, *meta;
};
int db_code_put(struct db *d, const struct db_code *c, const void *code, size_t size,
		char *err, size_t n);
int db_code_get(struct db *d, const char *key, char **meta, void **code, size_t *size,
		char *err, size_t n);
int db_code_count(struct db *d, const char *arch, const char *compiler, long long *count,
		  char *err, size_t n);
int db_each_code_source(struct db *d, int top,
			int (*fn)(void *ctx, const char *arch, const char *hash), void *ctx,
			char *err, size_t n);

/* db_compact.c.  db_compact writes a new file `to` (which must not exist)
 * from the database `from` (only read): for each device model and problem,
 * its k (>= 1) fastest records (v_current) of each kind (storing, acc 0, and
 * accumulating, acc 1) with their builds, compiler logs dropped, the
 * configurations and kept sources these name, and every sweep, device and
 * problem; *runs = the runs kept.  On failure `to` is removed.
 * db_each_unkept calls fn for each of the k fastest records of each device
 * model, problem and kind whose build's source is not kept, by device and
 * problem, fastest first (rank 1: the fastest of its kind); the strings are valid
 * during the call, and a nonzero return of fn stops the walk and is
 * returned. */
int db_compact(const char *from, const char *to, int k, long long *runs, char *err, size_t n);
struct db_unkept {
	long long run;
	const char *device, *family, *precision, *params, *source_hash;
	int radius, nx, ny, nz, rank, acc;     /* acc: 1 for an accumulating kernel */
};
int db_each_unkept(struct db *d, int k, int (*fn)(void *ctx, const struct db_unkept *u),
				   void *ctx, char *err, size_t n);

/* Merges the fdtune database at src into d in one transaction (see
 * db_merge.c for how rows are matched): merging the same file twice adds
 * nothing, and on failure d is unchanged. src is only read, as db_read
 * reads it (what db_read refuses is refused alike). device (NULL: all)
 * keeps to the source's devices whose name contains it (ASCII case aside)
 * or whose uuid it is:
 * their runs and sweeps, the builds of those sweeps, and the problems and
 * configurations these name; a device that matches none is an error. *runs
 * and *builds count the rows added. */
/* What db_merge would refuse of src before it writes anything, checked
 * before the target is opened (or created, or migrated): src that is target
 * itself (target need not exist), src that db_read refuses, and device
 * (NULL: all) that matches no device of src. 0, or FDT_FAIL with err. */
int db_merge_check(const char *target, const char *src, const char *device, char *err,
				   size_t n);
int db_merge(struct db *d, const char *src, const char *device, long long *runs,
			 long long *builds, char *err, size_t n);

enum db_fmt { DB_TABLE, DB_CSV, DB_JSON };
struct db_filter;
/* The rows of v_strategies (db_strategy.c) matching f's device, radius,
 * size and precision: fused xyz against two and three passes. 0 after
 * printing; FDT_NOMATCH with err saying what is needed. */
int db_strategies(struct db *d, const struct db_filter *f, enum db_fmt fmt, FILE *out,
				  char *err, size_t n);
/* SQL true where the device name column d or the arch column a contains the
 * text bound to p: literally (% and _ are themselves), ASCII case aside. */
#define DB_DEVICE_HAS(d, a, p) \
	" (instr(lower(" d "), lower(" p ")) > 0 OR instr(lower(" a "), lower(" p ")) > 0)"
/* SQL: column device_id is a board of the same model (vendor, name, arch)
 * as the board whose devices.id is the parameter p ("?1"). A board is its
 * UUID; what is recorded, resumed, ranked and reported is the model's. */
#define DB_SAME_MODEL(p) \
	"device_id IN (SELECT m.id FROM devices m JOIN devices o USING (vendor, name, arch)" \
	" WHERE o.id = " p ")"
/* NULL / 0 = any.  device: device name or arch contains it (DB_DEVICE_HAS);
 * family and precision match exactly; nx, ny, nz (all or none) the size. */
/* What "best" means: the shortest median time, the least energy a point
 * (joules a billion points, measured by sweep --energy), or the least
 * energy-delay product (J/Gpt x ms). */
enum db_objective { DB_OBJ_TIME, DB_OBJ_ENERGY, DB_OBJ_EDP };
struct db_filter {
	const char *device, *family, *precision;
	int radius, nx, ny, nz;
	enum db_objective objective;        /* 0: time */
};
/*
 * Print the fastest record of each (device, problem) matching f (f may be
 * NULL), or with all = 1 every record ranked within its (device, problem); a
 * record is a configuration's newest ok run on the device model (v_current).
 * DB_TABLE: aligned columns under a header line (device, family, R, size
 * NXxNYxNZ, prec, params, ms, GB/s, %copy, regs).  DB_CSV: RFC 4180 (CRLF
 * line ends; fields containing , " CR or LF quoted) with a header row and
 * the columns of v_best; unknown values are empty.  DB_JSON: one array of
 * objects with those columns and params as a JSON object, made by SQLite's
 * JSON functions.  all = 1 adds a leading rank column (1 = fastest) to the
 * table and CSV.
 * Needs schema version 2.  Returns 0 after printing at least one row;
 * FDT_NOMATCH (1) when no run matches: nothing is printed and err holds
 * "no successful runs match", followed by the active filters if any and,
 * when a size was asked for, the nearest recorded size (callers may append
 * " in PATH"); FDT_FAIL on error.
 */
int db_best(struct db *d, const struct db_filter *f, enum db_fmt fmt, int all, FILE *out,
			char *err, size_t n);

/* A successful run, as exports need it. */
struct db_pick {
	long long run;
	char device[256], arch[64], family[64], precision[16], params[1024], created[32];
	int radius, nx, ny, nz;
	double median_ms, gbs, pct_copy;
};
/* The fastest record (v_current) matching f, of the largest problem when several sizes
 * match, a storing one (params without "acc":1) before any that accumulates
 * (or run id `run` when nonzero, which must also match f). 0 with *p
 * filled; FDT_NOMATCH with the message of db_best; FDT_FAIL on error. */
int db_pick(struct db *d, const struct db_filter *f, long long run, struct db_pick *p,
			char *err, size_t n);
/* Calls fn for every run of the device and problem of run `like`, in the
 * order they were recorded: params (JSON), status, median_ms (-1 when not
 * timed). A nonzero return of fn stops the walk and is returned. */
int db_each_run(struct db *d, long long like,
				int (*fn)(void *ctx, const char *params, const char *status, double ms),
				void *ctx, char *err, size_t n);
/* Calls fn for the k fastest records (v_current) of problem prob on the
 * device model of device dev, fastest first: params (JSON) and median_ms. A
 * nonzero return of fn stops the walk and is returned. */
int db_each_record(struct db *d, long long dev, long long prob, int k,
				   int (*fn)(void *ctx, const char *params, double ms), void *ctx,
				   char *err, size_t n);
/* The names of the devices with ok runs matching f (NULL: any), sorted, at most max. */
int db_devices(struct db *d, const struct db_filter *f, char names[][256], int max, int *count,
			   char *err, size_t n);
/* The sizes nx, ny, nz with ok runs matching f, by point count, then nx, ny,
 * nz (the order of fdt_rule.h), at most max. */
int db_sizes(struct db *d, const struct db_filter *f, int sizes[][3], int max, int *count,
			 char *err, size_t n);
/* The integer at $.key of json (SQLite's json_extract); *found = 0 when
 * there is none. */
int db_json_int(struct db *d, const char *json, const char *key, int *v, int *found,
				char *err, size_t n);

/* The relatives of a problem (db_related.c): the k fastest configurations
 * of every other problem of its family and precision with ok runs on its
 * device. The device is device_id, else the device of run `run`, else any
 * device of arch `arch`; the problem is problem_id, else the problem of run.
 * skip_size = 1 leaves out every problem of the problem's size as well (all
 * radii): what a replay that holds a size out may not see. per_value = 1
 * adds, for each relative, its fastest configuration with each value of each
 * parameter (rank then says where it stands among all). devices (where the
 * device is known, not by arch) widens the walk to the other devices of the
 * database: DB_REL_OTHERS takes only them, the problem itself included and
 * the device's own runs held out; DB_REL_ALL takes both, the problem itself
 * from the others only. A relative is then a (device, problem) pair. */
enum { DB_REL_OWN, DB_REL_OTHERS, DB_REL_ALL };
struct db_related {
	long long device_id, problem_id, run;
	const char *arch;
	int skip_size, k, per_value, devices;
	int radius;             /* 0: every radius; else the relatives of this one alone */
};
struct db_related_row {
	const char *params;     /* JSON, valid during the call */
	long long problem_id, device_id;
	int radius, nx, ny, nz, rank;   /* rank 1: the fastest of its problem on its device */
	int other;              /* 1: of another device than the one asked about (0 by arch) */
	double ms;
};
/* Calls fn for each row, problem by problem, fastest first; a nonzero return
 * of fn stops the walk and is returned. FDT_FAIL on a database error. */
int db_each_related(struct db *d, const struct db_related *q,
					int (*fn)(void *ctx, const struct db_related_row *row), void *ctx,
					char *err, size_t n);

/* The kin of a problem (db_kin.c), which need not be recorded: the k
 * fastest configurations of every recorded size of family, radius and
 * precision on every device model, each relative's rows together, fastest
 * first; per_value = 1 adds each relative's fastest with each value of each
 * parameter, as db_related's does. other is 1 for a model other than the
 * one named device and arch (an unrecorded device: every row). hash: a
 * kept source of the row's configuration at this radius and precision
 * (db_source_get), NULL where none is kept. The database is only read. */
struct db_kin {
	const char *family, *precision, *device, *arch;
	int radius, k, per_value;
};
struct db_kin_row {
	struct db_related_row r;
	const char *hash, *device;      /* valid during the call */
	long long config_id;
};
/* Calls fn for each row; a nonzero return of fn stops the walk and is
 * returned. FDT_FAIL on a database error. */
int db_each_kin(struct db *d, const struct db_kin *q,
				int (*fn)(void *ctx, const struct db_kin_row *row), void *ctx,
				char *err, size_t n);
/* What online tuning (tuner/online) records is a sweep of mode 'gpu' whose
 * cmdline begins with DB_ONLINE_CMD (then the program's command line): its
 * runs were timed in a program's own run. */
#define DB_ONLINE_CMD "libfdtune online tuning:"
/* The ok runs online tuning recorded for problem (q's family, radius and
 * precision, nx x ny x nz) on the device model q->device, q->arch, each
 * configuration's newest, fastest first, with a kept source (hash): fn's
 * arguments, valid during the call; a nonzero return of fn stops the walk
 * and is returned. FDT_FAIL on a database error. */
int db_each_online(struct db *d, const struct db_kin *q, int nx, int ny, int nz,
				   int (*fn)(void *ctx, const char *params, double ms, const char *hash),
				   void *ctx, char *err, size_t n);

#endif
