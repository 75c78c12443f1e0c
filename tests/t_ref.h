/*
 * t_ref.h: helpers of the CPU tests that run family references on a small
 * grid with remainders in every dimension (t_strategy.c, t_mixed.c).
 */
#ifndef T_REF_H
#define T_REF_H

#include "tn.h"

/* A problem of family name at radius r: 23x13x11, spacings 1, 0.5, 2. */
struct tn_problem t_prob(const char *name, int r);
/* The reference of family name at radius r on field in of layout l. */
void t_ref_of(const char *name, int r, const struct tn_layout *l, const float *in,
	      double *out, float *mag);
/* Element o (compact x-fastest over l) in the field layout l. */
long long t_at(const struct tn_layout *l, long long o);

#endif
