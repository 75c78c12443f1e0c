/*
 * tn_wref.c: the reference of a time-stepping family (iso3dfd) made on the
 * GPU (templates/wref.m4), for the GPU check. The CPU reference of the same
 * steps (tuner/ref/tn_ref_wave.c) costs some 55 CPU-seconds and 3.2 GB of
 * host memory at 512^3, made once a sweep and problem while the plan's
 * compiles want the cores (results/NOTES.md, "The references' share of a
 * cold plan's processor time"); on the GPU it is milliseconds. The host
 * still makes the CPU reference where the CPU checks (FDTUNE_CHECK=cpu or
 * both): with both, each check holds the kernel to a reference of its own.
 */
#include "fdt_rc.h"
#include "tn_wref.h"
#include "gen.h"
#include "tn_time.h"

#include <stdio.h>

/* The geometry and weights arguments, as wref.m4 declares them. */
struct wl { long long slice, origin; int ld, r, nx, ny, nz, terms; };

int tn_wref_make(const struct tn_problem *pb, const struct tn_layout *l, const struct tn_coef *c,
		 int es, const void *a, const void *b, const void *vel, const char *arch,
		 void *ref, void *mag, char *err, size_t n)
{
	const struct gen_def d[] = { { "bs", 128 }, { "dbl", es == 8 } };
	const long long pts = (long long)pb->nx * pb->ny * pb->nz;
	struct wl q = { l->slice, l->origin, l->ld, l->r, l->nx, l->ny, l->nz,
			pb->fam->terms(pb->r) };
	struct tn_coef w = *c;
	unsigned g[3] = { (unsigned)((l->nx + 127) / 128), (unsigned)l->ny, (unsigned)l->nz },
		 blk[3] = { 128, 1, 1 };
	struct rt_kernel *k;
	void *eb = NULL;
	int mode = 0, s = 0, rc = FDT_FAIL;
	void *args[] = { &a, &b, &vel, &ref, &eb, &mag, &q, &w, &mode, &s };

	if (!pb->fam->step_gpu || pb->fam->steps <= 0) {
		snprintf(err, n, "family %s has no GPU reference", pb->fam->name);
		return FDT_FAIL;
	}
	if (tn_helper_get(pb->fam->step_gpu, "fdt_wref", d, 2, arch, &k, err, n) ||
	    rt_alloc(&eb, (size_t)(2 * pts) * sizeof(double), err, n))
		goto done;
	if (rt_launch(k, g, blk, args, err, n))
		goto done;
	for (mode = 1, s = 0; s < pb->fam->steps; s++)
		if (rt_launch(k, g, blk, args, err, n))
			goto done;
	mode = 2;
	if (rt_launch(k, g, blk, args, err, n) || rt_sync(err, n))
		goto done;
	rc = FDT_OK;
done:
	rt_free(eb);
	if (rc) {
		char e2[512];
		snprintf(e2, sizeof e2, "%s", err);
		snprintf(err, n, "the GPU reference of %s R=%d %dx%dx%d: %s", pb->fam->name, pb->r,
			 pb->nx, pb->ny, pb->nz, e2);
	}
	return rc;
}
