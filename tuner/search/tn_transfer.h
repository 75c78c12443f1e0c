/*
 * tn_transfer.h: what the transfer search (tn_search.h) starts from: the
 * fastest configurations recorded for the relatives of a problem (the same
 * family, device and precision at other sizes or radii, and where the query
 * asks, the same family and precision on the database's other devices, the
 * problem itself included: db_each_related), ranked by a score that weighs
 * each relative by how close its size and radius are to the problem's, and
 * a relative of another device at TN_TRANSFER_OTHER of that (tn_transfer.c
 * says how).
 */
#ifndef TN_TRANSFER_H
#define TN_TRANSFER_H

#include "db.h"
#include "tn.h"

#define TN_TRANSFER_TOP 8       /* configurations taken from each relative */
#define TN_TRANSFER_EVALS 2     /* default budget, percent of the space */
#define TN_TRANSFER_TAU 0.05    /* a configuration 5% slower than its relative's best
				 * adds 1/e of what the best adds to its score */
#define TN_TRANSFER_OTHER 0.5   /* weight of a relative on another device */

struct tn_seeds {
	int *v;                 /* n rows of TN_MAXP values (unused columns 0), best first */
	double *score;
	long long n;
	int nprob;              /* the relatives they come from */
	int nother;             /* of them, those of other devices */
};

/* The seeds for problem pb from the relatives q selects (q->k 0: the
 * default top). 0 with *s filled (possibly empty; tn_seeds_free releases
 * it); 1 with err set. */
int tn_transfer_seeds(struct db *d, const struct db_related *q, const struct tn_problem *pb,
		      struct tn_seeds *s, char *err, size_t n);
/* As tn_transfer_seeds, from the relatives of pb's radius alone: a plan's
 * first pass starts from them (tn_first_seeds), as one of another radius
 * leads it astray (replayed on the H200, xyz R = 8's first pass from xyz
 * R = 4's bests came to 88.9% of the exhaustive best on average, 92.9% at
 * random: results/NOTES.md "Seeded first passes"). */
int tn_transfer_seeds_radius(struct db *d, const struct db_related *q,
			     const struct tn_problem *pb, struct tn_seeds *s, char *err, size_t n);
/* As tn_transfer_seeds, from the kin q gives (db_each_kin: the fastest
 * q->k, 0: TN_TRANSFER_TOP, and the fastest with each value of each
 * parameter, of every size of q's family, radius and precision on every
 * device model of d, those of another model than q's
 * device and arch counted as other): seeds from a database that does not
 * hold the problem, only read (sweep --seeds-from, whose seeds
 * tn_seeds_merge adds to those of the sweep's own database). */
int tn_transfer_seeds_kin(struct db *d, const struct db_kin *q, const struct tn_problem *pb,
			  struct tn_seeds *s, char *err, size_t n);
/* The seeds of t added to s as if ranked together: the score of a
 * configuration in both is their sum, the others are appended, then s is
 * sorted again (best first) and its relatives counted with t's; t is left
 * as it was. 0, or 1 with err set (out of memory: s's seeds as they were). */
int tn_seeds_merge(struct tn_seeds *s, const struct tn_seeds *t, char *err, size_t n);
void tn_seeds_free(struct tn_seeds *s);
/* The walk seeds come from: fn called with each relative's rows together,
 * its fastest first (db_each_related's order, and db_each_kin's); a
 * nonzero return of fn stops it and is returned. */
typedef int (*tn_walk)(void *q, int (*fn)(void *ctx, const struct db_related_row *row),
		       void *ctx, char *err, size_t n);
/* The seeds for pb from the rows walk(q, ...) gives, scored as above: what
 * tn_transfer_seeds does over db_each_related. */
int tn_transfer_rank(struct db *d, tn_walk walk, void *q, const struct tn_problem *pb,
		     struct tn_seeds *s, char *err, size_t n);

/* A seed outside a space's domains (another GPU's best with a value the
 * default domains leave out, zu = 3) is no seed: the search never proposes
 * it. Appends to the n configurations cfgs (TN_MAXP ints each, realloc'd)
 * each seed of s not among them whose values lie in their parameters'
 * ranges, and in sp's domain where sp differs from the family's default
 * there (-p set it), that passes the family's constraints within lim, and
 * that keeps the grid of distinct values under 2^24 points; *added counts
 * them. 0, or 1 with err set (out of memory: cfgs and n as they were). */
int tn_transfer_widen(const struct tn_problem *pb, const struct tn_space *sp,
		      const struct tn_limits *lim, const struct tn_seeds *s, int **cfgs,
		      long long *n, long long *added, char *err, size_t en);

#endif
