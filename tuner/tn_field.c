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
 * Error bound, per point: |out - ref| <= 2 (terms + 1) 2^-24 sum|term|, where
 * sum|term| is the sum of the magnitudes of the products the stencil adds.
 * Recursive fp32 summation of n terms in any order, with FMA or not, errs by
 * at most (n - 1) u sum|term|; one more u covers each pair (a + b) formed
 * before its multiply; the factor 2 is margin. Coefficients are the same
 * fp32 values on both sides, so they add no error.
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
	const int r = l->r;
	long long bad = 0, fa = -1;
	double worst = 0, wb = 0;
	const long long xoff = l->origin - r * l->slice - (long long)r * l->ld;

	#pragma omp parallel for schedule(dynamic, 1) reduction(+:bad) reduction(max:worst, wb)
	for (int k = -r; k < l->nz + r; k++) {
		long long la = -1;
		for (int j = -r; j < l->ny + r; j++) {
			const long long a0 = (k + r) * l->slice + (long long)(j + r) * l->ld;
			const float *row = out + a0 + xoff;
			int inner = k >= 0 && k < l->nz && j >= 0 && j < l->ny;
			for (long long i = -xoff; i < l->ld - xoff; i++) {
				int wrong;
				if (inner && i >= 0 && i < l->nx) {
					long long c = i + (long long)l->nx * (j + (long long)l->ny * k);
					const float *bp = base ? base + a0 + xoff + i : NULL;
					double e = fabs((double)row[i] - ref[c] - (bp ? *bp : 0.0));
					double tb = bp ? tn_err_bound(terms + 1, mag[c] + fabsf(*bp)) :
						    tn_err_bound(terms, mag[c]);
					wrong = !(e <= tb);
					worst = fmax(worst, isnan(e) ? INFINITY : (double)(float)e);
					if (!wrong)
						wb = fmax(wb, (double)(float)tb);
				} else {
					unsigned u;
					memcpy(&u, row + i, 4);
					wrong = u != 0xffffffffu;
				}
				if (wrong) {
					bad++;
					if (la < 0)
						la = a0 + xoff + i;
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
