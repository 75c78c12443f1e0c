/*
 * tn_ref_mixed.c: CPU references for first derivatives and mixed second
 * derivatives, and the weights their kernels get. Both are central
 * differences of order 2R built from the first-derivative weights
 * (tn_d1_weights) pre-divided by the spacing:
 *   first derivative along a:  out = sum_k w_a[k] (u(+k) - u(-k))
 *   mixed along s and t:       out = sum_{p,q} w_s[p] w_t[q]
 *       (u(+p,+q) - u(+p,-q) - u(-p,+q) + u(-p,-q))
 * in double precision from the same fp32 weights the kernels receive
 * (tn_coef_d1_axes), compact x-fastest like tn_ref_axes. mag is the sum of
 * |term| over the single products (2R of them for a first derivative, 4R^2
 * for a mixed one), so the bound of tn_check holds however a kernel groups
 * the sums: a single pass that takes one derivative of the other, or two
 * passes with an fp32 field between them.
 */
#include "tn_ref.h"

#include <math.h>
#include <string.h>

void tn_coef_d1_axes(const struct tn_problem *pb, int mask, struct tn_coef *c)
{
	double a[TN_RMAX + 1];
	float *dst[3] = { c->x, c->y, c->z };
	memset(c, 0, sizeof *c);
	tn_d1_weights(pb->r, a);
	for (int ax = 0; ax < 3; ax++)
		if (mask >> ax & 1)
			for (int k = 1; k <= pb->r; k++)
				dst[ax][k] = (float)(a[k] / pb->h[ax]);
}

/* The axis index of a one-bit mask (TN_X, TN_Y or TN_Z). */
static int axis_of(int bit)
{
	return bit == TN_X ? 0 : bit == TN_Y ? 1 : 2;
}

void tn_ref_d1(const struct tn_problem *pb, const struct tn_coef *c,
	       const struct tn_layout *l, const float *in, double *out,
	       float *mag, int axis)
{
	const int r = pb->r, a = axis_of(axis);
	const long long st[3] = { 1, l->ld, l->slice };
	const float *w = a == 0 ? c->x : a == 1 ? c->y : c->z;

	#pragma omp parallel for schedule(static)
	for (int k = 0; k < l->nz; k++)
		for (int j = 0; j < l->ny; j++)
			for (int i = 0; i < l->nx; i++) {
				const float *u = in + l->origin + i + j * st[1] + k * st[2];
				double s = 0, m = 0;
				for (int q = 1; q <= r; q++) {
					double lo = u[-q * st[a]], hi = u[q * st[a]];
					s += (double)w[q] * (hi - lo);
					m += fabs((double)w[q]) * (fabs(lo) + fabs(hi));
				}
				long long o = i + (long long)l->nx * (j + (long long)l->ny * k);
				out[o] = s;
				mag[o] = (float)m;
			}
}

void tn_ref_mixed(const struct tn_problem *pb, const struct tn_coef *c,
		  const struct tn_layout *l, const float *in, double *out,
		  float *mag, int axes)
{
	const int r = pb->r;
	const long long st[3] = { 1, l->ld, l->slice };
	const float *wa[3] = { c->x, c->y, c->z };
	int s = -1, t = -1;
	for (int a = 0; a < 3; a++)
		if (axes >> a & 1) {
			if (s < 0)
				s = a;
			else
				t = a;
		}

	#pragma omp parallel for schedule(static)
	for (int k = 0; k < l->nz; k++)
		for (int j = 0; j < l->ny; j++)
			for (int i = 0; i < l->nx; i++) {
				const float *u = in + l->origin + i + j * st[1] + k * st[2];
				double v = 0, m = 0;
				for (int p = 1; p <= r; p++)
					for (int q = 1; q <= r; q++) {
						const long long ps = p * st[s], qt = q * st[t];
						double w = (double)wa[s][p] * (double)wa[t][q];
						double pp = u[ps + qt], pm = u[ps - qt];
						double mp = u[-ps + qt], mm = u[-ps - qt];
						v += w * (pp - pm - mp + mm);
						m += fabs(w) * (fabs(pp) + fabs(pm) + fabs(mp) + fabs(mm));
					}
				long long o = i + (long long)l->nx * (j + (long long)l->ny * k);
				out[o] = v;
				mag[o] = (float)m;
			}
}

void tn_fam_coef_d1(const struct tn_problem *pb, struct tn_coef *c)
{
	tn_coef_d1_axes(pb, pb->fam->axes, c);
}

void tn_fam_ref_d1(const struct tn_problem *pb, const struct tn_coef *c,
		   const struct tn_layout *l, const float *in, double *out, float *mag)
{
	tn_ref_d1(pb, c, l, in, out, mag, pb->fam->axes);
}

void tn_fam_ref_mixed(const struct tn_problem *pb, const struct tn_coef *c,
		      const struct tn_layout *l, const float *in, double *out, float *mag)
{
	tn_ref_mixed(pb, c, l, in, out, mag, pb->fam->axes);
}
