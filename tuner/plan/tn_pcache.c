/*
 * tn_pcache.c: the least-recently-used policy of tn_pcache.h over a fixed
 * array of slots. Linear scans: a worker holds at most TN_PCACHE_MAX
 * problems, and it asks once per switch of problem, not per run.
 */
#include "tn_pcache.h"

#include <stdio.h>
#include <string.h>

void tn_pcache_init(struct tn_pcache *c, struct tn_pcost budget)
{
	memset(c, 0, sizeof *c);
	for (int i = 0; i < TN_PCACHE_MAX; i++)
		c->s[i].key = -1;
	c->budget = budget;
}

int tn_pcache_find(struct tn_pcache *c, long long key)
{
	for (int i = 0; i < TN_PCACHE_MAX; i++)
		if (c->s[i].key == key && key >= 0) {
			c->s[i].used = ++c->clock;
			c->hits++;
			return i;
		}
	return -1;
}

int tn_pcache_held(const struct tn_pcache *c)
{
	int k = 0;
	for (int i = 0; i < TN_PCACHE_MAX; i++)
		k += c->s[i].key >= 0;
	return k;
}

int tn_pcache_victim(const struct tn_pcache *c, struct tn_pcost cost)
{
	struct tn_pcost sum = cost;
	int lru = -1, free_slot = 0;
	for (int i = 0; i < TN_PCACHE_MAX; i++) {
		if (c->s[i].key < 0) {
			free_slot = 1;
			continue;
		}
		sum.dev += c->s[i].cost.dev;
		sum.host += c->s[i].cost.host;
		if (lru < 0 || c->s[i].used < c->s[lru].used)
			lru = i;
	}
	if (lru < 0 || (free_slot && sum.dev <= c->budget.dev && sum.host <= c->budget.host))
		return -1;
	return lru;
}

void tn_pcache_drop(struct tn_pcache *c, int s)
{
	if (s < 0 || s >= TN_PCACHE_MAX)
		return;
	c->s[s].key = -1;
	c->s[s].cost = (struct tn_pcost){ 0, 0 };
	c->s[s].used = 0;
}

void tn_pcache_evict(struct tn_pcache *c, int s)
{
	if (s >= 0 && s < TN_PCACHE_MAX && c->s[s].key >= 0)
		c->evictions++;
	tn_pcache_drop(c, s);
}

int tn_pcache_add(struct tn_pcache *c, long long key, struct tn_pcost cost)
{
	for (int i = 0; i < TN_PCACHE_MAX; i++)
		if (c->s[i].key < 0) {
			c->s[i].key = key;
			c->s[i].cost = cost;
			c->s[i].used = ++c->clock;
			c->builds++;
			return i;
		}
	return -1;
}

int tn_pcache_open(struct tn_pcache *c, long long key, struct tn_pcost cost,
		   const struct tn_pcache_ops *op, int *built, char *err, size_t n)
{
	int s, v;
	*built = 0;
	if ((s = tn_pcache_find(c, key)) >= 0)
		return s;
	for (int again = 0;; again = 1) {
		while ((v = tn_pcache_victim(c, cost)) >= 0) {
			op->release(op->ctx, v);
			tn_pcache_evict(c, v);
		}
		if ((s = tn_pcache_add(c, key, cost)) < 0) {    /* victim leaves a slot free */
			snprintf(err, n, "no free slot in the cache of problems");
			return -1;
		}
		if (!op->build(op->ctx, s, key, err, n)) {
			*built = 1;
			return s;
		}
		tn_pcache_drop(c, s);
		if (again || !tn_pcache_held(c))
			return -1;
		for (v = 0; v < TN_PCACHE_MAX; v++)
			if (c->s[v].key >= 0) {
				op->release(op->ctx, v);
				tn_pcache_evict(c, v);
			}
	}
}
