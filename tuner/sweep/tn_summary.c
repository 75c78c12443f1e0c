/*
 * tn_summary.c: what a sweep says at its end (tn_run.h): configurations per
 * second over the wall clock of the command and over its steps, the time
 * shares summed over configurations, how often the workers built the
 * problems' fields and references, the compiles under way on average in
 * the steps, each problem's own rate and best, and compile-only the
 * resources of the builds.
 */
#define _GNU_SOURCE
#include "tn_run.h"
#include "tn_cproc.h"
#include "tn_cache.h"

#include <math.h>
#include <stdio.h>

/* What the sweep did: configurations per second over the plan and per
 * problem, the time shares, and compile-only the resources of the builds. */
void tn_summary(const struct tn_run *c)
{
	const struct tn_sweep_opts *o = c->o;
	const char *cache = tn_cache_dir();
	long long done = 0, cached = 0, built = 0, shared = 0;
	double tt = 0, tb = 0, tc = 0, ti = 0, wall = tn_now_s() - c->t_begin;
	int rmin = 0, rmax = 0, lmax = 0, nspill = 0, k;
	for (int i = 0; i < c->njobs; i++) {
		const struct tn_job *j = &c->jobs[i];
		done += j->done;
		cached += j->cached;
		shared += j->shared;
		built += j->count[7];
		tt += j->t_wall;
		tb += j->t_build;
		tc += j->t_check;
		ti += j->t_time;
		if (j->count[7]) {
			rmin = rmin && rmin < j->rmin ? rmin : j->rmin;
			rmax = rmax > j->rmax ? rmax : j->rmax;
		}
		lmax = lmax > j->lmax ? lmax : j->lmax;
		nspill += j->nspill;
	}
	if (!done)
		return;
	/* the wall clock from the start of the command's sweep: set-up, opening
	 * problems and the end included, as a user times it */
	fprintf(stderr, "fdtune: %lld configurations in %.1f s of wall clock, %.1f per second "
		"(%.1f s in the sweep's steps); summed over configurations: compile %.1f s on %d "
		"threads (%lld the build of another configuration of the same source, %lld from "
		"the cache%s%s)", done, wall, done / (wall > 0 ? wall : 1e-9), tt, tb, o->jobs, shared,
		cached, cache ? " in " : "", cache ? cache : ", which is off");
	if (c->gpu)
		fprintf(stderr, ", validate %.1f s, time %.1f s on %d GPU(s); workers restarted "
			"%lld times", tc, ti, c->nwk, c->restarts);
	fputc('\n', stderr);
	if (c->gpu) {
		long long b = 0, h = 0, e = 0;
		double os[3] = { 0, 0, 0 };
		/* the wall clock outside the steps, before the first */
		fprintf(stderr, "fdtune: %.1f s before the first step: workers up %.1f s, problems "
			"and database %.1f s, copy bandwidth %.1f s, sweeps begun %.1f s; %.1f s "
			"between and after the steps\n", c->t0 - c->t_begin, c->t_up - c->t_begin,
			c->t_db - c->t_up, c->t_cal - c->t_db, c->t0 - c->t_cal,
			c->t_end - c->t0 - tt);
		for (int w = 0; w < c->nwk; w++) {
			b += c->wk[w].built;
			for (int i = 0; i < 3; i++)
				os[i] += c->wk[w].open_s[i];
			h += c->wk[w].hits;
			e += c->wk[w].evicted;
		}
		if (c->hs) {
			struct tn_hshare_stats hs;
			char gr[96] = "";
			int ng = 0;
			tn_hshare_stats(c->hs, &hs);
			for (int j = 0; j < c->njobs; j++)
				ng += tn_hdata_gpu_ref(c->jobs[j].pb);
			if (ng)
				snprintf(gr, sizeof gr, " (%d of them with their reference made on the "
					 "GPU instead)", ng);
			fprintf(stderr, "fdtune: fields and CPU references made %d times for %d "
				"problem(s)%s in %.1f s, shared by %d GPU(s); the sweep waited %.1f s "
				"for them, %d released for room\n", hs.made, c->njobs, gr, hs.make_s,
				c->nwk, hs.wait_s, hs.released);
		}
		/* what the GPUs' pace lost to the sweep: the time each held no job,
		 * and the time it validated and timed (the rest of a held job is
		 * the worker's reading and loading of the code) */
		fprintf(stderr, "fdtune: of the steps' %.1f s, GPU", tt);
		for (int w = 0; w < c->nwk; w++)
			fprintf(stderr, "%s %d held a configuration %.0f%% and measured %.0f%%",
				w ? "," : "", c->wk[w].device,
				tt > 0 ? 100 * c->wk[w].busy_s / tt : 0.0,
				tt > 0 ? 100 * c->wk[w].work_s / tt : 0.0);
		fputc('\n', stderr);
		/* where the rest went: the steps' edges (a switch, a drain) or
		 * between two runs of a step (the sweep or its pool late) */
		fprintf(stderr, "fdtune: held no configuration: GPU");
		for (int w = 0; w < c->nwk; w++)
			fprintf(stderr, "%s %d %.1f s at the steps' starts, %.1f s at their ends, %.1f s "
				"between runs", w ? "," : "", c->wk[w].device, c->wk[w].edge_s[0],
				c->wk[w].edge_s[1],
				tt - c->wk[w].busy_s - c->wk[w].edge_s[0] - c->wk[w].edge_s[1]);
		fputc('\n', stderr);
		if (c->nsteps)
			fprintf(stderr, "fdtune: at the starts of %d steps: the workers had switched "
				"after %.1f s, the first runs were given after %.1f s (summed)\n",
				c->nsteps, c->sw_s, c->first_s);
		fprintf(stderr, "fdtune: fields put on the GPUs %lld times for %d problem(s) on "
			"%d GPU(s) in %.1f s (summed: host data %.1f s, check kernel and GPU "
			"reference %.1f s, fields %.1f s); %lld switches found them held, %lld "
			"released for room\n", b,
			c->njobs, c->nwk, os[0] + os[1] + os[2], os[0], os[1], os[2], h, e);
		if (c->warmed)
			fprintf(stderr, "fdtune: %lld configurations compiled ahead into the compile "
				"cache for later steps, while steps waited for their GPUs or left "
				"threads idle (FDTUNE_WARM=0: not)\n", c->warmed);
		if (c->filled)
			fprintf(stderr, "fdtune: %lld configurations run by GPUs that would have "
				"waited for compiles, with the code of another configuration of "
				"their source (FDTUNE_FILL=0: not)\n", c->filled);
		if (c->yields)
			fprintf(stderr, "fdtune: %lld step%s bound by compiles yielded the GPUs "
				"to a problem whose code was built, which then ran %lld of its "
				"built configurations (FDTUNE_YIELD=0: not)\n", c->yields,
				c->yields > 1 ? "s" : "", c->yield_runs);
		if (c->comp_s > 0 && tt > 0)
			fprintf(stderr, "fdtune: the steps' pools had %.1f compiles under way on "
				"average, of %d threads\n", c->comp_s / tt, c->o->jobs);
	}
	if ((k = tn_cproc_count()) > 0)        /* (the helpers end after this) */
		fprintf(stderr, "fdtune: the compiles ran in %d compile process%s "
			"(FDTUNE_COMPILE_PROCS=0: in this process's threads)\n", k,
			k > 1 ? "es" : "");
	for (int i = 0; i < c->njobs; i++)
		if (c->jobs[i].others)
			fprintf(stderr, "fdtune: %s: %lld configurations were recorded meanwhile by "
				"another sweep of this problem; they are not recorded twice\n",
				c->jobs[i].name, c->jobs[i].others);
	for (int i = 0; c->njobs > 1 && i < c->njobs; i++) {
		const struct tn_job *j = &c->jobs[i];
		fprintf(stderr, "fdtune: problem %d/%d %s: %lld configurations in %.1f s, %.1f "
			"per second", i + 1, c->njobs, j->name, j->done, j->t_wall,
			j->done / (j->t_wall > 0 ? j->t_wall : 1e-9));
		if (!isnan(j->best_gbs))
			fprintf(stderr, ", best %.0f GB/s (%.1f%% of copy)", j->best_gbs, j->best_pct);
		fputc('\n', stderr);
	}
	if (!c->gpu && built)
		fprintf(stderr, "fdtune: compile-only for %s: registers %d..%d per thread, LDS up "
			"to %d bytes, %d of %lld builds spill; each build is in the builds table of "
			"%s (nothing was timed, so fdtune best has no rows)\n", c->arch, rmin, rmax,
			lmax, nspill, built, o->db_path);
}
