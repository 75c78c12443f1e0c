/*
 * tn_online.c: an online tuning's candidates (tn_online.h) and their
 * compiles. The kin's rows (db_each_kin) are ranked by tn_transfer_rank
 * while this file notes, for each configuration, a kept source and the
 * record it came from; the candidates are the best-ranked configurations
 * that have a kept source whose text still hashes as recorded and that the
 * device can run (the family's check). Where the database keeps code
 * objects for the arch and this compiler (`fdtune codes`, tn_code.h), the
 * candidates are the best-ranked of those with code, BUILT at once; else
 * a thread compiles them, best first, with the options a sweep uses for
 * the arch (rt_compile), and marks each BUILT or FAILED; the time loop
 * never waits for it.
 */
#define _GNU_SOURCE
#include "fdt_rc.h"
#include "tn_online.h"
#include "gen.h"
#include "tn_cache.h"
#include "tn_code.h"
#include "tn_transfer.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A configuration of the kin with a kept source: its values, the source's
 * hash, and the record it was found at. */
struct kept {
	int v[TN_MAXP];
	char hash[17], from[320];
};

/* The walk given to tn_transfer_rank: db_each_kin, noting what it passes. */
struct walk {
	struct db *d;
	struct db_kin q;
	const struct tn_problem *pb;
	int (*fn)(void *ctx, const struct db_related_row *row);
	void *ctx;
	struct kept *k;
	int nk, cap, rows;
	long long last_prob, last_dev;
	int relatives;
	char err[256];
};

static int note(void *p, const struct db_kin_row *w)
{
	struct walk *a = p;
	int v[TN_MAXP] = { 0 }, i;
	a->rows++;
	if (w->r.problem_id != a->last_prob || w->r.device_id != a->last_dev) {
		a->relatives++;
		a->last_prob = w->r.problem_id;
		a->last_dev = w->r.device_id;
	}
	if (w->hash && strlen(w->hash) == 16 &&
	    !tn_config_parse(a->d, a->pb->fam, w->r.params, v, NULL, a->err, sizeof a->err)) {
		for (i = 0; i < a->nk && memcmp(a->k[i].v, v, sizeof v); i++)
			;
		if (i == a->nk) {
			if (a->nk == a->cap) {
				int cap = a->cap ? 2 * a->cap : 64;
				struct kept *nk = realloc(a->k, (size_t)cap * sizeof *nk);
				if (!nk) {
					snprintf(a->err, sizeof a->err, "out of memory");
					return FDT_FAIL;
				}
				a->k = nk;
				a->cap = cap;
			}
			memcpy(a->k[i].v, v, sizeof v);
			snprintf(a->k[i].hash, sizeof a->k[i].hash, "%s", w->hash);
			snprintf(a->k[i].from, sizeof a->k[i].from, "%s, %dx%dx%d, %.4f ms",
				 w->device, w->r.nx, w->r.ny, w->r.nz, w->r.ms);
			a->nk++;
		}
	}
	*a->err = 0;    /* a configuration this build cannot parse is no candidate */
	return a->fn(a->ctx, &w->r);
}

static int walk(void *q, int (*fn)(void *ctx, const struct db_related_row *row), void *ctx,
		char *err, size_t n)
{
	struct walk *a = q;
	a->fn = fn;
	a->ctx = ctx;
	return db_each_kin(a->d, &a->q, note, a, err, n);
}

/* A compile thread: takes the best-ranked candidate still queued, until
 * none is (or the tuning is closed). */
static void *compiler(void *p)
{
	struct tn_online *on = p;
	int mine;
	/* the first thread builds the validation's comparison kernel first */
	pthread_mutex_lock(&on->mu);
	if ((mine = on->cmp_state == 0))
		on->cmp_state = 1;
	pthread_mutex_unlock(&on->mu);
	if (mine) {
		struct rt_prog prog;
		char why[512];
		double t0 = tn_now_s();
		memset(&prog, 0, sizeof prog);
		if (tn_cache_compile(on->cache, tn_on_cmp_src(tn_elem_size(&on->pb) == 8), "cmp.m4",
				     on->arch, on->cid, &prog, NULL, why, sizeof why))
			rt_prog_free(&prog);    /* the host compares instead */
		pthread_mutex_lock(&on->mu);
		on->cmp_prog = prog;
		on->cmp_state = 2;
		on->compile_s += tn_now_s() - t0;
		pthread_mutex_unlock(&on->mu);
	}
	for (;;) {
		struct tn_on_cand *c = NULL;
		struct rt_prog prog;
		char why[512] = "";
		double t0;
		int bad;
		pthread_mutex_lock(&on->mu);
		for (int i = 0; !on->quit && i < on->nc && !c; i++)
			if (on->c[i].state == TN_ON_QUEUED)
				c = &on->c[i];
		if (c)
			c->state = TN_ON_COMPILING;
		pthread_mutex_unlock(&on->mu);
		if (!c)
			return NULL;
		t0 = tn_now_s();
		memset(&prog, 0, sizeof prog);
		bad = tn_cache_compile(on->cache, c->src, on->pb.fam->tmpl, on->arch, on->cid, &prog,
				       NULL, why, sizeof why);
		pthread_mutex_lock(&on->mu);
		on->compile_s += tn_now_s() - t0;
		if (c->state == TN_ON_DROPPED) {        /* while it compiled */
			rt_prog_free(&prog);
		} else if (bad) {
			/* the log's first error says more than the status */
			const char *e = prog.log ? strstr(prog.log, "error") : NULL;
			int len = e ? (int)strcspn(e, "\n") : 0;
			c->state = TN_ON_FAILED;
			snprintf(c->why, sizeof c->why, "compile: %.300s%s%.*s", why, e ? ": " : "",
				 len < 180 ? len : 180, e ? e : "");
			rt_prog_free(&prog);
		} else {
			c->prog = prog;
			c->state = TN_ON_BUILT;
		}
		pthread_mutex_unlock(&on->mu);
	}
}

/* 1 when d keeps code objects for on's arch and compiler (tn_code.h). */
static int codes_for(const struct tn_online *on, struct db *d)
{
	long long k = 0;
	char e[256];
	return d && !db_code_count(d, on->arch, on->cid, &k, e, sizeof e) && k > 0;
}

/* Adds configuration k as a candidate, with its kept source, where the
 * device can run it and the source is sound: 1 taken, else 0, with
 * on->unfit or on->damaged counting why (a source that cannot be read, or
 * whose text is not the one recorded, is passed over: the user's run goes
 * on without it). Its code kept in the database makes it BUILT; with need,
 * one without is passed over (on->nocode). */
static int take(struct tn_online *on, struct db *d, const struct kept *k, double score,
		const struct tn_limits *lim, int need)
{
	struct tn_on_cand *c = &on->c[on->nc];
	struct rt_prog p;
	char why[256], h[17];
	char *src = NULL;
	int have;
	if (on->pb.fam->check(&on->pb, k->v, lim, why, sizeof why))
		return on->unfit++, 0;
	if (db_source_get(d, k->hash, &src, why, sizeof why))
		return on->damaged++, 0;
	gen_hash(src, h);
	if (strcmp(h, k->hash)) {
		free(src);
		return on->damaged++, 0;
	}
	/* its code kept in the database: built already (a damaged one is
	 * compiled instead) */
	have = !tn_code_get(on->codes, src, on->arch, on->cid, &p, why, sizeof why);
	if (!have && need) {
		free(src);
		return on->nocode++, 0;
	}
	memset(c, 0, sizeof *c);
	memcpy(c->v, k->v, sizeof c->v);
	tn_config_json(on->pb.fam, k->v, c->params, sizeof c->params);
	snprintf(c->hash, sizeof c->hash, "%s", k->hash);
	snprintf(c->from, sizeof c->from, "%s", k->from);
	c->score = score;
	c->src = src;
	on->pb.fam->geom(&on->pb, k->v, c->grid, c->block);
	c->lds = tn_dyn_lds(&on->pb, k->v);
	c->state = have ? TN_ON_BUILT : TN_ON_QUEUED;
	if (have) {
		c->prog = p;
		on->loaded++;
	}
	on->nc++;
	return 1;
}

/* db_each_online's walk: an earlier run's records become the candidates. */
struct learned {
	struct tn_online *on;
	struct db *d;
	const struct tn_limits *lim;
};

static int learned_one(void *p, const char *params, double ms, const char *hash)
{
	struct learned *a = p;
	struct kept k;
	char e[256];
	memset(&k, 0, sizeof k);
	if (tn_config_parse(a->d, a->on->pb.fam, params, k.v, NULL, e, sizeof e) ||
	    strlen(hash) != 16)
		return 0;
	snprintf(k.hash, sizeof k.hash, "%s", hash);
	snprintf(k.from, sizeof k.from, "an earlier run's online tuning on this GPU, %.4f ms", ms);
	take(a->on, a->d, &k, 1, a->lim, 0);
	return a->on->nc >= 2 ? -1 : 0;        /* -1: enough */
}

/* Candidates from the online records of db d (learned: 1 taken). */
static int resume(struct tn_online *on, struct db *d, const struct tn_limits *lim, char *err,
		  size_t n)
{
	struct learned a = { on, d, lim };
	struct db_kin q = { on->pb.fam->name, on->pb.prec, on->device, on->arch, on->pb.r, 0, 0 };
	if (!d || !*on->device)
		return FDT_OK;
	return db_each_online(d, &q, on->pb.nx, on->pb.ny, on->pb.nz, learned_one, &a, err, n) > 0;
}

int tn_on_open(struct db *d, const struct tn_problem *pb, const char *device, const char *arch,
	       const struct tn_on_opts *o, struct tn_online **out, char *err, size_t n)
{
	struct tn_online *on = calloc(1, sizeof *on);
	struct walk w;
	struct tn_seeds s;
	struct tn_limits lim;
	int want = o && o->cands > 0 ? o->cands : TN_ON_CANDS;

	*out = NULL;
	if (!on)
		return snprintf(err, n, "out of memory"), FDT_FAIL;
	if (pthread_mutex_init(&on->mu, NULL)) {
		free(on);
		return snprintf(err, n, "online tuning: cannot make a lock"), FDT_FAIL;
	}
	on->pb = *pb;
	snprintf(on->device, sizeof on->device, "%s", device ? device : "");
	snprintf(on->dev.name, sizeof on->dev.name, "%s", on->device);
	snprintf(on->dev.arch, sizeof on->dev.arch, "%s", arch);
	snprintf(on->arch, sizeof on->arch, "%s", arch);
	on->tries = o && o->tries > 0 ? o->tries : TN_ON_TRIES;
	if (on->tries > TN_ON_TRIES_MAX)
		on->tries = TN_ON_TRIES_MAX;
	if (want > TN_ON_MAX)
		want = TN_ON_MAX;
	on->chosen = TN_ON_DEFAULT;
	on->turn = TN_ON_DEFAULT;
	on->cache = tn_cache_dir();     /* before the threads: it is not thread-safe at first */
	tn_cache_compiler(arch, on->cid, sizeof on->cid);
	on->codes = d;
	if (o && o->lim)
		lim = *o->lim;
	else
		tn_limits_of_arch(arch, &lim);
	/* what an earlier run learned comes first: then it starts tuned */
	if (resume(on, o ? o->learned : NULL, &lim, err, n) || (!on->nc && resume(on, d, &lim, err, n))) {
		tn_on_close(on);
		return FDT_FAIL;
	}
	/* timed as many times as a first run's: with two timings each, the H200
	 * chose the runner-up, 4% slower, on the noise of its first steps
	 * (NOTES v53) */
	if (on->nc) {
		on->resumed = 1;
		goto start;
	}
	memset(&w, 0, sizeof w);
	w.d = d;
	w.pb = pb;
	w.q = (struct db_kin){ pb->fam->name, pb->prec, on->device, arch, pb->r, TN_TRANSFER_TOP, 0 };
	w.last_prob = w.last_dev = -1;
	if (tn_transfer_rank(d, walk, &w, pb, &s, err, n)) {
		free(w.k);
		tn_on_close(on);
		return FDT_FAIL;
	}
	on->seeds = (int)s.n;
	on->kin = w.relatives;
	/* where the database keeps code for this arch and compiler, the
	 * candidates are the best-ranked with code, ready at the first step
	 * (a run shorter than a compile still tunes); where none has code,
	 * the best-ranked, compiled */
	for (int need = codes_for(on, d); need >= 0 && !on->nc; need--) {
		on->nosrc = on->unfit = on->damaged = on->nocode = 0;
		for (long long i = 0; i < s.n && on->nc < want; i++) {
			const int *v = s.v + i * TN_MAXP;
			int k = 0;
			while (k < w.nk && memcmp(w.k[k].v, v, sizeof w.k[k].v))
				k++;
			if (k == w.nk)
				on->nosrc++;
			else
				take(on, d, &w.k[k], s.score[i], &lim, need);
		}
	}
	tn_seeds_free(&s);
	free(w.k);
start:
	/* the validation's comparison kernel, kept with the candidates' code */
	if (on->nc) {
		struct rt_prog p;
		char why[256];
		if (!tn_code_get(on->codes, tn_on_cmp_src(tn_elem_size(&on->pb) == 8), arch,
				 on->cid, &p, why, sizeof why)) {
			on->cmp_prog = p;
			on->cmp_state = 2;
		}
	}
	/* a thread a candidate and one for the comparison kernel, within half
	 * the processors (the program runs on the others) and TN_ON_MAX, so that
	 * the last candidate is built about when the first is, and the first
	 * can be validated as soon as it is */
	{
		long cpus = tn_cpus() / 2;
		int todo = on->nc ? on->cmp_state == 0 : 0;
		for (int i = 0; i < on->nc; i++)
			todo += on->c[i].state == TN_ON_QUEUED;
		int want_th = todo < cpus ? todo : cpus > 1 ? (int)cpus : 1;
		if (want_th > TN_ON_MAX)
			want_th = TN_ON_MAX;
		if (!todo)              /* nothing to compile, nor to compare */
			want_th = 0;
		while (on->nth < want_th && !pthread_create(&on->th[on->nth], NULL, compiler, on))
			on->nth++;
		on->threads = on->nth;
	}
	/* no thread: what is not built never is (the default runs instead),
	 * and the host compares where the comparison kernel is not built */
	if (!on->nth) {
		for (int i = 0; i < on->nc; i++)
			if (on->c[i].state == TN_ON_QUEUED) {
				on->c[i].state = TN_ON_FAILED;
				snprintf(on->c[i].why, sizeof on->c[i].why, "no thread to compile it");
			}
		on->cmp_state = 2;
	}
	on->codes = NULL;       /* d is the caller's, closed after the open */
	*out = on;
	return FDT_OK;
}

void tn_on_join(struct tn_online *on)
{
	for (; on && on->nth > 0; on->nth--)
		pthread_join(on->th[on->nth - 1], NULL);
}

void tn_on_close(struct tn_online *on)
{
	if (!on)
		return;
	if (on->nth) {
		pthread_mutex_lock(&on->mu);
		on->quit = 1;
		pthread_mutex_unlock(&on->mu);
		tn_on_join(on);
	}
	for (int i = 0; i < on->nc; i++) {
		free(on->c[i].src);
		if (on->c[i].kern)
			rt_unload(on->c[i].kern);
		rt_prog_free(&on->c[i].prog);
	}
	if (on->timer)
		rt_timer_free(on->timer);
	if (on->res)
		tn_on_release(on);
	if (on->cmp)
		rt_unload(on->cmp);
	rt_prog_free(&on->cmp_prog);
	pthread_mutex_destroy(&on->mu);
	free(on);
}
