/*
 * fam_x.c: descriptor of the x family (templates/x.m4): the second derivative
 * along x alone, out = c0 u + sum_k w_k (u(x-k) + u(x+k)), the x pass of the
 * multi-pass strategies (acc=0 there; the y and z passes then add to it).
 * Parameters:
 *   vec  floats per thread vector in x (1, 2, 4: float, float2, float4)
 *   bx   threads of a block in x;  by  threads in y
 *   ypt  rows per thread
 *   xpt  consecutive vectors per thread in x (one wider window, less halo)
 *   win  0: baseline, one output per thread, every tap a load from memory
 *        (vec=1, xpt=1); 1: the aligned vectors covering the outputs of the
 *        thread and R floats each side loaded once into a register window
 *   nt   nontemporal (streaming) stores
 *   acc  1: add the result to the output (tn.h)
 */
#include "fam.h"

#include <stdio.h>

enum { VEC, BX, BY, YPT, XPT, WIN, NT, ACC };

static int check(const struct tn_problem *pb, const int *v,
		 const struct tn_limits *lim, char *why, size_t n)
{
	if (tn_fam_flag(v[WIN], "win", why, n) || tn_fam_flag(v[NT], "nt", why, n) ||
	    tn_fam_flag(v[ACC], "acc", why, n))
		return 1;
	if (v[XPT] < 1 || v[XPT] > 8)
		return snprintf(why, n, "xpt=%d: must be 1..8", v[XPT]), 1;
	if (!v[WIN] && (v[VEC] != 1 || v[XPT] != 1))
		return snprintf(why, n, "win=0 is the baseline: one output per thread, vec=1 and xpt=1"), 1;
	if (v[WIN] && v[VEC] == 1 && v[XPT] == 1)
		return snprintf(why, n, "win=1 with vec=1 and xpt=1 loads the taps of the baseline (win=0)"), 1;
	if (pb->nz > 65535)
		return snprintf(why, n, "grid z = nz = %d blocks exceeds 65535", pb->nz), 1;
	return tn_fam_common_check(pb, v[VEC], v[BX], v[BY], (long long)v[BY] * v[YPT], 0, lim,
				   why, n);
}

static void geom(const struct tn_problem *pb, const int *v, unsigned g[3], unsigned b[3])
{
	tn_fam_tile_geom(pb, (const int[3]){ v[VEC] * v[XPT] * v[BX], v[BY] * v[YPT], 1 },
			 v[BX], v[BY], g, b);
}

static void geom_src(const struct tn_problem *pb, const int *v, char grid[3][96],
		     unsigned b[3])
{
	(void)pb;               /* the same grid at every radius */
	tn_fam_tile_geom_src((const int[3]){ v[VEC] * v[XPT] * v[BX], v[BY] * v[YPT], 1 },
			     v[BX], v[BY], grid, b);
}

static int terms(int r) { return 2 * r + 1; }

const struct tn_family tn_fam_x = {
	.name = "x", .tmpl = "x.m4",
	.help = "Dxx alone (a multi-pass x pass): taps from memory or an aligned register window",
	.np = 8,
	.p = {
		{ "vec", "floats per thread vector in x", 1, 4, 3, { 1, 2, 4 } },
		{ "bx", "threads per block in x", 1, 1024, 3, { 32, 128, 512 } },
		{ "by", "threads per block in y", 1, 1024, 3, { 1, 2, 4 } },
		{ "ypt", "rows per thread", 1, 64, 2, { 1, 2 } },
		{ "xpt", "consecutive vectors per thread in x", 1, 8, 2, { 1, 2 } },
		{ "win", "0 baseline (taps from memory), 1 register window", 0, 1, 2, { 0, 1 } },
		{ "nt", "nontemporal stores", 0, 1, 2, { 0, 1 } },
		{ "acc", "add to the output (out += D u)", 0, 1, 2, { 0, 1 } },
	},

	.check = check, .geom = geom, .geom_src = geom_src, .bytes = tn_fam_bytes, .coef = tn_fam_coef,
	.ref = tn_fam_ref, .terms = terms, .axes = TN_X,
	/* untuned: float4 window, 256 threads; fits every R */
	.dflt = "{\"vec\":4,\"bx\":64,\"by\":4,\"ypt\":1,\"xpt\":1,\"win\":1,\"nt\":0,\"acc\":0}",
};
