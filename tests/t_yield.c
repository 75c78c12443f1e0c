/*
 * t_yield.c: a step bound by its compiles yields the GPUs to a problem whose
 * code is built (tuner/sweep/tn_yield.c), on the CPU machine: the choice of
 * the job yielded to, the wait that makes a step yield, the proposals of
 * the step of built configurations that follows, and FDTUNE_YIELD. Nothing
 * is compiled or run: the plan's state is set by hand (three jobs of xyz,
 * swept whole, a worker's runs), as the sweep's loop would leave it. That
 * a plan with yields runs every configuration once is t_gpu's
 * (plan_yields).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tn_run.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* A plan of three jobs of xyz's vec=4 space, each swept whole (exhaustive,
 * the target its whole space) and a tenth of it proposed, on one GPU whose
 * worker holds no run, after the plan's first passes, job 0's step in
 * progress. */
struct plan {
	struct tn_problem pb[3];
	struct tn_sweep_opts o;
	struct tn_job jb[3];
	struct tn_order ord[3];
	struct tn_run c;
	int *cfgs;
	long long n;
};

static void plan_new(struct plan *p)
{
	const struct tn_family *f = tn_family("xyz");
	struct tn_space sp;
	char err[256];
	memset(p, 0, sizeof *p);
	tn_space_default(f, &sp);
	assert_int_equal(tn_space_set(&sp, "vec=4", err, sizeof err), 0);
	p->n = tn_space_size(&sp);
	assert_true(p->n > 600);        /* room for two jobs' TN_YIELD_MIN */
	assert_non_null(p->cfgs = calloc((size_t)p->n * TN_MAXP, sizeof *p->cfgs));
	for (long long i = 0; i < p->n; i++)
		tn_space_at(&sp, i, p->cfgs + i * TN_MAXP);
	for (int j = 0; j < 3; j++) {
		struct tn_job *x = &p->jb[j];
		/* one problem at three sizes: the same sources */
		p->pb[j] = (struct tn_problem){ .fam = f, .r = 4, .nx = 64 - 8 * j, .ny = 64,
						.nz = 64, .prec = "fp32" };
		x->pb = &p->pb[j];
		x->cfgs = p->cfgs;
		x->nv = x->target = p->n;
		x->proposed = p->n / 10;        /* a tenth behind it (its search's own
						 * state apart) */
		assert_int_equal(tn_search_new(TN_EXHAUSTIVE, p->cfgs, TN_MAXP, p->n, 0, 1,
					       &x->search, err, sizeof err), 0);
		assert_non_null(x->warmed = calloc((size_t)p->n, 1));
	}
	p->c.o = &p->o;
	p->c.gpu = 1;
	p->c.jobs = p->jb;
	p->c.njobs = 3;
	p->c.cur = &p->jb[0];
	p->c.first = -1;
	p->c.ord = p->ord;
	p->c.yield_to = -1;
	p->c.yield_min = 256;
	p->c.nwk = 1;           /* its worker idle: no job, nothing held */
}

static void plan_free(struct plan *p)
{
	tn_yield_free(&p->c);
	for (int j = 0; j < 3; j++) {
		tn_search_free(p->jb[j].search);
		free(p->jb[j].warmed);
	}
	free(p->cfgs);
}

/* Marks k configurations of job j warmed, every other one from the first. */
static void warm(struct plan *p, int j, long long k)
{
	for (long long i = 0; i < 2 * k; i += 2)
		p->jb[j].warmed[i] = 1;
}

/* The job yielded to is another job swept whole with the most built and
 * unrun configurations, 256 at least (those its search knows do not count),
 * given with their count; none in the first passes, before a tenth of
 * either job, from a step of built ones, from or to a job not swept whole,
 * to a job with nothing left, under --budget, --max-configs or --recheck,
 * at a stop, or with FDTUNE_YIELD=0. */
static void pick(void **st)
{
	struct plan p;
	long long n;
	(void)st;
	plan_new(&p);
	assert_int_equal(tn_yield_pick(&p.c, &n), -1);  /* nothing built */
	assert_int_equal(n, 0);
	warm(&p, 1, 300);
	warm(&p, 2, 280);
	assert_int_equal(tn_job_ready(&p.c, &p.jb[1]), 300);
	assert_int_equal(tn_yield_pick(&p.c, &n), 1);
	assert_int_equal(n, 300);
	for (long long i = 0; i < 100; i += 2)          /* 50 of job 1's run: 250 left */
		assert_int_equal(tn_search_take(p.jb[1].search, i), 1);
	assert_int_equal(tn_job_ready(&p.c, &p.jb[1]), 250);
	assert_int_equal(tn_yield_pick(&p.c, &n), 2);
	assert_int_equal(n, 280);
	p.c.yield_min = 281;
	assert_int_equal(tn_yield_pick(&p.c, &n), -1);  /* 280 is too few */
	p.c.yield_min = 256;
	p.jb[2].target = p.n - 1;                       /* job 2 swept in part */
	assert_int_equal(tn_yield_pick(&p.c, &n), -1);
	p.jb[2].target = p.n;
	p.jb[2].proposed = p.n / 10 - 1;                /* job 2 before its tenth */
	assert_int_equal(tn_yield_pick(&p.c, &n), -1);
	p.jb[2].proposed = p.n;                         /* job 2 with nothing left */
	assert_int_equal(tn_yield_pick(&p.c, &n), -1);
	p.jb[2].proposed = p.n / 10;
	p.jb[0].proposed = p.n / 10 - 1;                /* the step's job before its tenth */
	assert_int_equal(tn_yield_pick(&p.c, &n), -1);
	p.jb[0].proposed = p.n / 10;
	p.jb[0].target = p.n - 1;                       /* the step's job in part */
	assert_int_equal(tn_yield_pick(&p.c, &n), -1);
	p.jb[0].target = p.n;
	p.c.first = 2;                                  /* a first pass */
	assert_int_equal(tn_yield_pick(&p.c, &n), -1);
	p.c.first = -1;
	p.c.ready = 1;
	assert_int_equal(tn_yield_pick(&p.c, &n), -1);
	p.c.ready = 0;
	p.o.max_configs = 1000;
	assert_int_equal(tn_yield_pick(&p.c, &n), -1);
	p.o.max_configs = 0;
	p.o.recheck = 5;
	assert_int_equal(tn_yield_pick(&p.c, &n), -1);
	p.o.recheck = 0;
	p.o.budget_s = 3600;
	assert_int_equal(tn_yield_pick(&p.c, &n), -1);
	p.o.budget_s = 0;
	tn_stop_signal = SIGTERM;
	assert_int_equal(tn_yield_pick(&p.c, &n), -1);
	tn_stop_signal = 0;
	p.c.yield_min = 0;                              /* FDTUNE_YIELD=0 */
	assert_int_equal(tn_yield_pick(&p.c, &n), -1);
	p.c.yield_min = 256;
	p.c.gpu = 0;                                    /* compile-only */
	assert_int_equal(tn_yield_pick(&p.c, &n), -1);
	p.c.gpu = 1;
	p.c.cur = &p.jb[2];                             /* never to itself */
	assert_int_equal(tn_yield_pick(&p.c, &n), -1);  /* job 1's 250 too few */
	p.c.yield_min = 250;
	assert_int_equal(tn_yield_pick(&p.c, &n), 1);
	assert_int_equal(n, 250);
	plan_free(&p);
}

/* A step yields once its GPUs have held no run for a quarter of a window of
 * a second, their time summed, the first window begun at the first look
 * after the step's first run (its first compiles are not a gap); a run in
 * progress counts as held; idle less, or a window shorter than a second,
 * does not make it yield; a window with no job to yield to yields nothing;
 * a step yields once; the plan's next step is then the job yielded to, its
 * built configurations alone, and the yield is counted. */
static void check(void **st)
{
	struct plan p;
	double t0 = 100.0;
	long long chunk = -1;
	(void)st;
	plan_new(&p);
	warm(&p, 2, 300);
	p.c.wk[0].step_first = -1;              /* no run yet in the step */
	assert_int_equal(tn_yield_check(&p.c, t0, t0 + 5.0), 0);
	p.c.wk[0].step_first = t0 + 5.0;
	assert_int_equal(tn_yield_check(&p.c, t0, t0 + 5.1), 0);       /* a window begins */
	assert_int_equal(tn_yield_check(&p.c, t0, t0 + 5.9), 0);       /* too short */
	p.c.wk[0].busy_s = 0.8;                 /* held 0.8 of the 1.0 s: idle 0.2 */
	assert_int_equal(tn_yield_check(&p.c, t0, t0 + 6.1), 0);
	p.c.wk[0].busy_s = 1.5;                 /* held 0.7 of the next 1.0 s: idle 0.3 */
	assert_int_equal(tn_yield_pick(&p.c, &chunk), 2);
	assert_int_equal(tn_yield_check(&p.c, t0, t0 + 7.1), 1);
	assert_int_equal(p.c.yield_to, 2);
	assert_int_equal(p.c.yield_n, 300);
	assert_int_equal(tn_yield_check(&p.c, t0, t0 + 9.0), 0);       /* once a step */
	assert_int_equal(p.c.yields, 0);
	assert_int_equal(tn_yield_next(&p.c, &chunk), 2);               /* the next step */
	assert_int_equal(chunk, 300);
	assert_true(p.c.ready);
	assert_int_equal(p.c.yield_to, -1);
	assert_int_equal(p.c.yields, 1);
	assert_int_equal(tn_yield_next(&p.c, &chunk), -1);              /* no yield pending */
	p.c.ready = 0;

	t0 = 200.0;                             /* a step with a run in progress */
	p.c.wk[0].step_first = 199.5;
	p.c.wk[0].job = &p;
	p.c.wk[0].t_job = 199.0;
	assert_int_equal(tn_yield_check(&p.c, t0, t0), 0);
	assert_int_equal(tn_yield_check(&p.c, t0, t0 + 1.5), 0);       /* held all of it */
	p.c.wk[0].job = NULL;                   /* its answer at 201.6 */
	p.c.wk[0].busy_s += 2.6;
	memset(p.jb[2].warmed, 0, (size_t)p.n);
	assert_int_equal(tn_yield_check(&p.c, t0, t0 + 3.0), 0);       /* idle, none to yield to */
	warm(&p, 1, 256);
	assert_int_equal(tn_yield_check(&p.c, t0, t0 + 3.5), 0);       /* half a window */
	assert_int_equal(tn_yield_check(&p.c, t0, t0 + 4.0), 1);
	assert_int_equal(p.c.yield_to, 1);

	p.c.yield_to = -1;                      /* two GPUs: their time summed */
	p.c.nwk = 2;
	t0 = 300.0;
	p.c.wk[1].step_first = 300.0;
	p.c.wk[1].job = &p;                     /* GPU 1 busy throughout */
	p.c.wk[1].t_job = 300.0;
	assert_int_equal(tn_yield_check(&p.c, t0, t0 + 0.1), 0);
	p.c.wk[0].job = &p;                     /* GPU 0 busy 0.6 of the window */
	p.c.wk[0].t_job = 300.5;
	assert_int_equal(tn_yield_check(&p.c, t0, t0 + 1.1), 0);       /* idle 0.4 of 2.0 */
	p.c.wk[0].job = NULL;                   /* GPU 0 idle the next window */
	p.c.wk[0].busy_s += 0.6;
	assert_int_equal(tn_yield_check(&p.c, t0, t0 + 2.1), 1);       /* idle 1.0 of 2.0 */
	plan_free(&p);
}

/* The step of built configurations proposes each warmed and unknown
 * configuration of its job once, in index order, and no other: those its
 * search knew are skipped, each proposed one is taken from the search (so
 * the search never proposes it again), and they are counted. */
static void take(void **st)
{
	struct plan p;
	long long idx[64], got = 0, last = -1, next[1];
	int m;
	(void)st;
	plan_new(&p);
	warm(&p, 1, 300);
	assert_int_equal(tn_search_take(p.jb[1].search, 4), 1);        /* known */
	p.c.cur = &p.jb[1];
	p.c.ready = 1;
	while ((m = tn_yield_take(&p.c, &p.jb[1], idx, 64)) > 0) {
		assert_true(m <= 64);
		for (int i = 0; i < m; i++) {
			assert_true(idx[i] > last && idx[i] != 4);
			assert_true(p.jb[1].warmed[idx[i]]);
			assert_true(tn_search_known(p.jb[1].search, idx[i]));
			tn_search_report(p.jb[1].search, idx[i], 1.0);
			last = idx[i];
		}
		got += m;
	}
	assert_int_equal(got, 299);
	assert_int_equal(tn_job_ready(&p.c, &p.jb[1]), 0);
	/* the search goes on with the rest: never one taken */
	while (tn_search_next(p.jb[1].search, next, 1) == 1) {
		assert_false(p.jb[1].warmed[next[0]]);
		tn_search_report(p.jb[1].search, next[0], 1.0);
		got++;
	}
	assert_int_equal(got, p.n - 1);
	plan_free(&p);
}

/* 1 when configuration i of job b has the source of one of the first m
 * configurations of job a marked (even indices), by brute force. */
static int sourced(const struct plan *p, long long i, long long m)
{
	const struct tn_family *f = p->pb[0].fam;
	int ki[TN_MAXP], ka[TN_MAXP];
	tn_source_key(f, p->cfgs + i * TN_MAXP, ki);
	for (long long a = 0; a < 2 * m; a += 2) {
		tn_source_key(f, p->cfgs + a * TN_MAXP, ka);
		if (!memcmp(ki, ka, sizeof ki))
			return 1;
	}
	return 0;
}

/* A build a step hands on makes its source ready for every job of the same
 * family, radius and precision, at any size, and for each configuration of
 * that source (xyz's nw apart): exactly those, less what their searches
 * know; not for another radius or precision; nothing is noted in a plan
 * of one job, compile-only or with FDTUNE_YIELD=0. */
static void built(void **st)
{
	struct plan p;
	long long want = 0;
	(void)st;
	plan_new(&p);
	p.pb[2].r = 2;                                  /* another radius */
	p.c.njobs = 1;
	tn_yield_built(&p.c, &p.jb[0], p.cfgs);
	p.c.njobs = 3;
	p.c.gpu = 0;
	tn_yield_built(&p.c, &p.jb[0], p.cfgs);
	p.c.gpu = 1;
	p.c.yield_min = 0;
	tn_yield_built(&p.c, &p.jb[0], p.cfgs);
	p.c.yield_min = 256;
	assert_int_equal(tn_job_ready(&p.c, &p.jb[1]), 0);
	for (long long a = 0; a < 2 * 400; a += 2)     /* 400 builds, the table grows */
		tn_yield_built(&p.c, &p.jb[0], p.cfgs + a * TN_MAXP);
	assert_int_equal(tn_search_take(p.jb[1].search, 0), 1);        /* known */
	for (long long i = 0; i < p.n; i++)
		want += i != 0 && sourced(&p, i, 400);
	assert_true(want > 400);                        /* twins among them */
	assert_int_equal(tn_job_ready(&p.c, &p.jb[1]), want);
	assert_int_equal(tn_job_ready(&p.c, &p.jb[2]), 0);
	p.pb[2].r = 4;
	p.pb[2].prec = "fp64";
	assert_int_equal(tn_job_ready(&p.c, &p.jb[2]), 0);
	p.pb[2].prec = "fp32";
	assert_int_equal(tn_job_ready(&p.c, &p.jb[2]), want + 1);
	assert_int_equal(tn_yield_pick(&p.c, &want), 2);        /* the most built */
	assert_int_equal(want, tn_job_ready(&p.c, &p.jb[2]));
	want = tn_job_ready(&p.c, &p.jb[1]);
	p.c.cur = &p.jb[1];
	p.c.ready = 1;
	for (long long i = 0, m; (m = tn_yield_take(&p.c, &p.jb[1], &i, 1)) > 0; want--)
		assert_true(i != 0 && sourced(&p, i, 400));
	assert_int_equal(want, 0);
	plan_free(&p);
}

/* FDTUNE_YIELD: unset or empty 256, 0 none, N N; a bad value is refused,
 * named, with what it sets and what to do. */
static void env(void **st)
{
	char err[512];
	int v = -1;
	(void)st;
	unsetenv("FDTUNE_YIELD");
	assert_int_equal(tn_yield_min(&v, err, sizeof err), 0);
	assert_int_equal(v, 256);
	setenv("FDTUNE_YIELD", "", 1);
	assert_int_equal(tn_yield_min(&v, err, sizeof err), 0);
	assert_int_equal(v, 256);
	setenv("FDTUNE_YIELD", "0", 1);
	assert_int_equal(tn_yield_min(&v, err, sizeof err), 0);
	assert_int_equal(v, 0);
	setenv("FDTUNE_YIELD", "40", 1);
	assert_int_equal(tn_yield_min(&v, err, sizeof err), 0);
	assert_int_equal(v, 40);
	setenv("FDTUNE_YIELD", "many", 1);
	assert_int_equal(tn_yield_min(&v, err, sizeof err), 1);
	assert_non_null(strstr(err, "FDTUNE_YIELD"));
	assert_non_null(strstr(err, "unset it for 256"));
	setenv("FDTUNE_YIELD", "-3", 1);
	assert_int_equal(tn_yield_min(&v, err, sizeof err), 1);
	unsetenv("FDTUNE_YIELD");
}

int main(void)
{
	const struct CMUnitTest t[] = { cmocka_unit_test(pick), cmocka_unit_test(check),
					cmocka_unit_test(take), cmocka_unit_test(built),
					cmocka_unit_test(env) };
	return cmocka_run_group_tests(t, NULL, NULL);
}
