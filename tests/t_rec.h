/*
 * t_rec.h: a helper of the CPU tests that fill a database of their own with
 * runs (t_transfer.c, t_warm.c).
 */
#ifndef T_REC_H
#define T_REC_H

#include "db.h"
#include "tn.h"

/* Records an ok run of configuration v of family f, median ms, for device
 * dev and problem prob (cmocka-asserted); its id. */
long long t_rec_run(struct db *d, const struct tn_family *f, long long dev, long long prob,
		    const int *v, double ms);

#endif
