/*
 * tn_worker.h: measuring kernels in a worker process, one per GPU. The
 * sweep never touches a GPU itself: it hands compiled code to a worker
 * (this executable started again as "fdtune __worker"), which loads,
 * validates and times it and answers with the outcome. A kernel that
 * faults kills only the worker's GPU context; one that hangs is killed
 * with its worker. Either way the sweep records the outcome, starts a new
 * worker and goes on.
 */
#ifndef TN_WORKER_H
#define TN_WORKER_H

#include <sys/types.h>

#include "rt.h"
#include "tn.h"
#include "tn_bench.h"

struct tn_wk {
	int device;             /* GPU ordinal */
	const char *exe;        /* the fdtune executable; NULL: /proc/self/exe */
	pid_t pid;              /* 0: not running */
	int to, from;           /* pipes: requests to it, replies from it */
	struct rt_dev dev;
	void *job;              /* the sweep's item in progress, NULL when idle */
	void *next;             /* the item queued behind it (tn_wk_queue), NULL: none */
	int next_sent;          /* its request is in the pipe: the worker runs it next */
	long long pipe_cap;     /* bytes the request pipe holds */
	double deadline;        /* CLOCK_MONOTONIC seconds the job may run until */
	int starts;             /* processes started for this GPU */
	char why[256];          /* how the last process ended, when it died */
	int sig;                /* the signal that ended the last process, 0: none */
	long long built, hits, evicted; /* its opens of problems, over all its processes:
					 * benches built, found held, released for room */
	double open_s[3];       /* seconds of those builds: host data mapped (or made),
				 * check kernel loaded and GPU reference made, fields
				 * allocated and uploaded */
	double t_job;           /* when the job in progress was sent, or for a queued
				 * one, when the worker answered the job before it
				 * and so began it (tn_loop.c) */
	double t_answer;        /* when its last run ended: its answer read, or the
				 * run killed over its time (tn_record.c) */
	double busy_s;          /* seconds it held a job, from its sending (or, queued,
				 * the answer before it) to its answer */
	double work_s;          /* seconds of those it said it validated and timed */
	double step_first;      /* when its first job of the step in progress was
				 * sent, or -1 before it (tn_loop.c) */
	double edge_s[2];       /* seconds of the steps it held no job: [0] before
				 * its first of a step, [1] after its last */
};

/* What a worker's cache of open problems (tn_pcache.h) needs to know. */
struct tn_wk_cache {
	double copy_gbs;        /* the GPU's copy bandwidth, the roof of %copy */
	int places;             /* placements a contender is timed on (room kept) */
	int nwk;                /* workers of the sweep: they share the host's memory */
	char data[64];          /* the path of the problem's host data, made by the
				 * sweep (tn_hdata_path); "": the worker makes its own */
};

/* A worker's answer to a run. */
struct tn_wk_done {
	struct tn_result res;   /* res.status points at a static string */
	int fatal;              /* the worker's GPU context is lost: it exits */
	double check_s, time_s; /* validation and timing wall time in the worker */
	char energy_err[256];   /* why the worker cannot measure energy (said once) */
};

/* Starts a worker on GPU w->device and reads its properties into w->dev.
 * _start starts the process and returns at once, _hello waits for its
 * first answer: several GPUs start at the same time that way. */
int tn_wk_spawn(struct tn_wk *w, char *err, size_t n);
int tn_wk_start(struct tn_wk *w, char *err, size_t n);
int tn_wk_hello(struct tn_wk *w, char *err, size_t n);
/* Calibrates the copy bandwidth (tn_calibrate) in the worker. _ask sends
 * the request and returns at once, _get waits for the answer: several GPUs
 * calibrate at the same time that way. */
int tn_wk_calibrate(struct tn_wk *w, double *copy, double *memcpy_gbs, long long *bytes,
		    char *err, size_t n);
int tn_wk_calibrate_ask(struct tn_wk *w, char *err, size_t n);
int tn_wk_calibrate_get(struct tn_wk *w, double *copy, double *memcpy_gbs, long long *bytes,
			char *err, size_t n);
/* Makes pb, key in the worker's cache (distinct for each problem of a
 * sweep), the problem the next runs are for. The worker holds every
 * problem it opened (its fields on the GPU and its CPU reference) within
 * a budget of memory, and releases the least recently used where a new one
 * would not fit (tn_pcache.h): a problem held costs nothing, one not held
 * builds its bench. w->built, hits and evicted count what it did. _ask and
 * _get split it as for the calibration. */
int tn_wk_open(struct tn_wk *w, const struct tn_problem *pb, long long key,
	       const struct tn_wk_cache *wc, char *err, size_t n);
int tn_wk_open_ask(struct tn_wk *w, const struct tn_problem *pb, long long key,
		   const struct tn_wk_cache *wc, char *err, size_t n);
int tn_wk_open_get(struct tn_wk *w, char *err, size_t n);
/* How a run is timed (tn_bench.h): raced out when clearly slower than
 * race_ms (0: off); timed on places placements of the fields when under
 * TN_PLACES_GATE times best_ms, or the first (best_ms 0). */
struct tn_wk_time {
	double race_ms, best_ms;
	int places;
	double energy_s;        /* >0: an ok run's energy measured too (tn_energy.h) */
};
/* Sends one run: code p of config v, launched on grid x block, timed as tm
 * says. Returns at once; the answer is read with tn_wk_read once w->from is
 * readable. */
int tn_wk_submit(struct tn_wk *w, const struct rt_prog *p, const int *v,
		 const unsigned grid[3], const unsigned block[3], const struct tn_wk_time *tm,
		 char *err, size_t n);
/* Queues one run behind the run in progress, as tn_wk_submit sends one:
 * the worker starts it as soon as it has answered, without waiting for the
 * sweep. 0: sent. Else the worker is left as it is and the run is not its
 * to make: 1 where the request would not fit in the pipe at once (the
 * write could block the sweep until the worker reads; nothing is sent), 2
 * where it could not be written (the worker is gone: the answer to its run
 * in progress says so). */
int tn_wk_queue(struct tn_wk *w, const struct rt_prog *p, const int *v,
		const unsigned grid[3], const unsigned block[3], const struct tn_wk_time *tm);
/* Reads the answer to the run in progress. Nonzero: the worker died first
 * (w->why says how); it is reaped and must be spawned again. */
int tn_wk_read(struct tn_wk *w, struct tn_wk_done *d);
/* Kills the worker (SIGKILL) and reaps it. */
void tn_wk_kill(struct tn_wk *w);

/* The worker's side: serves requests on stdin/stdout until EOF. */
int tn_worker_main(int argc, char **argv);

#endif
