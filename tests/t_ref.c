/*
 * t_ref.c: helpers of the CPU reference tests (t_ref.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "t_ref.h"

struct tn_problem t_prob(const char *name, int r)
{
	struct tn_problem pb = { tn_family(name), r, 23, 13, 11, "fp32", { 1.0, 0.5, 2.0 } };
	assert_non_null(pb.fam);
	return pb;
}

void t_ref_of(const char *name, int r, const struct tn_layout *l, const float *in,
	      double *out, float *mag)
{
	struct tn_problem pb = t_prob(name, r);
	struct tn_coef c;
	pb.fam->coef(&pb, &c);
	pb.fam->ref(&pb, &c, l, in, out, mag);
}

long long t_at(const struct tn_layout *l, long long o)
{
	long long i = o % l->nx, j = o / l->nx % l->ny, k = o / ((long long)l->nx * l->ny);
	return l->origin + i + j * l->ld + k * l->slice;
}
