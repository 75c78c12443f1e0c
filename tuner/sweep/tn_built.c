/*
 * tn_built.c: the sources a plan has built. A plan's problems of one family,
 * radius and precision at different sizes share their kernel sources (the
 * source does not depend on the size), so a build handed on for one problem
 * is a cache hit for the others. The set records each source built in the
 * plan, keyed by family, radius, precision and parameters, launch
 * parameters apart (tn_source_key), for two readers: a yield counts the
 * configurations of another problem whose code is built (tn_yield.c), and
 * the warm pool leaves their sources out of its rounds, where they would
 * only be cache hits (tn_warm.c).
 *
 * Contract: tn_built_note is told of every configuration whose build a step
 * (tn_record.c) or the warm pool hands on, never of a failed one;
 * tn_built_has answers for any job of the plan; tn_built_free empties the
 * set at the sweep's end. Kept only on a GPU, in a plan of two jobs or more,
 * with the compile cache on (without it what is built is not kept); out of
 * memory, a note is forgotten, which costs only a guess.
 */
#include "tn_run.h"
#include "tn_cache.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The sources built in the plan: an open-addressed set of keys. */
struct tn_built_key {
	const struct tn_family *f;
	int r, fp64, used;
	int k[TN_MAXP];
};
struct tn_built {
	struct tn_built_key *e;
	size_t cap, n;          /* cap: a power of two, n < cap / 2 */
};

/* The key of configuration v of job j into *e (used set). */
static void make_key(const struct tn_job *j, const int *v, struct tn_built_key *e)
{
	memset(e, 0, sizeof *e);
	e->f = j->pb->fam;
	e->r = j->pb->r;
	e->fp64 = !strcmp(j->pb->prec, "fp64");
	e->used = 1;
	tn_source_key(e->f, v, e->k);
}

/* FNV-1a of e's family, radius, precision and key. */
static size_t hash(const struct tn_built_key *e)
{
	uint64_t h = 1469598103934665603ULL ^ (uint64_t)(uintptr_t)e->f;
	int w[TN_MAXP + 2];
	w[0] = e->r;
	w[1] = e->fp64;
	memcpy(w + 2, e->k, sizeof e->k);
	for (int i = 0; i < TN_MAXP + 2; i++)
		h = (h ^ (uint32_t)w[i]) * 1099511628211ULL;
	return (size_t)(h ^ (h >> 29));
}

/* 1 when slot a holds key b. */
static int same(const struct tn_built_key *a, const struct tn_built_key *b)
{
	return a->used && a->f == b->f && a->r == b->r && a->fp64 == b->fp64 &&
	       !memcmp(a->k, b->k, sizeof a->k);
}

/* The slot of e in b: its own, or the empty one it would take. */
static struct tn_built_key *slot(const struct tn_built *b, const struct tn_built_key *e)
{
	size_t i = hash(e) & (b->cap - 1);
	while (b->e[i].used && !same(&b->e[i], e))
		i = (i + 1) & (b->cap - 1);
	return &b->e[i];
}

/* Doubles b's table (from nothing: 64 slots); 0 out of memory. */
static int grow(struct tn_built *b)
{
	struct tn_built old = *b;
	b->cap = old.cap ? 2 * old.cap : 64;
	if (!(b->e = calloc(b->cap, sizeof *b->e))) {
		*b = old;
		return 0;
	}
	for (size_t i = 0; i < old.cap; i++)
		if (old.e[i].used)
			*slot(b, &old.e[i]) = old.e[i];
	free(old.e);
	return 1;
}

void tn_built_note(struct tn_run *c, const struct tn_job *j, const int *v)
{
	struct tn_built_key e, *s;
	if (c->njobs < 2 || !c->gpu || !tn_cache_dir())
		return;         /* (no cache: what a step builds is not kept) */
	if (!c->built && !(c->built = calloc(1, sizeof *c->built)))
		return;         /* only guesses lost */
	if (2 * (c->built->n + 1) > c->built->cap && !grow(c->built))
		return;
	make_key(j, v, &e);
	s = slot(c->built, &e);
	if (!s->used) {
		*s = e;
		c->built->n++;
	}
}

void tn_built_free(struct tn_run *c)
{
	if (c->built)
		free(c->built->e);
	free(c->built);
	c->built = NULL;
}

int tn_built_has(const struct tn_run *c, const struct tn_job *j, long long i)
{
	struct tn_built_key e;
	if (!c->built || !c->built->n)
		return 0;
	make_key(j, j->cfgs + i * TN_MAXP, &e);
	return slot(c->built, &e)->used;
}

