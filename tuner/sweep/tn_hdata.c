/*
 * tn_hdata.c: a problem's host data (tn_hdata.h), made once and mapped by
 * every worker of a sweep.
 *
 * Weights: validation runs with random weights of magnitude 0.5..1 in place
 * of every nonzero weight of the family (same signs), timing with the
 * family's own. At R = 8 the outer second-derivative weight is about 2e-5 of
 * the centre one, under the fp32 error bound of a point: with physical
 * weights a kernel that dropped that tap would pass.
 *
 * Every value comes from a seed of its own and the problem's size, so a
 * worker that makes its own copy has the same bits as the shared one.
 */
#define _GNU_SOURCE
#include "fdt_rc.h"
#include "tn_hdata.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Where each part lies in the mapping: offsets in bytes, 0 for none. The
 * first page is a header that says whose data they are. */
struct parts {
	size_t in, in2, vel, base, ref, mag, size;
};

struct header {
	char magic[16];         /* HDATA_MAGIC */
	char fam[32], prec[8];
	int r, nx, ny, nz;
	size_t size;
};
#define HDATA_MAGIC "fdtune hdata 1"

static void header_of(const struct tn_problem *pb, size_t size, struct header *h)
{
	memset(h, 0, sizeof *h);
	snprintf(h->magic, sizeof h->magic, "%s", HDATA_MAGIC);
	snprintf(h->fam, sizeof h->fam, "%s", pb->fam->name);
	snprintf(h->prec, sizeof h->prec, "%s", pb->prec);
	h->r = pb->r;
	h->nx = pb->nx;
	h->ny = pb->ny;
	h->nz = pb->nz;
	h->size = size;
}

static size_t page(size_t b)
{
	return (b + 4095) / 4096 * 4096;
}

int tn_check_mode(void)
{
	const char *m = getenv("FDTUNE_CHECK");
	if (m && !strcmp(m, "cpu"))
		return TN_CHECK_CPU;
	if (m && !strcmp(m, "both"))
		return TN_CHECK_BOTH;
	return TN_CHECK_GPU;
}

int tn_gpu_ref_env(int *on, char *err, size_t n)
{
	return tn_env_int("FDTUNE_GPU_REF", 0, 1, 1, "1 makes the references of time-stepping "
			  "families on the GPU, 0 on the CPU", on, err, n);
}

int tn_gpu_ref(const struct tn_problem *pb)
{
	char e[256];
	int on;
	if (tn_gpu_ref_env(&on, e, sizeof e))
		on = 1;         /* a sweep refuses a bad value before it begins */
	return pb->fam->steps > 0 && pb->fam->step_gpu && on;
}

int tn_hdata_gpu_ref(const struct tn_problem *pb)
{
	return tn_gpu_ref(pb) && !(tn_check_mode() & TN_CHECK_CPU);
}

static struct parts parts_of(const struct tn_problem *pb, struct tn_layout *l)
{
	const int wave = pb->fam->steps > 0, nref = wave ? 2 : 1;
	const size_t pts = (size_t)pb->nx * pb->ny * pb->nz;
	struct parts p = { 0 };
	size_t fb;
	tn_layout_of(pb, l);
	fb = page((size_t)l->total * 4);
	p.in = page(sizeof(struct header));
	p.size = p.in + fb;
	if (wave) {
		p.in2 = p.size;
		p.vel = p.size + fb;
		p.size += 2 * fb;
	}
	if (tn_param_role(pb->fam, TN_ROLE_ACC) >= 0) {
		p.base = p.size;
		p.size += fb;
	}
	if (tn_hdata_gpu_ref(pb))
		return p;               /* no reference on the host */
	p.ref = p.size;
	p.size += page(nref * pts * sizeof(double));
	p.mag = p.size;
	p.size += page(nref * pts * sizeof(float));
	return p;
}

size_t tn_hdata_size(const struct tn_problem *pb)
{
	struct tn_layout l;
	return parts_of(pb, &l).size;
}

/* Replaces every nonzero weight of c by a random one of the same sign and
 * magnitude in [0.5, 1) (the header comment says why). */
static void random_weights(struct tn_coef *c, unsigned long long seed)
{
	float *w[3] = { c->x, c->y, c->z }, r[4 * (TN_RMAX + 1)];
	tn_fill_random(r, 4 * (TN_RMAX + 1), seed);
	if (c->c0 != 0)
		c->c0 = copysignf(0.75f + 0.25f * r[0], c->c0);
	for (int a = 0; a < 3; a++)
		for (int k = 1; k <= TN_RMAX; k++)
			if (w[a][k] != 0)
				w[a][k] = copysignf(0.75f + 0.25f * r[1 + a * (TN_RMAX + 1) + k], w[a][k]);
}

/* The velocity of the time-stepping families: random in [0.005, 0.01) on the
 * interior, poison elsewhere (a kernel must not read it there). Small enough
 * that steps with the physical weights stay bounded for any R. */
static void fill_vel(const struct tn_layout *l, float *v, unsigned long long seed)
{
	tn_fill_random(v, l->total, seed);
	#pragma omp parallel for schedule(static)
	for (long long i = 0; i < l->total; i++)
		v[i] = 0.0075f + 0.0025f * v[i];
	tn_poison_halo(l, v);
}

/* Points the parts of h at mapping m laid out as p. */
static void point(struct tn_hdata *h, char *m, const struct parts *p)
{
	h->map = m;
	h->size = p->size;
	h->in = (const float *)(m + p->in);
	h->in2 = p->in2 ? (const float *)(m + p->in2) : NULL;
	h->vel = p->vel ? (const float *)(m + p->vel) : NULL;
	h->base = p->base ? (const float *)(m + p->base) : NULL;
	h->ref = p->ref ? (const double *)(m + p->ref) : NULL;
	h->mag = p->mag ? (const float *)(m + p->mag) : NULL;
}

/* The weights of pb's validation into h->c. */
static void weights(struct tn_hdata *h, const struct tn_problem *pb)
{
	pb->fam->coef(pb, &h->c);
	random_weights(&h->c, 0xc0ef + (unsigned long long)pb->r);
}

int tn_hdata_make(struct tn_hdata *h, const struct tn_problem *pb, int share, char *err,
		  size_t n)
{
	const long long pts = (long long)pb->nx * pb->ny * pb->nz;
	struct parts p;
	char *m = MAP_FAILED;
	memset(h, 0, sizeof *h);
	h->fd = -1;
	p = parts_of(pb, &h->l);
#ifdef MFD_CLOEXEC
	if (share && (h->fd = memfd_create("fdtune-hdata", MFD_CLOEXEC)) >= 0 &&
	    (ftruncate(h->fd, (off_t)p.size) ||
	     (m = mmap(NULL, p.size, PROT_READ | PROT_WRITE, MAP_SHARED, h->fd, 0)) == MAP_FAILED)) {
		close(h->fd);
		h->fd = -1;
	}
#else
	(void)share;
#endif
	if (m == MAP_FAILED &&
	    (m = mmap(NULL, p.size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)) ==
	    MAP_FAILED) {
		snprintf(err, n, "out of host memory for the %.1f GiB of fields and reference of a "
			 "%dx%dx%d problem; choose a smaller --size", p.size / 1073741824.0, pb->nx,
			 pb->ny, pb->nz);
		return FDT_FAIL;
	}
	point(h, m, &p);
	header_of(pb, p.size, (struct header *)m);
	weights(h, pb);
	tn_fill_random((float *)h->in, h->l.total, 0x5eed + (unsigned long long)pts);
	if (h->in2) {
		/* a = in, the field at step 0; b = in2, at step -1; both random
		 * everywhere, halos included, which the kernel reads but never writes */
		tn_fill_random((float *)h->in2, h->l.total, 0x2eed + (unsigned long long)pts);
		fill_vel(&h->l, (float *)h->vel, 0x7e1 + (unsigned long long)pts);
		if (h->ref && pb->fam->step_ref(pb, &h->c, &h->l, h->in, h->in2, h->vel,
						pb->fam->steps, (double *)h->ref,
						(double *)h->ref + pts, (float *)h->mag,
						(float *)h->mag + pts, err, n)) {
			tn_hdata_free(h);
			return FDT_FAIL;
		}
	} else {
		pb->fam->ref(pb, &h->c, &h->l, h->in, (double *)h->ref, (float *)h->mag);
	}
	if (h->base) {
		tn_fill_random((float *)h->base, h->l.total, 0xba5e + (unsigned long long)pts);
		tn_poison_halo(&h->l, (float *)h->base);
	}
	return FDT_OK;
}

void tn_hdata_path(const struct tn_hdata *h, char *buf, size_t n)
{
	if (h->fd >= 0)
		snprintf(buf, n, "/proc/%ld/fd/%d", (long)getpid(), h->fd);
	else if (n)
		*buf = 0;
}

int tn_hdata_map(struct tn_hdata *h, const struct tn_problem *pb, const char *path, char *err,
		 size_t n)
{
	struct parts p;
	struct stat st;
	struct header want;
	void *m;
	int fd;
	memset(h, 0, sizeof *h);
	h->fd = -1;
	p = parts_of(pb, &h->l);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		snprintf(err, n, "cannot open the sweep's fields at %s: %s", path, strerror(errno));
		return FDT_FAIL;
	}
	if (fstat(fd, &st) || (size_t)st.st_size != p.size) {
		snprintf(err, n, "the sweep's fields at %s are not those of a %dx%dx%d %s problem "
			 "(%lld bytes, %zu expected)", path, pb->nx, pb->ny, pb->nz, pb->fam->name,
			 (long long)st.st_size, p.size);
		close(fd);
		return FDT_FAIL;
	}
	/* not populated: the pages are faulted in as they are copied up
	 * (rt_upload: by its copy threads for the big fields); MAP_POPULATE
	 * faulted them all on one thread in each worker, and measured once on
	 * two H200s, a plan's start idle was 0.5 s a GPU longer (NOTES v54) */
	m = mmap(NULL, p.size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);                      /* the mapping keeps the file */
	if (m == MAP_FAILED) {
		snprintf(err, n, "cannot map the sweep's fields at %s: %s", path, strerror(errno));
		return FDT_FAIL;
	}
	header_of(pb, p.size, &want);
	if (memcmp(m, &want, sizeof want)) {
		snprintf(err, n, "the sweep's fields at %s are not those of a %dx%dx%d %s problem",
			 path, pb->nx, pb->ny, pb->nz, pb->fam->name);
		munmap(m, p.size);
		return FDT_FAIL;
	}
	point(h, m, &p);
	weights(h, pb);
	return FDT_OK;
}

void tn_hdata_free(struct tn_hdata *h)
{
	if (h->map)
		munmap(h->map, h->size);
	if (h->fd >= 0)
		close(h->fd);
	memset(h, 0, sizeof *h);
	h->fd = -1;
}
