/*
 * fdtune.h: libfdtune, the run-time side of fdtune. A code that launches
 * fdtune's kernels asks, once at start-up, which configuration a database of
 * tuning results recommends for its device and problem, in the manner of
 * FFTW's wisdom: the best recorded run for the device and problem (a run
 * that stores its output, acc 0, before any that accumulates); else the
 * best for the nearest recorded size, by the rule of fdtune's
 * templates/fdt_rule.h (the one `fdtune export --all-sizes` pastes into its
 * code); else the family's default, one known to run well on any device
 * (its descriptor's, tuner/fam/, within 48 KiB of LDS per block).
 *
 * Link with `pkg-config --cflags --libs fdtune` after `make install`. The
 * database is opened read-only and is never changed. Functions return 0 on
 * success and a nonzero status with a message in err[0..n) otherwise (err
 * may be NULL, or n 0: only the status then).
 */
#ifndef FDTUNE_H
#define FDTUNE_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fdtune_db fdtune_db;

#define FDTUNE_RMAX 8           /* the largest stencil radius fdtune tunes */

/* Where a configuration came from. */
enum fdtune_source {
	FDTUNE_EXACT = 0,       /* the best record for this device and problem */
	FDTUNE_NEAREST = 1,     /* the best record for this device at the nearest size */
	FDTUNE_DEFAULT = 2,     /* nothing recorded: the family's default */
	FDTUNE_ONLINE = 3       /* chosen by online tuning (fdtune_online_settled) */
};

#define FDTUNE_MAXP 16     /* parameters a configuration holds at most */

struct fdtune_config {
	enum fdtune_source source;
	char family[32], device[256], params[1024];     /* params: JSON object */
	int radius, nx, ny, nz;         /* the problem the configuration was tuned for */
	double median_ms, gbs;          /* as measured; 0 for a default */
	int np;                         /* the parameters, also as name/value pairs */
	char name[FDTUNE_MAXP][16];
	int value[FDTUNE_MAXP];
};

/* Opens an fdtune database read-only; refuses other files, a directory, and
 * a NULL or empty path or a NULL db (*db is NULL on failure). */
int fdtune_open(const char *path, fdtune_db **db, char *err, size_t n);
void fdtune_close(fdtune_db *db);

/* The configuration for (device, problem). device matches a recorded
 * device's name or arch by substring ("H100", "sm_90", "gfx90a"; where
 * several match, the first by name). Among the sizes recorded for that
 * device, family, radius and precision, each with its best run: the size
 * nx x ny x nz itself (FDTUNE_EXACT); else the nearest by
 *   log2(nx/mx)^2 + log2(ny/my)^2 + 2 log2(nz/mz)^2
 * among those whose configuration can launch the grid (at most 65535 blocks
 * in grid y and z; FDTUNE_NEAREST); else the default (FDTUNE_DEFAULT). A
 * device that matches no recorded one gets the default too, never another
 * device's best: a best can need what only its own device has (the LDS
 * opt-in above 48 KiB, its registers), and tuned elsewhere it can lose much
 * (results/h200/h200.md: the H200's xyz R = 4 best takes 1.17x the H100's
 * own on an H100); the default runs on any device. Tune the new device
 * (fdtune sweep there starts from the other devices' bests). db
 * may be NULL, which gives the default. Fails for an unknown family, a
 * radius outside 1..FDTUNE_RMAX, an extent below 1, a precision other than
 * "fp32" and "fp64", a NULL device, family, precision or cfg, and a
 * database error. err may be NULL: then only the status tells. */
int fdtune_lookup(fdtune_db *db, const char *device, const char *family, int radius,
		  int nx, int ny, int nz, const char *precision, struct fdtune_config *cfg,
		  char *err, size_t n);

/* What best means for fdtune_lookup_by. */
enum fdtune_objective {
	FDTUNE_TIME = 0,        /* the shortest median time (fdtune_lookup's) */
	FDTUNE_ENERGY = 1,      /* the fewest joules a point (fdtune sweep --energy) */
	FDTUNE_EDP = 2          /* the least energy x time */
};

/* fdtune_lookup by objective obj, as fdtune best --objective and export
 * --objective pick: at each recorded size, the records with energy measured
 * come first, ranked by obj (their configuration's mean over its
 * measurements), then the others by time, so a size where nothing was
 * measured gives its fastest, as does a database from before fdtune
 * recorded energy. The size is chosen as fdtune_lookup chooses it. */
int fdtune_lookup_by(fdtune_db *db, enum fdtune_objective obj, const char *device,
		     const char *family, int radius, int nx, int ny, int nz, const char *precision,
		     struct fdtune_config *cfg, char *err, size_t n);

/* The value of parameter name in cfg, or def when it has none (or cfg or
 * name is NULL). */
int fdtune_param(const struct fdtune_config *cfg, const char *name, int def);

/*
 * Online tuning: a problem the database has no record of (a grid size it
 * has not seen, a GPU model it lacks) tuned inside the program's own run.
 * fdtune_online_open takes the candidates: the bests of the problem's kin
 * in db_path (the same family, radius and precision at other sizes and on
 * other GPUs), ranked as fdtune's transfer search ranks relatives, each
 * compiled on a background thread with NVRTC or hiprtc from the source the
 * database keeps, so the program needs neither m4 nor fdtune's templates
 * and its time loop never waits for a compiler. fdtune_online_step then
 * runs one time step: the program's own kernel, or a candidate (validated
 * once first against the program's kernel on scratch copies of the output
 * field, both reading the program's inputs, which the kernel ABI makes
 * const: the program's kernel must write its first field alone), timed
 * with device events, each in turn, until every kernel has
 * been timed the opts' tries times; then the fastest runs every step.
 * Once the choice is made, what was learned (each candidate's timings or
 * failure, and the choice) is kept as the records of an fdtune sweep:
 * in db_path where this process may write it, else in the companion
 * (opts), which the next run's fdtune_online_open consults first (it then
 * starts tuned: the kept choice and its runner-up, each timed the opts'
 * tries times, as a first run's candidates) and
 * fdtune_lookup too, for the exact problem on the GPU.
 * Every candidate computes the same step, so the physics is never
 * disturbed, and a candidate that fails to compile, load, launch or
 * validate is dropped with a message on stderr while the program's kernel
 * runs that step. Launches go to the default stream of the GPU's primary
 * context (the one the CUDA and HIP runtimes use). Link the online
 * functions with `pkg-config --static --libs fdtune` (they need the
 * run-time compiler, zlib and threads) or CMake's fdtune::online.
 */
typedef struct fdtune_online fdtune_online;

/* The program's own kernel: launches it on the default stream on fields
 * (device pointers at interior point (0,0,0), the output first, as the
 * family's kernel takes them: the export's NAME_launch arguments), with
 * the grid and weights of the tuning; 0 once launched. */
typedef int (*fdtune_kernel_fn)(void *ctx, void *const *fields);

struct fdtune_online_opts {
	int gpu;                /* the ordinal of the GPU the program runs on (0) */
	int candidates;         /* candidates to try, 1..16 (0: 6) */
	int tries;              /* timings of each kernel before the choice, 1..32 (0: 5) */
	const char *companion;  /* where what is learned is kept when db_path cannot be
				 * written (NULL: $FDTUNE_ONLINE_DB, else
				 * $HOME/.fdtune/online.db; "" in FDTUNE_ONLINE_DB:
				 * nowhere) */
};

/* Starts online tuning of (family, radius, nx x ny x nz, precision) on GPU
 * o->gpu (o may be NULL) from the database at db_path, which is only read.
 * Fails for what fdtune_lookup refuses, and where the database cannot be
 * read; a problem with no kin, or no GPU, is no failure: its steps run the
 * program's kernel. */
int fdtune_online_open(const char *db_path, const char *family, int radius, int nx, int ny,
		       int nz, const char *precision, const struct fdtune_online_opts *o,
		       fdtune_online **ot, char *err, size_t n);
/* One time step (see above): nfields fields, grid a struct fd_grid and coef
 * a struct fd_coef of the problem's precision (fdt_abi.h, as NAME.h defines
 * them), kernel the program's own. Fields that are not in the GPU's memory
 * (host memory, another GPU's) at the first step: every candidate is
 * dropped untried (said on stderr), the program's kernel runs every step,
 * and nothing is kept. Fails only where the program's kernel failed, or
 * for missing arguments. */
int fdtune_online_step(fdtune_online *ot, void *const *fields, int nfields, const void *grid,
		       const void *coef, fdtune_kernel_fn kernel, void *ctx, char *err, size_t n);
/* 1 once the choice is made, with *cfg (where cfg is not NULL) the chosen
 * configuration (its source FDTUNE_ONLINE, or FDTUNE_DEFAULT where the
 * program's kernel won) and its median time, *steps the steps the tuning
 * took and *waited how many of them waited for the compiles (every kernel
 * built was timed while others compiled: the fastest so far ran, untimed)
 * (each may be NULL); else 0. */
int fdtune_online_settled(fdtune_online *ot, struct fdtune_config *cfg, long long *steps,
			  long long *waited);
/* What was tried, what won, and what the tuning cost, as text on out
 * (NULL: stdout). */
void fdtune_online_report(fdtune_online *ot, FILE *out);
/* Stops the compiles and frees ot (NULL is allowed). */
void fdtune_online_close(fdtune_online *ot);
/* The companion's path into buf (n bytes): $FDTUNE_ONLINE_DB, else
 * $HOME/.fdtune/online.db; 0, or 1 with buf "" where FDTUNE_ONLINE_DB is
 * empty or there is no HOME (no companion). fdtune_open opens it beside
 * the database where it exists, and fdtune_lookup answers from it first
 * (FDTUNE_ONLINE) where it holds the exact problem on the device. */
int fdtune_online_db(char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
