/*
 * tn_search.h: search strategies over a list of configurations. A strategy
 * proposes batches of configurations to evaluate and is told each outcome
 * (a time, or a failure); it never sees a GPU, so the same code drives a
 * live sweep and a replay against a database of recorded runs.
 *
 *   exhaustive  every configuration, in order
 *   random      a random sample, without repeats
 *   guided      a random 3% to start (the seeds given by tn_search_seed
 *               first, where a plan gives them), then local search: the
 *               neighbours of the best configuration not yet expanded (those
 *               that differ in one parameter, to the next value of its
 *               domain), then of the next best, as many as a batch holds (a
 *               neighbourhood cut short by the batch goes on at the next
 *               call); stops at the budget
 *   transfer    the seeds given by tn_search_seed (the bests of related
 *               problems, tn_transfer.h) first, up to half the budget; then
 *               a descent: once every outcome is in, the neighbours of the
 *               best configuration not yet expanded (in pieces where fewer
 *               are asked for); when none is left,
 *               the other seeds, then the rest at random; stops at the budget
 */
#ifndef TN_SEARCH_H
#define TN_SEARCH_H

#include "tn.h"

enum tn_strategy { TN_EXHAUSTIVE, TN_RANDOM, TN_GUIDED, TN_TRANSFER };

struct tn_search;

/* cfg: n configurations of np parameters each, row-major; budget: the most
 * evaluations (0: all). The strategy keeps a pointer to cfg. */
int tn_search_new(enum tn_strategy s, const int *cfg, int np, long long n, long long budget,
		  unsigned long long seed, struct tn_search **out, char *err, size_t en);
void tn_search_free(struct tn_search *s);
/* Up to max indices (into cfg) to evaluate next, never one proposed or
 * taken before.
 * 0: nothing now; the search is over when nothing proposed is still
 * unreported (a guided search waits for outcomes to choose more). */
int tn_search_next(struct tn_search *s, long long *idx, int max);
/* What tn_search_next would give now (max indices at most), s left as it
 * was: the plan warms the compile cache with a problem's next proposals
 * before its step (tn_warm.c). The count; -1 when out of memory. */
int tn_search_peek(const struct tn_search *s, long long *idx, int max);
/* 1 when configuration i was proposed or is known from an earlier run. */
int tn_search_known(const struct tn_search *s, long long i);
/* Configuration i, chosen by the caller, is to be evaluated now as if
 * proposed (a GPU that would wait runs a configuration whose code is built:
 * tn_fill.c): 1 when taken, counted against the budget but not against a
 * guided or transfer start, its outcome reported as any other's; 0 when it
 * is known (tn_search_known) or the budget is spent. */
int tn_search_take(struct tn_search *s, long long i);
/* The outcome of configuration i: its time in ms, or a negative value for a
 * failure. Batches may overlap: later ones can be asked for before earlier
 * ones are reported, as a pipelined sweep does. */
void tn_search_report(struct tn_search *s, long long i, double ms);
/* Configuration i was evaluated by an earlier run of the same sweep: it
 * counts against the budget and is never proposed. Call before the first
 * tn_search_next. */
void tn_search_prior(struct tn_search *s, long long i, double ms);
/* Transfer, and a guided start: the configurations to start from, best
 * first, nrows rows of stride ints whose first np are parameter values.
 * Rows that are not in the space (pruned for this problem, or outside its
 * domains) and repeats are skipped; returns the number kept. Call before
 * the first tn_search_next (a guided search: before its start is
 * proposed in full; the start's places left go to them first, and seeds
 * given after it go unused). */
long long tn_search_seed(struct tn_search *s, const int *rows, int stride, long long nrows);
/* Nonzero while the search may still propose configurations. */
int tn_search_next_left(const struct tn_search *s);
/* Guided: the random start is k evaluations (by default 3% of the space),
 * at most the budget. Call before the first tn_search_next. */
void tn_search_set_start(struct tn_search *s, long long k);
/* Guided: the places its start has left (0 for another strategy, or once
 * the start is proposed), and in *seeds how many of them its seeds will
 * take (those neither known nor proposed). */
long long tn_search_start_left(const struct tn_search *s, long long *seeds);
int tn_strategy_parse(const char *name, enum tn_strategy *s);
const char *tn_strategy_name(enum tn_strategy s);

#endif
