/*
 * fam_bugs.c: a test-only family (templates/bugs.m4) that exists only when
 * the environment has FDTUNE_TEST_BUGS=1: an x stencil whose bug parameter
 * makes it fault (1) or hang (2), so that tests can show a sweep recording
 * both and going on. It is not in the family table, so no listing, default
 * space or compile test ever sees it.
 */
#include "fam.h"

#include <stdio.h>

enum { P_bx, P_bug, NP };

static int check(const struct tn_problem *pb, const int *v, const struct tn_limits *lim,
		 char *why, size_t n)
{
	if (v[P_bug] < 0 || v[P_bug] > 2)
		return snprintf(why, n, "bug=%d: must be 0, 1 or 2", v[P_bug]), 1;
	if (pb->ny > 65535 || pb->nz > 65535)
		return snprintf(why, n, "ny and nz must be at most 65535"), 1;
	return tn_fam_common_check(pb, 1, v[P_bx], 1, 1, 0, lim, why, n);
}

static int terms(int r) { return 2 * r + 1; }

const struct tn_family tn_fam_bugs = {
	.name = "bugs", .tmpl = "bugs.m4",
	.help = "test only (FDTUNE_TEST_BUGS=1): an x stencil that can fault or hang",
	.np = NP,
	.p = {
		FAM_P(bx, BX, "threads per block", 1, 1024, (32, 64, 128), 0),
		FAM_P(bug, NONE, "0 correct, 1 illegal address, 2 never returns", 0, 2, (0, 1, 2), 0),
	},
	.check = check, .geom = tn_fam_geom, .geom_src = tn_fam_geom_src, .bytes = tn_fam_bytes, .coef = tn_fam_coef,
	.ref = tn_fam_ref, .terms = terms, .axes = TN_X,
	.dflt = "{\"bx\":64,\"bug\":0}",
};
