/*
 * tn_sweep.c: the sweep of a plan of one or more problems (tn_run.h lays out
 * the files). Each problem is a job: its configurations that pass the family's
 * constraints (and fall in this shard, numbered over the whole plan), less
 * those already recorded unless --force, one row in the sweeps table, and a
 * search. Compile-only sweeps and single problems run their jobs one after the
 * other, each to its end. A plan on a GPU runs in anytime order
 * (tn_schedule.c): a short guided pass over every problem, so that each has
 * a validated best early, then refinement steps for the problem with the
 * most to gain, while the budget lasts. Whatever stops it (a signal, --budget, --max-configs),
 * each problem keeps its best and a rerun resumes every one.
 */
#define _GNU_SOURCE
#include "fdt_rc.h"
#include "tn_run.h"
#include "rt.h"
#include "tn_cache.h"
#include "tn_cproc.h"
#include "gen.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FINISHED "what finished is recorded"
static void on_signal(int s) { tn_stop_signal = s; }

/* 1 when the user's signal stopped the sweep: the sweep's own (SIGINT,
 * SIGTERM, SIGHUP), or one that killed a worker (sent to the process group,
 * it may reach a worker first). What failed meanwhile is a consequence, not
 * a failure (issue 33: a worker killed by SIGTERM as the sweep was opening
 * a problem made it "failed"): err becomes "interrupted by signal S", the
 * cause kept after it; the sweep then stops as if it had the signal. */
static int user_signal(const struct tn_run *c)
{
	int sig = tn_stop_signal;
	for (int w = 0; w < c->nwk && !sig; w++)
		if (c->wk[w].sig == SIGINT || c->wk[w].sig == SIGTERM || c->wk[w].sig == SIGHUP)
			sig = c->wk[w].sig;
	if (sig)
		tn_stop_signal = sig;
	return sig;
}

/* A predicate: 1 when a user's signal stopped the sweep (err then says so,
 * with when, and what err said before in parentheses), else 0. */
static int stopped_by_user(const struct tn_run *c, const char *when, char *err, size_t n)
{
	char why[768];
	int sig = user_signal(c);
	if (!sig)
		return 0;
	snprintf(why, sizeof why, "%s", err);
	snprintf(err, n, "interrupted by signal %d; %s%s%s%s", sig, when,
		 *why ? " (as it stopped: " : "", why, *why ? ")" : "");
	return 1;
}

/* The configurations of job j that pass its constraints within lim and
 * fall in this shard; off numbers the job's space after the earlier jobs'. */
static int prepare(struct tn_job *j, const struct tn_limits *lim, long long off,
		   const struct tn_sweep_opts *o, char *err, size_t n)
{
	const struct tn_family *f = j->pb->fam;
	char why[256];
	int v[TN_MAXP];
	long long out = 0;      /* left out by the default space, in every shard */
	/* a wrong FDTUNE_TEMPLATES would record gen_error for every configuration */
	if (gen_template_check(f->tmpl, err, n))
		return FDT_FAIL;
	j->total = tn_space_size(j->sp);
	j->best_gbs = j->best_pct = NAN;
	if (!(j->cfgs = calloc((size_t)j->total * TN_MAXP, sizeof *j->cfgs))) {   /* unused 0 */
		snprintf(err, n, "out of memory for a space of %lld configurations", j->total);
		return FDT_FAIL;
	}
	for (long long i = 0; i < j->total; i++) {
		int mine = o->shards <= 1 || (off + i) % o->shards == o->shard;
		memset(v, 0, sizeof v);
		tn_space_at(j->sp, i, v);
		if (f->check(j->pb, v, lim, why, sizeof why)) {
			j->pruned += mine;
			if (!*j->first_why)
				snprintf(j->first_why, sizeof j->first_why, "%s", why);
			continue;
		}
		/* runnable, but not in the default space */
		if (tn_space_out(j->sp, j->pb, v, why, sizeof why)) {
			j->left += mine;
			out++;
			if (!*j->left_why)
				snprintf(j->left_why, sizeof j->left_why, "%s", why);
			continue;
		}
		j->runnable++;
		if (mine)
			memcpy(j->cfgs + j->nv++ * TN_MAXP, v, sizeof v);
	}
	j->total -= out;        /* the space swept: what the rule left out is not in it */
	if (!j->runnable && o->recheck)         /* its configurations are its records */
		return FDT_OK;
	if (!j->runnable) {
		snprintf(err, n, "%s: none of its %lld configurations can run here (e.g. %s); "
			 "leave it out, or change its space with -p", j->name, j->total,
			 j->left ? j->left_why : j->first_why);
		return FDT_USAGE;
	}
	return FDT_OK;
}

/* Appends a recorded outcome to the job's priors. */
static int add_prior(struct tn_job *j, long long idx, double ms, char *err, size_t n)
{
	double *p = realloc(j->prior_ms, (size_t)(j->nprior + 1) * sizeof *p);
	long long *q = p ? realloc(j->prior_idx, (size_t)(j->nprior + 1) * sizeof *q) : NULL;
	if (p)
		j->prior_ms = p;
	if (q)
		j->prior_idx = q;
	if (!p || !q) {
		snprintf(err, n, "out of memory");
		return FDT_FAIL;
	}
	j->prior_ms[j->nprior] = ms;
	j->prior_idx[j->nprior++] = idx;
	return FDT_OK;
}

/* Drops from the job's configurations those already recorded, keeping the
 * order of the rest: with a GPU, those with a run for this problem on any
 * board of the sweep's GPU model; compile-only, those with a build for this
 * arch and compiler. A search other than exhaustive keeps them, as priors. */
static int skip_recorded(struct tn_run *c, struct tn_job *j, int prior, char *err, size_t n)
{
	const struct tn_family *f = j->pb->fam;
	long long keep = 0;
	/* reads alone: a configuration not in the configs table has no record,
	 * and its id is written when its run is (tn_record.c); an insert here
	 * was a commit each, a second a space of 3600 before the first step */
	for (long long i = 0; i < j->nv; i++) {
		char json[512];
		long long id;
		int yes = 0;
		double ms = -1;
		tn_config_json(f, j->cfgs + i * TN_MAXP, json, sizeof json);
		if (db_config_find(c->db, f->name, json, &id, err, n))
			return FDT_FAIL;
		/* a run counts on every board of its model, and the GPUs of a
		 * sweep are one model (tn_run_hello): the first GPU's answer is all */
		if (id >= 0 &&
		    (c->gpu ? db_run_recorded(c->db, c->dev_id[0], j->prob_id, id, &yes, &ms, err, n) :
		     db_build_recorded(c->db, id, j->prob_id, c->arch, c->compiler, &yes, err, n)))
			return FDT_FAIL;
		if (yes && prior) {
			if (add_prior(j, keep, ms, err, n))     /* its index once kept */
				return FDT_FAIL;
		} else if (yes) {
			continue;
		}
		memmove(j->cfgs + keep * TN_MAXP, j->cfgs + i * TN_MAXP, TN_MAXP * sizeof *j->cfgs);
		keep++;
	}
	j->skipped = j->nv - keep;
	j->nv = keep;
	return FDT_OK;
}

/* Begins job j: its sweep row, what is recorded, its search. plan: a GPU
 * plan of several problems, run in anytime order. */
static int begin(struct tn_run *c, struct tn_job *j, int plan, const char *host, char *err,
		 size_t n)
{
	const struct tn_sweep_opts *o = c->o;
	const struct tn_problem *pb = j->pb;
	enum tn_strategy st, kind;
	int prior, evals = o->evals;
	if (db_problem_id(c->db, pb->fam->name, pb->r, pb->nx, pb->ny, pb->nz, pb->prec,
			  &j->prob_id, err, n) ||
	    db_sweep_begin(c->db, o->cmdline, host, c->dev_id[0], j->prob_id,
			   c->gpu ? "gpu" : "compile-only", &j->sweep_id, err, n) ||
	    (o->recheck ? tn_recheck(c, j, err, n) : tn_choose(c, j, &st, &evals, err, n)))
		return FDT_FAIL;
	if (o->recheck) {       /* its records, fastest first, each timed again */
		j->target = j->nv;
		return j->nv && tn_search_new(TN_EXHAUSTIVE, j->cfgs, TN_MAXP, j->nv, 0, o->seed,
					      &j->search, err, n);
	}
	/* a plan on a GPU searches locally from its first pass: guided, unless
	 * random or transfer was chosen; its target is that of -s */
	kind = !c->gpu ? TN_EXHAUSTIVE : !plan || st == TN_RANDOM || st == TN_TRANSFER ? st :
	       TN_GUIDED;
	prior = c->gpu && kind != TN_EXHAUSTIVE;
	if (!o->force && skip_recorded(c, j, prior, err, n))
		return FDT_FAIL;
	j->target = !c->gpu || st == TN_EXHAUSTIVE ? j->nv : (j->nv * evals + 99) / 100;
	fprintf(stderr, "fdtune: sweep %lld: %s: %lld configurations to run, %lld already "
		"recorded (--force runs them again), %lld pruned%s%s%s", j->sweep_id, j->name,
		j->nv - j->nprior, j->skipped + j->nprior, j->pruned, j->pruned ? " (e.g. " : "",
		j->first_why, j->pruned ? ")" : "");
	if (j->left)
		fprintf(stderr, ", %lld left out of the default space (%s)", j->left, j->left_why);
	fputc('\n', stderr);
	if (!j->nv)
		return FDT_OK;
	if (tn_search_new(kind, j->cfgs, TN_MAXP, j->nv, kind == TN_EXHAUSTIVE ? 0 : j->target,
			  o->seed, &j->search, err, n))
		return FDT_FAIL;
	if (plan && kind == TN_GUIDED) {        /* half of the first pass local search */
		long long p = tn_order_pass(j->nv, j->target), start = p > 1 ? p / 2 : 1;
		tn_search_set_start(j->search, start);
		/* its start from its relatives' bests, if any, where an earlier
		 * run of the plan did not spend it */
		j->seeding = c->gpu && j->nprior < start;
	}
	for (long long i = 0; i < j->nprior; i++) {
		double ms = j->prior_ms[i], gbs;
		const int *v = j->cfgs + j->prior_idx[i] * TN_MAXP;
		tn_search_prior(j->search, j->prior_idx[i], ms);
		if (ms <= 0)
			continue;
		gbs = pb->fam->bytes(pb, v) / (ms * 1e6);
		if (j->best_ms <= 0 || ms < j->best_ms)
			j->best_ms = ms;
		if (isnan(j->best_gbs) || gbs > j->best_gbs) {
			j->best_gbs = gbs;
			j->best_pct = c->copy[0] > 0 ? 100 * gbs / c->copy[0] : NAN;
		}
	}
	if (c->gpu && kind == TN_TRANSFER)
		fprintf(stderr, "fdtune: transfer: %lld seeds from %d relatives (%d of them on "
			"other GPUs), %lld of them in this space (%lld outside the domains added "
			"to it; the others pruned here)\n", j->sd.n, j->sd.nprob, j->sd.nother,
			tn_search_seed(j->search, j->sd.v, TN_MAXP, j->sd.n), j->widened);
	if (c->gpu && kind != TN_EXHAUSTIVE)
		fprintf(stderr, "fdtune: %s search, at most %lld configurations (%d%% of %lld), "
			"%lld of them known from earlier runs\n", tn_strategy_name(kind), j->target,
			st == TN_EXHAUSTIVE ? 100 : evals, j->nv, j->nprior);
	return FDT_OK;
}

/* Trims the compile cache to its limit (tn_cache_use.c) after a sweep; what
 * was removed is said unless quiet, a limit that is no size always. A cache
 * that fails to trim only stays larger. */
static void trim_cache(int quiet)
{
	const char *dir = tn_cache_dir();
	struct tn_cache_use u;
	long long max;
	char err[1024];
	if (!dir)
		return;
	if (tn_cache_limit(&max, err, sizeof err)) {
		fprintf(stderr, "fdtune: the compile cache is not trimmed: %s\n", err);
		return;
	}
	if (!tn_cache_trim(dir, max, &u, err, sizeof err) && u.removed && !quiet) {
		char a[32], b[32];
		tn_cache_fmt(u.removed_bytes, a, sizeof a);
		tn_cache_fmt(max, b, sizeof b);
		fprintf(stderr, "fdtune: compile cache: removed the %lld least recently used "
			"entries (%s) to stay within %s (FDTUNE_CACHE_MAX); %lld left\n",
			u.removed, a, b, u.entries);
	}
}

/* Ends job j's sweep row: failed, interrupted (work left or cut short at a stop,
 * the budget or --max-configs, or a full disk: resumable once there is space) or done. Nonzero when the end
 * could not be recorded, even a second time (a failure may be passing). */
static int end(struct tn_run *c, struct tn_job *j, int failed, const char *err)
{
	/* a run cut short by the stop signal is proposed but not done; a job
	 * with configurations and no search was stopped as it began */
	int stopped = (tn_stopping(c) || tn_maxed(c)) && (tn_job_left(j) > 0 || j->done < j->proposed ||
						       (j->nv > 0 && !j->search));
	const char *st = failed && !db_full(c->db) ? "failed" : failed || stopped ?
			 "interrupted" : "done";
	char msg[512], cnt[400] = "", e2[1024];
	int o2 = 0;
	for (int i = 0; i < TN_NOUT && o2 >= 0 && (size_t)o2 < sizeof cnt; i++)
		if (j->count[i])
			o2 += snprintf(cnt + o2, sizeof cnt - (size_t)o2, "%s%s=%lld", o2 ? " " : "",
				       tn_outcome[i], j->count[i]);
	if (j->others && o2 >= 0 && (size_t)o2 < sizeof cnt)
		snprintf(cnt + o2, sizeof cnt - (size_t)o2, "%s%lld recorded meanwhile by another "
			 "sweep", o2 ? "; " : "", j->others);
	/* the database keeps why it stopped; stderr has it once, from the caller */
	snprintf(msg, sizeof msg, "%s%s%s", failed || stopped ? err : "",
		 (failed || stopped) && *err && *cnt ? " " : "", cnt);
	fprintf(stderr, "fdtune: sweep %lld %s: %s\n", j->sweep_id, st,
		*cnt ? cnt : "no configuration run");
	if (db_sweep_end(c->db, j->sweep_id, st, j->total, j->pruned, msg, e2, sizeof e2) &&
	    db_sweep_end(c->db, j->sweep_id, st, j->total, j->pruned, msg, e2, sizeof e2)) {
		fprintf(stderr, "fdtune: %s\n", e2);
		return FDT_FAIL;
	}
	return FDT_OK;
}

/* Starts making the problems of pl's host data for the workers to share
 * (tn_hshare.h), ahead, in the plan's order, within 40% of the host's
 * memory. */
static int share(struct tn_run *c, const struct tn_plan *pl, char *err, size_t n)
{
	const struct tn_problem **pbs = malloc((size_t)c->njobs * sizeof *pbs);
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGE_SIZE);
	double host = pages > 0 && psz > 0 ? (double)pages * psz : 16e9;
	int rc;
	if (!pbs) {
		snprintf(err, n, "out of memory");
		return FDT_FAIL;
	}
	for (int i = 0; i < c->njobs; i++)
		pbs[i] = &pl->p[i].pb;
	rc = tn_hshare_new(&c->hs, pbs, c->njobs, 0.4 * host, err, n);
	free(pbs);
	return rc;
}

int tn_sweep(const struct tn_sweep_opts *o, char *err, size_t n)
{
	struct tn_plan one = { 0 };
	struct tn_plan_item item;
	const struct tn_plan *pl = o->plan;
	struct tn_run c;
	struct tn_limits *lim = &c.lim;
	char host[256] = "?";
	struct sigaction sa, old_int, old_term, old_hup, old_pipe;
	int handlers = 0, status = 1, plan = 0, failed = 0, began = 0, user = 0, gref;
	long long off = 0, planned = 0;
	double t_kill;

	memset(&c, 0, sizeof c);
	c.o = o;
	c.opened = -1;
	c.first = -1;
	c.warm_off = getenv("FDTUNE_WARM") && !strcmp(getenv("FDTUNE_WARM"), "0");
	c.fill_off = getenv("FDTUNE_FILL") && !strcmp(getenv("FDTUNE_FILL"), "0");
	c.yield_to = -1;
	c.ncpu = tn_cpus();
	if (tn_nice(&c.nice, err, n) || tn_yield_min(&c.yield_min, err, n) ||
	    tn_gpu_ref_env(&gref, err, n) || tn_cproc_env(&c.cproc, err, n))
		return 1;              /* before anything runs, not at the first pool */
	c.t_begin = tn_now_s();
	if (tn_steps_open(&c, err, n))
		return 1;
	/* each compile in a helper process (tn_cproc.c), until the end below:
	 * the workers' program (a test's sweep runs in its own), as many kept
	 * idle as the step pool has threads */
	tn_cproc_exe(o->exe);
	tn_cproc_keep(o->jobs);
	tn_cache_set_compile(c.cproc ? tn_cproc_compile : NULL);
	if (!pl) {                      /* one problem */
		memset(&item, 0, sizeof item);
		item.pb = *o->pb;
		item.sp = *o->sp;
		tn_problem_name(o->pb, item.name, sizeof item.name);
		one.n = one.cap = 1;
		one.p = &item;
		pl = &one;
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_IGN;        /* a dead worker shows as EPIPE, not a signal */
	sigaction(SIGPIPE, &sa, &old_pipe);
	/* from here a signal stops the sweep rather than the process: whatever
	 * it cuts short (a worker it killed, at any stage) ends as interrupted */
	sa.sa_handler = on_signal;
	tn_stop_signal = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);
	handlers = 1;
	if (!(c.jobs = calloc((size_t)pl->n, sizeof *c.jobs))) {
		snprintf(err, n, "out of memory");
		goto out;
	}
	c.njobs = pl->n;
	/* the first problem's fields and reference are made while the workers
	 * start their GPUs and calibrate, not after: about 2 s at 512^3 */
	if (tn_run_setup(&c, err, n) || (c.nwk && share(&c, pl, err, n)) ||
	    tn_run_hello(&c, err, n))
		goto out;
	c.t_up = tn_now_s();
	if (o->recheck && !c.gpu) {
		snprintf(err, n, "--recheck times recorded configurations again on a GPU, and "
			 "this machine has none (or --compile-only): run it where the GPU is");
		goto out;
	}
	tn_limits_of_arch(c.arch, lim);        /* the opt-in LDS by arch */
	tn_cache_compiler(c.arch, c.cid, sizeof c.cid);
	if (c.gpu) {
		lim->max_threads = c.wk[0].dev.max_threads;
		lim->lds_block = c.wk[0].dev.lds_block;
	}
	plan = c.gpu && c.njobs > 1 && !o->recheck;
	for (int i = 0; i < c.njobs; i++) {     /* refused before anything is recorded */
		struct tn_job *j = &c.jobs[i];
		j->pb = &pl->p[i].pb;
		j->sp = &pl->p[i].sp;
		j->name = pl->p[i].name;
		if ((status = prepare(j, lim, off, o, err, n)))
			goto out;
		off += tn_space_size(j->sp);    /* the numbering of prepare's shards */
	}
	status = 1;
	if (db_open(o->db_path, &c.db, err, n) || db_reap_sweeps(c.db, stderr, NULL, err, n) ||
	    tn_seeds_open(&c, err, n))
		goto out;
	gethostname(host, sizeof host - 1);
	c.t_db = tn_now_s();
	if (c.gpu && tn_run_devices(&c, err, n))
		goto out;
	c.t_cal = tn_now_s();
	if (user_signal(&c)) {         /* before anything is recorded */
		*err = 0;
		goto out;
	}
	began = 1;
	for (int i = 0; i < c.njobs; i++) {
		struct tn_job *j = &c.jobs[i];
		if (begin(&c, j, plan, host, err, n)) {
			failed = !(user = stopped_by_user(&c, FINISHED, err, n));
			goto fail;
		}
		planned += j->target - j->nprior > 0 ? j->target - j->nprior : 0;
		if (c.hs && (!j->search || tn_job_left(j) <= 0))
			tn_hshare_skip(c.hs, i);        /* never opened: not made ahead */
	}
	if (c.njobs > 1)
		fprintf(stderr, "fdtune: a plan of %d problems%s\n", c.njobs, plan ?
			": a short guided pass over each first, then the problems with the most "
			"to gain" : "");
	if (o->max_configs > 0 && planned > o->max_configs)
		planned = o->max_configs;
	tn_progress_init(&c.pr, planned, o->quiet);
	c.t0 = tn_now_s();
	if (o->budget_s > 0)
		c.pr.end = c.t0 + o->budget_s;
	failed = tn_schedule(&c, plan, err, n) && !(user = stopped_by_user(&c, FINISHED, err, n));
	tn_progress_end(&c.pr);
	c.t_end = tn_now_s();
	if (!failed)
		tn_summary(&c);
	trim_cache(o->quiet);
	if (failed)
		;
	else if (user)                  /* stopped_by_user said why */
		;
	else if (tn_stop_signal)
		snprintf(err, n, "interrupted by signal %d; what finished is recorded",
			 (int)tn_stop_signal);
	else if ((tn_over_budget(&c) || tn_maxed(&c)) && tn_work_left(&c))  /* stopped early (--help) */
		snprintf(err, n, "%s before the end; what finished is recorded, and %s",
			 tn_maxed(&c) ? "--max-configs reached" : "time budget spent", o->recheck ?
			 "a recheck does not resume: the same command times the fastest records, "
			 "these among them, again" : "the same command goes on");
	else
		status = 0;
fail:
	for (int i = 0; i < c.njobs; i++)
		if (c.jobs[i].sweep_id && end(&c, &c.jobs[i], failed, err) && !status) {
			snprintf(err, n, "the end of sweep %lld could not be recorded; see above",
				 c.jobs[i].sweep_id);
			status = 1;
		}
out:
	if (status && !began)
		stopped_by_user(&c, "the sweep had not begun: nothing is recorded", err, n);
	/* every worker is signalled before any is waited for: their GPUs'
	 * teardowns (seconds, with tens of GB allocated) overlap */
	t_kill = tn_now_s();
	for (int w = 0; w < c.nwk; w++)
		if (c.wk[w].pid > 0)
			kill(c.wk[w].pid, SIGKILL);
	for (int w = 0; w < c.nwk; w++)
		tn_wk_kill(&c.wk[w]);
	if (c.t_end > 0 && c.nwk) {     /* a share of the wall clock the summary cannot see */
		double now = tn_now_s();
		fprintf(stderr, "fdtune: %.1f s from the last step to the workers' end, %.1f s of "
			"it waiting for them\n", now - c.t_end, now - t_kill);
	}
	tn_hshare_free(c.hs);
	for (int i = 0; i < c.njobs; i++) {
		tn_search_free(c.jobs[i].search);
		tn_seeds_free(&c.jobs[i].sd);
		free(c.jobs[i].prior_idx);
		free(c.jobs[i].prior_ms);
		free(c.jobs[i].cfgs);
		free(c.jobs[i].warmed);
		free(c.jobs[i].ring);
		free(c.jobs[i].rjson);
	}
	free(c.jobs);
	if (handlers) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
		sigaction(SIGHUP, &old_hup, NULL);
	}
	sigaction(SIGPIPE, &old_pipe, NULL);
	db_close(c.db);
	db_close(c.seeds);
	tn_steps_close(&c);
	tn_cache_set_compile(NULL);     /* (every pool has ended) */
	tn_cproc_end();
	tn_cproc_exe(NULL);
	return status;
}
