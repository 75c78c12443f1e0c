/*
 * tn_ref.h: CPU references shared by family descriptors.
 */
#ifndef TN_REF_H
#define TN_REF_H

#include "tn.h"

enum { TN_X = 1, TN_Y = 2, TN_Z = 4 };

/* out = c0 u + sum over the axes in the mask of w_a[k] (u(-k) + u(+k)). */
void tn_ref_axes(const struct tn_problem *pb, const struct tn_coef *c,
		 const struct tn_layout *l, const float *in, double *out,
		 float *mag, int axes);

#endif
