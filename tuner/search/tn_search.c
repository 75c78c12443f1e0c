/*
 * tn_search.c: the search strategies of tn_search.h. Configurations are
 * located by their parameter values through a dense table indexed by the
 * position of each value in its (sorted, distinct) domain, so the neighbours
 * of a configuration are found in O(parameters).
 */
#include "fdt_rc.h"
#include "tn_search.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tn_search {
	enum tn_strategy kind;
	const int *cfg;
	int np;
	long long n, budget, used, cursor;
	double *t;              /* NAN: not evaluated; INFINITY: failed */
	long long *perm;        /* random order (random, and guided's start) */
	int nd[TN_MAXP], dom[TN_MAXP][TN_MAXV];
	long long *where;       /* dense code -> index, -1 where none */
	long long ncode;
	char *expanded;         /* guided: bit 0 neighbourhood already proposed,
				 * bit 1 its detours (neighbours()) */
	char *prop;             /* proposed by tn_search_next, or taken (tn_search_take) */
	long long pending;      /* proposed and not yet reported */
	long long taken;        /* of used, taken by the caller (tn_search_take) */
	long long start;        /* guided: evaluations of the random start; transfer:
				 * the most spent on seeds before the local search */
	long long *seed, nseed, seedcur;       /* transfer: seed indices, best first */
	unsigned long long rng;
};

static unsigned long long next_rand(unsigned long long *s)
{
	unsigned long long z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int pos(const struct tn_search *s, int k, int v)
{
	for (int i = 0; i < s->nd[k]; i++)
		if (s->dom[k][i] == v)
			return i;
	return -1;
}

/* Dense code of a vector of domain positions. */
static long long code(const struct tn_search *s, const int *p)
{
	long long c = 0;
	for (int k = 0; k < s->np; k++)
		c = c * s->nd[k] + p[k];
	return c;
}

int tn_strategy_parse(const char *name, enum tn_strategy *s)
{
	static const char *const names[] = { "exhaustive", "random", "guided", "transfer" };
	for (int i = 0; i < 4; i++)
		if (!strcmp(name, names[i])) {
			*s = (enum tn_strategy)i;
			return 0;
		}
	return 1;
}

const char *tn_strategy_name(enum tn_strategy s)
{
	return s == TN_EXHAUSTIVE ? "exhaustive" : s == TN_RANDOM ? "random" :
	       s == TN_GUIDED ? "guided" : "transfer";
}

int tn_search_new(enum tn_strategy kind, const int *cfg, int np, long long n, long long budget,
		  unsigned long long seed, struct tn_search **out, char *err, size_t en)
{
	struct tn_search *s = calloc(1, sizeof *s);
	*out = NULL;
	if (!s || np > TN_MAXP || n < 1)
		goto fail;
	s->kind = kind;
	s->cfg = cfg;
	s->np = np;
	s->n = n;
	s->budget = budget > 0 && budget < n ? budget : n;
	s->rng = seed;
	if (!(s->t = malloc((size_t)n * sizeof *s->t)) ||
	    !(s->perm = malloc((size_t)n * sizeof *s->perm)) || !(s->expanded = calloc((size_t)n, 1)) ||
	    !(s->prop = calloc((size_t)n, 1)))
		goto fail;
	for (long long i = 0; i < n; i++) {
		s->t[i] = NAN;
		s->perm[i] = i;
	}
	for (long long i = n - 1; i > 0; i--) {         /* Fisher-Yates */
		long long j = (long long)(next_rand(&s->rng) % (unsigned long long)(i + 1)), x = s->perm[i];
		s->perm[i] = s->perm[j];
		s->perm[j] = x;
	}
	/* domains: the distinct values of each parameter, sorted */
	for (long long i = 0; i < n; i++)
		for (int k = 0; k < np; k++) {
			int v = cfg[i * np + k], p = pos(s, k, v), j;
			if (p >= 0)
				continue;
			if (s->nd[k] == TN_MAXV) {
				snprintf(err, en, "search: parameter %d has more than %d values", k, TN_MAXV);
				goto fail2;
			}
			for (j = s->nd[k]++; j > 0 && s->dom[k][j - 1] > v; j--)
				s->dom[k][j] = s->dom[k][j - 1];
			s->dom[k][j] = v;
		}
	s->ncode = 1;
	for (int k = 0; k < np; k++) {
		s->ncode *= s->nd[k];
		if (s->ncode > (1LL << 26)) {
			snprintf(err, en, "search: the space spans more than 2^26 parameter vectors");
			goto fail2;
		}
	}
	if (!(s->where = malloc((size_t)s->ncode * sizeof *s->where)))
		goto fail;
	memset(s->where, 0xff, (size_t)s->ncode * sizeof *s->where);
	for (long long i = 0; i < n; i++) {
		int p[TN_MAXP];
		for (int k = 0; k < np; k++)
			p[k] = pos(s, k, cfg[i * np + k]);
		s->where[code(s, p)] = i;
	}
	s->start = kind == TN_TRANSFER ? (s->budget + 1) / 2 : (long long)ceil(0.03 * (double)n);
	if (s->start > s->budget)
		s->start = s->budget;
	*out = s;
	return FDT_OK;
fail:
	snprintf(err, en, "search: out of memory or an empty space");
fail2:
	tn_search_free(s);
	return FDT_FAIL;
}

void tn_search_free(struct tn_search *s)
{
	if (!s)
		return;
	free(s->t);
	free(s->perm);
	free(s->where);
	free(s->expanded);
	free(s->seed);
	free(s->prop);
	free(s);
}

/* A copy of n items of size sz at p (NULL where there are none); *bad set
 * when memory is out. */
static void *dup_of(const void *p, long long n, size_t sz, int *bad)
{
	void *d;
	if (!p || n <= 0)
		return NULL;
	if ((d = malloc((size_t)n * sz)))
		memcpy(d, p, (size_t)n * sz);
	else
		*bad = 1;
	return d;
}

int tn_search_peek(const struct tn_search *s, long long *idx, int max)
{
	struct tn_search c = *s;        /* where: read-only after tn_search_new, shared */
	int bad = 0, m = -1;
	c.t = dup_of(s->t, s->n, sizeof *s->t, &bad);
	c.perm = dup_of(s->perm, s->n, sizeof *s->perm, &bad);
	c.expanded = dup_of(s->expanded, s->n, 1, &bad);
	c.prop = dup_of(s->prop, s->n, 1, &bad);
	c.seed = dup_of(s->seed, s->nseed, sizeof *s->seed, &bad);
	if (!bad)
		m = tn_search_next(&c, idx, max);
	free(c.t);
	free(c.perm);
	free(c.expanded);
	free(c.prop);
	free(c.seed);
	return m;
}

int tn_search_known(const struct tn_search *s, long long i)
{
	return i < 0 || i >= s->n || s->prop[i] || !isnan(s->t[i]);
}

int tn_search_take(struct tn_search *s, long long i)
{
	if (tn_search_known(s, i) || s->used >= s->budget)
		return 0;
	s->prop[i] = 1;
	s->pending++;
	s->used++;
	s->taken++;
	return 1;
}

void tn_search_report(struct tn_search *s, long long i, double ms)
{
	if (i < 0 || i >= s->n)
		return;
	if (s->prop[i] && isnan(s->t[i]))
		s->pending--;
	s->t[i] = ms >= 0 ? ms : INFINITY;
}

/* The fastest evaluated configuration, or -1; with open, of those whose
 * neighbourhood is unexplored. */
static long long best(const struct tn_search *s, int open)
{
	long long b = -1;
	for (long long i = 0; i < s->n; i++)
		if (!isnan(s->t[i]) && !isinf(s->t[i]) && !(open && s->expanded[i] & 1) &&
		    (b < 0 || s->t[i] < s->t[b]))
			b = i;
	return b;
}

/* Appends configuration j (-1: outside the space) to idx[0..*m) unless it
 * is evaluated, proposed or there already; 0 when it should go in and idx
 * is full (max). */
static int add(const struct tn_search *s, long long j, long long *idx, int *m, int max)
{
	if (tn_search_known(s, j))
		return 1;
	for (int u = 0; u < *m; u++)
		if (idx[u] == j)
			return 1;
	if (*m >= max)
		return 0;
	idx[(*m)++] = j;
	return 1;
}

/* Appends the unevaluated, unproposed neighbours of c to idx[0..*m), not
 * repeating any, up to max entries in all, and advances *m. Returns 1 when
 * every such neighbour is in idx (c's neighbourhood is then expanded), 0
 * when max cut it short: the caller leaves c open, and a later call goes on
 * with the neighbours not yet proposed. A sweep that proposes one or two at
 * a time (a live sweep keeps few outstanding) thus still expands every
 * neighbourhood whole, not its first neighbour alone (NOTES v58). */
static int neighbours(const struct tn_search *s, long long c, int detour, long long *idx,
		      int *m, int max)
{
	int p[TN_MAXP];
	for (int k = 0; k < s->np; k++)
		p[k] = pos(s, k, s->cfg[c * s->np + k]);
	/* one step along one parameter; with detour, where that step leaves
	 * the space (a constraint refuses it), the same step with one step
	 * along another parameter: a way round the constraint (vec 4 from vec
	 * 2 ypt 2, whose queues would not fit, as vec 4 ypt 1: NOTES v61) */
	for (int k = 0; k < s->np; k++)
		for (int d = -1; d <= 1; d += 2) {
			int q = p[k] + d, ok = 1;
			if (q < 0 || q >= s->nd[k])
				continue;
			p[k] = q;
			if (!detour)
				ok = add(s, s->where[code(s, p)], idx, m, max);
			else if (s->where[code(s, p)] < 0)
				for (int k2 = 0; k2 < s->np && ok; k2++)
					for (int d2 = -1; d2 <= 1 && ok; d2 += 2) {
						int q2 = p[k2] + d2;
						long long j;
						if (k2 == k || q2 < 0 || q2 >= s->nd[k2])
							continue;
						p[k2] = q2;
						j = s->where[code(s, p)];
						p[k2] -= d2;
						ok = add(s, j, idx, m, max);
					}
			p[k] -= d;
			if (!ok)
				return 0;
		}
	return 1;
}

/* Up to max unproposed configurations at random. */
static int at_random(struct tn_search *s, long long *idx, int m, int max)
{
	for (; m < max && s->cursor < s->n; s->cursor++)
		if (isnan(s->t[s->perm[s->cursor]]) && !s->prop[s->perm[s->cursor]])
			idx[m++] = s->perm[s->cursor];
	return m;
}

/* Transfer: the seeds up to s->start, then, whenever every outcome is in,
 * the neighbours of the best configuration not yet expanded (a descent:
 * asked for a whole neighbourhood at once it is steepest descent, and a
 * live sweep and a replay propose the same; asked for fewer, the rest of
 * the neighbourhood comes at the next call, unless a better configuration
 * was found meanwhile); when no neighbour is left, the other seeds, then
 * at random. */
static int transfer_next(struct tn_search *s, long long *idx, int max)
{
	int m = 0;
	long long c;
	for (; m < max && s->used - s->taken + m < s->start && s->seedcur < s->nseed; s->seedcur++)
		if (isnan(s->t[s->seed[s->seedcur]]) && !s->prop[s->seed[s->seedcur]])
			idx[m++] = s->seed[s->seedcur];
	if (m || s->pending)
		return m;
	while (!m && (c = best(s, 1)) >= 0)
		s->expanded[c] |= neighbours(s, c, 0, idx, &m, max);
	for (; !m && s->seedcur < s->nseed; s->seedcur++)
		if (isnan(s->t[s->seed[s->seedcur]]) && !s->prop[s->seed[s->seedcur]])
			idx[m++] = s->seed[s->seedcur];
	/* a few at random, each a new start for the descent */
	return m ? m : at_random(s, idx, 0, max < 8 ? max : 8);
}

int tn_search_next(struct tn_search *s, long long *idx, int max)
{
	int m = 0;
	long long left = s->budget - s->used;
	if (left <= 0 || max <= 0)
		return 0;
	if (max > left)
		max = (int)left;
	if (s->kind == TN_EXHAUSTIVE || s->kind == TN_RANDOM) {
		for (; m < max && s->cursor < s->n; s->cursor++) {
			long long i = s->kind == TN_EXHAUSTIVE ? s->cursor : s->perm[s->cursor];
			if (isnan(s->t[i]) && !s->prop[i])     /* not known nor taken */
				idx[m++] = i;
		}
	} else if (s->kind == TN_TRANSFER) {
		m = transfer_next(s, idx, max);
	} else if (s->used - s->taken < s->start) {     /* guided: the start, seeds first */
		/* each marked proposed as it is taken: the random order meets the
		 * seeds too, and one of them met in the same batch would go twice */
		for (; m < max && s->used - s->taken + m < s->start && s->seedcur < s->nseed;
		     s->seedcur++)
			if (isnan(s->t[s->seed[s->seedcur]]) && !s->prop[s->seed[s->seedcur]])
				s->prop[idx[m++] = s->seed[s->seedcur]] = 1;
		for (; m < max && s->used - s->taken + m < s->start && s->cursor < s->n; s->cursor++)
			if (isnan(s->t[s->perm[s->cursor]]) && !s->prop[s->perm[s->cursor]])
				idx[m++] = s->perm[s->cursor];
	} else {                                 /* guided: local search */
		long long c = best(s, 0);
		/* the detours of the best so far once its neighbourhood is
		 * proposed (a local minimum's way round a constraint: NOTES v61),
		 * then the neighbours of the best open configuration, of the next
		 * best, until the batch is full: parallel work for the compilers */
		if (c >= 0 && s->expanded[c] == 1 && neighbours(s, c, 1, idx, &m, max))
			s->expanded[c] |= 2;
		while (m < max && (c = best(s, 1)) >= 0)
			s->expanded[c] |= neighbours(s, c, 0, idx, &m, max);
		/* every neighbourhood explored and nothing outstanding that could
		 * open another: the rest at random */
		for (; !m && !s->pending && s->cursor < s->n; s->cursor++)
			if (isnan(s->t[s->perm[s->cursor]]) && !s->prop[s->perm[s->cursor]])
				idx[m++] = s->perm[s->cursor];
	}
	for (int k = 0; k < m; k++)
		s->prop[idx[k]] = 1;
	s->pending += m;
	s->used += m;
	return m;
}

int tn_search_next_left(const struct tn_search *s)
{
	return s && s->used < s->budget &&
	       (s->kind == TN_GUIDED || s->kind == TN_TRANSFER || s->cursor < s->n);
}

void tn_search_prior(struct tn_search *s, long long i, double ms)
{
	if (i < 0 || i >= s->n || !isnan(s->t[i]))
		return;
	s->t[i] = ms >= 0 ? ms : INFINITY;
	s->used++;              /* spent by an earlier run of the same sweep */
}

long long tn_search_seed(struct tn_search *s, const int *rows, int stride, long long nrows)
{
	long long *q = realloc(s->seed, (size_t)(s->nseed + nrows + 1) * sizeof *q);
	if (!q)
		return s->nseed;
	s->seed = q;
	for (long long r = 0; r < nrows; r++) {
		int p[TN_MAXP], ok = 1, dup = 0;
		long long j;
		for (int k = 0; k < s->np && ok; k++)
			ok = (p[k] = pos(s, k, rows[r * stride + k])) >= 0;
		if (!ok || (j = s->where[code(s, p)]) < 0)
			continue;       /* pruned here, or outside the space */
		for (long long u = 0; u < s->nseed && !dup; u++)
			dup = s->seed[u] == j;
		if (!dup)
			s->seed[s->nseed++] = j;
	}
	return s->nseed;
}

long long tn_search_start_left(const struct tn_search *s, long long *seeds)
{
	long long left = s->kind == TN_GUIDED ? s->start - (s->used - s->taken) : 0, k = 0;
	left = left > 0 ? left : 0;
	for (long long u = s->seedcur; u < s->nseed && k < left; u++)
		k += isnan(s->t[s->seed[u]]) && !s->prop[s->seed[u]];
	*seeds = k;
	return left;
}

void tn_search_set_start(struct tn_search *s, long long k)
{
	s->start = k < 0 ? 0 : k < s->budget ? k : s->budget;
}
