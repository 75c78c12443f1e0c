/*
 * t_wave.c: the CPU time stepper of iso3dfd (tuner/ref/tn_ref_wave.c).
 * - A hand-checkable case: u = x^2 + y^2 + z^2 with constant vel and u(-1)
 *   = u(0) has L(u) = 6 exactly, so u(t) = u + 3 vel t (t + 1) wherever the
 *   frozen halo has not reached yet (depth (t - 1) R).
 * - Several steps against a direct evaluation: every time level in its own
 *   array, the update written out term by term.
 *   On one tile of the reference's walk and on several (tn_ref_tiles), which
 *   visits every interior point once.
 * - The propagated bound: an fp32 stepper (as a kernel computes) passes the
 *   check of tn_field.c on both fields after 4 steps with random O(1)
 *   weights, as the bench validates; dropping the outermost z tap, or
 *   writing a halo point, fails it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tn.h"
#include "tn_ref.h"
#include "t_ref.h"

struct wave {
	struct tn_problem pb;
	struct tn_layout l;
	struct tn_coef c;
	float *a, *b, *vel;
	double *ua, *ub;
	float *ma, *mb;
};

static void wave_open(struct wave *w, int r, int nx, int ny, int nz)
{
	long long pts = (long long)nx * ny * nz;
	w->pb = (struct tn_problem){ tn_family("iso3dfd"), r, nx, ny, nz, "fp32", { 1, 1, 1 } };
	assert_non_null(w->pb.fam);
	tn_layout_of(&w->pb, &w->l);
	w->pb.fam->coef(&w->pb, &w->c);
	w->a = malloc((size_t)w->l.total * 4);
	w->b = malloc((size_t)w->l.total * 4);
	w->vel = malloc((size_t)w->l.total * 4);
	w->ua = malloc((size_t)pts * 8);
	w->ub = malloc((size_t)pts * 8);
	w->ma = malloc((size_t)pts * 4);
	w->mb = malloc((size_t)pts * 4);
	assert_true(w->a && w->b && w->vel && w->ua && w->ub && w->ma && w->mb);
}

static void wave_close(struct wave *w)
{
	free(w->a);
	free(w->b);
	free(w->vel);
	free(w->ua);
	free(w->ub);
	free(w->ma);
	free(w->mb);
}

static void run_ref(struct wave *w, int steps)
{
	char err[256];
	assert_int_equal(tn_ref_wave(&w->pb, &w->c, &w->l, w->a, w->b, w->vel, steps, w->ua,
				     w->ub, w->ma, w->mb, err, sizeof err), 0);
}

/* Element (i, j, k), halo included, in layout l. */
static long long at(const struct tn_layout *l, int i, int j, int k)
{
	return l->origin + i + (long long)j * l->ld + (long long)k * l->slice;
}

static void quadratic(void **st)
{
	const int r = 2, n = 20;
	const float v = 0.125f;
	struct wave w;
	(void)st;
	wave_open(&w, r, n, n, n);
	for (int k = -r; k < n + r; k++)
		for (int j = -r; j < n + r; j++)
			for (int i = -r; i < n + r; i++) {
				long long o = at(&w.l, i, j, k);
				w.a[o] = w.b[o] = (float)(i * i + j * j + k * k);
				w.vel[o] = v;
			}
	for (int steps = 1; steps <= 4; steps++) {
		const int depth = (steps - 1) * r, checked_min = 8 * 8 * 8;
		int checked = 0;
		run_ref(&w, steps);
		for (int k = depth; k < n - depth; k++)
			for (int j = depth; j < n - depth; j++)
				for (int i = depth; i < n - depth; i++) {
					const long long t = i + (long long)n * (j + (long long)n * k);
					const double u0 = i * i + j * j + k * k;
					/* the field written last holds u(steps), the other u(steps - 1) */
					const double last = steps % 2 ? w.ub[t] : w.ua[t];
					const double other = steps % 2 ? w.ua[t] : w.ub[t];
					/* the fp32 weights cancel on u to 1e-7 relative */
					const double tol = 1e-6 * (1 + u0);
					if (!(fabs(last - (u0 + 3.0 * v * steps * (steps + 1))) < tol))
						fail_msg("steps %d (%d,%d,%d): %.9g, want %.9g", steps, i, j,
							 k, last, u0 + 3.0 * v * steps * (steps + 1));
					assert_true(fabs(other - (u0 + 3.0 * v * (steps - 1) * steps)) < tol);
					checked++;
				}
		assert_true(checked >= (steps == 4 ? checked_min : n * n));
	}
	wave_close(&w);
}

/* Random fields, weights scaled to stay O(1) over the steps. */
static void random_case(struct wave *w, unsigned long long seed)
{
	tn_fill_random(w->a, w->l.total, seed);
	tn_fill_random(w->b, w->l.total, seed + 1);
	tn_fill_random(w->vel, w->l.total, seed + 2);
	for (long long i = 0; i < w->l.total; i++)
		w->vel[i] = 0.0075f + 0.0025f * w->vel[i];
}

/* The reference after 3 steps against every level written out, on a grid of
 * r, nx, ny, nz. */
static void direct_case(int r, int nx, int ny, int nz)
{
	const int steps = 3;
	struct wave w;
	double *u[steps + 2];
	wave_open(&w, r, nx, ny, nz);
	random_case(&w, 42);
	/* u[0] = u(-1) (b), u[1] = u(0) (a), u[t + 1] = u(t), halos frozen at those of
	 * the field that level lives in (levels alternate b, a, b, a, ...) */
	for (int t = 0; t < steps + 2; t++) {
		u[t] = malloc((size_t)w.l.total * sizeof **u);
		assert_non_null(u[t]);
		for (long long i = 0; i < w.l.total; i++)
			u[t][i] = t % 2 ? w.a[i] : w.b[i];
	}
	for (int t = 2; t < steps + 2; t++)
		for (int k = 0; k < nz; k++)
			for (int j = 0; j < ny; j++)
				for (int i = 0; i < nx; i++) {
					const double *p = u[t - 1];
					long long o = at(&w.l, i, j, k);
					double lap = w.c.c0 * p[o];
					for (int q = 1; q <= r; q++)
						lap += w.c.x[q] * p[at(&w.l, i - q, j, k)] +
						       w.c.x[q] * p[at(&w.l, i + q, j, k)] +
						       w.c.y[q] * p[at(&w.l, i, j - q, k)] +
						       w.c.y[q] * p[at(&w.l, i, j + q, k)] +
						       w.c.z[q] * p[at(&w.l, i, j, k - q)] +
						       w.c.z[q] * p[at(&w.l, i, j, k + q)];
					u[t][o] = 2 * p[o] - u[t - 2][o] + w.vel[o] * lap;
				}
	run_ref(&w, steps);
	for (long long t = 0; t < (long long)nx * ny * nz; t++) {
		long long o = t_at(&w.l, t);
		/* steps = 3: b holds u(3) = u[4], a holds u(2) = u[3] */
		assert_true(fabs(w.ub[t] - u[4][o]) <= 1e-12 * (1 + fabs(u[4][o])));
		assert_true(fabs(w.ua[t] - u[3][o]) <= 1e-12 * (1 + fabs(u[3][o])));
		assert_true(w.ma[t] > 0 && w.mb[t] > 0);
	}
	for (int t = 0; t < steps + 2; t++)
		free(u[t]);
	wave_close(&w);
}

/* One tile, and a grid of several tiles with remainders in x and y (the
 * tiles of tn_ref_tiles are 16 rows of 256 points). */
static void direct(void **st)
{
	(void)st;
	direct_case(3, 17, 11, 9);
	direct_case(2, 263, 19, 4);
}

static void count_row(void *ctx, int i0, int i1, int j, int k)
{
	const struct tn_layout *l = ((void **)ctx)[0];
	unsigned char *hits = ((void **)ctx)[1];
	for (int i = i0; i < i1; i++)
		hits[i + (long long)l->nx * (j + (long long)l->ny * k)]++;
}

/* tn_ref_tiles visits every interior point once, whatever the remainders. */
static void tiles(void **st)
{
	const int dims[][3] = { { 1, 1, 1 }, { 256, 16, 2 }, { 257, 17, 3 }, { 600, 40, 5 } };
	(void)st;
	for (size_t d = 0; d < sizeof dims / sizeof *dims; d++) {
		struct tn_problem pb = { tn_family("xyz"), 4, dims[d][0], dims[d][1], dims[d][2],
					 "fp32", { 1, 1, 1 } };
		struct tn_layout l;
		long long pts = (long long)pb.nx * pb.ny * pb.nz;
		unsigned char *hits;
		tn_layout_of(&pb, &l);
		assert_non_null(hits = calloc((size_t)pts, 1));
		tn_ref_tiles(&l, count_row, (void *[]){ &l, hits });
		for (long long o = 0; o < pts; o++)
			if (hits[o] != 1)
				fail_msg("%dx%dx%d: point %lld visited %d times", pb.nx, pb.ny, pb.nz,
					 o, hits[o]);
		free(hits);
	}
}

/* An fp32 step as a kernel computes it, into field nx from p; drop removes
 * the outermost z tap. */
static void step32(const struct wave *w, const float *p, float *nx, int drop)
{
	const struct tn_layout *l = &w->l;
	const int r = l->r;
	for (int k = 0; k < l->nz; k++)
		for (int j = 0; j < l->ny; j++)
			for (int i = 0; i < l->nx; i++) {
				const long long o = at(l, i, j, k);
				float lap = w->c.c0 * p[o];
				for (int q = 1; q <= r; q++) {
					lap = fmaf(w->c.x[q], p[o - q] + p[o + q], lap);
					lap = fmaf(w->c.y[q], p[o - q * l->ld] + p[o + q * l->ld], lap);
					if (!(drop && q == r))
						lap = fmaf(w->c.z[q], p[o - q * l->slice] + p[o + q * l->slice], lap);
				}
				nx[o] = fmaf(w->vel[o], lap, 2.0f * p[o] - nx[o]);
			}
}

/* Weights as the bench validates with: magnitude in [0.5, 1), the signs kept. */
static void random_weights(struct tn_coef *c)
{
	float *w[3] = { c->x, c->y, c->z }, rnd[64];
	tn_fill_random(rnd, 64, 9);
	c->c0 = copysignf(0.75f + 0.25f * rnd[0], c->c0);
	for (int a = 0; a < 3; a++)
		for (int k = 1; k <= TN_RMAX; k++)
			if (w[a][k] != 0)
				w[a][k] = copysignf(0.75f + 0.25f * rnd[1 + 9 * a + k], w[a][k]);
}

static long long check32(struct wave *w, int r, int drop, int halo)
{
	const int steps = 4;
	float *fa = malloc((size_t)w->l.total * 4), *fb = malloc((size_t)w->l.total * 4);
	double e, b;
	char msg[256];
	long long bad;
	assert_true(fa && fb);
	memcpy(fa, w->a, (size_t)w->l.total * 4);
	memcpy(fb, w->b, (size_t)w->l.total * 4);
	for (int s = 0; s < steps; s++)
		step32(w, s % 2 ? fb : fa, s % 2 ? fa : fb, drop);
	if (halo)
		fb[at(&w->l, -1, 3, 2)] = 0.5f;
	struct tn_chk qa = { &w->l, fa, 4, NULL, w->a, w->ua, w->ma, tn_wave_terms(r) };
	struct tn_chk qb = { &w->l, fb, 4, NULL, w->b, w->ub, w->mb, tn_wave_terms(r) };
	bad = tn_check_field(&qa, &e, &b, msg, sizeof msg) + tn_check_field(&qb, &e, &b, msg, sizeof msg);
	if (halo)
		assert_non_null(strstr(msg, "halo"));
	free(fa);
	free(fb);
	return bad;
}

static void bound(void **st)
{
	(void)st;
	for (int r = 1; r <= TN_RMAX; r += 7) {         /* R = 1 and 8 */
		struct wave w;
		wave_open(&w, r, 19, 10, 3 * r + 2);
		random_case(&w, 7 + r);
		random_weights(&w.c);
		run_ref(&w, 4);
		assert_int_equal(check32(&w, r, 0, 0), 0);
		assert_true(check32(&w, r, 1, 0) > 0);
		assert_int_equal(check32(&w, r, 0, 1), 1);
		wave_close(&w);
	}
}

int main(void)
{
	const struct CMUnitTest t[] = { cmocka_unit_test(quadratic), cmocka_unit_test(direct), cmocka_unit_test(tiles),
		cmocka_unit_test(bound) };
	return cmocka_run_group_tests_name("wave", t, NULL, NULL);
}
