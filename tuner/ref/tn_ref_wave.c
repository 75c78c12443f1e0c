/*
 * tn_ref_wave.c: the CPU time stepper of the time-stepping families
 * (iso3dfd), with a rigorous error bound carried along. One step is
 *   next = 2 prev - next + vel L(prev),  L(u) = c0 u + sum over x, y, z of
 *   w_a[k] (u(-k) + u(+k)),
 * the fields a and b swapping roles every step: step 0 writes b from a, step
 * 1 writes a from b, and so on. Halos are never written.
 *
 * The bound, in units of the rounding unit u: a kernel step errs by its own
 * rounding, at most (terms + 1) m with m = 2|prev| + |next| + vel sum|term of
 * L| and terms = 6R + 4, plus what it inherits: 2 E(prev) + E(next) + vel
 * (|c0| E(prev) + sum |w| (E(prev(-k)) + E(prev(+k)))). Halos and the initial
 * fields are exact (E = 0). mag is reported as E / (terms + 1), so that the
 * check (2 (terms + 1) u mag, tn_field.c) allows twice the propagated bound.
 * Values are carried in double, the bound in double.
 */
#include "tn_ref.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tn_wave_terms(int r)
{
	return 6 * r + 4;
}

/* One step, over the interior: nx (and en, its bound) := 2 p - nx + vel L(p). */
struct wstep {
	const struct tn_coef *c;
	const struct tn_layout *l;
	const double *p, *ep;
	double *nx, *en;
	const float *vel;
	int terms;
};

__attribute__((target_clones("avx2", "default")))
static void step_row(void *ctx, int i0, int i1, int j, int k)
{
	const struct wstep *x = ctx;
	const struct tn_layout *l = x->l;
	const int r = l->r, terms = x->terms;
	const long long st[3] = { 1, l->ld, l->slice };
	const float *w[3] = { x->c->x, x->c->y, x->c->z };
	const double *p = x->p, *ep = x->ep;
	double *nx = x->nx, *en = x->en;

	const long long o0 = l->origin + j * st[1] + k * st[2];
	double s[TN_REF_TI], m[TN_REF_TI], e[TN_REF_TI];
	const int n = i1 - i0;

	/* term by term over the row segment, each point summing its terms in
	 * the same order as one point at a time would: vectorisable, and
	 * the same bits */
	for (int i = 0; i < n; i++) {
		const long long o = o0 + i0 + i;
		s[i] = (double)x->c->c0 * p[o];
		m[i] = fabs(s[i]);
		e[i] = fabs((double)x->c->c0) * ep[o];
	}
	for (int a = 0; a < 3; a++)
		for (int q = 1; q <= r; q++) {
			const double wq = w[a][q], aw = fabs(wq);
			const double *lo = p + o0 + i0 - q * st[a], *hi = p + o0 + i0 + q * st[a];
			const double *el = ep + o0 + i0 - q * st[a], *eh = ep + o0 + i0 + q * st[a];
			for (int i = 0; i < n; i++) {
				s[i] += wq * (lo[i] + hi[i]);
				m[i] += aw * (fabs(lo[i]) + fabs(hi[i]));
				e[i] += aw * (el[i] + eh[i]);
			}
		}
	for (int i = 0; i < n; i++) {
		const long long o = o0 + i0 + i;
		const double v = x->vel[o];
		const double mm = 2 * fabs(p[o]) + fabs(nx[o]) + fabs(v) * m[i];
		en[o] = 2 * ep[o] + en[o] + fabs(v) * e[i] + (terms + 1) * mm;
		nx[o] = 2 * p[o] - nx[o] + v * s[i];
	}
}

static void step(const struct tn_coef *c, const struct tn_layout *l, const double *p,
		 const double *ep, double *nx, double *en, const float *vel, int terms)
{
	struct wstep x = { c, l, p, ep, nx, en, vel, terms };
	tn_ref_tiles(l, step_row, &x);
}

int tn_ref_wave(const struct tn_problem *pb, const struct tn_coef *c,
		const struct tn_layout *l, const float *a, const float *b,
		const float *vel, int steps, double *ua, double *ub, float *ma,
		float *mb, char *err, size_t en)
{
	const long long n = l->total;
	const int terms = tn_wave_terms(pb->r);
	double *f[2], *e[2];
	int rc = 1;
	f[0] = malloc((size_t)n * sizeof **f);
	f[1] = malloc((size_t)n * sizeof **f);
	e[0] = calloc((size_t)n, sizeof **e);
	e[1] = calloc((size_t)n, sizeof **e);
	if (!f[0] || !f[1] || !e[0] || !e[1]) {
		snprintf(err, en, "out of host memory for the time-stepping reference "
			 "(4 fields of %lld doubles); choose a smaller --size", n);
		goto done;
	}
	#pragma omp parallel for schedule(static)
	for (long long i = 0; i < n; i++) {
		f[0][i] = a[i];
		f[1][i] = b[i];
	}
	for (int s = 0; s < steps; s++)         /* step s writes b when even */
		step(c, l, f[s & 1], e[s & 1], f[!(s & 1)], e[!(s & 1)], vel, terms);
	#pragma omp parallel for schedule(static)
	for (int k = 0; k < l->nz; k++)
		for (int j = 0; j < l->ny; j++)
			for (int i = 0; i < l->nx; i++) {
				const long long o = l->origin + i + (long long)j * l->ld + k * l->slice;
				const long long t = i + (long long)l->nx * (j + (long long)l->ny * k);
				ua[t] = f[0][o];
				ub[t] = f[1][o];
				ma[t] = (float)(e[0][o] / (terms + 1) * (1 + 0x1.0p-20));
				mb[t] = (float)(e[1][o] / (terms + 1) * (1 + 0x1.0p-20));
			}
	rc = 0;
done:
	for (int i = 0; i < 2; i++) {
		free(f[i]);
		free(e[i]);
	}
	return rc;
}
