/*
 * tn_gpus.c: the GPUs of a sweep. It decides between a GPU sweep and a
 * compile-only one, starts one worker process per GPU asked for (they must
 * be of one model, as they share the work), records the GPUs and their copy
 * bandwidth (calibrated where missing, every GPU at the same time), and
 * switches the workers to each problem of a plan when its turn comes (each
 * worker keeps the problems it opened, tn_pcache.h), with the problem's
 * host data made once by the sweep for all of them (tn_hshare.h).
 */
#define _GNU_SOURCE
#include "fdt_rc.h"
#include "tn_run.h"
#include "rt.h"

#include <stdio.h>
#include <string.h>

int tn_run_setup(struct tn_run *c, char *err, size_t n)
{
	const struct tn_sweep_opts *o = c->o;
	int ndev = 0;
	char why[256] = "";

	rt_compiler(c->compiler, sizeof c->compiler);
	if (rt_init(&ndev, why, sizeof why))
		ndev = 0;
	if (o->compile_only || ndev == 0) {
		c->arch = o->arch ? o->arch : rt_default_arch();
		if (!o->compile_only && o->ndev) {      /* GPUs asked for by number */
			snprintf(err, n, "--devices (-d) names GPUs, but there is no %s GPU here%s%s;"
				 " leave it out for a compile-only sweep", rt_platform(),
				 *why ? ": " : "", why);
			return FDT_FAIL;
		}
		if (!o->compile_only && o->recheck) {   /* refused before it is announced */
			snprintf(err, n, "--recheck times recorded configurations again on a GPU, "
				 "and there is no %s GPU here%s%s: run it where the GPU is",
				 rt_platform(), *why ? ": " : "", why);
			return FDT_FAIL;
		}
		if (!o->compile_only)
			fprintf(stderr, "fdtune: no %s GPU here%s%s; running a compile-only sweep "
				"for %s: every build and its resources are recorded, nothing "
				"is timed%s\n", rt_platform(), *why ? ": " : "", why, c->arch,
				(o->strategy_set && o->strategy != TN_EXHAUSTIVE) || o->evals_set ?
				" (-s and --evals, which steer GPU sweeps, do not apply)" : "");
		return FDT_OK;
	}
	c->nwk = o->ndev > 0 ? o->ndev : 1;
	for (int w = 0; w < c->nwk; w++)        /* none open: a refusal below closes none */
		c->wk[w].to = c->wk[w].from = -1;
	for (int w = 0; w < c->nwk; w++) {
		struct tn_wk *k = &c->wk[w];
		k->device = o->ndev > 0 ? o->devices[w] : 0;
		k->exe = o->exe;
		if (k->device >= ndev) {
			snprintf(err, n, "GPU %d: only %d GPU(s) present (0..%d)", k->device, ndev,
				 ndev - 1);
			return FDT_FAIL;
		}
		for (int v = 0; v < w; v++)
			if (c->wk[v].device == k->device) {
				snprintf(err, n, "--devices names GPU %d twice", k->device);
				return FDT_FAIL;
			}
	}
	/* every worker starts at once (each initialises its GPU); tn_run_hello
	 * takes their answers */
	for (int w = 0; w < c->nwk; w++)
		if (tn_wk_start(&c->wk[w], err, n))
			return FDT_FAIL;
	return FDT_OK;
}

int tn_run_hello(struct tn_run *c, char *err, size_t n)
{
	if (!c->nwk)                    /* compile-only */
		return FDT_OK;
	for (int w = 0; w < c->nwk; w++) {
		struct tn_wk *k = &c->wk[w];
		if (tn_wk_hello(k, err, n))
			return FDT_FAIL;
		if (w && strcmp(k->dev.name, c->wk[0].dev.name)) {
			snprintf(err, n, "GPUs %d and %d differ (%s, %s): the GPUs of one sweep share "
				 "out its space, so they must be of one model; run one sweep per model",
				 c->wk[0].device, k->device, c->wk[0].dev.name, k->dev.name);
			return FDT_FAIL;
		}
	}
	c->gpu = 1;
	c->arch = c->wk[0].dev.arch;
	return FDT_OK;
}

int tn_run_devices(struct tn_run *c, char *err, size_t n)
{
	int cal[TN_MAXDEV] = { 0 };
	for (int w = 0; w < c->nwk; w++) {
		const struct rt_dev *d = &c->wk[w].dev;
		struct db_device dd = { d->vendor, d->name, d->arch, d->uuid, d->sms, d->mem, d->l2,
			d->lds_block, d->max_threads };
		if (db_device_id(c->db, &dd, &c->dev_id[w], err, n) ||
		    db_device_copy(c->db, c->dev_id[w], &c->copy[w], err, n))
			return FDT_FAIL;
		if (c->copy[w] <= 0) {
			fprintf(stderr, "fdtune: measuring the copy bandwidth of GPU %d, %s ...\n",
				c->wk[w].device, d->name);
			if (tn_wk_calibrate_ask(&c->wk[w], err, n))
				return FDT_FAIL;
			cal[w] = 1;
		}
	}
	/* every GPU asked is calibrating now; collect the answers */
	for (int w = 0; w < c->nwk; w++) {
		const struct rt_dev *d = &c->wk[w].dev;
		double mgbs;
		long long bytes;
		if (cal[w] && (tn_wk_calibrate_get(&c->wk[w], &c->copy[w], &mgbs, &bytes, err, n) ||
			       db_device_set_copy(c->db, c->dev_id[w], c->copy[w], mgbs, bytes, err,
						  n)))
			return FDT_FAIL;
		fprintf(stderr, "fdtune: GPU %d: %s (%s), copy bandwidth %.0f GB/s\n",
			c->wk[w].device, d->name, d->arch, c->copy[w]);
	}
	return FDT_OK;
}

/* What worker w's cache needs to know; data: the path of the job's host
 * data made and shared by the sweep (tn_hshare_get), or "". */
static struct tn_wk_cache cache_of(const struct tn_run *c, int w, const char *data)
{
	struct tn_wk_cache wc = { c->copy[w], c->o->places > 0 ? c->o->places : TN_PLACES,
				  c->nwk, "" };
	snprintf(wc.data, sizeof wc.data, "%s", data);
	return wc;
}

/* Into path, where the workers find job j's host data (made now if the
 * sweep's thread has not made it yet); "" where none is shared. */
static void data_of(const struct tn_run *c, int j, char *path, size_t n)
{
	if (c->hs)
		tn_hshare_get(c->hs, j, path, n);
	else if (n)
		*path = 0;
}

int tn_run_open(struct tn_run *c, int j, char *err, size_t n)
{
	const struct tn_problem *pb = c->jobs[j].pb;
	char data[64];
	int rc = 0;
	if (c->opened == j)
		return FDT_OK;
	c->opened = -1;
	data_of(c, j, data, sizeof data);       /* once for all the workers */
	for (int w = 0; w < c->nwk && !rc; w++)
		if (c->wk[w].pid > 0) {
			const struct tn_wk_cache wc = cache_of(c, w, data);
			rc = tn_wk_open_ask(&c->wk[w], pb, j, &wc, err, n);
			c->asked[w] = !rc;
		}
	if (rc) {
		char e2[1024];
		(void)tn_run_opened(c, e2, sizeof e2);  /* the others' answers, read */
		return FDT_FAIL;
	}
	c->opened = j;
	return FDT_OK;
}

int tn_run_opened(struct tn_run *c, char *err, size_t n)
{
	int rc = 0;
	/* the workers switch at once: a problem each holds costs nothing, one
	 * not held is built (its fields uploaded from the host data the sweep
	 * made, tn_hshare.h) by each at the same time, while the pool compiles
	 * the step's first configurations */
	for (int w = 0; w < c->nwk; w++) {
		char e2[1024];
		if (c->asked[w] && tn_wk_open_get(&c->wk[w], e2, sizeof e2) && !rc++)
			snprintf(err, n, "%s", e2);
		c->asked[w] = 0;
	}
	if (rc)
		c->opened = -1;
	return rc != 0;
}

int tn_run_worker_up(struct tn_run *c, int w, char *err, size_t n)
{
	struct tn_wk *k = &c->wk[w];
	char data[64];
	if (k->pid > 0)
		return FDT_OK;
	data_of(c, (int)(c->cur - c->jobs), data, sizeof data);
	const struct tn_wk_cache wc = cache_of(c, w, data);
	if (k->starts)
		c->restarts++;
	/* a new process holds no problem: the current one is built in it */
	return tn_wk_spawn(k, err, n) ||
	       tn_wk_open(k, c->cur->pb, c->cur - c->jobs, &wc, err, n);
}
