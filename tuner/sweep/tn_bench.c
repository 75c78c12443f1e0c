/*
 * tn_bench.c: validation and timing of one kernel on the GPU.
 *
 * Validation: the output is poisoned (0xFF bytes), the kernel runs once, and
 * the result is checked against the reference, which the CPU computes once
 * per sweep and problem (tn_hdata.h, shared by its workers), or for a
 * time-stepping family the GPU at each open (tn_wref.h); the comparison
 * itself runs on the GPU (templates/check.m4) unless $FDTUNE_CHECK asks for
 * the CPU or both.
 * An accumulating configuration (acc=1, tn.h) starts from a random base
 * field on the interior, poison elsewhere, and must leave base + reference.
 *
 * Weights: validation runs with random weights (tn_hdata.c says why),
 * timing with the family's own.
 *
 * Precision: fields are generated in fp32 and widened for fp64, so that both
 * precisions see the same values; the poison stays all ones.
 *
 * Timing (tn_time.c) rotates over the input/output pairs; the validation
 * launch is the kernel's warm-up (module loading, first-launch costs). A
 * contender (tn_bench.h) is timed again on places - 1 more placements of the
 * fields, each allocated anew elsewhere in device memory (one warm-up launch
 * each), and records the median of the placements' medians: the time a
 * program whose fields lie anywhere can expect, not one placement's luck.
 * The fields then stay on the median's placement, so that the runs timed on
 * one placement until the next contender are timed on a typical one.
 */
#define _POSIX_C_SOURCE 200809L
#include "fdt_rc.h"
#include "tn_bench.h"
#include "tn_time.h"
#include "tn_wref.h"
#include "gen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int load_check(struct tn_bench *b, const struct rt_dev *dev, char *err, size_t n)
{
	const struct gen_def d[] = { { "bs", 256 }, { "dbl", b->es == 8 } };
	return tn_helper_get("check.m4", "fdt_check", d, 2, dev->arch, &b->check, err, n);
}

/* The kernel argument of weights c at the bench's precision, into buf. */
static void *coef_arg(const struct tn_bench *b, const struct tn_coef *c, struct tn_coef64 *buf)
{
	if (b->es == 4)
		return (void *)c;
	buf->c0 = c->c0;
	for (int k = 0; k <= TN_RMAX; k++) {
		buf->x[k] = c->x[k];
		buf->y[k] = c->y[k];
		buf->z[k] = c->z[k];
	}
	return buf;
}

/* The check of templates/check.m4 on the field out against ref/mag (and
 * base, halo as there: NULL or device fields); 0 when it ran. */
static int check_gpu(struct tn_bench *b, void *out, void *ref, void *mag, void *base,
		     void *halo, long long *bad, double *max_err, double *bound, char *msg,
		     size_t mn, char *err, size_t n)
{
	struct { long long total, slice; int ld, xoff, r, nx, ny, nz, terms; } q = {
		b->l.total, b->l.slice, b->l.ld,
		(int)(b->l.origin - b->l.r * b->l.slice - (long long)b->l.r * b->l.ld),
		b->l.r, b->l.nx, b->l.ny, b->l.nz, b->terms };
	unsigned long long res[4] = { 0, ~0ULL, 0, 0 };
	unsigned g[3] = { (unsigned)((q.ld + 255) / 256), (unsigned)(q.slice / q.ld),
			  (unsigned)(q.total / q.slice) }, blk[3] = { 256, 1, 1 };
	float e, bo;
	void *args[] = { &out, &ref, &mag, &base, &halo, &q, &b->dres };
	if (rt_upload(b->dres, res, sizeof res, err, n) || rt_launch(b->check, g, blk, args, err, n) ||
	    rt_sync(err, n) || rt_download(res, b->dres, sizeof res, err, n))
		return FDT_FAIL;
	*bad = (long long)res[0];
	memcpy(&e, &res[2], sizeof e);          /* float bits in the low half */
	memcpy(&bo, &res[3], sizeof bo);
	*max_err = e;
	*bound = bo;
	tn_describe_bad(&b->l, *bad, (long long)res[1], msg, mn);
	return FDT_OK;
}

/* A field of nel fp32 elements as elements of es bytes (malloc'ed), the
 * poison (all ones) kept; NULL when out of memory. */
static void *widen(const float *src, long long nel, int es)
{
	void *w = malloc((size_t)nel * es);
	if (!w || es == 4) {
		if (w)
			memcpy(w, src, (size_t)nel * 4);
		return w;
	}
	double *d = w;
	#pragma omp parallel for schedule(static)
	for (long long i = 0; i < nel; i++) {
		unsigned u;
		memcpy(&u, src + i, 4);
		if (u == 0xffffffffu)
			memset(d + i, 0xff, 8);
		else
			d[i] = src[i];
	}
	return w;
}

static int upload_field(void *dst, const float *src, long long nel, int es, char *err, size_t n)
{
	void *w;
	int rc;
	if (es == 4)            /* as it is: no copy to widen */
		return rt_upload(dst, src, (size_t)nel * 4, err, n);
	w = widen(src, nel, es);
	if (!w) {
		snprintf(err, n, "out of host memory for a field of %lld elements", nel);
		return FDT_FAIL;
	}
	rc = rt_upload(dst, w, (size_t)nel * es, err, n);
	free(w);
	return rc;
}

/* Enough rotations of nf fields of bytes each that one round of launches
 * streams 3x the L2, within 1..TN_NROT. */
static int rotations(const struct rt_dev *dev, int nf, size_t bytes)
{
	int r = (int)((3.0 * dev->l2 + nf * (double)bytes - 1) / (nf * (double)bytes));
	return r < 1 ? 1 : r > TN_NROT ? TN_NROT : r;
}

/* The device bytes of a bench of pb with nrot rotations of fields of bytes
 * each: the fields, the wave's initial fields, and the reference (8 + 4
 * bytes a point) for the GPU check, with what making it on the GPU needs
 * beyond that. */
static double dev_bytes(const struct tn_problem *pb, int nrot, size_t bytes)
{
	const int wave = pb->fam->steps > 0, nf = wave ? 3 : 2, nref = wave ? 2 : 1;
	const double pts = (double)pb->nx * pb->ny * pb->nz;
	/* a GPU reference's 16 bytes a point, while all but one rotation field
	 * (vel's first) are yet to be allocated (tn_bench_open) */
	const double gref = tn_gpu_ref(pb) && (tn_check_mode() & TN_CHECK_GPU) ?
			    16.0 * pts - (nf * nrot - 1.0) * bytes : 0;
	return (double)nf * nrot * bytes + (wave ? 2.0 * bytes : 0) + 12.0 * nref * pts +
	       (gref > 0 ? gref : 0);
}

struct tn_pcost tn_bench_cost(const struct tn_problem *pb, const struct rt_dev *dev, int places)
{
	struct tn_layout l;
	const int wave = pb->fam->steps > 0, nf = wave ? 3 : 2, nref = wave ? 2 : 1;
	const int es = tn_elem_size(pb);
	const double pts = (double)pb->nx * pb->ny * pb->nz;
	size_t bytes;
	int nrot;
	struct tn_pcost c;
	tn_layout_of(pb, &l);
	bytes = (size_t)l.total * es;
	nrot = rotations(dev, nf, bytes);
	c.dev = dev_bytes(pb, nrot, bytes) +
		(places > 1 ? (double)(places - 1) * nf * nrot * bytes : 0);
	/* in (fp32), the wave's in2 and vel, an acc family's base, the
	 * reference and its magnitudes; when the CPU check is on, out (pinned,
	 * es wide) and the wave's widened fields */
	c.host = (double)l.total * (4 + (wave ? 8 : 0) +
				    (tn_param_role(pb->fam, TN_ROLE_ACC) >= 0 ? 4 : 0) +
				    (tn_check_mode() & TN_CHECK_CPU ? es * (wave ? 3.0 : 1.0) : 0)) +
		 (tn_hdata_gpu_ref(pb) ? 0 : 12.0 * nref * pts);
	return c;
}

static int oom(const struct tn_problem *pb, char *err, size_t n)
{
	snprintf(err, n, "out of host memory for a %dx%dx%d problem", pb->nx, pb->ny, pb->nz);
	return FDT_FAIL;
}

int tn_bench_open(struct tn_bench *b, const struct tn_problem *pb, const struct tn_hdata *hd,
		  const struct rt_dev *dev, double copy_gbs, char *err, size_t n)
{
	size_t bytes;
	long long pts = (long long)pb->nx * pb->ny * pb->nz;
	int wave = pb->fam->steps > 0, nf, nref;
	double need, t0 = tn_now_s(), t;
	memset(b, 0, sizeof *b);
	b->pb = pb;
	snprintf(b->hold.arch, sizeof b->hold.arch, "%s", dev->arch);
	b->copy_gbs = copy_gbs;
	b->es = tn_elem_size(pb);
	b->acc = -1;
	tn_layout_of(pb, &b->l);
	pb->fam->coef(pb, &b->ct);
	b->c = hd->c;
	b->terms = pb->fam->terms(pb->r);
	b->g = (struct fd_grid){ pb->nx, pb->ny, pb->nz, b->l.ld, b->l.slice };
	bytes = (size_t)b->l.total * b->es;
	nf = wave ? 3 : 2;              /* fields per rotation */
	nref = wave ? 2 : 1;            /* reference fields */
	b->nrot = rotations(dev, nf, bytes);
	need = dev_bytes(pb, b->nrot, bytes);
	if (need > 0.9 * dev->mem) {
		snprintf(err, n, "the problem needs %.1f GiB of device memory; %s has %.1f GiB; "
			 "choose a smaller --size", need / (1 << 30), dev->name,
			 dev->mem / (double)(1 << 30));
		return FDT_FAIL;
	}
	b->in = hd->in;
	b->in2 = hd->in2;
	b->vel = hd->vel;
	b->base = hd->base;
	b->ref = hd->ref;
	b->mag = hd->mag;
	/* the read-back buffer only where the CPU checks: pinning a field's
	 * bytes cost 0.2-0.45 s an open at 512^3 on the H200 (NOTES v53) */
	b->mode = tn_check_mode();
	if (((b->mode & TN_CHECK_CPU) && rt_host_alloc((void **)&b->out, bytes, err, n)) ||
	    rt_timer_new(&b->t, err, n))
		goto fail;
	/* each host field goes up once; the rotations' copies of it are
	 * copied on the device (the same bits, at the device's speed) */
	if (wave && (rt_alloc(&b->da0, bytes, err, n) || rt_alloc(&b->db0, bytes, err, n) ||
		     upload_field(b->da0, b->in, b->l.total, b->es, err, n) ||
		     upload_field(b->db0, b->in2, b->l.total, b->es, err, n)))
		goto fail;
	if ((b->acc = tn_param_role(pb->fam, TN_ROLE_ACC)) >= 0) {
		if (rt_alloc(&b->dbase, bytes, err, n) ||
		    upload_field(b->dbase, b->base, b->l.total, b->es, err, n))
			goto fail;
	}
	if ((b->mode & TN_CHECK_CPU) && wave &&
	    (!(b->ha = widen(b->in, b->l.total, b->es)) ||
	     !(b->hb = widen(b->in2, b->l.total, b->es)))) {
		oom(pb, err, n);
		goto fail;
	}
	t = tn_now_s();
	if (((b->mode & TN_CHECK_GPU) && load_check(b, dev, err, n)) ||
	    tn_hold_open(&b->hold, err, n))
		goto fail;
	b->open_s[0] = tn_now_s() - t;
	if ((b->mode & TN_CHECK_GPU) &&
	    (rt_alloc(&b->dref, (size_t)nref * pts * sizeof *b->ref, err, n) ||
	     rt_alloc(&b->dmag, (size_t)nref * pts * sizeof *b->mag, err, n) ||
	     rt_alloc(&b->dres, 4 * sizeof(unsigned long long), err, n)))
		goto fail;
	/* a family with a GPU reference has it made here, before the rotations
	 * take their memory (it needs 16 bytes a point while it runs), from the
	 * fields as uploaded: with FDTUNE_CHECK=both the GPU check holds a kernel
	 * to this reference and the CPU check to the host's */
	if (wave && (rt_alloc(&b->dvel[0], bytes, err, n) ||
		     upload_field(b->dvel[0], b->vel, b->l.total, b->es, err, n)))
		goto fail;
	t = tn_now_s();
	if ((b->mode & TN_CHECK_GPU) && tn_gpu_ref(pb)) {
		if (tn_wref_make(pb, &b->l, &b->c, b->es, b->da0, b->db0, b->dvel[0], dev->arch,
				 b->dref, b->dmag, err, n))
			goto fail;
		b->gref = 1;
	} else if ((b->mode & TN_CHECK_GPU) &&
		   (rt_upload(b->dref, b->ref, (size_t)nref * pts * sizeof *b->ref, err, n) ||
		    rt_upload(b->dmag, b->mag, (size_t)nref * pts * sizeof *b->mag, err, n))) {
		goto fail;
	}
	b->open_s[0] += tn_now_s() - t;
	for (int i = 0; i < b->nrot; i++) {
		if (rt_alloc(&b->din[i], bytes, err, n) || rt_alloc(&b->dout[i], bytes, err, n) ||
		    (wave ? rt_copy(b->din[i], b->da0, bytes, err, n) ||
			    rt_copy(b->dout[i], b->db0, bytes, err, n) :
			    (i ? rt_copy(b->din[i], b->din[0], bytes, err, n) :
				 upload_field(b->din[i], b->in, b->l.total, b->es, err, n)) ||
			    rt_fill(b->dout[i], 0xff, bytes, err, n)))
			goto fail;
		if (wave && i && (rt_alloc(&b->dvel[i], bytes, err, n) ||
				  rt_copy(b->dvel[i], b->dvel[0], bytes, err, n)))
			goto fail;
	}
	if (rt_sync(err, n))
		goto fail;
	b->open_s[1] = tn_now_s() - t0 - b->open_s[0];
	return FDT_OK;
fail:
	tn_bench_close(b);
	return FDT_FAIL;
}

void tn_bench_close(struct tn_bench *b)
{
	rt_free(b->dref);
	rt_free(b->dmag);
	rt_free(b->dbase);
	rt_free(b->da0);
	rt_free(b->db0);
	rt_free(b->dres);
	b->check = NULL;         /* the process keeps it (tn_helper_get) */
	tn_hold_close(&b->hold);
	for (int i = 0; i < TN_NROT; i++) {
		rt_free(b->din[i]);
		rt_free(b->dout[i]);
		rt_free(b->dvel[i]);
	}
	rt_host_free(b->out);
	rt_timer_free(b->t);
	free(b->ha);
	free(b->hb);
	memset(b, 0, sizeof *b);
}

struct kctx {
	struct tn_bench *b;
	struct rt_kernel *k;
	const unsigned *grid, *block;
	void *coef;             /* the weights argument */
};

/* Launch i of the timing rotation (i = 0: pair 0, the validated one). A
 * time-stepping kernel swaps next and prev every round of the rotation. */
static int launch_kernel(void *p, int i, char *err, size_t n)
{
	struct kctx *c = p;
	struct tn_bench *b = c->b;
	const int r = i % b->nrot;
	const long long o = b->l.origin * b->es;
	if (b->pb->fam->steps > 0) {
		const int sw = i / b->nrot & 1;
		char *next = (char *)(sw ? b->din[r] : b->dout[r]) + o;
		const char *prev = (const char *)(sw ? b->dout[r] : b->din[r]) + o;
		const char *vel = (const char *)b->dvel[r] + o;
		void *args[] = { &next, &prev, &vel, &b->g, c->coef };
		return rt_launch(c->k, c->grid, c->block, args, err, n);
	}
	char *out = (char *)b->dout[r] + o;
	const char *in = (const char *)b->din[r] + o;
	void *args[] = { &out, &in, &b->g, c->coef };
	return rt_launch(c->k, c->grid, c->block, args, err, n);
}

/* One placement of the timing fields: every rotation's in, out and vel. */
struct fset {
	void *f[3][TN_NROT];
};

static void set_get(const struct tn_bench *b, struct fset *s)
{
	memcpy(s->f[0], b->din, sizeof s->f[0]);
	memcpy(s->f[1], b->dout, sizeof s->f[1]);
	memcpy(s->f[2], b->dvel, sizeof s->f[2]);
}

static void set_use(struct tn_bench *b, const struct fset *s)
{
	memcpy(b->din, s->f[0], sizeof s->f[0]);
	memcpy(b->dout, s->f[1], sizeof s->f[1]);
	memcpy(b->dvel, s->f[2], sizeof s->f[2]);
}

static void set_free(struct fset *s)
{
	for (int j = 0; j < 3; j++)
		for (int i = 0; i < TN_NROT; i++) {
			rt_free(s->f[j][i]);
			s->f[j][i] = NULL;
		}
}

/* A new placement of b's fields in *s: each allocated while every earlier
 * placement is still held, so that it lies elsewhere, and copied from b's.
 * FDT_OK when done; FDT_REFUSED when device memory is lacking (nothing is
 * left allocated); FDT_FAIL when a copy failed (err says why; the GPU may
 * be unusable). */
static int set_new(const struct tn_bench *b, struct fset *s, char *err, size_t n)
{
	const size_t bytes = (size_t)b->l.total * b->es;
	struct fset cur;
	set_get(b, &cur);
	memset(s, 0, sizeof *s);
	for (int j = 0; j < 3; j++)
		for (int i = 0; i < b->nrot; i++) {
			if (!cur.f[j][i])
				continue;
			if (rt_alloc(&s->f[j][i], bytes, err, n)) {
				s->f[j][i] = NULL;
				set_free(s);
				return FDT_REFUSED;
			}
			if (rt_copy(s->f[j][i], cur.f[j][i], bytes, err, n)) {
				set_free(s);
				return FDT_FAIL;
			}
		}
	if (rt_sync(err, n)) {
		set_free(s);
		return FDT_FAIL;
	}
	return FDT_OK;
}

/* Times c on b->places - 1 more placements of the fields after st, the
 * first's: st becomes the median of their medians (of the lower middle two
 * for an even count), the min and max over all launches and their count;
 * msg lists each placement's median. Every placement is held until the
 * series ends; then the fields stay on the median's placement and the others
 * are freed. A placement that finds no device memory ends the series, and
 * msg says so. Nonzero when a copy or a launch failed (err says why). */
static int time_places(struct tn_bench *b, struct kctx *c, struct tn_stats *st, char *msg,
		       size_t mn, char *err, size_t n)
{
	struct fset set[TN_PLACES_MAX];
	double m[TN_PLACES_MAX];
	int np = 1, ord[TN_PLACES_MAX], len, rc = 0, full = 0, mid;
	set_get(b, &set[0]);
	m[0] = st->median;
	while (np < b->places && np < TN_PLACES_MAX) {
		struct tn_stats s;
		char e2[256];
		const int k = set_new(b, &set[np], e2, sizeof e2);
		if (k == FDT_REFUSED) {
			full = 1;
			break;
		}
		if (k) {
			snprintf(err, n, "%s", e2);
			rc = 1;
			break;
		}
		set_use(b, &set[np]);
		if (tn_measure(b->t, &b->hold, launch_kernel, c, 1, 0, &s, err, n)) {
			np++;
			rc = 1;
			break;
		}
		m[np++] = s.median;
		st->min = fmin(st->min, s.min);
		st->max = fmax(st->max, s.max);
		st->reps += s.reps;
	}
	if (rc) {                       /* the fields stay where the failure was */
		for (int i = 0; i < np - 1; i++)
			set_free(&set[i]);
		return FDT_FAIL;
	}
	for (int i = 0; i < np; i++)    /* insertion sort of the indices: np is small */
		for (int j = ord[i] = i; j > 0 && m[ord[j]] < m[ord[j - 1]]; j--) {
			const int t = ord[j];
			ord[j] = ord[j - 1];
			ord[j - 1] = t;
		}
	mid = ord[(np - 1) / 2];
	st->median = np % 2 ? m[mid] : 0.5 * (m[mid] + m[ord[np / 2]]);
	set_use(b, &set[mid]);
	for (int i = 0; i < np; i++)
		if (i != mid)
			set_free(&set[i]);
	len = snprintf(msg, mn, "median of %d placements of the fields:", np);
	for (int i = 0; i < np && len > 0 && (size_t)len < mn; i++)
		len += snprintf(msg + len, mn - (size_t)len, " %.6f", m[i]);
	if (len > 0 && (size_t)len < mn)
		snprintf(msg + len, mn - (size_t)len, " ms%s", full ? "; no device memory for more" : "");
	return FDT_OK;
}

/* Checks field out (device) against reference f (0, or 1 for the wave's
 * second field) on the GPU, the CPU or both, per b->mode; 0 when the check
 * ran, with the count of bad points in *bad (-1: the two checks disagree)
 * and the details in res. */
static int check_field(struct tn_bench *b, void *out, int f, int acc, long long *bad,
		       struct tn_result *res, char *err, size_t n)
{
	const long long pts = (long long)b->l.nx * b->l.ny * b->l.nz;
	const int wave = b->pb->fam->steps > 0;
	void *dhalo = wave ? (f ? b->db0 : b->da0) : NULL;
	double e2, b2;
	char m2[256];
	*bad = 0;
	if ((b->mode & TN_CHECK_GPU) &&
	    check_gpu(b, out, (char *)b->dref + f * pts * 8, (char *)b->dmag + f * pts * 4,
		      acc ? b->dbase : NULL, dhalo, bad, &res->max_err, &res->bound, res->msg,
		      sizeof res->msg, err, n))
		return FDT_FAIL;
	if (!(b->mode & TN_CHECK_CPU))
		return FDT_OK;
	if (rt_download(b->out, out, (size_t)b->l.total * b->es, err, n))
		return FDT_FAIL;
	struct tn_chk q = { &b->l, b->out, b->es, acc ? b->base : NULL,
			    wave ? (f ? b->hb : b->ha) : NULL, b->ref + f * pts, b->mag + f * pts,
			    b->terms };
	long long bad2 = tn_check_field(&q, &e2, &b2, m2, sizeof m2);
	/* with a GPU reference the two references may differ by up to half the
	 * bound (two computations in double, each within it; wref.m4): in fp64
	 * the largest errors then differ by that much, in fp32 by nothing seen */
	if (b->mode == TN_CHECK_BOTH && (bad2 != *bad || (!*bad &&
	    (fabs(e2 - res->max_err) > 1e-6 * e2 + (b->gref ? 0.5 * b2 : 0) ||
	     fabs(b2 - res->bound) > 1e-6 * b2)))) {
		snprintf(res->msg, sizeof res->msg, "the GPU and CPU checks disagree: %lld "
			 "bad points, max error %g, bound %g on the GPU; %lld, %g, %g on "
			 "the CPU", *bad, res->max_err, res->bound, bad2, e2, b2);
		*bad = -1;
		return FDT_OK;
	}
	*bad = bad2;
	res->max_err = e2;
	res->bound = b2;
	snprintf(res->msg, sizeof res->msg, "%s", m2);
	return FDT_OK;
}

/* Validates config v: one launch, or the family's steps from the initial
 * fields, ping-pong, after which both fields are checked. Returns 0 with
 * *bad set, FDT_FAIL when the GPU failed (status launch_error), FDT_REFUSED
 * when the launch was refused (resource_limit, the context intact). */
static int validate(struct tn_bench *b, struct kctx *c, int acc, long long *bad,
		    struct tn_result *res, char *err, size_t n)
{
	const size_t bytes = (size_t)b->l.total * b->es;
	const int steps = b->pb->fam->steps;
	int rc;
	if (steps > 0)
		rc = rt_copy(b->din[0], b->da0, bytes, err, n) ||
		     rt_copy(b->dout[0], b->db0, bytes, err, n);
	else
		rc = acc ? rt_copy(b->dout[0], b->dbase, bytes, err, n) :
			   rt_fill(b->dout[0], 0xff, bytes, err, n);
	if (rc || rt_sync(err, n)) {
		res->status = "launch_error";
		return FDT_FAIL;
	}
	/* step s writes dout when s is even: launch nrot s swaps as often */
	for (int s = 0; s < (steps > 0 ? steps : 1); s++)
		if (launch_kernel(c, s * b->nrot, err, n)) {
			res->status = "resource_limit";
			return FDT_REFUSED;
		}
	/* reference 0 is for din (a), 1 for dout (b) */
	if (rt_sync(err, n) || check_field(b, b->dout[0], steps > 0, acc, bad, res, err, n)) {
		res->status = "launch_error";
		return FDT_FAIL;
	}
	if (!*bad && steps > 0) {       /* din: the other field */
		char keep[512];
		double e = res->max_err, bo = res->bound;
		snprintf(keep, sizeof keep, "%s", res->msg);
		if (check_field(b, b->din[0], 0, 0, bad, res, err, n)) {
			res->status = "launch_error";
			return FDT_FAIL;
		}
		if (!*bad) {
			res->max_err = fmax(e, res->max_err);
			res->bound = fmax(bo, res->bound);
			snprintf(res->msg, sizeof res->msg, "%s", keep);
		}
	}
	return FDT_OK;
}

static int sync_all(void *ctx, char *err, size_t n)
{
	(void)ctx;
	return rt_sync(err, n);
}

/* The energy of c's launches (the timing weights, the fields as timed) at
 * median ms each, into res. Nonzero only when a launch failed (the GPU may
 * be unusable); a counter that fails says so in res->msg and the run
 * stays ok without energy. */
static int energy(struct tn_bench *b, struct kctx *c, double ms, struct tn_result *res,
		  char *err, size_t n)
{
	struct tn_energy_run run = { launch_kernel, sync_all, c, ms, b->energy_s, 3 };
	char e2[256];
	if (tn_energy_measure(b->meter, &run, &res->e, e2, sizeof e2)) {
		if (rt_sync(err, n))
			return FDT_FAIL;
		const size_t l = strlen(res->msg);
		snprintf(res->msg + l, sizeof res->msg - l, "%senergy not measured: %s",
			 l ? "; " : "", e2);
		return FDT_OK;
	}
	res->energy = 1;
	snprintf(res->esrc, sizeof res->esrc, "%s", rt_energy_source(b->meter));
	return FDT_OK;
}

int tn_bench_run(struct tn_bench *b, struct rt_kernel *k, const int *v,
		 const unsigned grid[3], const unsigned block[3], struct tn_result *res,
		 char *err, size_t n)
{
	struct tn_coef64 cv, ct;
	struct kctx c = { b, k, grid, block, coef_arg(b, &b->c, &cv) };
	struct tn_stats st;
	long long bad = 0;
	int acc = b->acc >= 0 && v[b->acc], rc;
	double t0 = tn_now_s();

	memset(res, 0, sizeof *res);
	res->median = res->min = res->max = res->gbs = res->mcells = res->pct = NAN;
	res->max_err = res->bound = NAN;
	res->reps = -1;
	if ((rc = validate(b, &c, acc, &bad, res, err, n))) {
		snprintf(res->msg, sizeof res->msg, "%s", err);
		return rc == FDT_REFUSED ? FDT_OK : FDT_FAIL;
	}
	res->check_s = tn_now_s() - t0;
	if (bad) {
		/* a kernel that writes where it must not may have hit the input;
		 * time-stepping families restore theirs before every validation */
		res->status = "wrong_result";
		return b->pb->fam->steps > 0 ? 0 :
		       upload_field(b->din[0], b->in, b->l.total, b->es, err, n);
	}
	res->msg[0] = 0;
	c.coef = coef_arg(b, &b->ct, &ct);      /* timing: the family's own weights */
	if (tn_measure(b->t, &b->hold, launch_kernel, &c, 0, b->race_ms, &st, err, n) ||
	    (b->places > 1 && (b->best_ms <= 0 || st.median < TN_PLACES_GATE * b->best_ms) &&
	     time_places(b, &c, &st, res->msg, sizeof res->msg, err, n))) {
		res->status = "launch_error";
		snprintf(res->msg, sizeof res->msg, "%s", err);
		return FDT_FAIL;
	}
	if (st.group > 1) {
		const size_t l = strlen(res->msg);
		snprintf(res->msg + l, sizeof res->msg - l, "%slaunches timed in groups of %d",
			 l ? "; " : "", st.group);
	}
	if (b->meter && b->energy_s > 0 && energy(b, &c, st.median, res, err, n)) {
		res->status = "launch_error";
		snprintf(res->msg, sizeof res->msg, "%s", err);
		return FDT_FAIL;
	}
	res->status = "ok";
	res->median = st.median;
	res->min = st.min;
	res->max = st.max;
	res->reps = st.reps;
	res->gbs = b->pb->fam->bytes(b->pb, v) / (st.median * 1e6);
	res->mcells = (double)b->pb->nx * b->pb->ny * b->pb->nz / (st.median * 1e3);
	res->pct = b->copy_gbs > 0 ? 100.0 * res->gbs / b->copy_gbs : NAN;
	return FDT_OK;
}
