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

enum { VEC, BX, BY, YPT, LDS, NW, NT, ACC };

/* Bytes of LDS config v needs at radius r: lds 1, (rows + 2R) rows of bx
 * vectors; lds 2, (rows + 2R) rows of bx + 2 xv vectors. */
static long long lds_bytes(int r, const int *v)
{
	long long rows = (long long)v[BY] * v[YPT], xv = (r + v[VEC] - 1) / v[VEC];
	return v[LDS] == 1 ? (rows + 2 * r) * v[BX] * v[VEC] * 4 :
	       v[LDS] == 2 ? (rows + 2 * r) * (v[BX] + 2 * xv) * v[VEC] * 4 : 0;
}

static int check(const struct tn_problem *pb, const int *v,
		 const struct tn_limits *lim, char *why, size_t n)
{
	/* domains are bounded (tn_space_set), so these products fit */
	long long rows = (long long)v[BY] * v[YPT];
	if (v[LDS] < 0 || v[LDS] > 2)
		return snprintf(why, n, "lds=%d: must be 0, 1 or 2", v[LDS]), 1;
	if (tn_fam_flag(v[NT], "nt", why, n) || tn_fam_flag(v[ACC], "acc", why, n))
		return 1;
	if (v[NW] < 1 || v[YPT] < 1)
		return snprintf(why, n, "nw=%d ypt=%d: both must be at least 1", v[NW], v[YPT]), 1;
	if ((pb->nz + v[NW] - 1) / v[NW] > 65535)
		return snprintf(why, n, "nw=%d: grid z = %d blocks exceeds 65535", v[NW],
				(pb->nz + v[NW] - 1) / v[NW]), 1;
	return tn_fam_common_check(pb, v[VEC], v[BX], v[BY], rows, lds_bytes(pb->r, v), lim,
				   why, n);
}

static int terms(int r) { return 4 * r + 1; }

/* Default space: 3 vec x 8 shapes (bx 64, 256 x by 1, 4 x ypt 1, 4; up to 1024
 * threads and 16 rows) x 3 lds x 2 nw x 2 acc = 288 before the LDS limit. */
const struct tn_family tn_fam_xy = {
	.name = "xy", .tmpl = "xy.m4",
	.help = "fused Dxx+Dyy in one pass: x and y from memory, y tile or xy tile in LDS",
	.np = 8,
	.p = {
		{ "vec", "floats per thread in x", 1, 4, 3, { 1, 2, 4 } },
		{ "bx", "threads per block in x", 1, 1024, 2, { 64, 256 } },
		{ "by", "threads per block in y", 1, 1024, 2, { 1, 4 } },
		{ "ypt", "rows per thread", 1, 64, 2, { 1, 4 } },
		{ "lds", "LDS: 0 none, 1 y tile, 2 xy tile", 0, 2, 3, { 0, 1, 2 } },
		{ "nw", "z planes per block", 1, 65536, 2, { 1, 16 } },
		{ "nt", "nontemporal stores", 0, 1, 1, { 0 } },
		{ "acc", "add to the output (out += (Dxx+Dyy) u)", 0, 1, 2, { 0, 1 } },
	},

	.check = check, .geom = tn_fam_geom, .geom_src = tn_fam_geom_src, .bytes = tn_fam_bytes, .coef = tn_fam_coef,
	.ref = tn_fam_ref, .terms = terms, .axes = TN_X | TN_Y,
	/* 256 threads, float2, xy tile of 8 + 2R rows: 13.8 KB of LDS at R=8 */
	.dflt = "{\"vec\":2,\"bx\":64,\"by\":4,\"ypt\":2,\"lds\":2,\"nw\":8,\"nt\":0,\"acc\":0}",
};
