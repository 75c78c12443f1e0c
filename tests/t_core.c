/*
 * t_core.c: CPU tests of fdtune's core: finite-difference weights, the CPU
 * reference on hand-checkable fields, the output check (error bound and
 * poisoned halo), search spaces and constraints, and the m4 generator.
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
#include <unistd.h>

#include "fam.h"
#include "gen.h"
#include "tn.h"
#include "tn_search.h"

/* Known weights of orders 2, 4, 6, 8 (Fornberg's tables). */
static void coef_exact(void **st)
{
	static const double known[4][5] = {
		{ -2.0, 1.0 },
		{ -5.0 / 2, 4.0 / 3, -1.0 / 12 },
		{ -49.0 / 18, 3.0 / 2, -3.0 / 20, 1.0 / 90 },
		{ -205.0 / 72, 8.0 / 5, -1.0 / 5, 8.0 / 315, -1.0 / 560 },
	};
	(void)st;
	for (int r = 1; r <= 4; r++) {
		double w[TN_RMAX + 1];
		assert_int_equal(tn_d2_weights(r, w), 0);
		for (int k = 0; k <= r; k++)
			assert_true(fabs(w[k] - known[r - 1][k]) <= 1e-15 * fabs(known[r - 1][k]));
		for (int k = r + 1; k <= TN_RMAX; k++)
			assert_true(w[k] == 0.0);
	}
	assert_int_not_equal(tn_d2_weights(0, (double[TN_RMAX + 1]){ 0 }), 0);
	assert_int_not_equal(tn_d2_weights(9, (double[TN_RMAX + 1]){ 0 }), 0);
}

/* Order 2R means exact second derivatives of x^(2m), m <= R: the moments
 * sum_k w_|k| k^(2m) are 2 for m = 1 and 0 for m = 0, 2..R. */
static void coef_consistent(void **st)
{
	(void)st;
	for (int r = 1; r <= TN_RMAX; r++) {
		double w[TN_RMAX + 1];
		assert_int_equal(tn_d2_weights(r, w), 0);
		for (int m = 0; m <= r; m++) {
			double s = m == 0 ? w[0] : 0, scale = fabs(w[0]);
			for (int k = 1; k <= r; k++) {
				s += 2 * w[k] * pow(k, 2 * m);
				scale += 2 * fabs(w[k]) * pow(k, 2 * m);
			}
			assert_true(fabs(s - (m == 1 ? 2.0 : 0.0)) <= 1e-13 * scale);
		}
		/* the next even moment is not matched: the order is exactly 2R */
		double s = 0;
		for (int k = 1; k <= r; k++)
			s += 2 * w[k] * pow(k, 2 * r + 2);
		assert_true(fabs(s) > 1e-3);
	}
}

static struct tn_problem problem(int r, int nx, int ny, int nz)
{
	struct tn_problem pb = { tn_family("xyz"), r, nx, ny, nz, "fp32", { 1, 1, 1 } };
	return pb;
}

/* u = x^2 + 2 y^2 + 3 z^2 - x y + 5 z: every order gives Laplacian 12. */
static void ref_quadratic(void **st)
{
	(void)st;
	for (int r = 1; r <= TN_RMAX; r++) {
		struct tn_problem pb = problem(r, 7, 5, 6);
		struct tn_layout l;
		struct tn_coef c;
		long long pts = 7 * 5 * 6;
		tn_layout_of(&pb, &l);
		float *in = calloc((size_t)l.total, sizeof *in), *mag = calloc(pts, sizeof *mag);
		double *out = calloc(pts, sizeof *out);
		for (int k = -r; k < 6 + r; k++)
			for (int j = -r; j < 5 + r; j++)
				for (int i = -r; i < 7 + r; i++)
					in[l.origin + i + j * l.ld + k * l.slice] =
						(float)(i * i + 2 * j * j + 3 * k * k - i * j + 5 * k);
		tn_family("xyz")->coef(&pb, &c);
		tn_family("xyz")->ref(&pb, &c, &l, in, out, mag);
		for (long long p = 0; p < pts; p++) {
			assert_true(fabs(out[p] - 12.0) <= 1e-4);
			assert_true(mag[p] > 0);
		}
		free(in);
		free(out);
		free(mag);
	}
}

/* A single 1 at (3,2,2): the output around it is the weights themselves,
 * scaled by 1/h^2 with h = (0.5, 1, 2). */
static void ref_impulse(void **st)
{
	struct tn_problem pb = problem(2, 7, 5, 5);
	struct tn_layout l;
	struct tn_coef c;
	(void)st;
	pb.h[0] = 0.5;
	pb.h[2] = 2.0;
	tn_layout_of(&pb, &l);
	float *in = calloc((size_t)l.total, sizeof *in), *mag = calloc(175, sizeof *mag);
	double *out = calloc(175, sizeof *out);
	in[l.origin + 3 + 2 * l.ld + 2 * l.slice] = 1;
	tn_family("xyz")->coef(&pb, &c);
	assert_true(fabs(c.x[1] - 16.0f / 3) < 1e-6 && fabs(c.y[2] + 1.0f / 12) < 1e-7);
	assert_true(fabs(c.z[1] - 1.0f / 3) < 1e-7);
	assert_true(fabs(c.c0 - (-2.5f * (4 + 1 + 0.25f))) < 1e-5);
	tn_family("xyz")->ref(&pb, &c, &l, in, out, mag);
#define AT(i, j, k) out[(i) + 7 * ((j) + 5 * (k))]
	assert_true(AT(3, 2, 2) == (double)c.c0);
	assert_true(AT(4, 2, 2) == (double)c.x[1] && AT(1, 2, 2) == (double)c.x[2]);
	assert_true(AT(3, 0, 2) == (double)c.y[2] && AT(3, 2, 3) == (double)c.z[1]);
	assert_true(AT(4, 3, 2) == 0.0 && AT(0, 2, 2) == 0.0);
#undef AT
	free(in);
	free(out);
	free(mag);
}

static void layout_aligned(void **st)
{
	(void)st;
	for (int r = 1; r <= TN_RMAX; r++)
		for (int nx = 1; nx < 70; nx += 13) {
			struct tn_problem pb = problem(r, nx, 3, 2);
			struct tn_layout l;
			tn_layout_of(&pb, &l);
			assert_int_equal(l.ld % 32, 0);
			assert_int_equal(l.origin % 32, 0);
			/* room for the x halo of the last (partial) float4 */
			assert_true(l.origin - r * l.slice - r * l.ld + (nx + 3) / 4 * 4 + (r + 3) / 4 * 4 <= l.ld);
			assert_true(l.total == l.slice * (2 + 2 * r));
		}
}

/* tn_check accepts a correct output and catches each kind of damage. */
static void check_output(void **st)
{
	struct tn_problem pb = problem(3, 9, 4, 3);
	struct tn_layout l;
	struct tn_coef c;
	double e, b;
	char msg[256];
	(void)st;
	tn_layout_of(&pb, &l);
	float *in = malloc(l.total * sizeof *in), *out = malloc(l.total * sizeof *out);
	float *mag = malloc(108 * sizeof *mag);
	double *ref = malloc(108 * sizeof *ref);
	tn_fill_random(in, l.total, 1);
	for (long long i = 0; i < l.total; i++)
		assert_true(in[i] >= -1 && in[i] < 1 && in[i] != 0);
	tn_family("xyz")->coef(&pb, &c);
	tn_family("xyz")->ref(&pb, &c, &l, in, ref, mag);
	memset(out, 0xff, l.total * sizeof *out);
	for (int k = 0; k < 3; k++)
		for (int j = 0; j < 4; j++)
			for (int i = 0; i < 9; i++)
				out[l.origin + i + j * l.ld + k * l.slice] = (float)ref[i + 9 * (j + 4 * k)];
	assert_int_equal(tn_check(&l, out, ref, mag, 19, &e, &b, msg, sizeof msg), 0);
	assert_true(e <= b);
	/* an error just over the bound */
	float keep = out[l.origin + 4 + l.ld];
	out[l.origin + 4 + l.ld] = (float)(ref[4 + 9] + 3 * tn_err_bound(19, mag[4 + 9]));
	assert_int_equal(tn_check(&l, out, ref, mag, 19, &e, &b, msg, sizeof msg), 1);
	assert_non_null(strstr(msg, "error bound"));
	out[l.origin + 4 + l.ld] = keep;
	/* a point left unwritten (still NaN) */
	memset(&out[l.origin + 8 + 3 * l.ld + 2 * l.slice], 0xff, 4);
	assert_int_equal(tn_check(&l, out, ref, mag, 19, &e, &b, msg, sizeof msg), 1);
	out[l.origin + 8 + 3 * l.ld + 2 * l.slice] = (float)ref[8 + 9 * (3 + 4 * 2)];
	/* a write into the halo, and one into the padding */
	out[l.origin + 9] = 0;
	assert_int_equal(tn_check(&l, out, ref, mag, 19, &e, &b, msg, sizeof msg), 1);
	assert_non_null(strstr(msg, "halo"));
	out[l.origin + l.ld - 33] = 1;
	assert_int_equal(tn_check(&l, out, ref, mag, 19, &e, &b, msg, sizeof msg), 2);
	free(in);
	free(out);
	free(mag);
	free(ref);
}

static void space_enumerates(void **st)
{
	struct tn_space s;
	char err[256], json[256];
	int v[TN_MAXP], seen = 0;
	(void)st;
	tn_space_default(tn_family("xyz"), &s);
	/* vec bx by ypt lds nw nt pf zu */
	assert_int_equal(tn_space_size(&s), 3 * 2 * 3 * 2 * 2 * 5 * 2 * 3 * 3);
	assert_int_equal(tn_space_set(&s, "vec=4", err, sizeof err), 0);
	assert_int_equal(tn_space_set(&s, "nw=7,9", err, sizeof err), 0);
	assert_int_equal(tn_space_size(&s), 2 * 3 * 2 * 2 * 2 * 2 * 3 * 3);
	for (long long i = 0; i < tn_space_size(&s); i++) {
		tn_space_at(&s, i, v);
		assert_int_equal(v[0], 4);
		assert_true(v[5] == 7 || v[5] == 9);
		seen += v[5] == 9;
	}
	assert_int_equal(seen, tn_space_size(&s) / 2);
	tn_space_at(&s, 0, v);
	tn_config_json(tn_family("xyz"), v, json, sizeof json);
	assert_string_equal(json, "{\"vec\":4,\"bx\":32,\"by\":2,\"ypt\":2,\"lds\":1,\"nw\":7,\"nt\":0,\"pf\":0,\"mb\":0,\"ku\":0,\"zd\":0,\"zu\":1}");
	/* tma, a late parameter, is written where it is not at its lo, and then
	 * reaches the template */
	/* a configuration without a late parameter reads the first value of its
	 * domain: that is the lo it is left out at, in every family */
	for (int i = 0; tn_families[i]; i++)
		for (int p = 0; p < tn_families[i]->np; p++)
			if (tn_families[i]->p[p].late)
				assert_int_equal(tn_families[i]->p[p].v[0], tn_families[i]->p[p].lo);
	v[tn_param_index(tn_family("xyz"), "tma")] = 1;
	tn_config_json(tn_family("xyz"), v, json, sizeof json);
	assert_non_null(strstr(json, ",\"zu\":1,\"tma\":1}"));
	tn_config_text(tn_family("xyz"), v, json, sizeof json);
	assert_non_null(strstr(json, " zu=1 tma=1"));
	{
		struct tn_problem pb = problem(4, 64, 64, 64);
		struct gen_def d[TN_MAXP + 2];
		const int nd = tn_defs(&pb, v, d);
		assert_string_equal(d[nd - 1].name, "tma");
		v[tn_param_index(tn_family("xyz"), "tma")] = 0;
		assert_int_equal(tn_defs(&pb, v, d), nd - 1);
	}
	assert_int_not_equal(tn_space_set(&s, "bogus=1", err, sizeof err), 0);
	assert_non_null(strstr(err, "no such parameter"));
	assert_int_not_equal(tn_space_set(&s, "vec=4,x", err, sizeof err), 0);
	assert_int_not_equal(tn_space_set(&s, "vec", err, sizeof err), 0);
	assert_int_not_equal(tn_space_set(&s, "nw=-3", err, sizeof err), 0);
}

/* iso3dfd's default space leaves out ku 1 with lds 1 and 2 (tn_space_out)
 * and, on grids of more than 2^23 points, ku 1 with lds 0; it keeps every
 * ku 0, and ku 1 with lds 0 on grids up to 2^23 points (256x256x128 in,
 * 256x256x129 out); -p ku=... brings them back, while -p of another
 * parameter (lds) does not; xyz has no rule. */
static void default_space_rule(void **st)
{
	const struct tn_family *f = tn_family("iso3dfd");
	const int ku = tn_param_index(f, "ku"), lds = tn_param_index(f, "lds");
	struct tn_problem pb[2] = { { .fam = f, .r = 8, .nx = 256, .ny = 256, .nz = 128, .prec = "fp32" },
				    { .fam = f, .r = 8, .nx = 256, .ny = 256, .nz = 129, .prec = "fp32" } };
	struct tn_space s;
	char err[256], why[256];
	int v[TN_MAXP];
	(void)st;
	for (int big = 0; big < 2; big++) {
		long long out[2][3] = { { 0 } }, all[2][3] = { { 0 } };
		tn_space_default(f, &s);
		assert_int_equal(tn_space_set(&s, "vec=2", err, sizeof err), 0);
		for (long long i = 0; i < tn_space_size(&s); i++) {
			tn_space_at(&s, i, v);
			all[v[ku]][v[lds]]++;
			*why = 0;
			if (tn_space_out(&s, &pb[big], v, why, sizeof why)) {
				out[v[ku]][v[lds]]++;
				assert_non_null(strstr(why, "-p ku=0,1"));
				assert_non_null(strstr(why, v[lds] ? "with lds=" : "2^23 points"));
			}
		}
		for (int l = 0; l < 3; l++) {
			assert_true(all[1][l] > 0);
			assert_int_equal(out[0][l], 0);
			assert_int_equal(out[1][l], l || big ? all[1][l] : 0);
		}
		assert_int_equal(tn_space_set(&s, "ku=0,1", err, sizeof err), 0);
		for (long long i = 0; i < tn_space_size(&s); i++) {
			tn_space_at(&s, i, v);
			assert_int_equal(tn_space_out(&s, &pb[big], v, why, sizeof why), 0);
		}
	}
	tn_space_default(f, &s);
	assert_int_equal(tn_space_set(&s, "lds=2", err, sizeof err), 0);
	assert_int_equal(tn_config_named(f, "vec=2 lds=2 ku=1 nw=32", v, err, sizeof err), 0);
	assert_int_not_equal(tn_space_out(&s, &pb[0], v, why, sizeof why), 0);
	assert_int_equal(tn_space_set(&s, "lds=0", err, sizeof err), 0);
	assert_int_equal(tn_config_named(f, "vec=2 lds=0 ku=1 nw=32", v, err, sizeof err), 0);
	assert_int_not_equal(tn_space_out(&s, &pb[1], v, why, sizeof why), 0);
	assert_int_equal(tn_space_set(&s, "ku=1", err, sizeof err), 0);
	assert_int_equal(tn_space_out(&s, &pb[1], v, why, sizeof why), 0);
	tn_space_default(tn_family("xyz"), &s);
	pb[1].fam = tn_family("xyz");
	for (long long i = 0; i < tn_space_size(&s); i++) {
		tn_space_at(&s, i, v);
		assert_int_equal(tn_space_out(&s, &pb[1], v, why, sizeof why), 0);
	}
}

/* v: the xyz configuration text names (tn_config_named), all 13 parameters. */
static void named(int *v, const char *text)
{
	char err[256];
	if (tn_config_named(tn_family("xyz"), text, v, err, sizeof err))
		fail_msg("%s", err);
}

/* tn_config_named: unnamed parameters take their domain's first value;
 * an unknown name, a value that is no integer, a name twice are refused;
 * tn_config_text of the result names it again. */
static void config_named(void **st)
{
	int v[TN_MAXP], w[TN_MAXP];
	char err[256], txt[512];
	(void)st;
	assert_int_equal(tn_config_named(tn_family("xyz"), "bx=64  nw=100", v, err, sizeof err), 0);
	for (int i = 0; i < tn_family("xyz")->np; i++) {
		const char *nm = tn_family("xyz")->p[i].name;
		assert_int_equal(v[i], !strcmp(nm, "bx") ? 64 : !strcmp(nm, "nw") ? 100 :
				 tn_family("xyz")->p[i].v[0]);
	}
	tn_config_text(tn_family("xyz"), v, txt, sizeof txt);
	assert_int_equal(tn_config_named(tn_family("xyz"), txt, w, err, sizeof err), 0);
	assert_memory_equal(v, w, (size_t)tn_family("xyz")->np * sizeof *v);
	assert_int_not_equal(tn_config_named(tn_family("xyz"), "acc=1", v, err, sizeof err), 0);
	assert_non_null(strstr(err, "xyz has no parameter 'acc'"));
	assert_int_not_equal(tn_config_named(tn_family("xyz"), "vec=4x", v, err, sizeof err), 0);
	assert_non_null(strstr(err, "not an integer"));
	assert_int_not_equal(tn_config_named(tn_family("xyz"), "vec=2 vec=4", v, err, sizeof err), 0);
	assert_non_null(strstr(err, "twice"));
	assert_int_not_equal(tn_config_named(tn_family("xyz"), "vec", v, err, sizeof err), 0);
	assert_int_equal(tn_config_named(tn_family("xyz"), "", v, err, sizeof err), 0);
}

/* A launch parameter is not in the source: xyz configurations that differ
 * in nw alone have one source (and share one build), those that differ in
 * anything else do not; iso3dfd's nw likewise where zu is 1 and ku 0
 * (launch_if), and the kernel's constant where the march is unrolled (zu >
 * 1, or ku 1: NOTES v54 measured 2.1-2.4x lost with the window from the
 * launch). */
static void launch_params(void **st)
{
	struct tn_problem pb = problem(8, 512, 512, 512);
	int a[TN_MAXP], b[TN_MAXP];
	char *sa = NULL, *sb = NULL, err[512];
	(void)st;
	named(a, "vec=4 bx=32 by=4 ypt=2 lds=2 nw=48 pf=1");
	named(b, "vec=4 bx=32 by=4 ypt=2 lds=2 nw=512 pf=1");
	assert_int_equal(tn_source(&pb, a, &sa, err, sizeof err), 0);
	assert_int_equal(tn_source(&pb, b, &sb, err, sizeof err), 0);
	assert_string_equal(sa, sb);
	assert_null(strstr(sa, "nw="));
	free(sb);
	named(b, "vec=4 bx=32 by=4 ypt=2 lds=2 nw=48 pf=0");
	assert_int_equal(tn_source(&pb, b, &sb, err, sizeof err), 0);
	assert_string_not_equal(sa, sb);
	free(sa);
	free(sb);
	pb.fam = tn_family("iso3dfd");
	for (int lds = 0; lds <= 2; lds++)      /* lds 0 and 1 its own code, 2 xyz.m4's */
		for (int zu = 1; zu <= 2; zu++) {
			int v[TN_MAXP], nw = tn_param_index(pb.fam, "nw");
			char spec[64];
			snprintf(spec, sizeof spec, "nw=32 lds=%d zu=%d ku=0", lds, zu);
			assert_int_equal(tn_config_named(pb.fam, spec, v, err, sizeof err), 0);
			assert_int_equal(tn_param_launch(pb.fam, v, nw), zu == 1);
			assert_int_equal(tn_source(&pb, v, &sa, err, sizeof err), 0);
			v[nw] = 128;
			assert_int_equal(tn_source(&pb, v, &sb, err, sizeof err), 0);
			if (zu == 1) {
				assert_string_equal(sa, sb);
				assert_non_null(strstr(sa, "NW = 0,"));
			} else {
				assert_string_not_equal(sa, sb);
				assert_non_null(strstr(sb, "NW = 128,"));
			}
			free(sa);
			free(sb);
		}
	for (int lds = 0; lds <= 2; lds++) {    /* ku 1: a constant, whatever lds */
		int v[TN_MAXP], nw = tn_param_index(pb.fam, "nw");
		char spec[64];
		snprintf(spec, sizeof spec, "nw=32 zu=1 ku=1 lds=%d", lds);
		assert_int_equal(tn_config_named(pb.fam, spec, v, err, sizeof err), 0);
		assert_int_equal(tn_param_launch(pb.fam, v, nw), 0);
		assert_int_equal(tn_source(&pb, v, &sa, err, sizeof err), 0);
		v[nw] = 128;
		assert_int_equal(tn_source(&pb, v, &sb, err, sizeof err), 0);
		assert_string_not_equal(sa, sb);
		assert_non_null(strstr(sb, "NW = 128,"));
		free(sa);
		free(sb);
	}
}

/* Every family's parameters as fam.h's FAM_P declares them: each of its np
 * entries named (an entry left out of .p[] would leave one without), the
 * names distinct and lower-case, each default domain of 1..TN_MAXV values
 * within lo..hi, each role played at most once; the tile of a family on
 * the shared geometry comes from roles: its block is the BX and BY values. */
static void families_declared(void **st)
{
	(void)st;
	for (int k = 0; tn_families[k]; k++) {
		const struct tn_family *f = tn_families[k];
		int seen[TN_ROLE_ACC + 1] = { 0 };
		assert_true(f->np >= 1 && f->np <= TN_MAXP);
		for (int i = 0; i < f->np; i++) {
			const struct tn_param *p = &f->p[i];
			if (!p->name)
				fail_msg("%s: parameter %d has no entry in .p[]", f->name, i);
			for (const char *c = p->name; *c; c++)
				assert_true((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9'));
			for (int j = 0; j < i; j++)
				assert_string_not_equal(f->p[j].name, p->name);
			assert_true(p->n >= 1 && p->n <= TN_MAXV && p->lo <= p->hi);
			for (int j = 0; j < p->n; j++)
				if (p->v[j] < p->lo || p->v[j] > p->hi)
					fail_msg("%s %s: default %d outside %d..%d", f->name, p->name,
						 p->v[j], p->lo, p->hi);
			assert_true(p->role >= TN_ROLE_NONE && p->role <= TN_ROLE_ACC);
			if (p->role != TN_ROLE_NONE && seen[p->role]++)
				fail_msg("%s: two parameters play role %d", f->name, p->role);
		}
		if (f->geom == tn_fam_geom) {
			struct tn_problem pb = { f, 2, 64, 64, 64, "fp32", { 1, 1, 1 } };
			int v[TN_MAXP], bx = tn_param_role(f, TN_ROLE_BX), by = tn_param_role(f, TN_ROLE_BY);
			unsigned g[3], b[3];
			char err[256];
			assert_int_equal(tn_config_named(f, "", v, err, sizeof err), 0);
			f->geom(&pb, v, g, b);
			assert_true(bx >= 0);
			assert_int_equal(b[0], (unsigned)v[bx]);
			assert_int_equal(b[1], by < 0 ? 1u : (unsigned)v[by]);
		}
	}
}

static void constraints(void **st)
{
	struct tn_problem pb = problem(4, 512, 512, 512);
	struct tn_limits lim;
	char why[256];
	unsigned g[3], b[3];
	(void)st;
	tn_limits_of_arch("sm_90", &lim);
	int ok[TN_MAXP];
	named(ok, "vec=4 bx=64 by=4 ypt=1 lds=1 nw=100 nt=1 pf=0 mb=0 ku=0 zd=0 zu=1 tma=0");
	assert_int_equal(tn_family("xyz")->check(&pb, ok, &lim, why, sizeof why), 0);
	int threads[TN_MAXP];
	named(threads, "vec=4 bx=256 by=8 ypt=1 lds=0 nw=64 nt=0 pf=0 mb=0 ku=0 zd=0 zu=1 tma=0");
	assert_int_equal(tn_family("xyz")->check(&pb, threads, &lim, why, sizeof why), 1);
	assert_non_null(strstr(why, "2048 threads"));
	int lds[TN_MAXP];
	named(lds, "vec=4 bx=256 by=4 ypt=4 lds=1 nw=64 nt=0 pf=1 mb=0 ku=0 zd=0 zu=1 tma=0");   /* (16 + 8) * 256 * 16 B = 96 KiB */
	assert_int_equal(tn_family("xyz")->check(&pb, lds, &lim, why, sizeof why), 1);
	assert_non_null(strstr(why, "LDS"));
	int vec[TN_MAXP];
	named(vec, "vec=3 bx=64 by=4 ypt=1 lds=1 nw=64 nt=0 pf=0 mb=0 ku=0 zd=0 zu=1 tma=0");
	assert_int_equal(tn_family("xyz")->check(&pb, vec, &lim, why, sizeof why), 1);
	int flag[TN_MAXP];
	named(flag, "vec=4 bx=64 by=4 ypt=1 lds=3 nw=64 nt=0 pf=0 mb=0 ku=0 zd=0 zu=1 tma=0");
	int pf[TN_MAXP];
	named(pf, "vec=4 bx=64 by=4 ypt=1 lds=1 nw=64 nt=0 pf=2 mb=0 ku=0 zd=0 zu=1 tma=0");
	/* the lds=2 ring is dynamic LDS: 5 x 24 x 66 x 16 B = 124 KiB fits sm_90's
	 * opt-in (227 KiB), not gfx90a's 64 KiB; 5 x 40 x 130 x 16 B fits neither */
	int ring[TN_MAXP];
	named(ring, "vec=4 bx=64 by=4 ypt=4 lds=2 nw=64 nt=0 pf=2 mb=0 ku=0 zd=0 zu=1 tma=0");
	assert_int_equal(tn_family("xyz")->check(&pb, ring, &lim, why, sizeof why), 0);
	assert_int_equal(tn_family("xyz")->dyn_lds(&pb, ring), 5 * 24 * 66 * 16);
	struct tn_limits amd;
	tn_limits_of_arch("gfx90a", &amd);
	assert_int_equal(tn_family("xyz")->check(&pb, ring, &amd, why, sizeof why), 1);
	assert_non_null(strstr(why, "dynamic LDS"));
	int big[TN_MAXP];
	named(big, "vec=4 bx=128 by=8 ypt=4 lds=2 nw=64 nt=0 pf=2 mb=0 ku=0 zd=0 zu=1 tma=0");
	assert_int_equal(tn_family("xyz")->check(&pb, big, &lim, why, sizeof why), 1);
	assert_non_null(strstr(why, "over the limit of 232448"));
	int zu[TN_MAXP];
	named(zu, "vec=4 bx=64 by=4 ypt=1 lds=2 nw=64 nt=0 pf=0 mb=0 ku=1 zd=0 zu=2 tma=0");     /* ku=1 with zu=2 */
	assert_int_equal(tn_family("xyz")->check(&pb, zu, &lim, why, sizeof why), 1);
	assert_non_null(strstr(why, "zu=2 with ku=1"));
	int mb[TN_MAXP];
	named(mb, "vec=4 bx=256 by=4 ypt=1 lds=1 nw=64 nt=0 pf=0 mb=3 ku=0 zd=0 zu=1 tma=0");
	int zd[TN_MAXP];
	named(zd, "vec=4 bx=64 by=4 ypt=1 lds=1 nw=64 nt=0 pf=0 mb=0 ku=0 zd=1 zu=1 tma=0");
	assert_int_equal(tn_family("xyz")->check(&pb, zd, &lim, why, sizeof why), 1);
	assert_non_null(strstr(why, "zd=1 needs lds=2"));
	int zd2[TN_MAXP];
	named(zd2, "vec=4 bx=64 by=4 ypt=1 lds=2 nw=64 nt=0 pf=0 mb=0 ku=0 zd=1 zu=1 tma=0");
	assert_int_equal(tn_family("xyz")->check(&pb, zd2, &lim, why, sizeof why), 0);
	tn_family("xyz")->geom(&pb, zd2, g, b);
	assert_true(g[0] == 8 && g[1] == 2 && g[2] == 128);    /* z chunks first */
	assert_int_equal(tn_family("xyz")->check(&pb, mb, &lim, why, sizeof why), 1);
	assert_non_null(strstr(why, "mb=3"));
	assert_int_equal(tn_family("xyz")->check(&pb, pf, &lim, why, sizeof why), 1);
	assert_non_null(strstr(why, "pf=2: must be 0 or 1, or up to 2 with lds=2"));
	assert_int_equal(tn_family("xyz")->check(&pb, flag, &lim, why, sizeof why), 1);
	tn_family("xyz")->geom(&pb, ok, g, b);
	assert_true(g[0] == 2 && g[1] == 128 && g[2] == 6 && b[0] == 64 && b[1] == 4);
}

/* Value of an exported grid expression: "nX" or "(nX + A) / B". */
static unsigned eval_grid(const char *ex, const struct tn_problem *pb)
{
	char var[3];
	int a, d, val;
	if (sscanf(ex, "(%2[nxyz] + %d) / %d", var, &a, &d) != 3) {
		assert_int_equal(sscanf(ex, "%2[nxyz]", var), 1);
		a = 0;
		d = 1;
	}
	val = var[1] == 'x' ? pb->nx : var[1] == 'y' ? pb->ny : pb->nz;
	return (unsigned)((val + a) / d);
}

/* The geometry exported kernels compute (C expressions in nx, ny, nz)
 * agrees with the one the sweep launches, for every family, at every
 * radius, for configurations spread over each default space, at sizes
 * with and without remainders. */
static void geometry_source(void **st)
{
	static const int sizes[][3] = { { 512, 512, 512 }, { 1, 1, 1 }, { 61, 37, 29 }, { 1000, 3, 700 } };
	(void)st;
	for (int fi = 0; tn_families[fi]; fi++) {
		const struct tn_family *f = tn_families[fi];
		struct tn_space sp;
		long long size;
		tn_space_default(f, &sp);
		size = tn_space_size(&sp);
		for (int r = 1; r <= TN_RMAX; r++)
			for (long long i = r; i < size; i += 1 + size / 9)
				for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
					struct tn_problem pb = problem(r, sizes[s][0], sizes[s][1],
								       sizes[s][2]);
					struct tn_limits lim = { 1024, 49152, 49152, 0 };
					char ex[3][96], why[256];
					unsigned g[3], b[3], b2[3];
					int v[TN_MAXP];
					pb.fam = f;
					tn_space_at(&sp, i, v);
					if (f->check(&pb, v, &lim, why, sizeof why))
						continue;
					f->geom(&pb, v, g, b);
					f->geom_src(&pb, v, ex, b2);
					for (int k = 0; k < 3; k++) {
						if (eval_grid(ex[k], &pb) != g[k])
							fail_msg("%s R=%d: grid %d is %s, geom says %u",
								 f->name, r, k, ex[k], g[k]);
						assert_int_equal(b2[k], b[k]);
					}
				}
	}
}

static int expand(int r, int vec, int lds, int ypt, char **src, char *err, size_t n)
{
	struct gen_def d[] = { { "r", r }, { "vec", vec }, { "bx", 64 }, { "by", 4 },
		{ "ypt", ypt }, { "lds", lds }, { "nw", 16 }, { "nt", 1 }, { "pf", lds & 1 },
		{ "mb", 0 }, { "ku", vec == 2 }, { "zd", lds == 2 }, { "zu", vec == 2 ? 1 : 1 + r % 3 } };
	return gen_source("xyz.m4", "fdt_kernel", d, 13, src, err, n);
}

static void gen_expands(void **st)
{
	char err[1024], *src;
	(void)st;
	for (int r = 1; r <= TN_RMAX; r++)
		for (int vec = 1; vec <= 4; vec *= 2)
			for (int lds = 0; lds <= 2; lds++) {
				char banner[128], def[64];
				assert_int_equal(expand(r, vec, lds, 2, &src, err, sizeof err), 0);
				snprintf(banner, sizeof banner, "Parameters: r=%d vec=%d bx=64 by=4 ypt=2 lds=%d nw=16 nt=1 pf=%d mb=0 ku=%d zd=%d zu=%d", r, vec, lds, lds & 1, vec == 2, lds == 2, vec == 2 ? 1 : 1 + r % 3);
				assert_non_null(strstr(src, "DO NOT EDIT"));
				assert_non_null(strstr(src, banner));
				snprintf(def, sizeof def, "enum { R = %d, VL = %d,", r, vec);
				assert_non_null(strstr(src, def));
				assert_non_null(strstr(src, "fdt_kernel("));
				assert_true((strstr(src, "__shared__") != NULL) == (lds > 0));
				assert_true((strstr(src, "fd_cp(d + i * NTH") != NULL) == (lds == 2));
				/* the x terms are unrolled by m4: one fd_fma per lane and offset */
				int fm = 0;
				for (char *p = src; (p = strstr(p, "fd_fma(c.x[")); p++)
					fm++;
				assert_int_equal(fm, r * vec);
				assert_true((strstr(src, "xr1[YP]") != NULL) == (lds == 1));   /* pf */
				snprintf(def, sizeof def, "#pragma unroll %d\n\tfor (int k = kb - R;", 2 * r + 1);
				assert_true((strstr(src, def) != NULL) == (vec == 2));   /* ku */
				assert_null(strstr(src, "FDT_"));
				assert_null(strstr(src, "m4_"));
				free(src);
			}
}

static void gen_rejects(void **st)
{
	char err[1024], *src = NULL, dir[] = "/tmp/fdt_tmplXXXXXX", path[256];
	FILE *f;
	(void)st;
	/* a helper template's requirement (the families' constraints are their
	 * descriptors' check alone: the constraints test) */
	const struct gen_def bad_bs[] = { { "bs", 96 }, { "dbl", 0 } };
	assert_int_not_equal(gen_source("check.m4", "k", bad_bs, 2, &src, err, sizeof err), 0);
	assert_non_null(strstr(err, "bs must be a power of two"));
	assert_null(src);
	assert_int_not_equal(gen_source("nope.m4", "k", NULL, 0, &src, err, sizeof err), 0);
	assert_non_null(strstr(err, "FDTUNE_TEMPLATES"));
	/* a template that uses a macro nobody defined */
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/bad.m4", dir);
	assert_non_null(f = fopen(path, "w"));
	fputs("int x = FDT_MISSING;\n", f);
	fclose(f);
	setenv("FDTUNE_TEMPLATES", dir, 1);
	assert_int_not_equal(gen_source("bad.m4", "k", NULL, 0, &src, err, sizeof err), 0);
	unsetenv("FDTUNE_TEMPLATES");
	assert_non_null(strstr(err, "FDT_MISSING left unexpanded at line 1"));
	unlink(path);
	rmdir(dir);
}

/* Strategies on a synthetic space of 3 parameters: a bowl with its minimum
 * at (7, 2, 5), plus a ridge of failures. */
static double bowl(const int *v)
{
	if (v[0] == 3)
		return -1;      /* failed */
	return 1 + (v[0] - 7) * (v[0] - 7) + 2.0 * (v[1] - 2) * (v[1] - 2) + 0.5 * (v[2] - 5) * (v[2] - 5);
}

/* The 12 x 6 x 10 grid the search tests walk: configuration i is
 * (i / 60, i / 10 % 6, i % 10), every one valid. */
enum { GRID_N = 12 * 6 * 10 };
static void grid(int *cfg)
{
	for (int i = 0; i < GRID_N; i++) {
		cfg[3 * i] = i / 60;
		cfg[3 * i + 1] = i / 10 % 6;
		cfg[3 * i + 2] = i % 10;
	}
}

static void strategies(void **st)
{
	enum { N = GRID_N };
	static int cfg[N * 3];
	char err[256];
	(void)st;
	grid(cfg);
	for (int s = 0; s < 3; s++) {
		struct tn_search *x;
		long long idx[16], used = 0;
		static char seen[N];
		double best = INFINITY;
		int m;
		memset(seen, 0, sizeof seen);
		assert_int_equal(tn_search_new((enum tn_strategy)s, cfg, 3, N, s ? N / 10 : 0, 42,
					       &x, err, sizeof err), 0);
		for (;;) {
			long long pk[16], pk4[4];
			/* a peek gives what the next call gives, and changes nothing */
			int p = tn_search_peek(x, pk, 16), p4 = tn_search_peek(x, pk4, 4);
			assert_int_equal(tn_search_peek(x, pk, 16), p);
			if ((m = tn_search_next(x, idx, 16)) <= 0) {
				assert_int_equal(p, m);
				break;
			}
			assert_int_equal(p, m);
			assert_memory_equal(pk, idx, (size_t)m * sizeof *idx);
			/* a smaller peek gives the first of a larger one, as a plan
			 * peeks a round and its step then asks for more */
			assert_true(p4 <= m);
			assert_memory_equal(pk4, idx, (size_t)p4 * sizeof *idx);
			for (int i = 0; i < m; i++) {
				double t = bowl(cfg + 3 * idx[i]);
				assert_false(seen[idx[i]]);     /* never twice */
				seen[idx[i]] = 1;
				tn_search_report(x, idx[i], t);
				if (t >= 0 && t < best)
					best = t;
				used++;
			}
		}
		tn_search_free(x);
		assert_int_equal(used, s ? N / 10 : N);       /* the budget, all of it */
		if (s != TN_RANDOM)
			assert_true(best == 1.0);               /* the minimum */
	}
	/* outcomes known from an earlier run are never proposed and use the budget */
	{
		struct tn_search *x;
		long long idx[16], used = 0;
		int m;
		assert_int_equal(tn_search_new(TN_GUIDED, cfg, 3, N, N / 10, 9, &x, err, sizeof err), 0);
		for (long long i = 0; i < 30; i++)
			tn_search_prior(x, i * 7, bowl(cfg + 3 * i * 7));
		while ((m = tn_search_next(x, idx, 16)) > 0)
			for (int i = 0; i < m; i++) {
				assert_true(idx[i] % 7 != 0 || idx[i] >= 210);
				tn_search_report(x, idx[i], bowl(cfg + 3 * idx[i]));
				used++;
			}
		assert_int_equal(used, N / 10 - 30);
		assert_false(tn_search_next_left(x));
		tn_search_free(x);
	}
	enum tn_strategy e;
	assert_int_equal(tn_strategy_parse("guided", &e), 0);
	assert_int_equal(e, TN_GUIDED);
	assert_int_not_equal(tn_strategy_parse("bogus", &e), 0);
}

/* A guided search asked for one configuration at a time (as a live sweep
 * that keeps few outstanding asks) proposes every neighbour of its best
 * configuration before any other, while that one stays the best: here the
 * random start is one configuration, made the minimum of a cone around it,
 * so the next proposals must be its neighbours, all of them (NOTES v58; the
 * search used to mark a neighbourhood explored after its first neighbour). */
static void whole_neighbourhoods(void **st)
{
	enum { N = GRID_N };
	static int cfg[N * 3];
	char err[256];
	(void)st;
	grid(cfg);
	for (unsigned long long seed = 1; seed <= 8; seed++) {
		struct tn_search *x;
		long long c0, idx[1];
		int want = 0, got = 0;
		const int *a;
		assert_int_equal(tn_search_new(TN_GUIDED, cfg, 3, N, N / 2, seed, &x, err,
					       sizeof err), 0);
		tn_search_set_start(x, 1);
		assert_int_equal(tn_search_next(x, idx, 1), 1);
		c0 = idx[0];
		a = cfg + 3 * c0;
		tn_search_report(x, c0, 1.0);
		for (int k = 0; k < 3; k++)
			want += (a[k] > 0) + (a[k] < (k == 0 ? 11 : k == 1 ? 5 : 9));
		for (int i = 0; i < want; i++) {
			const int *b;
			int d;
			assert_int_equal(tn_search_next(x, idx, 1), 1);
			b = cfg + 3 * idx[0];
			d = abs(b[0] - a[0]) + abs(b[1] - a[1]) + abs(b[2] - a[2]);
			got += d == 1;
			tn_search_report(x, idx[0], 1.0 + d);  /* worse than c0 */
		}
		assert_int_equal(got, want);
		tn_search_free(x);
	}
}

/* A guided start given seeds (a plan's first pass, from its relatives'
 * bests: tn_first_seeds) proposes them first, in their order, those outside
 * the space or known skipped, then at random up to the start. */
static void seeded_start(void **st)
{
	enum { N = GRID_N };
	static int cfg[N * 3];
	static const int rows[4 * 3] = { 7, 2, 5, 99, 0, 0, 1, 1, 1, 7, 2, 5 };
	struct tn_search *x;
	char err[256];
	long long idx[16];
	int m;
	(void)st;
	grid(cfg);
	assert_int_equal(tn_search_new(TN_GUIDED, cfg, 3, N, N / 10, 3, &x, err, sizeof err), 0);
	tn_search_set_start(x, 6);
	tn_search_prior(x, 111, 5.0);   /* (1, 5, 1): known, so no seed */
	assert_int_equal(tn_search_seed(x, rows, 3, 4), 1 + 1);        /* (7, 2, 5), (1, 1, 1) */
	assert_int_equal(tn_search_seed(x, (const int[]){ 1, 5, 1 }, 3, 1), 3);
	long long seeds;
	assert_int_equal(tn_search_start_left(x, &seeds), 5);  /* the known one counted in it */
	assert_int_equal(seeds, 2);
	m = tn_search_next(x, idx, 16);
	assert_int_equal(m, 5);                 /* the start */
	assert_int_equal(idx[0], 7 * 60 + 2 * 10 + 5);
	assert_int_equal(idx[1], 1 * 60 + 1 * 10 + 1);
	for (int i = 2; i < m; i++)             /* then at random, not the known one */
		assert_true(idx[i] != idx[0] && idx[i] != idx[1] && idx[i] != 111);
	assert_int_equal(tn_search_start_left(x, &seeds), 0);
	assert_int_equal(seeds, 0);
	tn_search_free(x);
	/* a start of the whole space in one batch: the seeds, then the rest at
	 * random, each configuration once (a seed that the random order meets
	 * in the same batch is not proposed again: before, it was, and the
	 * budget it took left another never proposed) */
	for (int seed = 1; seed <= 20; seed++) {
		static long long all[N];
		static char seen[N];
		assert_int_equal(tn_search_new(TN_GUIDED, cfg, 3, N, 0, (unsigned)seed, &x, err,
					       sizeof err), 0);
		tn_search_set_start(x, N);
		assert_int_equal(tn_search_seed(x, rows, 3, 4), 2);
		assert_int_equal(tn_search_next(x, all, N), N);
		memset(seen, 0, sizeof seen);
		for (int i = 0; i < N; i++) {
			assert_false(seen[all[i]]);
			seen[all[i]] = 1;
		}
		tn_search_free(x);
	}
}

/* A local minimum against a constraint: on a 3 x 3 grid without (2, 2),
 * the best so far (1, 2) has its neighbours proposed and worse; the step a
 * + 1 from it leaves the space, so the next proposal is that step with b -
 * 1, (2, 1), the detour round the constraint (NOTES v61), before the
 * neighbours of the others. Before v61 it was (0, 1), a neighbour of (0, 2). */
static void detours(void **st)
{
	static const int cfg[8 * 2] = { 0, 0, 0, 1, 0, 2, 1, 0, 1, 1, 1, 2, 2, 0, 2, 1 };
	struct tn_search *x;
	char err[256];
	long long idx[4];
	int m, seen[8] = { 0 };
	(void)st;
	assert_int_equal(tn_search_new(TN_GUIDED, cfg, 2, 8, 8, 1, &x, err, sizeof err), 0);
	tn_search_prior(x, 5, 1.0);     /* (1, 2), from an earlier run */
	tn_search_set_start(x, 0);
	m = tn_search_next(x, idx, 4);  /* its neighbours: (0, 2) and (1, 1) */
	assert_int_equal(m, 2);
	for (int i = 0; i < m; i++) {
		seen[idx[i]] = 1;
		tn_search_report(x, idx[i], 2.0);
	}
	assert_true(seen[2] && seen[4]);
	assert_int_equal(tn_search_next(x, idx, 1), 1);
	assert_int_equal(idx[0], 7);    /* (2, 1) */
	tn_search_free(x);
}

/* A configuration the caller takes (tn_search_take: a GPU that would wait
 * runs it) is never proposed again, counts against the budget, not against
 * a guided search's random start, and is refused once known or over
 * budget; its outcome is reported as any other's. */
static void search_take(void **st)
{
	static const int cfg[8 * 2] = { 0, 0, 0, 1, 0, 2, 1, 0, 1, 1, 1, 2, 2, 0, 2, 1 };
	struct tn_search *x;
	char err[256];
	long long idx[8];
	int m, seen[8] = { 0 };
	(void)st;
	assert_int_equal(tn_search_new(TN_EXHAUSTIVE, cfg, 2, 8, 0, 1, &x, err, sizeof err), 0);
	assert_int_equal(tn_search_take(x, 3), 1);
	assert_int_equal(tn_search_take(x, 3), 0);              /* known now */
	tn_search_report(x, 3, 1.0);
	m = tn_search_next(x, idx, 8);
	assert_int_equal(m, 7);
	for (int i = 0; i < m; i++)
		assert_int_not_equal(idx[i], 3);
	assert_int_equal(tn_search_take(x, 9), 0);              /* outside */
	tn_search_free(x);
	/* guided, a budget of 4 and a start of 2: two taken, the start still
	 * gives two at random, and the budget is then spent */
	assert_int_equal(tn_search_new(TN_GUIDED, cfg, 2, 8, 4, 7, &x, err, sizeof err), 0);
	tn_search_set_start(x, 2);
	assert_int_equal(tn_search_take(x, 0), 1);
	assert_int_equal(tn_search_take(x, 1), 1);
	m = tn_search_next(x, idx, 8);
	assert_int_equal(m, 2);
	for (int i = 0; i < m; i++) {
		assert_true(idx[i] > 1);
		seen[idx[i]] = 1;
	}
	for (m = 2; seen[m]; m++)
		;
	assert_false(tn_search_known(x, m));
	assert_int_equal(tn_search_take(x, m), 0);              /* over budget */
	tn_search_free(x);
}

static void gen_hash_stable(void **st)
{
	char a[17], b[17];
	(void)st;
	gen_hash("abc", a);
	gen_hash("abd", b);
	assert_string_equal(a, "e71fa2190541574b");
	assert_string_not_equal(a, b);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(coef_exact), cmocka_unit_test(coef_consistent),
		cmocka_unit_test(ref_quadratic), cmocka_unit_test(ref_impulse),
		cmocka_unit_test(layout_aligned), cmocka_unit_test(check_output),
		cmocka_unit_test(space_enumerates), cmocka_unit_test(default_space_rule), cmocka_unit_test(config_named), cmocka_unit_test(launch_params), cmocka_unit_test(constraints), cmocka_unit_test(families_declared),
		cmocka_unit_test(geometry_source), cmocka_unit_test(search_take),
		cmocka_unit_test(gen_expands), cmocka_unit_test(gen_rejects),
		cmocka_unit_test(gen_hash_stable), cmocka_unit_test(strategies), cmocka_unit_test(whole_neighbourhoods), cmocka_unit_test(seeded_start),
		cmocka_unit_test(detours),
	};
	return cmocka_run_group_tests_name("core", t, NULL, NULL);
}
