/*
 * t_compile.c: generated xyz kernels compile for a real target without a
 * GPU: built once per platform, as t_compile-nvidia (NVRTC, sm_90) and
 * t_compile-amd (hiprtc, gfx90a). The set covers every R, every vec and LDS
 * modes 0, 1 and 2, with rows per thread, prefetch depth and store kinds
 * varied along the way, and
 * checks that the compiler reports the resources fdtune records. Every
 * other family compiles across R, vec and each value of its parameters
 * (every R with one vec in turn: every_family says why). Kernels compile
 * in batches of 8 a program (struct tb), each checked by its own name.
 * T_COMPILE_QUICK=1 (make test-sanitize) skips the 72-kernel xyz set and
 * the fp64 kernels: every family still compiles.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fam.h"
#include "gen.h"
#include "rt.h"
#include "tn.h"
#include "tn_ref.h"

#include <math.h>
#include <unistd.h>

/* The value of the definition named name among d[0..nd); fails the test
 * where there is none. */
static int *def(struct gen_def *d, int nd, const char *name)
{
	for (int i = 0; i < nd; i++)
		if (!strcmp(d[i].name, name))
			return &d[i].value;
	fail_msg("no definition %s", name);
	return NULL;
}

/* A batch of kernels compiled as one program, each in a namespace of its
 * own with its kernel renamed tb_kI, after one prelude at file scope (as an
 * export holds several kernels): hiprtc pays some 0.3 s a program before
 * its first kernel (NOTES, issue 33), so that 8 kernels a program take a
 * third of the time of 8 programs. Kernels of one precision share a batch
 * (the prelude's fd_coef is of that precision). Each kernel's resources are
 * read by its name (rt_prog_kernel) and checked as one program's would be;
 * where a batch fails to compile, each of its kernels is compiled alone, so
 * that the failure names the configuration. */
#define TB_N 8
struct tb {
	const char *arch;
	int n, dbl;
	char *src[TB_N];                /* each kernel's source, named tb_kI */
	char what[TB_N][320];           /* how a failure names it */
	int lds[TB_N];                  /* the static LDS bytes it must have; -1: any */
};

static void tb_init(struct tb *b, const char *arch)
{
	memset(b, 0, sizeof *b);
	b->arch = arch;
}

/* A program of b's kernels: the prelude, then each in its namespace. */
static char *tb_program(const struct tb *b, int only)
{
	struct gen_def pd[] = { { "dbl", b->dbl } };
	char err[1024], *pre, *all;
	size_t len;
	if (gen_source("prelude.m4", "none", pd, 1, &pre, err, sizeof err))
		fail_msg("prelude: %s", err);
	len = strlen(pre) + 1;
	for (int i = 0; i < b->n; i++)
		len += strlen(b->src[i]) + 64;
	assert_non_null(all = malloc(len));
	len = (size_t)sprintf(all, "%s\n", pre);
	for (int i = 0; i < b->n; i++)
		if (only < 0 || i == only)
			len += (size_t)sprintf(all + len, "namespace tb_n%d {\n%s}\n", i, b->src[i]);
	free(pre);
	return all;
}

/* Compiles b's kernels and checks each; empties b. */
static void tb_flush(struct tb *b)
{
	char err[4096], name[32], *src;
	struct rt_prog p;
	if (!b->n)
		return;
	src = tb_program(b, -1);
	if (rt_compile(src, "batch.cu", b->arch, NULL, 0, &p, err, sizeof err)) {
		rt_prog_free(&p);
		for (int i = 0; i < b->n; i++) {        /* which of them */
			char *one = tb_program(b, i);
			if (rt_compile(one, "one.cu", b->arch, NULL, 0, &p, err, sizeof err))
				fail_msg("%s: %s\n%s", b->what[i], err, p.log);
			rt_prog_free(&p);
			free(one);
		}
		fail_msg("a batch of %d failed to compile, and each alone compiles: %s", b->n, err);
	}
	assert_non_null(p.code);
	assert_true(p.size > 0);
	assert_non_null(strstr(p.options, b->arch));
	for (int i = 0; i < b->n; i++) {
		int regs, lds, spill;
		snprintf(name, sizeof name, "tb_k%d", i);
		if (rt_prog_kernel(&p, name, &regs, &lds, &spill))
			fail_msg("%s: the compiler's report has no %s", b->what[i], name);
		if (regs <= 0 || regs > 512)     /* gfx90a: 256 arch + 256 acc VGPRs */
			fail_msg("%s: %d registers", b->what[i], regs);
		if (lds < 0 || spill < 0)
			fail_msg("%s: LDS %d, spill %d", b->what[i], lds, spill);
		if (b->lds[i] >= 0 && lds != b->lds[i])
			fail_msg("%s: %d bytes of static LDS, %d expected", b->what[i], lds, b->lds[i]);
		free(b->src[i]);
	}
	rt_prog_free(&p);
	free(src);
	b->n = 0;
}

/* Adds config v of problem pb's family at its radius and precision to b
 * (compiling b first where it is full or of the other precision); lds: the
 * static LDS bytes its build must report, -1 for any. Fails the test on a
 * generator's error. */
static void tb_add(struct tb *b, const struct tn_problem *pb, const int *v, int lds)
{
	const struct tn_family *f = pb->fam;
	const int dbl = tn_elem_size(pb) == 8;
	struct gen_def d[TN_MAXP + 2];
	char err[4096], cfg[256], name[32];
	if (b->n == TB_N || (b->n && b->dbl != dbl))
		tb_flush(b);
	b->dbl = dbl;
	snprintf(name, sizeof name, "tb_k%d", b->n);
	tn_config_text(f, v, cfg, sizeof cfg);
	snprintf(b->what[b->n], sizeof b->what[b->n], "%s R=%d %s %s", f->name, pb->r, pb->prec, cfg);
	if (gen_source(f->tmpl, name, d, tn_defs(pb, v, d), &b->src[b->n], err, sizeof err))
		fail_msg("%s: %s", b->what[b->n], err);
	if (dbl && !strstr(b->src[b->n], "typedef double fd_real;"))
		fail_msg("%s: an fp64 kernel without double elements", b->what[b->n]);
	b->lds[b->n++] = lds;
}

static void compile_one(struct tb *b, const struct tn_family *f, int r, const int *v)
{
	struct tn_problem pb = { f, r, 96, 40, 24, "fp32", { 1, 1, 1 } };
	tb_add(b, &pb, v, -1);
}

static void representative_set(void **st)
{
	const char *arch = rt_default_arch();
	struct tn_limits lim;
	struct tb b;
	int n = 0;
	(void)st;
	if (getenv("T_COMPILE_QUICK"))
		skip();
	tn_limits_of_arch(arch, &lim);
	tb_init(&b, arch);
	for (int r = 1; r <= TN_RMAX; r++)
		for (int vec = 1; vec <= 4; vec *= 2)
			for (int lds = 0; lds <= 2; lds++) {
				const int bx = lds == 2 ? 32 : 64;
				struct gen_def d[] = { { "r", r }, { "vec", vec }, { "bx", bx },
					{ "by", 4 }, { "ypt", 1 + (r + vec) % 2 }, { "lds", lds },
					{ "nw", 32 }, { "nt", (r + lds) % 2 }, { "pf", lds == 2 ? r % 3 : (r + vec + lds) % 2 },
					{ "mb", 0 }, { "ku", (r + vec) % 3 == 0 }, { "zd", lds == 2 && r % 2 },
					{ "zu", (r + vec) % 3 == 0 || lds != 2 ? 1 : 1 + r % 3 },
					/* the bulk copies where the target has them: odd R */
					{ "tma", lds == 2 && vec == 4 && r % 2 && lim.bulk } };
				char err[4096], why[256];
				struct tn_problem pb = { tn_family("xyz"), r, 64, 64, 64, "fp32", { 1, 1, 1 } };
				const int nd = (int)(sizeof d / sizeof d[0]);
				int v[TN_MAXP], *pf = def(d, nd, "pf");
				/* the deepest ring that fits the LDS of the target */
				/* every parameter not named here at its default's first value */
				assert_int_equal(tn_config_named(pb.fam, "", v, err, sizeof err), 0);
				for (;;) {
					for (int i = 1; i < nd; i++)    /* d[0] is r */
						v[tn_param_index(pb.fam, d[i].name)] = d[i].value;
					if (!pb.fam->check(&pb, v, &lim, why, sizeof why) || *pf == 0)
						break;
					--*pf;
				}
				if (pb.fam->check(&pb, v, &lim, why, sizeof why))
					fail_msg("R=%d vec=%d lds=%d: %s", r, vec, lds, why);
				/* as a sweep generates it: nw, a launch parameter, is not
				 * in the source (NW 0: the window comes from the launch).
				 * LDS bytes: lds 1, static, (rows + 2R) * bx * vec * 4; lds 2,
				 * dynamic (the descriptor's), a ring of pf + 3 tiles of
				 * (rows + 2R) * (bx + 2 xv) vectors */
				int rows = 4 * *def(d, nd, "ypt"), xv = (r + vec - 1) / vec;
				tb_add(&b, &pb, v, lds == 1 ? (rows + 2 * r) * bx * vec * 4 : 0);
				assert_non_null(strstr(b.src[b.n - 1], "NW = 0,"));
				assert_int_equal(pb.fam->dyn_lds(&pb, v), lds != 2 ? 0 :
						 (*pf + 3) * (rows + 2 * r) * (bx + 2 * xv) * vec * 4 +
						 (*def(d, nd, "tma") ? (*pf + 3) * 8 : 0));
				n++;
			}
	tb_flush(&b);
	assert_int_equal(n, 72);
}

/* A family that exists only in this test, as docs/contributing.md builds
 * it: its template (tests/fam/t2d.m4) and its descriptor below, with the
 * shared helpers of fam.h for the rest (checks, tile geometry, bytes,
 * weights and the reference along its axes). Dxx + Dyy, one thread a
 * point. */
enum { P_bx, P_by, NP };
static char t2d_tmpl[4096];             /* tests/fam/t2d.m4, absolute */

static int t2d_check(const struct tn_problem *pb, const int *v, const struct tn_limits *lim,
		     char *why, size_t n)
{
	return tn_fam_common_check(pb, 1, v[P_bx], v[P_by], v[P_by], 0, lim, why, n);
}

static int t2d_terms(int r) { return 4 * r + 1; }

static const struct tn_family t2d = {
	.name = "t2d", .tmpl = t2d_tmpl,
	.help = "test only: Dxx + Dyy, one thread a point",
	.np = NP,
	.p = {
		FAM_P(bx, BX, "threads per block in x", 1, 1024, (32, 64), 0),
		FAM_P(by, BY, "threads per block in y", 1, 1024, (1, 4), 0),
	},
	.check = t2d_check, .geom = tn_fam_geom, .geom_src = tn_fam_geom_src, .bytes = tn_fam_bytes,
	.coef = tn_fam_coef, .ref = tn_fam_ref, .terms = t2d_terms, .axes = TN_X | TN_Y,
	.dflt = "{\"bx\":64,\"by\":4}",
};

/* The family of this test, built as a contributor builds one, at R = 2 and
 * 8 over its whole default space: every configuration passes its check
 * (and bx * by over the limit is refused), generates (gen fails on a macro
 * left unexpanded) and compiles for the platform's target; on the CPU, its
 * launch covers each interior point once, its bytes are a read and a write
 * of every point, and its reference (the shared one along its axes) is the
 * sum of the two second derivatives computed here directly on random data. */
static void family_in_a_test(void **st)
{
	const char *arch = rt_default_arch();
	struct tn_limits lim;
	struct tn_space sp;
	char why[256];
	int v[TN_MAXP];
	(void)st;
	assert_non_null(getcwd(t2d_tmpl, sizeof t2d_tmpl - 32));     /* make test's: the root */
	strcat(t2d_tmpl, "/tests/fam/t2d.m4");
	tn_limits_of_arch(arch, &lim);
	struct tb b;
	tb_init(&b, arch);
	tn_space_default(&t2d, &sp);
	assert_int_equal(tn_space_size(&sp), 4);
	for (int r = 2; r <= 8; r += 6) {
		struct tn_problem pb = { &t2d, r, 70, 37, 5, "fp32", { 1, 1, 1 } };
		struct tn_layout l;
		struct tn_coef c;
		tn_layout_of(&pb, &l);
		for (long long i = 0; i < tn_space_size(&sp); i++) {
			unsigned g[3], bl[3];
			char *hit;
			tn_space_at(&sp, i, v);
			assert_int_equal(t2d.check(&pb, v, &lim, why, sizeof why), 0);
			tb_add(&b, &pb, v, -1);
			t2d.geom(&pb, v, g, bl);
			assert_non_null(hit = calloc((size_t)(pb.nx * pb.ny * pb.nz), 1));
			for (unsigned bz = 0; bz < g[2]; bz++)
				for (unsigned by = 0; by < g[1]; by++)
					for (unsigned bx = 0; bx < g[0]; bx++)
						for (unsigned ty = 0; ty < bl[1]; ty++)
							for (unsigned tx = 0; tx < bl[0]; tx++) {
								unsigned x = bx * bl[0] + tx, y = by * bl[1] + ty;
								if (x < (unsigned)pb.nx && y < (unsigned)pb.ny)
									hit[(bz * pb.ny + y) * pb.nx + x]++;
							}
			for (int k = 0; k < pb.nx * pb.ny * pb.nz; k++)
				assert_int_equal(hit[k], 1);
			free(hit);
			assert_true(t2d.bytes(&pb, v) == 2.0 * 70 * 37 * 5 * 4);
		}
		{
			float *in = malloc((size_t)l.total * sizeof *in), *mag;
			double *ref;
			assert_non_null(in);
			assert_non_null(mag = malloc((size_t)(pb.nx * pb.ny * pb.nz) * sizeof *mag));
			assert_non_null(ref = malloc((size_t)(pb.nx * pb.ny * pb.nz) * sizeof *ref));
			tn_fill_random(in, l.total, 7);
			t2d.coef(&pb, &c);
			t2d.ref(&pb, &c, &l, in, ref, mag);
			for (int z = 0; z < pb.nz; z++)
				for (int y = 0; y < pb.ny; y++)
					for (int x = 0; x < pb.nx; x++) {
						const float *u = in + l.origin + z * l.slice + (long long)y * l.ld + x;
						double d = (double)c.c0 * u[0];
						for (int k = 1; k <= r; k++)
							d += (double)c.x[k] * ((double)u[-k] + u[k]) +
							     (double)c.y[k] * ((double)u[-k * l.ld] + u[k * l.ld]);
						const long long o = ((long long)z * pb.ny + y) * pb.nx + x;
						if (fabs(ref[o] - d) > 1e-9 * (1 + fabs(d)))
							fail_msg("t2d R=%d (%d,%d,%d): reference %.17g, direct %.17g",
								 r, x, y, z, ref[o], d);
					}
			free(in);
			free(mag);
			free(ref);
		}
	}
	tb_flush(&b);
	{       /* a block over the target's threads is refused, and says why */
		struct tn_problem pb = { &t2d, 2, 64, 64, 64, "fp32", { 1, 1, 1 } };
		v[P_bx] = 1024;
		v[P_by] = 4;
		assert_int_equal(t2d.check(&pb, v, &lim, why, sizeof why), 1);
		assert_non_null(strstr(why, "threads"));
	}
}

/* fp64 in every family: at R = 1, 2, 5 and 8 (the smallest and largest,
 * each vec; fp32 compiles every R), the first configuration of the default
 * space (from an offset that moves with R) with vec 1 at odd R and vec 2 at
 * even R that passes the constraints; and vec=4 is refused at every R. */
static void every_family_fp64(void **st)
{
	const char *arch = rt_default_arch();
	struct tn_limits lim;
	(void)st;
	if (getenv("T_COMPILE_QUICK"))
		skip();
	tn_limits_of_arch(arch, &lim);
	struct tb b;
	tb_init(&b, arch);
	for (int fi = 0; tn_families[fi]; fi++) {
		const struct tn_family *f = tn_families[fi];
		struct tn_space sp;
		int vec = tn_param_index(f, "vec"), v[TN_MAXP], done = 0;
		char why[256];
		tn_space_default(f, &sp);
		long long size = tn_space_size(&sp);
		for (int r = 1; r <= TN_RMAX; r++) {
			struct tn_problem pb = { f, r, 96, 40, 24, "fp64", { 1, 1, 1 } };
			long long i = 0;
			for (; i < size; i++) {
				tn_space_at(&sp, (i + 7919LL * r) % size, v);
				if (vec >= 0 && v[vec] == 4)
					assert_int_equal(f->check(&pb, v, &lim, why, sizeof why), 1);
				if ((vec < 0 || v[vec] == 2 - r % 2) && !f->check(&pb, v, &lim, why, sizeof why))
					break;
			}
			if (i == size)
				fail_msg("%s R=%d fp64: no configuration fits", f->name, r);
			if (r != 1 && r != 2 && r != 5 && r != 8)
				continue;
			tb_add(&b, &pb, v, -1);
			done++;
		}
		print_message("%s fp64: %d kernels\n", f->name, done);
	}
	tb_flush(&b);
}

/* Marks each parameter's value in config v as compiled (seen[p][j]: value j
 * of parameter p's default domain). */
static void mark(const struct tn_family *f, const int *v, char seen[TN_MAXP][TN_MAXV])
{
	for (int p = 0; p < f->np; p++)
		for (int j = 0; j < f->p[p].n; j++)
			if (f->p[p].v[j] == v[p])
				seen[p][j] = 1;
}

/* Every other family of the table: for every R and every vec, the first
 * configuration of the default space (walked from an offset that moves
 * with R, so that the other parameters vary) that passes the constraints;
 * and every value of every parameter's default domain at least once: one
 * more kernel for each value none of those had. Every R takes one vec in
 * turn rather than each (the walk of values compiles every vec still):
 * half the kernels, so that make test keeps within its minutes (even in
 * batches, struct tb, a kernel costs 0.15-0.3 s of one core); the turn
 * starts one apart for the two compilers, so that between them each R
 * compiles with two vec. The xyz set compiles every (R, vec) pair. */
static void every_family(void **st)
{
	const char *arch = rt_default_arch();
	const int turn = !strcmp(rt_platform(), "nvidia");
	struct tn_limits lim;
	(void)st;
	tn_limits_of_arch(arch, &lim);
	struct tb b;
	tb_init(&b, arch);
	for (int fi = 0; tn_families[fi]; fi++) {
		const struct tn_family *f = tn_families[fi];
		struct tn_space sp;
		long long size, done = 0;
		int vec = tn_param_index(f, "vec"), v[TN_MAXP];
		char why[256], seen[TN_MAXP][TN_MAXV];
		memset(seen, 0, sizeof seen);
		if (!strcmp(f->name, "xyz"))
			continue;               /* representative_set */
		tn_space_default(f, &sp);
		size = tn_space_size(&sp);
		for (int r = 1; r <= TN_RMAX; r++)
			for (int w = 0; w < (vec >= 0 ? f->p[vec].n : 1); w++) {
				struct tn_problem pb = { f, r, 96, 40, 24, "fp32", { 1, 1, 1 } };
				long long i = 0;
				if (vec >= 0 && w != (r + turn) % f->p[vec].n)
					continue;
				for (; i < size; i++) {
					tn_space_at(&sp, (i + 7919LL * r) % size, v);
					if ((vec < 0 || v[vec] == f->p[vec].v[w]) &&
					    !f->check(&pb, v, &lim, why, sizeof why))
						break;
				}
				if (i == size)
					fail_msg("%s R=%d: no configuration fits", f->name, r);
				compile_one(&b, f, r, v);
				mark(f, v, seen);
				done++;
			}
		for (int p = 0; p < f->np; p++)
			for (int j = 0; j < f->p[p].n; j++) {
				int r = 1 + (int)(done % TN_RMAX);
				if (seen[p][j])
					continue;
				struct tn_problem pb = { f, r, 96, 40, 24, "fp32", { 1, 1, 1 } };
				long long i = 0;
				for (; i < size; i++) {
					tn_space_at(&sp, i, v);
					if (v[p] == f->p[p].v[j] && !f->check(&pb, v, &lim, why, sizeof why))
						break;
				}
				if (i < size) {         /* some values fit only other radii */
					compile_one(&b, f, r, v);
					mark(f, v, seen);
					done++;
				}
			}
		print_message("%s: %lld kernels\n", f->name, done);
	}
	tb_flush(&b);
}

/* The mixed derivatives' modes outside their default domains (the ring of
 * lds 2, the march unrolled, streaming stores) compile too: dxz and dyz at
 * R = 1, 4 and 8, lds 0 and 2, each with pf, zu and nt varied. */
static void mixed_modes(void **st)
{
	static const char *const fam[] = { "dxz", "dyz" };
	static const char *const name[] = { "vec", "ypt", "lds", "pf", "zu", "nt", "acc" };
	const char *arch = rt_default_arch();
	struct tn_limits lim;
	int n = 0;
	(void)st;
	tn_limits_of_arch(arch, &lim);
	struct tb b;
	tb_init(&b, arch);
	for (int fi = 0; fi < 2; fi++)
		for (int r = 1; r <= TN_RMAX; r += r == 1 ? 3 : 4)
			for (int lds = 0; lds <= 2; lds += 2) {
				const struct tn_family *f = tn_family(fam[fi]);
				struct tn_problem pb = { f, r, 96, 40, 24, "fp32", { 1, 1, 1 } };
				struct tn_space sp;
				const int val[] = { r == 1 ? 4 : r == 4 ? 2 : 1, r == 4 ? 2 : 1, lds, r % 3,
						    r == 4 ? 2 * r + 1 : 1 + lds, r % 2, lds / 2 };
				int v[TN_MAXP];
				char why[256];
				tn_space_default(f, &sp);
				tn_space_at(&sp, 0, v);
				for (int i = 0; i < 7; i++)
					v[tn_param_index(f, name[i])] = val[i];
				if (f->check(&pb, v, &lim, why, sizeof why))
					fail_msg("%s R=%d lds=%d: %s", fam[fi], r, lds, why);
				compile_one(&b, f, r, v);
				n++;
			}
	tb_flush(&b);
	assert_int_equal(n, 12);
}

/* tma 1 (the LDS ring filled by the bulk copy engine) in xyz and iso3dfd, R
 * = 2, 5 and 8, fp32 (vec 4) and fp64 (vec 2): on an NVIDIA target of sm_90

 * it compiles, with the ring's barriers in its dynamic LDS; on gfx90a the
 * constraints refuse it, naming the bulk copy engine, and its source (an
 * export of a kernel tuned on NVIDIA) still compiles. tma 0 leaves a
 * kernel's source as it was before the knob (no tma in its banner). */
static void bulk_copy_knob(void **st)
{
	const char *arch = rt_default_arch();
	struct tn_limits lim;
	int n = 0;
	(void)st;
	tn_limits_of_arch(arch, &lim);
	struct tb b;
	tb_init(&b, arch);
	for (int k = 0; k < 2; k++)
		for (int r = 2; r <= 8; r += 3)
			for (int d = 0; d < 2; d++) {
				const struct tn_family *f = tn_family(k ? "iso3dfd" : "xyz");
				struct tn_problem pb = { f, r, 96, 40, 24, d ? "fp64" : "fp32", { 1, 1, 1 } };
				struct tn_space sp;
				char err[256], why[256];
				int v[TN_MAXP], v0[TN_MAXP], tma = tn_param_index(f, "tma");
				tn_space_default(f, &sp);
				assert_int_equal(tn_space_set(&sp, d ? "vec=2" : "vec=4", err, sizeof err), 0);
				assert_int_equal(tn_space_set(&sp, "lds=2", err, sizeof err), 0);
				assert_int_equal(tn_space_set(&sp, r % 2 ? "pf=0" : "pf=1", err, sizeof err), 0);
				assert_int_equal(tn_space_set(&sp, "tma=1", err, sizeof err), 0);
				const long long size = tn_space_size(&sp);
				long long i = 0;
				for (; i < size; i++) {         /* from the middle: bx, by, ypt vary */
					tn_space_at(&sp, (i + size / 2) % size, v);
					memcpy(v0, v, sizeof v);
					v0[tma] = 0;
					if (!f->check(&pb, v0, &lim, why, sizeof why))
						break;
				}
				if (i == size)
					fail_msg("%s R=%d: no configuration fits: %s", f->name, r, why);
				if (!lim.bulk) {
					assert_int_equal(f->check(&pb, v, &lim, why, sizeof why), 1);
					assert_non_null(strstr(why, "bulk copy engine"));
					tb_add(&b, &pb, v, -1);        /* an export tuned elsewhere */
					n++;
					continue;
				}
				if (f->check(&pb, v, &lim, why, sizeof why))
					fail_msg("%s R=%d tma=1: %s", f->name, r, why);
				assert_int_equal(f->dyn_lds(&pb, v) - f->dyn_lds(&pb, v0),
						 8 * (v[tn_param_index(f, "pf")] + 3));
				tb_add(&b, &pb, v, -1);
				n++;
			}
	tb_flush(&b);
	{                               /* tma 0 is not passed to the template */
		struct tn_problem pb = { tn_family("xyz"), 8, 96, 40, 24, "fp32", { 1, 1, 1 } };
		struct gen_def d[TN_MAXP + 2];
		struct tn_space sp;
		char *src, err[1024];
		int v[TN_MAXP];
		tn_space_default(pb.fam, &sp);
		tn_space_at(&sp, 0, v);
		assert_int_equal(gen_source(pb.fam->tmpl, "fdt_kernel", d, tn_defs(&pb, v, d), &src,
					    err, sizeof err), 0);
		assert_null(strstr(src, "tma="));
		free(src);
	}
	print_message("tma=1: %d kernels compiled for %s\n", n, arch);
	assert_int_equal(n, 12);
}

/* iso3dfd's lds 2 with prev kept in LDS (wr 1) compiles at R = 1, 4 and 8 in
 * fp32 and fp64, with ypt, pf and zu varied, and its dynamic LDS is the
 * tile ring and R planes of the block's centres. */
static void wave_reuse(void **st)
{
	static const char *const name[] = { "vec", "bx", "by", "ypt", "lds", "pf", "zu", "wr" };
	const struct tn_family *f = tn_family("iso3dfd");
	const char *arch = rt_default_arch();
	struct tn_limits lim;
	int n = 0;
	(void)st;
	tn_limits_of_arch(arch, &lim);
	struct tb b;
	tb_init(&b, arch);
	for (int r = 1; r <= TN_RMAX; r += r == 1 ? 3 : 4)
		for (int d = 0; d < 2; d++) {
			struct tn_problem pb = { f, r, 96, 40, 24, d ? "fp64" : "fp32", { 1, 1, 1 } };
			struct tn_space sp;
			const int vec = d ? 2 : 4, by = r == 8 ? 4 : 8, ypt = 1 + r % 2;
			const int pf = r == 1 ? 2 : r % 2;          /* R = 8 fits gfx90a's 64 KiB */
			const int val[] = { vec, 32, by, ypt, 2, pf, 1 + r % 4, 1 };
			int v[TN_MAXP];
			char why[256];
			long long ring, es = d ? 8 : 4;
			tn_space_default(f, &sp);
			tn_space_at(&sp, 0, v);
			for (int i = 0; i < 8; i++)
				v[tn_param_index(f, name[i])] = val[i];
			if (f->check(&pb, v, &lim, why, sizeof why))
				fail_msg("iso3dfd R=%d %s wr=1: %s", r, pb.prec, why);
			ring = (pf + 3LL) * (by * ypt + 2 * r) * (32 + 2 * ((r + vec - 1) / vec));
			assert_int_equal(f->dyn_lds(&pb, v), (ring + (long long)r * by * ypt * 32) * vec * es);
			tb_add(&b, &pb, v, -1);
			v[tn_param_index(f, "lds")] = 1;
			assert_int_equal(f->check(&pb, v, &lim, why, sizeof why), 1);
			assert_non_null(strstr(why, "wr=1"));
			n++;
		}
	tb_flush(&b);
	assert_int_equal(n, 6);
}

/* The helper kernels of a sweep: the copy of the roof, the output check
 * and the hold that groups of short launches wait behind (dbl -1: its one
 * parameter, bs); online tuning's comparison (cmp.m4); and the reference
 * of the time-stepping families made on the GPU (wref.m4), for both
 * vendors' compilers. */
static void helper_kernels(void **st)
{
	static const struct { const char *tmpl, *kernel, *param; int dbl; } k[] = {
		{ "copy.m4", "fdt_copy", "cpt", 0 }, { "check.m4", "fdt_check", "bs", 0 },
		{ "check.m4", "fdt_check", "bs", 1 }, { "spin.m4", "fdt_spin", "bs", -1 },
		{ "cmp.m4", "fdt_cmp", "bs", 0 }, { "cmp.m4", "fdt_cmp", "bs", 1 },
		{ "wref.m4", "fdt_wref", "bs", 0 }, { "wref.m4", "fdt_wref", "bs", 1 } };
	(void)st;
	for (int i = 0; i < (int)(sizeof k / sizeof k[0]); i++) {
		struct gen_def d[] = { { k[i].param, 4 }, { i ? "dbl" : "bs", i ? k[i].dbl : 256 } };
		char err[4096], *src;
		struct rt_prog p;
		assert_int_equal(gen_source(k[i].tmpl, k[i].kernel, d, k[i].dbl < 0 ? 1 : 2, &src,
					    err, sizeof err), 0);
		if (rt_compile(src, k[i].tmpl, rt_default_arch(), NULL, 0, &p, err, sizeof err))
			print_error("%s: %s\n%s\n", k[i].tmpl, err, p.log);
		assert_non_null(p.code);
		assert_true(p.regs > 0);
		rt_prog_free(&p);
		free(src);
	}
}

/* The source fdtune export writes compiles with the run-time compiler too:
 * one kernel, and every recorded size in one file, for one device and for
 * every device; and the mixed derivatives' bests (lds 0 and the ring). */
static void exported(void **st)
{
	static const char *const how[] = { "", "-r 4 --all-sizes", "-f iso3dfd -r 8 --all-sizes",
		"-r 8 --precision fp64 --all-sizes --all-devices", "-f dxy -r 4 -n 512",
		"-f dxz -r 4 -n 512", "-f dyz -r 4 -n 512" };
	const char *bin = getenv("FDTUNE"), *db = getenv("RESULTS_DB");
	char dir[] = "/tmp/fdt_expXXXXXX", cmd[1024], path[256], err[4096], *src;
	struct rt_prog p;
	FILE *f;
	long len;
	(void)st;
	if (!bin || !db)
		skip();
	assert_non_null(mkdtemp(dir));
	for (size_t i = 0; i < sizeof how / sizeof how[0]; i++) {
		snprintf(cmd, sizeof cmd, "cp '%s' %s/e.db && '%s' export --db %s/e.db %s --out %s "
			 "--name k >/dev/null", db, dir, bin, dir, how[i], dir);
		assert_int_equal(system(cmd), 0);
		snprintf(path, sizeof path, "%s/k.cu", dir);
		assert_non_null(f = fopen(path, "rb"));
		fseek(f, 0, SEEK_END);
		len = ftell(f);
		rewind(f);
		assert_non_null(src = calloc(1, (size_t)len + 1));
		assert_int_equal(fread(src, 1, (size_t)len, f), (size_t)len);
		fclose(f);
		if (rt_compile(src, "k.cu", rt_default_arch(), NULL, 0, &p, err, sizeof err))
			print_error("export %s: %s\n%s\n", how[i], err, p.log);
		assert_non_null(p.code);
		rt_prog_free(&p);
		free(src);
	}
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* The resources of each kernel of a program, by its name (rt_prog_kernel,
 * what struct tb reads): two kernels of different static LDS, and a name
 * the program does not have; the report read from every prefix of the
 * code object and of the log (a cut one) gives the kernel's own resources
 * or none, never another's, and reads nothing past its end. */
static void resources_by_name(void **st)
{
	static const char src[] =
		"extern \"C\" __global__ void ka(float *o) { __shared__ float s[64];"
		" s[threadIdx.x] = o[threadIdx.x]; __syncthreads(); o[threadIdx.x] = s[63 - threadIdx.x]; }\n"
		"extern \"C\" __global__ void kb(float *o) { __shared__ float s[256];"
		" s[threadIdx.x] = o[threadIdx.x]; __syncthreads(); o[threadIdx.x] = s[255 - threadIdx.x]; }\n";
	struct rt_prog p;
	char err[1024];
	int regs, lds, spill, ok = 0;
	(void)st;
	if (rt_compile(src, "two.cu", rt_default_arch(), NULL, 0, &p, err, sizeof err))
		fail_msg("%s\n%s", err, p.log);
	assert_int_equal(rt_prog_kernel(&p, "ka", &regs, &lds, &spill), 0);
	assert_int_equal(lds, 64 * 4);
	assert_true(regs > 0 && spill == 0);
	assert_int_equal(rt_prog_kernel(&p, "kb", &regs, &lds, &spill), 0);
	assert_int_equal(lds, 256 * 4);
	assert_int_equal(rt_prog_kernel(&p, "k", &regs, &lds, &spill), -1);
	assert_int_equal(regs, -1);
	{       /* p's own: the first kernel the compiler reports, whole */
		int r2, l2, s2;
		assert_int_equal(rt_prog_kernel(&p, p.lds == 256 ? "ka" : "kb", &r2, &l2, &s2), 0);
		assert_int_equal(p.regs, r2);
		assert_int_equal(p.lds, l2);
		assert_int_equal(p.spill, s2);
	}
	for (size_t k = 0; k <= p.size; k++) {
		unsigned char *cut = malloc(k + 1);     /* exactly k bytes for the sanitizers */
		assert_non_null(cut);
		memcpy(cut, p.code, k);
		if (!rt_res_amdgpu(cut, k, "kb", &regs, &lds, &spill)) {
			assert_int_equal(lds, 1024);
			ok++;
		}
		free(cut);
	}
	for (size_t k = 0, n = strlen(p.log); k <= n; k++) {
		char *cut = strndup(p.log, k);
		assert_non_null(cut);
		if (!rt_res_ptxas(cut, "kb", &regs, &lds, &spill))
			assert_true(lds == 1024 || lds == 0);   /* cut before its smem */
		free(cut);
	}
	assert_true(!strcmp(rt_platform(), "nvidia") || ok > 0);
	rt_prog_free(&p);
}

static void broken_source(void **st)
{
	struct rt_prog p;
	char err[1024];
	(void)st;
	assert_int_not_equal(rt_compile("extern \"C\" __global__ void k(float *o) { o[0] = undeclared; }",
					"bad.cu", rt_default_arch(), NULL, 0, &p, err, sizeof err), 0);
	assert_null(p.code);
	assert_non_null(strstr(err, "failed"));
	assert_non_null(strstr(p.log, "undeclared"));
	rt_prog_free(&p);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(representative_set), cmocka_unit_test(every_family),
		cmocka_unit_test(every_family_fp64), cmocka_unit_test(mixed_modes), cmocka_unit_test(wave_reuse),
		cmocka_unit_test(bulk_copy_knob), cmocka_unit_test(family_in_a_test),
		cmocka_unit_test(helper_kernels),
		cmocka_unit_test(exported), cmocka_unit_test(broken_source),
		cmocka_unit_test(resources_by_name),
	};
	char name[64];
	snprintf(name, sizeof name, "compile-%s-%s", rt_platform(), rt_default_arch());
	return cmocka_run_group_tests_name(name, t, NULL, NULL);
}
