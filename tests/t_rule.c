/*
 * t_rule.c: the rule of templates/fdt_rule.h, which picks the recorded size
 * whose configuration runs a grid (fdtune export --all-sizes, libfdtune):
 * its picks on made-up tables, and its fits, read from parameter names,
 * against the launch geometry of every family.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>

#include "fam.h"
#include "tn.h"
#include "../templates/fdt_rule.h"

/* The rule of fdt_rule.h (exports by size, libfdtune) on made-up tables:
 * the exact size, the nearest with z counted twice, a grid smaller than
 * every size, a nearest size whose configuration cannot launch the grid,
 * no configuration that can. */
static void rule_picks(void **st)
{
	static const struct fdt_rule_size t[] = { { 64, 64, 64, 0 }, { 256, 256, 256, 1 },
		{ 1000, 300, 129, 2 }, { 512, 512, 512, 1 } };
	/* 4, 32 and 8 rows per block in grid y */
	static const struct fdt_rule_fit f[] = { { 1, 4, 2, 48 }, { 1, 32, 2, 512 }, { 1, 8, 2, 96 } };
	static const struct fdt_rule_fit any[] = { { 1, 1024, 2, 1024 }, { 1, 1024, 2, 1024 },
		{ 1, 1024, 2, 1024 } };
	static const long long x[] = { 1, 2, 3, 5, 7, 100, 129, 1000, 65535, 1000003, 2147483647 };
	int k;
	(void)st;
	for (size_t i = 0; i < sizeof x / sizeof x[0]; i++)
		assert_true(fabs(fdt_rule_log2q(x[i]) / 65536.0 - log2((double)x[i])) < 1e-4);
	/* a damaged record's extent below 1 counts as 1 (fz_db found the shift of
	 * -1 it was: corpus/db/size-negative) */
	assert_int_equal(fdt_rule_log2q(0), 0);
	assert_int_equal(fdt_rule_log2q(-1), 0);
	assert_int_equal(fdt_rule_log2q(-2147483647LL), 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(fdt_rule_pick(t, 4, f, t[i].nx, t[i].ny, t[i].nz), i);
	assert_int_equal(fdt_rule_pick(t, 4, f, 900, 280, 120), 2);
	assert_int_equal(fdt_rule_pick(t, 4, f, 300, 300, 300), 1);
	/* log2 distances 1 in x and 1 in z (counted twice): x is nearer */
	assert_int_equal(fdt_rule_pick(t, 4, f, 512, 362, 256), 1);
	assert_int_equal(fdt_rule_pick(t, 4, f, 256, 362, 512), 3);
	/* smaller than every size: the smallest in shape */
	assert_int_equal(fdt_rule_pick(t, 4, f, 1, 1, 1), 0);
	assert_int_equal(fdt_rule_pick(t, 4, f, 61, 37, 29), 0);
	/* 64^3 is nearest, but 300000 / 4 rows is over 65535 blocks: another */
	assert_int_equal(fdt_rule_pick(t, 4, any, 8, 300000, 8), 0);
	k = fdt_rule_pick(t, 4, f, 8, 300000, 8);
	assert_true(k > 0);
	assert_true(fdt_rule_fits(&f[t[k].kernel], 8, 300000, 8));
	assert_false(fdt_rule_fits(&f[0], 8, 300000, 8));
	/* nothing can launch it, nor an empty grid */
	assert_int_equal(fdt_rule_pick(t, 4, f, 64, 32 * 65535 + 1, 64), -1);
	assert_int_equal(fdt_rule_pick(t, 4, f, 0, 64, 64), -1);
	assert_int_equal(fdt_rule_pick(t, 0, f, 64, 64, 64), -1);
}

/* fdt_rule_fit_of, from parameter names, counts the blocks that each
 * family's launch geometry puts in grid y and grid z. */
static void rule_fits_geometry(void **st)
{
	static const int n[][3] = { { 1000, 300, 129 }, { 70001, 3, 5 }, { 7, 90001, 2 }, { 3, 5, 80001 } };
	char err[256];
	(void)st;
	for (int i = 0; tn_families[i]; i++) {
		const struct tn_family *fam = tn_families[i];
		const char *names[TN_MAXP];
		struct tn_space sp;
		long long size;
		tn_space_default(fam, &sp);
		if (tn_param_index(fam, "zd") >= 0)
			assert_int_equal(tn_space_set(&sp, "zd=0,1", err, sizeof err), 0);
		size = tn_space_size(&sp);
		for (int p = 0; p < fam->np; p++)
			names[p] = fam->p[p].name;
		for (long long c = 0; c < size; c += size / 97 + 1) {
			int v[TN_MAXP];
			struct fdt_rule_fit f;
			tn_space_at(&sp, c, v);
			fdt_rule_fit_of(names, v, fam->np, &f);
			for (size_t s = 0; s < sizeof n / sizeof n[0]; s++) {
				struct tn_problem pb = { fam, 4, n[s][0], n[s][1], n[s][2], "fp32", { 1, 1, 1 } };
				unsigned g[3], b[3];
				fam->geom(&pb, v, g, b);
				if (g[1] != (unsigned)((n[s][f.yaxis] + f.ytile - 1) / f.ytile) ||
				    g[2] != (unsigned)((n[s][f.zaxis] + f.ztile - 1) / f.ztile))
					fail_msg("%s config %lld at %dx%dx%d: grid %u x %u x %u, fit y %d/%d z %d/%d",
						 fam->name, c, n[s][0], n[s][1], n[s][2], g[0], g[1], g[2],
						 f.yaxis, f.ytile, f.zaxis, f.ztile);
			}
		}
	}
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(rule_picks), cmocka_unit_test(rule_fits_geometry),
	};
	return cmocka_run_group_tests_name("rule", t, NULL, NULL);
}
