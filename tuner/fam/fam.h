/*
 * fam.h: helpers that family descriptors share, and the descriptors
 * themselves. Only fam_*.c and tn_families.c include it.
 */
#ifndef FAM_H
#define FAM_H

#include "tn.h"
#include "tn_ref.h"

/* A family's parameters are declared once, in its descriptor file:
 *   enum { P_vec, P_bx, ..., NP };        the parameters in their order
 *   .np = NP, .p = { FAM_P(vec, VEC, "help", 1, 4, (1, 2, 4), 0), ... },
 * FAM_P(id, role, help, lo, hi, (default domain), flags) is the entry of
 * parameter id (named "id") at index P_id of .p[]: its role in the tile
 * (enum tn_role without TN_ROLE_, NONE for none), the range every value
 * must lie in, its default domain, and flags FAM_LATE and FAM_LAUNCH
 * (tn_param's late and launch) or 0. The enum is the order (of the
 * configuration's JSON and of the template's arguments) and its count, so
 * an entry cannot land at another parameter's index, and one left out
 * shows as a parameter without a name (t_core's families_declared). Code
 * of the descriptor reads a configuration as v[P_id]. */
#define FAM_LATE 1
#define FAM_LAUNCH 2
#define FAM_P(id, role_, help_, lo_, hi_, dom, flags)                                    \
	[P_##id] = { .name = #id, .help = help_, .lo = lo_, .hi = hi_, .n = FAM_NARGS dom, \
		     .v = { FAM_LIST dom }, .late = ((flags) & FAM_LATE) != 0,              \
		     .launch = ((flags) & FAM_LAUNCH) != 0, .role = TN_ROLE_##role_ }
#define FAM_LIST(...) __VA_ARGS__
/* FAM_NARGS(a, b, ...): how many arguments, 1 to 32 (TN_MAXV) */
#define FAM_NARGS(...) FAM_NARGS_(__VA_ARGS__, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, \
				  21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, \
				  4, 3, 2, 1, 0)
#define FAM_NARGS_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, \
		   a17, a18, a19, a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, \
		   a32, n, ...) n

/* Checks every family needs: vec in {1,2,4} (1 or 2 for fp64), threads per
 * block, LDS bytes and the grid's y extent (rows = y points per block).
 * lds_bytes counts 4-byte elements; the check scales it to the precision. */
int tn_fam_common_check(const struct tn_problem *pb, int vec, int bx, int by,
		     long long rows, long long lds_bytes, const struct tn_limits *lim,
		     char *why, size_t n);
int tn_fam_flag(int v, const char *name, char *why, size_t n);
/* The limits of xyz.m4's kernels, which iso3dfd's lds=2 shares: lds=2
 * addresses a plane with 32-bit offsets; mb (the launch-bounds minimum of
 * blocks, 0..32) blocks of threads must fit 2048 threads per SM. */
/* 0 when bytes of dynamic LDS fit lim's opt-in limit, else 1 and why. */
int tn_fam_dyn_check(long long bytes, const struct tn_limits *lim, char *why, size_t n);
int tn_fam_ring_check(const struct tn_problem *pb, int lds, int mb, int threads, char *why,
		      size_t n);
/* tma (0 or 1): 1 needs lds 2, a target with the bulk copy engine (lim->bulk)
 * and 16-byte vectors. */
int tn_fam_tma_check(const struct tn_problem *pb, int tma, int lds, int vec,
		      const struct tn_limits *lim, char *why, size_t n);
/* The dynamic LDS bytes tma adds after the rings: an 8-byte mbarrier for each
 * of the ring's pf + 3 stages (none with tma 0). */
long long tn_fam_tma_lds(int tma, int pf);
/* Weights of the second derivatives along the axes in mask, scaled by 1/h^2. */
void tn_fam_coef_axes(const struct tn_problem *pb, int mask, struct tn_coef *c);
/* The geometry of families that tile the grid: blocks of bx x by threads,
 * each covering w[0] points in x, w[1] in y and w[2] in z; the grid as
 * numbers, or as C expressions in nx, ny, nz. */
void tn_fam_tile_geom(const struct tn_problem *pb, const int w[3], int bx, int by,
		      unsigned g[3], unsigned b[3]);
void tn_fam_tile_geom_src(const int w[3], int bx, int by, char grid[3][96], unsigned b[3]);
/* The same, the tile read from the roles of the family's parameters
 * (enum tn_role): VEC elements a thread in x, BX x BY threads, YPT rows a
 * thread, Z planes a block; 1 for a role no parameter plays. */
void tn_fam_geom(const struct tn_problem *pb, const int *v, unsigned g[3], unsigned b[3]);
void tn_fam_geom_src(const struct tn_problem *pb, const int *v, char grid[3][96], unsigned b[3]);
/* Reference and weights of a sum of second derivatives along the family's
 * axes (tn_family.axes). */
void tn_fam_ref(const struct tn_problem *pb, const struct tn_coef *c,
		const struct tn_layout *l, const float *in, double *out, float *mag);
void tn_fam_coef(const struct tn_problem *pb, struct tn_coef *c);
/* One read and one write of every interior point, and a read of the output
 * too where the parameter of role ACC is 1. */
double tn_fam_bytes(const struct tn_problem *pb, const int *v);

#endif
