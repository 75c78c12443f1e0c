/*
 * tn_steps.c: the step log. With FDTUNE_STEPS=FILE a sweep writes into FILE
 * a tab-separated line for each step it runs (a header line first): where
 * a plan's wall clock went, step by step, which the closing lines only sum.
 * A step is a share of one problem's search (tn_step); a plan interleaves
 * its problems' steps. The columns:
 *
 *   step       1, 2, ... in the order run
 *   problem    the job's number in the plan (1-based)
 *   name       the problem ("xyz R=4 512x512x512 fp32")
 *   t_s        the step's start, seconds from the sweep's
 *   wall_s     its wall clock, the switch to its problem included
 *   share      the configurations it may propose (0: all it has left)
 *   proposed   configurations its search proposed or fills took
 *   runs       outcomes recorded
 *   fills      runs given to GPUs that would have waited (tn_fill.c)
 *   compiled   runs whose code was compiled in the step (neither from the
 *              compile cache nor another configuration's build)
 *   warmed     configurations the warm pool compiled ahead meanwhile
 *   under_way  the step pool's compiles under way, on average (on a GPU)
 *   idle_s     each GPU's seconds without a configuration between runs,
 *              comma-separated ("-" without GPUs)
 *   edge_s     each GPU's seconds without one at the step's start and end
 *   yield      the problem (its number) the step yielded to, bound by its
 *              compiles (tn_yield.c), 0: none; "ready" for a step that ran
 *              only configurations already built, after such a yield
 *   warm_uw    the warm pool's compiles under way, on average (tn_warm.c)
 *   cpu        the sweep process's CPU seconds over the step's wall clock:
 *              the cores it kept busy on average, its compile threads'
 *              and compile processes' (tn_cproc.c) included,
 *              the GPU workers' (processes of their own) not
 *
 * Contract: tn_steps_open reads FDTUNE_STEPS (unset or empty: no log) and
 * truncates the file; tn_steps_mark notes the counters before a step,
 * tn_steps_line writes its line after it; tn_steps_close closes the file.
 * A line is flushed as written, so a killed sweep keeps its steps so far.
 */
#include "fdt_rc.h"
#include "tn_run.h"
#include "tn_cproc.h"

#include <errno.h>
#include <stdio.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>

int tn_steps_open(struct tn_run *c, char *err, size_t n)
{
	const char *path = getenv("FDTUNE_STEPS");
	if (!path || !*path)
		return FDT_OK;
	if (!(c->steps = fopen(path, "w"))) {
		snprintf(err, n, "FDTUNE_STEPS=%s: %s; give a file that can be written, or unset "
			 "it (the step log is optional)", path, strerror(errno));
		return FDT_FAIL;
	}
	fputs("step\tproblem\tname\tt_s\twall_s\tshare\tproposed\truns\tfills\tcompiled\t"
	      "warmed\tunder_way\tidle_s\tedge_s\tyield\twarm_uw\tcpu\n", c->steps);
	fflush(c->steps);
	return FDT_OK;
}

/* The process's CPU seconds so far, user and system, every thread's and
 * its compile processes' (tn_cproc.c). */
static double cpu_now(void)
{
	struct rusage u;
	if (getrusage(RUSAGE_SELF, &u))
		return 0;       /* (cannot fail for RUSAGE_SELF) */
	return (double)u.ru_utime.tv_sec + u.ru_utime.tv_usec * 1e-6 +
	       (double)u.ru_stime.tv_sec + u.ru_stime.tv_usec * 1e-6 + tn_cproc_cpu_s();
}

/* Runs of j whose code was compiled (neither cached nor shared). */
static long long compiled(const struct tn_job *j)
{
	return j->done - j->cached - j->shared;
}

void tn_steps_mark(const struct tn_run *c, const struct tn_job *j, struct tn_steps_mark *m)
{
	m->t = tn_now_s();
	m->proposed = j->proposed;
	m->done = j->done;
	m->built = compiled(j);
	m->filled = c->filled;
	m->warmed = c->warmed;
	m->comp_s = c->comp_s;
	m->warm_s = c->warm_s;
	m->cpu_s = c->steps ? cpu_now() : 0;
	for (int w = 0; w < c->nwk; w++) {
		m->wk_busy[w] = c->wk[w].busy_s;
		m->wk_edge[w] = c->wk[w].edge_s[0] + c->wk[w].edge_s[1];
	}
}

/* Writes each GPU's seconds: between runs (what) 0, at the edges 1. */
static void per_gpu(const struct tn_run *c, const struct tn_steps_mark *m, double wall, int what)
{
	if (!c->nwk || !c->gpu) {
		fputs("-", c->steps);
		return;
	}
	for (int w = 0; w < c->nwk; w++) {
		double e = c->wk[w].edge_s[0] + c->wk[w].edge_s[1] - m->wk_edge[w];
		double b = c->wk[w].busy_s - m->wk_busy[w], x = what ? e : wall - b - e;
		fprintf(c->steps, "%s%.2f", w ? "," : "", x > 0 ? x : 0.0);
	}
}

void tn_steps_line(struct tn_run *c, const struct tn_job *j, const struct tn_steps_mark *m,
		   long long share)
{
	double wall = tn_now_s() - m->t;
	if (!c->steps)
		return;
	c->nlog++;
	fprintf(c->steps, "%d\t%d\t%s\t%.2f\t%.2f\t%lld\t%lld\t%lld\t%lld\t%lld\t%lld\t%.1f\t",
		c->nlog, (int)(j - c->jobs) + 1, j->name, m->t - c->t_begin, wall,
		share > 0 ? share : 0, j->proposed - m->proposed, j->done - m->done,
		c->filled - m->filled, compiled(j) - m->built,
		c->warmed - m->warmed, wall > 0 ? (c->comp_s - m->comp_s) / wall : 0.0);
	per_gpu(c, m, wall, 0);
	fputc('\t', c->steps);
	per_gpu(c, m, wall, 1);
	if (c->ready)
		fputs("\tready", c->steps);
	else
		fprintf(c->steps, "\t%d", c->yield_to >= 0 ? c->yield_to + 1 : 0);
	fprintf(c->steps, "\t%.1f\t%.1f\n", wall > 0 ? (c->warm_s - m->warm_s) / wall : 0.0,
		wall > 0 ? (cpu_now() - m->cpu_s) / wall : 0.0);
	fflush(c->steps);
}

void tn_steps_close(struct tn_run *c)
{
	if (c->steps)
		fclose(c->steps);
	c->steps = NULL;
}
