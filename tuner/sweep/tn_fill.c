/*
 * tn_fill.c: runs for a GPU that would wait. In a step bound by its compiles
 * (a cold cache), a GPU with room and nothing built for it takes a
 * configuration of the step's job whose code is built already: one that
 * differs from a configuration built in this step in launch parameters
 * alone (tn_param: xyz's nw), so that the same code runs it. Only for a job
 * whose search runs its whole space, where every configuration runs anyway:
 * a fill changes the order of the runs, not the work, and its outcome goes
 * to the search as any other's (tn_search_take). FDTUNE_FILL=0 turns it off.
 *
 * Contract: tn_fill_keep sees the built items the step hands to a GPU while
 * its pool compiles, before their code goes to the worker; it keeps one
 * build a source; tn_fill_take, asked only while the
 * step's pool compiles, gives a built item (the caller's, as one from the
 * pool) or NULL; tn_fill_end frees what the step kept. A job's ring of
 * configurations of one source is made once.
 */
#define _GNU_SOURCE
#include "tn_run.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

void tn_source_key(const struct tn_family *f, const int *v, int *k)
{
	for (int i = 0; i < f->np; i++)
		k[i] = tn_param_launch(f, v, i) ? INT_MIN : v[i];
	for (int i = f->np; i < TN_MAXP; i++)
		k[i] = 0;
}

static int cmp(const void *a, const void *b, void *arg)
{
	const struct tn_job *j = arg;
	const struct tn_family *f = j->pb->fam;
	int ka[TN_MAXP], kb[TN_MAXP];
	tn_source_key(f, j->cfgs + *(const long long *)a * TN_MAXP, ka);
	tn_source_key(f, j->cfgs + *(const long long *)b * TN_MAXP, kb);
	for (int i = 0; i < f->np; i++)
		if (ka[i] != kb[i])
			return ka[i] < kb[i] ? -1 : 1;
	return 0;
}

int tn_job_ring(struct tn_job *j)
{
	long long *ord;
	if (j->ring)
		return 1;
	if (j->nv < 2 || !(ord = malloc((size_t)j->nv * sizeof *ord)))
		return 0;
	if (!(j->ring = malloc((size_t)j->nv * sizeof *j->ring))) {
		free(ord);
		return 0;
	}
	for (long long i = 0; i < j->nv; i++)
		ord[i] = i;
	qsort_r(ord, (size_t)j->nv, sizeof *ord, cmp, j);
	for (long long i = 0, g = 0; i < j->nv; i++) {
		int last = i + 1 == j->nv || cmp(&ord[i], &ord[i + 1], j);
		j->ring[ord[i]] = last ? ord[g] : ord[i + 1];
		if (last)
			g = i + 1;
	}
	free(ord);
	return 1;
}

int tn_job_whole(const struct tn_run *c, const struct tn_job *j)
{
	return c->gpu && j->search && !c->o->recheck && c->o->max_configs <= 0 &&
	       j->target >= j->nv;
}

int tn_step_whole(const struct tn_run *c)
{
	return tn_job_whole(c, c->cur);
}

/* 1 when the step's job may take fills: swept whole (tn_step_whole: a cap
 * would make what runs depend on compile times) and not FDTUNE_FILL=0. */
int tn_fill_on(const struct tn_run *c)
{
	return !c->fill_off && tn_step_whole(c);
}

/* An unknown configuration of its source other than it, or -1. */
static long long sibling(const struct tn_job *j, const struct tn_item *it)
{
	for (long long s = j->ring[it->idx]; s != it->idx; s = j->ring[s])
		if (!tn_search_known(j->search, s))
			return s;
	return -1;
}

/* Drops kept item k. */
static void drop(struct tn_run *c, int k)
{
	tn_item_clear(c->kept[k]);
	free(c->kept[k]);
	memmove(c->kept + k, c->kept + k + 1, (size_t)(c->nkept - k - 1) * sizeof *c->kept);
	c->nkept--;
}

/* 1 when a build of configuration i's source is kept. */
static int kept(const struct tn_run *c, const struct tn_job *j, long long i)
{
	for (int k = 0; k < c->nkept; k++)
		for (long long s = j->ring[i];; s = j->ring[s]) {
			if (s == c->kept[k]->idx)
				return 1;
			if (s == i)
				break;
		}
	return 0;
}

void tn_fill_keep(struct tn_run *c, const struct tn_item *it)
{
	struct tn_job *j = c->cur;
	struct tn_item *q;
	if (it->bad_gen || it->bad_compile || !it->prog.code || !tn_fill_on(c) || !tn_job_ring(j) ||
	    sibling(j, it) < 0 || kept(c, j, it->idx) || !(q = calloc(1, sizeof *q)))
		return;
	memcpy(q->v, it->v, sizeof q->v);
	q->idx = it->idx;
	tn_item_share(it, q);
	if (q->bad_compile) {
		tn_item_clear(q);
		free(q);
		return;
	}
	/* full: those with nothing left to run go, else the oldest */
	for (int k = c->nkept - 1; c->nkept == TN_FILL_KEEP && k >= 0; k--)
		if (sibling(j, c->kept[k]) < 0)
			drop(c, k);
	if (c->nkept == TN_FILL_KEEP)
		drop(c, 0);
	c->kept[c->nkept++] = q;
}

struct tn_item *tn_fill_take(struct tn_run *c)
{
	struct tn_job *j = c->cur;
	if (!c->nkept || tn_stopping(c) || tn_maxed(c))
		return NULL;
	for (int k = c->nkept - 1; k >= 0; k--) {       /* the newest first */
		struct tn_item *b = c->kept[k], *it;
		long long s = sibling(j, b);
		if (s < 0) {            /* its source has nothing left to run */
			drop(c, k);
			continue;
		}
		if (!(it = calloc(1, sizeof *it)))
			return NULL;
		memcpy(it->v, j->cfgs + s * TN_MAXP, sizeof it->v);
		it->idx = s;
		it->ms = -1;
		tn_item_share(b, it);
		/* out of memory copying, or over budget: nothing is taken */
		if (it->bad_compile || !tn_search_take(j->search, s)) {
			tn_item_clear(it);
			free(it);
			return NULL;
		}
		j->proposed++;
		c->issued++;
		c->filled++;
		return it;
	}
	return NULL;
}

void tn_fill_end(struct tn_run *c)
{
	while (c->nkept)
		drop(c, c->nkept - 1);
}
