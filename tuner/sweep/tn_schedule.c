/*
 * tn_schedule.c: the order of a sweep's steps. Compile-only sweeps and
 * single problems run every job in turn, each to its end. A plan on a GPU
 * runs in anytime order (tn_order.c): a short guided pass over every
 * problem (the first passes, in the plan's order), so that each has a
 * validated best early; then refinement steps, each for the problem with
 * the most to gain (tn_run_next), the first a twentieth of it and the later
 * ones sized by time (tn_order_refine), as a switch of problem empties the
 * pipeline; and after a step that yielded its GPUs (tn_yield.c), a step of
 * the other problem's built configurations alone.
 *
 * Contract: tn_schedule runs the steps until every search is over, a stop
 * or --max-configs; the warm pool and the set of built sources are freed
 * at its end, whatever ends it.
 */
#include "fdt_rc.h"
#include "tn_run.h"

#include <stdio.h>
#include <stdlib.h>

/* Runs a step of job i: chunk configurations at most (0: to its end). */
static int step(struct tn_run *c, int i, long long chunk, char *err, size_t n)
{
	struct tn_job *j = &c->jobs[i];
	struct tn_steps_mark m;
	long long before = j->proposed;
	int rc;
	if (!j->search)
		return FDT_OK;
	tn_steps_mark(c, j, &m);
	c->cur = j;
	if (c->njobs > 1)
		tn_progress_job(&c->pr, i + 1, c->njobs, j->name, j->best_gbs, j->best_pct);
	if (c->gpu && (tn_run_open(c, i, err, n) || tn_first_seeds(c, j, err, n)))
		return FDT_FAIL;
	/* the warm pool ends its compiles under way while the step begins: the
	 * step's compiles of the same sources wait for them (tn_cache_compile) */
	tn_warm_quit(c);
	rc = tn_step(c, chunk, err, n);
	tn_steps_line(c, j, &m, chunk);
	if (rc)
		return FDT_FAIL;
	if (j->proposed == before && !c->ready && !tn_stopping(c) && !tn_maxed(c))
		j->target = j->nprior + j->proposed;    /* the search has nothing more */
	return FDT_OK;
}

/* 1 when a job has evaluations left, or some proposed that a stop cut short. */
int tn_work_left(const struct tn_run *c)
{
	for (int i = 0; i < c->njobs; i++)
		if (tn_job_left(&c->jobs[i]) > 0 || c->jobs[i].done < c->jobs[i].proposed)
			return 1;
	return 0;
}

/* Configurations per second of the plan so far, from the start of its first
 * step; 0 before any. */
static double rate(const struct tn_run *c)
{
	long long done = 0;
	double t = tn_now_s() - c->t0;
	for (int i = 0; i < c->njobs; i++)
		done += c->jobs[i].done;
	return t > 0 ? done / t : 0;
}

int tn_schedule(struct tn_run *c, int plan, char *err, size_t n)
{
	struct tn_order ord[64], *o = c->njobs <= 64 ? ord : malloc((size_t)c->njobs * sizeof *o);
	int rc = 0;
	if (!o)
		return snprintf(err, n, "out of memory"), 1;
	c->ord = plan ? o : NULL;       /* the order tn_warm guesses with */
	for (int i = 0; i < c->njobs && !rc && !tn_stopping(c) && !tn_maxed(c); i++) {
		struct tn_job *j = &c->jobs[i];
		long long pass = plan ? tn_job_pass(j) : 0;
		c->first = plan ? i + 1 : -1;
		if (!plan || pass > 0)
			rc = step(c, i, plan ? pass : 0, err, n);
	}
	c->first = -1;
	while (plan && !rc && !tn_stopping(c) && !tn_maxed(c)) {
		long long chunk, done;
		int k = tn_yield_next(c, &chunk);       /* after a yield: built ones alone */
		if (k < 0 && (k = tn_run_next(c)) >= 0)
			chunk = tn_order_refine(c->jobs[k].target, c->jobs[k].refines++, rate(c),
						tn_order_slice(c->o->budget_s));
		if (k < 0)
			break;
		done = c->jobs[k].done;
		rc = step(c, k, chunk, err, n);
		if (c->ready)
			c->yield_runs += c->jobs[k].done - done;
		c->ready = 0;
	}
	tn_warm_free(c);
	tn_yield_free(c);
	c->ord = NULL;
	if (o != ord)
		free(o);
	return rc;
}
