/*
 * tn_online.h: online tuning, inside a user's run, of a problem the
 * database holds no record of (a new grid size, a new GPU model). Its
 * candidates are the bests of the problem's kin (db_each_kin: the same
 * family, radius and precision at other sizes and on other devices),
 * ranked as the transfer search ranks relatives (tn_transfer_rank), each
 * compiled on a background thread from the source the database keeps
 * (db_source_get), through the sweeps' compile cache (a source is one
 * kernel at every size, so a later run finds it built), so that neither
 * the generator nor the templates are needed, and the user's time loop
 * never waits for a compiler.
 *
 *   tn_online.c       the candidates, and their compiles in the background
 *   tn_online_pick.c  which kernel each time step runs, until one is chosen
 *   tn_online_run.c   a time step on the GPU: validation, launch, timing
 *   tn_online_save.c  what was learned, kept as a sweep's records
 *
 * The time loop asks tn_on_next which kernel to launch (a candidate, or
 * TN_ON_DEFAULT: the user's own), validates a candidate once before its
 * first timing (tn_on_checked), and reports each timing (tn_on_timed);
 * once every candidate has been timed tries times, failed or been dropped,
 * the fastest median, the default's included, is chosen for good. Every
 * kernel computes the same step, so the physics never notices.
 */
#ifndef TN_ONLINE_H
#define TN_ONLINE_H

#include <pthread.h>
#include <stdio.h>

#include "db.h"
#include "rt.h"
#include "tn.h"

#define TN_ON_MAX 16            /* candidates at most */
#define TN_ON_CANDS 6           /* candidates by default */
#define TN_ON_TRIES 5           /* timings of each kernel by default */
#define TN_ON_TRIES_MAX 32
#define TN_ON_DEFAULT (-1)      /* tn_on_next: the user's own kernel */
#define TN_ON_FIELDS 4          /* fields a kernel takes at most */
#define TN_CMP_BS 256           /* threads a block of the comparison (cmp.m4) */

/* A candidate's life: compiled in the background, then validated once by
 * the time loop, then timed; FAILED (compile) and DROPPED (load, launch or
 * validation) are final, with why saying what happened. */
enum tn_on_state { TN_ON_QUEUED, TN_ON_COMPILING, TN_ON_BUILT, TN_ON_VALID, TN_ON_FAILED,
		   TN_ON_DROPPED };

struct tn_on_cand {
	int v[TN_MAXP];
	char params[512];       /* its configuration, JSON */
	char hash[17];          /* its kept source's */
	char from[320];         /* the record it comes from: device and size */
	double score;           /* the transfer's */
	char *src;              /* the kept source (kept with the records, tn_on_save) */
	struct rt_prog prog;    /* its code, once BUILT */
	struct rt_kernel *kern; /* loaded at its first turn (tn_online_run.c) */
	unsigned grid[3], block[3];
	long long lds;          /* dynamic LDS bytes every launch gives */
	enum tn_on_state state;
	char why[512];
	int nt;                 /* timings so far */
	double ms[TN_ON_TRIES_MAX];
};

struct tn_on_opts {
	int cands;              /* candidates to take, 1..TN_ON_MAX (0: TN_ON_CANDS) */
	int tries;              /* timings of each kernel, 1..TN_ON_TRIES_MAX (0: TN_ON_TRIES) */
	const struct tn_limits *lim;    /* what the device allows (NULL: its arch's) */
	struct db *learned;     /* NULL, or a database whose online records of the
				 * problem (db_each_online) are consulted before d's */
};

struct tn_online {
	struct tn_problem pb;
	char device[256], arch[64];
	int nc, tries;
	struct tn_on_cand c[TN_ON_MAX];
	struct rt_dev dev;      /* the GPU, as far as known (name "" where none) */
	int resumed;            /* 1: the candidates are what an earlier run learned */
	char kept[512];         /* where what was learned was kept, or why not */
	int seeds, kin;         /* configurations ranked, and the relatives they come from */
	int nosrc, unfit, damaged;      /* of those ranked above the last candidate: without
					 * a kept source, that the device cannot run, whose
					 * kept source could not be read or is not the one
					 * recorded */
	struct db *codes;       /* the database whose code objects (db_code.c) are loaded:
				 * tn_on_open's d, during the open only (NULL after) */
	int loaded, nocode;     /* candidates loaded from it, not compiled; of the
				 * configurations ranked, passed over for want of one
				 * where it keeps code for this arch and compiler */
	const char *cache;      /* the compile cache (tn_cache.h), NULL: none */
	char cid[700];          /* its compiler for arch (tn_cache_compiler) */
	/* the compile threads; mu guards every candidate's state, prog and why */
	pthread_t th[TN_ON_MAX];
	int nth, threads, quit; /* threads running, and started */
	pthread_mutex_t mu;
	double compile_s;       /* the threads' wall time compiling, summed */
	/* the choice (tn_online_pick.c) */
	int turn;               /* the kernel tn_on_next gave last */
	int nd;                 /* timings of the default */
	double dms[TN_ON_TRIES_MAX];
	int chosen;             /* TN_ON_DEFAULT or a candidate, once settled */
	int settled;
	long long steps, steps_tuning;  /* steps asked for; of them before the choice */
	long long steps_waiting;        /* of those, waiting for the compiles: every kernel
					 * built was timed, some still compile, and the
					 * fastest so far ran, untimed */
	int idle;               /* the step tn_on_next gave last is such a one */
	double cost_ms;         /* the tuning's time: each tried step over the chosen's */
	double load_ms, check_ms;       /* host wall time loading candidates, validating them */
	struct rt_timer *timer; /* tn_on_step's */
	/* the validation (tn_online_run.c): its comparison kernel, loaded at the
	 * open from the database's code objects, else built by the compile
	 * threads first (cmp_state 1 while it compiles, 2 done: a candidate is
	 * validated only then; without a thread, 2 with no kernel: the host
	 * compares), and its
	 * scratch copies of the output field, released once the choice is made */
	int cmp_state;
	struct rt_prog cmp_prog;
	struct rt_kernel *cmp;
	void *sa, *sb, *res;    /* the output field's span: the program's, the candidate's */
	long long slen;         /* their elements */
	int ordinal;            /* the GPU the program runs on (tn_on_open: 0) */
	int gpu;                /* tn_on_step's runtime: 0 not asked yet, 1 ready, -1 none */
};

/* Takes pb's candidates for device (its name, "" when unknown) and arch
 * from d: where d keeps code objects for arch and this compiler
 * (tn_code.h), the best-ranked with code, built at once; else the
 * best-ranked, compiled on threads it starts. Where o->learned or d
 * holds online records of pb on the device (an earlier run's, tn_on_save),
 * the candidates are those, fastest first, at most 2, each timed tries
 * times as a first run's: the run starts tuned. 0 with *on set (its
 * candidates may be none: then tn_on_next always gives the default);
 * FDT_FAIL with err set where the kin cannot be read or memory is out. */
int tn_on_open(struct db *d, const struct tn_problem *pb, const char *device, const char *arch,
	       const struct tn_on_opts *o, struct tn_online **on, char *err, size_t n);
/* Stops the compile thread (after the compile in progress) and frees on
 * (NULL is allowed). */
void tn_on_close(struct tn_online *on);
/* Waits for the compile thread to end (tests, and a caller that wants
 * every candidate built before its loop). */
void tn_on_join(struct tn_online *on);
/* Candidate i's state, under the lock. */
enum tn_on_state tn_on_state_of(struct tn_online *on, int i);

/* tn_online_pick.c. The kernel the next time step launches: TN_ON_DEFAULT,
 * or a candidate, BUILT (validate it first, then report tn_on_checked) or
 * VALID (time it, then tn_on_timed). Counts the step. */
int tn_on_next(struct tn_online *on);
/* Candidate i validated (ok 1) or not (0: dropped, why says how). */
void tn_on_checked(struct tn_online *on, int i, int ok, const char *why);
/* Candidate i (or TN_ON_DEFAULT) could not be loaded or launched: dropped. */
void tn_on_drop(struct tn_online *on, int i, const char *why);
/* A timing of kernel i (a candidate, or TN_ON_DEFAULT) in milliseconds. */
void tn_on_timed(struct tn_online *on, int i, double ms);
/* The median of kernel i's timings so far, or -1 without any. */
double tn_on_median(const struct tn_online *on, int i);
/* The fastest median among the candidates timed, or NAN. */
double tn_on_best(const struct tn_online *on);
/* What was tried, what won, and what the tuning cost, as text. */
void tn_on_report(struct tn_online *on, FILE *out);

/* tn_online_run.c. A time step as the program calls it: its kernel's
 * fields (device pointers at interior point (0,0,0), the output first, in
 * the order of the family's kernel ABI, fdt_abi.h), its grid and weights
 * (a struct fd_coef of the problem's precision), and its own kernel: dflt
 * launches it on the default stream on the fields it is given, with this
 * grid and these weights, and returns 0 once launched. */
struct tn_on_call {
	void *const *fields;
	int nf;
	const struct fd_grid *g;
	const void *coef;
	int (*dflt)(void *ctx, void *const *fields);
	void *ctx;
};
/* Runs one step: the kernel tn_on_next names, validated first if it is a
 * candidate not yet validated, timed until the choice is made. A candidate
 * that fails is dropped (said on stderr) and the program's kernel runs the
 * step. The first step starts the runtime on GPU on->ordinal (its primary
 * context: the one the CUDA and HIP runtimes use); where there is none,
 * or a field does not lie in its memory (rt_device_mem: host memory,
 * another GPU's), every candidate is dropped untried, said once, and the
 * program's kernel runs every step. 0; FDT_USAGE for a call without
 * fields or kernel; FDT_FAIL where the program's own kernel failed (err
 * says so). */
int tn_on_step(struct tn_online *on, const struct tn_on_call *k, char *err, size_t n);
/* tn_online_save.c. Keeps what the settled tuning on learned in the
 * database at path (made where missing), as the records of a sweep whose
 * cmdline is DB_ONLINE_CMD and cmdline. 0; FDT_NOMATCH (err says why)
 * where there is nothing to keep (no GPU, no candidate could run, not
 * settled); FDT_FAIL with err on a database error. */
int tn_on_save(struct tn_online *on, const char *path, const char *cmdline, char *err,
	       size_t n);
/* Releases the validation's scratch copies (tn_on_close does too). */
void tn_on_release(struct tn_online *on);
/* The comparison kernel's source (templates/cmp.m4) for fp64 (dbl 1) or fp32. */
const char *tn_on_cmp_src(int dbl);
/* The span of a field at p that the kernel ABI lets pb's kernels touch,
 * in elements: lead before interior point (0,0,0), len in all; its start
 * keeps p's alignment modulo 256 bytes. */
void tn_on_span(const struct tn_problem *pb, const struct fd_grid *g, const void *p,
		long long *lead, long long *len);
/* Compares the program's output a with a candidate's b (host copies of a
 * span, tn_on_span): the interior within the precision's tolerance (1e-4,
 * fp64 1e-10, of the largest |a| there; NaN never), every other element as
 * it was: a's, or where poisoned the poison (every byte 0xff). 0, or 1
 * with why saying where and by how much. */
int tn_on_compare(const struct tn_problem *pb, const struct fd_grid *g, const void *a,
		  const void *b, long long lead, long long len, int poisoned, char *why, size_t n);

#endif
