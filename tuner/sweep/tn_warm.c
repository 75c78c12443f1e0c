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
 * are compiled into the compile cache by a pool of their own, on as many
 * threads as the step's pool leaves idle. When the next step begins, the
 * warm pool is told to quit, and it is freed once its compiles in progress
 * end, while the step goes on: the step's compile of a source the warm pool
 * is building waits for that build and reads it from the cache
 * (tn_cache_compile), so nothing is built twice and the sweep itself never
 * waits (v47 joined the warm pool at the step's start: 13 s of a 228-s cold
 * plan, NOTES v48). Nothing warmed is recorded or run: a wrong guess costs
 * compiles, never a result. Off where the compile cache is off, at a stop,
 * or with FDTUNE_WARM=0.
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

long long tn_job_pass(const struct tn_job *j)
{
	return j->search ? tn_order_pass(j->nv, j->target) - j->nprior : 0;
}

int tn_run_next(struct tn_run *c)
{
	if (c->first >= 0)      /* the first passes, in the plan's order */
		for (int i = c->first; i < c->njobs; i++)
			if (tn_job_pass(&c->jobs[i]) > 0)
				return i;
	if (!c->ord)
		return -1;
	for (int i = 0; i < c->njobs; i++)
		c->ord[i] = (struct tn_order){ c->jobs[i].best_pct, tn_job_left(&c->jobs[i]),
					       c->jobs[i].target, c->jobs[i].refines == 0 };
	return tn_order_next(c->ord, c->njobs);
}

void tn_warm(struct tn_run *c, int idle)
{
	const char *cache = tn_cache_dir();
	long long idx[TN_MAXJOBS], cap;
	struct tn_job *j;
	char err[1024];
	int k, m, want;

	if (!cache || c->warm_off || c->warm || tn_stopping(c) || tn_maxed(c) ||
	    (k = tn_run_next(c)) < 0 || &c->jobs[k] == c->cur)
		return;
	j = &c->jobs[k];
	if (!j->search || j->warm_at == j->proposed)    /* warmed since its last step */
		return;
	/* the step pool's idle threads (a quarter of them at least), within the
	 * step it will have: the rest of its first pass, a first refinement's
	 * twentieth, or a later one's tenth (at least) */
	cap = c->first >= 0 && tn_job_pass(j) - j->proposed > 0 ? tn_job_pass(j) - j->proposed :
	      j->refines ? tn_order_chunk(j->target) : tn_order_first(j->target);
	if (c->o->max_configs > 0 && c->o->max_configs - c->issued < cap)
		cap = c->o->max_configs - c->issued;
	want = idle > c->o->jobs / 4 ? idle : c->o->jobs / 4;
	want = want < 1 ? 1 : want > TN_MAXJOBS ? TN_MAXJOBS : want;
	if (cap < want)
		want = (int)cap;
	if (tn_job_left(j) < want)
		want = (int)tn_job_left(j);
	if (want <= 0 || (m = tn_search_peek(j->search, idx, want)) <= 0)
		return;
	/* a thread an item, at full priority: once the next step begins, its
	 * compiles of these sources wait for them */
	if (tn_pool_new(&c->warm, j->pb, c->arch, c->cid, cache, m, err, sizeof err))
		return;                 /* only a cost: the step compiles them itself */
	j->warm_at = j->proposed;
	for (int i = 0; i < m; i++) {
		struct tn_item *it = calloc(1, sizeof *it);
		if (!it)
			return;
		memcpy(it->v, j->cfgs + idx[i] * TN_MAXP, sizeof it->v);
		it->idx = idx[i];
		it->ms = -1;
		tn_pool_add(c->warm, it);
	}
}

/* Discards what the warm pool has built, counting what it compiled. */
static void discard(struct tn_run *c)
{
	struct tn_item *it;
	while (c->warm && (it = tn_pool_take(c->warm))) {
		/* compiled here, not found in the cache nor shared with a twin */
		c->warmed += !it->cached && !it->shared && !it->bad_gen && !it->bad_compile;
		tn_item_clear(it);
		free(it);
	}
}

void tn_warm_drain(struct tn_run *c)
{
	discard(c);
	/* its threads end only once told to quit (tn_warm_quit) */
	if (c->warm && tn_pool_ended(c->warm))
		tn_warm_free(c);        /* waits for nothing: its threads are gone */
}

void tn_warm_quit(struct tn_run *c)
{
	tn_pool_quit(c->warm);
}

void tn_warm_free(struct tn_run *c)
{
	tn_pool_stop(c->warm);  /* after the compiles in progress, */
	discard(c);             /* which are counted too */
	tn_pool_free(c->warm);
	c->warm = NULL;
}
