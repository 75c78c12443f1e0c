/*
 * tn_yield.c: a step bound by its compiles yields the GPUs to a problem whose
 * code is built. In a cold plan a step can wait for its compiles while
 * another problem's configurations, whose code is in the compile cache, wait
 * their turn: compiled ahead by the warm pool (tn_warm.c), or built for a
 * problem of the same family, radius and precision at another size (the
 * sources do not depend on the size: one H200 on 8 vCPUs ran 92 s of such
 * steps at the plan's end, compiling nothing, after 63 s of waits for
 * compiles; NOTES v74). Where both jobs are swept whole (every configuration
 * runs: tn_job_whole) and past a tenth of their targets, the order of their
 * runs is free, so: once the GPUs of such a step, after its first run, have
 * held no run for a quarter (TN_YIELD_IDLE) of a window of a second
 * (TN_YIELD_WIN), their time summed (the waits are gaps of tens of ms
 * between a source's builds, not one long wait), and another such job
 * holds c->yield_min configurations or more built and not yet run, the
 * step stops proposing and ends with what it has in flight; the plan's
 * next step is that job's, and it proposes only those built configurations
 * (tn_yield_take: cache hits, so the GPUs run while the compile threads
 * build for the steps after it). Not in the plan's first passes nor before
 * a tenth (the anytime order is made there), nor under --budget (what runs
 * would then depend on the order), nor compile-only, nor without a compile
 * cache, nor with FDTUNE_YIELD=0 (FDTUNE_YIELD=N: N built configurations
 * make a yield).
 *
 * Contract: tn_yield_built is told of every configuration whose build a
 * step hands on (a source of the plan built, keyed by family, radius,
 * precision and parameters, launch parameters apart: tn_source_key);
 * tn_yield_check, asked by a step's loop while its pool compiles, sets
 * c->yield_to and c->yield_n and returns 1 where the step is to end;
 * tn_yield_next, asked by the plan (tn_schedule.c) before it chooses its next
 * step, turns that into a step of c->yield_n built configurations of job
 * c->yield_to (c->ready set), whose proposals are tn_yield_take's. A wrong
 * guess (a source not in the cache after all) only costs a switch of
 * problem and the step's compiles.
 */
#include "tn_run.h"
#include "tn_cache.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The window over which the GPUs' idle is measured (seconds), the share of
 * it idle that makes a step yield, and by default the built configurations
 * of another job that make a yield worth a switch (FDTUNE_YIELD; some 2-3 s
 * of runs at 9 ms each: a switch and a drain of the compiles in flight cost
 * well under that). */
#define TN_YIELD_WIN 1.0
#define TN_YIELD_IDLE 0.25
#define TN_YIELD_MIN 256

/* The sources built in the plan: an open-addressed set of keys. */
struct tn_built_key {
	const struct tn_family *f;
	int r, fp64, used;
	int k[TN_MAXP];
};
struct tn_built {
	struct tn_built_key *e;
	size_t cap, n;          /* cap: a power of two, n < cap / 2 */
};

/* The key of configuration v of job j into *e (used set). */
static void make_key(const struct tn_job *j, const int *v, struct tn_built_key *e)
{
	memset(e, 0, sizeof *e);
	e->f = j->pb->fam;
	e->r = j->pb->r;
	e->fp64 = !strcmp(j->pb->prec, "fp64");
	e->used = 1;
	tn_source_key(e->f, v, e->k);
}

/* FNV-1a of e's family, radius, precision and key. */
static size_t hash(const struct tn_built_key *e)
{
	uint64_t h = 1469598103934665603ULL ^ (uint64_t)(uintptr_t)e->f;
	int w[TN_MAXP + 2];
	w[0] = e->r;
	w[1] = e->fp64;
	memcpy(w + 2, e->k, sizeof e->k);
	for (int i = 0; i < TN_MAXP + 2; i++)
		h = (h ^ (uint32_t)w[i]) * 1099511628211ULL;
	return (size_t)(h ^ (h >> 29));
}

/* 1 when slot a holds key b. */
static int same(const struct tn_built_key *a, const struct tn_built_key *b)
{
	return a->used && a->f == b->f && a->r == b->r && a->fp64 == b->fp64 &&
	       !memcmp(a->k, b->k, sizeof a->k);
}

/* The slot of e in b: its own, or the empty one it would take. */
static struct tn_built_key *slot(const struct tn_built *b, const struct tn_built_key *e)
{
	size_t i = hash(e) & (b->cap - 1);
	while (b->e[i].used && !same(&b->e[i], e))
		i = (i + 1) & (b->cap - 1);
	return &b->e[i];
}

/* Doubles b's table (from nothing: 64 slots); 0 out of memory. */
static int grow(struct tn_built *b)
{
	struct tn_built old = *b;
	b->cap = old.cap ? 2 * old.cap : 64;
	if (!(b->e = calloc(b->cap, sizeof *b->e))) {
		*b = old;
		return 0;
	}
	for (size_t i = 0; i < old.cap; i++)
		if (old.e[i].used)
			*slot(b, &old.e[i]) = old.e[i];
	free(old.e);
	return 1;
}

void tn_yield_built(struct tn_run *c, const struct tn_job *j, const int *v)
{
	struct tn_built_key e, *s;
	if (c->njobs < 2 || !c->gpu || c->yield_min <= 0 || !tn_cache_dir())
		return;         /* (no cache: what a step builds is not kept) */
	if (!c->built && !(c->built = calloc(1, sizeof *c->built)))
		return;         /* only guesses lost */
	if (2 * (c->built->n + 1) > c->built->cap && !grow(c->built))
		return;
	make_key(j, v, &e);
	s = slot(c->built, &e);
	if (!s->used) {
		*s = e;
		c->built->n++;
	}
}

void tn_yield_free(struct tn_run *c)
{
	if (c->built)
		free(c->built->e);
	free(c->built);
	c->built = NULL;
}

/* 1 when configuration i of j is not known to its search and its code is
 * built: warmed, or its source built in the plan. */
static int ready(const struct tn_run *c, const struct tn_job *j, long long i)
{
	struct tn_built_key e;
	if (tn_search_known(j->search, i))
		return 0;
	if (j->warmed && j->warmed[i])
		return 1;
	if (!c->built || !c->built->n)
		return 0;
	make_key(j, j->cfgs + i * TN_MAXP, &e);
	return slot(c->built, &e)->used;
}

int tn_yield_min(int *v, char *err, size_t n)
{
	return tn_env_int("FDTUNE_YIELD", 0, 1000000, TN_YIELD_MIN, "the built configurations "
			  "of another problem that make a step bound by its compiles yield to "
			  "it, 0 for no yields", v, err, n);
}

long long tn_job_ready(const struct tn_run *c, const struct tn_job *j)
{
	long long r = 0;
	for (long long i = 0; j->search && i < j->nv; i++)
		r += ready(c, j, i);
	return r;
}

/* 1 when a tenth of j's target is proposed or known: its anytime order's
 * first refinement is behind it (the condition of tn_step_by_source). */
static int tenth(const struct tn_job *j)
{
	return 10 * (j->nprior + j->proposed) >= j->target;
}

int tn_yield_pick(const struct tn_run *c, long long *n)
{
	int b = -1;
	long long most = 0;
	*n = 0;
	if (c->yield_min <= 0 || !c->gpu || c->first >= 0 || !c->ord || !c->cur || c->ready ||
	    c->o->budget_s > 0 || !tn_cache_dir() || !tn_job_whole(c, c->cur) ||
	    !tenth(c->cur) || tn_stopping(c))
		return -1;
	for (int i = 0; i < c->njobs; i++) {
		const struct tn_job *j = &c->jobs[i];
		long long r;
		if (j == c->cur || !tn_job_whole(c, j) || !tenth(j) || tn_job_left(j) <= 0)
			continue;
		r = tn_job_ready(c, j);
		if (r >= c->yield_min && r > most) {
			b = i;
			most = r;
		}
	}
	*n = most;
	return b;
}

/* The seconds the workers have held runs up to now, a run in progress
 * counted to now (tn_wk: busy_s, t_job). */
static double held(const struct tn_run *c, double now)
{
	double h = 0;
	for (int w = 0; w < c->nwk; w++)
		h += c->wk[w].busy_s + (c->wk[w].job ? now - c->wk[w].t_job : 0);
	return h;
}

int tn_yield_check(struct tn_run *c, double t0, double now)
{
	double h, span = now - c->yield_t;
	int k, ran = 0, starved;
	long long r;
	if (c->yield_to >= 0 || c->nwk <= 0)
		return 0;
	for (int w = 0; w < c->nwk; w++)
		ran |= c->wk[w].step_first >= 0;
	if (!ran)               /* the step's start: its first compiles, not a gap */
		return 0;
	if (c->yield_t < t0) {  /* the first look since a run began: the first window */
		c->yield_t = now;
		c->yield_held = held(c, now);
		return 0;
	}
	if (span < TN_YIELD_WIN)
		return 0;
	h = held(c, now);
	starved = c->nwk * span - (h - c->yield_held) >= TN_YIELD_IDLE * c->nwk * span;
	c->yield_t = now;
	c->yield_held = h;
	if (!starved || (k = tn_yield_pick(c, &r)) < 0)
		return 0;
	c->yield_to = k;
	c->yield_n = r;
	return 1;
}

int tn_yield_next(struct tn_run *c, long long *chunk)
{
	int k = c->yield_to;
	if (k < 0)
		return -1;
	c->yield_to = -1;
	c->ready = 1;
	c->ready_at = 0;
	c->yields++;
	*chunk = c->yield_n;
	return k;
}

int tn_yield_take(struct tn_run *c, struct tn_job *j, long long *idx, int want)
{
	int m = 0;
	for (; m < want && c->ready_at < j->nv; c->ready_at++) {
		long long i = c->ready_at;
		if (ready(c, j, i) && tn_search_take(j->search, i))
			idx[m++] = i;
	}
	return m;
}
