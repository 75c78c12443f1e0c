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

enum { VEC, BX, BY, NW, PF, NT, ACC };

static int check(const struct tn_problem *pb, const int *v,
		 const struct tn_limits *lim, char *why, size_t n)
{
	if (tn_fam_flag(v[PF], "pf", why, n) || tn_fam_flag(v[NT], "nt", why, n) ||
	    tn_fam_flag(v[ACC], "acc", why, n))
		return 1;
	if (v[NW] < 1)
		return snprintf(why, n, "nw=%d: must be at least 1", v[NW]), 1;
	if (v[PF] && v[NW] == 1)
		return snprintf(why, n, "pf=1 needs the window (nw > 1); nw=1 is the baseline"), 1;
	if ((pb->nz + v[NW] - 1) / v[NW] > 65535)
		return snprintf(why, n, "nw=%d: grid z = %d blocks exceeds 65535", v[NW],
				(pb->nz + v[NW] - 1) / v[NW]), 1;
	return tn_fam_common_check(pb, v[VEC], v[BX], v[BY], v[BY], 0, lim, why, n);
}

static int terms(int r) { return 2 * r + 1; }

/* Default space: 3 vec x 6 block shapes (32 to 1024 threads) x 5 (nw, pf)
 * (the baseline and two windows, each with and without prefetch) x nt x acc,
 * 360 configurations at any R. */
const struct tn_family tn_fam_z = {
	.name = "z", .tmpl = "z.m4",
	.help = "Dzz alone: baseline (nw=1) or register sliding window along z",
	.np = 7,
	.p = {
		{ "vec", "floats per thread in x", 1, 4, 3, { 1, 2, 4 } },
		{ "bx", "threads per block in x", 1, 1024, 3, { 32, 64, 256 } },
		{ "by", "threads per block in y", 1, 1024, 2, { 1, 4 } },
		{ "nw", "z planes per thread (1: baseline, else window)", 1, 65536, 3, { 1, 32, 128 } },
		{ "pf", "window: load the next plane one step ahead", 0, 1, 2, { 0, 1 } },
		{ "nt", "nontemporal stores", 0, 1, 2, { 0, 1 } },
		{ "acc", "add to the output (out += Dzz u)", 0, 1, 2, { 0, 1 } },
	},

	.check = check, .geom = tn_fam_geom, .geom_src = tn_fam_geom_src, .bytes = tn_fam_bytes, .coef = tn_fam_coef,
	.ref = tn_fam_ref, .terms = terms, .axes = TN_Z,
	/* 256 threads, float2, a 64-plane window: fits every R and target */
	.dflt = "{\"vec\":2,\"bx\":64,\"by\":4,\"nw\":64,\"pf\":1,\"nt\":0,\"acc\":0}",
};
