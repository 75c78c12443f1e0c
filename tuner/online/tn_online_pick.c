/*
 * tn_online_pick.c: which kernel each of the user's time steps runs while
 * an online tuning lasts (tn_online.h), and the choice at its end. A
 * candidate the thread has built is validated before anything else; then
 * the kernel with the fewest timings runs, the user's own (the default)
 * among them, in turn from the one after the last, so that the timings of
 * all interleave and a drift of the GPU's clocks touches all alike. Once
 * the default and every candidate still in the race have tries timings
 * and none is left to compile or validate, the fastest median is chosen,
 * and every later step runs it. A step that finds every kernel built timed
 * while some still compile waits for them: it runs the fastest so far,
 * untimed, so that waiting costs no synchronisation, and once a candidate
 * beats the default, not the default's deficit either. (Waiting steps are
 * not in the tuning's cost: untimed, their deficit is unknown.)
 */
#define _GNU_SOURCE
#include "tn_online.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(const double *ms, int n)
{
	double t[TN_ON_TRIES_MAX];
	if (n <= 0)
		return -1;
	memcpy(t, ms, (size_t)n * sizeof *t);
	qsort(t, (size_t)n, sizeof *t, cmp);
	return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

double tn_on_median(const struct tn_online *on, int i)
{
	return i == TN_ON_DEFAULT ? median(on->dms, on->nd) : median(on->c[i].ms, on->c[i].nt);
}

double tn_on_best(const struct tn_online *on)
{
	double best = NAN;
	for (int i = 0; i < on->nc; i++) {
		double m = on->c[i].state == TN_ON_VALID ? tn_on_median(on, i) : -1;
		if (m > 0 && !(m >= best))
			best = m;
	}
	return best;
}

/* Timings kernel i has (a large number for a candidate out of the race). */
static int timings(const struct tn_online *on, int i)
{
	if (i == TN_ON_DEFAULT)
		return on->nd;
	return on->c[i].state == TN_ON_VALID ? on->c[i].nt : 1 << 30;
}

/* The kernel with the fastest median so far, the default or a validated
 * candidate (the default where none is timed), under the lock; *best its
 * median. */
static int fastest(const struct tn_online *on, double *best)
{
	int pick = TN_ON_DEFAULT;
	*best = tn_on_median(on, TN_ON_DEFAULT);
	for (int i = 0; i < on->nc; i++) {
		double m = on->c[i].state == TN_ON_VALID ? tn_on_median(on, i) : -1;
		if (m > 0 && (*best <= 0 || m < *best)) {
			*best = m;
			pick = i;
		}
	}
	return pick;
}

/* Chooses, under the lock, once nothing is left to build, validate or
 * time; the tuning's cost is each timing's excess over the chosen's median. */
static void settle(struct tn_online *on)
{
	double best, cost = 0;
	on->chosen = fastest(on, &best);
	for (int k = 0; k < on->nd; k++)
		cost += on->dms[k] - best;
	for (int i = 0; i < on->nc; i++)
		for (int k = 0; k < on->c[i].nt; k++)
			cost += on->c[i].ms[k] - best;
	on->cost_ms = cost;
	on->settled = 1;
}

int tn_on_next(struct tn_online *on)
{
	int pick = TN_ON_DEFAULT, least, busy = 0;
	on->idle = 0;
	on->steps++;
	if (on->settled)
		return on->chosen;
	on->steps_tuning++;
	pthread_mutex_lock(&on->mu);
	for (int i = 0; i < on->nc; i++) {
		enum tn_on_state s = on->c[i].state;
		if (s == TN_ON_BUILT && on->cmp_state == 2) {  /* validated before anything else,
								 * once the comparison is built */
			pthread_mutex_unlock(&on->mu);
			return on->turn = i;
		}
		busy |= s == TN_ON_QUEUED || s == TN_ON_COMPILING || s == TN_ON_BUILT;
	}
	/* the fewest timings, in turn from the kernel after the last (slot
	 * i + 1 holds kernel i, the default's is 0) */
	least = 1 << 30;
	for (int u = 0; u <= on->nc; u++) {
		int i = (on->turn + 2 + u) % (on->nc + 1) - 1, t = timings(on, i);
		if (t < least) {
			least = t;
			pick = i;
		}
	}
	if (least >= on->tries) {
		if (busy) {             /* waiting for the compiles: the fastest so far */
			double b;
			pick = fastest(on, &b);
			on->idle = 1;
			on->steps_waiting++;
		} else {
			settle(on);
			pick = on->chosen;
		}
	}
	pthread_mutex_unlock(&on->mu);
	return on->turn = pick;
}

void tn_on_checked(struct tn_online *on, int i, int ok, const char *why)
{
	if (i < 0 || i >= on->nc)
		return;
	pthread_mutex_lock(&on->mu);
	if (on->c[i].state == TN_ON_BUILT) {
		on->c[i].state = ok ? TN_ON_VALID : TN_ON_DROPPED;
		if (!ok)
			snprintf(on->c[i].why, sizeof on->c[i].why, "validation: %s",
				 why ? why : "wrong result");
	}
	pthread_mutex_unlock(&on->mu);
}

void tn_on_drop(struct tn_online *on, int i, const char *why)
{
	if (i < 0 || i >= on->nc)
		return;
	pthread_mutex_lock(&on->mu);
	if (on->c[i].state != TN_ON_FAILED && on->c[i].state != TN_ON_DROPPED) {
		on->c[i].state = TN_ON_DROPPED;
		snprintf(on->c[i].why, sizeof on->c[i].why, "%s", why ? why : "dropped");
	}
	if (on->settled && on->chosen == i)   /* the chosen failed later: back to the default */
		on->chosen = TN_ON_DEFAULT;
	pthread_mutex_unlock(&on->mu);
}

void tn_on_timed(struct tn_online *on, int i, double ms)
{
	if (on->settled || !(ms > 0) || !isfinite(ms))
		return;
	pthread_mutex_lock(&on->mu);
	if (i == TN_ON_DEFAULT) {
		if (on->nd < TN_ON_TRIES_MAX)
			on->dms[on->nd++] = ms;
	} else if (i >= 0 && i < on->nc && on->c[i].state == TN_ON_VALID &&
		   on->c[i].nt < TN_ON_TRIES_MAX) {
		on->c[i].ms[on->c[i].nt++] = ms;
	}
	pthread_mutex_unlock(&on->mu);
}

static const char *const state_name[] = { "queued", "compiling", "built", "timed", "failed",
	"dropped" };

void tn_on_report(struct tn_online *on, FILE *out)
{
	const struct tn_problem *pb = &on->pb;
	double ref = tn_on_median(on, on->settled ? on->chosen : TN_ON_DEFAULT);
	pthread_mutex_lock(&on->mu);
	fprintf(out, "online tuning of %s R=%d %dx%dx%d %s on %s (%s): %d candidate(s) of %d "
		"configurations ranked from %d relative(s); passed over: %d without a kept "
		"source, %d the device cannot run, %d with a damaged source, %d without kept "
		"code; %d loaded from the database's code objects\n", pb->fam->name,
		pb->r, pb->nx, pb->ny, pb->nz, pb->prec, *on->device ? on->device :
		"an unnamed GPU", on->arch, on->nc, on->seeds, on->kin, on->nosrc, on->unfit,
		on->damaged, on->nocode, on->loaded);
	fprintf(out, "  %-4s %-10s %6s %10s %8s  %s\n", "", "state", "timed", "median ms",
		"vs best", "configuration, and the record it comes from");
	fprintf(out, "  %-4s %-10s %6d %10.4f %8.3f  the program's own kernel\n",
		on->settled && on->chosen == TN_ON_DEFAULT ? "*" : "", "default", on->nd,
		tn_on_median(on, TN_ON_DEFAULT), ref > 0 && on->nd ?
		tn_on_median(on, TN_ON_DEFAULT) / ref : NAN);
	for (int i = 0; i < on->nc; i++) {
		const struct tn_on_cand *c = &on->c[i];
		double m = tn_on_median(on, i);
		char tag[16];
		snprintf(tag, sizeof tag, "%s%d", on->settled && on->chosen == i ? "*" : "#", i + 1);
		fprintf(out, "  %-4s %-10s %6d %10.4f %8.3f  %s, from %s\n", tag,
			state_name[c->state], c->nt, m, ref > 0 && m > 0 ? m / ref : NAN, c->params,
			c->from);
		if (*c->why)
			fprintf(out, "       %.400s\n", c->why);
	}
	if (on->settled)
		fprintf(out, "chosen: %s after %lld step(s), %lld of them waiting for the compiles "
			"(the fastest kernel so far ran, untimed, and is not in the cost); the "
			"tuning cost %.3f ms over the timed steps against the chosen kernel's "
			"median, %.1f ms loading candidates and %.1f ms validating them, and "
			"%.1f s of compiles on %d background thread(s)\n",
			on->chosen == TN_ON_DEFAULT ? "the default" : on->c[on->chosen].params,
			on->steps_tuning, on->steps_waiting, on->cost_ms, on->load_ms, on->check_ms,
			on->compile_s, on->threads);
	else
		fprintf(out, "not settled after %lld step(s): %.1f s of compiles so far\n",
			on->steps_tuning, on->compile_s);
	if (on->resumed)
		fprintf(out, "the candidates were what an earlier run learned for this problem "
			"on this GPU\n");
	if (*on->kept)
		fprintf(out, "what was learned: %s\n", on->kept);
	pthread_mutex_unlock(&on->mu);
}

enum tn_on_state tn_on_state_of(struct tn_online *on, int i)
{
	enum tn_on_state s;
	pthread_mutex_lock(&on->mu);
	s = on->c[i].state;
	pthread_mutex_unlock(&on->mu);
	return s;
}
