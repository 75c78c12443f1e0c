/*
 * tn_bench.c: validation and timing of one kernel on the GPU, and the copy
 * bandwidth that serves as the roof.
 *
 * Validation: the output is poisoned (0xFF bytes), the kernel runs once, and
 * the result is checked against the reference, which the CPU computes once
 * per problem (tn_field.c); the comparison itself runs on the GPU
 * (templates/check.m4) unless $FDTUNE_CHECK asks for the CPU or both.
 * An accumulating configuration (acc=1, tn.h) starts from a random base
 * field on the interior, poison elsewhere, and must leave base + reference.
 *
 * Timing: launches timed one by one with device events, rotating over the
 * input/output pairs: a first batch of 3, then batches of 10. It stops when the median of all
 * samples moved by less than 0.5% over the last batch (at least 30
 * samples), at 300 samples, or after 2 s of kernel time. A kernel that
 * cannot win is raced out against the best median of the sweep so far
 * (race_ms): after the first batch when even its fastest launch is over
 * 1.3x race_ms, after 13 samples when their median is over 1.1x. Racing
 * is what makes a warm sweep fast. The validation launch is the kernel's
 * warm-up (module loading, first-launch costs).
 */
#define _POSIX_C_SOURCE 200809L
#include "tn_bench.h"
#include "gen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXS 300

struct stats { double median, min, max; int reps; };

typedef int (*launch_fn)(void *ctx, int i, char *err, size_t n);

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(const double *s, int k)
{
	double t[MAXS];
	memcpy(t, s, (size_t)k * sizeof *t);
	qsort(t, (size_t)k, sizeof *t, cmpd);
	return k % 2 ? t[k / 2] : 0.5 * (t[k / 2 - 1] + t[k / 2]);
}

/* Times fn until the median is stable, or less when race_ms > 0 and it
 * cannot win (the header comment); warm launches first.
 * Nonzero status if a launch failed. */
static int measure(struct rt_timer *t, launch_fn fn, void *ctx, int warm, double race_ms,
		   struct stats *st, char *err, size_t n)
{
	double s[MAXS], total = 0, prev = 0;
	int k = 0;
	for (int i = 0; i < warm; i++)
		if (fn(ctx, i, err, n) || rt_sync(err, n))
			return 1;
	while (k < MAXS) {
		const int batch = k ? 10 : 3;
		for (int b = 0; b < batch && k < MAXS; b++, k++) {
			float ms;
			if (rt_timer_start(t, err, n) || fn(ctx, k, err, n) ||
			    rt_timer_stop(t, &ms, err, n))
				return 1;
			s[k] = ms;
			total += ms;
		}
		double m = median(s, k), lo = s[0];
		for (int i = 1; i < k; i++)
			lo = fmin(lo, s[i]);
		if ((k >= 30 && fabs(m - prev) <= 0.005 * m) || total > 2000 ||
		    (race_ms > 0 && k == 3 && lo > 1.3 * race_ms) ||
		    (race_ms > 0 && k == 13 && m > 1.1 * race_ms))
			break;
		prev = m;
	}
	st->median = median(s, k);
	st->min = st->max = s[0];
	for (int i = 1; i < k; i++) {
		st->min = fmin(st->min, s[i]);
		st->max = fmax(st->max, s[i]);
	}
	st->reps = k;
	return 0;
}

static int check_mode(void)
{
	const char *m = getenv("FDTUNE_CHECK");
	if (m && !strcmp(m, "cpu"))
		return TN_CHECK_CPU;
	if (m && !strcmp(m, "both"))
		return TN_CHECK_BOTH;
	return TN_CHECK_GPU;
}

static int load_check(struct tn_bench *b, const struct rt_dev *dev, char *err, size_t n)
{
	struct gen_def d[] = { { "bs", 256 } };
	struct rt_prog p;
	char *src = NULL;
	int rc = 1;
	if (gen_source("check.m4", "fdt_check", d, 1, &src, err, n))
		return 1;
	if (!rt_compile(src, "check.cu", dev->arch, NULL, 0, &p, err, n))
		rc = rt_load(&p, "fdt_check", &b->check, err, n);
	rt_prog_free(&p);
	free(src);
	return rc;
}

/* The check of templates/check.m4 on dout[0]; 0 when it ran. */
static int check_gpu(struct tn_bench *b, int acc, long long *bad, double *max_err,
		     double *bound, char *msg, size_t mn, char *err, size_t n)
{
	struct { long long total, slice; int ld, xoff, r, nx, ny, nz, terms; } q = {
		b->l.total, b->l.slice, b->l.ld,
		(int)(b->l.origin - b->l.r * b->l.slice - (long long)b->l.r * b->l.ld),
		b->l.r, b->l.nx, b->l.ny, b->l.nz, b->terms };
	unsigned long long res[4] = { 0, ~0ULL, 0, 0 };
	unsigned g[3] = { (unsigned)((q.ld + 255) / 256), (unsigned)(q.slice / q.ld),
			  (unsigned)(q.total / q.slice) }, blk[3] = { 256, 1, 1 };
	float e, bo;
	void *base = acc ? b->dbase : NULL;
	void *args[] = { &b->dout[0], &b->dref, &b->dmag, &base, &q, &b->dres };
	if (rt_upload(b->dres, res, sizeof res, err, n) || rt_launch(b->check, g, blk, args, err, n) ||
	    rt_sync(err, n) || rt_download(res, b->dres, sizeof res, err, n))
		return 1;
	*bad = (long long)res[0];
	memcpy(&e, &res[2], sizeof e);          /* float bits in the low half */
	memcpy(&bo, &res[3], sizeof bo);
	*max_err = e;
	*bound = bo;
	tn_describe_bad(&b->l, *bad, (long long)res[1], msg, mn);
	return 0;
}

int tn_bench_open(struct tn_bench *b, const struct tn_problem *pb,
		  const struct rt_dev *dev, double copy_gbs, char *err, size_t n)
{
	size_t bytes;
	long long pts = (long long)pb->nx * pb->ny * pb->nz;
	memset(b, 0, sizeof *b);
	b->pb = pb;
	b->copy_gbs = copy_gbs;
	tn_layout_of(pb, &b->l);
	pb->fam->coef(pb, &b->c);
	b->terms = pb->fam->terms(pb->r);
	b->g = (struct tn_grid){ pb->nx, pb->ny, pb->nz, b->l.ld, b->l.slice };
	bytes = (size_t)b->l.total * sizeof(float);
	/* enough pairs that one round of launches streams 3x the L2 */
	b->nrot = (int)((3.0 * dev->l2 + 2.0 * bytes - 1) / (2.0 * bytes));
	b->nrot = b->nrot < 1 ? 1 : b->nrot > TN_NROT ? TN_NROT : b->nrot;
	/* fields, and the reference (8 + 4 bytes a point) for the GPU check */
	if (2.0 * b->nrot * bytes + 12.0 * pts > 0.9 * dev->mem) {
		snprintf(err, n, "the problem needs %.1f GiB of device memory; %s has %.1f GiB; "
			 "choose a smaller --size", (2.0 * b->nrot * bytes + 12.0 * pts) / (1 << 30),
			 dev->name,
			 dev->mem / (double)(1 << 30));
		return 1;
	}
	if (!(b->in = malloc(bytes)) || !(b->ref = malloc((size_t)pts * sizeof *b->ref)) ||
	    !(b->mag = malloc((size_t)pts * sizeof *b->mag))) {
		snprintf(err, n, "out of host memory for a %dx%dx%d problem", pb->nx, pb->ny, pb->nz);
		goto fail;
	}
	if (rt_host_alloc((void **)&b->out, bytes, err, n) || rt_timer_new(&b->t, err, n))
		goto fail;
	tn_fill_random(b->in, b->l.total, 0x5eed + (unsigned long long)pts);
	pb->fam->ref(pb, &b->c, &b->l, b->in, b->ref, b->mag);
	if ((b->acc = tn_param_index(pb->fam, "acc")) >= 0) {
		if (!(b->base = malloc(bytes))) {
			snprintf(err, n, "out of host memory for a %dx%dx%d problem", pb->nx,
				 pb->ny, pb->nz);
			goto fail;
		}
		tn_fill_random(b->base, b->l.total, 0xba5e + (unsigned long long)pts);
		tn_poison_halo(&b->l, b->base);
		if (rt_alloc(&b->dbase, bytes, err, n) || rt_upload(b->dbase, b->base, bytes, err, n))
			goto fail;
	}
	b->mode = check_mode();
	if ((b->mode & TN_CHECK_GPU) &&
	    (load_check(b, dev, err, n) ||
	     rt_alloc(&b->dref, (size_t)pts * sizeof *b->ref, err, n) ||
	     rt_alloc(&b->dmag, (size_t)pts * sizeof *b->mag, err, n) ||
	     rt_alloc(&b->dres, 4 * sizeof(unsigned long long), err, n) ||
	     rt_upload(b->dref, b->ref, (size_t)pts * sizeof *b->ref, err, n) ||
	     rt_upload(b->dmag, b->mag, (size_t)pts * sizeof *b->mag, err, n)))
		goto fail;
	for (int i = 0; i < b->nrot; i++)
		if (rt_alloc(&b->din[i], bytes, err, n) || rt_alloc(&b->dout[i], bytes, err, n) ||
		    rt_upload(b->din[i], b->in, bytes, err, n) ||
		    rt_fill(b->dout[i], 0xff, bytes, err, n))
			goto fail;
	return 0;
fail:
	tn_bench_close(b);
	return 1;
}

void tn_bench_close(struct tn_bench *b)
{
	rt_free(b->dref);
	rt_free(b->dmag);
	rt_free(b->dbase);
	free(b->base);
	rt_free(b->dres);
	rt_unload(b->check);
	for (int i = 0; i < TN_NROT; i++) {
		rt_free(b->din[i]);
		rt_free(b->dout[i]);
	}
	rt_host_free(b->out);
	rt_timer_free(b->t);
	free(b->in);
	free(b->ref);
	free(b->mag);
	memset(b, 0, sizeof *b);
}

struct kctx {
	struct tn_bench *b;
	struct rt_kernel *k;
	const unsigned *grid, *block;
};

static int launch_kernel(void *p, int i, char *err, size_t n)
{
	struct kctx *c = p;
	struct tn_bench *b = c->b;
	int r = i % b->nrot;
	float *out = (float *)b->dout[r] + b->l.origin;
	const float *in = (const float *)b->din[r] + b->l.origin;
	void *args[] = { &out, &in, &b->g, &b->c };
	return rt_launch(c->k, c->grid, c->block, args, err, n);
}

int tn_bench_run(struct tn_bench *b, struct rt_kernel *k, const int *v,
		 const unsigned grid[3], const unsigned block[3], struct tn_result *res,
		 char *err, size_t n)
{
	struct kctx c = { b, k, grid, block };
	size_t bytes = (size_t)b->l.total * sizeof(float);
	struct stats st;
	long long bad = 0;
	int acc = b->acc >= 0 && v[b->acc];
	double t0 = now_s();

	memset(res, 0, sizeof *res);
	res->median = res->min = res->max = res->gbs = res->mcells = res->pct = NAN;
	res->max_err = res->bound = NAN;
	res->reps = -1;
	if ((acc ? rt_copy(b->dout[0], b->dbase, bytes, err, n) :
	     rt_fill(b->dout[0], 0xff, bytes, err, n)) || rt_sync(err, n)) {
		res->status = "launch_error";
		snprintf(res->msg, sizeof res->msg, "%s", err);
		return 1;
	}
	if (launch_kernel(&c, 0, err, n)) {
		res->status = "resource_limit";         /* refused at launch: context intact */
		snprintf(res->msg, sizeof res->msg, "%s", err);
		return 0;
	}
	if (rt_sync(err, n) ||
	    ((b->mode & TN_CHECK_GPU) && check_gpu(b, acc, &bad, &res->max_err, &res->bound,
						   res->msg, sizeof res->msg, err, n)) ||
	    ((b->mode & TN_CHECK_CPU) && rt_download(b->out, b->dout[0], bytes, err, n))) {
		res->status = "launch_error";
		snprintf(res->msg, sizeof res->msg, "%s", err);
		return 1;
	}
	if (b->mode & TN_CHECK_CPU) {
		double e2, b2;
		char m2[256];
		long long bad2 = tn_check_acc(&b->l, b->out, acc ? b->base : NULL, b->ref,
					      b->mag, b->terms, &e2, &b2, m2, sizeof m2);
		if (b->mode == TN_CHECK_BOTH && (bad2 != bad || (!bad &&
		    (fabs(e2 - res->max_err) > 1e-6 * e2 || fabs(b2 - res->bound) > 1e-6 * b2)))) {
			res->status = "wrong_result";
			snprintf(res->msg, sizeof res->msg, "the GPU and CPU checks disagree: %lld "
				 "bad points, max error %g, bound %g on the GPU; %lld, %g, %g on "
				 "the CPU", bad, res->max_err, res->bound, bad2, e2, b2);
			return 0;
		}
		bad = bad2;
		res->max_err = e2;
		res->bound = b2;
		snprintf(res->msg, sizeof res->msg, "%s", m2);
	}
	res->check_s = now_s() - t0;
	if (bad) {
		/* a kernel that writes where it must not may have hit the input */
		res->status = "wrong_result";
		return rt_upload(b->din[0], b->in, bytes, err, n);
	}
	res->msg[0] = 0;
	if (measure(b->t, launch_kernel, &c, 0, b->race_ms, &st, err, n)) {
		res->status = "launch_error";
		snprintf(res->msg, sizeof res->msg, "%s", err);
		return 1;
	}
	res->status = "ok";
	res->median = st.median;
	res->min = st.min;
	res->max = st.max;
	res->reps = st.reps;
	res->gbs = b->pb->fam->bytes(b->pb, v) / (st.median * 1e6);
	res->mcells = (double)b->pb->nx * b->pb->ny * b->pb->nz / (st.median * 1e3);
	res->pct = b->copy_gbs > 0 ? 100.0 * res->gbs / b->copy_gbs : NAN;
	return 0;
}

/* ---- copy bandwidth ---- */

struct cctx { struct rt_kernel *k; void *a, *b; unsigned g[3], blk[3]; long long n4; size_t bytes; };

static int launch_copy(void *p, int i, char *err, size_t n)
{
	struct cctx *c = p;
	void *args[] = { &c->b, &c->a, &c->n4 };
	(void)i;
	return rt_launch(c->k, c->g, c->blk, args, err, n);
}

static int launch_memcpy(void *p, int i, char *err, size_t n)
{
	struct cctx *c = p;
	(void)i;
	return rt_copy(c->b, c->a, c->bytes, err, n);
}

int tn_calibrate(const struct rt_dev *dev, double *copy_gbs, double *memcpy_gbs,
		 long long *bytes_out, char *err, size_t n)
{
	struct cctx c;
	struct rt_timer *t = NULL;
	struct stats st;
	size_t bytes = (size_t)1 << 30;
	float *host = NULL;
	int status = 1;

	memset(&c, 0, sizeof c);
	while (bytes > ((size_t)64 << 20) && 4.0 * bytes > dev->mem)
		bytes /= 2;
	c.bytes = bytes;
	c.n4 = (long long)(bytes / 16);
	*copy_gbs = *memcpy_gbs = 0;
	if (rt_timer_new(&t, err, n) || rt_alloc(&c.a, bytes, err, n) ||
	    rt_alloc(&c.b, bytes, err, n))
		goto done;
	if (!(host = malloc(bytes))) {
		snprintf(err, n, "out of host memory");
		goto done;
	}
	tn_fill_random(host, (long long)(bytes / 4), 7);
	if (rt_upload(c.a, host, bytes, err, n))
		goto done;
	for (int cpt = 1; cpt <= 8; cpt *= 2) {
		struct gen_def d[] = { { "cpt", cpt }, { "bs", 256 } };
		struct rt_prog p;
		char *src = NULL;
		if (gen_source("copy.m4", "fdt_copy", d, 2, &src, err, n))
			goto done;
		if (rt_compile(src, "copy.cu", dev->arch, NULL, 0, &p, err, n)) {
			free(src);
			rt_prog_free(&p);
			goto done;
		}
		free(src);
		if (rt_load(&p, "fdt_copy", &c.k, err, n)) {
			rt_prog_free(&p);
			goto done;
		}
		rt_prog_free(&p);
		c.blk[0] = 256;
		c.blk[1] = c.blk[2] = c.g[1] = c.g[2] = 1;
		c.g[0] = (unsigned)((c.n4 + 256LL * cpt - 1) / (256LL * cpt));
		if (measure(t, launch_copy, &c, 2, 0, &st, err, n)) {
			rt_unload(c.k);
			goto done;
		}
		rt_unload(c.k);
		*copy_gbs = fmax(*copy_gbs, 2.0 * bytes / (st.median * 1e6));
	}
	if (measure(t, launch_memcpy, &c, 2, 0, &st, err, n))
		goto done;
	*memcpy_gbs = 2.0 * bytes / (st.median * 1e6);
	*copy_gbs = fmax(*copy_gbs, *memcpy_gbs);
	*bytes_out = (long long)bytes;
	status = 0;
done:
	free(host);
	rt_free(c.a);
	rt_free(c.b);
	rt_timer_free(t);
	return status;
}
