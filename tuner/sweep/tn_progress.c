/*
 * tn_progress.c: see tn_progress.h. Writes to stderr only. The ETA is that
 * of the whole work (a plan: every problem), from the rate so far, and
 * never past the end of a budget.
 */
#define _POSIX_C_SOURCE 200809L
#include "tn_progress.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

void tn_progress_init(struct tn_progress *p, long long total, int quiet)
{
	memset(p, 0, sizeof *p);
	p->total = total;
	p->t0 = p->last = now();
	p->best_gbs = p->best_pct = NAN;
	p->tty = isatty(2);
	p->quiet = quiet;
}

void tn_progress_job(struct tn_progress *p, int i, int n, const char *name, double gbs,
		     double pct)
{
	snprintf(p->what, sizeof p->what, "problem %d/%d %s: ", i, n, name);
	p->best_gbs = gbs;
	p->best_pct = pct;
}

static void show(struct tn_progress *p, int final)
{
	double t = now(), el = t - p->t0, rate = p->done / (el > 0 ? el : 1e-9);
	double eta = rate > 0 ? (p->total - p->done) / rate : 0;
	char best[64] = "";
	if (p->end > 0 && eta > p->end - t)
		eta = p->end > t ? p->end - t : 0;
	if (!isnan(p->best_gbs))
		snprintf(best, sizeof best, "  best %.0f GB/s", p->best_gbs);
	if (!isnan(p->best_pct))
		snprintf(best + 0, sizeof best, "  best %.0f GB/s (%.1f%% of copy)",
			 p->best_gbs, p->best_pct);
	fprintf(stderr, "%s%s[%lld/%lld] %5.1f%%  %.1f cfg/s%s  %s %dm%02ds%s",
		p->tty ? "\r" : "", final ? "" : p->what, p->done, p->total,
		p->total ? 100.0 * p->done / p->total : 100.0, rate, final && *p->what ? "" : best,
		final ? "took" : "ETA", (int)(final ? el : eta) / 60,
		(int)(final ? el : eta) % 60, p->tty && !final ? "   " : "\n");
	fflush(stderr);
}

void tn_progress_step(struct tn_progress *p, double gbs, double pct)
{
	double t = now();
	p->done++;
	if (!isnan(gbs) && (isnan(p->best_gbs) || gbs > p->best_gbs)) {
		p->best_gbs = gbs;
		p->best_pct = pct;
	}
	if (p->quiet || (t - p->last < (p->tty ? 0.2 : 30.0) && p->done < p->total))
		return;
	p->last = t;
	if (p->done < p->total)
		show(p, 0);
}

void tn_progress_end(struct tn_progress *p)
{
	if (!p->quiet)
		show(p, 1);
}
