/*
 * tn_pool.c: the compile pool of tn_pool.h. One list holds every item not
 * yet taken, in the order queued; threads claim items in that order and
 * build them outside the lock; the sweep takes built items from anywhere in
 * the list, so one slow compile does not hold back the others. A thread
 * that claims an item claims with it every queued item of the same source
 * (configurations that differ in launch parameters alone, tn_param): they
 * share its build, a copy of it each, and are compiled once. The pool counts
 * its sources (tn_pool_sources): one item of each source present counts.
 */
#define _GNU_SOURCE
#include "fdt_rc.h"
#include "tn_pool.h"
#include "gen.h"
#include "tn_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { QUEUED, BUILDING, BUILT };

struct tn_pool {
	const struct tn_problem *pb;
	int nice;               /* added to each thread's nice value (tn_lower) */
	const char *arch, *compiler, *cache;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct tn_item *head, *tail, *cursor;   /* cursor: first item not claimed */
	int nq, nsrc, quit, nt, ended, fd[2];  /* nsrc: items not dup; ended: threads returned */
	pthread_t th[TN_MAXJOBS];
};

/* Generates and compiles it, or takes the code from the compile cache. */
static void build(const struct tn_pool *po, struct tn_item *it)
{
	const struct tn_problem *pb = po->pb;
	const struct tn_family *f = pb->fam;
	if (tn_source(pb, it->v, &it->src, it->err, sizeof it->err)) {
		it->bad_gen = 1;
		it->prog.log = NULL;
		it->prog.regs = it->prog.lds = it->prog.spill = -1;    /* unknown */
		it->prog.ms = NAN;
		return;
	}
	gen_hash(it->src, it->hash);
	it->bad_compile = tn_cache_compile(po->cache, it->src, f->tmpl, po->arch, po->compiler,
					   &it->prog, &it->cached, it->err, sizeof it->err);
}

/* 1 when configurations a and b of f have one source: they differ in launch
 * parameters alone. */
static int same_code(const struct tn_family *f, const int *a, const int *b)
{
	for (int i = 0; i < f->np; i++)
		if (!tn_param_launch(f, a, i) && a[i] != b[i])
			return 0;
	return 1;
}

/* Under the lock, it just claimed: claims the unclaimed items of its source
 * too, moved to follow it (the cursor after them), each with lead = it. */
static void claim_twins(struct tn_pool *p, struct tn_item *it)
{
	struct tn_item *last = it, *prev = it, *q = it->next;
	while (q) {
		struct tn_item *nx = q->next;
		if (q->built == QUEUED && same_code(p->pb->fam, q->v, it->v)) {
			q->built = BUILDING;
			q->lead = it;
			if (prev != last) {             /* move it after the last claimed */
				prev->next = nx;
				if (p->tail == q)
					p->tail = prev;
				q->next = last->next;
				last->next = q;
			} else {
				prev = q;
			}
			last = q;
		} else {
			prev = q;
		}
		q = nx;
	}
	p->cursor = last->next;
	while (p->cursor && p->cursor->built != QUEUED)
		p->cursor = p->cursor->next;
}

void tn_item_share(const struct tn_item *it, struct tn_item *q)
{
	struct rt_prog *d = &q->prog;
	const struct rt_prog *s = &it->prog;
	q->bad_gen = it->bad_gen;
	q->bad_compile = it->bad_compile;
	memcpy(q->hash, it->hash, sizeof q->hash);
	memcpy(q->err, it->err, sizeof q->err);
	*d = *s;
	d->code = NULL;
	d->log = NULL;
	q->src = it->src ? strdup(it->src) : NULL;
	if (s->code && (d->code = malloc(s->size)))
		memcpy(d->code, s->code, s->size);
	d->log = strdup("the build of another configuration of the same source");
	if ((it->src && !q->src) || (s->code && !d->code) || !d->log) {
		q->bad_compile = 1;         /* out of memory: recorded as such */
		snprintf(q->err, sizeof q->err, "out of memory copying a shared build");
	}
	q->shared = !q->bad_gen && !q->bad_compile;
	q->build_s = 0;
}

/* Under the lock, it built: gives each item that shares its build a copy of
 * it (tn_item_share), and marks it built. */
static void give_twins(struct tn_pool *p, struct tn_item *it)
{
	for (struct tn_item *q = p->head; q; q = q->next) {
		if (q->lead != it || q->built != BUILDING)
			continue;
		q->lead = NULL;
		tn_item_share(it, q);
		q->built = BUILT;
		if (write(p->fd[1], "b", 1) < 0 && errno != EAGAIN)
			break;
	}
}

static void *thread_main(void *arg)
{
	struct tn_pool *p = arg;
	tn_lower(p->nice);
	pthread_mutex_lock(&p->mu);
	for (;;) {
		struct tn_item *it;
		double t0;
		for (;;) {      /* items that share a build under way are not claimed */
			while (p->cursor && p->cursor->built != QUEUED)
				p->cursor = p->cursor->next;
			if (p->quit || p->cursor)
				break;
			pthread_cond_wait(&p->cv, &p->mu);
		}
		if (p->quit)
			break;
		it = p->cursor;
		p->cursor = it->next;
		it->built = BUILDING;
		claim_twins(p, it);
		it->t_start = t0 = tn_now_s();
		pthread_mutex_unlock(&p->mu);
		build(p, it);
		it->build_s = tn_now_s() - t0;
		pthread_mutex_lock(&p->mu);
		give_twins(p, it);
		it->built = BUILT;
		/* a full pipe already wakes the sweep: the byte may be dropped */
		if (write(p->fd[1], "b", 1) < 0 && errno != EAGAIN)
			break;
	}
	p->ended++;
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

int tn_pool_new(struct tn_pool **pp, const struct tn_problem *pb, const char *arch,
		const char *compiler, const char *cache, int jobs, int nice, char *err,
		size_t n)
{
	struct tn_pool *p = calloc(1, sizeof *p);
	*pp = NULL;
	if (!p) {
		snprintf(err, n, "out of memory");
		return FDT_FAIL;
	}
	p->nice = nice;
	p->pb = pb;
	p->arch = arch;
	p->compiler = compiler;
	p->cache = cache;
	p->fd[0] = p->fd[1] = -1;
	if (pipe2(p->fd, O_CLOEXEC | O_NONBLOCK)) {
		snprintf(err, n, "pipe: %s", strerror(errno));
		free(p);
		return FDT_FAIL;
	}
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	for (; p->nt < (jobs < TN_MAXJOBS ? jobs : TN_MAXJOBS); p->nt++)
		if (pthread_create(&p->th[p->nt], NULL, thread_main, p))
			break;
	if (!p->nt) {
		snprintf(err, n, "cannot start a compile thread");
		tn_pool_free(p);
		return FDT_FAIL;
	}
	*pp = p;
	return FDT_OK;
}

int tn_pool_fd(const struct tn_pool *p) { return p->fd[0]; }

void tn_pool_add(struct tn_pool *p, struct tn_item *it)
{
	it->next = NULL;
	it->built = QUEUED;
	it->lead = NULL;
	it->dup = 0;
	pthread_mutex_lock(&p->mu);
	/* a build of its source under way: it shares that one; another item
	 * of its source queued or built: it is a dup, not a build of its own */
	for (struct tn_item *q = p->head; q; q = q->next)
		if (same_code(p->pb->fam, q->v, it->v)) {
			it->dup = 1;
			if (q->built == BUILDING && !q->lead) {
				it->built = BUILDING;
				it->lead = q;
				break;
			}
		}
	p->nsrc += !it->dup;
	if (p->tail)
		p->tail->next = it;
	else
		p->head = it;
	p->tail = it;
	if (!p->cursor && it->built == QUEUED)
		p->cursor = it;
	p->nq++;
	pthread_cond_signal(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

struct tn_item *tn_pool_take(struct tn_pool *p)
{
	struct tn_item *it, *prev = NULL;
	char buf[256];
	while (read(p->fd[0], buf, sizeof buf) > 0)
		;                               /* drained: we look at the list itself */
	pthread_mutex_lock(&p->mu);
	for (it = p->head; it && it->built != BUILT; it = it->next)
		prev = it;
	if (it) {
		if (prev)
			prev->next = it->next;
		else
			p->head = it->next;
		if (p->tail == it)
			p->tail = prev;
		it->next = NULL;
		p->nq--;
		/* its source's count goes to another item of it still here (a
		 * twin queued after it was built needs a build of its own where
		 * the cache is off or the build failed), else away */
		for (struct tn_item *q = p->head; q && !it->dup; q = q->next)
			if (q->dup && same_code(p->pb->fam, q->v, it->v)) {
				q->dup = 0;
				it->dup = 1;
			}
		p->nsrc -= !it->dup;
	}
	pthread_mutex_unlock(&p->mu);
	return it;
}

int tn_pool_queued(struct tn_pool *p)
{
	int q;
	pthread_mutex_lock(&p->mu);
	q = p->nq;
	pthread_mutex_unlock(&p->mu);
	return q;
}

int tn_pool_sources(struct tn_pool *p)
{
	int s;
	pthread_mutex_lock(&p->mu);
	s = p->nsrc;
	pthread_mutex_unlock(&p->mu);
	return s;
}

int tn_pool_busy(struct tn_pool *p, double min_s, int *unbuilt)
{
	int b = 0, u = 0;
	double now;
	pthread_mutex_lock(&p->mu);
	now = tn_now_s();
	for (const struct tn_item *q = p->head; q; q = q->next) {
		b += q->built == BUILDING && !q->lead && q->t_start > 0 &&
		     now - q->t_start >= min_s;
		u += q->built != BUILT;
	}
	pthread_mutex_unlock(&p->mu);
	if (unbuilt)
		*unbuilt = u;
	return b;
}

void tn_pool_quit(struct tn_pool *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->quit = 1;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

int tn_pool_ended(struct tn_pool *p)
{
	int e;
	pthread_mutex_lock(&p->mu);
	e = p->ended >= p->nt;
	pthread_mutex_unlock(&p->mu);
	return e;
}

void tn_pool_stop(struct tn_pool *p)
{
	if (!p)
		return;
	tn_pool_quit(p);
	for (int i = 0; i < p->nt; i++)
		pthread_join(p->th[i], NULL);
	p->nt = 0;
}

void tn_pool_free(struct tn_pool *p)
{
	if (!p)
		return;
	tn_pool_stop(p);
	while (p->head) {
		struct tn_item *it = p->head;
		p->head = it->next;
		tn_item_clear(it);
		free(it);
	}
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cv);
	close(p->fd[0]);
	close(p->fd[1]);
	free(p);
}

void tn_item_clear(struct tn_item *it)
{
	rt_prog_free(&it->prog);
	free(it->src);
	it->src = NULL;
}
