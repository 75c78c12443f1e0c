/*
 * fam_xs.c: descriptor of the xs family (templates/xs.m4): the second
 * derivative along x alone, out = c0 u + sum_k x[k] (u(x-k) + u(x+k)), with
 * each block row staged through shared memory (Micikevicius). Parameters:
 *   vec   floats per thread vector in x (1, 2, 4: float, float2, float4)
 *   bx    threads of a block in x;  by  threads in y (one row each)
 *   mode  0: one thread per output vector, the first 2 ceil(R/vec) threads of
 *         a row also fetch the halo; 1: one thread per input vector, a row of
 *         bx threads produces bx - 2 ceil(R/vec) vectors (halo threads load
 *         only); the 64 against 256 thread comparison of the source is bx
 *   acc   1: add the result to the output (tn.h)
 */
#include "fam.h"

#include <stdio.h>

enum { P_vec, P_bx, P_by, P_mode, P_acc, NP };

/* Halo vectors each side of a block row. */
static int xv(const struct tn_problem *pb, const int *v) { return (pb->r + v[P_vec] - 1) / v[P_vec]; }

/* Output vectors of a block row. */
static int ow(const struct tn_problem *pb, const int *v)
{
	return v[P_mode] ? v[P_bx] - 2 * xv(pb, v) : v[P_bx];
}

static int check(const struct tn_problem *pb, const int *v,
		 const struct tn_limits *lim, char *why, size_t n)
{
	long long lds;
	if (tn_fam_flag(v[P_mode], "mode", why, n) || tn_fam_flag(v[P_acc], "acc", why, n))
		return 1;
	if (v[P_vec] != 1 && v[P_vec] != 2 && v[P_vec] != 4)
		return snprintf(why, n, "vec=%d: must be 1, 2 or 4", v[P_vec]), 1;
	if (v[P_mode] && v[P_bx] <= 2 * xv(pb, v))
		return snprintf(why, n, "mode=1: bx=%d threads must exceed the %d halo threads "
				"(2 ceil(R/vec)) to produce any output", v[P_bx], 2 * xv(pb, v)), 1;
	if (pb->nz > 65535)
		return snprintf(why, n, "grid z = nz = %d blocks exceeds 65535", pb->nz), 1;
	/* domains are bounded (tn_space_set), so the product fits */
	lds = (long long)v[P_by] * (v[P_mode] ? v[P_bx] : v[P_bx] + 2 * xv(pb, v)) * v[P_vec] * 4;
	return tn_fam_common_check(pb, v[P_vec], v[P_bx], v[P_by], v[P_by], lds, lim, why, n);
}

static void geom(const struct tn_problem *pb, const int *v, unsigned g[3], unsigned b[3])
{
	tn_fam_tile_geom(pb, (const int[3]){ v[P_vec] * ow(pb, v), v[P_by], 1 },
			 v[P_bx], v[P_by], g, b);
}

static void geom_src(const struct tn_problem *pb, const int *v, char grid[3][96],
		     unsigned b[3])
{
	int wx = v[P_vec] * ow(pb, v);
	tn_fam_tile_geom_src((const int[3]){ wx, v[P_by], 1 }, v[P_bx], v[P_by], grid, b);
}

static int terms(int r) { return 2 * r + 1; }

/* Default space: 3 vec x 3 bx x 3 by x 2 mode x 2 acc, 108 configurations
 * at R = 4 (mode 1 needs bx > 2 ceil(R/vec): all fit up to R = 8). */
const struct tn_family tn_fam_xs = {
	.name = "xs", .tmpl = "xs.m4",
	.help = "Dxx alone through shared memory: halo by the first threads (mode 0) or by halo threads (mode 1)",
	.np = NP,
	.p = {
		FAM_P(vec, VEC, "floats per thread vector in x", 1, 4, (1, 2, 4), 0),
		FAM_P(bx, BX, "threads per block in x", 1, 1024, (64, 128, 256), 0),
		FAM_P(by, BY, "threads per block in y (rows)", 1, 1024, (1, 2, 4), 0),
		FAM_P(mode, NONE, "0 thread per output (+halo loads), 1 thread per input", 0, 1, (0, 1), 0),
		FAM_P(acc, ACC, "add to the output (out += Dxx u)", 0, 1, (0, 1), 0),
	},

	.check = check, .geom = geom, .geom_src = geom_src, .bytes = tn_fam_bytes, .coef = tn_fam_coef,
	.ref = tn_fam_ref, .terms = terms, .axes = TN_X,
	/* untuned: 256 threads, one per output, float2; fits every R */
	.dflt = "{\"vec\":2,\"bx\":128,\"by\":2,\"mode\":0,\"acc\":0}",
};
