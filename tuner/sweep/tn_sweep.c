/*
 * tn_sweep.c: the sweep loop. It knows families only through their
 * descriptors (tn.h). A pool of threads compiles configurations (tn_pool.c)
 * while worker processes, one per GPU, measure those already compiled
 * (tn_worker.c); this loop feeds both, waits on both, and writes each build
 * and each run to the database as soon as it exists, so an interrupted
 * sweep loses nothing it finished. A worker that dies or overruns its time
 * is recorded against its configuration and replaced, unless a stop signal
 * killed it: that outcome is unknown and left for the resumed sweep.
 * Without a GPU the sweep is compile-only: it records every build with its
 * registers, LDS and spills.
 */
#define _GNU_SOURCE
#include "tn_sweep.h"
#include "db.h"
#include "rt.h"
#include "tn_cache.h"
#include "tn_pool.h"
#include "tn_progress.h"
#include "tn_search.h"
#include "tn_transfer.h"
#include "tn_worker.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct ctx {
	const struct tn_sweep_opts *o;
	struct db *db;
	long long prob_id, sweep_id, dev_id[TN_MAXDEV];
	struct tn_wk wk[TN_MAXDEV];
	double copy[TN_MAXDEV];
	int nwk, gpu, turn;     /* turn: the worker served last */
	char compiler[64];
	const char *arch;
	long long count[8];     /* outcomes, by index of outcome[] */
	int rmin, rmax, lmax, nspill;   /* resources of the builds, compile-only */
	long long cached, restarts, done;
	long long others;       /* recorded meanwhile by another sweep: not twice */
	long long nprior, *prior_idx;   /* recorded outcomes a search starts from */
	double *prior_ms;
	double best_ms;         /* best median of this sweep: the base of timeouts */
	double t_build, t_check, t_time;        /* summed over configurations */
	struct tn_search *search;
	enum tn_strategy strategy;      /* what runs: -s, or the default chosen */
	const int *cfgs;        /* the configurations to run, TN_MAXP ints each */
	struct tn_progress pr;
};

static const char *const outcome[] = { "ok", "compile_error", "load_error",
	"launch_error", "wrong_result", "resource_limit", "timeout", "built" };

static volatile sig_atomic_t stop_signal;

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}
static void on_signal(int s) { stop_signal = s; }
/* The signals that stop a sweep (and, sent to its process group, its workers). */
static int stop_sig(int s) { return s == SIGINT || s == SIGTERM || s == SIGHUP; }

static void tally(struct ctx *c, const char *s)
{
	for (int i = 0; i < 8; i++)
		if (!strcmp(outcome[i], s))
			c->count[i]++;
}

/* The time a run may take before its worker is killed: the --timeout
 * floor plus 2000 launches of the best kernel so far (6x the floor before
 * any kernel is timed). */
static double limit_s(const struct ctx *c)
{
	return c->best_ms > 0 ? c->o->timeout_s + 2.0 * c->best_ms : 6 * c->o->timeout_s;
}

static void empty_result(struct tn_result *r, const char *status)
{
	memset(r, 0, sizeof *r);
	r->status = status;
	r->median = r->min = r->max = r->gbs = r->mcells = r->pct = NAN;
	r->max_err = r->bound = NAN;
	r->reps = -1;
}

/* Records the build of it (its configuration first). */
static int record_build(struct ctx *c, struct tn_item *it, char *err, size_t n)
{
	const struct tn_family *f = c->o->pb->fam;
	char json[512];
	struct db_build b;

	tn_config_json(f, it->v, json, sizeof json);
	c->cached += it->cached;
	c->t_build += it->build_s;
	if (db_config_id(c->db, f->name, json, &it->cfg_id, err, n))
		return 1;
	memset(&b, 0, sizeof b);
	b.config_id = it->cfg_id;
	b.sweep_id = c->sweep_id;
	b.compiler = c->compiler;
	b.compiler_version = c->compiler;
	b.arch = c->arch;
	b.options = it->prog.options;
	b.source_hash = it->bad_gen ? "" : it->hash;
	b.compile_ms = it->prog.ms;
	b.regs = it->prog.regs;
	b.lds_bytes = it->prog.lds;
	b.spill_bytes = it->prog.spill;
	b.status = it->bad_gen ? "gen_error" : it->bad_compile ? "compile_error" : "ok";
	b.log = it->bad_gen || it->bad_compile ? it->err : it->prog.log;
	if (it->bad_compile && it->prog.log && *it->prog.log)
		b.log = it->prog.log;
	/* compile-only, a build another sweep of this problem recorded meanwhile
	 * is not recorded again (build_id 0) */
	if (!c->gpu && !c->o->force)
		return db_build_add_once(c->db, &b, c->prob_id, &it->build_id, err, n) != 0;
	return db_build_add(c->db, &b, &it->build_id, err, n) != 0;
}

/* Records the run of it on worker w's GPU and reports it to the search. */
static int record_run(struct ctx *c, struct tn_item *it, int w, const struct tn_result *res,
		      char *err, size_t n)
{
	struct db_run r;
	long long id;
	memset(&r, 0, sizeof r);
	r.sweep_id = c->sweep_id;
	r.build_id = it->build_id;
	r.device_id = c->dev_id[w];
	r.problem_id = c->prob_id;
	r.config_id = it->cfg_id;
	r.status = res->status;
	r.message = res->msg;
	r.median_ms = res->median;
	r.min_ms = res->min;
	r.max_ms = res->max;
	r.reps = res->reps;
	r.gbs = res->gbs;
	r.mcells = res->mcells;
	r.pct_copy = res->pct;
	r.max_err = res->max_err;
	r.err_bound = res->bound;
	it->ms = strcmp(res->status, "ok") ? -1 : res->median;
	if (it->ms > 0 && (c->best_ms <= 0 || it->ms < c->best_ms))
		c->best_ms = it->ms;
	tn_search_report(c->search, it->idx, it->ms);
	c->done++;
	id = 1;
	if (c->o->force ? db_run_add(c->db, &r, NULL, err, n) : db_run_add_once(c->db, &r, &id, err, n))
		return 1;
	if (id)
		tally(c, res->status);
	else
		c->others++;
	tn_progress_step(&c->pr, res->gbs, res->pct);
	return 0;
}

/* Records a built item; *gpu is set when it still has to be measured. */
static int start_item(struct ctx *c, struct tn_item *it, int *gpu, char *err, size_t n)
{
	int bad = it->bad_gen || it->bad_compile;
	*gpu = 0;
	if (record_build(c, it, err, n))
		return 1;
	if (!c->gpu && !it->build_id) {
		c->others++;
		c->done++;
		tn_search_report(c->search, it->idx, -1);
		tn_progress_step(&c->pr, NAN, NAN);
		return 0;
	}
	if (!c->gpu) {
		tally(c, bad ? "compile_error" : "built");
		if (!bad) {
			c->rmin = c->rmin && c->rmin < it->prog.regs ? c->rmin : it->prog.regs;
			c->rmax = c->rmax > it->prog.regs ? c->rmax : it->prog.regs;
			c->lmax = c->lmax > it->prog.lds ? c->lmax : it->prog.lds;
			c->nspill += it->prog.spill > 0;
		}
		c->done++;
		tn_search_report(c->search, it->idx, -1);
		tn_progress_step(&c->pr, NAN, NAN);
		return 0;
	}
	if (bad) {
		struct tn_result res;
		empty_result(&res, "compile_error");
		snprintf(res.msg, sizeof res.msg, "%.500s", it->err);
		return record_run(c, it, 0, &res, err, n);
	}
	*gpu = 1;
	return 0;
}

/* Starts worker w and opens the problem's bench in it, if not running. */
static int worker_up(struct ctx *c, int w, char *err, size_t n)
{
	struct tn_wk *k = &c->wk[w];
	if (k->pid > 0)
		return 0;
	if (k->starts)
		c->restarts++;
	return tn_wk_spawn(k, err, n) || tn_wk_open(k, c->o->pb, c->copy[w], err, n);
}

/* Reads worker w's answer and records it; a worker that died is recorded
 * against its configuration (unless a stop signal killed it: then nothing
 * is recorded) and left to be started again. */
static int finish(struct ctx *c, int w, char *err, size_t n)
{
	struct tn_wk *k = &c->wk[w];
	struct tn_item *it = k->job;
	struct tn_wk_done d;
	int rc, dead = tn_wk_read(k, &d);
	if (dead && (stop_signal || stop_sig(k->sig))) {
		/* stopped by the user's signal (to the sweep or its process group),
		 * not by its kernel: the outcome is unknown, so nothing is recorded
		 * and a resumed sweep measures it */
		fprintf(stderr, "\nfdtune: GPU %d: %s while measuring a configuration; not "
			"recorded, the same command measures it\n", k->device, k->why);
		tn_search_report(c->search, it->idx, -1);
		k->job = NULL;
		tn_item_clear(it);
		free(it);
		return 0;
	}
	if (dead) {
		empty_result(&d.res, "launch_error");
		snprintf(d.res.msg, sizeof d.res.msg, "%s while measuring this configuration",
			 k->why);
	} else {
		c->t_check += d.check_s;
		c->t_time += d.time_s;
		if (d.fatal)            /* it exits: its GPU context is lost */
			tn_wk_kill(k);
	}
	k->job = NULL;
	rc = record_run(c, it, w, &d.res, err, n);
	tn_item_clear(it);
	free(it);
	return rc;
}

static int overrun(struct ctx *c, int w, char *err, size_t n)
{
	struct tn_wk *k = &c->wk[w];
	struct tn_item *it = k->job;
	struct tn_result res;
	int rc;
	tn_wk_kill(k);
	empty_result(&res, "timeout");
	snprintf(res.msg, sizeof res.msg, "killed after %.1f s, over the limit of --timeout %.0f s "
		 "+ 2000 x the best median so far (%.3f ms)", limit_s(c), c->o->timeout_s,
		 c->best_ms > 0 ? c->best_ms : 0.0);
	rc = record_run(c, it, w, &res, err, n);
	tn_item_clear(it);
	free(it);
	return rc;
}

/* Drops from cfgs[0..*nv) the configurations already recorded, keeping the
 * order of the rest: with a GPU, those with a run on one of the sweep's
 * GPUs for this problem; compile-only, those with a build for this arch
 * and compiler. */
static int skip_recorded(struct ctx *c, int *cfgs, long long *nv, long long *skipped,
			 char *err, size_t n)
{
	const struct tn_family *f = c->o->pb->fam;
	long long keep = 0;
	/* a random or guided search keeps what is recorded, as known outcomes */
	int prior = c->gpu && c->strategy != TN_EXHAUSTIVE;
	for (long long i = 0; i < *nv; i++) {
		char json[512];
		long long id;
		int yes = 0;
		double ms = -1;
		tn_config_json(f, cfgs + i * TN_MAXP, json, sizeof json);
		if (db_config_id(c->db, f->name, json, &id, err, n))
			return 1;
		for (int w = 0; w < (c->gpu ? c->nwk : 1) && !yes; w++)
			if (c->gpu ? db_run_recorded(c->db, c->dev_id[w], c->prob_id, id, &yes, &ms,
						     err, n) :
			    db_build_recorded(c->db, id, c->prob_id, c->arch, c->compiler, &yes,
						       err, n))
				return 1;
		if (yes && prior) {
			double *p = realloc(c->prior_ms, (size_t)(c->nprior + 1) * sizeof *p);
			long long *q = realloc(c->prior_idx, (size_t)(c->nprior + 1) * sizeof *q);
			if (p)
				c->prior_ms = p;
			if (q)
				c->prior_idx = q;
			if (!p || !q) {
				snprintf(err, n, "out of memory");
				return 1;
			}
			c->prior_ms[c->nprior] = ms;
			c->prior_idx[c->nprior++] = keep;       /* its index once kept */
		} else if (yes) {
			continue;
		}
		memmove(cfgs + keep * TN_MAXP, cfgs + i * TN_MAXP, TN_MAXP * sizeof *cfgs);
		keep++;
	}
	*skipped = *nv - keep;
	*nv = keep;
	return 0;
}

/* Chooses the strategy: -s, else transfer where the database holds ok runs
 * of the problem's relatives (the same family and precision at other sizes
 * or radii, on this GPU, or compile-only on a GPU of this arch), else
 * exhaustive; loads the seeds of a transfer search into *sd and sets its
 * default budget. A compile-only sweep compiles every configuration, and
 * says what a GPU sweep would choose. */
static int strategy(struct ctx *c, struct tn_seeds *sd, int *evals, char *err, size_t n)
{
	const struct tn_sweep_opts *o = c->o;
	const struct tn_problem *pb = o->pb;
	struct db_related q = { c->gpu ? c->dev_id[0] : 0, c->prob_id, 0, c->arch, 0, 0, 0 };

	c->strategy = o->strategy_set ? o->strategy : TN_EXHAUSTIVE;
	if (o->strategy_set && o->strategy != TN_TRANSFER)
		return 0;
	if (tn_transfer_seeds(c->db, &q, pb, sd, err, n))
		return 1;
	if (!o->evals_set)
		*evals = TN_TRANSFER_EVALS;
	if (!o->strategy_set && sd->nprob > 0) {
		c->strategy = TN_TRANSFER;
		if (c->gpu)
			fprintf(stderr, "fdtune: %s holds %s %s results at %d other sizes or radii "
				"on this GPU: a transfer search (-s transfer) starts from their bests "
				"and runs %d%% of the space (--evals); -s exhaustive runs every "
				"configuration\n", o->db_path, pb->fam->name, pb->prec, sd->nprob,
				*evals);
		else
			fprintf(stderr, "fdtune: %s holds %s %s results at %d other sizes or radii "
				"on %s: a GPU sweep would run a transfer search (-s transfer) from "
				"their bests; a compile-only sweep compiles every configuration\n",
				o->db_path, pb->fam->name, pb->prec, sd->nprob, c->arch);
	} else if (o->strategy_set && c->gpu && !sd->nprob) {
		fprintf(stderr, "fdtune: %s holds no %s %s results at other sizes or radii on this "
			"GPU: the transfer search starts at random\n", o->db_path, pb->fam->name,
			pb->prec);
	}
	return 0;
}

/* Decides GPU or compile-only, and starts one worker per GPU asked for:
 * they must be of one model, as their runs share the space. */
static int setup(struct ctx *c, char *err, size_t n)
{
	const struct tn_sweep_opts *o = c->o;
	int ndev = 0;
	char why[256] = "";

	rt_compiler(c->compiler, sizeof c->compiler);
	if (rt_init(&ndev, why, sizeof why))
		ndev = 0;
	if (o->compile_only || ndev == 0) {
		c->arch = o->arch ? o->arch : rt_default_arch();
		if (!o->compile_only)
			fprintf(stderr, "fdtune: no %s GPU here%s%s; running a compile-only sweep "
				"for %s: every build and its resources are recorded, nothing "
				"is timed\n", rt_platform(), *why ? ": " : "", why, c->arch);
		return 0;
	}
	c->nwk = o->ndev > 0 ? o->ndev : 1;
	for (int w = 0; w < c->nwk; w++) {
		struct tn_wk *k = &c->wk[w];
		k->device = o->ndev > 0 ? o->devices[w] : 0;
		k->exe = o->exe;
		k->to = k->from = -1;
		if (k->device >= ndev) {
			snprintf(err, n, "GPU %d: only %d GPU(s) present (0..%d)", k->device, ndev,
				 ndev - 1);
			return 1;
		}
		for (int v = 0; v < w; v++)
			if (c->wk[v].device == k->device) {
				snprintf(err, n, "--devices names GPU %d twice", k->device);
				return 1;
			}
		if (tn_wk_spawn(k, err, n))
			return 1;
		if (w && strcmp(k->dev.name, c->wk[0].dev.name)) {
			snprintf(err, n, "GPUs %d and %d differ (%s, %s): the GPUs of one sweep share "
				 "out its space, so they must be of one model; run one sweep per model",
				 c->wk[0].device, k->device, c->wk[0].dev.name, k->dev.name);
			return 1;
		}
	}
	c->gpu = 1;
	c->arch = c->wk[0].dev.arch;
	return 0;
}

/* Records the GPUs and their copy bandwidth, measured where missing. */
static int devices(struct ctx *c, char *err, size_t n)
{
	for (int w = 0; w < c->nwk; w++) {
		const struct rt_dev *d = &c->wk[w].dev;
		struct db_device dd = { d->vendor, d->name, d->arch, d->uuid, d->sms, d->mem, d->l2,
			d->lds_block, d->max_threads };
		double mgbs;
		long long bytes;
		if (db_device_id(c->db, &dd, &c->dev_id[w], err, n) ||
		    db_device_copy(c->db, c->dev_id[w], &c->copy[w], err, n))
			return 1;
		if (c->copy[w] <= 0) {
			fprintf(stderr, "fdtune: measuring the copy bandwidth of GPU %d, %s ...\n",
				c->wk[w].device, d->name);
			if (tn_wk_calibrate(&c->wk[w], &c->copy[w], &mgbs, &bytes, err, n) ||
			    db_device_set_copy(c->db, c->dev_id[w], c->copy[w], mgbs, bytes, err, n))
				return 1;
		}
		fprintf(stderr, "fdtune: GPU %d: %s (%s), copy bandwidth %.0f GB/s\n",
			c->wk[w].device, d->name, d->arch, c->copy[w]);
	}
	return 0;
}

/* The loop: keeps the compilers fed, hands built items to idle workers,
 * records what comes back, and ends when the search is over or a stop
 * (signal, budget) has let the runs in progress finish. */
static int loop(struct ctx *c, char *err, size_t n)
{
	const struct tn_sweep_opts *o = c->o;
	struct tn_pool *pool = NULL;
	static char id[700];            /* what decides the code, besides the source */
	char opts[512];
	long long inflight = 0;
	int over = 0, rc = 1, want_max = 2 * o->jobs + c->nwk + 4;
	double t0 = now_s();
	const char *cache = tn_cache_dir();

	rt_compile_options(c->arch, opts, sizeof opts);
	snprintf(id, sizeof id, "%s %s", c->compiler, opts);
	if (tn_pool_new(&pool, o->pb, c->arch, id, cache, o->jobs, err, n))
		return 1;
	for (;;) {
		int stopping = stop_signal || (o->budget_s > 0 && now_s() - t0 > o->budget_s);
		int busy = 0, nfd = 0, wait_ms = 1000;
		struct pollfd pf[TN_MAXDEV + 1];
		int who[TN_MAXDEV + 1];
		struct tn_item *it;

		if (!stopping && !over) {
			int want = want_max - tn_pool_queued(pool);
			long long idx[256];
			int m = want > 0 ? tn_search_next(c->search, idx, want < 256 ? want : 256) : -1;
			for (int i = 0; i < m; i++) {
				if (!(it = calloc(1, sizeof *it))) {
					snprintf(err, n, "out of memory");
					goto out;
				}
				memcpy(it->v, c->cfgs + idx[i] * TN_MAXP, sizeof it->v);
				it->idx = idx[i];
				it->ms = -1;
				tn_pool_add(pool, it);
				inflight++;
			}
			if (m == 0 && inflight == 0)
				over = 1;
		}
		if (!c->gpu) {
			while (!stopping && !stop_signal && (it = tn_pool_take(pool))) {
				int g, bad;
				inflight--;
				bad = start_item(c, it, &g, err, n);
				tn_item_clear(it);
				free(it);
				if (bad)
					goto out;
			}
		} else {
			/* the scan starts one past the last GPU served, so that idle
			 * GPUs take turns when compiling is the bottleneck */
			for (int u = 0; u < c->nwk && !stopping; u++) {
				int w = (c->turn + 1 + u) % c->nwk;
				struct tn_wk *k = &c->wk[w];
				unsigned grid[3], block[3];
				int g = 0;
				while (!stop_signal && !k->job && !g && (it = tn_pool_take(pool))) {
					if (start_item(c, it, &g, err, n)) {
						tn_item_clear(it);
						free(it);
						goto out;
					}
					if (!g) {
						inflight--;
						tn_item_clear(it);
						free(it);
					}
				}
				if (!g)
					continue;
				o->pb->fam->geom(o->pb, it->v, grid, block);
				/* a worker found gone as it is started or given the
				 * job is replaced once, and the job goes to the new one */
				for (int t = 0; worker_up(c, w, err, n) ||
				     tn_wk_submit(k, &it->prog, it->v, grid, block,
						  o->no_race ? 0 : c->best_ms, err, n); t++) {
					tn_wk_kill(k);
					if (t) {
						tn_item_clear(it);
						free(it);
						goto out;
					}
					fprintf(stderr, "fdtune: %s; starting a new worker\n", err);
				}
				/* the code is in the worker: keep only what is recorded */
				tn_item_clear(it);
				k->job = it;
				k->deadline = now_s() + limit_s(c);
				c->turn = w;
			}
		}
		for (int w = 0; w < c->nwk; w++)
			busy += c->wk[w].job != NULL;
		if ((stopping && !busy) || (over && inflight == 0))
			break;
		/* the pool's pipe only matters while something could take a build:
		 * otherwise it stays readable and the wait would spin */
		if (!stopping && (!c->gpu || busy < c->nwk)) {
			pf[nfd] = (struct pollfd){ tn_pool_fd(pool), POLLIN, 0 };
			who[nfd++] = -1;
		}
		for (int w = 0; w < c->nwk; w++)
			if (c->wk[w].job) {
				double left = c->wk[w].deadline - now_s();
				int ms = left <= 0 ? 0 : (int)(left * 1000) + 1;
				pf[nfd] = (struct pollfd){ c->wk[w].from, POLLIN, 0 };
				who[nfd++] = w;
				wait_ms = ms < wait_ms ? ms : wait_ms;
			}
		if (inflight == 0)      /* nothing to wait for: the search says what next */
			wait_ms = 0;
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
				if (finish(c, w, err, n))
					goto out;
			} else if (now_s() > c->wk[w].deadline) {
				inflight--;
				if (overrun(c, w, err, n))
					goto out;
			}
		}
	}
	rc = 0;
out:
	tn_pool_free(pool);
	return rc;
}

int tn_sweep(const struct tn_sweep_opts *o, char *err, size_t n)
{
	const struct tn_problem *pb = o->pb;
	const struct tn_family *f = pb->fam;
	struct ctx c;
	struct tn_limits lim;
	int *cfgs = NULL, status = 1;
	long long total = tn_space_size(o->sp), nv = 0, pruned = 0, skipped = 0;
	char why[256], first_why[256] = "", host[256] = "?", msg[512];
	const char *end_status = "failed";
	double t0 = 0;
	struct sigaction sa, old_int, old_term, old_hup, old_pipe;
	int handlers = 0, spent = 0, evals = o->evals;
	struct tn_seeds sd = { 0 };

	memset(&c, 0, sizeof c);
	c.o = o;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_IGN;        /* a dead worker shows as EPIPE, not a signal */
	sigaction(SIGPIPE, &sa, &old_pipe);
	if (setup(&c, err, n))
		goto out;
	if (c.gpu) {
		lim.max_threads = c.wk[0].dev.max_threads;
		lim.lds_block = c.wk[0].dev.lds_block;
	} else {
		tn_limits_of_arch(c.arch, &lim);
	}
	if (!(cfgs = calloc((size_t)total * TN_MAXP, sizeof *cfgs))) {   /* unused columns 0 */
		snprintf(err, n, "out of memory for a space of %lld configurations", total);
		goto out;
	}
	for (long long i = 0; i < total; i++) {
		int *v = cfgs + nv * TN_MAXP;
		if (o->shards > 1 && i % o->shards != o->shard)
			continue;               /* another job's share */
		tn_space_at(o->sp, i, v);
		if (f->check(pb, v, &lim, why, sizeof why)) {
			if (!pruned++)
				snprintf(first_why, sizeof first_why, "%s", why);
			continue;
		}
		nv++;
	}
	c.cfgs = cfgs;
	if (!nv && pruned && o->shards <= 1) {   /* this GPU's limits prune what the command line kept */
		snprintf(err, n, "no configuration of this space can run on this GPU: all %lld "
			 "fail its limits (e.g. %s); nothing was recorded", pruned, first_why);
		goto out;
	}
	if (db_open(o->db_path, &c.db, err, n) || db_reap_sweeps(c.db, stderr, NULL, err, n))
		goto out;
	gethostname(host, sizeof host - 1);
	if (c.gpu && devices(&c, err, n))
		goto out;
	if (db_problem_id(c.db, f->name, pb->r, pb->nx, pb->ny, pb->nz, pb->prec,
			  &c.prob_id, err, n) ||
	    db_sweep_begin(c.db, o->cmdline, host, c.dev_id[0], c.prob_id,
			   c.gpu ? "gpu" : "compile-only", &c.sweep_id, err, n))
		goto out;
	if (strategy(&c, &sd, &evals, err, n))
		goto fail;
	if (!o->force && skip_recorded(&c, cfgs, &nv, &skipped, err, n))
		goto fail;
	if (o->max_configs > 0 && nv > o->max_configs)
		nv = o->max_configs;
	fprintf(stderr, "fdtune: sweep %lld: %s R=%d %dx%dx%d %s: %lld configurations to run, "
		"%lld already recorded (--force runs them again), %lld pruned%s%s%s\n",
		c.sweep_id, f->name, pb->r, pb->nx, pb->ny, pb->nz, pb->prec, nv, skipped,
		pruned, pruned ? " (e.g. " : "", first_why, pruned ? ")" : "");
	sa.sa_handler = on_signal;
	stop_signal = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);
	handlers = 1;
	for (int w = 0; w < c.nwk; w++)
		if (tn_wk_open(&c.wk[w], pb, c.copy[w], err, n))
			goto fail;
	if (nv && tn_search_new(c.gpu ? c.strategy : TN_EXHAUSTIVE, cfgs, TN_MAXP, nv,
				c.strategy == TN_EXHAUSTIVE || !c.gpu ? 0 : (nv * evals + 99) / 100,
				o->seed, &c.search, err, n))
		goto fail;
	for (long long i = 0; c.search && i < c.nprior; i++)
		tn_search_prior(c.search, c.prior_idx[i], c.prior_ms[i]);
	if (c.search && c.gpu && c.strategy == TN_TRANSFER)
		fprintf(stderr, "fdtune: transfer: %lld seeds from %d other sizes or radii, %lld of "
			"them in this space (the others pruned or outside it)\n", sd.n, sd.nprob,
			tn_search_seed(c.search, sd.v, TN_MAXP, sd.n));
	if (c.search && c.gpu && c.strategy != TN_EXHAUSTIVE)
		fprintf(stderr, "fdtune: %s search, at most %d%% of the configurations, %lld of "
			"them known from earlier runs\n", tn_strategy_name(c.strategy), evals,
			c.nprior);
	tn_progress_init(&c.pr, c.gpu && c.strategy != TN_EXHAUSTIVE ?
			 (nv * evals + 99) / 100 - c.nprior : nv, o->quiet);
	t0 = now_s();
	if (c.search && loop(&c, err, n)) {
		tn_progress_end(&c.pr);
		goto fail;
	}
	tn_progress_end(&c.pr);
	if (c.done) {
		double tt = now_s() - t0;
		const char *cache = tn_cache_dir();
		fprintf(stderr, "fdtune: %lld configurations in %.1f s, %.1f per second; summed over "
			"configurations: compile %.1f s on %d threads (%lld from the cache%s%s)",
			c.done, tt, c.done / tt, c.t_build, o->jobs, c.cached, cache ? " in " : "",
			cache ? cache : ", which is off");
		if (c.gpu)
			fprintf(stderr, ", validate %.1f s, time %.1f s on %d GPU(s); workers "
				"restarted %lld times", c.t_check, c.t_time, c.nwk, c.restarts);
		fputc('\n', stderr);
		if (c.others)
			fprintf(stderr, "fdtune: %lld configurations were recorded meanwhile by another "
				"sweep of this problem; they are not recorded twice\n", c.others);
		if (!c.gpu && c.count[7])
			fprintf(stderr, "fdtune: compile-only for %s: registers %d..%d per thread, "
				"LDS up to %d bytes, %d of %lld builds spill; each build is in the "
				"builds table of %s (nothing was timed, so fdtune best has no rows)\n",
				c.arch, c.rmin, c.rmax, c.lmax, c.nspill, c.count[7], o->db_path);
	}
	spent = o->budget_s > 0 && now_s() - t0 > o->budget_s && tn_search_next_left(c.search);
	end_status = stop_signal || spent ? "interrupted" : "done";
	status = stop_signal || spent ? 1 : 0;
	if (stop_signal)
		snprintf(err, n, "interrupted by signal %d; what finished is recorded",
			 (int)stop_signal);
	else if (spent)
		snprintf(err, n, "the time budget of %.0f s is spent before the end; what "
			 "finished is recorded, and the same command goes on", o->budget_s);
fail:
	if (status && db_full(c.db))    /* resumable once there is space */
		end_status = "interrupted";
	{
		int o2 = snprintf(msg, sizeof msg, "%s", status ? err : "");
		for (int i = 0; i < 8 && o2 >= 0 && (size_t)o2 < sizeof msg; i++)
			if (c.count[i])
				o2 += snprintf(msg + o2, sizeof msg - (size_t)o2, "%s%s=%lld",
					       o2 ? " " : "", outcome[i], c.count[i]);
		if (c.others && o2 >= 0 && (size_t)o2 < sizeof msg)
			snprintf(msg + o2, sizeof msg - (size_t)o2, "%s%lld recorded meanwhile by "
				 "another sweep", o2 ? "; " : "", c.others);
		fprintf(stderr, "fdtune: sweep %lld %s: %s\n", c.sweep_id, end_status, msg);
		if (c.sweep_id) {
			char e2[1024];
			/* once more after a failure, which may have been passing */
			if (db_sweep_end(c.db, c.sweep_id, end_status, total, pruned, msg, e2, sizeof e2) &&
			    db_sweep_end(c.db, c.sweep_id, end_status, total, pruned, msg, e2, sizeof e2)) {
				if (!status)
					snprintf(err, n, "%s", e2);
				else
					fprintf(stderr, "fdtune: %s\n", e2);
				status = 1;
			}
		}
	}
out:
	for (int w = 0; w < c.nwk; w++)
		tn_wk_kill(&c.wk[w]);
	tn_search_free(c.search);
	tn_seeds_free(&sd);
	free(c.prior_idx);
	free(c.prior_ms);
	if (handlers) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
		sigaction(SIGHUP, &old_hup, NULL);
	}
	sigaction(SIGPIPE, &old_pipe, NULL);
	db_close(c.db);
	free(cfgs);
	return status;
}
