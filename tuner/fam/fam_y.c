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

enum { VEC, BX, BY, YPT, LDS, NW, NT, ACC };

static int check(const struct tn_problem *pb, const int *v,
		 const struct tn_limits *lim, char *why, size_t n)
{
	/* domains are bounded (tn_space_set), so these products fit */
	long long rows = (long long)v[BY] * v[YPT];
	long long lds = v[LDS] ? (rows + 2LL * pb->r) * v[BX] * v[VEC] * 4 : 0;
	if (tn_fam_flag(v[LDS], "lds", why, n) || tn_fam_flag(v[NT], "nt", why, n) ||
	    tn_fam_flag(v[ACC], "acc", why, n))
		return 1;
	if (v[NW] < 1)
		return snprintf(why, n, "nw=%d: must be positive", v[NW]), 1;
	if ((pb->nz + (long long)v[NW] - 1) / v[NW] > 65535)
		return snprintf(why, n, "nw=%d: grid z exceeds 65535 blocks", v[NW]), 1;
	return tn_fam_common_check(pb, v[VEC], v[BX], v[BY], rows, lds, lim, why, n);
}

static int terms(int r) { return 2 * r + 1; }

const struct tn_family tn_fam_y = {
	.name = "y", .tmpl = "y.m4",
	.help = "Dyy alone (a multi-pass y pass): taps from memory or through an LDS tile",
	.np = 8,
	.p = {
		{ "vec", "floats per thread in x", 1, 4, 3, { 1, 2, 4 } },
		{ "bx", "threads per block in x", 1, 1024, 3, { 32, 64, 256 } },
		{ "by", "threads per block in y", 1, 1024, 3, { 1, 4, 8 } },
		{ "ypt", "rows per thread", 1, 64, 2, { 1, 4 } },
		{ "lds", "0 taps from memory, 1 LDS tile", 0, 1, 2, { 0, 1 } },
		{ "nw", "z planes per block", 1, 65536, 1, { 8 } },
		{ "nt", "nontemporal stores", 0, 1, 2, { 0, 1 } },
		{ "acc", "add to the output (out += D u)", 0, 1, 2, { 0, 1 } },
	},

	.check = check, .geom = tn_fam_geom, .geom_src = tn_fam_geom_src, .bytes = tn_fam_bytes, .coef = tn_fam_coef,
	.ref = tn_fam_ref, .terms = terms, .axes = TN_Y,
	/* untuned: float4, an LDS tile of 8 + 2R rows (24 KiB at R=8) */
	.dflt = "{\"vec\":4,\"bx\":64,\"by\":4,\"ypt\":2,\"lds\":1,\"nw\":8,\"nt\":0,\"acc\":0}",
};
