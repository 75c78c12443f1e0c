/*
 * fam_d1.c: descriptors of the first-derivative families d1x, d1y and d1z
 * (templates/d1x.m4, d1y.m4, d1z.m4, all three templates/d1.m4):
 *   out = du/da = sum_k a_k / h_a (u(+k) - u(-k)),
 * central weights a_k of order 2R: one pass of the two-pass mixed derivative
 * (Micikevicius), d2u/(ds dt) = Dt (Ds u), the second pass reading the output
 * of the first. The first pass must also cover the R halo lines of the second
 * axis: run it over the domain extended by R along that axis (in and out moved
 * back by R rows or planes, n + 2R of them); the kernels read only along their
 * own axis, so the extension needs no more input halo (templates/d1.m4).
 * Extending along x moves the pointers by R floats: use vec dividing R there.
 * Coefficient contract (coef): the weights of the family axis (c.x, c.y or
 * c.z)[k] = a_k / h for k = 1..R, zero elsewhere; c0 = 0.
 * Parameters:
 *   vec  floats per thread in x (1, 2, 4: float, float2, float4)
 *   bx   threads of a block in x;  by  threads in y
 *   ypt  rows per thread
 *   nw   z planes per block (d1z: the march; 1 is the baseline, every tap
 *        loaded for each output)
 *   acc  1: add the result to the output (tn.h)
 * No LDS and no barrier: threads are independent.
 */
#include "fam.h"

#include <stdio.h>

enum { P_vec, P_bx, P_by, P_ypt, P_nw, P_acc, NP };

/* Register floats of the column (d1y) or queues (d1z) of a thread, at most
 * QMAX (fam_dmix.c). */
enum { QMAX = 144 };

static int check_axis(int axis, const struct tn_problem *pb, const int *v,
		      const struct tn_limits *lim, char *why, size_t n)
{
	long long rows = (long long)v[P_by] * v[P_ypt];
	long long q = axis == TN_Y ? (long long)(v[P_ypt] + 2 * pb->r) * v[P_vec] :
		      axis == TN_Z ? (long long)v[P_ypt] * (2 * pb->r + 1) * v[P_vec] : 0;
	if (tn_fam_flag(v[P_acc], "acc", why, n))
		return 1;
	if (v[P_nw] < 1 || v[P_ypt] < 1)
		return snprintf(why, n, "nw=%d ypt=%d: both must be at least 1", v[P_nw], v[P_ypt]), 1;
	if ((pb->nz + (long long)v[P_nw] - 1) / v[P_nw] > 65535)
		return snprintf(why, n, "nw=%d: grid z exceeds 65535 blocks", v[P_nw]), 1;
	if (q > QMAX)
		return snprintf(why, n, "%lld floats of register queue per thread, over %d",
				q, (int)QMAX), 1;
	return tn_fam_common_check(pb, v[P_vec], v[P_bx], v[P_by], rows, 0, lim, why, n);
}

static int terms(int r) { return 2 * r; }

/* One check for the three families: the axis is the family's. */
static int check(const struct tn_problem *pb, const int *v, const struct tn_limits *lim,
		 char *why, size_t n)
{
	return check_axis(pb->fam->axes, pb, v, lim, why, n);
}

/* Default spaces at R=4 (before the queue limit):
 * d1x 3 vec x 3 bx x 2 by x 2 ypt x 2 nw x 2 acc = 144;
 * d1y 3 vec x 3 bx x 2 by x 2 ypt x 2 nw x 2 acc = 144;
 * d1z 3 vec x 3 bx x 2 by x 1 ypt x 3 nw x 2 acc = 108. */
const struct tn_family tn_fam_d1x = {
	.name = "d1x", .tmpl = "d1x.m4",
	.help = "first derivative Dx (a two-pass mixed pass): aligned register window",
	.np = NP,
	.p = {
		FAM_P(vec, VEC, "floats per thread in x", 1, 4, (1, 2, 4), 0),
		FAM_P(bx, BX, "threads per block in x", 1, 1024, (64, 128, 256), 0),
		FAM_P(by, BY, "threads per block in y", 1, 1024, (1, 4), 0),
		FAM_P(ypt, YPT, "rows per thread", 1, 64, (1, 4), 0),
		FAM_P(nw, Z, "z planes per block", 1, 65536, (1, 8), 0),
		FAM_P(acc, ACC, "add to the output (out += Dx u)", 0, 1, (0, 1), 0),
	},
	.check = check, .geom = tn_fam_geom, .geom_src = tn_fam_geom_src, .bytes = tn_fam_bytes,
	.coef = tn_fam_coef_d1, .ref = tn_fam_ref_d1, .terms = terms, .d1 = 1,
	.axes = TN_X,
	.dflt = "{\"vec\":4,\"bx\":64,\"by\":4,\"ypt\":1,\"nw\":1,\"acc\":0}",
};

const struct tn_family tn_fam_d1y = {
	.name = "d1y", .tmpl = "d1y.m4",
	.help = "first derivative Dy (a two-pass mixed pass): register column of ypt + 2R rows",
	.np = NP,
	.p = {
		FAM_P(vec, VEC, "floats per thread in x", 1, 4, (1, 2, 4), 0),
		FAM_P(bx, BX, "threads per block in x", 1, 1024, (32, 64, 128), 0),
		FAM_P(by, BY, "threads per block in y", 1, 1024, (1, 4), 0),
		FAM_P(ypt, YPT, "rows per thread", 1, 64, (4, 8), 0),
		FAM_P(nw, Z, "z planes per block", 1, 65536, (1, 8), 0),
		FAM_P(acc, ACC, "add to the output (out += Dy u)", 0, 1, (0, 1), 0),
	},
	.check = check, .geom = tn_fam_geom, .geom_src = tn_fam_geom_src, .bytes = tn_fam_bytes,
	.coef = tn_fam_coef_d1, .ref = tn_fam_ref_d1, .terms = terms, .d1 = 1,
	.axes = TN_Y,
	/* untuned: float4, 8 rows per thread: 96 column floats at R=8 */
	.dflt = "{\"vec\":4,\"bx\":64,\"by\":4,\"ypt\":8,\"nw\":4,\"acc\":0}",
};

const struct tn_family tn_fam_d1z = {
	.name = "d1z", .tmpl = "d1z.m4",
	.help = "first derivative Dz (a two-pass mixed pass): register queue marching along z",
	.np = NP,
	.p = {
		FAM_P(vec, VEC, "floats per thread in x", 1, 4, (1, 2, 4), 0),
		FAM_P(bx, BX, "threads per block in x", 1, 1024, (32, 64, 128), 0),
		FAM_P(by, BY, "threads per block in y", 1, 1024, (2, 8), 0),
		FAM_P(ypt, YPT, "rows per thread", 1, 64, (1), 0),
		FAM_P(nw, Z, "z planes per block (1 baseline, more: the march)", 1, 65536, (1, 16, 64), 0),
		FAM_P(acc, ACC, "add to the output (out += Dz u)", 0, 1, (0, 1), 0),
	},
	.check = check, .geom = tn_fam_geom, .geom_src = tn_fam_geom_src, .bytes = tn_fam_bytes,
	.coef = tn_fam_coef_d1, .ref = tn_fam_ref_d1, .terms = terms, .d1 = 1,
	.axes = TN_Z,
	/* untuned: float2, 256 threads marching 64 planes (34 queue floats at R=8) */
	.dflt = "{\"vec\":2,\"bx\":64,\"by\":4,\"ypt\":1,\"nw\":64,\"acc\":0}",
};
