/*
 * tn_warm.c: the compile cache warmed for a plan's later steps. A step's
 * pool builds only a little ahead of the GPUs (tn_order_ahead), so a cold
 * plan's compile threads idle through its GPU-bound steps and its GPUs
 * wait through its compile-bound ones (2 H200s, v59: the threads busy 54%
 * of the steps, each GPU idle 44 s of 118 between runs; NOTES v60). While
 * a step's pool leaves threads idle, or cores where the step waits for its
 * compiles in helper processes (tn_warm_want, v83), a warm pool of that
 * many compiles into the compile cache, a round of one configuration at a
 * time for each, other jobs' configurations peeked at without being
 * proposed (tn_search_peek): first the job the plan will run next as the plan
 * itself will choose it (tn_run_next), then, where every configuration of
 * a job will run, the rest of it. When the next step begins, the warm pool
 * is told to quit, and it is freed once its compiles in progress end,
 * while the step goes on: the step's compile of a source the warm pool is
 * building waits for that build and reads it from the cache
 * (tn_cache_compile), so nothing is built twice and the sweep itself never
 * waits (v47 joined the warm pool at the step's start: 13 s of a 228-s cold
 * plan, NOTES v48). A round is topped up as its builds are taken, a quarter
 * of it at a time, with more of its job, while the step still leaves
 * threads (or cores) idle: a round that ended with its slowest compile
 * left its other threads idle meanwhile (v80). A round holds one
 * configuration a source, of sources not warmed before (configurations
 * that differ in launch parameters alone, xyz's nw, share a build:
 * tn_job_ring), and a source built marks
 * all its configurations warmed; a round that found every build in the
 * cache (another job's, another night's) is followed by the next 3 s later
 * (v73; v70 waited only after 8 such rounds in a row, and its hits, an m4
 * run, a hash and a read each, likely slowed a warm plan 2-4%).
 * Nothing warmed is recorded or run: a wrong guess costs compiles, never a
 * result. Off where the compile cache is off, at a stop, or with
 * FDTUNE_WARM=0.
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

/* 1 when configuration i of j is warmed, or shares its source with one of
 * idx[0..m) (j->ring, where it is made). */
static int taken(const struct tn_job *j, long long i, const long long *idx, int m)
{
	long long s = i;
	if (j->warmed[i])
		return 1;
	do {                    /* i, then the rest of its ring */
		for (int k = 0; k < m; k++)
			if (idx[k] == s)
				return 1;
	} while (j->ring && (s = j->ring[s]) != i);
	return 0;
}

/* Fills idx[m..want) with configurations of job j for a warm round, one a
 * source, none warmed before nor of a source in idx[0..m) (those the warm
 * pool holds): its search's next proposals (peeked at), within its next
 * step's share where guess (the job the plan runs next) and j's target is
 * not its whole space, within all it has left where it is (every
 * configuration will run), and then any not yet proposed; nothing for a
 * job neither guessed nor swept whole. The new count; m where out of
 * memory. */
static int pick(struct tn_run *c, struct tn_job *j, int guess, long long *idx, int m,
		int want)
{
	const int whole = j->target >= j->nv;
	long long left = tn_job_left(j), cap, *peek;
	int np;

	if (!j->search || left <= 0 || (!guess && !whole) || m >= want)
		return m;
	cap = whole ? left :
	      c->first >= 0 && tn_job_pass(j) - j->proposed > 0 ? tn_job_pass(j) - j->proposed :
	      j->refines ? tn_order_chunk(j->target) : tn_order_first(j->target);
	if (c->o->max_configs > 0 && c->o->max_configs - c->issued < cap)
		cap = c->o->max_configs - c->issued;
	cap = cap < left ? cap : left;
	cap = cap < 1024 ? cap : 1024;          /* a peek's depth: its cost grows with it */
	if (cap <= 0 || (!j->warmed && !(j->warmed = calloc((size_t)j->nv, 1))) ||
	    !(peek = malloc((size_t)cap * sizeof *peek)))
		return m;
	(void)tn_job_ring(j);   /* without it (out of memory), twins may share a round */
	np = tn_search_peek(j->search, peek, (int)cap);
	for (int i = 0; i < np && m < want; i++)
		if (!taken(j, peek[i], idx, m))
			idx[m++] = peek[i];
	free(peek);
	for (long long i = 0, m0 = m; whole && m < want && m - m0 < cap && i < j->nv; i++)
		if (!tn_search_known(j->search, i) && !taken(j, i, idx, m))
			idx[m++] = i;
	return m;
}

/* The compile seconds job j has left, guessed: the configurations it has
 * neither proposed, run before nor warmed, at the mean build time of those
 * it has run (cache hits included; 1 s before any). */
static double compile_left(const struct tn_job *j)
{
	long long n = 0;
	for (long long i = 0; j->search && i < j->nv; i++)
		n += !(j->warmed && j->warmed[i]) && !tn_search_known(j->search, i);
	return (double)n * (j->done > 0 ? j->t_build / (double)j->done : 1.0);
}

/* Queues configurations idx[from..m) of the warm pool's job in the pool,
 * noting them held (c->warm_idx). */
static void queue(struct tn_run *c, const long long *idx, int from, int m)
{
	const struct tn_job *j = c->warm_job;
	for (int i = from; i < m && c->warm_nq < TN_MAXJOBS; i++) {
		struct tn_item *it = calloc(1, sizeof *it);
		if (!it)
			return;         /* only a head start lost */
		memcpy(it->v, j->cfgs + idx[i] * TN_MAXP, sizeof it->v);
		it->idx = idx[i];
		it->ms = -1;
		tn_pool_add(c->warm, it);
		c->warm_idx[c->warm_nq++] = idx[i];
		c->warm_n++;
	}
}

/* Tops the living warm pool up to want configurations held, once a
 * quarter of them is taken: more of its job, while it has more to give
 * (else the round ends as it is), the pool is not told to quit, and not
 * every build taken so far was a cache hit. */
static void top_up(struct tn_run *c, int want)
{
	long long idx[TN_MAXJOBS];
	struct tn_job *j = c->warm_job;
	int m0 = c->warm_nq, m;
	if (!j || c->warm_dry || c->warm_quit || 4 * (want - m0) < want ||
	    (c->warm_n > c->warm_nq && c->warmed == c->warm_round))
		return;
	memcpy(idx, c->warm_idx, (size_t)m0 * sizeof *idx);
	m = pick(c, j, tn_run_next(c) == (int)(j - c->jobs), idx, m0, want);
	if (m == m0)
		c->warm_dry = 1;
	queue(c, idx, m0, m);
}

int tn_warm_want(const struct tn_run *c, int unbuilt, int queued)
{
	const int jobs = c->o->jobs, idle = jobs - unbuilt;
	const int cores = (c->ncpu > 0 ? c->ncpu : tn_cpus()) - unbuilt - c->nwk;
	if (queued - unbuilt >= 2 * c->nwk + 4)         /* it waits for the GPUs */
		return 4 * idle >= jobs ? idle : jobs / 4 > 0 ? jobs / 4 : 1;
	if (4 * idle < jobs)
		return 0;
	if (!c->cproc)          /* compiles in threads wait on a lock, not the cores */
		return idle;
	return cores <= 0 ? 0 : idle < cores ? idle : cores;
}

void tn_warm(struct tn_run *c, int want)
{
	const char *cache = tn_cache_dir();
	long long idx[TN_MAXJOBS];
	struct tn_job *j = NULL;
	double *most = NULL;    /* each job's compile seconds left; -1 once looked at */
	char err[1024];
	int k, m = 0, cur;

	if (!cache || c->warm_off || tn_stopping(c) || tn_maxed(c))
		return;
	want = want < 1 ? 1 : want > TN_MAXJOBS ? TN_MAXJOBS : want;
	if (c->warm) {
		top_up(c, want);
		return;
	}
	if (tn_now_s() < c->warm_next)
		return;
	/* the guess first, then the others by the compile seconds they have
	 * left, most first, never the current one (its own pool builds for
	 * it) */
	k = tn_run_next(c);
	cur = c->cur ? (int)(c->cur - c->jobs) : -1;
	if (k >= 0 && k != cur)
		m = pick(c, j = &c->jobs[k], 1, idx, 0, want);
	if (!m && (most = malloc((size_t)c->njobs * sizeof *most))) {
		for (int i = 0; i < c->njobs; i++)
			most[i] = i == cur || i == k ? -1 : compile_left(&c->jobs[i]);
		for (;;) {
			int b = -1;
			for (int i = 0; i < c->njobs; i++)
				if (most[i] >= 0 && (b < 0 || most[i] > most[b]))
					b = i;
			if (b < 0 || (m = pick(c, j = &c->jobs[b], 0, idx, 0, want)))
				break;
			most[b] = -1;
		}
	}
	free(most);
	if (!m) {
		c->warm_next = tn_now_s() + 0.5;
		return;
	}
	/* a thread for each of the step pool's (top-ups may hold more than
	 * this round), at its priority (c->nice): once the next step begins,
	 * its compiles of these sources wait for them, and a build of lower
	 * priority would hold them back (v47) */
	if (tn_pool_new(&c->warm, j->pb, c->arch, c->cid, cache,
			c->o->jobs > m ? c->o->jobs : m, c->nice, err, sizeof err)) {
		c->warm_next = tn_now_s() + 0.5;
		return;                 /* only a cost: the step compiles them itself */
	}
	c->warm_job = j;
	c->warm_n = c->warm_nq = 0;
	c->warm_dry = c->warm_quit = 0;
	c->warm_round = c->warmed;
	queue(c, idx, 0, m);
}

/* Discards what the warm pool has built, marking it and the other
 * configurations of its source warmed, and counting what it compiled. */
static void discard(struct tn_run *c)
{
	struct tn_job *j = c->warm_job;
	struct tn_item *it;
	while (c->warm && (it = tn_pool_take(c->warm))) {
		/* compiled here, not found in the cache nor shared with a twin */
		c->warmed += !it->cached && !it->shared && !it->bad_gen && !it->bad_compile;
		if (j && j->warmed) {
			long long s = it->idx;
			do
				j->warmed[s] = 1;
			while (j->ring && (s = j->ring[s]) != it->idx);
		}
		c->warm_s += it->shared ? 0 : it->build_s;  /* (a twin shared the build) */
		for (int k = 0; k < c->warm_nq; k++)
			if (c->warm_idx[k] == it->idx) {
				c->warm_idx[k] = c->warm_idx[--c->warm_nq];
				break;
			}
		tn_item_clear(it);
		free(it);
	}
}

void tn_warm_drain(struct tn_run *c)
{
	discard(c);
	if (c->warm && c->warm_nq == 0) {
		/* the round is built: its threads wait for nothing more. After a
		 * round of cache hits alone the next waits 3 s (the head of this
		 * file says why) */
		if (c->warmed == c->warm_round)
			c->warm_next = tn_now_s() + 3.0;
		tn_warm_free(c);
	} else if (c->warm && tn_pool_ended(c->warm)) {
		tn_warm_free(c);        /* told to quit: waits for nothing, its threads are gone */
	}
}

void tn_warm_quit(struct tn_run *c)
{
	c->warm_quit = c->warm != NULL;
	tn_pool_quit(c->warm);
}

void tn_warm_free(struct tn_run *c)
{
	tn_pool_stop(c->warm);  /* after the compiles in progress, */
	discard(c);             /* which are counted too */
	tn_pool_free(c->warm);
	c->warm = NULL;
	c->warm_job = NULL;
	c->warm_nq = c->warm_dry = c->warm_quit = 0;
}
