/*
 * tn_warm.c: the compile cache warmed for a plan's next step. A step of a
 * plan ends by draining what it proposed (tn_loop.c): its last compiles
 * finish one by one while the GPUs run out of work, and the next step's
 * pool starts empty, so that a cold plan's GPUs wait about a compile's
 * time at every switch (the 2-H100 cold plan held a configuration 52% of
 * its steps, its compile threads busy 73%: results/h100x2/scaling.md).
 * Once a step has proposed all of its share, the plan's next step is
 * guessed as the plan itself will choose it (tn_run_next), and that job's
 * next configurations, peeked at without being proposed (tn_search_peek),
 * are compiled into the compile cache by a pool of the job's own. When the
 * job's step comes, its builds are cache hits. Nothing warmed is recorded
 * or run: a wrong guess costs compiles, never a result. Off where the
 * compile cache is, or with FDTUNE_WARM=0.
 */
#include "fdt_rc.h"
#include "tn_run.h"
#include "tn_cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long long tn_job_left(const struct tn_job *j)
{
	long long l = j->target - j->nprior - j->proposed;
	return j->search && tn_search_next_left(j->search) && l > 0 ? l : 0;
}

/* The configurations of job j's first pass still to run. */
static long long first_pass(const struct tn_job *j)
{
	return j->search ? tn_order_pass(j->nv, j->target) - j->nprior : 0;
}

int tn_run_next(const struct tn_run *c)
{
	if (c->first >= 0)      /* the first passes, in the plan's order */
		for (int i = c->first; i < c->njobs; i++)
			if (first_pass(&c->jobs[i]) > 0)
				return i;
	if (!c->ord)
		return -1;
	for (int i = 0; i < c->njobs; i++)
		c->ord[i] = (struct tn_order){ c->jobs[i].best_pct, tn_job_left(&c->jobs[i]),
					       c->jobs[i].target };
	return tn_order_next(c->ord, c->njobs);
}

void tn_warm(struct tn_run *c)
{
	static char id[700];    /* the pools keep a pointer to it */
	const char *cache = tn_cache_dir();
	long long idx[64];
	struct tn_job *j;
	char err[1024];
	int k, m, want;

	if (!cache || c->warm_off || (k = tn_run_next(c)) < 0 || &c->jobs[k] == c->cur)
		return;
	j = &c->jobs[k];
	if (!j->search || j->warm_at == j->proposed)    /* warmed since its last step */
		return;
	want = c->o->jobs < 64 ? c->o->jobs : 64;
	if (tn_job_left(j) < want)
		want = (int)tn_job_left(j);
	if (want <= 0 || (m = tn_search_peek(j->search, idx, want)) <= 0)
		return;
	tn_cache_compiler(c->arch, id, sizeof id);
	if (!j->warm && tn_pool_new(&j->warm, j->pb, c->arch, id, cache, c->o->jobs, err,
				    sizeof err))
		return;                 /* only a cost: the step compiles them itself */
	j->warm_at = j->proposed;
	for (int i = 0; i < m; i++) {
		struct tn_item *it = calloc(1, sizeof *it);
		if (!it)
			return;
		memcpy(it->v, j->cfgs + idx[i] * TN_MAXP, sizeof it->v);
		it->idx = idx[i];
		it->ms = -1;
		tn_pool_add(j->warm, it);
		c->warmed++;
	}
}

void tn_warm_drain(struct tn_run *c)
{
	for (int i = 0; i < c->njobs; i++) {
		struct tn_item *it;
		while (c->jobs[i].warm && (it = tn_pool_take(c->jobs[i].warm))) {
			tn_item_clear(it);
			free(it);
		}
	}
}

void tn_warm_free(struct tn_run *c)
{
	for (int i = 0; c->jobs && i < c->njobs; i++) {
		tn_pool_free(c->jobs[i].warm);
		c->jobs[i].warm = NULL;
	}
}
