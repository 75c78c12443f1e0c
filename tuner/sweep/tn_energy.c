/*
 * tn_energy.c: windows of launches read against the energy counter
 * (tn_energy.h). A window: launches are queued in batches of about 2 ms of
 * work, and between batches the counter is read for 90% of the batch's
 * time, so the queue never runs dry while the host watches. The window
 * opens at the first step of the counter seen after launching began, and
 * closes at the first step seen once window_s has passed; the steps are
 * seen within one poll of when they happened, which the window's length
 * makes small (a step a few ms late in a 0.5 s window is 1%).
 */
#define _POSIX_C_SOURCE 200809L
#include "tn_energy.h"
#include "tn.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define WMAX 16

struct win {
	const struct tn_energy_run *r;
	struct rt_energy *e;
	int batch, i;           /* launches a batch, and the next launch's number */
	double work_s;          /* a batch's GPU time */
	char *err;
	size_t n;
};

/* Queues a batch, then reads the counter for 90% of its time, or until it
 * moves from *j when stop_on_step; *j is the last reading. 1 on failure. */
static int step(struct win *w, double *j, int stop_on_step, int *moved)
{
	const double until = tn_now_s() + 0.9 * w->work_s;
	double x;
	for (int k = 0; k < w->batch; k++)
		if (w->r->launch(w->r->ctx, w->i++, w->err, w->n))
			return 1;
	*moved = 0;
	do {
		if (rt_energy_read(w->e, &x, w->err, w->n))
			return 1;
		if (x != *j) {
			*moved = 1;
			*j = x;
			if (stop_on_step)
				return 0;
		}
	} while (tn_now_s() < until);
	return 0;
}

/* Launches until the counter moves (at most 2 s): the step's reading and
 * time in *j and *t. */
static int edge(struct win *w, double *j, double *t)
{
	const double give_up = tn_now_s() + 2.0;
	int moved = 0;
	while (!moved) {
		if (step(w, j, 1, &moved))
			return 1;
		if (!moved && tn_now_s() > give_up) {
			snprintf(w->err, w->n, "%s's energy counter did not move in 2 s of launches",
				 rt_energy_source(w->e));
			return 1;
		}
	}
	*t = tn_now_s();
	return 0;
}

int tn_energy_measure(struct rt_energy *e, const struct tn_energy_run *r,
		      struct tn_energy_res *res, char *err, size_t n)
{
	struct win w = { r, e, 1, 0, 0, err, n };
	double p[WMAX], sorted[WMAX];
	const int nw = r->windows < 1 ? 1 : r->windows > WMAX ? WMAX : r->windows;
	memset(res, 0, sizeof *res);
	w.batch = r->ms > 0 && r->ms < 2.0 ? (int)ceil(2.0 / r->ms) : 1;
	w.work_s = w.batch * r->ms * 1e-3;
	for (int k = 0; k < nw; k++) {
		double j0, j1, t0, t1;
		int moved;
		if (rt_energy_read(e, &j0, err, n) || edge(&w, &j0, &t0))
			goto fail;
		j1 = j0;
		do                      /* the window's length, launching */
			if (step(&w, &j1, 0, &moved))
				goto fail;
		while (tn_now_s() - t0 < r->window_s);
		if (edge(&w, &j1, &t1)) /* the first step after it */
			goto fail;
		p[k] = (j1 - j0) / (t1 - t0);
		res->seconds += t1 - t0;
	}
	if (r->sync(r->ctx, err, n) || rt_energy_state(e, &res->state, err, n))
		return FDT_FAIL;
	memcpy(sorted, p, sizeof p);
	for (int i = 1; i < nw; i++)    /* insertion sort: a few windows */
		for (int k = i; k > 0 && sorted[k] < sorted[k - 1]; k--) {
			double t = sorted[k];
			sorted[k] = sorted[k - 1];
			sorted[k - 1] = t;
		}
	res->windows = nw;
	res->watts = nw % 2 ? sorted[nw / 2] : 0.5 * (sorted[nw / 2 - 1] + sorted[nw / 2]);
	res->spread = res->watts > 0 ? (sorted[nw - 1] - sorted[0]) / res->watts : NAN;
	res->joules_launch = res->watts * r->ms * 1e-3;
	return FDT_OK;
fail:
	{
		char e2[64];
		(void)r->sync(r->ctx, e2, sizeof e2);  /* what was queued, drained */
	}
	return FDT_FAIL;
}
