/*
 * tn_online_save.c: what an online tuning learned, kept in a database as
 * fdtune keeps a sweep's outcomes: one sweep of mode 'gpu' whose cmdline
 * begins with DB_ONLINE_CMD (then the program's command line), and for
 * every candidate that was tried its configuration, its build (with its
 * source, so that it can be exported and compiled again) and its run: ok
 * with the median, fastest and slowest of its timings, or the failure that
 * dropped it (compile_error, load_error, launch_error, wrong_result) with
 * its message. The sweep's message says what was chosen, against the
 * program's own kernel, after how many steps and at what cost. A later
 * run finds these records first (db_each_online) and starts tuned.
 */
#define _GNU_SOURCE
#include "fdt_rc.h"
#include "tn_online.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The run status a dropped candidate's message stands for. */
static const char *failure(const struct tn_on_cand *c)
{
	if (c->state == TN_ON_FAILED)
		return "compile_error";
	if (!strncmp(c->why, "validation", 10))
		return "wrong_result";
	if (!strncmp(c->why, "load", 4))
		return "load_error";
	return "launch_error";
}

static int min_max(const struct tn_on_cand *c, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = 0;
	for (int k = 0; k < c->nt; k++) {
		*lo = c->ms[k] < *lo ? c->ms[k] : *lo;
		*hi = c->ms[k] > *hi ? c->ms[k] : *hi;
	}
	return c->nt > 0;
}

/* Records candidate c of on's sweep sid: its build and its run. */
static int keep(struct tn_online *on, struct db *d, long long sid, long long dev, long long prob,
		double copy, const struct tn_on_cand *c, char *err, size_t n)
{
	const struct tn_family *f = on->pb.fam;
	const double pts = (double)on->pb.nx * on->pb.ny * on->pb.nz;
	char compiler[64];
	struct db_build b;
	struct db_run r;
	long long cfg, bid;
	int ok = c->state == TN_ON_VALID && c->nt > 0;

	rt_compiler(compiler, sizeof compiler);
	if (db_config_id(d, f->name, c->params, &cfg, err, n))
		return FDT_FAIL;
	memset(&b, 0, sizeof b);
	b.config_id = cfg;
	b.sweep_id = sid;
	b.compiler = b.compiler_version = compiler;
	b.arch = on->arch;
	b.options = c->prog.options;
	b.source_hash = c->hash;
	b.compile_ms = c->prog.code ? c->prog.ms : NAN;
	b.regs = c->prog.code ? c->prog.regs : -1;
	b.lds_bytes = c->prog.code && c->prog.lds >= 0 ? c->prog.lds + c->lds : -1;
	b.spill_bytes = c->prog.code ? c->prog.spill : -1;
	b.status = c->state == TN_ON_FAILED ? "compile_error" : "ok";
	b.log = c->state == TN_ON_FAILED ? c->why : c->prog.log;
	if (db_build_add(d, &b, &bid, err, n) || (c->src && db_source_put(d, c->hash, c->src, err, n)))
		return FDT_FAIL;
	memset(&r, 0, sizeof r);
	r.sweep_id = sid;
	r.build_id = bid;
	r.device_id = dev;
	r.problem_id = prob;
	r.config_id = cfg;
	r.status = ok ? "ok" : failure(c);
	r.message = ok ? "timed in the program's time steps" : c->why;
	r.median_ms = r.min_ms = r.max_ms = r.gbs = r.mcells = r.pct_copy = NAN;
	r.max_err = r.err_bound = NAN;
	r.reps = -1;
	if (ok) {
		r.median_ms = tn_on_median(on, (int)(c - on->c));
		min_max(c, &r.min_ms, &r.max_ms);
		r.reps = c->nt;
		r.gbs = f->bytes(&on->pb, c->v) / (r.median_ms * 1e-3) * 1e-9;
		r.mcells = pts / (r.median_ms * 1e-3) * 1e-6;
		r.pct_copy = copy > 0 ? 100 * r.gbs / copy : NAN;
	}
	return db_run_add(d, &r, NULL, err, n);
}

int tn_on_save(struct tn_online *on, const char *path, const char *cmdline, char *err, size_t n)
{
	struct db *d = NULL;
	const struct rt_dev *v = &on->dev;
	struct db_device dd = { v->vendor, v->name, v->arch, v->uuid, v->sms, v->mem, v->l2,
		v->lds_block, v->max_threads };
	char host[256] = "", cmd[1024], msg[1024];
	long long dev, prob, sid;
	double copy = 0;
	int rc = FDT_FAIL;

	if (!on->settled || !*v->name || on->gpu < 0)
		return snprintf(err, n, "nothing to keep: %s", !*v->name ? "no GPU" :
				on->gpu < 0 ? "no candidate ran (see the report)" :
				"the tuning has not settled"), FDT_NOMATCH;
	if (gethostname(host, sizeof host - 1))
		snprintf(host, sizeof host, "unknown");
	snprintf(cmd, sizeof cmd, "%s %.900s", DB_ONLINE_CMD, cmdline ? cmdline : "");
	if (on->chosen == TN_ON_DEFAULT)
		snprintf(msg, sizeof msg, "chosen: the program's own kernel, %.4f ms a step; the "
			 "fastest candidate %.4f ms; after %lld steps, the tuning cost %.3f ms",
			 tn_on_median(on, TN_ON_DEFAULT), on->nc ? tn_on_best(on) : NAN,
			 on->steps_tuning, on->cost_ms);
	else
		snprintf(msg, sizeof msg, "chosen: %.400s, %.4f ms a step; the program's own "
			 "kernel %.4f ms; after %lld steps, the tuning cost %.3f ms",
			 on->c[on->chosen].params, tn_on_median(on, on->chosen),
			 tn_on_median(on, TN_ON_DEFAULT), on->steps_tuning, on->cost_ms);
	if (db_open(path, &d, err, n) || db_device_id(d, &dd, &dev, err, n) ||
	    db_device_copy(d, dev, &copy, err, n) ||
	    db_problem_id(d, on->pb.fam->name, on->pb.r, on->pb.nx, on->pb.ny, on->pb.nz,
			  on->pb.prec, &prob, err, n) ||
	    db_sweep_begin(d, cmd, host, dev, prob, "gpu", &sid, err, n))
		goto out;
	pthread_mutex_lock(&on->mu);
	for (int i = 0; i < on->nc && rc == FDT_FAIL; i++) {
		const struct tn_on_cand *c = &on->c[i];
		int tried = (c->state == TN_ON_VALID && c->nt > 0) || c->state == TN_ON_FAILED ||
			    (c->state == TN_ON_DROPPED && c->prog.code);
		if (tried && keep(on, d, sid, dev, prob, copy, c, err, n))
			rc = -1;
	}
	pthread_mutex_unlock(&on->mu);
	if (rc == -1) {
		char e2[256];
		(void)db_sweep_end(d, sid, "failed", on->nc, -1, err, e2, sizeof e2);
		rc = FDT_FAIL;
		goto out;
	}
	rc = db_sweep_end(d, sid, "done", on->nc, -1, msg, err, n);
out:
	db_close(d);
	return rc;
}
