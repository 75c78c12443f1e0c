/*
 * fam_xyz.c: descriptor of the fused xyz family (templates/xyz.m4): the sum
 * of the three second derivatives in one pass. Parameters:
 *   vec  floats per thread in x (1, 2, 4: float, float2, float4)
 *   bx   threads of a block in x;  by  threads in y
 *   ypt  rows per thread (fdtune's knob: taller tiles, fewer halo rows)
 *   lds  y neighbours through LDS (1) or straight from memory (0)
 *   nw   z planes per block, the sliding-window length (>= nz: one block)
 *   nt   nontemporal (streaming) stores
 *   pf   prefetch: load plane k+1 into registers before computing plane k
 */
#include "fam.h"

#include <stdio.h>

int fam_common_check(const struct tn_problem *pb, int vec, int bx, int by,
		     int rows, int lds_bytes, const struct tn_limits *lim,
		     char *why, size_t n)
{
	(void)pb;
	if (vec != 1 && vec != 2 && vec != 4)
		return snprintf(why, n, "vec=%d: must be 1, 2 or 4", vec), 1;
	if ((long long)bx * by > lim->max_threads)
		return snprintf(why, n, "bx*by = %lld threads exceeds the limit of %d per block",
				(long long)bx * by, lim->max_threads), 1;
	if (lds_bytes > lim->lds_block)
		return snprintf(why, n, "needs %d bytes of LDS, over the limit of %d per block",
				lds_bytes, lim->lds_block), 1;
	if ((pb->ny + rows - 1) / rows > 65535)
		return snprintf(why, n, "grid y = %d blocks exceeds 65535", (pb->ny + rows - 1) / rows), 1;
	return 0;
}

int fam_flag(int v, const char *name, char *why, size_t n)
{
	if (v == 0 || v == 1)
		return 0;
	snprintf(why, n, "%s=%d: must be 0 or 1", name, v);
	return 1;
}

enum { VEC, BX, BY, YPT, LDS, NW, NT, PF };

static int check(const struct tn_problem *pb, const int *v,
		 const struct tn_limits *lim, char *why, size_t n)
{
	int rows = v[BY] * v[YPT];
	int lds = v[LDS] ? (rows + 2 * pb->r) * v[BX] * v[VEC] * 4 : 0;
	if (fam_flag(v[LDS], "lds", why, n) || fam_flag(v[NT], "nt", why, n) ||
	    fam_flag(v[PF], "pf", why, n))
		return 1;
	if ((pb->nz + v[NW] - 1) / v[NW] > 65535)
		return snprintf(why, n, "nw=%d: grid z exceeds 65535 blocks", v[NW]), 1;
	return fam_common_check(pb, v[VEC], v[BX], v[BY], rows, lds, lim, why, n);
}

static void geom(const struct tn_problem *pb, const int *v, unsigned g[3], unsigned b[3])
{
	int wx = v[VEC] * v[BX], wy = v[BY] * v[YPT];
	b[0] = (unsigned)v[BX];
	b[1] = (unsigned)v[BY];
	b[2] = 1;
	g[0] = (unsigned)((pb->nx + wx - 1) / wx);
	g[1] = (unsigned)((pb->ny + wy - 1) / wy);
	g[2] = (unsigned)((pb->nz + v[NW] - 1) / v[NW]);
}

static void ref(const struct tn_problem *pb, const struct tn_coef *c,
		const struct tn_layout *l, const float *in, double *out, float *mag)
{
	tn_ref_axes(pb, c, l, in, out, mag, TN_X | TN_Y | TN_Z);
}

static void coef(const struct tn_problem *pb, struct tn_coef *c)
{
	fam_coef_axes(pb, TN_X | TN_Y | TN_Z, c);
}

static int terms(int r) { return 6 * r + 1; }

const struct tn_family fam_xyz = {
	.name = "xyz", .tmpl = "xyz.m4",
	.help = "fused Dxx+Dyy+Dzz: x from registers, y via LDS or registers, z window",
	.np = 8,
	.p = {
		{ "vec", "floats per thread in x", 3, { 1, 2, 4 } },
		{ "bx", "threads per block in x", 4, { 32, 64, 128, 256 } },
		{ "by", "threads per block in y", 4, { 1, 2, 4, 8 } },
		{ "ypt", "rows per thread", 3, { 1, 2, 4 } },
		{ "lds", "y neighbours through LDS", 2, { 0, 1 } },
		{ "nw", "z planes per block (window length)", 4, { 32, 64, 128, 512 } },
		{ "nt", "nontemporal stores", 2, { 0, 1 } },
		{ "pf", "prefetch the next plane into registers", 2, { 0, 1 } },
	},
	.check = check, .geom = geom, .bytes = fam_bytes_2, .coef = coef,
	.ref = ref, .terms = terms,
};
