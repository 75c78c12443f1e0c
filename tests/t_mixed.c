/*
 * t_mixed.c: CPU tests of the first- and mixed-derivative families. The
 * first-derivative weights (tn_d1_weights) have the known values at R = 1, 2
 * and meet the moment conditions of order 2R; the mixed references of dxy,
 * dxz and dyz give d2(st)/dsdt = 1 and d2(s^2 t)/dsdt = 2s on fields where
 * the central differences are exact; and the two-pass strategy (a first
 * derivative over the domain extended by R along the other axis, fp32 in
 * between, then the other first derivative) equals the single-pass
 * reference within the bound of tn_check with 4R^2 + 2R + 1 terms, in
 * either order of the axes, while a pass left out is caught.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fam.h"
#include "tn.h"
#include "t_ref.h"

static void d1_weights(void **st)
{
	double a[TN_RMAX + 1];
	(void)st;
	assert_int_equal(tn_d1_weights(0, a), 1);
	assert_int_equal(tn_d1_weights(TN_RMAX + 1, a), 1);
	assert_int_equal(tn_d1_weights(1, a), 0);
	assert_true(a[0] == 0 && fabs(a[1] - 0.5) < 1e-15 && a[2] == 0);
	assert_int_equal(tn_d1_weights(2, a), 0);
	assert_true(fabs(a[1] - 2.0 / 3) < 1e-15 && fabs(a[2] + 1.0 / 12) < 1e-15 && a[3] == 0);
	for (int r = 1; r <= TN_RMAX; r++) {
		assert_int_equal(tn_d1_weights(r, a), 0);
		/* exact for x^(2m-1), m = 1..R: sum_k 2 a_k k^(2m-1) = [m == 1] */
		for (int m = 1; m <= r; m++) {
			double s = 0, mag = 0;
			for (int k = 1; k <= r; k++) {
				double t = 2 * a[k] * pow(k, 2 * m - 1);
				s += t;
				mag += fabs(t);
			}
			if (fabs(s - (m == 1)) > 1e-13 * mag)
				fail_msg("R=%d m=%d: moment %.17g", r, m, s);
		}
		for (int k = r + 1; k <= TN_RMAX; k++)
			assert_true(a[k] == 0);
	}
}

/* The fields s t and s^2 t along the axes of family fam, over the whole
 * allocation of l (coordinates i h_x, j h_y, k h_z): exact in fp32. */
static void fill_poly(const struct tn_problem *pb, const struct tn_layout *l, int s, int t,
		      int square, float *f)
{
	const int r = l->r;
	for (int k = -r; k < l->nz + r; k++)
		for (int j = -r; j < l->ny + r; j++)
			for (int i = -r; i < l->nx + r; i++) {
				double c[3] = { i * pb->h[0], j * pb->h[1], k * pb->h[2] };
				f[l->origin + i + (long long)j * l->ld + (long long)k * l->slice] =
					(float)((square ? c[s] * c[s] : c[s]) * c[t]);
			}
}

static void mixed_polynomials(void **st)
{
	static const struct { const char *name; int s, t; } fam[] = {
		{ "dxy", 0, 1 }, { "dxz", 0, 2 }, { "dyz", 1, 2 } };
	(void)st;
	for (int fi = 0; fi < 3; fi++)
		for (int r = 1; r <= TN_RMAX; r++) {
			struct tn_problem pb = t_prob(fam[fi].name, r);
			struct tn_layout l;
			tn_layout_of(&pb, &l);
			long long pts = (long long)l.nx * l.ny * l.nz;
			float *in = calloc((size_t)l.total, sizeof *in), *mag = malloc((size_t)pts * sizeof *mag);
			double *out = malloc((size_t)pts * sizeof *out);
			assert_true(in && mag && out);
			assert_int_equal(pb.fam->terms(r), 4 * r * r);
			for (int sq = 0; sq <= 1; sq++) {
				fill_poly(&pb, &l, fam[fi].s, fam[fi].t, sq, in);
				t_ref_of(fam[fi].name, r, &l, in, out, mag);
				for (long long o = 0; o < pts; o++) {
					long long ijk[3] = { o % l.nx, o / l.nx % l.ny, o / ((long long)l.nx * l.ny) };
					double want = sq ? 2 * ijk[fam[fi].s] * pb.h[fam[fi].s] : 1.0;
					if (!(fabs(out[o] - want) <= tn_err_bound(4 * r * r, mag[o])))
						fail_msg("%s R=%d %s at %lld: %.17g, want %g", fam[fi].name, r,
							 sq ? "s^2 t" : "s t", o, out[o], want);
				}
			}
			free(in);
			free(mag);
			free(out);
		}
}

/* Layout l extended by R along axis a (0, 1, 2) on each side. */
static struct tn_layout extended(const struct tn_layout *l, int a)
{
	struct tn_layout e = *l;
	const long long st[3] = { 1, l->ld, l->slice };
	int *n[3] = { &e.nx, &e.ny, &e.nz };
	*n[a] += 2 * l->r;
	e.origin -= l->r * st[a];
	return e;
}

/* Runs d1<first> over the domain extended along the axis of d1<second> into
 * an fp32 field (halo beyond the extension poisoned), then, when both,
 * d1<second> of it into out (halo poisoned). */
static void two_pass(int r, const struct tn_layout *l, const float *in, char first,
		     char second, int both, float *mid, float *out, double *v, float *m)
{
	char f1[4] = { 'd', '1', first, 0 }, f2[4] = { 'd', '1', second, 0 };
	struct tn_layout e = extended(l, second - 'x');
	long long pe = (long long)e.nx * e.ny * e.nz, p = (long long)l->nx * l->ny * l->nz;
	memset(mid, 0xff, (size_t)l->total * sizeof *mid);
	memset(out, 0xff, (size_t)l->total * sizeof *out);
	t_ref_of(f1, r, &e, in, v, m);
	for (long long o = 0; o < pe; o++)
		mid[t_at(&e, o)] = (float)v[o];
	if (!both) {
		for (long long o = 0; o < p; o++)
			out[t_at(l, o)] = mid[t_at(l, o)];
		return;
	}
	t_ref_of(f2, r, l, mid, v, m);
	for (long long o = 0; o < p; o++)
		out[t_at(l, o)] = (float)v[o];
}

static void two_pass_equals_single(void **st)
{
	static const struct { const char *name; char s, t; } fam[] = {
		{ "dxy", 'x', 'y' }, { "dxz", 'x', 'z' }, { "dyz", 'y', 'z' } };
	(void)st;
	for (int fi = 0; fi < 3; fi++)
		for (int r = 1; r <= TN_RMAX; r++) {
			struct tn_problem pb = t_prob(fam[fi].name, r);
			struct tn_layout l;
			tn_layout_of(&pb, &l);
			/* the extended first pass holds (n + 2R) lines: room for both axes */
			long long pts = (long long)(l.nx + 2 * r) * (l.ny + 2 * r) * (l.nz + 2 * r);
			float *in = malloc((size_t)l.total * sizeof *in), *mid = malloc((size_t)l.total * sizeof *mid);
			float *out = malloc((size_t)l.total * sizeof *out), *mag = malloc((size_t)pts * sizeof *mag);
			float *m = malloc((size_t)pts * sizeof *m);
			double *ref = malloc((size_t)pts * sizeof *ref), *v = malloc((size_t)pts * sizeof *v);
			double e, b;
			char msg[256];
			const int terms = 4 * r * r + 2 * r + 1;
			assert_true(in && mid && out && mag && m && ref && v);
			tn_fill_random(in, l.total, 31 + (unsigned long long)r);
			t_ref_of(fam[fi].name, r, &l, in, ref, mag);
			two_pass(r, &l, in, fam[fi].s, fam[fi].t, 1, mid, out, v, m);
			if (tn_check(&l, out, ref, mag, terms, &e, &b, msg, sizeof msg))
				fail_msg("%s R=%d, d1%c then d1%c: %s", fam[fi].name, r, fam[fi].s,
					 fam[fi].t, msg);
			assert_true(e > 0 && e <= b);   /* rounding happened, and is bounded */
			/* mixed derivatives commute: the other order passes too */
			two_pass(r, &l, in, fam[fi].t, fam[fi].s, 1, mid, out, v, m);
			if (tn_check(&l, out, ref, mag, terms, &e, &b, msg, sizeof msg))
				fail_msg("%s R=%d, d1%c then d1%c: %s", fam[fi].name, r, fam[fi].t,
					 fam[fi].s, msg);
			/* the first pass alone is caught */
			two_pass(r, &l, in, fam[fi].s, fam[fi].t, 0, mid, out, v, m);
			assert_true(tn_check(&l, out, ref, mag, terms, &e, &b, msg, sizeof msg) > 0);
			free(in);
			free(mid);
			free(out);
			free(mag);
			free(m);
			free(ref);
			free(v);
		}
}

/* The coefficient contract: first-derivative weights over h on the family
 * axes only, c0 zero; and the references agree with the weights as given. */
static void coef_contract(void **st)
{
	static const char *const names[] = { "dxy", "dxz", "dyz", "d1x", "d1y", "d1z" };
	static const int masks[] = { TN_X | TN_Y, TN_X | TN_Z, TN_Y | TN_Z, TN_X, TN_Y, TN_Z };
	(void)st;
	for (int f = 0; f < 6; f++)
		for (int r = 1; r <= TN_RMAX; r++) {
			struct tn_problem pb = t_prob(names[f], r);
			struct tn_coef c;
			double a[TN_RMAX + 1];
			const float *w[3];
			tn_d1_weights(r, a);
			pb.fam->coef(&pb, &c);
			w[0] = c.x;
			w[1] = c.y;
			w[2] = c.z;
			assert_true(c.c0 == 0);
			for (int ax = 0; ax < 3; ax++)
				for (int k = 0; k <= TN_RMAX; k++) {
					float want = (masks[f] >> ax & 1) && k >= 1 && k <= r ?
						     (float)(a[k] / pb.h[ax]) : 0.0f;
					assert_true(w[ax][k] == want);
				}
			assert_int_equal(pb.fam->terms(r), f < 3 ? 4 * r * r : 2 * r);
		}
}

/* What an export's NAME_coef writes (tn_coef_unit's weights over h, or h^2
 * unless the family is d1, on the family's axes, zero elsewhere, c0 = w[0]
 * times the sum of the scales) is what the family's coef gave the kernel in the sweep: every
 * family, every R, unequal spacings. */
static void export_weights(void **st)
{
	static const double h[3] = { 0.5, 2.0, 1.25 };
	(void)st;
	for (int fi = 0; tn_families[fi]; fi++) {
		const struct tn_family *f = tn_families[fi];
		for (int r = 1; r <= TN_RMAX; r++) {
			struct tn_problem pb = t_prob(f->name, r);
			struct tn_coef c;
			const float *got[3] = { c.x, c.y, c.z };
			double w[TN_RMAX + 1], s[3];
			const int pw = f->d1 ? 1 : 2;
			memcpy(pb.h, h, sizeof h);
			f->coef(&pb, &c);
			assert_int_equal(tn_coef_unit(f, r, w), 0);
			for (int a = 0; a < 3; a++)
				s[a] = f->axes >> a & 1 ? 1 / pow(h[a], pw) : 0;
			for (int a = 0; a < 3; a++)
				for (int k = 1; k <= TN_RMAX; k++) {
					double want = k <= r ? w[k] * s[a] : 0;
					if (fabs(got[a][k] - want) > 1e-6 * fabs(want))
						fail_msg("%s R=%d axis %d k=%d: coef %g, export %g", f->name,
							 r, a, k, (double)got[a][k], want);
				}
			double c0 = w[0] * (s[0] + s[1] + s[2]);
			if (fabs(c.c0 - c0) > 1e-6 * fabs(c0))
				fail_msg("%s R=%d: c0 %g, export %g", f->name, r, (double)c.c0, c0);
		}
	}
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(d1_weights), cmocka_unit_test(mixed_polynomials),
		cmocka_unit_test(two_pass_equals_single), cmocka_unit_test(coef_contract),
		cmocka_unit_test(export_weights),
	};
	return cmocka_run_group_tests_name("mixed", t, NULL, NULL);
}
