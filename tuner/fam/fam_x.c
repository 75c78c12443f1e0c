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

enum { P_vec, P_bx, P_by, P_ypt, P_xpt, P_win, P_nt, P_acc, NP };

static int check(const struct tn_problem *pb, const int *v,
		 const struct tn_limits *lim, char *why, size_t n)
{
	if (tn_fam_flag(v[P_win], "win", why, n) || tn_fam_flag(v[P_nt], "nt", why, n) ||
	    tn_fam_flag(v[P_acc], "acc", why, n))
		return 1;
	if (v[P_xpt] < 1 || v[P_xpt] > 8)
		return snprintf(why, n, "xpt=%d: must be 1..8", v[P_xpt]), 1;
	if (!v[P_win] && (v[P_vec] != 1 || v[P_xpt] != 1))
		return snprintf(why, n, "win=0 is the baseline: one output per thread, vec=1 and xpt=1"), 1;
	if (v[P_win] && v[P_vec] == 1 && v[P_xpt] == 1)
		return snprintf(why, n, "win=1 with vec=1 and xpt=1 loads the taps of the baseline (win=0)"), 1;
	if (pb->nz > 65535)
		return snprintf(why, n, "grid z = nz = %d blocks exceeds 65535", pb->nz), 1;
	return tn_fam_common_check(pb, v[P_vec], v[P_bx], v[P_by], (long long)v[P_by] * v[P_ypt], 0, lim,
				   why, n);
}

static void geom(const struct tn_problem *pb, const int *v, unsigned g[3], unsigned b[3])
{
	tn_fam_tile_geom(pb, (const int[3]){ v[P_vec] * v[P_xpt] * v[P_bx], v[P_by] * v[P_ypt], 1 },
			 v[P_bx], v[P_by], g, b);
}

static void geom_src(const struct tn_problem *pb, const int *v, char grid[3][96],
		     unsigned b[3])
{
	(void)pb;               /* the same grid at every radius */
	tn_fam_tile_geom_src((const int[3]){ v[P_vec] * v[P_xpt] * v[P_bx], v[P_by] * v[P_ypt], 1 },
			     v[P_bx], v[P_by], grid, b);
}

static int terms(int r) { return 2 * r + 1; }

const struct tn_family tn_fam_x = {
	.name = "x", .tmpl = "x.m4",
	.help = "Dxx alone (a multi-pass x pass): taps from memory or an aligned register window",
	.np = NP,
	.p = {
		FAM_P(vec, VEC, "floats per thread vector in x", 1, 4, (1, 2, 4), 0),
		FAM_P(bx, BX, "threads per block in x", 1, 1024, (32, 128, 512), 0),
		FAM_P(by, BY, "threads per block in y", 1, 1024, (1, 2, 4), 0),
		FAM_P(ypt, YPT, "rows per thread", 1, 64, (1, 2), 0),
		FAM_P(xpt, NONE, "consecutive vectors per thread in x", 1, 8, (1, 2), 0),
		FAM_P(win, NONE, "0 baseline (taps from memory), 1 register window", 0, 1, (0, 1), 0),
		FAM_P(nt, NONE, "nontemporal stores", 0, 1, (0, 1), 0),
		FAM_P(acc, ACC, "add to the output (out += D u)", 0, 1, (0, 1), 0),
	},

	.check = check, .geom = geom, .geom_src = geom_src, .bytes = tn_fam_bytes, .coef = tn_fam_coef,
	.ref = tn_fam_ref, .terms = terms, .axes = TN_X,
	/* untuned: float4 window, 256 threads; fits every R */
	.dflt = "{\"vec\":4,\"bx\":64,\"by\":4,\"ypt\":1,\"xpt\":1,\"win\":1,\"nt\":0,\"acc\":0}",
};
