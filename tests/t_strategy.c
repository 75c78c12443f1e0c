/*
 * t_strategy.c: CPU tests of the multi-pass strategies of the xyz sum. The
 * directional families' references add up to the fused one; the three-pass
 * (x, then y and z accumulating) and two-pass (xy, then z accumulating)
 * strategies, run through the CPU path with fp32 outputs between passes,
 * equal the fused reference within the bound of tn_check; the check of an
 * accumulating kernel (tn_check_acc) accepts base + result and rejects a
 * kernel that ignores the base; and an accumulating pass counts the read of
 * its output in the bytes moved.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fam.h"
#include "tn.h"
#include "t_ref.h"

struct fields {
	struct tn_layout l;
	long long pts;
	float *in, *out, *mag, *m2;
	double *ref, *r2;
};

static void fields_new(struct fields *f, int r)
{
	struct tn_problem pb = t_prob("xyz", r);
	tn_layout_of(&pb, &f->l);
	f->pts = (long long)f->l.nx * f->l.ny * f->l.nz;
	assert_non_null(f->in = malloc((size_t)f->l.total * sizeof *f->in));
	assert_non_null(f->out = malloc((size_t)f->l.total * sizeof *f->out));
	assert_non_null(f->mag = malloc((size_t)f->pts * sizeof *f->mag));
	assert_non_null(f->m2 = malloc((size_t)f->pts * sizeof *f->m2));
	assert_non_null(f->ref = malloc((size_t)f->pts * sizeof *f->ref));
	assert_non_null(f->r2 = malloc((size_t)f->pts * sizeof *f->r2));
	tn_fill_random(f->in, f->l.total, 99 + (unsigned long long)r);
}

static void fields_free(struct fields *f)
{
	free(f->in);
	free(f->out);
	free(f->mag);
	free(f->m2);
	free(f->ref);
	free(f->r2);
}

/* x + y + z = xyz and xy + z = xyz, point by point, within fp32 rounding
 * of the weights (each family rounds its own centre weight). */
static void refs_add_up(void **st)
{
	(void)st;
	for (int r = 1; r <= TN_RMAX; r++) {
		struct fields f;
		double *a, *b;
		float *ma, *mb;
		fields_new(&f, r);
		assert_non_null(a = malloc((size_t)f.pts * sizeof *a));
		assert_non_null(b = malloc((size_t)f.pts * sizeof *b));
		assert_non_null(ma = malloc((size_t)f.pts * sizeof *ma));
		assert_non_null(mb = malloc((size_t)f.pts * sizeof *mb));
		t_ref_of("xyz", r, &f.l, f.in, f.ref, f.mag);
		t_ref_of("x", r, &f.l, f.in, a, ma);
		t_ref_of("y", r, &f.l, f.in, b, mb);
		t_ref_of("z", r, &f.l, f.in, f.r2, f.m2);
		for (long long o = 0; o < f.pts; o++) {
			double s = a[o] + b[o] + f.r2[o];
			assert_true(fabs(s - f.ref[o]) <= tn_err_bound(6 * r + 1, f.mag[o]));
			/* every term of the fused sum is in exactly one pass */
			assert_true(fabs(ma[o] + mb[o] + f.m2[o] - f.mag[o]) <= 1e-5 * f.mag[o]);
		}
		t_ref_of("xy", r, &f.l, f.in, a, ma);
		for (long long o = 0; o < f.pts; o++)
			assert_true(fabs(a[o] + f.r2[o] - f.ref[o]) <= tn_err_bound(6 * r + 1, f.mag[o]));
		free(a);
		free(b);
		free(ma);
		free(mb);
		fields_free(&f);
	}
}

/* Runs the passes fams[0..np) through the CPU path: the first stores its
 * reference rounded to fp32, the others add theirs to the fp32 output;
 * the halo keeps its poison. */
static void run_passes(struct fields *f, int r, const char *const *fams, int np)
{
	memset(f->out, 0xff, (size_t)f->l.total * sizeof *f->out);
	for (int p = 0; p < np; p++) {
		t_ref_of(fams[p], r, &f->l, f->in, f->r2, f->m2);
		for (long long o = 0; o < f->pts; o++) {
			float *q = f->out + t_at(&f->l, o);
			*q = p ? (float)((double)*q + f->r2[o]) : (float)f->r2[o];
		}
	}
}

/* Three passes and two passes equal the fused reference within the bound
 * of the fused sum with one more term per extra pass. */
static void multi_pass_equals_fused(void **st)
{
	static const char *const three[] = { "x", "y", "z" }, *const two[] = { "xy", "z" };
	(void)st;
	for (int r = 1; r <= TN_RMAX; r++) {
		struct fields f;
		double e, b;
		char msg[256];
		fields_new(&f, r);
		t_ref_of("xyz", r, &f.l, f.in, f.ref, f.mag);
		run_passes(&f, r, three, 3);
		if (tn_check(&f.l, f.out, f.ref, f.mag, 6 * r + 1 + 2, &e, &b, msg, sizeof msg))
			fail_msg("three passes, R=%d: %s", r, msg);
		assert_true(e > 0 && e <= b);           /* rounding happened, and is bounded */
		run_passes(&f, r, two, 2);
		if (tn_check(&f.l, f.out, f.ref, f.mag, 6 * r + 1 + 1, &e, &b, msg, sizeof msg))
			fail_msg("two passes, R=%d: %s", r, msg);
		/* a pass left out is caught */
		run_passes(&f, r, three, 2);
		assert_true(tn_check(&f.l, f.out, f.ref, f.mag, 6 * r + 3, &e, &b, msg,
				     sizeof msg) > 0);
		fields_free(&f);
	}
}

/* The bench's check of an accumulating kernel: base + reference passes,
 * the reference alone (a kernel that stores instead of adding) fails, and
 * so does a write into the halo. */
static void accumulate_check(void **st)
{
	struct fields f;
	float *base;
	double e, b;
	char msg[256];
	(void)st;
	fields_new(&f, 3);
	assert_non_null(base = malloc((size_t)f.l.total * sizeof *base));
	tn_fill_random(base, f.l.total, 5);
	tn_poison_halo(&f.l, base);
	t_ref_of("y", 3, &f.l, f.in, f.ref, f.mag);
	memcpy(f.out, base, (size_t)f.l.total * sizeof *base);
	for (long long o = 0; o < f.pts; o++)
		f.out[t_at(&f.l, o)] = (float)(base[t_at(&f.l, o)] + f.ref[o]);
	assert_int_equal(tn_check_acc(&f.l, f.out, base, f.ref, f.mag, 7, &e, &b, msg,
				      sizeof msg), 0);
	f.out[f.l.origin - 1] = 0.0f;           /* the x halo of the first row */
	assert_int_equal(tn_check_acc(&f.l, f.out, base, f.ref, f.mag, 7, &e, &b, msg,
				      sizeof msg), 1);
	assert_non_null(strstr(msg, "halo"));
	for (long long o = 0; o < f.pts; o++)
		f.out[t_at(&f.l, o)] = (float)f.ref[o];
	memset(f.out + f.l.origin - 1, 0xff, sizeof *f.out);
	assert_int_equal(tn_check_acc(&f.l, f.out, base, f.ref, f.mag, 7, &e, &b, msg,
				      sizeof msg), f.pts);
	free(base);
	fields_free(&f);
}

/* acc=1 reads the output too: 12 bytes a point instead of 8; families
 * without acc always move 8. */
static void accumulate_bytes(void **st)
{
	static const char *const fams[] = { "x", "y", "z", "xy" };
	(void)st;
	for (int i = 0; i < 4; i++) {
		struct tn_problem pb = t_prob(fams[i], 4);
		int v[TN_MAXP] = { 0 }, a = tn_param_index(pb.fam, "acc");
		double pts = 23.0 * 13 * 11;
		assert_true(a >= 0);
		assert_true(pb.fam->bytes(&pb, v) == 8 * pts);
		v[a] = 1;
		assert_true(pb.fam->bytes(&pb, v) == 12 * pts);
	}
	{
		struct tn_problem pb = t_prob("xyz", 4);
		int v[TN_MAXP] = { 0 };
		assert_true(tn_param_index(pb.fam, "acc") < 0);
		assert_true(pb.fam->bytes(&pb, v) == 8 * 23.0 * 13 * 11);
	}
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(refs_add_up), cmocka_unit_test(multi_pass_equals_fused),
		cmocka_unit_test(accumulate_check), cmocka_unit_test(accumulate_bytes),
	};
	return cmocka_run_group_tests_name("strategy", t, NULL, NULL);
}
