/*
 * t_warm.c: a plan's guess of its next step (tn_run_next) and the compile
 * cache warmed for that step (tn_warm.c), on the CPU machine: NVRTC (or
 * hiprtc) compiles the peeked configurations into a compile cache of the
 * test's own; nothing is run or recorded. The guess must be the step the
 * plan then takes: the first passes in order, then the most to gain. Also
 * the race that makes a warm step fast (tn_race_out), whose rules decide
 * how many launches each run of a step costs, a first pass's seeds
 * (tn_first_seeds), asked of a database of the test's own, and the compile
 * pool's threads, which run below the sweep's priority (FDTUNE_NICE).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tn_run.h"
#include "tn_cache.h"
#include "tn_time.h"
#include "t_rec.h"
#include "t_util.h"

#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char dir[] = "/tmp/fdt_warmXXXXXX";

/* Job j of c over the n configurations cfgs (TN_MAXP ints each), all to
 * run (exhaustive order, the target its whole space), nothing recorded
 * before. */
static void job(struct tn_run *c, int j, const struct tn_problem *pb, int *cfgs, long long n)
{
	struct tn_job *x = &c->jobs[j];
	char err[256];
	x->pb = pb;
	x->cfgs = cfgs;
	x->nv = x->target = n;
	x->best_pct = NAN;
	assert_int_equal(tn_search_new(TN_EXHAUSTIVE, cfgs, TN_MAXP, n, 0, 1, &x->search, err,
				       sizeof err), 0);
}

/* tn_first_seeds(c, j), or with st tn_choose(c, j, st, evals), or with j
 * NULL tn_seeds_open(c), with its stderr into said[0..n): its status. */
static int said_by(struct tn_run *c, struct tn_job *j, enum tn_strategy *st, int *evals,
		   char *said, size_t n)
{
	char path[300], err[512];
	int saved = dup(2), fd, rc, to;
	FILE *in;
	assert_true(saved >= 0);
	snprintf(path, sizeof path, "%s/said.txt", dir);
	fflush(stderr);
	assert_true((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) >= 0);
	to = dup2(fd, 2);
	close(fd);
	rc = to != 2 ? -1 : !j ? tn_seeds_open(c, err, sizeof err) :
	     st ? tn_choose(c, j, st, evals, err, sizeof err) : tn_first_seeds(c, j, err, sizeof err);
	fflush(stderr);
	/* stderr back before any assertion can leave the test */
	assert_int_equal(dup2(saved, 2), 2);
	close(saved);
	assert_non_null(in = fopen(path, "r"));
	said[fread(said, 1, n - 1, in)] = 0;
	fclose(in);
	return rc;
}

/* A guided search of 3 over cfgs with a start of 2 for job j of problem
 * (family xyz, radius r at 64^3) in database d, seeding. */
static void seeding(struct db *d, struct tn_job *j, int r, int *cfgs)
{
	char err[256];
	j->seeding = 1;
	assert_int_equal(db_problem_id(d, "xyz", r, 64, 64, 64, "fp32", &j->prob_id, err,
				       sizeof err), 0);
	assert_int_equal(tn_search_new(TN_GUIDED, cfgs, TN_MAXP, 3, 3, 1, &j->search, err,
				       sizeof err), 0);
	tn_search_set_start(j->search, 2);
}

/* A plan's first pass from the bests of its relatives of its radius
 * (tn_first_seeds): the database holds xyz R = 4 at 32^3 (best a, then c)
 * and R = 8 at 64^3 (best b: another radius, no seed); the job, xyz R = 4
 * at 64^3, a guided search of a start of 2, proposes a and c, not b. Asked
 * once; a job not seeding asks nothing. A job of R = 2, with no relative,
 * starts at random, and the sweep says so on stderr. With --seeds-from a
 * database of another GPU's R = 2 at 32^3 (best b, then c), R = 2 starts
 * from b and c and says where they came from; R = 4 from its own
 * relatives while the other has none of its radius, then from both. */
static void first_seeds(void **st)
{
	const struct tn_family *f = tn_family("xyz");
	struct db_device h = { "nvidia", "H100", "sm_90", "u1", 132, 0, 0, 0, 1024 };
	struct db_device h2 = { "nvidia", "H200", "sm_90", "u2", 132, 0, 0, 0, 1024 };
	struct tn_problem pb = { .fam = f, .r = 4, .nx = 64, .ny = 64, .nz = 64, .prec = "fp32" };
	struct tn_sweep_opts o = { 0 };
	struct tn_job jb = { 0 };
	struct tn_run c = { 0 };
	static int cfgs[3 * TN_MAXP];
	long long dev, p32, p8, idx[4];
	char path[300], err[512], said[1024];
	struct db *d, *other;
	(void)st;
	assert_non_null(f);
	for (int i = 0; i < 3; i++) {   /* a: vec 2 bx 32; b: vec 4 bx 64; c: vec 1 bx 64 */
		int *v = cfgs + i * TN_MAXP;
		for (int k = 0; k < f->np; k++)
			v[k] = f->p[k].v[0];
		v[tn_param_index(f, "vec")] = i == 0 ? 2 : i == 1 ? 4 : 1;
		v[tn_param_index(f, "bx")] = i == 0 ? 32 : 64;
	}
	snprintf(path, sizeof path, "%s/seeds.db", dir);
	assert_int_equal(db_open(path, &d, err, sizeof err), 0);
	assert_int_equal(db_device_id(d, &h, &dev, err, sizeof err), 0);
	assert_int_equal(db_problem_id(d, "xyz", 4, 32, 32, 32, "fp32", &p32, err, sizeof err), 0);
	assert_int_equal(db_problem_id(d, "xyz", 8, 64, 64, 64, "fp32", &p8, err, sizeof err), 0);
	assert_int_equal(db_problem_id(d, "xyz", 4, 64, 64, 64, "fp32", &jb.prob_id, err,
				       sizeof err), 0);
	t_rec_run(d, f, dev, p32, cfgs, 0.1);
	t_rec_run(d, f, dev, p32, cfgs + 2 * TN_MAXP, 0.5);
	t_rec_run(d, f, dev, p8, cfgs + TN_MAXP, 0.05);
	c.o = &o;
	c.db = d;
	c.dev_id[0] = dev;
	c.arch = "sm_90";
	c.gpu = 1;
	c.jobs = &jb;
	c.njobs = 1;
	jb.pb = &pb;
	jb.name = "xyz R=4 64x64x64 fp32";
	jb.cfgs = cfgs;
	jb.nv = jb.target = 3;
	assert_int_equal(tn_search_new(TN_GUIDED, cfgs, TN_MAXP, 3, 3, 1, &jb.search, err,
				       sizeof err), 0);
	tn_search_set_start(jb.search, 2);
	assert_int_equal(tn_first_seeds(&c, &jb, err, sizeof err), 0);  /* not seeding */
	assert_int_equal(jb.sd.n, 0);
	jb.seeding = 1;
	assert_int_equal(tn_first_seeds(&c, &jb, err, sizeof err), 0);
	assert_int_equal(jb.seeding, 0);
	assert_int_equal(jb.sd.nprob, 1);       /* R = 4 at 32^3 alone */
	assert_int_equal(tn_search_next(jb.search, idx, 4), 2);
	assert_int_equal(idx[0], 0);
	assert_int_equal(idx[1], 2);
	tn_search_free(jb.search);
	tn_seeds_free(&jb.sd);
	/* no relative of its radius: a start at random, and the sweep says
	 * how to seed it */
	pb.r = 2;
	jb.name = "xyz R=2 64x64x64 fp32";
	seeding(d, &jb, 2, cfgs);
	assert_int_equal(said_by(&c, &jb, NULL, NULL, said, sizeof said), 0);
	assert_non_null(strstr(said, "xyz R=2 64x64x64 fp32: its first pass starts at random: the "
			       "database holds no bests of its radius"));
	assert_non_null(strstr(said, "--seeds-from"));
	assert_int_equal(jb.seeding, 0);
	assert_int_equal(jb.sd.nprob, 0);
	tn_search_free(jb.search);
	tn_seeds_free(&jb.sd);
	/* --seeds-from: another database, with R = 2 on another GPU */
	snprintf(path, sizeof path, "%s/other.db", dir);
	assert_int_equal(db_open(path, &other, err, sizeof err), 0);
	assert_int_equal(db_device_id(other, &h2, &dev, err, sizeof err), 0);
	assert_int_equal(db_problem_id(other, "xyz", 2, 32, 32, 32, "fp32", &p32, err, sizeof err), 0);
	t_rec_run(other, f, dev, p32, cfgs + TN_MAXP, 0.1);
	t_rec_run(other, f, dev, p32, cfgs + 2 * TN_MAXP, 0.2);
	db_close(other);
	o.seeds_path = path;
	assert_int_equal(tn_seeds_open(&c, err, sizeof err), 0);
	assert_non_null(c.seeds);
	seeding(d, &jb, 2, cfgs);
	assert_int_equal(said_by(&c, &jb, NULL, NULL, said, sizeof said), 0);
	assert_int_equal(jb.sd_from, 1);
	assert_int_equal(jb.sd.nprob, 1);
	assert_int_equal(jb.sd.nother, 1);      /* H200, asked about by a GPU named "" */
	assert_non_null(strstr(said, "xyz R=2 64x64x64 fp32: its first pass starts from 2 of the "
			       "bests recorded for 1 relative of its radius (1 of them on other "
			       "GPUs, 1 of them in "));
	assert_non_null(strstr(said, "other.db)"));
	assert_int_equal(tn_search_next(jb.search, idx, 4), 2);
	assert_int_equal(idx[0], 1);
	assert_int_equal(idx[1], 2);
	tn_search_free(jb.search);
	tn_seeds_free(&jb.sd);
	/* R = 4: its own database's relatives, none in the other */
	pb.r = 4;
	jb.name = "xyz R=4 64x64x64 fp32";
	seeding(d, &jb, 4, cfgs);
	assert_int_equal(said_by(&c, &jb, NULL, NULL, said, sizeof said), 0);
	assert_int_equal(jb.sd_from, 0);
	assert_int_equal(jb.sd.nprob, 1);
	assert_null(strstr(said, "other.db"));
	tn_search_free(jb.search);
	tn_seeds_free(&jb.sd);
	/* R = 4 with the other's R = 4 at 32^3 on the H200 too (b): ranked
	 * together, 2 relatives; a first (this GPU's relative weighs twice
	 * another's), then b, then c (5 times a's time: next to nothing) */
	assert_int_equal(db_open(path, &other, err, sizeof err), 0);
	assert_int_equal(db_problem_id(other, "xyz", 4, 32, 32, 32, "fp32", &p32, err,
				       sizeof err), 0);
	t_rec_run(other, f, dev, p32, cfgs + TN_MAXP, 0.01);
	db_close(other);
	db_close(c.seeds);
	assert_int_equal(tn_seeds_open(&c, err, sizeof err), 0);
	seeding(d, &jb, 4, cfgs);
	assert_int_equal(said_by(&c, &jb, NULL, NULL, said, sizeof said), 0);
	assert_int_equal(jb.sd_from, 1);
	assert_int_equal(jb.sd.nprob, 2);
	assert_non_null(strstr(said, "for 2 relatives of its radius (1 of them on other GPUs, 1 "
			       "of them in "));
	assert_int_equal(tn_search_next(jb.search, idx, 4), 2);
	assert_int_equal(idx[0], 0);
	assert_int_equal(idx[1], 1);
	tn_search_free(jb.search);
	tn_seeds_free(&jb.sd);
	db_close(c.seeds);
	/* a database that is none: refused, naming the option */
	snprintf(path, sizeof path, "%s/none.db", dir);
	c.seeds = NULL;
	assert_int_equal(tn_seeds_open(&c, err, sizeof err), 1);
	assert_null(c.seeds);
	assert_non_null(strstr(err, "--seeds-from"));
	db_close(d);
}

/* A sweep's strategy with --seeds-from (tn_choose): without -s, a job whose
 * own database holds no relative runs the transfer search from the other
 * database's bests of its radius, and says so; the other's runs of this
 * GPU's model (H100, sm_90) are no other GPU's. With -s guided nothing is
 * asked of either database here (a plan's first pass asks later). */
static void choose_seeds(void **st)
{
	const struct tn_family *f = tn_family("xyz");
	struct db_device h = { "nvidia", "H100", "sm_90", "u1", 132, 0, 0, 0, 1024 };
	struct tn_problem pb = { .fam = f, .r = 4, .nx = 64, .ny = 64, .nz = 64, .prec = "fp32" };
	struct tn_sweep_opts o = { 0 };
	struct tn_job jb = { 0 };
	struct tn_run c = { 0 };
	static int cfgs[2 * TN_MAXP];
	enum tn_strategy s = TN_EXHAUSTIVE;
	long long dev, p32;
	int evals = 10;
	char path[300], spath[300], err[512], said[2048];
	struct db *d, *other;
	(void)st;
	assert_non_null(f);
	for (int i = 0; i < 2; i++) {
		int *v = cfgs + i * TN_MAXP;
		for (int k = 0; k < f->np; k++)
			v[k] = f->p[k].v[0];
		v[tn_param_index(f, "vec")] = i ? 4 : 2;
	}
	snprintf(spath, sizeof spath, "%s/cother.db", dir);
	assert_int_equal(db_open(spath, &other, err, sizeof err), 0);
	assert_int_equal(db_device_id(other, &h, &dev, err, sizeof err), 0);
	assert_int_equal(db_problem_id(other, "xyz", 4, 32, 32, 32, "fp32", &p32, err, sizeof err), 0);
	t_rec_run(other, f, dev, p32, cfgs + TN_MAXP, 0.1);
	t_rec_run(other, f, dev, p32, cfgs, 0.3);
	db_close(other);
	o.seeds_path = spath;
	o.shards = 2;           /* no widening: cfgs stays the test's */
	o.db_path = "own.db";
	snprintf(path, sizeof path, "%s/cown.db", dir);
	assert_int_equal(db_open(path, &d, err, sizeof err), 0);
	assert_int_equal(db_device_id(d, &h, &c.dev_id[0], err, sizeof err), 0);
	assert_int_equal(db_problem_id(d, "xyz", 4, 64, 64, 64, "fp32", &jb.prob_id, err,
				       sizeof err), 0);
	c.o = &o;
	c.db = d;
	c.gpu = 1;
	c.arch = "sm_90";
	snprintf(c.wk[0].dev.name, sizeof c.wk[0].dev.name, "H100");
	assert_int_equal(tn_seeds_open(&c, err, sizeof err), 0);
	assert_non_null(c.seeds);
	jb.pb = &pb;
	jb.cfgs = cfgs;
	jb.nv = 2;
	assert_int_equal(said_by(&c, &jb, &s, &evals, said, sizeof said), 0);
	assert_int_equal(s, TN_TRANSFER);
	assert_int_equal(evals, 2);
	assert_int_equal(jb.sd_from, 1);
	assert_int_equal(jb.sd.nprob, 1);
	assert_int_equal(jb.sd.nother, 0);
	assert_true(jb.sd.n == 2 && jb.sd.v[tn_param_index(f, "vec")] == 4);
	assert_non_null(strstr(said, "cother.db holds xyz fp32 results at 1 relative of its "
			       "radius (a size on a GPU): a transfer search"));
	tn_seeds_free(&jb.sd);
	/* -s guided: neither is asked here */
	o.strategy_set = 1;
	o.strategy = TN_GUIDED;
	jb.sd_from = 0;
	assert_int_equal(said_by(&c, &jb, &s, &evals, said, sizeof said), 0);
	assert_int_equal(s, TN_GUIDED);
	assert_int_equal(jb.sd.nprob, 0);
	assert_int_equal(jb.sd_from, 0);
	db_close(c.seeds);
	/* no GPU: not read, and said */
	c.seeds = NULL;
	c.gpu = 0;
	assert_int_equal(said_by(&c, NULL, NULL, NULL, said, sizeof said), 0);
	assert_null(c.seeds);
	assert_non_null(strstr(said, "is not read: without a GPU"));
	db_close(d);
}

/* The guess: the next first pass while some are left, then the problem
 * with the most to gain (tn_order_next), as tn_schedule takes them. */
static void next_guess(void **st)
{
	static int cfgs[400 * TN_MAXP];
	struct tn_job jobs[3] = { 0 };
	struct tn_order ord[3];
	struct tn_run c = { 0 };
	(void)st;
	c.jobs = jobs;
	c.njobs = 3;
	for (int j = 0; j < 3; j++)
		job(&c, j, NULL, cfgs, 400);
	c.first = 1;
	assert_int_equal(tn_run_next(&c), 1);
	jobs[1].nprior = tn_order_pass(400, 400);       /* its first pass known */
	assert_int_equal(tn_run_next(&c), 2);
	c.first = 3;                                    /* the passes are done */
	assert_int_equal(tn_run_next(&c), -1);          /* no order without the plan's */
	c.ord = ord;
	jobs[0].best_pct = 80;
	jobs[1].best_pct = 85;
	jobs[2].best_pct = 40;                          /* the furthest from the roof */
	assert_int_equal(tn_run_next(&c), 2);
	jobs[2].proposed = 400;                         /* nothing left to it */
	assert_int_equal(tn_run_next(&c), 0);
	for (int j = 0; j < 3; j++)
		tn_search_free(jobs[j].search);
}

/* Frees what jobs[0..n) of a test hold. */
static void free_jobs(struct tn_job *jobs, int n)
{
	for (int j = 0; j < n; j++) {
		tn_search_free(jobs[j].search);
		free(jobs[j].warmed);
		free(jobs[j].ring);
	}
}

/* Waits (2 minutes at most) for the warm pool's round to have been built
 * and freed by a drain. */
static void settle(struct tn_run *c)
{
	for (int i = 0; i < 2400 && c->warm; i++) {
		tn_warm_drain(c);
		usleep(50000);
	}
	assert_null(c->warm);
}

/* 1 when configurations a and b of f differ in launch parameters alone. */
static int one_source(const struct tn_family *f, const int *a, const int *b)
{
	for (int p = 0; p < f->np; p++)
		if (!tn_param_launch(f, a, p) && a[p] != b[p])
			return 0;
	return 1;
}

/* 1 when configuration v of pb is in the compile cache. */
static int in_cache(const struct tn_run *c, const struct tn_problem *pb, const int *v)
{
	struct rt_prog p = { 0 };
	char err[1024], id[700], *src;
	int cached = -1;
	tn_cache_compiler(c->arch, id, sizeof id);
	assert_int_equal(tn_source(pb, v, &src, err, sizeof err), 0);
	assert_int_equal(tn_cache_compile(tn_cache_dir(), src, pb->fam->tmpl, c->arch, id, &p,
					  &cached, err, sizeof err), 0);
	rt_prog_free(&p);
	free(src);
	return cached;
}

/* Rounds of the warm pool, one configuration a thread: the guessed job's
 * next configurations, then the rest of it (its target its whole space),
 * compiled into the cache; then the other jobs swept whole, the most
 * compile seconds left first; never the current job's, never one twice; a
 * job swept in part only where guessed, within its next step's share. Nothing
 * with FDTUNE_WARM=0 (warm_off), after a stop or at --max-configs; once
 * nothing is left, no round for half a second. */
static void warm_cache(void **st)
{
	static int cfgs[3][8 * TN_MAXP];
	const struct tn_family *f;
	struct tn_problem pb[3];
	struct tn_space sp;
	struct tn_limits lim;
	struct tn_sweep_opts o = { 0 };
	struct tn_job jobs[3] = { 0 };
	struct tn_run c = { 0 };
	char err[1024];
	int nc = 0;
	(void)st;
	assert_int_equal(tn_family_find("xyz", &f, err, sizeof err), 0);
	for (int r = 0; r < 3; r++)     /* three radii: no job's source is another's */
		pb[r] = (struct tn_problem){ f, r + 1, 40, 24, 16, "fp32", { 1, 1, 1 } };
	c.arch = rt_default_arch();
	tn_limits_of_arch(c.arch, &lim);
	tn_space_default(f, &sp);
	/* eight configurations of distinct sources that fit */
	for (long long i = 0; i < tn_space_size(&sp) && nc < 8; i += 97) {
		int *v = cfgs[0] + nc * TN_MAXP, fresh = 1;
		char why[256];
		tn_space_at(&sp, i, v);
		for (int k = 0; k < nc; k++)
			fresh = fresh && !one_source(f, v, cfgs[0] + k * TN_MAXP);
		if (fresh && !f->check(&pb[2], v, &lim, why, sizeof why))
			nc++;
	}
	assert_int_equal(nc, 8);
	memcpy(cfgs[1], cfgs[0], sizeof cfgs[0]);
	memcpy(cfgs[2], cfgs[0], sizeof cfgs[0]);
	o.jobs = 2;
	c.o = &o;
	c.jobs = jobs;
	c.njobs = 3;
	job(&c, 0, &pb[0], cfgs[0], 4);
	job(&c, 1, &pb[1], cfgs[1], 4);
	job(&c, 2, &pb[2], cfgs[2], 8);
	jobs[2].target = 3;             /* swept in part: 3 of its 8 */
	c.cur = &jobs[0];
	c.first = 1;                    /* job 1's first pass comes next */
	tn_cache_compiler(c.arch, c.cid, sizeof c.cid);
	assert_non_null(tn_cache_dir());
	tn_warm(&c, 2);
	assert_non_null(c.warm);        /* the step pool's 2 idle threads' worth */
	assert_ptr_equal(c.warm_job, &jobs[1]);
	{
		struct tn_pool *w = c.warm;
		tn_warm(&c, 2);            /* a warm pool lives: not again */
		assert_ptr_equal(c.warm, w);
	}
	settle(&c);                     /* the round built: the pool freed */
	assert_int_equal(c.warmed, 2);  /* both compiled, neither found in the cache */
	tn_warm(&c, 2);                 /* the rest of job 1: swept whole */
	assert_ptr_equal(c.warm_job, &jobs[1]);
	settle(&c);
	assert_int_equal(c.warmed, 4);
	for (int i = 0; i < 4; i++)
		assert_true(in_cache(&c, &pb[1], cfgs[1] + i * TN_MAXP));
	/* job 1 all warmed; job 2 is swept in part and not guessed: nothing,
	 * and for half a second not even a look */
	tn_warm(&c, 2);
	assert_null(c.warm);
	assert_true(c.warm_next > tn_now_s());
	c.first = 2;                    /* job 2's first pass is guessed next */
	tn_warm(&c, 2);
	assert_null(c.warm);            /* within the half second */
	c.warm_next = 0;
	tn_warm(&c, 2);
	assert_ptr_equal(c.warm_job, &jobs[2]);
	settle(&c);
	tn_warm(&c, 2);                 /* its first pass: tn_order_pass of 3 */
	if (c.warm)
		settle(&c);
	{
		int n2 = 0;
		for (int i = 0; i < 8; i++)
			n2 += jobs[2].warmed[i];
		assert_int_equal(n2, tn_order_pass(8, 3) < 3 ? tn_order_pass(8, 3) : 3);
		assert_false(in_cache(&c, &pb[2], cfgs[2] + 7 * TN_MAXP));
	}
	assert_null(jobs[0].warmed);    /* the current job: never */
	/* the current job is job 1, none guessed: the job with the most
	 * compile seconds left (at its mean build time) first */
	c.cur = &jobs[1];
	c.first = -1;
	c.warm_next = 0;
	jobs[2].target = 8;             /* now swept whole */
	jobs[0].done = jobs[2].done = 1;
	jobs[0].t_build = 0.1;
	jobs[2].t_build = 5;            /* 5 s a build */
	tn_warm(&c, 2);
	assert_ptr_equal(c.warm_job, &jobs[2]);
	settle(&c);
	jobs[2].t_build = 0.01;         /* now job 0 has more left */
	c.warm_next = 0;
	tn_warm(&c, 2);
	assert_ptr_equal(c.warm_job, &jobs[0]);
	tn_warm_quit(&c);               /* the next step begins: told to quit, */
	assert_non_null(c.warm);        /* not waited for, */
	settle(&c);                     /* freed by a later drain */
	/* turned off, or after a stop or at --max-configs: nothing */
	c.warm_next = 0;
	o.max_configs = 5;
	c.issued = 5;
	tn_warm(&c, 2);
	assert_null(c.warm);
	o.max_configs = 0;
	c.warm_off = 1;
	tn_warm(&c, 2);
	assert_null(c.warm);
	c.warm_off = 0;
	tn_warm(&c, 2);
	assert_non_null(c.warm);
	tn_warm_free(&c);
	assert_null(c.warm);
	free_jobs(jobs, 3);
}

/* c as a plan of the three jobs, jobs[0] current and job 1's first pass
 * next, their n configurations cfgs[0] (jobs 0 and 1, problem pb[0]) and
 * cfgs[1] (job 2, pb[1]), all to run, on threads compile threads, with the
 * test's compile cache. */
static void three(struct tn_run *c, struct tn_sweep_opts *o, struct tn_job *jobs,
		  const struct tn_problem *pb, int *cfgs0, int *cfgs1, long long n, int threads)
{
	o->jobs = threads;
	c->o = o;
	c->jobs = jobs;
	c->njobs = 3;
	job(c, 0, &pb[0], cfgs0, n);
	job(c, 1, &pb[0], cfgs0, n);
	job(c, 2, &pb[1], cfgs1, n);
	c->cur = &jobs[0];
	c->first = 1;
	tn_cache_compiler(c->arch, c->cid, sizeof c->cid);
	assert_non_null(tn_cache_dir());
}

/* xyz R = r at two sizes (40x24x16 and 48x32x16) into pb[0..1] for c's
 * default arch, its default space and the arch's limits: the problems of
 * the warm rounds' cases. */
static void two_sizes(struct tn_run *c, int r, struct tn_problem *pb, struct tn_space *sp,
		      struct tn_limits *lim)
{
	const struct tn_family *f;
	char err[1024];
	assert_int_equal(tn_family_find("xyz", &f, err, sizeof err), 0);
	pb[0] = (struct tn_problem){ f, r, 40, 24, 16, "fp32", { 1, 1, 1 } };
	pb[1] = (struct tn_problem){ f, r, 48, 32, 16, "fp32", { 1, 1, 1 } };
	c->arch = rt_default_arch();
	tn_limits_of_arch(c->arch, lim);
	tn_space_default(f, sp);
}

/* A warm round holds one configuration a source (xyz's nw is a launch
 * parameter: configurations that differ in it alone share a build), of
 * sources not built before, and a source built marks all of its
 * configurations warmed: three sources of two nw each, 2 threads idle, are
 * warmed in two rounds of 2 and 1 compiles, then nothing is left. A job of
 * the same sources (another size of the problem) finds them all in the
 * cache: its rounds compile nothing, and each is followed by a 3-s wait
 * (a warm plan's rounds of hits likely cost its GPU workers time, v73), until
 * it is all warmed. */
static void warm_twins(void **st)
{
	static int cfgs[2][6 * TN_MAXP];
	const struct tn_family *f;
	struct tn_problem pb[2];
	struct tn_space sp;
	struct tn_limits lim;
	struct tn_sweep_opts o = { 0 };
	struct tn_job jobs[3] = { 0 };
	struct tn_run c = { 0 };
	char why[256];
	int nc = 0, nw = -1;
	(void)st;
	two_sizes(&c, 6, pb, &sp, &lim);
	f = pb[0].fam;
	for (int p = 0; p < f->np; p++)
		if (!strcmp(f->p[p].name, "nw"))
			nw = p;
	assert_true(nw >= 0);
	/* three sources, each at nw 48 and 64, twins side by side */
	for (long long i = 0; i < tn_space_size(&sp) && nc < 6; i += 89) {
		int *a = cfgs[0] + nc * TN_MAXP, *b = a + TN_MAXP, fresh = 1;
		tn_space_at(&sp, i, a);
		a[nw] = 48;
		memcpy(b, a, TN_MAXP * sizeof *a);
		b[nw] = 64;
		for (int k = 0; k < nc; k++)
			fresh = fresh && !one_source(f, a, cfgs[0] + k * TN_MAXP);
		if (fresh && !f->check(&pb[0], a, &lim, why, sizeof why) &&
		    !f->check(&pb[0], b, &lim, why, sizeof why))
			nc += 2;
	}
	assert_int_equal(nc, 6);
	memcpy(cfgs[1], cfgs[0], sizeof cfgs[0]);
	three(&c, &o, jobs, pb, cfgs[0], cfgs[1], 6, 2);
	tn_warm(&c, 2);
	assert_ptr_equal(c.warm_job, &jobs[1]);
	settle(&c);
	assert_int_equal(c.warmed, 2);  /* two sources, not one source twice */
	for (int i = 0; i < 4; i++)
		assert_int_equal(jobs[1].warmed[i], 1);
	assert_int_equal(jobs[1].warmed[4] + jobs[1].warmed[5], 0);
	tn_warm(&c, 2);                 /* the one source left */
	assert_ptr_equal(c.warm_job, &jobs[1]);
	settle(&c);
	assert_int_equal(c.warmed, 3);
	for (int i = 0; i < 6; i++)
		assert_int_equal(jobs[1].warmed[i], 1);
	/* job 2 (swept whole, not guessed now): its sources are all built */
	c.first = -1;
	tn_warm(&c, 2);
	assert_ptr_equal(c.warm_job, &jobs[2]);
	settle(&c);
	assert_int_equal(c.warmed, 3);  /* cache hits, no compile */
	/* a round of hits alone: 3 s before the next look (v73) */
	assert_true(c.warm_next > tn_now_s() + 2.0);
	tn_warm(&c, 2);
	assert_null(c.warm);
	c.warm_next = 0;
	tn_warm(&c, 2);                 /* the source left */
	assert_non_null(c.warm);
	assert_ptr_equal(c.warm_job, &jobs[2]);
	settle(&c);
	assert_int_equal(c.warmed, 3);
	for (int i = 0; i < 6; i++)
		assert_int_equal(jobs[2].warmed[i], 1);
	assert_true(c.warm_next > tn_now_s() + 2.0);
	c.warm_next = 0;
	tn_warm(&c, 2);                 /* nothing left: no round */
	assert_null(c.warm);
	free_jobs(jobs, 3);
}

/* v80: a round is topped up as it builds, so that no thread waits for
 * its slowest compile: driven as the sweep's loop drives it (a drain, then
 * tn_warm with the step's idle threads, 3), eight sources of a job swept
 * whole are built once each, the pool never holding more than 3, and at
 * least one round is given more than its first 3 (its compiles end at
 * different times; the loop looks every 2 ms). Told to quit, a round is
 * not topped up. A job of the same sources at another size finds them all
 * in the cache: its round of hits is not topped up, and the next waits
 * 3 s (v73). */
static void warm_top_up(void **st)
{
	static int cfgs[2][8 * TN_MAXP];
	const struct tn_family *f;
	struct tn_problem pb[2];
	struct tn_space sp;
	struct tn_limits lim;
	struct tn_sweep_opts o = { 0 };
	struct tn_job jobs[3] = { 0 };
	struct tn_run c = { 0 };
	char why[256];
	int nc = 0, most = 0, pools = 0;
	(void)st;
	two_sizes(&c, 5, pb, &sp, &lim);
	f = pb[0].fam;
	for (long long i = 0; i < tn_space_size(&sp) && nc < 8; i += 83) {
		int *v = cfgs[0] + nc * TN_MAXP, fresh = 1;
		tn_space_at(&sp, i, v);
		for (int k = 0; k < nc; k++)
			fresh = fresh && !one_source(f, v, cfgs[0] + k * TN_MAXP);
		if (fresh && !f->check(&pb[0], v, &lim, why, sizeof why) &&
		    !f->check(&pb[1], v, &lim, why, sizeof why))
			nc++;
	}
	assert_int_equal(nc, 8);
	memcpy(cfgs[1], cfgs[0], sizeof cfgs[0]);
	three(&c, &o, jobs, pb, cfgs[0], cfgs[1], 8, 3);
	jobs[2].target = 4;             /* swept in part, not guessed: not warmed */
	for (int i = 0; i < 60000; i++) {       /* 2 minutes at most */
		struct tn_pool *w = c.warm;
		tn_warm_drain(&c);
		tn_warm(&c, 3);
		if (!c.warm && c.warmed > 0)
			break;
		if (c.warm && c.warm != w)
			pools++;
		assert_true(c.warm_nq <= 3);
		most = c.warm_n > most ? c.warm_n : most;
		usleep(2000);
	}
	assert_null(c.warm);
	assert_int_equal(c.warmed, 8);  /* each source compiled once */
	assert_true(most > 3);          /* a round given more than its first 3 */
	assert_true(pools < 3);         /* not rounds of 3 alone */
	for (int i = 0; i < 8; i++) {
		assert_int_equal(jobs[1].warmed[i], 1);
		assert_true(in_cache(&c, &pb[0], cfgs[0] + i * TN_MAXP));
	}
	assert_null(jobs[2].warmed);
	/* job 2, another size of the same sources, now swept whole: a round of
	 * hits alone, not topped up */
	jobs[2].target = 8;
	c.first = -1;
	c.warm_next = 0;
	tn_warm(&c, 3);
	assert_ptr_equal(c.warm_job, &jobs[2]);
	for (int i = 0; i < 60000 && c.warm; i++) {
		tn_warm_drain(&c);
		tn_warm(&c, 3);
		if (c.warm)
			assert_int_equal(c.warm_n, 3);
		usleep(2000);
	}
	assert_null(c.warm);
	assert_int_equal(c.warmed, 8);  /* cache hits, no compile */
	assert_int_equal(jobs[2].warmed[0] + jobs[2].warmed[1] + jobs[2].warmed[2] +
			 jobs[2].warmed[3], 3);
	assert_true(c.warm_next > tn_now_s() + 2.0);
	/* told to quit: no top-up, though a quarter is taken */
	c.warm_next = 0;
	tn_warm(&c, 3);
	assert_non_null(c.warm);
	tn_warm_quit(&c);
	c.warm_round = c.warmed - 1;    /* as if it had compiled */
	c.warm_nq = 1;
	tn_warm(&c, 3);
	assert_int_equal(c.warm_n, 3);
	tn_warm_free(&c);
	assert_null(c.warm);
	assert_int_equal(c.warm_nq, 0);
	free_jobs(jobs, 3);
}

struct racer {
	const char *src, *tmpl, *arch, *id;
	int rc, cached;
};

static void *race(void *arg)
{
	struct racer *r = arg;
	struct rt_prog p = { 0 };
	char err[1024];
	r->rc = tn_cache_compile(tn_cache_dir(), r->src, r->tmpl, r->arch, r->id, &p,
				 &r->cached, err, sizeof err);
	rt_prog_free(&p);
	return NULL;
}

/* Threads that ask at once for one source not in the cache (a warm pool's
 * compile and a step's): one compiles it, the others wait for that build
 * and read it from the cache (tn_cache_compile). */
static void one_build_at_once(void **st)
{
	const struct tn_family *f;
	struct tn_problem pb;
	struct tn_space sp;
	struct tn_limits lim;
	struct racer r[4];
	pthread_t th[4];
	char err[1024], id[700], why[256], *src = NULL;
	int v[TN_MAXP], built = 0;
	(void)st;
	assert_int_equal(tn_family_find("xyz", &f, err, sizeof err), 0);
	pb = (struct tn_problem){ f, 2, 40, 24, 16, "fp32", { 1, 1, 1 } };   /* R 2: new */
	tn_limits_of_arch(rt_default_arch(), &lim);
	tn_space_default(f, &sp);
	for (long long i = 0; i < tn_space_size(&sp); i++) {
		tn_space_at(&sp, i, v);
		if (f->check(&pb, v, &lim, why, sizeof why))
			break;
	}
	assert_int_equal(tn_source(&pb, v, &src, err, sizeof err), 0);
	tn_cache_compiler(rt_default_arch(), id, sizeof id);
	for (int i = 0; i < 4; i++) {
		r[i] = (struct racer){ src, f->tmpl, rt_default_arch(), id, -1, -1 };
		assert_int_equal(pthread_create(&th[i], NULL, race, &r[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		assert_int_equal(r[i].rc, 0);
		built += !r[i].cached;
	}
	assert_int_equal(built, 1);
	free(src);
}

/* 1 when configurations a and b of f differ in parameter k alone, if at all. */
static int same(const struct tn_family *f, const int *a, const int *b, int k)
{
	for (int i = 0; i < f->np; i++)
		if (i != k && a[i] != b[i])
			return 0;
	return 1;
}

/* Fills (tn_fill.c): a build kept while the pool compiles gives, one at a
 * time, each configuration of its source not yet proposed (xyz's five nw
 * share one: four), never one of another source nor the build's own, each
 * taken from the search (never proposed again); a twin of a kept source is
 * not kept twice; with --max-configs or FDTUNE_FILL=0 nothing is kept. */
static void fills(void **st)
{
	const struct tn_family *f = tn_family("xyz");
	struct tn_problem pb = { .fam = f, .r = 4, .nx = 64, .ny = 64, .nz = 64, .prec = "fp32" };
	struct tn_space sp;
	struct tn_sweep_opts o = { 0 };
	struct tn_job jb[1];
	struct tn_run c;
	struct tn_item it = { 0 }, twin = { 0 }, *q;
	char err[256];
	long long n, i0 = 0, taken = 0, seen[8];
	int *cfgs, nw = tn_param_index(f, "nw");
	(void)st;
	memset(&c, 0, sizeof c);
	memset(jb, 0, sizeof jb);
	tn_space_default(f, &sp);
	assert_int_equal(tn_space_set(&sp, "vec=4", err, sizeof err), 0);
	n = tn_space_size(&sp);
	assert_non_null(cfgs = calloc((size_t)n * TN_MAXP, sizeof *cfgs));
	for (long long i = 0; i < n; i++)
		tn_space_at(&sp, i, cfgs + i * TN_MAXP);
	c.o = &o;
	c.gpu = 1;
	c.jobs = jb;
	c.njobs = 1;
	job(&c, 0, &pb, cfgs, n);
	c.cur = &jb[0];
	for (int k = 0; k < 2; k++) {           /* the first configuration, and a twin */
		struct tn_item *b = k ? &twin : &it;
		long long i = k ? i0 + 1 : i0;
		/* the first whose nw is a launch parameter; then another nw of it */
		while (k ? !same(f, cfgs + i * TN_MAXP, it.v, nw) :
		       !tn_param_launch(f, cfgs + i * TN_MAXP, nw))
			i++;
		memcpy(b->v, cfgs + i * TN_MAXP, sizeof b->v);
		b->idx = i;
		assert_non_null(b->src = strdup("a source"));
		assert_non_null(b->prog.code = calloc(1, 64));
		b->prog.size = 64;
		i0 = i;
		assert_int_equal(tn_search_take(jb[0].search, i), 1);   /* as if proposed */
	}
	assert_true(tn_fill_on(&c));
	c.fill_off = 1;                         /* FDTUNE_FILL=0 */
	assert_false(tn_fill_on(&c));
	c.fill_off = 0;
	o.max_configs = 10;
	tn_fill_keep(&c, &it);
	assert_int_equal(c.nkept, 0);
	o.max_configs = 0;
	tn_fill_keep(&c, &it);
	tn_fill_keep(&c, &twin);
	assert_int_equal(c.nkept, 1);
	while ((q = tn_fill_take(&c))) {
		assert_true(taken < 8);
		for (int k = 0; k < f->np; k++)
			if (k != nw)
				assert_int_equal(q->v[k], it.v[k]);
		assert_true(q->idx != it.idx && q->idx != twin.idx && q->shared);
		assert_non_null(q->prog.code);
		for (long long t = 0; t < taken; t++)
			assert_true(seen[t] != q->idx);
		seen[taken++] = q->idx;
		tn_search_report(jb[0].search, q->idx, 1.0);
		tn_item_clear(q);
		free(q);
	}
	assert_int_equal(taken, 3);             /* five nw, two built already */
	assert_int_equal(c.filled, 3);
	assert_int_equal(jb[0].proposed, 3);
	assert_int_equal(c.nkept, 0);
	for (long long t = 0; t < taken; t++)
		assert_true(tn_search_known(jb[0].search, seen[t]));
	tn_fill_end(&c);
	tn_item_clear(&it);
	tn_item_clear(&twin);
	tn_search_free(jb[0].search);
	free(jb[0].ring);
	free(cfgs);
}

/* The next built item of p, waited for (2 minutes at most). */
static struct tn_item *take_wait(struct tn_pool *p)
{
	struct tn_item *q = NULL;
	for (int i = 0; i < 6000 && !(q = tn_pool_take(p)); i++)
		usleep(20000);
	assert_non_null(q);
	assert_int_equal(q->bad_gen + q->bad_compile, 0);
	return q;
}

/* A new item of configuration v, numbered idx, queued in p. */
static struct tn_item *queue(struct tn_pool *p, const int *v, int idx)
{
	struct tn_item *it = calloc(1, sizeof *it);
	assert_non_null(it);
	memcpy(it->v, v, sizeof it->v);
	it->idx = idx;
	tn_pool_add(p, it);
	return it;
}

/* The pool's count of builds (tn_pool_sources): one item of each source in
 * the pool counts (xyz: its nw apart); an item queued while another of its
 * source is there is a dup; taking the counted one passes the count to a
 * dup still there (which needs a build of its own where the cache is off),
 * and the last one takes it away. And the step caps its pool in builds for
 * a job swept whole on GPUs once a tenth of it is proposed or known
 * (tn_step_by_source), in items before, compile-only, under --recheck or
 * --max-configs, and for a job swept in part. */
static void pool_sources(void **st)
{
	const struct tn_family *f;
	struct tn_problem pb;
	struct tn_space sp;
	struct tn_limits lim;
	struct tn_pool *p;
	struct tn_item *it[3], *q;
	struct tn_job j = { 0 };
	struct tn_sweep_opts o = { 0 };
	struct tn_run c;
	char err[1024], id[700], why[256];
	int v[3][TN_MAXP], nw, got = 0, in[3] = { 1, 1, 1 }, unbuilt = 1;
	long long n;
	(void)st;
	memset(&c, 0, sizeof c);
	assert_int_equal(tn_family_find("xyz", &f, err, sizeof err), 0);
	pb = (struct tn_problem){ f, 2, 40, 24, 16, "fp32", { 1, 1, 1 } };
	nw = tn_param_index(f, "nw");
	tn_limits_of_arch(rt_default_arch(), &lim);
	tn_space_default(f, &sp);
	n = tn_space_size(&sp);
	/* a, another nw of a (a twin), and b of another source */
	for (long long i = 0; i < n && got < 3; i++) {
		tn_space_at(&sp, i, v[got]);
		if (f->check(&pb, v[got], &lim, why, sizeof why) ||
		    !tn_param_launch(f, v[got], nw))
			continue;
		if (got == 0 ||
		    (got == 1 && same(f, v[1], v[0], nw) && v[1][nw] != v[0][nw]) ||
		    (got == 2 && !same(f, v[2], v[0], nw)))
			got++;
	}
	assert_int_equal(got, 3);
	tn_cache_compiler(rt_default_arch(), id, sizeof id);
	assert_int_equal(tn_pool_new(&p, &pb, rt_default_arch(), id, tn_cache_dir(), 1, 0, err,
				     sizeof err), 0);
	for (int k = 0; k < 3; k++)
		it[k] = queue(p, v[k], k);
	assert_int_equal(tn_pool_queued(p), 3);
	assert_int_equal(tn_pool_sources(p), 2);
	assert_int_equal(it[1]->dup, 1);
	for (got = 0; got < 3; got++) {         /* the sources of what is left */
		q = take_wait(p);
		in[q->idx] = 0;
		assert_int_equal(tn_pool_sources(p), (in[0] || in[1]) + in[2]);
		assert_int_equal(tn_pool_queued(p), 2 - got);
		tn_item_clear(q);
		free(q);
	}
	/* a twin queued after a's build ended, a still there: a dup; a taken,
	 * the twin counts until it is taken too */
	for (int k = 0; k < 2; k++) {
		it[k] = queue(p, v[k], k);
		for (int i = 0; !k && i < 6000 && unbuilt; i++) {
			(void)tn_pool_busy(p, 0, &unbuilt);
			usleep(unbuilt ? 20000 : 0);
		}
		assert_int_equal(unbuilt, 0);
	}
	assert_int_equal(it[1]->dup, 1);
	assert_int_equal(tn_pool_sources(p), 1);
	q = take_wait(p);
	assert_int_equal(q->idx, 0);
	assert_int_equal(tn_pool_sources(p), 1);
	tn_item_clear(q);
	free(q);
	q = take_wait(p);
	assert_int_equal(tn_pool_sources(p), 0);
	tn_item_clear(q);
	free(q);
	tn_pool_free(p);

	assert_int_equal(tn_search_new(TN_GUIDED, v[0], TN_MAXP, 1, 1, 1, &j.search, err,
				       sizeof err), 0);
	c.o = &o;
	c.gpu = 1;
	c.cur = &j;
	j.nv = j.target = 100;
	j.proposed = 9;
	assert_false(tn_step_by_source(&c));
	j.nprior = 1;                           /* a tenth known or proposed */
	assert_true(tn_step_by_source(&c));
	c.gpu = 0;                              /* compile-only */
	assert_false(tn_step_by_source(&c));
	c.gpu = 1;
	o.recheck = 1;
	assert_false(tn_step_by_source(&c));
	o.recheck = 0;
	o.max_configs = 10;
	assert_false(tn_step_by_source(&c));
	o.max_configs = 0;
	j.target = 50;                          /* swept in part */
	assert_false(tn_step_by_source(&c));
	tn_search_free(j.search);
	j.search = NULL;                        /* no search */
	j.target = 100;
	assert_false(tn_step_by_source(&c));
}

/* The race's rules: one launch over twice the best and TN_RACE_ONE_MS more
 * stops a run; one under either, or too short to time alone, does not;
 * three whose fastest is over 1.3x, thirteen whose median is over 1.1x;
 * never without a best (race 0). */
static void race_rules(void **st)
{
	double one[1] = { 2.01 }, three[3] = { 1.4, 1.31, 1.9 }, s13[13];
	(void)st;
	assert_int_equal(tn_race_out(one, 1, 1.0), 1);
	one[0] = 1.99;
	assert_int_equal(tn_race_out(one, 1, 1.0), 0);
	one[0] = 0.3;                   /* 3x a best of 0.1 ms, a spike's size over it */
	assert_int_equal(tn_race_out(one, 1, 0.1), 0);
	one[0] = 0.1 + TN_RACE_ONE_MS + 0.01;
	assert_int_equal(tn_race_out(one, 1, 0.1), 1);
	one[0] = 0.9 * TN_SHORT_MS;     /* microseconds: grouped before any race */
	assert_int_equal(tn_race_out(one, 1, 0.1 * TN_SHORT_MS), 0);
	one[0] = 5.0;
	assert_int_equal(tn_race_out(one, 1, 0), 0);
	assert_int_equal(tn_race_out(three, 3, 1.0), 1);
	three[1] = 1.29;                /* one fast launch keeps it in */
	assert_int_equal(tn_race_out(three, 3, 1.0), 0);
	assert_int_equal(tn_race_out(three, 2, 1.0), 0);
	for (int i = 0; i < 13; i++)
		s13[i] = i < 6 ? 1.0 : 1.2;     /* median 1.2 */
	assert_int_equal(tn_race_out(s13, 13, 1.0), 1);
	assert_int_equal(tn_race_out(s13, 13, 1.1), 0);
	assert_int_equal(tn_race_out(s13, 12, 1.0), 0);
	assert_int_equal(tn_race_out(s13, 23, 1.0), 0);
}

/* The warm pool's size beside a step (tn_warm_want): on 2 GPUs, 64
 * threads and 32 CPUs, a step waiting for its GPUs lends its idle threads
 * (a quarter at least); one waiting for its compiles, in helper processes,
 * lends only the cores they leave, nothing on a full host or with most
 * threads busy; in threads (FDTUNE_COMPILE_PROCS=0), its idle threads. */
static void warm_want(void **st)
{
	struct tn_sweep_opts o = { 0 };
	struct tn_run c = { 0 };
	int w;
	(void)st;
	o.jobs = 64;
	c.o = &o;
	c.ncpu = 32;
	c.nwk = 2;
	c.cproc = 1;
	/* built runs waiting for the GPUs (queued - unbuilt >= 2 * 2 + 4) */
	assert_int_equal(tn_warm_want(&c, 10, 18), 54);
	assert_int_equal(tn_warm_want(&c, 60, 68), 16);         /* a quarter at least */
	assert_int_equal(tn_warm_want(&c, 0, 8), 64);
	/* waiting for its compiles: the cores left, its idle threads at most */
	assert_int_equal(tn_warm_want(&c, 10, 17), 20);         /* 32 - 10 - 2 */
	assert_int_equal(tn_warm_want(&c, 0, 0), 30);
	assert_int_equal(tn_warm_want(&c, 30, 30), 0);          /* the host full */
	assert_int_equal(tn_warm_want(&c, 48, 48), 0);          /* a quarter idle, no core */
	c.ncpu = 128;                                           /* cores to spare */
	assert_int_equal(tn_warm_want(&c, 48, 48), 16);         /* its idle threads */
	assert_int_equal(tn_warm_want(&c, 49, 49), 0);          /* under a quarter idle */
	/* compiles in threads: the idle threads, whatever the cores */
	c.ncpu = 32;
	c.cproc = 0;
	assert_int_equal(tn_warm_want(&c, 30, 30), 34);
	assert_int_equal(tn_warm_want(&c, 48, 48), 16);
	assert_int_equal(tn_warm_want(&c, 49, 49), 0);
	assert_int_equal(tn_warm_want(&c, 10, 18), 54);
	/* no count of CPUs given: this machine's */
	c.cproc = 1;
	c.ncpu = tn_cpus();
	w = tn_warm_want(&c, 20, 20);
	c.ncpu = 0;
	assert_int_equal(tn_warm_want(&c, 20, 20), w);
	/* one thread (-j 1): a warm round of one beside a GPU-bound step */
	o.jobs = 1;
	c.ncpu = 128;
	assert_int_equal(tn_warm_want(&c, 1, 9), 1);
	assert_int_equal(tn_warm_want(&c, 0, 0), 1);
	assert_int_equal(tn_warm_want(&c, 1, 1), 0);
}

/* Compile threads lower themselves by the nice steps asked (TN_NICE by
 * default: the GPU workers and the sweep's thread take a core from them
 * first), 0 leaves them at the process's priority, and FDTUNE_NICE is read
 * as 0..19, empty as the default, anything else refused with its name. */
static void pool_nice(void **st)
{
	const struct tn_family *f;
	struct tn_problem pb;
	struct tn_pool *p;
	char err[256], id[256];
	int base = getpriority(PRIO_PROCESS, 0), want, got = 0, v = -1, b0;

	(void)st;
	unsetenv("FDTUNE_NICE");
	assert_int_equal(tn_nice(&v, err, sizeof err), 0);
	assert_int_equal(v, TN_NICE);
	setenv("FDTUNE_NICE", "", 1);
	assert_int_equal(tn_nice(&v, err, sizeof err), 0);
	assert_int_equal(v, TN_NICE);
	setenv("FDTUNE_NICE", "0", 1);
	assert_int_equal(tn_nice(&v, err, sizeof err), 0);
	assert_int_equal(v, 0);
	setenv("FDTUNE_NICE", "20", 1);
	assert_int_equal(tn_nice(&v, err, sizeof err), 1);
	assert_non_null(strstr(err, "FDTUNE_NICE: '20' is not an integer in 0..19"));
	setenv("FDTUNE_NICE", "-1", 1);
	assert_int_equal(tn_nice(&v, err, sizeof err), 1);
	unsetenv("FDTUNE_NICE");

	want = base + TN_NICE < 19 ? base + TN_NICE : 19;
	if (want == base)
		skip();                 /* run at nice 19: nothing lower to see */
	assert_int_equal(tn_family_find("xyz", &f, err, sizeof err), 0);
	pb = (struct tn_problem){ f, 2, 40, 24, 16, "fp32", { 1, 1, 1 } };
	tn_cache_compiler(rt_default_arch(), id, sizeof id);
	assert_int_equal(t_at_nice(want), 0);
	assert_int_equal(tn_pool_new(&p, &pb, rt_default_arch(), id, NULL, 3, TN_NICE, err,
				     sizeof err), 0);
	for (int i = 0; i < 500 && (got = t_at_nice(want)) < 3; i++)
		usleep(10000);          /* each thread lowers itself as it starts */
	assert_int_equal(got, 3);
	assert_int_equal(getpriority(PRIO_PROCESS, 0), base);  /* this thread kept its own */
	tn_pool_free(p);
	for (int i = 0; i < 500 && (got = t_at_nice(want)) > 0; i++)
		usleep(10000);          /* joined threads leave /proc a little later */
	assert_int_equal(got, 0);
	/* nice 0: the threads start (the count at the base rises by 2) and
	 * stay at it */
	b0 = t_at_nice(base);
	assert_int_equal(tn_pool_new(&p, &pb, rt_default_arch(), id, NULL, 2, 0, err,
				     sizeof err), 0);
	for (int i = 0; i < 500 && (got = t_at_nice(base)) < b0 + 2; i++)
		usleep(10000);
	assert_int_equal(got, b0 + 2);
	usleep(100000);
	assert_int_equal(t_at_nice(want), 0);
	assert_int_equal(t_at_nice(base), b0 + 2);
	tn_pool_free(p);
}

int main(void)
{
	const struct CMUnitTest t[] = { cmocka_unit_test(next_guess), cmocka_unit_test(warm_cache), cmocka_unit_test(warm_twins),
					cmocka_unit_test(warm_top_up),
					cmocka_unit_test(one_build_at_once), cmocka_unit_test(fills),
					cmocka_unit_test(pool_sources), cmocka_unit_test(race_rules),
					cmocka_unit_test(first_seeds),
					cmocka_unit_test(choose_seeds), cmocka_unit_test(warm_want),
					cmocka_unit_test(pool_nice) };
	char cache[64];
	int rc;
	if (!mkdtemp(dir))
		return 1;
	snprintf(cache, sizeof cache, "%s/cache", dir);
	setenv("FDTUNE_CACHE", cache, 1);
	rc = cmocka_run_group_tests(t, NULL, NULL);
	snprintf(cache, sizeof cache, "rm -rf '%s'", dir);
	if (system(cache))
		rc = 1;
	return rc;
}
