/*
 * tn_hshare.h: the host data (tn_hdata.h) of every problem of a GPU sweep,
 * made by the sweep once each and shared by its workers. A thread makes
 * them ahead, in the plan's order, while the GPUs measure the problems
 * before: a plan's switch to a problem finds its reference made. The
 * thread keeps within a budget of host bytes; a problem it left out is
 * made when asked for, the least recently asked released first to make
 * room (a worker that mapped one keeps its mapping).
 */
#ifndef TN_HSHARE_H
#define TN_HSHARE_H

#include "tn.h"

#include <stddef.h>

struct tn_hshare;

/* What the sharing did, for the sweep's summary. */
struct tn_hshare_stats {
	int made;               /* host data made (each problem once, plus remakes) */
	int released;           /* released for room */
	double make_s;          /* seconds spent making them, on any thread */
	double wait_s;          /* seconds the sweep waited for one it asked for */
};

/* Starts sharing the host data of problems pbs[0..n-1] (pointers that must
 * outlive s), their thread making them in order within budget bytes; 0, or
 * 1 with err set. */
int tn_hshare_new(struct tn_hshare **s, const struct tn_problem *const *pbs, int n,
		  double budget, char *err, size_t en);
/* Problem j will not be asked for: the thread does not make it. */
void tn_hshare_skip(struct tn_hshare *s, int j);
/* The path a worker maps problem j's host data by (tn_hdata_map), made now
 * if not yet (waiting for the thread where it is making it); "" when it
 * could not be made, and then each worker makes its own (the cause is
 * said once on stderr). */
void tn_hshare_get(struct tn_hshare *s, int j, char *path, size_t pn);
void tn_hshare_stats(struct tn_hshare *s, struct tn_hshare_stats *st);
/* Stops the thread (after the problem it is making) and releases all. */
void tn_hshare_free(struct tn_hshare *s);

#endif
