/*
 * fam_z.c: descriptor of the z family (templates/z.m4): the second derivative
 * along z alone, out = c0 u + sum_k z[k] (u(k-q) + u(k+q)), the z pass of a
 * multi-pass strategy. Parameters:
 *   vec  floats per thread in x (1, 2, 4: float, float2, float4)
 *   bx   threads of a block in x;  by  threads in y (one column each)
 *   nw   z planes per thread: 1 is the baseline (every tap loaded from memory,
 *        one thread per output vector); above 1 the register sliding window
 *        (one new plane loaded per output)
 *   pf   (nw > 1) load the next plane one step ahead
 *   nt   nontemporal (streaming) stores
 *   acc  1: add to the output (out += Dzz u) instead of storing (tn.h)
 * No LDS and no barrier: threads are independent.
 */
#include "fam.h"

#include <stdio.h>

enum { P_vec, P_bx, P_by, P_nw, P_pf, P_nt, P_acc, NP };

static int check(const struct tn_problem *pb, const int *v,
		 const struct tn_limits *lim, char *why, size_t n)
{
	if (tn_fam_flag(v[P_pf], "pf", why, n) || tn_fam_flag(v[P_nt], "nt", why, n) ||
	    tn_fam_flag(v[P_acc], "acc", why, n))
		return 1;
	if (v[P_nw] < 1)
		return snprintf(why, n, "nw=%d: must be at least 1", v[P_nw]), 1;
	if (v[P_pf] && v[P_nw] == 1)
		return snprintf(why, n, "pf=1 needs the window (nw > 1); nw=1 is the baseline"), 1;
	if ((pb->nz + v[P_nw] - 1) / v[P_nw] > 65535)
		return snprintf(why, n, "nw=%d: grid z = %d blocks exceeds 65535", v[P_nw],
				(pb->nz + v[P_nw] - 1) / v[P_nw]), 1;
	return tn_fam_common_check(pb, v[P_vec], v[P_bx], v[P_by], v[P_by], 0, lim, why, n);
}

static int terms(int r) { return 2 * r + 1; }

/* Default space: 3 vec x 6 block shapes (32 to 1024 threads) x 5 (nw, pf)
 * (the baseline and two windows, each with and without prefetch) x nt x acc,
 * 360 configurations at any R. */
const struct tn_family tn_fam_z = {
	.name = "z", .tmpl = "z.m4",
	.help = "Dzz alone: baseline (nw=1) or register sliding window along z",
	.np = NP,
	.p = {
		FAM_P(vec, VEC, "floats per thread in x", 1, 4, (1, 2, 4), 0),
		FAM_P(bx, BX, "threads per block in x", 1, 1024, (32, 64, 256), 0),
		FAM_P(by, BY, "threads per block in y", 1, 1024, (1, 4), 0),
		FAM_P(nw, Z, "z planes per thread (1: baseline, else window)", 1, 65536, (1, 32, 128), 0),
		FAM_P(pf, NONE, "window: load the next plane one step ahead", 0, 1, (0, 1), 0),
		FAM_P(nt, NONE, "nontemporal stores", 0, 1, (0, 1), 0),
		FAM_P(acc, ACC, "add to the output (out += Dzz u)", 0, 1, (0, 1), 0),
	},

	.check = check, .geom = tn_fam_geom, .geom_src = tn_fam_geom_src, .bytes = tn_fam_bytes, .coef = tn_fam_coef,
	.ref = tn_fam_ref, .terms = terms, .axes = TN_Z,
	/* 256 threads, float2, a 64-plane window: fits every R and target */
	.dflt = "{\"vec\":2,\"bx\":64,\"by\":4,\"nw\":64,\"pf\":1,\"nt\":0,\"acc\":0}",
};
