/*
 * tn_online.h: online tuning, inside a user's run, of a problem the
 * database holds no record of (a new grid size, a new GPU model). Its
 * candidates are the bests of the problem's kin (db_each_kin: the same
 * family, radius and precision at other sizes and on other devices),
 * ranked as the transfer search ranks relatives (tn_transfer_rank), each
 * compiled on a background thread from the source the database keeps
 * (db_source_get), so that neither the generator nor the templates are
 * needed, and the user's time loop never waits for a compiler.
 *
 *   tn_online.c       the candidates, and their compiles in the background
 *   tn_online_pick.c  which kernel each time step runs, until one is chosen
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
	char *src;              /* the kept source (freed once compiled) */
	struct rt_prog prog;    /* its code, once BUILT */
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
};

struct tn_online {
	struct tn_problem pb;
	char device[256], arch[64];
	int nc, tries;
	struct tn_on_cand c[TN_ON_MAX];
	int seeds, kin;         /* configurations ranked, and the relatives they come from */
	int nosrc, unfit, damaged;      /* of those ranked above the last candidate: without
					 * a kept source, that the device cannot run, whose
					 * kept source could not be read or is not the one
					 * recorded */
	/* the compile thread; mu guards every candidate's state, prog and why */
	pthread_t th;
	pthread_mutex_t mu;
	int running, quit;
	double compile_s;       /* the thread's wall time compiling */
	/* the choice (tn_online_pick.c) */
	int turn;               /* the kernel tn_on_next gave last */
	int nd;                 /* timings of the default */
	double dms[TN_ON_TRIES_MAX];
	int chosen;             /* TN_ON_DEFAULT or a candidate, once settled */
	int settled;
	long long steps, steps_tuning;  /* steps asked for; of them before the choice */
	double cost_ms;         /* the tuning's time: each tried step over the chosen's */
};

/* Takes pb's candidates for device (its name, "" when unknown) and arch
 * from d, and starts compiling them on a thread. 0 with *on set (its
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
/* What was tried, what won, and what the tuning cost, as text. */
void tn_on_report(struct tn_online *on, FILE *out);

#endif
