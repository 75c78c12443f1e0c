/*
 * tn_energy.h: the energy a kernel spends, measured as fdtune times it: its
 * launches queued back to back while the GPU's energy counter (rt_energy.h)
 * is read. The counter moves in steps as the driver updates it, so each
 * window starts and ends on a step seen while the GPU is busy, and its
 * mean power is the energy between the two steps over the time between
 * them; a launch's energy is that power times its median time.
 */
#ifndef TN_ENERGY_H
#define TN_ENERGY_H

#include "rt_energy.h"

#include <stddef.h>

/* What to measure: launch(ctx, i) queues launch i (it may return before
 * the launch ends), sync(ctx) waits for every launch queued. */
struct tn_energy_run {
	int (*launch)(void *ctx, int i, char *err, size_t n);
	int (*sync)(void *ctx, char *err, size_t n);
	void *ctx;
	double ms;              /* a launch's median time */
	double window_s;        /* each window lasts at least this long */
	int windows;
};

struct tn_energy_res {
	double watts;           /* the median of the windows' mean powers */
	double joules_launch;   /* watts times the launch's median time */
	double spread;          /* (max - min) / median of the windows' powers */
	double seconds;         /* the windows' time, summed */
	int windows;
	struct rt_power_state state;    /* read after the windows: limit, clocks */
};

/* Measures run on counter e into res; 0, or 1 with err set (a launch or
 * the counter failed, or the counter did not move in 2 s of launches). */
int tn_energy_measure(struct rt_energy *e, const struct tn_energy_run *run,
		      struct tn_energy_res *res, char *err, size_t n);

#endif
