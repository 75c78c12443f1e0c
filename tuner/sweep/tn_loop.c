/*
 * tn_loop.c: one step of a sweep: the current job's search proposes
 * configurations, a pool of threads compiles them (tn_pool.c) while the
 * workers, one per GPU, measure those already compiled (tn_worker.c). The
 * loop keeps the compilers fed, hands built items to the workers (a run in
 * progress each, and one queued behind it, so that a GPU goes on while the
 * loop records), records what comes back, and ends when the step's share
 * is run, the search is
 * over, or a stop (signal, budget) has let the runs in progress finish;
 * builds that end after a stop signal are left unrecorded.
 * Every item proposed in a step is finished in it, so the next step may
 * belong to another problem.
 */
#define _GNU_SOURCE
#include "fdt_rc.h"
#include "tn_run.h"
#include "rt.h"
#include "tn_cache.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Queues up to want configurations of the job's search in the pool, within
 * the step's share (*left; negative: none) and --max-configs; returns how
 * many, -1 when out of memory. */
static int propose(struct tn_run *c, struct tn_pool *pool, int want, long long *left)
{
	struct tn_job *j = c->cur;
	long long idx[256], cap = c->o->max_configs > 0 ? c->o->max_configs - c->issued : 256;
	int m;
	if (*left >= 0 && *left < want)
		want = (int)*left;
	if (cap < want)
		want = (int)cap;
	if (want <= 0)
		return 0;
	m = c->ready ? tn_yield_take(c, j, idx, want < 256 ? want : 256) :
	    tn_search_next(j->search, idx, want < 256 ? want : 256);
	for (int i = 0; i < m; i++) {
		struct tn_item *it = calloc(1, sizeof *it);
		if (!it)
			return -1;
		memcpy(it->v, j->cfgs + idx[i] * TN_MAXP, sizeof it->v);
		it->idx = idx[i];
		it->ms = -1;
		tn_pool_add(pool, it);
	}
	j->proposed += m;
	c->issued += m;
	if (*left >= 0)
		*left -= m;
	return m;
}

/* Builds running this long are compiles, not cache hits (a few ms). */
#define TN_SLOW_S 0.02

/* Why: counted in items, a source's twins (xyz's five nw, proposed
 * together as neighbours) held the compiles under way near (2 a GPU + 4) /
 * 5 while GPUs waited (NOTES v64); before a tenth, the order of the runs is
 * what the anytime order is made of, and proposals ahead of outcomes cost
 * it (replay, in flight 12 against 40: 99.92% against 98.97%). */
int tn_step_by_source(const struct tn_run *c)
{
	const struct tn_job *j = c->cur;
	return tn_step_whole(c) && 10 * (j->nprior + j->proposed) >= j->target;
}

/* Proposes what the pool has room for, up to cap items in it (propose), or
 * cap builds (tn_step_by_source). Returns how many, -1 when out of memory;
 * *inflight counts them. */
static int top_up(struct tn_run *c, struct tn_pool *pool, int cap, long long *left,
		long long *inflight)
{
	int in = tn_step_by_source(c) ? tn_pool_sources(pool) : tn_pool_queued(pool);
	int m = propose(c, pool, cap - in, left);
	if (m > 0)
		*inflight += m;
	return m;
}

/* Sends it to worker w: as its run in progress where it has none (the
 * worker started first if it is not running, and replaced once if found
 * gone), else queued behind that run (tn_wk_queue), its code kept until it
 * starts. 1 with err set where no worker took it; the caller frees it. */
static int give(struct tn_run *c, int w, struct tn_item *it, char *err, size_t n)
{
	struct tn_wk *k = &c->wk[w];
	unsigned grid[3], block[3];
	struct tn_wk_time tm = { 0 };

	c->cur->pb->fam->geom(c->cur->pb, it->v, grid, block);
	tm.race_ms = c->o->no_race ? 0 : c->cur->best_ms;
	tm.best_ms = c->cur->best_ms;
	tm.places = c->o->places > 0 ? c->o->places : TN_PLACES;
	tm.energy_s = c->o->energy_s;
	if (k->job) {
		int q = tn_wk_queue(k, &it->prog, it->v, grid, block, &tm);
		k->next = it;
		k->next_sent = !q;
		if (q == 2)
			fprintf(stderr, "\nfdtune: GPU %d: a run could not be queued (%s); it is "
				"sent again when the run in progress ends\n", k->device,
				strerror(errno));
		return FDT_OK;
	}
	for (int t = 0; tn_run_worker_up(c, w, err, n) ||
	     tn_wk_submit(k, &it->prog, it->v, grid, block, &tm, err, n); t++) {
		tn_wk_kill(k);
		if (t)
			return FDT_FAIL;
		fprintf(stderr, "fdtune: %s; starting a new worker\n", err);
	}
	/* the code is in the worker: keep only what is recorded (the source
	 * too: a contender's is kept with its run, tn_record.c) */
	rt_prog_free(&it->prog);
	k->job = it;
	k->t_job = tn_now_s();
	if (k->step_first < 0)
		k->step_first = k->t_job;
	k->deadline = k->t_job + tn_limit_s(c);
	return FDT_OK;
}

/* Hands built items to workers, up to depth each (a run in progress and
 * depth - 1 queued: the worker goes on to the next run while the sweep
 * records the last), or, compile-only, records them. Where the pool has
 * nothing built for an idle worker while it compiles (a build under way for
 * TN_SLOW_S or more: not a cache hit), a configuration of a source built
 * already (tn_fill_take); a queue's place waits for the pool's builds. */
static int feed(struct tn_run *c, struct tn_pool *pool, long long *inflight, char *err, size_t n)
{
	struct tn_item *it = NULL;
	const int depth = c->o->queue > 0 ? c->o->queue : TN_QUEUE;
	if (!c->gpu) {
		while (!tn_stop_signal && (it = tn_pool_take(pool))) {
			int g, bad;
			(*inflight)--;
			bad = tn_start_item(c, it, &g, err, n);
			tn_item_clear(it);
			free(it);
			if (bad)
				return FDT_FAIL;
		}
		return FDT_OK;
	}
	/* idle workers first, then queues; within each, the scan starts one
	 * past the last GPU served, so that GPUs take turns when compiling is
	 * the bottleneck */
	for (int pass = 0; pass < 2; pass++)
		for (int u = 0; u < c->nwk; u++) {
			int w = (c->turn + 1 + u) % c->nwk, g = 0;
			struct tn_wk *k = &c->wk[w];
			if (pass ? !k->job || k->next || depth < 2 : k->job != NULL)
				continue;
			while (!tn_stop_signal && !g && (it = tn_pool_take(pool))) {
				if (tn_start_item(c, it, &g, err, n))
					goto bad;
				if (!g) {
					(*inflight)--;
					tn_item_clear(it);
					free(it);
				}
			}
			if (g) {
				if (tn_fill_on(c) && tn_pool_busy(pool, TN_SLOW_S, NULL) > 0)
					tn_fill_keep(c, it);
			} else if (!pass && c->nkept && !tn_stop_signal &&
				   tn_pool_busy(pool, TN_SLOW_S, NULL) > 0 && (it = tn_fill_take(c))) {
				(*inflight)++;
				if (tn_start_item(c, it, &g, err, n))
					goto bad;
				if (!g) {       /* (a copy out of memory: recorded) */
					(*inflight)--;
					tn_item_clear(it);
					free(it);
					return FDT_OK;
				}
			}
			if (!g)
				return FDT_OK;  /* nothing built is left */
			if (give(c, w, it, err, n))
				goto bad;
			c->turn = w;
		}
	return FDT_OK;
bad:
	tn_item_clear(it);
	free(it);
	return FDT_FAIL;
}

/* After worker w's run in progress is recorded (answered, died or killed):
 * the run queued behind it becomes the one in progress where the worker
 * took it; else it is given again (to a new worker where this one is
 * gone), or, in a stop, left unrecorded for the resumed sweep. */
static int advance(struct tn_run *c, int w, long long *inflight, char *err, size_t n)
{
	struct tn_wk *k = &c->wk[w];
	struct tn_item *it = k->next;
	if (!it)
		return FDT_OK;
	k->next = NULL;
	if (k->pid > 0 && k->next_sent) {
		rt_prog_free(&it->prog);
		k->job = it;
		k->t_job = k->t_answer; /* the worker began it when it answered */
		k->deadline = k->t_job + tn_limit_s(c);
		return FDT_OK;
	}
	if (!tn_stopping(c) && !give(c, w, it, err, n))
		return FDT_OK;
	(*inflight)--;
	tn_search_report(c->cur->search, it->idx, -1);
	tn_item_clear(it);
	free(it);
	return tn_stopping(c) ? FDT_OK : FDT_FAIL;
}

/* At the end of a step begun at t0, whose workers had switched sw seconds
 * after it: adds to each worker's edge_s the time it held no job before
 * its first of the step ([0]) and after its last ([1]; all of the step
 * into [0] where it had none), so that the summary can tell the idle of
 * the steps' starts (switches) and ends (drains) from that between runs;
 * and, for a step that gave a run, sw and the time to the earliest first
 * run into the sweep's step-start figures. */
static void edges(struct tn_run *c, double t0, double sw)
{
	double te = tn_now_s(), t1 = -1;
	for (int w = 0; w < c->nwk; w++) {
		struct tn_wk *k = &c->wk[w];
		if (k->step_first < 0) {
			k->edge_s[0] += te - t0;
			continue;
		}
		k->edge_s[0] += k->step_first - t0;
		if (!k->job)
			k->edge_s[1] += te - (k->t_answer > k->step_first ? k->t_answer :
					      k->step_first);
		if (t1 < 0 || k->step_first < t1)
			t1 = k->step_first;
	}
	if (t1 >= 0) {
		c->nsteps++;
		c->sw_s += sw;
		c->first_s += t1 - t0;
	}
}

/* Adds the compiles under way since the last look (*nb of them at *tb) to
 * c->comp_s and looks again: the step's pool's compiles of TN_SLOW_S or
 * more, on a GPU (compile-only, 0), and where pend is not NULL the items
 * it has not built (tn_pool_busy). */
static void look(struct tn_run *c, struct tn_pool *pool, double *tb, int *nb, int *pend)
{
	double now = tn_now_s();
	c->comp_s += *nb * (now - *tb);
	*tb = now;
	*nb = c->gpu ? tn_pool_busy(pool, TN_SLOW_S, pend) : 0;
}

int tn_step(struct tn_run *c, long long chunk, char *err, size_t n)
{
	const struct tn_sweep_opts *o = c->o;
	struct tn_pool *pool = NULL;
	long long inflight = 0, left = chunk > 0 ? chunk : -1;
	const int depth = o->queue > 0 ? o->queue : TN_QUEUE;
	int over = 0, rc = 1, want_max = 2 * o->jobs + 2 * c->nwk + 4, opened = 0;
	double sw = 0;          /* when the workers had switched, from t0 */
	double t0 = tn_now_s(), tb = t0;
	const char *cache = tn_cache_dir();
	int nb = 0;             /* compiles under way (of TN_SLOW_S or more) at tb */

	if (tn_pool_new(&pool, c->cur->pb, c->arch, c->cid, cache, o->jobs, c->nice, err, n)) {
		char e2[1024];
		(void)tn_run_opened(c, e2, sizeof e2);
		return FDT_FAIL;
	}
	for (int w = 0; w < c->nwk; w++)
		c->wk[w].step_first = -1;
	for (;;) {
		int stopping = tn_stopping(c);
		int busy = 0, room = 0, nfd = 0, wait_ms = 1000;
		struct pollfd pf[TN_MAXDEV + 1];
		int who[TN_MAXDEV + 1];

		int pend = 0;
		look(c, pool, &tb, &nb, &pend);
		if (!stopping && !over) {
			/* on a GPU, as many as the compiles under way need
			 * (tn_order_ahead): each is proposed before the outcomes
			 * of those ahead of it are known */
			int cap = c->gpu ? tn_order_ahead(c->nwk, o->jobs, nb) : want_max;
			int m = top_up(c, pool, cap, &left, &inflight);
			if (m < 0) {
				snprintf(err, n, "out of memory");
				goto out;
			}
			if (m == 0 && inflight == 0)
				over = 1;
			/* soon again while builds are pending: those that turn
			 * out to be compiles raise the cap */
			if (cap < want_max && (pend > 0 || m > 0))
				wait_ms = 2 * (int)(TN_SLOW_S * 1000);
		}
		tn_warm_drain(c);       /* (it frees a round built, or a pool that quit) */
		/* the cache warms for later steps (tn_warm_want says on how
		 * many at once) once the warm pool of the round before has
		 * ended and the step's first builds are under way (its pool
		 * refilled for a cold cache, below); a living round is topped
		 * up as it builds, to the same count */
		if (opened && !stopping && left >= 0) {
			int unbuilt = 0, w;
			(void)tn_pool_busy(pool, 0, &unbuilt);
			if ((w = tn_warm_want(c, unbuilt, tn_pool_queued(pool))) > 0)
				tn_warm(c, w);
		}
		/* the workers' switch to this problem (tn_run_open) ran while the
		 * pool took its first configurations; it ends before any run */
		if (!opened) {
			opened = 1;
			/* the switch may take a while: where half or more of the
			 * step's first builds are still running after TN_SLOW_S
			 * they compile (a cold cache), and the pool fills as it
			 * did before the cap, so that every thread compiles
			 * meanwhile; from a warm cache they end within a few ms */
			if (c->gpu && !stopping && !over) {
				int slow;
				for (int g = 0; slow = tn_pool_busy(pool, TN_SLOW_S, &pend),
				     g < 6 && pend > 0 && !slow; g++)
					(void)poll(NULL, 0, 5);
				if (2 * slow >= inflight && inflight > 0 &&
				    top_up(c, pool, want_max, &left, &inflight) < 0) {
					snprintf(err, n, "out of memory");
					goto out;
				}
			}
			look(c, pool, &tb, &nb, NULL);        /* the switch may take seconds */
			if (tn_run_opened(c, err, n))
				goto out;
			sw = tn_now_s() - t0;
			look(c, pool, &tb, &nb, NULL);
		}
		if (!stopping && feed(c, pool, &inflight, err, n))
			goto out;
		/* bound by its compiles while another job's code is built: the
		 * step proposes no more and ends with what is in flight */
		if (!stopping && !over && left > 0 && nb > 0 && tn_yield_check(c, t0, tn_now_s()))
			left = 0;
		for (int w = 0; w < c->nwk; w++) {
			busy += c->wk[w].job != NULL;
			room += !c->wk[w].job || (!c->wk[w].next && depth > 1);
		}
		if ((stopping && !busy) || (over && inflight == 0))
			break;
		if (!stopping && !over && inflight == 0)
			continue;       /* all done: the search proposes more or is over */
		/* the pool's pipe only matters while a worker could take a build:
		 * otherwise it stays readable and the wait would spin */
		if (!stopping && (!c->gpu || room)) {
			pf[nfd] = (struct pollfd){ tn_pool_fd(pool), POLLIN, 0 };
			who[nfd++] = -1;
		}
		for (int w = 0; w < c->nwk; w++)
			if (c->wk[w].job) {
				double t = c->wk[w].deadline - tn_now_s();
				int ms = t <= 0 ? 0 : (int)(t * 1000) + 1;
				pf[nfd] = (struct pollfd){ c->wk[w].from, POLLIN, 0 };
				who[nfd++] = w;
				wait_ms = ms < wait_ms ? ms : wait_ms;
			}
		if (poll(pf, (nfds_t)nfd, wait_ms) < 0 && errno != EINTR) {
			snprintf(err, n, "poll: %s", strerror(errno));
			goto out;
		}
		for (int i = 0; i < nfd; i++) {
			int w = who[i];
			if (w < 0)
				continue;
			if (pf[i].revents) {
				inflight--;
				if (tn_finish(c, w, err, n) || advance(c, w, &inflight, err, n))
					goto out;
			} else if (tn_now_s() > c->wk[w].deadline) {
				inflight--;
				if (tn_overrun(c, w, err, n) || advance(c, w, &inflight, err, n))
					goto out;
			}
		}
	}
	rc = 0;
out:
	look(c, pool, &tb, &nb, NULL);
	tn_pool_free(pool);
	tn_fill_end(c);
	edges(c, t0, sw);
	c->cur->t_wall += tn_now_s() - t0;
	return rc;
}
