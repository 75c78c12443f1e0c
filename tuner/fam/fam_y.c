/*
 * fam_y.c: descriptor of the y family (templates/y.m4): the second derivative
 * along y alone, out = c0 u + sum_k w_k (u(y-k) + u(y+k)), the y pass of the
 * multi-pass strategies (acc=1 there: it adds to the x pass). Parameters:
 *   vec  floats per thread in x (1, 2, 4: float, float2, float4)
 *   bx   threads of a block in x;  by  threads in y
 *   ypt  rows per thread
 *   lds  0: taps straight from memory (through L1) into a register column of
 *        ypt + 2R rows loaded once per plane (vec=1, ypt=1: the baseline)
 *        1: the block rows and their R halo rows each side through an LDS
 *        tile of (by ypt + 2R) x bx vectors, filled by a strided loop
 *   nw   z planes per block (grid z = ceil(nz / nw))
 *   nt   nontemporal (streaming) stores
 *   acc  1: add the result to the output (tn.h)
 */
#include "fam.h"

#include <stdio.h>

enum { P_vec, P_bx, P_by, P_ypt, P_lds, P_nw, P_nt, P_acc, NP };

static int check(const struct tn_problem *pb, const int *v,
		 const struct tn_limits *lim, char *why, size_t n)
{
	/* domains are bounded (tn_space_set), so these products fit */
	long long rows = (long long)v[P_by] * v[P_ypt];
	long long lds = v[P_lds] ? (rows + 2LL * pb->r) * v[P_bx] * v[P_vec] * 4 : 0;
	if (tn_fam_flag(v[P_lds], "lds", why, n) || tn_fam_flag(v[P_nt], "nt", why, n) ||
	    tn_fam_flag(v[P_acc], "acc", why, n))
		return 1;
	if (v[P_nw] < 1)
		return snprintf(why, n, "nw=%d: must be positive", v[P_nw]), 1;
	if ((pb->nz + (long long)v[P_nw] - 1) / v[P_nw] > 65535)
		return snprintf(why, n, "nw=%d: grid z exceeds 65535 blocks", v[P_nw]), 1;
	return tn_fam_common_check(pb, v[P_vec], v[P_bx], v[P_by], rows, lds, lim, why, n);
}

static int terms(int r) { return 2 * r + 1; }

const struct tn_family tn_fam_y = {
	.name = "y", .tmpl = "y.m4",
	.help = "Dyy alone (a multi-pass y pass): taps from memory or through an LDS tile",
	.np = NP,
	.p = {
		FAM_P(vec, VEC, "floats per thread in x", 1, 4, (1, 2, 4), 0),
		FAM_P(bx, BX, "threads per block in x", 1, 1024, (32, 64, 256), 0),
		FAM_P(by, BY, "threads per block in y", 1, 1024, (1, 4, 8), 0),
		FAM_P(ypt, YPT, "rows per thread", 1, 64, (1, 4), 0),
		FAM_P(lds, NONE, "0 taps from memory, 1 LDS tile", 0, 1, (0, 1), 0),
		FAM_P(nw, Z, "z planes per block", 1, 65536, (8), 0),
		FAM_P(nt, NONE, "nontemporal stores", 0, 1, (0, 1), 0),
		FAM_P(acc, ACC, "add to the output (out += D u)", 0, 1, (0, 1), 0),
	},

	.check = check, .geom = tn_fam_geom, .geom_src = tn_fam_geom_src, .bytes = tn_fam_bytes, .coef = tn_fam_coef,
	.ref = tn_fam_ref, .terms = terms, .axes = TN_Y,
	/* untuned: float4, an LDS tile of 8 + 2R rows (24 KiB at R=8) */
	.dflt = "{\"vec\":4,\"bx\":64,\"by\":4,\"ypt\":2,\"lds\":1,\"nw\":8,\"nt\":0,\"acc\":0}",
};
