/*
 * tn_hshare.c: the sweep's shared host data (tn_hshare.h). One slot a
 * problem, each NONE, MAKING, READY or FAILED, under one lock; whoever
 * turns a slot from NONE to MAKING makes it outside the lock, so no problem
 * is made twice at once, and the other waits on the condition.
 */
#define _GNU_SOURCE
#include "fdt_rc.h"
#include "tn_hshare.h"
#include "tn_hdata.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NONE, MAKING, READY, FAILED };

struct slot {
	struct tn_problem pb;           /* a copy: an orphaned thread outlives the caller's */
	struct tn_hdata h;
	int state, skip;
	unsigned long long used;        /* the clock at its last ask */
	double bytes;
};

struct tn_hshare {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t th;
	int n, quit, thread;
	int busy, orphan;               /* the thread is making a slot; it frees s at its end */
	struct slot *s;
	double budget, held;            /* bytes: allowed, and of MAKING and READY slots */
	unsigned long long clock;
	struct tn_hshare_stats st;
};

/* Makes slot j, which the caller turned to MAKING and counted in held;
 * takes and leaves the lock held. */
static void make(struct tn_hshare *s, int j)
{
	struct slot *t = &s->s[j];
	char err[512];
	double t0 = tn_now_s();
	int rc;
	pthread_mutex_unlock(&s->mu);
	rc = tn_hdata_make(&t->h, &t->pb, 1, err, sizeof err);
	if (!rc && t->h.fd < 0) {       /* made, but no other process can map it */
		snprintf(err, sizeof err, "no memory file could be made to share them");
		tn_hdata_free(&t->h);
		rc = 1;
	}
	if (rc)
		fprintf(stderr, "fdtune: the fields and reference of %s R=%d %dx%dx%d: %s; each "
			"worker computes its own\n", t->pb.fam->name, t->pb.r, t->pb.nx,
			t->pb.ny, t->pb.nz, err);
	pthread_mutex_lock(&s->mu);
	s->st.make_s += tn_now_s() - t0;
	if (rc) {
		t->state = FAILED;
		s->held -= t->bytes;
	} else {
		t->state = READY;
		s->st.made++;
	}
	pthread_cond_broadcast(&s->cv);
}

static void destroy(struct tn_hshare *s);

/* The thread: each problem in order that fits the budget, not skipped. Told
 * to quit while it makes one (tn_hshare_free), it ends that one and then
 * frees everything itself. */
static void *ahead(void *p)
{
	struct tn_hshare *s = p;
	int orphan;
	/* at the sweep's priority, above the compile threads (TN_NICE): lowered
	 * with them (v72), the references took twice as long, and the one
	 * run of the plan was slower (results/NOTES.md v72) */
	pthread_mutex_lock(&s->mu);
	for (int j = 0; j < s->n && !s->quit; j++) {
		struct slot *t = &s->s[j];
		if (t->state != NONE || t->skip || s->held + t->bytes > s->budget)
			continue;
		t->state = MAKING;
		s->held += t->bytes;
		s->busy = 1;
		make(s, j);
		s->busy = 0;
	}
	orphan = s->orphan;
	pthread_mutex_unlock(&s->mu);
	if (orphan)
		destroy(s);
	return NULL;
}

int tn_hshare_new(struct tn_hshare **sp, const struct tn_problem *const *pbs, int n,
		  double budget, char *err, size_t en)
{
	struct tn_hshare *s = calloc(1, sizeof *s);
	sigset_t all, old;
	*sp = NULL;
	if (!s || !(s->s = calloc((size_t)(n > 0 ? n : 1), sizeof *s->s))) {
		free(s);
		snprintf(err, en, "out of memory");
		return FDT_FAIL;
	}
	s->n = n;
	s->budget = budget;
	for (int j = 0; j < n; j++) {
		s->s[j].pb = *pbs[j];
		s->s[j].bytes = (double)tn_hdata_size(pbs[j]);
		s->s[j].h.fd = -1;
	}
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
	/* signals go to the sweep's thread, whose poll they interrupt */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	s->thread = !pthread_create(&s->th, NULL, ahead, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	*sp = s;                /* without the thread, each is made when asked */
	return FDT_OK;
}

/* Under the lock: frees READY slot j, its bytes back in the budget. */
static void drop(struct tn_hshare *s, int j)
{
	tn_hdata_free(&s->s[j].h);
	s->s[j].state = NONE;
	s->held -= s->s[j].bytes;
}

void tn_hshare_skip(struct tn_hshare *s, int j)
{
	pthread_mutex_lock(&s->mu);
	s->s[j].skip = 1;
	if (s->s[j].state == READY)     /* made ahead before the skip: its room back */
		drop(s, j);
	pthread_mutex_unlock(&s->mu);
}

/* Under the lock: releases the least recently asked READY slots other than
 * j until j's bytes fit the budget, or none is left to release. */
static void room(struct tn_hshare *s, int j)
{
	while (s->held + s->s[j].bytes > s->budget) {
		int v = -1;
		for (int i = 0; i < s->n; i++)
			if (i != j && s->s[i].state == READY && (v < 0 || s->s[i].used < s->s[v].used))
				v = i;
		if (v < 0)
			return;
		drop(s, v);
		s->st.released++;
	}
}

void tn_hshare_get(struct tn_hshare *s, int j, char *path, size_t pn)
{
	struct slot *t = &s->s[j];
	double t0 = tn_now_s();
	pthread_mutex_lock(&s->mu);
	t->used = ++s->clock;
	while (t->state == MAKING)
		pthread_cond_wait(&s->cv, &s->mu);
	if (t->state == NONE) {
		room(s, j);
		t->state = MAKING;
		s->held += t->bytes;
		make(s, j);
	}
	if (t->state == READY)
		tn_hdata_path(&t->h, path, pn);
	else if (pn)
		*path = 0;
	s->st.wait_s += tn_now_s() - t0;
	pthread_mutex_unlock(&s->mu);
}

void tn_hshare_stats(struct tn_hshare *s, struct tn_hshare_stats *st)
{
	pthread_mutex_lock(&s->mu);
	*st = s->st;
	pthread_mutex_unlock(&s->mu);
}

/* Frees s and every slot made; the thread has ended. */
static void destroy(struct tn_hshare *s)
{
	for (int j = 0; j < s->n; j++)
		if (s->s[j].state == READY)
			tn_hdata_free(&s->s[j].h);
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->cv);
	free(s->s);
	free(s);
}

void tn_hshare_free(struct tn_hshare *s)
{
	int orphan;
	if (!s)
		return;
	pthread_mutex_lock(&s->mu);
	s->quit = 1;
	/* a problem in the making (seconds at 512^3, more beyond) is not waited
	 * for: the thread ends it, then frees s (a sweep refused or stopped
	 * early returns at once) */
	orphan = s->orphan = s->thread && s->busy;
	pthread_mutex_unlock(&s->mu);
	if (orphan) {
		pthread_detach(s->th);
		return;
	}
	if (s->thread)
		pthread_join(s->th, NULL);
	destroy(s);
}
