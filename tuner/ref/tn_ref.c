/*
 * tn_ref.c: the CPU reference for sums of second derivatives along any set
 * of axes, in double precision from the same fp32 weights the kernels get.
 * mag is the sum of |w u| over the single terms, so the bound holds whether
 * a kernel pairs u(-k) + u(+k) first or not.
 * It serves every family whose output is c0 u + sum over chosen axes of
 * w_a[k] (u(-k) + u(+k)); tn_ref.h names it for the family descriptors.
 *
 * The references walk the interior in tiles (tn_ref_tiles): a tile of rows
 * is swept along z, so the 2R planes of z-neighbours it reads stay in the
 * core's cache from one plane to the next; and a row function sums a row
 * segment term by term, so the compiler vectorises it (AVX2 where the CPU
 * has it: target_clones). Each point still adds its terms in the order of
 * one point at a time, so the bits are those of the plain loop. At 512^3
 * and R = 8 the wave's 4-step reference took 121 s of one core, now 34 s
 * (results/NOTES.md v35).
 */
#include "tn_ref.h"

#include <math.h>

/* Rows of a tile: its 2R + 1 planes of (TJ + 2R) rows of TN_REF_TI doubles,
 * for two fields, stay within 1-2 MB. */
#define TJ 16
#define TI TN_REF_TI

void tn_ref_tiles(const struct tn_layout *l, tn_ref_row row, void *ctx)
{
	const int nj = (l->ny + TJ - 1) / TJ, ni = (l->nx + TI - 1) / TI;

	#pragma omp parallel for schedule(dynamic, 1)
	for (int t = 0; t < nj * ni; t++) {
		const int j0 = t / ni * TJ, i0 = t % ni * TI;
		const int j1 = j0 + TJ < l->ny ? j0 + TJ : l->ny;
		const int i1 = i0 + TI < l->nx ? i0 + TI : l->nx;
		for (int k = 0; k < l->nz; k++)
			for (int j = j0; j < j1; j++)
				row(ctx, i0, i1, j, k);
	}
}

struct axes {
	const struct tn_coef *c;
	const struct tn_layout *l;
	const float *in;
	double *out;
	float *mag;
	int axes;
};

__attribute__((target_clones("avx2", "default")))
static void axes_row(void *p, int i0, int i1, int j, int k)
{
	const struct axes *x = p;
	const struct tn_layout *l = x->l;
	const int r = l->r;
	const long long st[3] = { 1, l->ld, l->slice };
	const float *w[3] = { x->c->x, x->c->y, x->c->z };
	const long long o0 = (long long)l->nx * (j + (long long)l->ny * k);
	const float *u = x->in + l->origin + j * st[1] + k * st[2] + i0;
	const int n = i1 - i0;
	double s[TN_REF_TI], m[TN_REF_TI];

	/* term by term over the segment, each point summing in the order of
	 * one point at a time: vectorisable, and the same bits */
	for (int i = 0; i < n; i++) {
		s[i] = (double)x->c->c0 * u[i];
		m[i] = fabs(s[i]);
	}
	for (int a = 0; a < 3; a++) {
		if (!(x->axes >> a & 1))
			continue;
		for (int q = 1; q <= r; q++) {
			const double wq = w[a][q], aw = fabs(wq);
			const float *lo = u - q * st[a], *hi = u + q * st[a];
			for (int i = 0; i < n; i++) {
				const double dl = lo[i], dh = hi[i];
				s[i] += wq * (dl + dh);
				m[i] += aw * (fabs(dl) + fabs(dh));
			}
		}
	}
	for (int i = 0; i < n; i++) {
		x->out[o0 + i0 + i] = s[i];
		x->mag[o0 + i0 + i] = (float)m[i];
	}
}

void tn_ref_axes(const struct tn_problem *pb, const struct tn_coef *c,
		 const struct tn_layout *l, const float *in, double *out,
		 float *mag, int axes)
{
	struct axes x = { c, l, in, out, mag, axes };
	(void)pb;
	tn_ref_tiles(l, axes_row, &x);
}
