/*
 * wave_run.c: the time loop of the wave propagator, on the device behind
 * wave.h's wd_ functions (the GPU with wave_dev.cu, the host with
 * wave_cpu.c). Each step, on one stream and in this order:
 *   wave_k_launch   next = 2 prev - next + vel L(prev)   (the exported kernel)
 *   wd_inject       next[source] += src[s]
 *   wd_record       seis[s][i] = next[receiver i]
 * and next and prev swap. After step s the fields hold u((s + 1) dt). The
 * loop is timed with events; a second, short loop times the exported
 * kernel alone, so that the cost of everything else shows. wave.f90 runs the
 * same calls in the same order.
 */
#include "wave_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Steps of the loop that times the kernel alone. */
enum { KSTEPS = 100 };

/* The program's own kernel, as online tuning calls it: fields next, prev,
 * vel, the grid and weights from ctx. */
struct own { struct fd_grid g; const struct fd_coef *c; };
static int own_kernel(void *ctx, void *const *f)
{
	const struct own *k = ctx;
	return wave_k_launch(f[0], f[1], f[2], k->g, k->c, 0);
}

/* One step's kernel: wave_k, or under online tuning the one it picks. */
static int step(struct wv_run *w, float *next, float *prev, float *vel, struct fd_grid g)
{
	struct own k = { g, &w->c };
	void *f[3] = { next, prev, vel };
	char err[512];
	if (!w->ot)
		return own_kernel(&k, f);
	if (fdtune_online_step(w->ot, f, 3, &g, &w->c, own_kernel, &k, err, sizeof err)) {
		fprintf(stderr, "wave: %s\n", err);
		return 1;
	}
	return 0;
}

int wv_run(struct wv_run *w, char *err, size_t n)
{
	const struct wv_layout *l = &w->l;
	const long long o = l->origin;
	const long long soff = w->src[0] + (long long)w->src[1] * l->ld + (long long)w->src[2] * l->slice;
	const long long roff = (long long)w->rec[0] * l->ld + (long long)w->rec[1] * l->slice;
	struct fd_grid g = { l->nx, l->ny, l->nz, l->ld, l->slice };
	float *f[2] = { NULL, NULL }, *vel = NULL, *src = NULL, *seis = NULL, *hs = NULL, *t;
	int rc = 1, s, e = 0;

	w->kern_steps = w->nt < KSTEPS ? w->nt : KSTEPS;
	/* src[nt] = 0: the warm-up's injection adds nothing */
	if (!(hs = calloc((size_t)w->nt + 1, sizeof *hs))) {
		snprintf(err, n, "out of host memory");
		goto done;
	}
	wv_source(hs, w->nt, w->f0, w->t0, w->dt, w->vel[o + soff], w->h[0] * w->h[1] * w->h[2]);
	if (!(f[0] = wd_alloc(l->total)) || !(f[1] = wd_alloc(l->total)) ||
	    !(vel = wd_alloc(l->total)) || !(src = wd_alloc(w->nt + 1)) ||
	    !(seis = wd_alloc((long long)w->nt * l->nx))) {
		snprintf(err, n, "cannot allocate 3 fields of %lld floats on the device (%s); "
			 "choose a smaller grid", l->total, wd_error());
		goto done;
	}
	if (wd_put(vel, w->vel, l->total) || wd_put(src, hs, w->nt + 1))
		goto fail;
	/* warm-up: loads the kernels, changes no value (zero fields, zero source) */
	if (wave_k_launch(f[1] + o, f[0] + o, vel + o, g, &w->c, 0) ||
	    wd_inject(f[1] + o, soff, src, w->nt) || wd_record(seis, f[1] + o, roff, l->nx, 0) ||
	    wd_sync())
		goto fail;
	if (wd_mark(0))
		goto fail;
	for (s = 0; s < w->nt; s++) {
		e |= step(w, f[1] + o, f[0] + o, vel + o, g);
		e |= wd_inject(f[1] + o, soff, src, s);
		e |= wd_record(seis, f[1] + o, roff, l->nx, s);
		t = f[0];
		f[0] = f[1];
		f[1] = t;
	}
	if (e) {
		snprintf(err, n, "a launch failed (error %d): %s", e, wd_error());
		goto done;
	}
	if (wd_mark(1) || (w->loop_ms = wd_elapsed()) < 0)
		goto fail;
	if (wd_get(w->seis, seis, (long long)w->nt * l->nx))
		goto fail;
	for (int k = 0; k < l->nz; k++)
		if (wd_get(w->slice + (long long)k * l->nx, f[0] + o + k * l->slice +
			   (long long)w->src[1] * l->ld, l->nx))
			goto fail;
	if (wd_mark(0))
		goto fail;
	for (s = 0; s < w->kern_steps; s++) {
		e |= step(w, f[1] + o, f[0] + o, vel + o, g);
		t = f[0];
		f[0] = f[1];
		f[1] = t;
	}
	if (e) {
		snprintf(err, n, "a launch failed (error %d): %s", e, wd_error());
		goto done;
	}
	if (wd_mark(1) || (w->kern_ms = wd_elapsed()) < 0)
		goto fail;
	rc = 0;
	goto done;
fail:
	snprintf(err, n, "the device failed: %s", wd_error());
done:
	wd_free(f[0]);
	wd_free(f[1]);
	wd_free(vel);
	wd_free(src);
	wd_free(seis);
	free(hs);
	return rc;
}
