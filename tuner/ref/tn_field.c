/*
 * tn_field.c: how fields sit in memory and how a kernel's output is judged.
 * Inputs are random in [-1, 1) everywhere, halo and padding included, from a
 * counter-based generator (the same seed gives the same field however many
 * threads fill it). Outputs are poisoned with 0xFF bytes (a NaN) before a
 * kernel runs; afterwards every interior point must lie within the error
 * bound of the double-precision reference and every other element (halo,
 * padding) must still hold the poison pattern bit for bit.
 *
 * The check runs on the CPU here, and as templates/check.m4 on the GPU next
 * to the data; both report the count of bad points, the first bad element,
 * the largest |out - ref| and the largest bound over the interior.
 *
 * Error bound, per point: |out - ref| <= 2 (terms + 1) u sum|term|, where
 * sum|term| is the sum of the magnitudes of the products the stencil adds
 * and u = 2^-24 for fp32. Recursive summation of n terms in any order, with
 * FMA or not, errs by at most (n - 1) u sum|term|; one more u covers each
 * pair (a + b) formed before its multiply; the factor 2 is margin.
 * Coefficients are the same values on both sides, so they add no error. For
 * fp64, u = 2^-52, twice the unit roundoff: the double reference itself
 * errs as much as the kernel, and the margin stays 2.
 */
#include "tn.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void tn_layout_of(const struct tn_problem *pb, struct tn_layout *l)
{
	const int xoff = 32;            /* >= R rounded up to a vector, 128 B */
	int r = pb->r;
	l->r = r;
	l->nx = pb->nx;
	l->ny = pb->ny;
	l->nz = pb->nz;
	l->ld = (xoff + (pb->nx + 3) / 4 * 4 + (r + 3) / 4 * 4 + 31) / 32 * 32;
	l->slice = (long long)l->ld * (pb->ny + 2 * r);
	l->origin = r * l->slice + (long long)r * l->ld + xoff;
	l->total = l->slice * (pb->nz + 2 * r);
}

static unsigned long long mix(unsigned long long z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void tn_fill_random(float *f, long long n, unsigned long long seed)
{
	#pragma omp parallel for schedule(static)
	for (long long i = 0; i < n; i++)
		f[i] = (float)((double)(mix(seed * 0x9e3779b97f4a7c15ULL + (unsigned long long)i) >> 11)
			       * 0x1.0p-52 - 1.0);
}

/* mag + |base| in fp32, as the GPU check forms it */
static double mag_plus(float mag, float base)
{
	return (double)(mag + fabsf(base));
}

double tn_err_bound(int terms, float mag)
{
	return 2.0 * (terms + 1) * 0x1.0p-24 * mag + 1e-30;
}

void tn_poison_halo(const struct tn_layout *l, float *f)
{
	const int r = l->r;
	const long long xoff = l->origin - r * l->slice - (long long)r * l->ld;
	#pragma omp parallel for schedule(static)
	for (int k = -r; k < l->nz + r; k++)
		for (int j = -r; j < l->ny + r; j++) {
			float *row = f + (k + r) * l->slice + (long long)(j + r) * l->ld + xoff;
			int inner = k >= 0 && k < l->nz && j >= 0 && j < l->ny;
			for (long long i = -xoff; i < l->ld - xoff; i++)
				if (!inner || i < 0 || i >= l->nx)
					memset(row + i, 0xff, sizeof *row);
		}
}

long long tn_check(const struct tn_layout *l, const float *out, const double *ref,
		   const float *mag, int terms, double *max_err, double *bound,
		   char *first, size_t n)
{
	return tn_check_acc(l, out, NULL, ref, mag, terms, max_err, bound, first, n);
}

long long tn_check_acc(const struct tn_layout *l, const float *out, const float *base,
		       const double *ref, const float *mag, int terms, double *max_err,
		       double *bound, char *first, size_t n)
{
	struct tn_chk q = { l, out, 4, base, NULL, ref, mag, terms };
	return tn_check_field(&q, max_err, bound, first, n);
}

double tn_unit(int es)
{
	return es == 8 ? 0x1.0p-52 : 0x1.0p-24;
}

/* Element i of p, of es bytes, as a double; *poison: its bits equal those of
 * element i of halo, or with no halo are all ones. */
static double elem(const void *p, long long i, int es, const void *halo, int *same)
{
	const unsigned char *b = (const unsigned char *)p + i * es;
	static const unsigned char ones[8] = { 255, 255, 255, 255, 255, 255, 255, 255 };
	*same = !memcmp(b, halo ? (const unsigned char *)halo + i * es : ones, (size_t)es);
	if (es == 8) {
		double d;
		memcpy(&d, b, 8);
		return d;
	}
	float f;
	memcpy(&f, b, 4);
	return f;
}

long long tn_check_field(const struct tn_chk *q, double *max_err, double *bound,
			 char *first, size_t n)
{
	const struct tn_layout *l = q->l;
	const int r = l->r;
	const double u = tn_unit(q->es);
	long long bad = 0, fa = -1;
	double worst = 0, wb = 0;
	const long long xoff = l->origin - r * l->slice - (long long)r * l->ld;

	#pragma omp parallel for schedule(dynamic, 1) reduction(+:bad) reduction(max:worst, wb)
	for (int k = -r; k < l->nz + r; k++) {
		long long la = -1;
		for (int j = -r; j < l->ny + r; j++) {
			const long long a0 = (k + r) * l->slice + (long long)(j + r) * l->ld + xoff;
			int inner = k >= 0 && k < l->nz && j >= 0 && j < l->ny;
			for (long long i = -xoff; i < l->ld - xoff; i++) {
				int wrong, same;
				double v = elem(q->out, a0 + i, q->es, q->halo, &same);
				if (inner && i >= 0 && i < l->nx) {
					long long c = i + (long long)l->nx * (j + (long long)l->ny * k);
					const float *bp = q->base ? q->base + a0 + i : NULL;
					double e = fabs(v - q->ref[c] - (bp ? *bp : 0.0));
					double tb = 2.0 * (q->terms + 1 + (bp != NULL)) * u *
						    (bp ? mag_plus(q->mag[c], *bp) : q->mag[c]) + 1e-30;
					wrong = !(e <= tb);
					worst = fmax(worst, isnan(e) ? INFINITY : (double)(float)e);
					if (!wrong)
						wb = fmax(wb, (double)(float)tb);
				} else {
					wrong = !same;
				}
				if (wrong) {
					bad++;
					if (la < 0)
						la = a0 + i;
				}
			}
		}
		#pragma omp critical
		if (la >= 0 && (fa < 0 || la < fa))
			fa = la;
	}
	*max_err = worst;
	*bound = wb;
	if (first)
		tn_describe_bad(l, bad, fa, first, n);
	return bad;
}

void tn_describe_bad(const struct tn_layout *l, long long bad, long long a, char *msg, size_t n)
{
	const long long xoff = l->origin - l->r * l->slice - (long long)l->r * l->ld;
	long long k, j, i;
	if (!bad) {
		if (n)
			msg[0] = 0;
		return;
	}
	k = a / l->slice - l->r;
	j = a % l->slice / l->ld - l->r;
	i = a % l->ld - xoff;
	snprintf(msg, n, "%lld bad points; first at (x=%lld, y=%lld, z=%lld): %s", bad, i, j, k,
		 i >= 0 && i < l->nx && j >= 0 && j < l->ny && k >= 0 && k < l->nz ?
		 "value outside the error bound" : "halo or padding overwritten");
}
