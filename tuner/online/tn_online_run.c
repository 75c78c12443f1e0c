/*
 * tn_online_run.c: one time step of a user's run under online tuning
 * (tn_online.h), on the GPU: the kernel tn_on_next names is launched on
 * the user's fields, through the runtime (rt.h) on the default stream, and
 * timed with device events until the choice is made; after it, the chosen
 * kernel runs untimed. A candidate is loaded at its first turn and
 * validated once, before it writes the user's fields, against the user's
 * own kernel on scratch copies of the output field (the only one the
 * kernel ABI lets a kernel write: every other is a const pointer, so the
 * two kernels read the user's own, and the user's kernel must write its
 * first field alone, as fdtune.h says): the copies span every point the ABI
 * lets a kernel touch (R halo points on every side, rows and planes as the
 * grid says), with the same alignment; the candidate's
 * output copy is poisoned first unless the kernel reads its output (acc=1,
 * a time step), its interior must match the user's kernel's within the
 * precision's tolerance, and every other point must be left as it was. A
 * candidate that cannot be loaded, launched or validated is dropped with a
 * message, and that step runs the user's kernel: nothing the run computed
 * is lost. (A kernel that faults the GPU would end the process's context
 * with it; the candidates are records that ran on their device and handle
 * any grid, and their first launch is the validation's, on the copies.)
 */
#define _GNU_SOURCE
#include "fdt_rc.h"
#include "tn_online.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void tn_on_span(const struct tn_problem *pb, const struct fd_grid *g, const void *p,
		long long *lead, long long *len)
{
	const long long r = pb->r, es = tn_elem_size(pb);
	long long off = r * g->slice + r * g->ld + r;
	off += (long long)(((uintptr_t)p - (uintptr_t)(off * es)) % 256) / es;
	*lead = off;
	*len = off + (g->nz - 1 + r) * g->slice + (g->ny - 1 + r) * g->ld + g->nx + r;
}

/* 1 when candidate i reads its output (it accumulates, or is a time step). */
static int reads_out(const struct tn_online *on, int i)
{
	const struct tn_family *f = on->pb.fam;
	int a = tn_param_role(f, TN_ROLE_ACC);
	return f->steps > 0 || (a >= 0 && on->c[i].v[a] == 1);
}

static int launch(struct tn_online *on, int i, void *const *fields, const struct tn_on_call *k,
		  char *err, size_t n)
{
	void *args[TN_ON_FIELDS + 2];
	struct fd_grid g = *k->g;
	for (int f = 0; f < k->nf; f++)
		args[f] = (void *)&fields[f];
	args[k->nf] = &g;
	args[k->nf + 1] = (void *)k->coef;
	return rt_launch(on->c[i].kern, on->c[i].grid, on->c[i].block, args, err, n);
}

int tn_on_compare(const struct tn_problem *pb, const struct fd_grid *g, const void *a,
		  const void *b, long long lead, long long len, int poisoned, char *why, size_t n)
{
	const int es = tn_elem_size(pb), d = es == 8;
	const double tol = d ? 1e-10 : 1e-4;
	double big = 0, worst = 0;
	long long bad = -1;
	for (int pass = 0; pass < 2; pass++)
		for (long long t = 0; t < len; t++) {
			long long q = t - lead, z = q >= 0 ? q / g->slice : -((-q + g->slice - 1) / g->slice);
			long long rz = q - z * g->slice, y = rz / g->ld, x = rz - y * g->ld;
			int in = z >= 0 && z < g->nz && y < g->ny && x < g->nx;
			double va = d ? ((const double *)a)[t] : ((const float *)a)[t];
			double vb = d ? ((const double *)b)[t] : ((const float *)b)[t];
			if (pass == 0) {
				if (in && fabs(va) > big)
					big = fabs(va);
				continue;
			}
			if (in) {
				double e = fabs(vb - va);
				if (!(e <= tol * big + 1e-30)) {
					if (bad < 0 || !(e <= worst))
						bad = t;
					worst = isnan(e) ? INFINITY : e > worst ? e : worst;
				}
			} else if (poisoned ? memcmp((const char *)b + t * es,
						  "\xff\xff\xff\xff\xff\xff\xff\xff", (size_t)es) :
				   memcmp((const char *)b + t * es, (const char *)a + t * es, (size_t)es)) {
				snprintf(why, n, "it wrote outside the interior, %lld elements from point "
					 "(0,0,0)", t - lead);
				return FDT_FAIL;
			}
		}
	if (bad >= 0) {
		snprintf(why, n, "its output differs from the program's kernel by %.3g at %lld "
			 "elements from point (0,0,0), over the tolerance %.1g x %.3g", worst,
			 bad - lead, tol, big);
		return FDT_FAIL;
	}
	return FDT_OK;
}

/* The comparison on the GPU (templates/cmp.m4, tn_cmp_src.h): the span's
 * largest interior |a|, then the bad elements; 0 with *bad, *first (the
 * first bad element from point (0,0,0)), *big and *worst; 1 with why where
 * it could not run. */
static int compare_gpu(struct tn_online *on, const struct fd_grid *g, void *a, void *b,
		       long long lead, long long len, int poisoned, unsigned long long *bad,
		       long long *first, double *big, double *worst, char *why, size_t n)
{
	struct { long long len, lead, slice; int ld, nx, ny, nz, mode, poisoned; float tol; } q = {
		len, lead, g->slice, g->ld, g->nx, g->ny, g->nz, 0, poisoned,
		tn_elem_size(&on->pb) == 8 ? 1e-10f : 1e-4f };
	unsigned long long res[4] = { 0, ~0ULL, 0, 0 };
	const long long rows = (len + g->ld - 1) / g->ld;
	unsigned grid[3] = { (unsigned)((g->ld + TN_CMP_BS - 1) / TN_CMP_BS),
			     (unsigned)(rows < 65535 ? rows : 65535), 1 }, block[3] = { TN_CMP_BS, 1, 1 };
	void *args[] = { &a, &b, &q, &on->res };
	float f;
	grid[2] = (unsigned)((rows + grid[1] - 1) / grid[1]);
	if (rt_upload(on->res, res, sizeof res, why, n))
		return FDT_FAIL;
	for (q.mode = 0; q.mode < 2; q.mode++)
		if (rt_launch(on->cmp, grid, block, args, why, n))
			return FDT_FAIL;
	if (rt_download(res, on->res, sizeof res, why, n))
		return FDT_FAIL;
	*bad = res[0];
	*first = (long long)res[1] - lead;
	memcpy(&f, &(unsigned){ (unsigned)res[2] }, sizeof f);
	*big = f;
	memcpy(&f, &(unsigned){ (unsigned)res[3] }, sizeof f);
	*worst = f;
	return FDT_OK;
}

/* The scratch copies of the output field, as large as its span: made at
 * the first, released once the choice is made. */
static void unmake(struct tn_online *on)
{
	if (on->sa)
		rt_free(on->sa);
	if (on->sb)
		rt_free(on->sb);
	on->sa = on->sb = NULL;
	on->slen = 0;
}

static int scratch(struct tn_online *on, long long len, char *why, size_t n)
{
	const int es = tn_elem_size(&on->pb);
	if (on->slen < len) {
		unmake(on);
		if (rt_alloc(&on->sa, (size_t)(len * es), why, n) ||
		    rt_alloc(&on->sb, (size_t)(len * es), why, n))
			return FDT_FAIL;
		on->slen = len;
	}
	return !on->res && rt_alloc(&on->res, 4 * sizeof(unsigned long long), why, n);
}

void tn_on_release(struct tn_online *on)
{
	unmake(on);
	if (on->res)
		rt_free(on->res);
	on->res = NULL;
}

/* Validates candidate i against the user's kernel on scratch copies of the
 * output field (the inputs are the user's, read alike by both), compared
 * on the GPU where the comparison kernel was built (else
 * on the host, tn_on_compare). 0, or 1 with why (what was wrong, or what
 * could not be done). */
static int validate(struct tn_online *on, int i, const struct tn_on_call *k, char *why, size_t n)
{
	const int es = tn_elem_size(&on->pb), poison = !reads_out(on, i);
	void *pa[TN_ON_FIELDS], *pb[TN_ON_FIELDS];
	void *ha = NULL, *hb = NULL;
	const char *out;        /* the output's span, from its start */
	long long lead, len;
	int rc = FDT_FAIL;

	tn_on_span(&on->pb, k->g, k->fields[0], &lead, &len);
	out = (const char *)k->fields[0] - lead * es;
	if (scratch(on, len, why, n) || rt_copy(on->sa, out, (size_t)(len * es), why, n) ||
	    (poison ? rt_fill(on->sb, 0xff, (size_t)(len * es), why, n) :
	     rt_copy(on->sb, out, (size_t)(len * es), why, n)))
		return FDT_FAIL;
	pa[0] = (char *)on->sa + lead * es;
	pb[0] = (char *)on->sb + lead * es;
	for (int f = 1; f < k->nf; f++)
		pa[f] = pb[f] = k->fields[f];       /* const in the ABI: read, never written */
	if (k->dflt(k->ctx, pa))
		return snprintf(why, n, "the program's kernel failed on the copies"), FDT_FAIL;
	if (launch(on, i, pb, k, why, n))
		return FDT_FAIL;
	if (!on->cmp && on->cmp_prog.code && rt_load(&on->cmp_prog, "fdt_cmp", &on->cmp, why, n))
		on->cmp = NULL;         /* the host compares */
	if (on->cmp) {
		unsigned long long bad;
		long long first;
		double big, worst;
		if (compare_gpu(on, k->g, on->sa, on->sb, lead, len, poison, &bad, &first,
				&big, &worst, why, n))
			return FDT_FAIL;
		if (!bad)
			return FDT_OK;
		snprintf(why, n, "%llu elements wrong, the first %lld elements from point (0,0,0); "
			 "the largest interior |difference| from the program's kernel %.3g, over "
			 "the tolerance %.1g x %.3g, or an element outside the interior written",
			 bad, first, worst, es == 8 ? 1e-10 : 1e-4, big);
		return FDT_FAIL;
	}
	if (rt_sync(why, n))
		return FDT_FAIL;
	if (!(ha = malloc((size_t)(len * es))) || !(hb = malloc((size_t)(len * es)))) {
		snprintf(why, n, "out of memory for the comparison");
		goto out;
	}
	if (rt_download(ha, on->sa, (size_t)(len * es), why, n) ||
	    rt_download(hb, on->sb, (size_t)(len * es), why, n))
		goto out;
	rc = tn_on_compare(&on->pb, k->g, ha, hb, lead, len, poison, why, n);
out:
	free(ha);
	free(hb);
	return rc;
}

/* Loads candidate i's code and gives its launches their dynamic LDS. */
static int load(struct tn_online *on, int i, char *why, size_t n)
{
	struct tn_on_cand *c = &on->c[i];
	if (rt_load(&c->prog, "fdt_kernel", &c->kern, why, n))
		return FDT_FAIL;
	if (rt_set_lds(c->kern, (unsigned)c->lds, why, n)) {
		rt_unload(c->kern);
		c->kern = NULL;
		return FDT_FAIL;
	}
	return FDT_OK;
}

static void dropped(struct tn_online *on, int i, const char *what, const char *why)
{
	char m[700];
	snprintf(m, sizeof m, "%s: %s", what, why);
	tn_on_drop(on, i, m);
	fprintf(stderr, "fdtune online: candidate #%d (%s) dropped: %s; the run goes on\n", i + 1,
		on->c[i].params, m);
}

/* Starts the runtime on the program's GPU, once, and checks that the
 * program's fields lie in its memory; without a GPU, or with a field
 * elsewhere (host memory, another GPU), drops every candidate and settles
 * on the program's kernel, untried: such a run has nothing to keep
 * (tn_on_save), so no failure of its making is recorded against them. */
static void start(struct tn_online *on, const struct tn_on_call *k)
{
	char why[400] = "no GPU", e[300];
	struct rt_dev d;
	int nd = 0, yes = 1;
	if (!rt_init(&nd, why, sizeof why) && on->ordinal < nd &&
	    !rt_device(on->ordinal, &d, why, sizeof why)) {
		for (int f = 0; f < k->nf && yes; f++)
			if (rt_device_mem(k->fields[f], &yes, e, sizeof e)) {
				snprintf(why, sizeof why, "field %d of the step: %s", f, e);
				yes = 0;
			} else if (!yes)
				snprintf(why, sizeof why, "field %d of the step is not in the memory "
					 "of GPU %d (online tuning runs its candidates on the "
					 "program's fields: pass device pointers, from hipMalloc or "
					 "cudaMalloc)", f, on->ordinal);
		if (yes) {
			on->gpu = 1;
			return;
		}
	} else if (!nd && !strcmp(why, "no GPU"))
		snprintf(why, sizeof why, "no GPU %d here", on->ordinal);
	on->gpu = -1;
	fprintf(stderr, "fdtune online: %s; the program's kernel runs every step\n", why);
	for (int i = 0; i < on->nc; i++)
		tn_on_drop(on, i, why);
	on->settled = 1;
	on->chosen = TN_ON_DEFAULT;
}

int tn_on_step(struct tn_online *on, const struct tn_on_call *k, char *err, size_t n)
{
	char why[512];
	int i, timed;
	float ms = 0;

	if (k->nf < 1 || k->nf > TN_ON_FIELDS || !k->dflt || !k->g || !k->coef)
		return snprintf(err, n, "online step: 1..%d fields, the grid, the weights and the "
				"program's kernel are needed", TN_ON_FIELDS), FDT_USAGE;
	if (!on->gpu)
		start(on, k);
	i = tn_on_next(on);
	/* the loads and validations are timed from an empty queue: the steps
	 * launched ahead, untimed, are not theirs */
	if (i >= 0 && !on->c[i].kern) {
		double t0 = rt_sync(why, sizeof why) ? 0 : 1e3 * tn_now_s();
		int bad = load(on, i, why, sizeof why);
		if (t0 > 0)
			on->load_ms += 1e3 * tn_now_s() - t0;
		if (bad) {
			dropped(on, i, "load", why);
			i = TN_ON_DEFAULT;
		}
	}
	if (i >= 0 && tn_on_state_of(on, i) == TN_ON_BUILT) {
		double t0 = rt_sync(why, sizeof why) ? 0 : 1e3 * tn_now_s();
		int bad = validate(on, i, k, why, sizeof why);
		if (t0 > 0)
			on->check_ms += 1e3 * tn_now_s() - t0;
		tn_on_checked(on, i, !bad, why);
		if (bad) {
			fprintf(stderr, "fdtune online: candidate #%d (%s) dropped: validation: %s; "
				"the run goes on\n", i + 1, on->c[i].params, why);
			i = TN_ON_DEFAULT;
		}
	}
	timed = !on->settled && !on->idle;
	if (timed && !on->timer && rt_timer_new(&on->timer, why, sizeof why))
		timed = 0;
	if (timed && rt_timer_start(on->timer, why, sizeof why))
		timed = 0;
	if (i >= 0 && launch(on, i, k->fields, k, why, sizeof why)) {
		dropped(on, i, "launch", why);
		i = TN_ON_DEFAULT;
		timed = 0;
	}
	if (i == TN_ON_DEFAULT && k->dflt(k->ctx, k->fields))
		return snprintf(err, n, "online step: the program's own kernel failed"), FDT_FAIL;
	if (timed && !rt_timer_stop(on->timer, &ms, why, sizeof why))
		tn_on_timed(on, i, ms);
	if (on->settled && on->res)
		tn_on_release(on);      /* no validation is left */
	return FDT_OK;
}
