/*
 * t_transfer.c: CPU tests of the transfer search on a small synthetic
 * database. The seeds come from the other sizes of the same family, device
 * and precision, nearest size first, and never from the problem itself (nor,
 * as fdtune replay asks, from any problem of its size); on a GPU new to the
 * database they come from the other GPUs' runs, the problem itself first;
 * a seed outside the space's domains joins it where it is legal; the search
 * proposes its seeds first, never a configuration outside its space
 * (pruned), never one twice, and stops at its budget. Seeds from another
 * database (sweep --seeds-from) rank with the sweep's own.
 */
#define _POSIX_C_SOURCE 200809L
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

#include "db.h"
#include "tn.h"
#include "tn_search.h"
#include "tn_transfer.h"
#include "t_rec.h"

static char dir[] = "/tmp/fdt_trXXXXXX";
static char err[1024];

struct fix {
	struct db *db;
	long long dev, other_dev, p64, p32, p128, p64r8, p64d, run64;
	const struct tn_family *f;
};

/* The xyz configuration of the default domains with vec, bx, nw set. */
static void cfg(const struct tn_family *f, int vec, int bx, int nw, int *v)
{
	memset(v, 0, TN_MAXP * sizeof *v);
	for (int k = 0; k < f->np; k++)
		v[k] = f->p[k].v[0];
	v[tn_param_index(f, "vec")] = vec;
	v[tn_param_index(f, "bx")] = bx;
	v[tn_param_index(f, "nw")] = nw;
}

static long long run(struct fix *x, long long dev, long long prob, int vec, int bx, int nw,
		     double ms)
{
	int v[TN_MAXP];
	cfg(x->f, vec, bx, nw, v);
	return t_rec_run(x->db, x->f, dev, prob, v, ms);
}

/* xyz fp32 R = 4 on an sm_90 GPU at 64^3 (the problem tuned), 32^3 and
 * 128^3; R = 8 at 64^3; fp64 at 64^3; and the same at 32^3 on an sm_80 GPU.
 * Each relative's best is its own, so where a seed comes from shows. */
static void fixture(struct fix *x)
{
	struct db_device h = { "nvidia", "H100", "sm_90", "u1", 132, 0, 0, 0, 1024 };
	struct db_device a = { "nvidia", "A100", "sm_80", "u2", 108, 0, 0, 0, 1024 };
	char path[300];
	memset(x, 0, sizeof *x);
	x->f = tn_family("xyz");
	assert_non_null(x->f);
	snprintf(path, sizeof path, "%s/t.db", dir);
	unlink(path);
	assert_int_equal(db_open(path, &x->db, err, sizeof err), 0);
	assert_int_equal(db_device_id(x->db, &h, &x->dev, err, sizeof err), 0);
	assert_int_equal(db_device_id(x->db, &a, &x->other_dev, err, sizeof err), 0);
	assert_int_equal(db_problem_id(x->db, "xyz", 4, 64, 64, 64, "fp32", &x->p64, err, sizeof err), 0);
	assert_int_equal(db_problem_id(x->db, "xyz", 4, 32, 32, 32, "fp32", &x->p32, err, sizeof err), 0);
	assert_int_equal(db_problem_id(x->db, "xyz", 4, 128, 128, 128, "fp32", &x->p128, err,
				       sizeof err), 0);
	assert_int_equal(db_problem_id(x->db, "xyz", 8, 64, 64, 64, "fp32", &x->p64r8, err,
				       sizeof err), 0);
	assert_int_equal(db_problem_id(x->db, "xyz", 4, 64, 64, 64, "fp64", &x->p64d, err,
				       sizeof err), 0);
	/* the problem itself: its own best (vec 1, bx 128, nw 512) is nobody else's */
	x->run64 = run(x, x->dev, x->p64, 1, 128, 512, 0.001);
	run(x, x->dev, x->p64, 4, 64, 96, 0.5);
	/* the relatives */
	run(x, x->dev, x->p32, 2, 32, 48, 0.10);
	run(x, x->dev, x->p32, 4, 32, 48, 0.20);
	run(x, x->dev, x->p128, 4, 64, 192, 1.0);
	run(x, x->dev, x->p128, 2, 64, 192, 1.5);
	run(x, x->dev, x->p64r8, 2, 128, 96, 0.3);
	/* not relatives: another precision, another GPU */
	run(x, x->dev, x->p64d, 1, 32, 96, 0.2);
	run(x, x->other_dev, x->p32, 1, 64, 48, 0.05);
}

struct seen { long long p64, p64r8, bad; int n; };

static int see(void *ctx, const struct db_related_row *w)
{
	struct seen *s = ctx;
	s->bad += w->problem_id == s->p64;
	s->bad += w->problem_id == s->p64r8 && w->nx == 64;
	s->n++;
	return 0;
}

/* What fdtune replay asks (the device and problem of a run, the whole size
 * left out) never returns a run of the problem or of its size; what a sweep
 * asks leaves out only the problem; both keep to the GPU and precision. */
static void relatives(void **st)
{
	struct fix x;
	struct db_related q = { 0 };
	struct seen s = { 0, 0, 0, 0 };
	(void)st;
	fixture(&x);
	s.p64 = x.p64;
	s.p64r8 = x.p64r8;
	q.run = x.run64;
	q.skip_size = 1;
	q.k = 10;
	assert_int_equal(db_each_related(x.db, &q, see, &s, err, sizeof err), 0);
	assert_int_equal(s.bad, 0);
	assert_int_equal(s.n, 4);       /* two at 32^3, two at 128^3 */
	memset(&q, 0, sizeof q);
	memset(&s, 0, sizeof s);
	s.p64 = x.p64;
	q.device_id = x.dev;
	q.problem_id = x.p64;
	q.k = 10;
	assert_int_equal(db_each_related(x.db, &q, see, &s, err, sizeof err), 0);
	assert_int_equal(s.bad, 0);
	assert_int_equal(s.n, 5);       /* R = 8 at 64^3 too */
	/* of the problem's radius alone (a plan's first pass): not R = 8 */
	memset(&s, 0, sizeof s);
	s.p64 = x.p64;
	s.p64r8 = x.p64r8;
	q.radius = 4;
	assert_int_equal(db_each_related(x.db, &q, see, &s, err, sizeof err), 0);
	assert_int_equal(s.bad, 0);
	assert_int_equal(s.n, 4);
	q.radius = 0;
	/* compile-only: any GPU of the arch */
	memset(&q, 0, sizeof q);
	memset(&s, 0, sizeof s);
	q.problem_id = x.p64;
	q.arch = "sm_80";
	q.k = 10;
	assert_int_equal(db_each_related(x.db, &q, see, &s, err, sizeof err), 0);
	assert_int_equal(s.n, 1);
	db_close(x.db);
}

/* The seeds: nearest relative's best first, the problem's own best never. */
static void seeds(void **st)
{
	struct fix x;
	struct db_related q = { 0 };
	struct tn_problem pb = { 0 };
	struct tn_seeds sd;
	int own[TN_MAXP], first[TN_MAXP];
	(void)st;
	fixture(&x);
	pb = (struct tn_problem){ .fam = x.f, .r = 4, .nx = 64, .ny = 64, .nz = 64, .prec = "fp32" };
	q.run = x.run64;
	q.skip_size = 1;
	assert_int_equal(tn_transfer_seeds(x.db, &q, &pb, &sd, err, sizeof err), 0);
	assert_int_equal(sd.nprob, 2);
	assert_int_equal(sd.n, 4);
	cfg(x.f, 1, 128, 512, own);
	for (long long i = 0; i < sd.n; i++) {
		assert_memory_not_equal(sd.v + i * TN_MAXP, own, sizeof own);
		if (i)
			assert_true(sd.score[i] <= sd.score[i - 1]);
	}
	/* 32^3 and 128^3 weigh the same (one octave each way): the faster
	 * relative best by its own measure ties, so the order of the relatives
	 * decides; both bests come before both seconds */
	cfg(x.f, 2, 32, 48, first);
	assert_true(!memcmp(sd.v, first, sizeof first) || !memcmp(sd.v + TN_MAXP, first, sizeof first));
	tn_seeds_free(&sd);
	/* the sweep's question: R = 8 at 64^3 is the nearest relative now */
	memset(&q, 0, sizeof q);
	q.device_id = x.dev;
	q.problem_id = x.p64;
	assert_int_equal(tn_transfer_seeds(x.db, &q, &pb, &sd, err, sizeof err), 0);
	assert_int_equal(sd.nprob, 3);
	cfg(x.f, 2, 128, 96, first);
	assert_memory_equal(sd.v, first, sizeof first);
	tn_seeds_free(&sd);
	db_close(x.db);
}

struct seen_dev { long long dev, p64; int n, own, other, self, bad_flag; };

static int see_dev(void *ctx, const struct db_related_row *w)
{
	struct seen_dev *s = ctx;
	s->n++;
	s->own += w->device_id == s->dev;
	s->other += w->device_id != s->dev;
	s->self += w->device_id == s->dev && w->problem_id == s->p64;
	s->bad_flag += w->other != (w->device_id != s->dev);
	return 0;
}

/* The walk q asks for, about device dev and problem p64, counted into s;
 * every row's `other` flag must say whether it is of another device. */
static void walk(struct fix *x, const struct db_related *q, long long dev, long long p64,
		 struct seen_dev *s)
{
	memset(s, 0, sizeof *s);
	s->dev = dev;
	s->p64 = p64;
	assert_int_equal(db_each_related(x->db, q, see_dev, s, err, sizeof err), 0);
	assert_int_equal(s->bad_flag, 0);
}

/* Issue 26: the other devices' runs. DB_REL_OTHERS holds the device's own
 * out and takes the problem itself from the others; DB_REL_ALL takes both,
 * the problem itself from the others only; a GPU with no runs of its own
 * gets every device's, the problem's own bests first. */
static void other_devices(void **st)
{
	struct fix x;
	struct db_related q = { 0 };
	struct seen_dev s = { 0 };
	struct tn_problem pb = { 0 };
	struct tn_seeds sd;
	struct db_device h2 = { "nvidia", "H200", "sm_90", "u3", 132, 0, 0, 0, 1024 };
	long long fresh;
	int a100_best[TN_MAXP], h100_best[TN_MAXP];
	(void)st;
	fixture(&x);
	run(&x, x.other_dev, x.p64, 2, 64, 96, 0.02);   /* the A100's best of the problem */
	cfg(x.f, 2, 64, 96, a100_best);
	cfg(x.f, 1, 128, 512, h100_best);
	pb = (struct tn_problem){ .fam = x.f, .r = 4, .nx = 64, .ny = 64, .nz = 64, .prec = "fp32" };
	q.device_id = x.dev;
	q.problem_id = x.p64;
	q.k = 10;
	q.devices = DB_REL_OTHERS;
	walk(&x, &q, x.dev, x.p64, &s);
	assert_int_equal(s.n, 2);       /* the A100's 32^3 and 64^3 */
	assert_int_equal(s.own, 0);
	assert_int_equal(tn_transfer_seeds(x.db, &q, &pb, &sd, err, sizeof err), 0);
	assert_int_equal(sd.nprob, 2);
	assert_int_equal(sd.nother, 2);
	assert_memory_equal(sd.v, a100_best, sizeof a100_best);
	tn_seeds_free(&sd);
	/* both: the H100's three relatives and the A100's two, never the
	 * H100's own runs of the problem */
	q.devices = DB_REL_ALL;
	walk(&x, &q, x.dev, x.p64, &s);
	assert_int_equal(s.own, 5);
	assert_int_equal(s.other, 2);
	assert_int_equal(s.self, 0);
	assert_int_equal(tn_transfer_seeds(x.db, &q, &pb, &sd, err, sizeof err), 0);
	assert_int_equal(sd.nprob, 5);
	assert_int_equal(sd.nother, 2);
	/* the problem itself on the A100 (0.5) outweighs R = 8 here (e^-2) */
	assert_memory_equal(sd.v, a100_best, sizeof a100_best);
	for (long long i = 0; i < sd.n; i++)
		assert_memory_not_equal(sd.v + i * TN_MAXP, h100_best, sizeof h100_best);
	tn_seeds_free(&sd);
	/* a GPU new to the database: every other GPU's runs, the two bests of
	 * the problem itself (equal weight and rank) first */
	assert_int_equal(db_device_id(x.db, &h2, &fresh, err, sizeof err), 0);
	q.device_id = fresh;
	assert_int_equal(tn_transfer_seeds(x.db, &q, &pb, &sd, err, sizeof err), 0);
	assert_int_equal(sd.nprob, 6);  /* 4 of the H100, 2 of the A100 */
	assert_int_equal(sd.nother, 6);
	assert_true(sd.n >= 2);
	assert_true((!memcmp(sd.v, h100_best, sizeof h100_best) &&
		     !memcmp(sd.v + TN_MAXP, a100_best, sizeof a100_best)) ||
		    (!memcmp(sd.v, a100_best, sizeof a100_best) &&
		     !memcmp(sd.v + TN_MAXP, h100_best, sizeof h100_best)));
	tn_seeds_free(&sd);
	/* nor does the device's own walk see another device */
	q.devices = DB_REL_OWN;
	walk(&x, &q, fresh, x.p64, &s);
	assert_int_equal(s.n, 0);
	db_close(x.db);
}

/* *cfgs (freed first, then calloc'ed) = the *n configurations of sp that
 * pb can run within lim and the default space keeps: a sweep's list. */
static void space_cfgs(const struct tn_problem *pb, const struct tn_space *sp,
		       const struct tn_limits *lim, int **cfgs, long long *n)
{
	int v[TN_MAXP];
	char why[256];
	free(*cfgs);
	assert_non_null(*cfgs = calloc((size_t)tn_space_size(sp) * TN_MAXP, sizeof **cfgs));
	*n = 0;
	for (long long i = 0; i < tn_space_size(sp); i++) {
		memset(v, 0, sizeof v);
		tn_space_at(sp, i, v);
		if (!pb->fam->check(pb, v, lim, why, sizeof why) &&
		    !tn_space_out(sp, pb, v, why, sizeof why))
			memcpy(*cfgs + (*n)++ * TN_MAXP, v, sizeof v);
	}
}

/* A seed outside the space's domains joins the space where it is legal
 * (tn_transfer_widen): a value the default domains leave out (zu = 3), not
 * one outside its parameter's range (zu = 9), not one the constraints
 * refuse (zu > 1 with ku = 1), not one -p excluded (vec = 2 under -p vec=4),
 * once however often it is a seed, and never a configuration already there. */
static void widen(void **st)
{
	const struct tn_family *f = tn_family("xyz");
	struct tn_problem pb = { 0 };
	struct tn_space sp;
	struct tn_limits lim;
	struct tn_seeds sd = { 0 };
	int rows[6 * TN_MAXP], *cfgs = NULL, v[TN_MAXP], zu = tn_param_index(f, "zu"),
	    ku = tn_param_index(f, "ku");
	long long n = 0, added = -1, inside = -1;
	(void)st;
	pb = (struct tn_problem){ .fam = f, .r = 4, .nx = 64, .ny = 64, .nz = 64, .prec = "fp32" };
	tn_limits_of_arch("sm_90", &lim);
	for (int pass = 0; pass < 2; pass++) {
		tn_space_default(f, &sp);
		if (pass)
			assert_int_equal(tn_space_set(&sp, "vec=4", err, sizeof err), 0);
		space_cfgs(&pb, &sp, &lim, &cfgs, &n);
		cfg(f, 4, 64, 96, rows);                        /* in the space */
		for (long long i = 0; i < n; i++)
			if (!memcmp(cfgs + i * TN_MAXP, rows, sizeof v))
				inside = i;
		assert_true(inside >= 0);
		cfg(f, 4, 64, 96, rows + TN_MAXP);              /* zu = 3: added */
		rows[TN_MAXP + zu] = 3;
		memcpy(rows + 2 * TN_MAXP, rows + TN_MAXP, sizeof v);  /* again: once */
		cfg(f, 4, 64, 96, rows + 3 * TN_MAXP);          /* zu = 9: out of range */
		rows[3 * TN_MAXP + zu] = 9;
		cfg(f, 4, 64, 96, rows + 4 * TN_MAXP);          /* zu = 2 with ku = 1: refused */
		rows[4 * TN_MAXP + zu] = 2;
		rows[4 * TN_MAXP + ku] = 1;
		cfg(f, 2, 64, 96, rows + 5 * TN_MAXP);          /* vec = 2, zu = 3: -p decides */
		rows[5 * TN_MAXP + zu] = 3;
		sd.v = rows;
		sd.n = 6;
		{
			long long before = n;
			assert_int_equal(tn_transfer_widen(&pb, &sp, &lim, &sd, &cfgs, &n, &added, err,
							   sizeof err), 0);
			assert_int_equal(added, pass ? 1 : 2);
			assert_int_equal(n, before + added);
			assert_memory_equal(cfgs + before * TN_MAXP, rows + TN_MAXP, sizeof v);
			if (!pass)
				assert_memory_equal(cfgs + (before + 1) * TN_MAXP, rows + 5 * TN_MAXP,
						    sizeof v);
			for (long long i = before; i < n; i++)
				assert_int_not_equal(cfgs[i * TN_MAXP + zu], 9);
			/* again: everything there already */
			assert_int_equal(tn_transfer_widen(&pb, &sp, &lim, &sd, &cfgs, &n, &added, err,
							   sizeof err), 0);
			assert_int_equal(added, 0);
		}
	}
	free(cfgs);
}

/* A seed the default space leaves out (iso3dfd's ku 1 with lds 2) does not
 * join the space; with -p ku=0,1 it is in the space already. */
static void widen_left_out(void **st)
{
	const struct tn_family *f = tn_family("iso3dfd");
	struct tn_problem pb = { .fam = f, .r = 8, .nx = 64, .ny = 64, .nz = 64, .prec = "fp32" };
	struct tn_space sp;
	struct tn_limits lim;
	struct tn_seeds sd = { 0 };
	int seed[TN_MAXP] = { 0 }, *cfgs = NULL;
	long long n = 0, added = -1;
	char why[256];
	(void)st;
	tn_limits_of_arch("sm_90", &lim);
	assert_int_equal(tn_config_named(f, "vec=4 bx=32 by=4 ypt=1 lds=2 nw=32 ku=1 wr=0", seed,
					 err, sizeof err), 0);
	assert_int_equal(f->check(&pb, seed, &lim, why, sizeof why), 0);       /* it runs */
	for (int given = 0; given < 2; given++) {
		tn_space_default(f, &sp);
		if (given)
			assert_int_equal(tn_space_set(&sp, "ku=0,1", err, sizeof err), 0);
		assert_int_not_equal(tn_space_out(&sp, &pb, seed, why, sizeof why), given);
		space_cfgs(&pb, &sp, &lim, &cfgs, &n);
		sd.v = seed;
		sd.n = 1;
		assert_int_equal(tn_transfer_widen(&pb, &sp, &lim, &sd, &cfgs, &n, &added, err,
						   sizeof err), 0);
		assert_int_equal(added, 0);
	}
	free(cfgs);
}

/* The kin walk of --seeds-from (db_each_kin) on the fixture, asked as a
 * GPU named H100 of sm_90: every size of xyz R = 4 fp32 on every model,
 * the problem itself included (its database need not hold it); k = 1
 * gives each relative's fastest, per_value its fastest with each value of
 * each parameter too (here every run of the H100's relatives); the seeds
 * count 4 relatives, the A100's the other GPU's. */
static int kin_count(void *ctx, const struct db_kin_row *w)
{
	int *n = ctx;
	*n += 1;
	return w->r.radius == 4 ? 0 : 1;
}

static void kin_seeds(void **st)
{
	struct fix x;
	struct db_kin q = { "xyz", "fp32", "H100", "sm_90", 4, 1, 0 };
	struct tn_problem pb = { 0 };
	struct tn_seeds sd;
	int n = 0;
	(void)st;
	fixture(&x);
	assert_int_equal(db_each_kin(x.db, &q, kin_count, &n, err, sizeof err), 0);
	assert_int_equal(n, 4);
	n = 0;
	q.per_value = 1;
	assert_int_equal(db_each_kin(x.db, &q, kin_count, &n, err, sizeof err), 0);
	assert_int_equal(n, 7);
	pb.fam = x.f;
	pb.r = 4;
	pb.nx = pb.ny = pb.nz = 64;
	pb.prec = "fp32";
	q.per_value = 0;
	assert_int_equal(tn_transfer_seeds_kin(x.db, &q, &pb, &sd, err, sizeof err), 0);
	assert_int_equal(sd.nprob, 4);
	assert_int_equal(sd.nother, 1);
	assert_int_equal(sd.n, 7);              /* per_value, whatever q asked */
	assert_int_equal(sd.v[tn_param_index(x.f, "bx")], 128);    /* the problem's own best */
	tn_seeds_free(&sd);
	db_close(x.db);
}

/* sweep --seeds-from's seeds added to a sweep's own (tn_seeds_merge): a
 * configuration in both scores their sum, the others join, best first,
 * and the relatives add up; the added seeds are left as they were. */
static void merge_seeds(void **st)
{
	struct tn_seeds a = { 0 }, b = { 0 };
	char e[256];
	(void)st;
	a.n = 2;
	b.n = 2;
	assert_non_null(a.v = calloc(2 * TN_MAXP, sizeof *a.v));
	assert_non_null(a.score = calloc(2, sizeof *a.score));
	assert_non_null(b.v = calloc(2 * TN_MAXP, sizeof *b.v));
	assert_non_null(b.score = calloc(2, sizeof *b.score));
	a.v[0] = 1;             /* a: 1 (0.6), 2 (0.5); b: 3 (0.7), 2 (0.3) */
	a.score[0] = 0.6;
	a.v[TN_MAXP] = 2;
	a.score[1] = 0.5;
	b.v[0] = 3;
	b.score[0] = 0.7;
	b.v[TN_MAXP] = 2;
	b.score[1] = 0.3;
	a.nprob = 2;
	a.nother = 1;
	b.nprob = 3;
	b.nother = 3;
	assert_int_equal(tn_seeds_merge(&a, &b, e, sizeof e), 0);
	assert_int_equal(a.n, 3);       /* 2 (0.8), 3 (0.7), 1 (0.6) */
	assert_int_equal(a.v[0], 2);
	assert_true(fabs(a.score[0] - 0.8) < 1e-12);
	assert_int_equal(a.v[TN_MAXP], 3);
	assert_int_equal(a.v[2 * TN_MAXP], 1);
	assert_int_equal(a.nprob, 5);
	assert_int_equal(a.nother, 4);
	assert_int_equal(b.n, 2);
	assert_int_equal(b.v[0], 3);
	tn_seeds_free(&a);
	tn_seeds_free(&b);
	assert_int_equal(a.n, 0);
}

/* A space of 3 parameters x 6 values with every configuration whose first
 * two values are equal pruned; a smooth time with its minimum at (4,1,2). */
#define NV 6
static double cost(const int *v)
{
	return 1 + (v[0] - 4) * (v[0] - 4) + 2 * (v[1] - 1) * (v[1] - 1) + (v[2] - 2) * (v[2] - 2);
}

static void search(void **st)
{
	int cfgs[NV * NV * NV * 3], seedrows[4 * TN_MAXP] = { 0 };
	long long n = 0;
	(void)st;
	for (int a = 0; a < NV; a++)
		for (int b = 0; b < NV; b++)
			for (int c = 0; c < NV; c++) {
				if (a == b)
					continue;       /* pruned */
				cfgs[n * 3] = a;
				cfgs[n * 3 + 1] = b;
				cfgs[n * 3 + 2] = c;
				n++;
			}
	/* seeds: one pruned here, one outside the domains, two in the space */
	seedrows[0] = 3, seedrows[1] = 3, seedrows[2] = 3;
	seedrows[TN_MAXP] = 9, seedrows[TN_MAXP + 1] = 1, seedrows[TN_MAXP + 2] = 1;
	seedrows[2 * TN_MAXP] = 3, seedrows[2 * TN_MAXP + 1] = 0, seedrows[2 * TN_MAXP + 2] = 3;
	seedrows[3 * TN_MAXP] = 5, seedrows[3 * TN_MAXP + 1] = 2, seedrows[3 * TN_MAXP + 2] = 1;
	for (long long budget = 6; budget <= 30; budget += 12) {
		struct tn_search *s;
		char *seen = calloc((size_t)n, 1);
		long long idx[16], used = 0;
		double best = INFINITY;
		int m;
		assert_non_null(seen);
		assert_int_equal(tn_search_new(TN_TRANSFER, cfgs, 3, n, budget, 1, &s, err, sizeof err), 0);
		assert_int_equal(tn_search_seed(s, seedrows, TN_MAXP, 4), 2);
		for (;;) {
			long long pk[16];
			int p = tn_search_peek(s, pk, 16);      /* what next gives, s untouched */
			if ((m = tn_search_next(s, idx, 16)) <= 0) {
				assert_int_equal(p, m);
				break;
			}
			assert_int_equal(p, m);
			assert_memory_equal(pk, idx, (size_t)m * sizeof *idx);
			for (int i = 0; i < m; i++) {
				const int *v = cfgs + idx[i] * 3;
				assert_true(idx[i] >= 0 && idx[i] < n);
				assert_false(seen[idx[i]]);
				assert_int_not_equal(v[0], v[1]);
				if (used == 0)          /* the first seed in the space first */
					assert_true(v[0] == 3 && v[1] == 0 && v[2] == 3);
				if (used == 1)
					assert_true(v[0] == 5 && v[1] == 2 && v[2] == 1);
				seen[idx[i]] = 1;
				used++;
				best = cost(v) < best ? cost(v) : best;
				tn_search_report(s, idx[i], cost(v));
			}
		}
		assert_int_equal(used, budget);
		assert_false(tn_search_next_left(s));
		/* the descent reaches the minimum from the seeds within 30 */
		if (budget == 30)
			assert_true(best == 1);
		tn_search_free(s);
		free(seen);
	}
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(relatives),
		cmocka_unit_test(seeds),
		cmocka_unit_test(other_devices),
		cmocka_unit_test(widen), cmocka_unit_test(widen_left_out),
		cmocka_unit_test(search), cmocka_unit_test(merge_seeds), cmocka_unit_test(kin_seeds),
	};
	int rc;
	if (!mkdtemp(dir))
		return 1;
	rc = cmocka_run_group_tests(t, NULL, NULL);
	{
		char path[300];
		snprintf(path, sizeof path, "%s/t.db", dir);
		unlink(path);
		rmdir(dir);
	}
	return rc;
}
