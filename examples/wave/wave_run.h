/*
 * wave_run.h: one propagation (wave_run.c), as the C driver and the CPU
 * test run it. The kernel is the one `fdtune export --name wave_k` wrote
 * (wave_k.h, in the build tree), or, with online tuning, the kernel
 * libfdtune's fdtune_online_step picks for each step (wave_k among them).
 */
#ifndef WAVE_RUN_H
#define WAVE_RUN_H

#include "fdtune.h"
#include "wave.h"
#include "wave_k.h"

struct wv_run {
	/* in */
	struct wv_layout l;
	const float *vel;       /* l.total floats, (v dt)^2, halo zero */
	struct fd_coef c;       /* wave_k_coef(h) */
	double h[3], dt, f0, t0;        /* spacing (m), step (s), Ricker peak (Hz) and delay (s) */
	int nt;                 /* time steps */
	fdtune_online *ot;      /* NULL, or each step goes through fdtune_online_step */
	int src[3];             /* source point (interior indices) */
	int rec[2];             /* receiver line: every x at y = rec[0], z = rec[1] */
	/* out */
	float *seis;            /* nt x nx: seis[s nx + i] = u(i, rec, (s + 1) dt) */
	float *slice;           /* nz x nx: the last field at y = src[1] */
	double loop_ms, kern_ms;        /* the time loop; kern_steps launches alone */
	int kern_steps;
};

int wv_run(struct wv_run *w, char *err, size_t n);

#endif
