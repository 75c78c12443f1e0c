/*
 * fam.h: helpers that family descriptors share, and the descriptors
 * themselves. Only fam_*.c and tn_families.c include it.
 */
#ifndef FAM_H
#define FAM_H

#include "tn.h"
#include "tn_ref.h"

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
/* The same, the tile read from the family's parameters by name: vec floats
 * per thread in x (1 if none), bx x by threads, ypt rows per thread (1 if
 * none), nw or nm planes per block (1 if neither). */
void tn_fam_geom(const struct tn_problem *pb, const int *v, unsigned g[3], unsigned b[3]);
void tn_fam_geom_src(const struct tn_problem *pb, const int *v, char grid[3][96], unsigned b[3]);
/* Reference and weights of a sum of second derivatives along the family's
 * axes (tn_family.axes). */
void tn_fam_ref(const struct tn_problem *pb, const struct tn_coef *c,
		const struct tn_layout *l, const float *in, double *out, float *mag);
void tn_fam_coef(const struct tn_problem *pb, struct tn_coef *c);
/* One read and one write of every interior point, and with acc=1 (when the
 * family has acc) a read of the output too. */
double tn_fam_bytes(const struct tn_problem *pb, const int *v);

extern const struct tn_family tn_fam_xyz;
extern const struct tn_family tn_fam_bugs;      /* test only: FDTUNE_TEST_BUGS=1 */
extern const struct tn_family tn_fam_x, tn_fam_y, tn_fam_z, tn_fam_xy;
extern const struct tn_family tn_fam_xs, tn_fam_ym, tn_fam_zm;
extern const struct tn_family tn_fam_dxy, tn_fam_dxz, tn_fam_dyz, tn_fam_d1x, tn_fam_d1y, tn_fam_d1z;
extern const struct tn_family tn_fam_iso3dfd;

#endif
