/*
 * tn_pcache.h: which problems of a plan a worker keeps open. A worker's
 * bench of a problem (its fields on the GPU and its CPU reference,
 * tn_bench.h) is costly to build: seconds of CPU at 512^3 R = 8 for under a
 * second of GPU work per configuration. So a worker keeps every problem it
 * opened, up to TN_PCACHE_MAX of them within a budget of device and host
 * bytes, and switching back to one it holds costs nothing; when a new one
 * does not fit, the least recently used are released first. This is the
 * policy only, pure bookkeeping over the slots [0, TN_PCACHE_MAX): the worker
 * (tn_worker.c) owns what each slot holds, and tests drive the policy
 * directly. It counts what it does, so the promise "one build of fields
 * and reference per problem per worker, one more per eviction" is checked.
 */
#ifndef TN_PCACHE_H
#define TN_PCACHE_H

#include <stddef.h>

#define TN_PCACHE_MAX 16

/* What a problem's bench costs while it is held. */
struct tn_pcost {
	double dev, host;       /* bytes */
};

struct tn_pcache {
	struct tn_pslot {
		long long key;          /* the problem; -1: the slot is free */
		struct tn_pcost cost;
		unsigned long long used;        /* the clock at its last use */
	} s[TN_PCACHE_MAX];
	struct tn_pcost budget; /* what all held benches may take together */
	unsigned long long clock;
	long long builds;       /* benches built (tn_pcache_add) */
	long long evictions;    /* benches released to make room (tn_pcache_evict) */
	long long hits;         /* switches to a problem already held */
};

/* An empty cache whose held benches may take up to budget together. */
void tn_pcache_init(struct tn_pcache *c, struct tn_pcost budget);
/* The slot holding key, now its most recently used, or -1 when none does. */
int tn_pcache_find(struct tn_pcache *c, long long key);
/* The slot to release before a bench of cost fits beside the others: the
 * least recently used one, or -1 when it fits already (a free slot, and the
 * sums within the budget) or nothing is held (one bench always gets its
 * try, whatever its cost). The caller frees what the slot holds, then calls
 * tn_pcache_evict on it, and asks again. */
int tn_pcache_victim(const struct tn_pcache *c, struct tn_pcost cost);
/* Releases slot s, counted as an eviction. */
void tn_pcache_evict(struct tn_pcache *c, int s);
/* Releases slot s without counting it: its bench could not be built. */
void tn_pcache_drop(struct tn_pcache *c, int s);
/* Takes a free slot for key at cost, counted as a build and now the most
 * recently used; -1 when no slot is free (call tn_pcache_victim first). */
int tn_pcache_add(struct tn_pcache *c, long long key, struct tn_pcost cost);
/* Slots held. */
int tn_pcache_held(const struct tn_pcache *c);

/* What a slot holds, built and released by its owner (the worker: a bench;
 * a test: a count). build returns 0 when slot s holds key's bench, else
 * nonzero with err set and nothing held. */
struct tn_pcache_ops {
	int (*build)(void *ctx, int s, long long key, char *err, size_t n);
	void (*release)(void *ctx, int s);
	void *ctx;
};
/* A switch to problem key, as the worker makes it: the slot holding key,
 * at no cost; else the least recently used released (op->release) until a
 * bench of cost fits, and key's built (op->build) in a free slot. A build
 * that fails while other benches are held releases them all and is tried
 * once more: they may hold the memory it lacked. The slot, with *built 1
 * when it was built; -1 with err set when it could not be. */
int tn_pcache_open(struct tn_pcache *c, long long key, struct tn_pcost cost,
		   const struct tn_pcache_ops *op, int *built, char *err, size_t n);

#endif
