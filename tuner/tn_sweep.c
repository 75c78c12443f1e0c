/*
 * tn_sweep.c: the sweep loop. It knows families only through their
 * descriptors (tn.h). Configurations are compiled a chunk at a time by a
 * pool of threads, then measured one by one on the GPU; each build and each
 * run is written to the database as soon as it exists, so an interrupted
 * sweep loses nothing it finished. Without a GPU the sweep is compile-only:
 * it records every build with its registers, LDS and spills.
 */
#define _GNU_SOURCE
#include "tn_sweep.h"
#include "db.h"
#include "gen.h"
#include "rt.h"
#include "tn_bench.h"
#include "tn_cache.h"
#include "tn_progress.h"
#include "tn_search.h"

#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct item {
	int v[TN_MAXP];
	long long idx;          /* index of the configuration in the sweep's list */
	double ms;              /* outcome for the strategy: median ms, or -1 */
	char *src, hash[17], err[1024];
	struct rt_prog prog;
	int bad_gen, bad_compile, cached;
};

struct pool {
	const struct tn_problem *pb;
	const char *arch, *compiler, *cache;     /* cache: NULL when off */
	struct item *it;
	int n, next;
	pthread_mutex_t mu;
};

static volatile sig_atomic_t stop_signal;

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}
static void on_signal(int s) { stop_signal = s; }

/* Generates and compiles one configuration into it, or takes the code from
 * the compile cache. */
static void build(const struct pool *po, struct item *it)
{
	const struct tn_problem *pb = po->pb;
	const struct tn_family *f = pb->fam;
	char key[40];
	struct gen_def d[TN_MAXP + 1];
	d[0] = (struct gen_def){ "r", pb->r };
	for (int i = 0; i < f->np; i++)
		d[i + 1] = (struct gen_def){ f->p[i].name, it->v[i] };
	if (gen_source(f->tmpl, "fdt_kernel", d, f->np + 1, &it->src, it->err,
		       sizeof it->err)) {
		it->bad_gen = 1;
		it->prog.log = NULL;
		it->prog.regs = it->prog.lds = it->prog.spill = -1;    /* unknown */
		it->prog.ms = NAN;
		return;
	}
	gen_hash(it->src, it->hash);
	if (po->cache) {
		tn_cache_key(it->src, po->compiler, po->arch, key);
		if (!tn_cache_get(po->cache, key, &it->prog)) {
			it->cached = 1;
			return;
		}
	}
	if (rt_compile(it->src, f->tmpl, po->arch, NULL, 0, &it->prog, it->err, sizeof it->err))
		it->bad_compile = 1;
	else if (po->cache)
		tn_cache_put(po->cache, key, &it->prog);        /* a failure costs a compile later */
}

static void *worker(void *p)
{
	struct pool *po = p;
	for (;;) {
		int i;
		pthread_mutex_lock(&po->mu);
		i = po->next++;
		pthread_mutex_unlock(&po->mu);
		if (i >= po->n)
			return NULL;
		build(po, &po->it[i]);
	}
}

/* Builds po->it[0..n) on jobs threads, the caller one of them; threads that
 * cannot be started leave their share to the others. */
static void compile_chunk(struct pool *po, int jobs)
{
	pthread_t th[64];
	int nt = (jobs < po->n ? jobs : po->n) - 1, started = 0;
	po->next = 0;
	if (nt > 64)
		nt = 64;
	for (; started < nt; started++)
		if (pthread_create(&th[started], NULL, worker, po))
			break;
	worker(po);
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
}

struct ctx {
	const struct tn_sweep_opts *o;
	struct db *db;
	long long dev_id, prob_id, sweep_id;
	struct tn_bench bench;
	int gpu;
	char compiler[64];
	const char *arch;
	long long count[8];     /* outcomes, by index of outcome[] */
	int rmin, rmax, lmax, nspill;   /* resources of the builds, compile-only */
	long long cached;               /* builds taken from the compile cache */
	long long nprior, *prior_idx;   /* recorded outcomes a search starts from */
	double *prior_ms;
	struct tn_progress pr;
};

static const char *const outcome[] = { "ok", "compile_error", "load_error",
	"launch_error", "wrong_result", "resource_limit", "timeout", "built" };

static void tally(struct ctx *c, const char *s)
{
	for (int i = 0; i < 8; i++)
		if (!strcmp(outcome[i], s))
			c->count[i]++;
}

/* Stores one compiled item and, on a GPU, measures it. Nonzero: the sweep
 * must stop (database failure or a GPU fault). */
static int handle(struct ctx *c, struct item *it, char *err, size_t n)
{
	const struct tn_problem *pb = c->o->pb;
	const struct tn_family *f = pb->fam;
	char json[512];
	long long cfg_id, build_id;
	struct db_build b;
	struct db_run r;
	struct tn_result res;
	struct rt_kernel *k = NULL;
	unsigned grid[3], block[3];
	int fatal = 0, regs, lds, local, maxt;

	tn_config_json(f, it->v, json, sizeof json);
	c->cached += it->cached;
	if (db_config_id(c->db, f->name, json, &cfg_id, err, n))
		return 1;
	memset(&b, 0, sizeof b);
	b.config_id = cfg_id;
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
	if (db_build_add(c->db, &b, &build_id, err, n))
		return 1;
	if (!c->gpu) {
		tally(c, it->bad_gen || it->bad_compile ? "compile_error" : "built");
		if (!it->bad_gen && !it->bad_compile) {
			c->rmin = c->rmin && c->rmin < it->prog.regs ? c->rmin : it->prog.regs;
			c->rmax = c->rmax > it->prog.regs ? c->rmax : it->prog.regs;
			c->lmax = c->lmax > it->prog.lds ? c->lmax : it->prog.lds;
			c->nspill += it->prog.spill > 0;
		}
		tn_progress_step(&c->pr, NAN, NAN);
		return 0;
	}
	memset(&r, 0, sizeof r);
	r.sweep_id = c->sweep_id;
	r.build_id = build_id;
	r.device_id = c->dev_id;
	r.problem_id = c->prob_id;
	r.config_id = cfg_id;
	memset(&res, 0, sizeof res);
	res.median = res.min = res.max = res.gbs = res.mcells = res.pct = NAN;
	res.max_err = res.bound = NAN;
	res.reps = -1;
	if (it->bad_gen || it->bad_compile) {
		res.status = "compile_error";
		snprintf(res.msg, sizeof res.msg, "%.500s", it->err);
	} else if (rt_load(&it->prog, "fdt_kernel", &k, res.msg, sizeof res.msg)) {
		res.status = "load_error";
	} else if (rt_attrs(k, &regs, &lds, &local, &maxt, res.msg, sizeof res.msg)) {
		res.status = "load_error";
	} else {
		f->geom(pb, it->v, grid, block);
		if ((long long)block[0] * block[1] * block[2] > maxt) {
			res.status = "resource_limit";
			snprintf(res.msg, sizeof res.msg, "%u threads per block, the kernel allows "
				 "%d (%d registers per thread)", block[0] * block[1] * block[2],
				 maxt, regs);
		} else {
			fatal = tn_bench_run(&c->bench, k, it->v, grid, block, &res, err, n);
		}
	}
	it->ms = strcmp(res.status, "ok") ? -1 : res.median;
	r.status = res.status;
	r.message = res.msg;
	r.median_ms = res.median;
	r.min_ms = res.min;
	r.max_ms = res.max;
	r.reps = res.reps;
	r.gbs = res.gbs;
	r.mcells = res.mcells;
	r.pct_copy = res.pct;
	r.max_err = res.max_err;
	r.err_bound = res.bound;
	rt_unload(k);
	tally(c, res.status);
	if (db_run_add(c->db, &r, NULL, err, n))
		return 1;
	tn_progress_step(&c->pr, res.gbs, res.pct);
	if (fatal) {
		char cfg[256];
		tn_config_text(f, it->v, cfg, sizeof cfg);
		snprintf(err + strlen(err), n - strlen(err) < n ? n - strlen(err) : 0,
			 " (configuration %s, recorded as launch_error); the GPU context is "
			 "lost, so the sweep stops here; run the same command again to go on "
			 "past it", cfg);
	}
	return fatal;
}

/* Drops from cfgs[0..*nv) the configurations already recorded, keeping the
 * order of the rest: with a GPU, those with a run for this device and
 * problem; compile-only, those with a build for this arch and compiler. */
static int skip_recorded(struct ctx *c, int *cfgs, long long *nv, long long *skipped,
			 char *err, size_t n)
{
	const struct tn_family *f = c->o->pb->fam;
	long long keep = 0;
	/* a random or guided search keeps what is recorded, as known outcomes */
	int prior = c->gpu && c->o->strategy != TN_EXHAUSTIVE;
	for (long long i = 0; i < *nv; i++) {
		char json[512];
		long long id;
		int yes;
		double ms = -1;
		tn_config_json(f, cfgs + i * TN_MAXP, json, sizeof json);
		if (db_config_id(c->db, f->name, json, &id, err, n) ||
		    (c->gpu ? db_run_recorded(c->db, c->dev_id, c->prob_id, id, &yes, &ms, err, n) :
		     db_build_recorded(c->db, id, c->arch, c->compiler, &yes, err, n)))
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

static int setup(struct ctx *c, struct rt_dev *dev, char *err, size_t n)
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
	if (o->device >= ndev) {
		snprintf(err, n, "--device %d: only %d GPU(s) present (0..%d)", o->device,
			 ndev, ndev - 1);
		return 1;
	}
	if (rt_device(o->device, dev, err, n))
		return 1;
	c->gpu = 1;
	c->arch = dev->arch;
	return 0;
}

int tn_sweep(const struct tn_sweep_opts *o, char *err, size_t n)
{
	const struct tn_problem *pb = o->pb;
	const struct tn_family *f = pb->fam;
	struct ctx c;
	struct rt_dev dev;
	struct tn_limits lim;
	struct pool po;
	int *cfgs = NULL, status = 1, chunk;
	long long total = tn_space_size(o->sp), nv = 0, pruned = 0, done = 0, skipped = 0;
	char why[256], first_why[256] = "", host[256] = "?", msg[512];
	const char *end_status = "failed";
	double copy = 0, memcpy_gbs = 0, t0 = 0, tc = 0, tm = 0;
	struct tn_search *search = NULL;
	long long cbytes = 0;
	struct sigaction sa, old_int, old_term;
	int handlers = 0;

	memset(&c, 0, sizeof c);
	memset(&po, 0, sizeof po);
	c.o = o;
	if (setup(&c, &dev, err, n))
		return 1;
	if (c.gpu) {
		lim.max_threads = dev.max_threads;
		lim.lds_block = dev.lds_block;
	} else {
		tn_limits_of_arch(c.arch, &lim);
	}
	if (!(cfgs = calloc((size_t)total * TN_MAXP, sizeof *cfgs))) {   /* unused columns 0 */
		snprintf(err, n, "out of memory for a space of %lld configurations", total);
		return 1;
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
	if (db_open(o->db_path, &c.db, err, n))
		goto out;
	gethostname(host, sizeof host - 1);
	if (c.gpu) {
		struct db_device dd = { dev.vendor, dev.name, dev.arch, dev.uuid, dev.sms,
			dev.mem, dev.l2, dev.lds_block, dev.max_threads };
		if (db_device_id(c.db, &dd, &c.dev_id, err, n) ||
		    db_device_copy(c.db, c.dev_id, &copy, err, n))
			goto out;
		if (copy <= 0) {
			fprintf(stderr, "fdtune: measuring the copy bandwidth of %s ...\n", dev.name);
			if (tn_calibrate(&dev, &copy, &memcpy_gbs, &cbytes, err, n) ||
			    db_device_set_copy(c.db, c.dev_id, copy, memcpy_gbs, cbytes, err, n))
				goto out;
		}
		fprintf(stderr, "fdtune: %s (%s), copy bandwidth %.0f GB/s\n", dev.name,
			dev.arch, copy);
	}
	if (db_problem_id(c.db, f->name, pb->r, pb->nx, pb->ny, pb->nz, pb->prec,
			  &c.prob_id, err, n) ||
	    db_sweep_begin(c.db, o->cmdline, host, c.dev_id, c.prob_id,
			   c.gpu ? "gpu" : "compile-only", &c.sweep_id, err, n))
		goto out;
	if (!o->force && skip_recorded(&c, cfgs, &nv, &skipped, err, n))
		goto fail;
	if (o->max_configs > 0 && nv > o->max_configs)
		nv = o->max_configs;
	fprintf(stderr, "fdtune: sweep %lld: %s R=%d %dx%dx%d %s: %lld configurations to run, "
		"%lld already recorded (--force runs them again), %lld pruned%s%s%s\n",
		c.sweep_id, f->name, pb->r, pb->nx, pb->ny, pb->nz, pb->prec, nv, skipped,
		pruned, pruned ? " (e.g. " : "", first_why, pruned ? ")" : "");
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	stop_signal = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	handlers = 1;
	if (c.gpu && tn_bench_open(&c.bench, pb, &dev, copy, err, n))
		goto fail;
	tn_progress_init(&c.pr, c.gpu && o->strategy != TN_EXHAUSTIVE ?
			 (nv * o->evals + 99) / 100 : nv, o->quiet);
	chunk = 4 * (o->jobs > 0 ? o->jobs : 1);
	if (!(po.it = calloc((size_t)chunk, sizeof *po.it))) {
		snprintf(err, n, "out of memory");
		goto fail;
	}
	po.pb = pb;
	po.arch = c.arch;
	{
		static char id[700];    /* what decides the code, besides the source */
		char opts[512];
		rt_compile_options(c.arch, opts, sizeof opts);
		snprintf(id, sizeof id, "%s %s", c.compiler, opts);
		po.compiler = id;
	}
	po.cache = tn_cache_dir();
	pthread_mutex_init(&po.mu, NULL);
	if (nv && tn_search_new(c.gpu ? o->strategy : TN_EXHAUSTIVE, cfgs, TN_MAXP, nv,
				o->strategy == TN_EXHAUSTIVE || !c.gpu ? 0 : (nv * o->evals + 99) / 100,
				o->seed, &search, err, n))
		goto fail;
	for (long long i = 0; search && i < c.nprior; i++)
		tn_search_prior(search, c.prior_idx[i], c.prior_ms[i]);
	if (search && c.gpu && o->strategy != TN_EXHAUSTIVE)
		fprintf(stderr, "fdtune: %s search, at most %d%% of the configurations, %lld of "
			"them known from earlier runs\n", tn_strategy_name(o->strategy), o->evals,
			c.nprior);
	t0 = now_s();
	while (search && !stop_signal && !(o->budget_s > 0 && now_s() - t0 > o->budget_s)) {
		long long idx[256];
		int m = tn_search_next(search, idx, chunk < 256 ? chunk : 256), rc = 0;
		double t1;
		if (m <= 0)
			break;
		for (int i = 0; i < m; i++) {
			memset(&po.it[i], 0, sizeof po.it[i]);
			memcpy(po.it[i].v, cfgs + idx[i] * TN_MAXP, sizeof po.it[i].v);
			po.it[i].idx = idx[i];
			po.it[i].ms = -1;
		}
		po.n = m;
		t1 = now_s();
		compile_chunk(&po, o->jobs);
		tc += now_s() - t1;
		t1 = now_s();
		for (int i = 0; i < m; i++) {
			if (!rc && !stop_signal)
				rc = handle(&c, &po.it[i], err, n);
			tn_search_report(search, po.it[i].idx, po.it[i].ms);
			rt_prog_free(&po.it[i].prog);
			free(po.it[i].src);
		}
		tm += now_s() - t1;
		done += m;
		if (rc)
			goto fail;
	}
	tn_progress_end(&c.pr);
	if (done) {
		double tt = now_s() - t0;
		fprintf(stderr, "fdtune: %lld configurations in %.1f s, %.1f per second: compile "
			"%.1f s on %d threads (%lld from the cache%s%s), %s %.1f s\n", done, tt,
			done / tt, tc, o->jobs, c.cached, po.cache ? " in " : "",
			po.cache ? po.cache : ", which is off", c.gpu ? "load, validate and time" :
			"record", tm);
		if (!c.gpu && c.count[7])
			fprintf(stderr, "fdtune: compile-only for %s: registers %d..%d per thread, "
				"LDS up to %d bytes, %d of %lld builds spill; each build is in the "
				"builds table of %s (nothing was timed, so fdtune best has no rows)\n",
				c.arch, c.rmin, c.rmax, c.lmax, c.nspill, c.count[7], o->db_path);
	}
	{
		int spent = o->budget_s > 0 && now_s() - t0 > o->budget_s && tn_search_next_left(search);
		end_status = stop_signal || spent ? "interrupted" : "done";
		status = stop_signal || spent ? 1 : 0;
		if (stop_signal)
			snprintf(err, n, "interrupted by signal %d; what finished is recorded",
				 (int)stop_signal);
		else if (spent)
			snprintf(err, n, "the time budget of %.0f s is spent before the end; what "
				 "finished is recorded, and the same command goes on", o->budget_s);
	}
fail:
	{
		int o2 = snprintf(msg, sizeof msg, "%s", status ? err : "");
		for (int i = 0; i < 8 && o2 >= 0 && (size_t)o2 < sizeof msg; i++)
			if (c.count[i])
				o2 += snprintf(msg + o2, sizeof msg - (size_t)o2, "%s%s=%lld",
					       o2 ? " " : "", outcome[i], c.count[i]);
		fprintf(stderr, "fdtune: sweep %lld %s: %s\n", c.sweep_id, end_status, msg);
		if (c.sweep_id) {
			char e2[256];
			if (db_sweep_end(c.db, c.sweep_id, end_status, total, pruned, msg, e2, sizeof e2))
				fprintf(stderr, "fdtune: %s\n", e2);
		}
	}
out:
	tn_search_free(search);
	free(c.prior_idx);
	free(c.prior_ms);
	if (handlers) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
	}
	if (po.it)
		pthread_mutex_destroy(&po.mu);
	free(po.it);
	if (c.gpu)
		tn_bench_close(&c.bench);
	db_close(c.db);
	free(cfgs);
	return status;
}
