/*
 * tn_ref.c: the CPU reference for sums of second derivatives along any set
 * of axes, in double precision from the same fp32 weights the kernels get.
 * mag is the sum of |w u| over the single terms, so the bound holds whether
 * a kernel pairs u(-k) + u(+k) first or not.
 * It serves every family whose output is c0 u + sum over chosen axes of
 * w_a[k] (u(-k) + u(+k)); tn_ref.h names it for the family descriptors.
 */
#include "tn_ref.h"

#include <math.h>

void tn_ref_axes(const struct tn_problem *pb, const struct tn_coef *c,
		 const struct tn_layout *l, const float *in, double *out,
		 float *mag, int axes)
{
	const int r = pb->r;
	const long long st[3] = { 1, l->ld, l->slice };
	const float *w[3] = { c->x, c->y, c->z };

	#pragma omp parallel for schedule(static)
	for (int k = 0; k < l->nz; k++)
		for (int j = 0; j < l->ny; j++)
			for (int i = 0; i < l->nx; i++) {
				const float *u = in + l->origin + i + j * st[1] + k * st[2];
				double s = (double)c->c0 * u[0], m = fabs(s);
				for (int a = 0; a < 3; a++) {
					if (!(axes >> a & 1))
						continue;
					for (int q = 1; q <= r; q++) {
						double lo = u[-q * st[a]], hi = u[q * st[a]];
						s += (double)w[a][q] * (lo + hi);
						m += fabs((double)w[a][q]) * (fabs(lo) + fabs(hi));
					}
				}
				long long o = i + (long long)l->nx * (j + (long long)l->ny * k);
				out[o] = s;
				mag[o] = (float)m;
			}
}
