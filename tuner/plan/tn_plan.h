/*
 * tn_plan.h: a plan, the problems one sweep tunes together: the cross
 * product of comma lists of families, radii, sizes and precisions, or the
 * lines of a plan file. Every problem of a plan shares the spacing and the
 * --param domains (each applied to the families that have that parameter),
 * one database, one budget and one progress display; tn_order.c says in
 * which order a GPU sweep spends its evaluations over them.
 */
#ifndef TN_PLAN_H
#define TN_PLAN_H

#include "tn.h"

struct tn_plan_item {
	struct tn_problem pb;
	struct tn_space sp;
	char name[96];          /* "xyz R=4 64x64x64 fp32", for messages */
};

struct tn_plan {
	int n, cap;
	struct tn_plan_item *p;
};

/* What every problem of a plan shares: spacings and --param specs. */
struct tn_plan_common {
	double h[3];
	const char *const *params;
	int nparams;
};

/* The cross product of the comma lists fams (-f), radii (-r), sizes (-n)
 * and precs (--precision), families outermost. FDT_OK, or FDT_USAGE with err
 * naming the option and the bad value; a problem named twice is refused. */
int tn_plan_lists(struct tn_plan *pl, const char *fams, const char *radii, const char *sizes,
		  const char *precs, const struct tn_plan_common *c, char *err, size_t n);
/* The problems of the plan file at path: one a line, "FAMILY RADIUS SIZE
 * [PRECISION]" (fp32 when left out), blank lines and # comments ignored.
 * FDT_OK; FDT_FAIL when the file cannot be read; FDT_USAGE for a bad line, err saying
 * "path:line: what is wrong". */
int tn_plan_file(struct tn_plan *pl, const char *path, const struct tn_plan_common *c,
		 char *err, size_t n);
void tn_plan_free(struct tn_plan *pl);
/* "xyz R=4 64x64x64 fp32" */
void tn_problem_name(const struct tn_problem *pb, char *buf, size_t n);

/* tn_order.c: the anytime order of a GPU plan. Every problem first gets a
 * short guided pass, so each has a validated best early; then the budget
 * goes, a chunk at a time, to the problem with the most to gain:
 *     gain = (1 - best %copy / 100) x (evaluations left / its target)
 * that is, how far its best is from the copy roof (all of it when nothing
 * has validated yet) times the share of its search still to run. Ties go to
 * the earlier problem of the plan. A problem not yet refined comes before
 * every one that has been, so that each gets a short refinement
 * (tn_order_refine) before any gets a second. */
struct tn_order {
	double best_pct;        /* NAN: no validated run yet */
	long long left, target; /* evaluations still to make, and in all */
	int fresh;              /* 1: not refined yet (its first pass alone) */
};
/* Evaluations of the first pass of a problem of n configurations: 2%, at
 * least 8 (or all n when fewer), never more than target. */
long long tn_order_pass(long long n, long long target);
/* Evaluations a refinement step gives a problem: a tenth of its target, at
 * least 32. */
long long tn_order_chunk(long long target);
/* The seconds a refinement step should last: a twentieth of the budget
 * (budget_s; 0: none, then 30 s), within 5..60 s. Every switch of problem
 * empties the pipeline of compiles and runs, so steps last a while; a
 * twentieth keeps the order anytime: each problem has its first pass and
 * at most a step of the others comes before its next. */
double tn_order_slice(double budget_s);
/* Evaluations of a refinement step of a problem of target evaluations when
 * the plan runs rate configurations per second: those of slice_s seconds,
 * at most half the target, at least tn_order_chunk(target). */
long long tn_order_chunk_time(long long target, double rate, double slice_s);
/* Evaluations of a problem's first refinement step: a twentieth of its
 * target, at least 32. With the first pass (2%) that is 7% of each
 * problem of 640 or more (the minimums of 8 and 32 make it more below), so
 * in a plan that runs every problem to its end, every one has
 * had its first refinement within about 7% of the plan's runs, before a
 * tenth of its wall clock (the anytime target of issue 33); a guided search
 * of 7% comes within 1-2% of the exhaustive best (fdtune replay, NOTES
 * v56). */
long long tn_order_first(long long target);
/* Evaluations of refinement step `steps` (0 the first) of a problem: the
 * first by count (tn_order_first), so that every problem of a plan has a
 * short refinement before any has a long one (tn_order_next takes the
 * fresh ones first; a slice of time at the rate
 * of a warm plan is half a problem of 3600); later ones by time
 * (tn_order_chunk_time). */
long long tn_order_refine(long long target, int steps, double rate, double slice_s);
/* The configurations a sweep on nwk GPUs keeps proposed and not yet run in
 * its compile pool of jobs threads, busy of them compiling: 2 nwk + 4 for
 * the GPUs to take ahead, and two a compile under way, at most 2 jobs + 2
 * nwk + 4. Each was proposed without the outcomes of those before it (and
 * of the runs the GPUs hold, 2 a GPU): from a warm cache, where nothing
 * compiles for long, the guided search sees its outcomes about 2 + 4 nwk
 * runs late, not 2 jobs late (results/NOTES.md v55). */
int tn_order_ahead(int nwk, int jobs, int busy);
double tn_order_gain(const struct tn_order *o);
/* The problem of o[0..n) to refine next: the fresh one with the most to
 * gain while any fresh one has work left, else the one with the most to
 * gain; -1 when none has work left. */
int tn_order_next(const struct tn_order *o, int n);

#endif
