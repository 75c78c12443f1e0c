/*
 * tn_transfer.c: the seeds of the transfer search. The candidates are, for
 * each relative Q of the problem P (tn_transfer.h: a problem on a device),
 * its TN_TRANSFER_TOP
 * fastest configurations and its fastest with each value of each parameter
 * (so that a variant that is second best at Q's size, and may win at P's,
 * is among them). Each relative weighs
 *
 *   w(Q) = o(Q) exp(-(|ln nx_P/nx_Q| + |ln ny_P/ny_Q| + |ln nz_P/nz_Q| + |R_P - R_Q| / 2))
 *
 * (o(Q) = TN_TRANSFER_OTHER where Q is of another device, else 1) so that a
 * relative of the same shape and radius counts most, the problem itself on
 * another GPU as much as a relative an octave away on this one, and each of
 * its candidates adds w(Q) exp(-(t / t_best(Q) - 1) / TN_TRANSFER_TAU) to
 * its score. The seeds are the candidates by score, best first. Where a
 * seed lies outside the job's domains, tn_transfer_widen adds it to the
 * space. The relatives come from the sweep's database (db_each_related)
 * or, for sweep --seeds-from, from another that need not hold the problem
 * (db_each_kin); tn_seeds_merge ranks the two sets together.
 */
#include "fdt_rc.h"
#include "tn_transfer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct acc {
	struct db *db;
	const struct tn_problem *pb;
	struct tn_seeds *s;
	long long cap, last_prob, last_dev;
	double best;            /* the fastest time of the relative last_prob */
	char err[512];
};

static double weight(const struct tn_problem *pb, const struct db_related_row *w)
{
	double d = fabs(log((double)pb->nx / w->nx)) + fabs(log((double)pb->ny / w->ny)) +
		   fabs(log((double)pb->nz / w->nz)) + 0.5 * abs(pb->r - w->radius);
	return (w->other ? TN_TRANSFER_OTHER : 1) * exp(-d);
}

static int add(void *p, const struct db_related_row *w)
{
	struct acc *a = p;
	const struct tn_family *f = a->pb->fam;
	struct tn_seeds *s = a->s;
	int v[TN_MAXP] = { 0 };
	double sc;
	long long i;

	/* a parameter recorded before it existed takes its default */
	if (tn_config_parse(a->db, f, w->params, v, NULL, a->err, sizeof a->err))
		return FDT_FAIL;
	if (w->problem_id != a->last_prob || w->device_id != a->last_dev) {
		/* its rank 1 comes first */
		s->nprob++;
		s->nother += w->other;
		a->last_prob = w->problem_id;
		a->last_dev = w->device_id;
		a->best = w->ms;
	}
	sc = weight(a->pb, w) * exp(-(w->ms / a->best - 1) / TN_TRANSFER_TAU);
	for (i = 0; i < s->n; i++)
		if (!memcmp(s->v + i * TN_MAXP, v, sizeof v)) {
			s->score[i] += sc;
			return 0;
		}
	if (s->n == a->cap) {
		long long cap = a->cap ? 2 * a->cap : 64;
		int *nv = realloc(s->v, (size_t)cap * TN_MAXP * sizeof *nv);
		double *ns;
		if (nv)
			s->v = nv;
		if (!nv || !(ns = realloc(s->score, (size_t)cap * sizeof *ns))) {
			snprintf(a->err, sizeof a->err, "out of memory for %lld seeds", cap);
			return FDT_FAIL;
		}
		s->score = ns;
		a->cap = cap;
	}
	memcpy(s->v + s->n * TN_MAXP, v, sizeof v);
	s->score[s->n++] = sc;
	return 0;
}

/* s's seeds best score first; ties keep their order (an insertion sort:
 * seeds are some hundreds). */
static void sort(struct tn_seeds *s)
{
	for (long long i = 1; i < s->n; i++) {
		int v[TN_MAXP];
		double sc = s->score[i];
		long long j = i;
		memcpy(v, s->v + i * TN_MAXP, sizeof v);
		for (; j > 0 && s->score[j - 1] < sc; j--) {
			s->score[j] = s->score[j - 1];
			memcpy(s->v + j * TN_MAXP, s->v + (j - 1) * TN_MAXP, sizeof v);
		}
		s->score[j] = sc;
		memcpy(s->v + j * TN_MAXP, v, sizeof v);
	}
}

/* tn_transfer_seeds' walk: db_each_related with the seeds' settings. */
struct rel_walk { struct db *d; struct db_related q; };

static int rel_walk(void *q, int (*fn)(void *ctx, const struct db_related_row *row), void *ctx,
		    char *err, size_t n)
{
	struct rel_walk *w = q;
	return db_each_related(w->d, &w->q, fn, ctx, err, n);
}

int tn_transfer_seeds(struct db *d, const struct db_related *q, const struct tn_problem *pb,
		      struct tn_seeds *s, char *err, size_t n)
{
	struct rel_walk w = { d, *q };
	if (w.q.k <= 0)
		w.q.k = TN_TRANSFER_TOP;
	w.q.per_value = 1;
	return tn_transfer_rank(d, rel_walk, &w, pb, s, err, n);
}

int tn_transfer_seeds_radius(struct db *d, const struct db_related *q,
			     const struct tn_problem *pb, struct tn_seeds *s, char *err, size_t n)
{
	struct db_related r = *q;
	r.radius = pb->r;
	return tn_transfer_seeds(d, &r, pb, s, err, n);
}

/* tn_transfer_seeds_kin's walk: db_each_kin, each row passed on as a
 * relative's. */
struct kin_walk {
	struct db *d;
	struct db_kin q;
	int (*fn)(void *ctx, const struct db_related_row *row);
	void *ctx;
};

static int kin_row(void *p, const struct db_kin_row *row)
{
	struct kin_walk *w = p;
	return w->fn(w->ctx, &row->r);
}

static int kin_walk(void *q, int (*fn)(void *ctx, const struct db_related_row *row), void *ctx,
		    char *err, size_t n)
{
	struct kin_walk *w = q;
	w->fn = fn;
	w->ctx = ctx;
	return db_each_kin(w->d, &w->q, kin_row, w, err, n);
}

int tn_transfer_seeds_kin(struct db *d, const struct db_kin *q, const struct tn_problem *pb,
			  struct tn_seeds *s, char *err, size_t n)
{
	struct kin_walk w = { d, *q, NULL, NULL };
	if (w.q.k <= 0)
		w.q.k = TN_TRANSFER_TOP;
	w.q.per_value = 1;      /* as tn_transfer_seeds asks of the relatives */
	return tn_transfer_rank(d, kin_walk, &w, pb, s, err, n);
}

int tn_transfer_rank(struct db *d, tn_walk walk, void *q, const struct tn_problem *pb,
		     struct tn_seeds *s, char *err, size_t n)
{
	struct acc a = { d, pb, s, 0, 0, 0, 0, "" };

	memset(s, 0, sizeof *s);
	if (walk(q, add, &a, err, n)) {
		if (*a.err)
			snprintf(err, n, "transfer: %s", a.err);
		tn_seeds_free(s);
		return FDT_FAIL;
	}
	sort(s);
	return FDT_OK;
}

int tn_seeds_merge(struct tn_seeds *s, const struct tn_seeds *t, char *err, size_t n)
{
	long long m = s->n;
	int *nv;
	double *ns;
	if (!t->n) {
		s->nprob += t->nprob;
		s->nother += t->nother;
		return FDT_OK;
	}
	nv = realloc(s->v, (size_t)(s->n + t->n + 1) * TN_MAXP * sizeof *nv);
	if (nv)
		s->v = nv;
	if (!nv || !(ns = realloc(s->score, (size_t)(s->n + t->n + 1) * sizeof *ns))) {
		snprintf(err, n, "out of memory for %lld seeds", s->n + t->n);
		return FDT_FAIL;
	}
	s->score = ns;
	for (long long r = 0; r < t->n; r++) {
		const int *v = t->v + r * TN_MAXP;
		long long i = 0;
		while (i < m && memcmp(s->v + i * TN_MAXP, v, TN_MAXP * sizeof *v))
			i++;
		if (i < m) {
			s->score[i] += t->score[r];
			continue;
		}
		memcpy(s->v + s->n * TN_MAXP, v, TN_MAXP * sizeof *v);
		s->score[s->n++] = t->score[r];
	}
	s->nprob += t->nprob;
	s->nother += t->nother;
	sort(s);
	return FDT_OK;
}

void tn_seeds_free(struct tn_seeds *s)
{
	free(s->v);
	free(s->score);
	memset(s, 0, sizeof *s);
}

int tn_transfer_widen(const struct tn_problem *pb, const struct tn_space *sp,
		      const struct tn_limits *lim, const struct tn_seeds *s, int **cfgs,
		      long long *n, long long *added, char *err, size_t en)
{
	const struct tn_family *f = pb->fam;
	struct tn_space def;
	int set[TN_MAXP], nd[TN_MAXP], dom[TN_MAXP][TN_MAXV];
	char why[256];

	*added = 0;
	tn_space_default(f, &def);
	for (int k = 0; k < f->np; k++) {
		set[k] = sp->n[k] != def.n[k] ||
			 memcmp(sp->v[k], def.v[k], (size_t)def.n[k] * sizeof def.v[k][0]);
		nd[k] = 0;
	}
	for (long long i = 0; i < *n; i++)          /* the grid's values now */
		for (int k = 0; k < f->np; k++) {
			int x = (*cfgs)[i * TN_MAXP + k], q = 0;
			while (q < nd[k] && dom[k][q] != x)
				q++;
			if (q == nd[k] && nd[k] < TN_MAXV)
				dom[k][nd[k]++] = x;
		}
	for (long long r = 0; r < s->n; r++) {
		const int *v = s->v + r * TN_MAXP;
		int ok = 1, fresh[TN_MAXP] = { 0 };
		double grid = 1;
		long long i;
		for (int k = 0; k < f->np && ok; k++) {
			int q = 0;
			ok = v[k] >= f->p[k].lo && v[k] <= f->p[k].hi;
			if (ok && set[k]) {
				ok = 0;
				for (int d = 0; d < sp->n[k]; d++)
					ok |= sp->v[k][d] == v[k];
			}
			while (q < nd[k] && dom[k][q] != v[k])
				q++;
			fresh[k] = q == nd[k];
			ok = ok && nd[k] + fresh[k] <= TN_MAXV;
			grid *= nd[k] + fresh[k];
		}
		/* a seed the default space leaves out stays out (tn_space_out) */
		if (!ok || grid > (double)(1 << 24) || f->check(pb, v, lim, why, sizeof why) ||
		    tn_space_out(sp, pb, v, why, sizeof why))
			continue;
		for (i = 0; i < *n && memcmp(*cfgs + i * TN_MAXP, v, TN_MAXP * sizeof *v); i++)
			;
		if (i < *n)
			continue;       /* in the space already */
		{
			int *q = realloc(*cfgs, (size_t)(*n + 1) * TN_MAXP * sizeof *q);
			if (!q) {
				snprintf(err, en, "out of memory widening the space");
				*n -= *added;   /* what was appended is dropped */
				*added = 0;
				return FDT_FAIL;
			}
			*cfgs = q;
		}
		memcpy(*cfgs + *n * TN_MAXP, v, TN_MAXP * sizeof *v);
		++*n;
		++*added;
		for (int k = 0; k < f->np; k++)
			if (fresh[k])
				dom[k][nd[k]++] = v[k];
	}
	return FDT_OK;
}
