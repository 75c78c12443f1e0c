/*
 * tn_run.h: the state a sweep shares among its files. A sweep runs a plan
 * of one or more problems; each problem is a job (struct tn_job) with its
 * configurations, its search, its row in the sweeps table and its counts.
 * The GPUs, their workers and the database belong to the sweep (struct
 * tn_run) and serve one job at a time, a step of evaluations each:
 *   tn_sweep.c   the plan: jobs prepared, resumed, summed up
 *   tn_schedule.c  the order of its steps: first passes, refinements, yields
 *   tn_stop.c    whether a signal, the budget or --max-configs has stopped it
 *   tn_choose.c  each job's strategy, a transfer's seeds, a recheck's records
 *   tn_gpus.c    GPU or compile-only, workers, copy calibration
 *   tn_loop.c    one step: compile pool and workers fed until it is done
 *   tn_warm.c    the plan's later steps guessed, their compiles begun early
 *   tn_fill.c    a GPU that would wait runs a configuration already built
 *   tn_yield.c   a step bound by its compiles yields to a job with code built
 *   tn_record.c  every build and run written to the database as it happens
 *   tn_summary.c what the sweep did, at its end
 *   tn_steps.c   the step log (FDTUNE_STEPS): each step's line as it ends
 */
#ifndef TN_RUN_H
#define TN_RUN_H

#include "db.h"
#include "tn_hshare.h"
#include "tn_pool.h"
#include "tn_progress.h"
#include "tn_sweep.h"
#include "tn_time.h"
#include "tn_transfer.h"
#include "tn_worker.h"

#include <stdio.h>

#define TN_NOUT 8               /* outcomes counted, tn_outcome[] */
#define TN_FILL_KEEP 32         /* builds a step keeps for fills (tn_fill.c) */
extern const char *const tn_outcome[TN_NOUT];

struct tn_job {
	const struct tn_problem *pb;
	const struct tn_space *sp;
	const char *name;       /* "xyz R=4 64x64x64 fp32" */
	int *cfgs;              /* the configurations to run, TN_MAXP ints each */
	char (*rjson)[512];     /* --recheck: each one's parameters as recorded, the
				 * configuration its run is recorded under; else NULL */
	long long total, nv, pruned, skipped, runnable;  /* runnable: in the whole space */
	long long widened;      /* transfer seeds outside the domains, added to cfgs */
	char first_why[256];    /* why the first pruned configuration was */
	long long left;         /* left out by the default space (tn_space_out), not in total */
	char left_why[256];     /* why the first of them was */
	long long prob_id, sweep_id;
	int refines;            /* the plan's refinement steps it has had */
	unsigned char *warmed;  /* nv flags: its source taken by the warm pool, built or
				 * found in the cache (or failed) (tn_warm.c); NULL: none */
	long long *ring;        /* nv: the next configuration of the same source, a
				 * cycle a source (tn_fill.c); NULL: not made */
	long long count[TN_NOUT];
	int rmin, rmax, lmax, nspill;   /* resources of the builds, compile-only */
	long long done, cached, proposed, target;   /* target: evaluations of its search */
	long long shared;       /* builds shared with a configuration of the same source */
	long long others;       /* recorded meanwhile by another sweep: not twice */
	long long nprior, *prior_idx;   /* recorded outcomes a search starts from */
	double *prior_ms;
	double best_ms;         /* best median: the base of timeouts and races */
	double best_gbs, best_pct;
	double t_build, t_check, t_time, t_wall;
	struct tn_search *search;
	struct tn_seeds sd;     /* where a transfer search, or a plan's first pass,
				 * starts */
	int seeding;            /* a GPU plan's guided first pass, its relatives'
				 * bests not yet asked for (tn_first_seeds) */
	int sd_from;            /* sd's relatives from --seeds-from's database */
};

struct tn_built;

struct tn_run {
	const struct tn_sweep_opts *o;
	struct db *db;
	struct db *seeds;       /* --seeds-from's database, only read, or NULL */
	long long dev_id[TN_MAXDEV];
	struct tn_wk wk[TN_MAXDEV];
	double copy[TN_MAXDEV];
	int nwk, gpu, turn;     /* turn: the worker served last */
	struct tn_limits lim;   /* what the jobs' configurations are checked against */
	char compiler[64];
	const char *arch;
	long long restarts, issued;     /* issued: configurations proposed, whole plan */
	double t0;              /* start of the first step: the budget's origin */
	double t_begin;         /* start of tn_sweep: the wall clock of its summary */
	double t_up, t_db, t_cal;       /* the workers answered; the problems prepared and
					 * the database open; the GPUs' copy bandwidth known */
	double t_end;           /* the summary */
	struct tn_job *jobs, *cur;      /* cur: the job of the step running */
	int njobs, opened;      /* opened: the job the workers are on, -1 */
	int asked[TN_MAXDEV];   /* an answer to tn_run_open is due from the worker */
	struct tn_hshare *hs;   /* the jobs' host data, shared by the workers; NULL
				 * compile-only */
	struct tn_progress pr;
	/* the plan's order (tn_warm.c): the job whose first pass may come
	 * next (-1 once they are done), the order's scratch, and the compile
	 * cache warmed ahead of the later steps */
	int first;
	struct tn_order *ord;
	struct tn_pool *warm;   /* compiling ahead of later steps, or NULL */
	struct tn_job *warm_job;        /* whose configurations it builds */
	int warm_n;             /* items it was given */
	long long warm_round;   /* warmed when the round began */
	long long warm_idx[TN_MAXJOBS]; /* the configurations it holds not yet taken */
	int warm_nq;            /* their count (warm_n less those taken) */
	int warm_dry, warm_quit;        /* its job had no more to give; told to quit */
	int warm_off;           /* FDTUNE_WARM=0 */
	int fill_off;           /* FDTUNE_FILL=0 (tn_fill.c) */
	int nice;               /* compile threads' nice steps below the sweep (tn_nice) */
	int ncpu;               /* the CPUs the sweep may run on (tn_cpus), for the warm pool */
	int cproc;              /* its compiles in helper processes (tn_cproc.c) */
	long long warmed;       /* configurations compiled ahead of their step */
	double warm_s;          /* the warm pool's build seconds, summed (tn_steps.c) */
	double warm_next;       /* no round before (tn_now_s): 0.5 s after a look that
				 * found nothing, 3 s after a round of cache hits
				 * alone */
	/* builds of the step's job whose source has configurations left
	 * (tn_fill.c), one a source, the oldest first, and the runs they gave
	 * to GPUs that would have waited */
	struct tn_item *kept[TN_FILL_KEEP];
	int nkept;
	long long filled;
	/* yields (tn_yield.c): the job the step in progress yields to (-1:
	 * none) and its built configurations then; the step in progress runs
	 * only built configurations (ready), the next index it looks at; the
	 * steps that yielded; the window of the GPUs' idle: its start (tn_now_s)
	 * and the seconds they had held runs then */
	int yield_min;          /* built configurations that make a yield (FDTUNE_YIELD;
				 * 0: none) */
	int yield_to, ready;
	long long yield_n, ready_at, yields;
	long long yield_runs;   /* runs recorded in steps of built configurations */
	double yield_t, yield_held;
	struct tn_built *built; /* the sources the plan's steps built (tn_yield.c) */
	FILE *steps;            /* the step log (tn_steps.c), or NULL */
	int nlog;               /* its lines written */
	double comp_s;          /* the steps' compiles under way (tn_pool_busy, on a
				 * GPU) times the seconds they were: their mean times
				 * the steps' wall clock */
	/* the starts of the steps that gave a run (tn_loop.c): how many, and
	 * summed over them the seconds until the workers had switched and until
	 * the first run was given to a worker */
	int nsteps;
	double sw_s, first_s;
	char cid[700];          /* the compiler for arch, as the cache keys it
				 * (tn_cache_compiler): the pools keep a pointer */
};

/* tn_stop.c. The signal that stops the sweep (0: none), set by its
 * handler. */
extern volatile int tn_stop_signal;
/* Nonzero once the sweep's --budget is spent (from its first step). */
int tn_over_budget(const struct tn_run *c);
/* Nonzero once --max-configs configurations of the plan have been proposed. */
int tn_maxed(const struct tn_run *c);
/* Nonzero once a signal or the budget says stop. */
int tn_stopping(const struct tn_run *c);

/* tn_choose.c: opens --seeds-from's database into c->seeds (tn_seeds_read),
 * or leaves it NULL without the option or without a GPU (said on stderr:
 * a compile-only sweep runs no search); 1 with err set. */
int tn_seeds_open(struct tn_run *c, char *err, size_t n);
/* tn_choose.c: job j's strategy into *st, its budget (percent) into *evals
 * where a transfer search takes its own default, its seeds into j->sd (with
 * --seeds-from's database's ranked among them); 1 with err set on a
 * database error. */
int tn_choose(struct tn_run *c, struct tn_job *j, enum tn_strategy *st, int *evals,
	      char *err, size_t n);
/* tn_choose.c: where j->seeding, the bests of j's relatives of its radius
 * recorded by now (tn_transfer.h: this GPU's other sizes, the plan's
 * earlier first passes among them, and any size on the database's other
 * GPUs), and those of --seeds-from's database ranked with them, lead its
 * first pass's start (tn_search_seed), the rest of it at random; said on
 * stderr. Once a job, at its first step: what the warm
 * pool compiled ahead of it from the start's guess without them still runs
 * where the problem is swept whole. */
int tn_first_seeds(struct tn_run *c, struct tn_job *j, char *err, size_t n);
/* tn_choose.c: --recheck: job j's configurations become the o->recheck
 * fastest records of its problem on the sweep's GPU model (db_each_record)
 * that can run here, fastest first, each to be recorded under the
 * configuration (j->rjson) it was recorded under; it says what it left. 1
 * with err set on a database error. */
int tn_recheck(struct tn_run *c, struct tn_job *j, char *err, size_t n);

/* tn_gpus.c */
/* Decides between a GPU sweep and a compile-only one, and for a GPU sweep
 * starts a worker per GPU (c->nwk of them) and returns without waiting for
 * them; tn_run_hello then waits for their answers and sets c->gpu and
 * c->arch (nothing to do where c->nwk is 0: compile-only). */
int tn_run_setup(struct tn_run *c, char *err, size_t n);
int tn_run_hello(struct tn_run *c, char *err, size_t n);
int tn_run_devices(struct tn_run *c, char *err, size_t n);
/* Switches every running worker to job j (tn_wk_open): asks them and
 * returns at once; tn_run_opened waits for their answers, which must come
 * before the workers are given runs. Nothing is asked when they are on j. */
int tn_run_open(struct tn_run *c, int j, char *err, size_t n);
int tn_run_opened(struct tn_run *c, char *err, size_t n);
/* Starts worker w and opens the current job's bench in it, if not running. */
int tn_run_worker_up(struct tn_run *c, int w, char *err, size_t n);

/* tn_warm.c. The configurations job j has still to propose. */
long long tn_job_left(const struct tn_job *j);
/* Those of its first pass in a plan still to run (0 without a search). */
long long tn_job_pass(const struct tn_job *j);
/* The job the plan runs next as things stand: the next first pass, else
 * (tn_order_next) the one not yet refined with the most to gain, else the
 * one with the most to gain; -1 where none. */
int tn_run_next(struct tn_run *c);     /* (it fills c->ord) */
/* How many configurations the warm pool may build at once beside a step
 * whose pool has unbuilt of them waiting or building and queued in all
 * (built ones included); 0: none now. A step that holds built what the
 * GPUs take next (2 a GPU + 4) waits for the GPUs, not for its compiles:
 * its pool's idle threads, a quarter of them at least. One that waits for
 * its compiles with a quarter of its threads or more idle: with compile
 * processes (c->cproc), the cores its builds leave (c->ncpu, tn_cpus()
 * where 0, less them and a core a GPU worker), its idle threads at most,
 * and none where they leave none: a warm compile beside the step's on a
 * full host delays the step's (v83); in threads, whose compiles wait on a
 * lock more than on the cores (NOTES "v81 measured"), its idle threads.
 * Else none. */
int tn_warm_want(const struct tn_run *c, int unbuilt, int queued);
/* A round of the warm pool of want configurations at once (1 at least;
 * the caller's choice: tn_warm_want's), topped up
 * while it lives (a quarter of the round built, its job with more to give,
 * not told to quit, not all cache hits so far) so that no thread waits for
 * the round's slowest compile: compiles into the compile cache
 * configurations of another job than the current one, peeked at, one a
 * source (tn_job_ring)
 * and of sources the warm pool has not taken before, so that its step finds
 * them there. The job the plan will run next first (tn_run_next), up to its
 * next step's share; then, where
 * every configuration of a job will run (its target its whole space), any
 * of that job's not yet proposed, its search's next proposals first, the
 * jobs with the most compile seconds left (at their mean build time) first.
 * Nothing where the cache is off, FDTUNE_WARM=0, at a stop or
 * --max-configs, while a warm pool lives, or within half a second of a call
 * that found nothing to build (3 s after a round that compiled
 * nothing: a warm cache). A failure only loses the head start. */
void tn_warm(struct tn_run *c, int want);
/* Discards what the warm pool has built (its work is in the cache), marks
 * every configuration of its source warmed and counts what it compiled;
 * frees the pool once it has built all it was given, or has quit and its
 * threads have ended. */
void tn_warm_drain(struct tn_run *c);
/* Tells the warm pool to quit after its compiles in progress, without
 * waiting for them (at the next step's start). */
void tn_warm_quit(struct tn_run *c);
/* Stops the warm pool, after its compiles in progress (the plan's end). */
void tn_warm_free(struct tn_run *c);

/* tn_fill.c. The key of configuration v's source into k (TN_MAXP ints):
 * its values, launch parameters (tn_param_launch) as INT_MIN, 0 past np. */
void tn_source_key(const struct tn_family *f, const int *v, int *k);
/* Makes j->ring, where it is not made yet: for each
 * configuration of j the next one of its source (one that differs from it
 * in launch parameters alone; itself where it is alone), a cycle a source.
 * 1 when it is there; 0 when j has fewer than 2 configurations, or out of
 * memory. */
int tn_job_ring(struct tn_job *j);
/* 1 when job j is swept whole on GPUs: its search's target is its whole
 * space, neither --recheck nor --max-configs. */
int tn_job_whole(const struct tn_run *c, const struct tn_job *j);
/* 1 when the step's job is swept whole (tn_job_whole): every configuration
 * runs whatever the order (fills, tn_loop.c's cap in builds, yields). */
int tn_step_whole(const struct tn_run *c);
/* 1 when the step's job takes fills: swept whole (tn_step_whole),
 * FDTUNE_FILL not 0. */
int tn_fill_on(const struct tn_run *c);
/* Keeps a copy of built item it, which the step hands to a GPU while its
 * pool compiles, where fills are on and its source has configurations of
 * the step's job not yet proposed, and no build of its source is kept. */
void tn_fill_keep(struct tn_run *c, const struct tn_item *it);
/* A built item (the caller's, as one from the pool) of a configuration of
 * the step's job not yet proposed, whose source was kept: taken from the
 * search (tn_search_take) and counted as proposed, but not against the
 * step's share (the step's own proposals keep their count; the caller asks
 * only while its pool compiles, so a step still ends with them); or NULL. */
struct tn_item *tn_fill_take(struct tn_run *c);
/* Frees what the step kept (at its end). */
void tn_fill_end(struct tn_run *c);

/* tn_yield.c. *v: FDTUNE_YIELD, the built configurations of another job
 * that make a step yield to it (0-1000000, 0: never; unset or empty: 256);
 * 1 with err set (what it sets, what to do) for a bad value. */
int tn_yield_min(int *v, char *err, size_t n);
/* Notes that a step handed on a build of configuration v of job j: its
 * source (family, radius, precision, parameters bar launch parameters) is
 * built, for every job of the plan (a plan of one job, compile-only or
 * FDTUNE_YIELD=0: nothing; out of memory: forgotten). */
void tn_yield_built(struct tn_run *c, const struct tn_job *j, const int *v);
/* Frees what tn_yield_built noted (the sweep's end). */
void tn_yield_free(struct tn_run *c);
/* Configurations of j that its search has not proposed and no earlier run
 * knows, whose code is built: warmed (j->warmed) or of a source noted by
 * tn_yield_built. */
long long tn_job_ready(const struct tn_run *c, const struct tn_job *j);
/* The job the step in progress would yield to, or -1, its built
 * configurations into *n: only after the first passes, under no --budget,
 * with the compile cache on, from a step swept whole, past a tenth of its
 * target and not itself a step of built configurations (c->ready), to
 * another job swept whole, past a tenth, with work left and c->yield_min
 * built configurations or more (the most of them); never with
 * FDTUNE_YIELD=0, compile-only or at a stop. */
int tn_yield_pick(const struct tn_run *c, long long *n);
/* Asked by the loop of a step begun at t0 while its pool compiles: from the
 * first look after the step's first run, once a window of TN_YIELD_WIN (a
 * second) has passed since the last, where the GPUs held no run for
 * TN_YIELD_IDLE (a quarter) of it, their time summed, and tn_yield_pick
 * gives a job, sets c->yield_to and c->yield_n (its built configurations):
 * 1, the step proposes no more. Else 0. Once a step at most. */
int tn_yield_check(struct tn_run *c, double t0, double now);
/* After a step that yielded (c->yield_to set): the job yielded to, its
 * share into *chunk (c->yield_n), c->ready set for its step, c->yield_to
 * cleared and the yield counted; else -1, nothing changed. */
int tn_yield_next(struct tn_run *c, long long *chunk);
/* The proposals of a step of built configurations (c->ready): up to want of
 * job j's built ones (tn_job_ready), from c->ready_at on, each taken from its
 * search (tn_search_take) into idx; the count (0: none left). */
int tn_yield_take(struct tn_run *c, struct tn_job *j, long long *idx, int want);

/* tn_record.c */
double tn_limit_s(const struct tn_run *c);
int tn_start_item(struct tn_run *c, struct tn_item *it, int *gpu, char *err, size_t n);
int tn_finish(struct tn_run *c, int w, char *err, size_t n);
int tn_overrun(struct tn_run *c, int w, char *err, size_t n);

/* tn_steps.c: the step log; a step's counters before it. */
struct tn_steps_mark {
	double t, comp_s, warm_s, cpu_s, wk_busy[TN_MAXDEV], wk_edge[TN_MAXDEV];
	long long proposed, done, built, filled, warmed;
};
int tn_steps_open(struct tn_run *c, char *err, size_t n);
void tn_steps_mark(const struct tn_run *c, const struct tn_job *j, struct tn_steps_mark *m);
void tn_steps_line(struct tn_run *c, const struct tn_job *j, const struct tn_steps_mark *m,
		   long long share);
void tn_steps_close(struct tn_run *c);

/* tn_summary.c: what the sweep did, on stderr, at its end. */
void tn_summary(const struct tn_run *c);

/* tn_schedule.c: runs the plan's steps (plan: in anytime order, on a GPU;
 * else each job to its end), until the searches are over, a stop or
 * --max-configs; 1 with err set where a step failed. */
int tn_schedule(struct tn_run *c, int plan, char *err, size_t n);
/* 1 when a job has evaluations left, or some proposed that a stop cut short. */
int tn_work_left(const struct tn_run *c);

/* tn_loop.c: runs the current job's search for at most chunk configurations
 * (0: until it is over), within the plan's --max-configs, until a stop. */
int tn_step(struct tn_run *c, long long chunk, char *err, size_t n);
/* 1 when the step caps what its pool holds in builds (tn_pool_sources), 0
 * in configurations: its job is swept whole and a tenth of it is proposed
 * or known. */
int tn_step_by_source(const struct tn_run *c);

#endif
