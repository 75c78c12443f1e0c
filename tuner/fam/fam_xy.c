/*
 * fam_xy.c: descriptor of the xy family (templates/xy.m4): Dxx + Dyy fused in
 * one pass, out = c0 u + the x and y neighbour terms; the first pass of the
 * two-pass strategy (xy, then z with acc=1). Parameters:
 *   vec  floats per thread in x (1, 2, 4: float, float2, float4)
 *   bx   threads of a block in x;  by  threads in y
 *   ypt  rows per thread (taller tiles, fewer y halo rows per output)
 *   lds  0: x window and y column of each thread from memory (through L1)
 *        1: x window from memory into registers, y through an LDS tile of the
 *           block columns written from those registers plus the y halo rows
 *        2: the whole tile with x and y halos loaded into LDS by all threads
 *           in a strided loop; x and y terms both from LDS
 *   nw   z planes per block, walked one after the other (grid z ceil(nz/nw))
 *   nt   nontemporal (streaming) stores
 *   acc  1: add to the output (out += (Dxx + Dyy) u) instead of storing (tn.h)
 */
#include "fam.h"

#include <stdio.h>

enum { P_vec, P_bx, P_by, P_ypt, P_lds, P_nw, P_nt, P_acc, NP };

/* Bytes of LDS config v needs at radius r: lds 1, (rows + 2R) rows of bx
 * vectors; lds 2, (rows + 2R) rows of bx + 2 xv vectors. */
static long long lds_bytes(int r, const int *v)
{
	long long rows = (long long)v[P_by] * v[P_ypt], xv = (r + v[P_vec] - 1) / v[P_vec];
	return v[P_lds] == 1 ? (rows + 2 * r) * v[P_bx] * v[P_vec] * 4 :
	       v[P_lds] == 2 ? (rows + 2 * r) * (v[P_bx] + 2 * xv) * v[P_vec] * 4 : 0;
}

static int check(const struct tn_problem *pb, const int *v,
		 const struct tn_limits *lim, char *why, size_t n)
{
	/* domains are bounded (tn_space_set), so these products fit */
	long long rows = (long long)v[P_by] * v[P_ypt];
	if (v[P_lds] < 0 || v[P_lds] > 2)
		return snprintf(why, n, "lds=%d: must be 0, 1 or 2", v[P_lds]), 1;
	if (tn_fam_flag(v[P_nt], "nt", why, n) || tn_fam_flag(v[P_acc], "acc", why, n))
		return 1;
	if (v[P_nw] < 1 || v[P_ypt] < 1)
		return snprintf(why, n, "nw=%d ypt=%d: both must be at least 1", v[P_nw], v[P_ypt]), 1;
	if ((pb->nz + v[P_nw] - 1) / v[P_nw] > 65535)
		return snprintf(why, n, "nw=%d: grid z = %d blocks exceeds 65535", v[P_nw],
				(pb->nz + v[P_nw] - 1) / v[P_nw]), 1;
	return tn_fam_common_check(pb, v[P_vec], v[P_bx], v[P_by], rows, lds_bytes(pb->r, v), lim,
				   why, n);
}

static int terms(int r) { return 4 * r + 1; }

/* Default space: 3 vec x 8 shapes (bx 64, 256 x by 1, 4 x ypt 1, 4; up to 1024
 * threads and 16 rows) x 3 lds x 2 nw x 2 acc = 288 before the LDS limit. */
const struct tn_family tn_fam_xy = {
	.name = "xy", .tmpl = "xy.m4",
	.help = "fused Dxx+Dyy in one pass: x and y from memory, y tile or xy tile in LDS",
	.np = NP,
	.p = {
		FAM_P(vec, VEC, "floats per thread in x", 1, 4, (1, 2, 4), 0),
		FAM_P(bx, BX, "threads per block in x", 1, 1024, (64, 256), 0),
		FAM_P(by, BY, "threads per block in y", 1, 1024, (1, 4), 0),
		FAM_P(ypt, YPT, "rows per thread", 1, 64, (1, 4), 0),
		FAM_P(lds, NONE, "LDS: 0 none, 1 y tile, 2 xy tile", 0, 2, (0, 1, 2), 0),
		FAM_P(nw, Z, "z planes per block", 1, 65536, (1, 16), 0),
		FAM_P(nt, NONE, "nontemporal stores", 0, 1, (0), 0),
		FAM_P(acc, ACC, "add to the output (out += (Dxx+Dyy) u)", 0, 1, (0, 1), 0),
	},

	.check = check, .geom = tn_fam_geom, .geom_src = tn_fam_geom_src, .bytes = tn_fam_bytes, .coef = tn_fam_coef,
	.ref = tn_fam_ref, .terms = terms, .axes = TN_X | TN_Y,
	/* 256 threads, float2, xy tile of 8 + 2R rows: 13.8 KB of LDS at R=8 */
	.dflt = "{\"vec\":2,\"bx\":64,\"by\":4,\"ypt\":2,\"lds\":2,\"nw\":8,\"nt\":0,\"acc\":0}",
};
