/*
 * tn_sweep.h: the sweep, generate -> compile -> load -> validate -> time ->
 * store, for every configuration of a space that passes the family's
 * constraints, for one problem or a plan of several (tn_plan.h; on a GPU in
 * the anytime order of tn_order.c). A pool of CPU threads compiles while
 * one worker process per GPU measures what is compiled. Every outcome is
 * stored as it happens; SIGINT, SIGTERM and SIGHUP stop the sweep after the
 * runs in progress and mark it interrupted; a run the signal cut short (it
 * reached the workers too, sent to the process group) is not recorded, and
 * runs again on resume.
 */
#ifndef TN_SWEEP_H
#define TN_SWEEP_H

#include "tn.h"
#include "tn_search.h"
#include "tn_plan.h"

#define TN_MAXDEV 16
#define TN_QUEUE 2              /* runs a worker holds: one in progress, one queued */

struct tn_sweep_opts {
	const struct tn_problem *pb;    /* one problem and its space, or: */
	const struct tn_space *sp;
	const struct tn_plan *plan;     /* several (then pb and sp are unused) */
	const char *db_path, *cmdline;
	const char *seeds_path; /* --seeds-from: a database only read, whose records of
				 * a problem's radius lead its search with its
				 * relatives in db_path (tn_choose.c); NULL: none */
	int ndev, devices[TN_MAXDEV];   /* GPU ordinals, one worker each; 0: GPU 0 */
	double timeout_s;       /* a run may take this plus 2000x the best median */
	int no_race;            /* time every configuration fully (tn_bench.h) */
	int places;             /* placements of the fields a contender is timed on
				 * (tn_bench.h); 0: TN_PLACES */
	int queue;              /* runs each worker holds, 1..TN_QUEUE: 1 waits for each
				 * answer before the next run is sent; 0: TN_QUEUE */
	const char *exe;        /* the fdtune executable for workers; NULL: this one */
	int jobs;               /* compile threads */
	int compile_only;       /* do not use a GPU even if one is present */
	const char *arch;       /* compile target without a GPU; NULL: default */
	int force;              /* measure again what is already recorded */
	int recheck;            /* >0: run only the recheck fastest records of each
				 * problem on this GPU model again (with force) */
	double energy_s;        /* >0: measure each run's energy too, in windows of this
				 * many seconds (tn_energy.h); 0: no */
	int quiet;              /* no progress display */
	long long max_configs;  /* configurations run over the whole plan; 0: no limit */
	enum tn_strategy strategy;      /* compile-only sweeps are exhaustive */
	int strategy_set;       /* 0: transfer where the database holds results of the
				 * problem's relatives (tn_transfer.h), else exhaustive */
	int evals;              /* random, guided, transfer: percent of the space to run */
	int evals_set;          /* 0: TN_TRANSFER_EVALS for transfer */
	int shard, shards;      /* configurations numbered over the whole plan, problem
				 * after problem; this job runs those with
				 * number % shards == shard */
	double budget_s;        /* stop after this long (0: no limit); resumable */
	unsigned long long seed;
};

/* FDT_OK: the sweep ran to its end (configurations may have failed, as
 * recorded); FDT_USAGE: a problem of it has no configuration that can run
 * (nothing is recorded); FDT_FAIL: it could not start or had to stop, err
 * says why.
 * A plan records one sweep (a row of the sweeps table) per problem. */
int tn_sweep(const struct tn_sweep_opts *o, char *err, size_t n);
/* tn_choose.c: the database at path opened to be read only (db_read) for
 * --seeds-from, into *out; 1 with err naming the option and what is wrong. */
int tn_seeds_read(const char *path, struct db **out, char *err, size_t n);

#endif
