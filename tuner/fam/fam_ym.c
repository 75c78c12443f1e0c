/*
 * fam_ym.c: descriptor of the ym family (templates/ym.m4): the second
 * derivative along y alone, out = c0 u + sum_k y[k] (u(y-k) + u(y+k)), by
 * marching (Micikevicius): each thread owns a pencil along y and advances a
 * register queue of 2R+1 rows, one new row loaded per output. Parameters:
 *   vec  floats per thread in x (1, 2, 4: float, float2, float4)
 *   bx   threads of a block in x;  bz  threads in z (one pencil each)
 *   nm   rows a thread marches (grid z = ceil(ny / nm))
 *   un   march steps per unrolled iteration; 0 means 2R+1, the queue length,
 *        where the queue rotates by renaming alone (no register moves)
 *   acc  1: add the result to the output (tn.h)
 * No LDS and no barrier: threads are independent.
 */
#include "fam.h"

#include <stdio.h>

enum { P_vec, P_bx, P_bz, P_nm, P_un, P_acc, NP };

static int check(const struct tn_problem *pb, const int *v,
		 const struct tn_limits *lim, char *why, size_t n)
{
	int un = v[P_un] ? v[P_un] : 2 * pb->r + 1;
	if (tn_fam_flag(v[P_acc], "acc", why, n))
		return 1;
	if (v[P_bx] < 1 || v[P_bz] < 1 || v[P_nm] < 1)
		return snprintf(why, n, "bx, bz and nm must be positive"), 1;
	if (v[P_un] < 0 || v[P_un] > 32)
		return snprintf(why, n, "un=%d: must be 0 (2R+1) or 1..32", v[P_un]), 1;
	if (un > v[P_nm])
		return snprintf(why, n, "un=%d: %d steps per iteration exceed the march of nm=%d rows",
				v[P_un], un, v[P_nm]), 1;
	if ((pb->nz + (long long)v[P_bz] - 1) / v[P_bz] > 65535)
		return snprintf(why, n, "bz=%d: grid y = ceil(nz/bz) exceeds 65535 blocks", v[P_bz]), 1;
	if ((pb->ny + (long long)v[P_nm] - 1) / v[P_nm] > 65535)
		return snprintf(why, n, "nm=%d: grid z = ceil(ny/nm) exceeds 65535 blocks", v[P_nm]), 1;
	/* rows = nm: the y extent of a block, whose grid check is the one above */
	return tn_fam_common_check(pb, v[P_vec], v[P_bx], v[P_bz], v[P_nm], 0, lim, why, n);
}

static void geom(const struct tn_problem *pb, const int *v, unsigned g[3], unsigned b[3])
{
	int wx = v[P_vec] * v[P_bx];
	b[0] = (unsigned)v[P_bx];
	b[1] = (unsigned)v[P_bz];
	b[2] = 1;
	g[0] = (unsigned)((pb->nx + wx - 1) / wx);
	g[1] = (unsigned)((pb->nz + v[P_bz] - 1) / v[P_bz]);
	g[2] = (unsigned)((pb->ny + v[P_nm] - 1) / v[P_nm]);
}

static void geom_src(const struct tn_problem *pb, const int *v, char grid[3][96],
		     unsigned b[3])
{
	(void)pb;               /* the same grid at every radius */
	int wx = v[P_vec] * v[P_bx];
	snprintf(grid[0], 96, "(nx + %d) / %d", wx - 1, wx);
	snprintf(grid[1], 96, "(nz + %d) / %d", v[P_bz] - 1, v[P_bz]);
	snprintf(grid[2], 96, "(ny + %d) / %d", v[P_nm] - 1, v[P_nm]);
	b[0] = (unsigned)v[P_bx];
	b[1] = (unsigned)v[P_bz];
	b[2] = 1;
}

static int terms(int r) { return 2 * r + 1; }

/* Default space: 3 vec x 4 block shapes (32 to 512 threads) x 2 nm x 4 un
 * x 2 acc, 192 configurations at any R (un=0 is 17 steps at R = 8, below
 * the shortest march of 32 rows). */
const struct tn_family tn_fam_ym = {
	.name = "ym", .tmpl = "ym.m4",
	.help = "Dyy alone by marching along y: a register queue of 2R+1 rows, unrolled march",
	.np = NP,
	.p = {
		FAM_P(vec, VEC, "floats per thread in x", 1, 4, (1, 2, 4), 0),
		FAM_P(bx, BX, "threads per block in x", 1, 1024, (32, 128), 0),
		FAM_P(bz, NONE, "threads per block in z", 1, 1024, (1, 4), 0),
		FAM_P(nm, Z, "rows marched per thread", 1, 65536, (32, 128), 0),
		FAM_P(un, NONE, "march steps per unrolled iteration (0: 2R+1)", 0, 32, (0, 1, 2, 4), 0),
		FAM_P(acc, ACC, "add to the output (out += Dyy u)", 0, 1, (0, 1), 0),
	},

	.check = check, .geom = geom, .geom_src = geom_src, .bytes = tn_fam_bytes, .coef = tn_fam_coef,
	.ref = tn_fam_ref, .terms = terms, .axes = TN_Y,
	/* untuned: 256 threads, float2, 64 rows; fits every R */
	.dflt = "{\"vec\":2,\"bx\":64,\"bz\":4,\"nm\":64,\"un\":2,\"acc\":0}",
};
