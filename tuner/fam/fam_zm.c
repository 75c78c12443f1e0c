/*
 * fam_zm.c: descriptor of the zm family (templates/zm.m4): the second
 * derivative along z alone, out = c0 u + sum_k z[k] (u(z-k) + u(z+k)), by
 * marching (Micikevicius) with an unroll knob the z family lacks: each
 * thread owns a pencil along z and advances a register queue of 2R+1
 * planes, one new plane loaded per output. Parameters:
 *   vec  floats per thread in x (1, 2, 4: float, float2, float4)
 *   bx   threads of a block in x;  by  threads in y (one pencil each)
 *   nm   planes a thread marches (grid z = ceil(nz / nm))
 *   un   march steps per unrolled iteration; 0 means 2R+1, the queue length,
 *        where the queue rotates by renaming alone (no register moves)
 *   acc  1: add the result to the output (tn.h)
 * No LDS and no barrier: threads are independent.
 */
#include "fam.h"

#include <stdio.h>

enum { P_vec, P_bx, P_by, P_nm, P_un, P_acc, NP };

static int check(const struct tn_problem *pb, const int *v,
		 const struct tn_limits *lim, char *why, size_t n)
{
	int un = v[P_un] ? v[P_un] : 2 * pb->r + 1;
	if (tn_fam_flag(v[P_acc], "acc", why, n))
		return 1;
	if (v[P_bx] < 1 || v[P_by] < 1 || v[P_nm] < 1)
		return snprintf(why, n, "bx, by and nm must be positive"), 1;
	if (v[P_un] < 0 || v[P_un] > 32)
		return snprintf(why, n, "un=%d: must be 0 (2R+1) or 1..32", v[P_un]), 1;
	if (un > v[P_nm])
		return snprintf(why, n, "un=%d: %d steps per iteration exceed the march of nm=%d planes",
				v[P_un], un, v[P_nm]), 1;
	if ((pb->nz + (long long)v[P_nm] - 1) / v[P_nm] > 65535)
		return snprintf(why, n, "nm=%d: grid z = ceil(nz/nm) exceeds 65535 blocks", v[P_nm]), 1;
	return tn_fam_common_check(pb, v[P_vec], v[P_bx], v[P_by], v[P_by], 0, lim, why, n);
}

static int terms(int r) { return 2 * r + 1; }

/* Default space: 3 vec x 4 block shapes (32 to 512 threads) x 2 nm x 4 un
 * x 2 acc, 192 configurations at any R (un=0 is 17 steps at R = 8, below
 * the shortest march of 32 planes). */
const struct tn_family tn_fam_zm = {
	.name = "zm", .tmpl = "zm.m4",
	.help = "Dzz alone by marching along z: a register queue of 2R+1 planes, unrolled march",
	.np = NP,
	.p = {
		FAM_P(vec, VEC, "floats per thread in x", 1, 4, (1, 2, 4), 0),
		FAM_P(bx, BX, "threads per block in x", 1, 1024, (32, 128), 0),
		FAM_P(by, BY, "threads per block in y", 1, 1024, (1, 4), 0),
		FAM_P(nm, Z, "planes marched per thread", 1, 65536, (32, 128), 0),
		FAM_P(un, NONE, "march steps per unrolled iteration (0: 2R+1)", 0, 32, (0, 1, 2, 4), 0),
		FAM_P(acc, ACC, "add to the output (out += Dzz u)", 0, 1, (0, 1), 0),
	},

	.check = check, .geom = tn_fam_geom, .geom_src = tn_fam_geom_src, .bytes = tn_fam_bytes, .coef = tn_fam_coef,
	.ref = tn_fam_ref, .terms = terms, .axes = TN_Z,
	/* untuned: 256 threads, float2, 64 planes; fits every R */
	.dflt = "{\"vec\":2,\"bx\":64,\"by\":4,\"nm\":64,\"un\":2,\"acc\":0}",
};
