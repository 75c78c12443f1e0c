/*
 * fam_share.c: what family descriptors share: the tile geometry of a launch
 * and its source text, the dynamic LDS of a configuration, the weights and
 * CPU reference of the families that sum second derivatives along axes,
 * and the bytes a kernel moves at least. The descriptors (fam_*.c) call
 * these; the table (tn_families.c) lists the descriptors.
 */
#include "fam.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long long tn_dyn_lds(const struct tn_problem *pb, const int *v)
{
	return pb->fam->dyn_lds ? pb->fam->dyn_lds(pb, v) : 0;
}

void tn_fam_coef_axes(const struct tn_problem *pb, int mask, struct tn_coef *c)
{
	double w[TN_RMAX + 1], c0 = 0;
	float *dst[3] = { c->x, c->y, c->z };
	memset(c, 0, sizeof *c);
	tn_d2_weights(pb->r, w);
	for (int a = 0; a < 3; a++) {
		double s = 1.0 / (pb->h[a] * pb->h[a]);
		if (!(mask >> a & 1))
			continue;
		for (int k = 1; k <= pb->r; k++)
			dst[a][k] = (float)(w[k] * s);
		c0 += w[0] * s;
	}
	c->c0 = (float)c0;
}

void tn_fam_tile_geom(const struct tn_problem *pb, const int w[3], int bx, int by,
		      unsigned g[3], unsigned b[3])
{
	const int n[3] = { pb->nx, pb->ny, pb->nz };
	for (int a = 0; a < 3; a++)
		g[a] = (unsigned)((n[a] + w[a] - 1) / w[a]);
	b[0] = (unsigned)bx;
	b[1] = (unsigned)by;
	b[2] = 1;
}

void tn_fam_tile_geom_src(const int w[3], int bx, int by, char grid[3][96], unsigned b[3])
{
	static const char *const n[3] = { "nx", "ny", "nz" };
	for (int a = 0; a < 3; a++)
		if (w[a] == 1)
			snprintf(grid[a], 96, "%s", n[a]);
		else
			snprintf(grid[a], 96, "(%s + %d) / %d", n[a], w[a] - 1, w[a]);
	b[0] = (unsigned)bx;
	b[1] = (unsigned)by;
	b[2] = 1;
}

/* The value in v of the parameter of f that plays role r, or 1 when none
 * does. */
static int value(const struct tn_family *f, const int *v, enum tn_role r)
{
	int i = tn_param_role(f, r);
	return i < 0 ? 1 : v[i];
}

/* The tile of the family, from the roles its parameters declare (fam.h). */
static void tile(const struct tn_family *f, const int *v, int w[3], int *bx, int *by)
{
	*bx = value(f, v, TN_ROLE_BX);
	*by = value(f, v, TN_ROLE_BY);
	w[0] = value(f, v, TN_ROLE_VEC) * *bx;
	w[1] = *by * value(f, v, TN_ROLE_YPT);
	w[2] = value(f, v, TN_ROLE_Z);
}

void tn_fam_geom(const struct tn_problem *pb, const int *v, unsigned g[3], unsigned b[3])
{
	int w[3], bx, by;
	tile(pb->fam, v, w, &bx, &by);
	tn_fam_tile_geom(pb, w, bx, by, g, b);
}

void tn_fam_geom_src(const struct tn_problem *pb, const int *v, char grid[3][96], unsigned b[3])
{
	int w[3], bx, by;
	tile(pb->fam, v, w, &bx, &by);
	tn_fam_tile_geom_src(w, bx, by, grid, b);
}

void tn_fam_ref(const struct tn_problem *pb, const struct tn_coef *c,
		const struct tn_layout *l, const float *in, double *out, float *mag)
{
	tn_ref_axes(pb, c, l, in, out, mag, pb->fam->axes);
}

void tn_fam_coef(const struct tn_problem *pb, struct tn_coef *c)
{
	tn_fam_coef_axes(pb, pb->fam->axes, c);
}

double tn_fam_bytes(const struct tn_problem *pb, const int *v)
{
	int a = tn_param_role(pb->fam, TN_ROLE_ACC);
	return (2.0 + (a >= 0 && v[a])) * pb->nx * pb->ny * pb->nz * tn_elem_size(pb);
}
