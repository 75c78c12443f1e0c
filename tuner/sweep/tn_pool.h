/*
 * tn_pool.h: the compile pool of a sweep. Threads generate and compile the
 * configurations handed to them (or take the code from the compile cache)
 * while the sweep measures earlier ones on the GPU: compilation and
 * measurement overlap. The pool tells the sweep that an item is built by
 * writing a byte to a pipe, so the sweep can wait on it next to its workers.
 */
#ifndef TN_POOL_H
#define TN_POOL_H

#include "rt.h"
#include "tn.h"

struct tn_item {
	int v[TN_MAXP];
	long long idx;          /* index of the configuration in the sweep's list */
	double ms;              /* outcome for the strategy: median ms, or -1 */
	char *src, hash[17], err[1024];
	struct rt_prog prog;
	int bad_gen, bad_compile, cached;
	int shared;             /* 1: built by the pool from another configuration's
				 * build of the same source (a launch parameter apart) */
	struct tn_item *lead;   /* the pool's: the item whose build this one shares */
	int dup;                /* the pool's: not the item its source is counted by */
	double build_s;         /* generate + compile (or cache) wall time */
	double t_start;         /* the pool's: when its thread began it (tn_now_s) */
	int built;              /* set by the pool under its lock */
	long long cfg_id, build_id;     /* the sweep's: where it is recorded */
	struct tn_item *next;
};

struct tn_pool;

/* Starts jobs threads compiling for arch; compiler identifies the compiler
 * and its options for the cache, cache is its directory (NULL: off); each
 * thread lowers itself by nice steps as it starts (tn_lower; 0: not). */
int tn_pool_new(struct tn_pool **pp, const struct tn_problem *pb, const char *arch,
		const char *compiler, const char *cache, int jobs, int nice, char *err,
		size_t n);
/* The read end of the pipe that gets a byte for every item built. */
int tn_pool_fd(const struct tn_pool *p);
/* Queues it (calloc'ed, then v and idx set) for building; the pool owns it
 * until tn_pool_take returns it. */
void tn_pool_add(struct tn_pool *p, struct tn_item *it);
/* A built item, the earliest queued first, or NULL when none is built yet. */
struct tn_item *tn_pool_take(struct tn_pool *p);
/* Items queued and not yet taken. */
int tn_pool_queued(struct tn_pool *p);
/* The sources of those: one item of each counts (the first queued, then,
 * once it is taken, another of its source still queued or built). */
int tn_pool_sources(struct tn_pool *p);
/* Threads generating or compiling an item begun at least min_s seconds ago
 * (a twin waiting for another's build not counted): with min_s 0.02 the
 * compiles, not the generations that end in a cache hit (a few ms). Where
 * unbuilt is not NULL, the items queued or being built go there, counted
 * in the same walk. */
int tn_pool_busy(struct tn_pool *p, double min_s, int *unbuilt);
/* Asks the threads to end after the builds in progress and returns at once:
 * no queued item is claimed after it (NULL is allowed). */
void tn_pool_quit(struct tn_pool *p);
/* 1 once every thread has ended (after tn_pool_quit): tn_pool_stop and
 * tn_pool_free then wait for nothing. */
int tn_pool_ended(struct tn_pool *p);
/* Stops the threads after the builds in progress: what they built can
 * still be taken (NULL is allowed; again is nothing). */
void tn_pool_stop(struct tn_pool *p);
/* Stops the threads (tn_pool_stop) and frees the items not taken. */
void tn_pool_free(struct tn_pool *p);
/* Frees what building put into it. */
void tn_item_clear(struct tn_item *it);
/* Gives q (its v and idx set, nothing built) a copy of it's build (source,
 * code, resources, outcome) as the build of another configuration of the
 * same source (q->shared; bad_compile with err where memory is out). */
void tn_item_share(const struct tn_item *it, struct tn_item *q);

#endif
