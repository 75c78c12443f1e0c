/*
 * tn_ref.h: CPU references shared by family descriptors.
 */
#ifndef TN_REF_H
#define TN_REF_H

#include "tn.h"

enum { TN_X = 1, TN_Y = 2, TN_Z = 4 };

/* A row segment [i0, i1) of interior row j of plane k, as tn_ref_tiles
 * calls it (from several threads at once: it writes its own points only). */
/* Points of a row segment at most, so a row function may keep a segment's
 * sums in arrays on its stack, term by term (vectorisable). */
#define TN_REF_TI 256
typedef void (*tn_ref_row)(void *ctx, int i0, int i1, int j, int k);
/* Calls row for every row segment of the interior of l, once, in tiles of
 * rows swept along z (tn_ref.c says why), the tiles spread over threads. */
void tn_ref_tiles(const struct tn_layout *l, tn_ref_row row, void *ctx);

/* out = c0 u + sum over the axes in the mask of w_a[k] (u(-k) + u(+k)). */
void tn_ref_axes(const struct tn_problem *pb, const struct tn_coef *c,
		 const struct tn_layout *l, const float *in, double *out,
		 float *mag, int axes);

/* tn_ref_mixed.c. First-derivative weights a_k / h_a (tn_d1_weights) in the
 * weights of the axes in the mask, zero elsewhere, c0 = 0. */
void tn_coef_d1_axes(const struct tn_problem *pb, int mask, struct tn_coef *c);
/* out = sum_k w_a[k] (u(+k) - u(-k)) along the one axis given (TN_X, TN_Y or
 * TN_Z); mag over 2R terms. */
void tn_ref_d1(const struct tn_problem *pb, const struct tn_coef *c,
	       const struct tn_layout *l, const float *in, double *out,
	       float *mag, int axis);
/* out = sum_{p,q} w_s[p] w_t[q] (u(+p,+q) - u(+p,-q) - u(-p,+q) + u(-p,-q))
 * along the two axes s < t of the mask; mag over 4R^2 terms. */
void tn_ref_mixed(const struct tn_problem *pb, const struct tn_coef *c,
		  const struct tn_layout *l, const float *in, double *out,
		  float *mag, int axes);

/* The same for the family of pb, along its axes (tn_family.axes). */
void tn_fam_coef_d1(const struct tn_problem *pb, struct tn_coef *c);
void tn_fam_ref_d1(const struct tn_problem *pb, const struct tn_coef *c,
		   const struct tn_layout *l, const float *in, double *out, float *mag);
void tn_fam_ref_mixed(const struct tn_problem *pb, const struct tn_coef *c,
		      const struct tn_layout *l, const float *in, double *out, float *mag);

/* tn_ref_wave.c: the time stepper of iso3dfd (tn_family.step_ref), and its
 * terms per point: 6R + 1 of the Laplacian and 3 of the update. */
int tn_ref_wave(const struct tn_problem *pb, const struct tn_coef *c,
		const struct tn_layout *l, const float *a, const float *b,
		const float *vel, int steps, double *ua, double *ub, float *ma,
		float *mb, char *err, size_t n);
int tn_wave_terms(int r);

#endif
