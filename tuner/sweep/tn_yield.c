/*
 * tn_yield.c: a step bound by its compiles yields the GPUs to a problem
 * whose code is built. In a cold plan the warm pool (tn_warm.c) compiles
 * later steps' sources on the threads a step leaves idle, yet a step bound
 * by its own compiles still leaves its GPUs waiting while those built
 * configurations wait their turn (one H200 on 8 vCPUs: 26 s of the big xyz
 * R=8 step's 53 idle, while the warm pool built 805 configurations of the
 * next problems; NOTES v74). Where both jobs are swept whole (every
 * configuration runs: tn_job_whole), the order of their runs is free, so:
 * once a GPU of such a step has waited TN_YIELD_S for the step's compiles
 * and another whole job holds TN_YIELD_MIN configurations or more warmed
 * and not yet run, the step stops proposing and ends with what it has in
 * flight; the plan's next step is that job's, and it proposes only those
 * built configurations (tn_yield_take: cache hits, so the GPUs run while
 * the warm pool compiles for the step after it). Not in the plan's first
 * passes (the anytime order is made there), nor compile-only, nor with
 * FDTUNE_YIELD=0 (FDTUNE_YIELD=N: N built configurations make a yield).
 *
 * Contract: tn_yield_check, asked by a step's loop while its pool compiles,
 * sets c->yield_to and c->yield_n and returns 1 where the step is to end;
 * schedule (tn_sweep.c) then runs job c->yield_to for c->yield_n
 * configurations with c->ready set, and tn_yield_take is the proposals of
 * such a step. A wrong guess only costs a switch of problem.
 */
#include "fdt_rc.h"
#include "tn_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A GPU's wait for the step's compiles before it yields (seconds), and by
 * default the built configurations of another job that make a yield worth
 * a switch (FDTUNE_YIELD; some 2-3 s of runs at 9 ms each: a switch and a
 * drain of the compiles in flight cost well under that). */
#define TN_YIELD_S 0.25
#define TN_YIELD_MIN 256
/* After a look that found no job to yield to, the next look's delay. */
#define TN_YIELD_AGAIN_S 0.5

int tn_yield_min(int *v, char *err, size_t n)
{
	const char *s = getenv("FDTUNE_YIELD");
	*v = TN_YIELD_MIN;
	if (!s || !*s)
		return FDT_OK;
	if (tn_parse_int(s, "FDTUNE_YIELD", 0, 1000000, v, err, n)) {
		size_t l = strlen(err);
		snprintf(err + l, n - l, " (the built configurations of another problem that "
			 "make a step bound by its compiles yield to it; unset it for %d, or 0 "
			 "for no yields)", TN_YIELD_MIN);
		return FDT_FAIL;
	}
	return FDT_OK;
}

int tn_job_whole(const struct tn_run *c, const struct tn_job *j)
{
	return c->gpu && j->search && !c->o->recheck && c->o->max_configs <= 0 &&
	       j->target >= j->nv;
}

long long tn_job_ready(const struct tn_job *j)
{
	long long r = 0;
	if (!j->warmed || !j->search)
		return 0;
	for (long long i = 0; i < j->nv; i++)
		r += j->warmed[i] && !tn_search_known(j->search, i);
	return r;
}

int tn_yield_pick(const struct tn_run *c)
{
	int b = -1;
	long long most = 0;
	if (c->yield_min <= 0 || !c->gpu || c->first >= 0 || !c->ord || !c->cur || c->ready ||
	    !tn_job_whole(c, c->cur) || tn_stopping(c))
		return -1;
	for (int i = 0; i < c->njobs; i++) {
		const struct tn_job *j = &c->jobs[i];
		long long r;
		if (j == c->cur || !tn_job_whole(c, j) || tn_job_left(j) <= 0)
			continue;
		r = tn_job_ready(j);
		if (r >= c->yield_min && r > most) {
			b = i;
			most = r;
		}
	}
	return b;
}

/* 1 when a worker has held no run for TN_YIELD_S or more of this step
 * (begun at t0), at now. */
static int waited(const struct tn_run *c, double t0, double now)
{
	for (int w = 0; w < c->nwk; w++) {
		const struct tn_wk *k = &c->wk[w];
		double since = k->step_first < 0 || k->t_answer < t0 ? t0 : k->t_answer;
		if (!k->job && k->pid > 0 && now - since >= TN_YIELD_S)
			return 1;
	}
	return 0;
}

int tn_yield_check(struct tn_run *c, double t0, double now)
{
	int k;
	if (c->yield_to >= 0 || now < c->yield_next || !waited(c, t0, now))
		return 0;
	if ((k = tn_yield_pick(c)) < 0) {
		c->yield_next = now + TN_YIELD_AGAIN_S;
		return 0;
	}
	c->yield_to = k;
	c->yield_n = tn_job_ready(&c->jobs[k]);
	c->yields++;
	return 1;
}

int tn_yield_take(struct tn_run *c, struct tn_job *j, long long *idx, int want)
{
	int m = 0;
	if (!j->warmed)
		return 0;
	for (; m < want && c->ready_at < j->nv; c->ready_at++) {
		long long i = c->ready_at;
		if (j->warmed[i] && tn_search_take(j->search, i))
			idx[m++] = i;
	}
	c->yield_runs += m;
	return m;
}
