/*
 * tn_record.c: every build and every run of a sweep written to the
 * database as soon as it exists, so an interrupted sweep loses nothing it
 * finished, and each outcome counted for the job (problem) it belongs to,
 * told to that job's search and shown by the progress display. A worker
 * that died or overran its time is recorded against its configuration,
 * unless a stop signal killed it: that outcome is unknown and left for the
 * resumed sweep.
 */
#define _GNU_SOURCE
#include "fdt_rc.h"
#include "tn_run.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const tn_outcome[TN_NOUT] = { "ok", "compile_error", "load_error",
	"launch_error", "wrong_result", "resource_limit", "timeout", "built" };

static void tally(struct tn_job *j, const char *s)
{
	for (int i = 0; i < TN_NOUT; i++)
		if (!strcmp(tn_outcome[i], s))
			j->count[i]++;
}

/* The time a run may take before its worker is killed: the --timeout
 * floor plus 2000 launches of the job's best kernel so far, more where a
 * contender's placements may time more than 6 x 300 launches (6x the floor
 * before any kernel is timed). */
double tn_limit_s(const struct tn_run *c)
{
	const double best = c->cur->best_ms;
	const int p = c->o->places > 0 ? c->o->places : TN_PLACES;
	return best > 0 ? c->o->timeout_s + 2.0 * best * (p > 6 ? p / 6.0 : 1.0) :
			  6 * c->o->timeout_s;
}

static void empty_result(struct tn_result *r, const char *status)
{
	memset(r, 0, sizeof *r);
	r->status = status;
	r->median = r->min = r->max = r->gbs = r->mcells = r->pct = NAN;
	r->max_err = r->bound = NAN;
	r->reps = -1;
}

/* Records the build of it (its configuration first), with its static and
 * dynamic LDS bytes (the compiler reports only the static). */
static int record_build(struct tn_run *c, struct tn_item *it, char *err, size_t n)
{
	struct tn_job *j = c->cur;
	const struct tn_family *f = j->pb->fam;
	char json[512];
	struct db_build b;

	if (j->rjson)
		snprintf(json, sizeof json, "%s", j->rjson[it->idx]);
	else
		tn_config_json(f, it->v, json, sizeof json);
	j->cached += it->cached;
	j->shared += it->shared;
	j->t_build += it->build_s;
	if (db_config_id(c->db, f->name, json, &it->cfg_id, err, n))
		return FDT_FAIL;
	memset(&b, 0, sizeof b);
	b.config_id = it->cfg_id;
	b.sweep_id = j->sweep_id;
	b.compiler = c->compiler;
	b.compiler_version = c->compiler;
	b.arch = c->arch;
	b.options = it->prog.options;
	b.source_hash = it->bad_gen ? "" : it->hash;
	b.compile_ms = it->prog.ms;
	b.regs = it->prog.regs;
	b.lds_bytes = it->prog.lds < 0 ? -1 : it->prog.lds + tn_dyn_lds(c->cur->pb, it->v);
	b.spill_bytes = it->prog.spill;
	b.status = it->bad_gen ? "gen_error" : it->bad_compile ? "compile_error" : "ok";
	b.log = it->bad_gen || it->bad_compile ? it->err : it->prog.log;
	if (it->bad_compile && it->prog.log && *it->prog.log)
		b.log = it->prog.log;
	/* compile-only, a build another sweep of this problem recorded meanwhile
	 * is not recorded again (build_id 0) */
	if (!c->gpu && !c->o->force)
		return db_build_add_once(c->db, &b, j->prob_id, &it->build_id, err, n) != 0;
	return db_build_add(c->db, &b, &it->build_id, err, n) != 0;
}

/* Records the run of it on worker w's GPU and reports it to the search. */
static int record_run(struct tn_run *c, struct tn_item *it, int w, const struct tn_result *res,
		      char *err, size_t n)
{
	struct tn_job *j = c->cur;
	struct db_run r;
	long long id;
	int keep;
	memset(&r, 0, sizeof r);
	r.sweep_id = j->sweep_id;
	r.build_id = it->build_id;
	r.device_id = c->dev_id[w];
	r.problem_id = j->prob_id;
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
	/* a contender (as tn_bench.c times one on placements), or any run of
	 * --recheck: what can become a record worth exporting, so its source is
	 * kept (db_source_put), for an export after the templates change */
	keep = it->ms > 0 && it->src && (c->o->recheck ||
					   j->best_ms <= 0 || it->ms < TN_PLACES_GATE * j->best_ms);
	if (it->ms > 0 && (j->best_ms <= 0 || it->ms < j->best_ms))
		j->best_ms = it->ms;
	if (!isnan(res->gbs) && it->ms > 0 && (isnan(j->best_gbs) || res->gbs > j->best_gbs)) {
		j->best_gbs = res->gbs;
		j->best_pct = res->pct;
	}
	tn_search_report(j->search, it->idx, it->ms);
	j->done++;
	id = 1;
	if (c->o->force || c->o->recheck ? db_run_add(c->db, &r, &id, err, n) :
	    db_run_add_once(c->db, &r, &id, err, n))
		return FDT_FAIL;
	if (keep && db_source_put(c->db, it->hash, it->src, err, n))
		return FDT_FAIL;
	if (id > 0 && res->energy) {
		const double pts = (double)j->pb->nx * j->pb->ny * j->pb->nz;
		const struct rt_power_state *ps = &res->e.state;
		struct db_energy e = { res->esrc, res->e.joules_launch,
			res->e.joules_launch / (pts * 1e-9), res->e.watts, res->e.spread,
			res->e.seconds, res->e.windows, ps->limit_w > 0 ? ps->limit_w : NAN,
			ps->sm_mhz > 0 ? ps->sm_mhz : NAN, ps->mem_mhz > 0 ? ps->mem_mhz : NAN };
		if (db_energy_add(c->db, id, &e, err, n))
			return FDT_FAIL;
	}
	if (id)
		tally(j, res->status);
	else
		j->others++;
	tn_progress_step(&c->pr, res->gbs, res->pct);
	return FDT_OK;
}

int tn_start_item(struct tn_run *c, struct tn_item *it, int *gpu, char *err, size_t n)
{
	struct tn_job *j = c->cur;
	int bad = it->bad_gen || it->bad_compile;
	*gpu = 0;
	if (record_build(c, it, err, n))
		return FDT_FAIL;
	if (!c->gpu && !it->build_id) {
		j->others++;
		j->done++;
		tn_search_report(j->search, it->idx, -1);
		tn_progress_step(&c->pr, NAN, NAN);
		return FDT_OK;
	}
	if (!c->gpu) {
		tally(j, bad ? "compile_error" : "built");
		if (!bad) {
			j->rmin = j->rmin && j->rmin < it->prog.regs ? j->rmin : it->prog.regs;
			j->rmax = j->rmax > it->prog.regs ? j->rmax : it->prog.regs;
			long long l = it->prog.lds + tn_dyn_lds(c->cur->pb, it->v);
			j->lmax = j->lmax > l ? j->lmax : (int)l;
			j->nspill += it->prog.spill > 0;
		}
		j->done++;
		tn_search_report(j->search, it->idx, -1);
		tn_progress_step(&c->pr, NAN, NAN);
		return FDT_OK;
	}
	if (bad) {
		struct tn_result res;
		empty_result(&res, "compile_error");
		snprintf(res.msg, sizeof res.msg, "%.500s", it->err);
		return record_run(c, it, 0, &res, err, n);
	}
	*gpu = 1;
	tn_yield_built(c, j, it->v);
	return FDT_OK;
}

int tn_finish(struct tn_run *c, int w, char *err, size_t n)
{
	struct tn_wk *k = &c->wk[w];
	struct tn_item *it = k->job;
	struct tn_wk_done d;
	int rc, dead = tn_wk_read(k, &d);
	k->t_answer = tn_now_s();
	k->busy_s += k->t_answer - k->t_job;
	if (dead && (tn_stop_signal || k->sig == SIGINT || k->sig == SIGTERM || k->sig == SIGHUP)) {
		/* stopped by the user's signal (to the sweep or its process group),
		 * not by its kernel: the outcome is unknown, so nothing is recorded
		 * and a resumed sweep measures it */
		fprintf(stderr, "\nfdtune: GPU %d: %s while measuring a configuration; not "
			"recorded, the same command measures it\n", k->device, k->why);
		tn_search_report(c->cur->search, it->idx, -1);
		k->job = NULL;
		tn_item_clear(it);
		free(it);
		return FDT_OK;
	}
	if (dead) {
		empty_result(&d.res, "launch_error");
		snprintf(d.res.msg, sizeof d.res.msg, "%s while measuring this configuration",
			 k->why);
	} else {
		c->cur->t_check += d.check_s;
		c->cur->t_time += d.time_s;
		k->work_s += d.check_s + d.time_s;
		if (*d.energy_err)
			fprintf(stderr, "\nfdtune: GPU %d: energy is not measured: %s; the runs are "
				"timed as without --energy\n", k->device, d.energy_err);
		if (d.fatal)            /* it exits: its GPU context is lost */
			tn_wk_kill(k);
	}
	k->job = NULL;
	rc = record_run(c, it, w, &d.res, err, n);
	tn_item_clear(it);
	free(it);
	return rc;
}

int tn_overrun(struct tn_run *c, int w, char *err, size_t n)
{
	struct tn_wk *k = &c->wk[w];
	struct tn_item *it = k->job;
	struct tn_result res;
	double best = c->cur->best_ms;
	int rc;
	k->t_answer = tn_now_s();      /* its run ended here: the idle of a step's end
					 * counts from it (tn_loop.c) */
	k->busy_s += k->t_answer - k->t_job;
	tn_wk_kill(k);
	empty_result(&res, "timeout");
	snprintf(res.msg, sizeof res.msg, "killed after %.1f s, over the limit of --timeout %.0f s "
		 "+ 2000 x the best median so far (%.3f ms)", tn_limit_s(c), c->o->timeout_s,
		 best > 0 ? best : 0.0);
	rc = record_run(c, it, w, &res, err, n);
	tn_item_clear(it);
	free(it);
	return rc;
}
