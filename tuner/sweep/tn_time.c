/*
 * tn_time.c: timing launches on the GPU to a stable median, and the copy
 * bandwidth that serves as every kernel's roof.
 *
 * Timing: samples taken with device events: a first batch of 3, then batches
 * of 10. It stops when the median of all samples moved by less than 0.5% over
 * the last batch (at least 30 samples), at 300 samples, or after 2 s of
 * kernel time. A sample is one launch, except for kernels of a few
 * microseconds, whose single launches are as much the events' overhead and
 * the launch latency as the kernel (±10% from one launch to the next at
 * 61x37x29): when the first 3 launches' median is under TN_SHORT_MS, the
 * samples start again, each now the mean of a group of back-to-back launches
 * between one pair of events, the group sized to about TN_GROUP_MS of kernel
 * time. The group is queued behind a hold (templates/spin.m4: a kernel that
 * spins long enough for the host to queue the whole group), so it runs at the
 * GPU's pace: without one, a kernel of 3 us ran at the pace of the host's
 * launches, 3.3 us in one process and 4.3 us in another (NOTES v32). A kernel that cannot
 * win is raced out against the best median of the sweep so far (race_ms):
 * after its first launch when that took over twice race_ms and 0.5 ms more
 * (the validation's launch before it has warmed the kernel), after the first
 * batch when even its fastest sample is over 1.3x race_ms, after 13 samples
 * when their median is over 1.1x (tn_race_out). Racing is what makes a warm
 * sweep fast: the runs over twice a problem's best were half of a plan's
 * timed launches at three each (NOTES v66). tests/export_main.cu --time
 * fdtune times one kernel the same way, without a race.
 *
 * Copy bandwidth: reads plus writes of a buffer of up to 1 GiB (a quarter of
 * the device's memory at most), the best of fdtune's float4 copy kernels
 * (templates/copy.m4, 1 to 8 vectors per thread) and a device-to-device memcpy.
 */
#define _POSIX_C_SOURCE 200809L
#include "tn_time.h"
#include "gen.h"
#include "tn.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXS 300

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

int tn_helper_load(const char *tmpl, const char *kernel, const struct gen_def *d, int nd,
		   const char *arch, struct rt_kernel **k, char *err, size_t n)
{
	struct rt_prog p;
	char *src = NULL;
	int rc = 1;
	*k = NULL;
	if (gen_source(tmpl, kernel, d, nd, &src, err, n))
		return FDT_FAIL;
	if (!rt_compile(src, tmpl, arch, NULL, 0, &p, err, n))
		rc = rt_load(&p, kernel, k, err, n);
	rt_prog_free(&p);
	free(src);
	return rc;
}

/* The process's helpers, loaded once each: key, its tmpl, kernel,
 * definitions and arch. A handful at most: the check of each precision and
 * the hold, for the one arch of a worker. */
static struct { char key[320]; struct rt_kernel *k; } kept[16];
static pthread_mutex_t kept_mu = PTHREAD_MUTEX_INITIALIZER;

int tn_helper_get(const char *tmpl, const char *kernel, const struct gen_def *d, int nd,
		  const char *arch, struct rt_kernel **k, char *err, size_t n)
{
	char key[320];
	int len = snprintf(key, sizeof key, "%s|%s|%s", tmpl, kernel, arch), i, rc = FDT_FAIL;
	for (i = 0; i < nd && len > 0 && (size_t)len < sizeof key; i++)
		len += snprintf(key + len, sizeof key - (size_t)len, "|%s=%d", d[i].name, d[i].value);
	*k = NULL;
	if (len < 0 || (size_t)len >= sizeof key) {
		snprintf(err, n, "helper kernel %s: too many definitions", kernel);
		return FDT_FAIL;
	}
	pthread_mutex_lock(&kept_mu);
	for (i = 0; i < (int)(sizeof kept / sizeof *kept) && kept[i].k; i++)
		if (!strcmp(kept[i].key, key)) {
			*k = kept[i].k;
			rc = FDT_OK;
			goto out;
		}
	if (i == (int)(sizeof kept / sizeof *kept))
		snprintf(err, n, "helper kernel %s: more than %d kept", kernel, i);
	else if (!(rc = tn_helper_load(tmpl, kernel, d, nd, arch, &kept[i].k, err, n))) {
		snprintf(kept[i].key, sizeof kept[i].key, "%s", key);
		*k = kept[i].k;
	}
out:
	pthread_mutex_unlock(&kept_mu);
	return rc;
}

int tn_hold_open(struct tn_hold *h, char *err, size_t n)
{
	const struct gen_def d[] = { { "bs", 32 } };
	return h->k ? FDT_OK : tn_helper_get("spin.m4", "fdt_spin", d, 1, h->arch, &h->k, err, n);
}

void tn_hold_close(struct tn_hold *h)
{
	h->k = NULL;
}

/* Holds the GPU long enough for the host to queue g launches after it:
 * TN_HOLD_US + TN_HOLD_PER_US a launch, in clock ticks of 2 GHz (longer on
 * a slower clock, which only waits more); compiles the hold first when it
 * is not yet (tn_hold_open). */
static int hold(struct tn_hold *h, int g, char *err, size_t n)
{
	long long cycles = (long long)((TN_HOLD_US + TN_HOLD_PER_US * g) * 2000);
	unsigned grid[3] = { 1, 1, 1 }, blk[3] = { 32, 1, 1 };
	void *args[] = { &cycles };
	if (tn_hold_open(h, err, n))
		return FDT_FAIL;
	return rt_launch(h->k, grid, blk, args, err, n);
}

int tn_race_out(const double *s, int k, double race_ms)
{
	double lo;
	if (race_ms <= 0 || k < 1)
		return 0;
	if (k == 1)
		return s[0] >= TN_SHORT_MS && s[0] > TN_RACE_ONE * race_ms &&
		       s[0] > race_ms + TN_RACE_ONE_MS;
	if (k == 3) {
		lo = fmin(s[0], fmin(s[1], s[2]));
		return lo > 1.3 * race_ms;
	}
	return k == 13 && median(s, k) > 1.1 * race_ms;
}

int tn_measure(struct rt_timer *t, struct tn_hold *hk, tn_launch_fn fn, void *ctx, int warm,
	       double race_ms, struct tn_stats *st, char *err, size_t n)
{
	double s[MAXS], total = 0, prev = 0;
	int k = 0, g = 1, li = 0;
	for (int i = 0; i < warm; i++)
		if (fn(ctx, i, err, n) || rt_sync(err, n))
			return FDT_FAIL;
	while (k < MAXS) {
		const int batch = k ? 10 : 3;
		for (int b = 0; b < batch && k < MAXS; b++, k++) {
			float ms;
			if ((g > 1 && hk && hold(hk, g, err, n)) || rt_timer_start(t, err, n))
				return FDT_FAIL;
			for (int j = 0; j < g; j++)
				if (fn(ctx, li++, err, n))
					return FDT_FAIL;
			if (rt_timer_stop(t, &ms, err, n))
				return FDT_FAIL;
			s[k] = (double)ms / g;
			total += ms;
			if (g == 1 && k == 0 && tn_race_out(s, 1, race_ms)) {
				k = 1;
				goto done;
			}
		}
		double m = median(s, k);
		if (g == 1 && k == 3 && m < TN_SHORT_MS) {  /* microseconds: group, then race */
			g = (int)ceil(TN_GROUP_MS / fmax(m, 1e-4));
			g = g < 2 ? 2 : g > TN_GROUP_MAX ? TN_GROUP_MAX : g;
			k = 0;
			prev = 0;
			continue;
		}
		if ((k >= 30 && fabs(m - prev) <= 0.005 * m) || total > 2000 ||
		    tn_race_out(s, k, race_ms))
			break;
		prev = m;
	}
done:
	st->median = median(s, k);
	st->min = st->max = s[0];
	for (int i = 1; i < k; i++) {
		st->min = fmin(st->min, s[i]);
		st->max = fmax(st->max, s[i]);
	}
	st->reps = k * g;
	st->group = g;
	return FDT_OK;
}

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
	struct tn_stats st;
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
		const struct gen_def d[] = { { "cpt", cpt }, { "bs", 256 } };
		if (tn_helper_load("copy.m4", "fdt_copy", d, 2, dev->arch, &c.k, err, n))
			goto done;
		c.blk[0] = 256;
		c.blk[1] = c.blk[2] = c.g[1] = c.g[2] = 1;
		c.g[0] = (unsigned)((c.n4 + 256LL * cpt - 1) / (256LL * cpt));
		if (tn_measure(t, NULL, launch_copy, &c, 2, 0, &st, err, n)) {
			rt_unload(c.k);
			goto done;
		}
		rt_unload(c.k);
		*copy_gbs = fmax(*copy_gbs, 2.0 * bytes / (st.median * 1e6));
	}
	if (tn_measure(t, NULL, launch_memcpy, &c, 2, 0, &st, err, n))
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
