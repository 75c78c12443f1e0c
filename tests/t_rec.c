/*
 * t_rec.c: the runs a CPU test records in a database of its own (t_rec.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "t_rec.h"

#include <math.h>

long long t_rec_run(struct db *d, const struct tn_family *f, long long dev, long long prob,
		    const int *v, double ms)
{
	struct db_run r = { 0 };
	char json[512], err[512];
	long long id;
	tn_config_json(f, v, json, sizeof json);
	assert_int_equal(db_config_id(d, f->name, json, &r.config_id, err, sizeof err), 0);
	r.device_id = dev;
	r.problem_id = prob;
	r.status = "ok";
	r.median_ms = r.min_ms = r.max_ms = ms;
	r.reps = 30;
	r.gbs = r.mcells = r.pct_copy = r.max_err = r.err_bound = NAN;
	assert_int_equal(db_run_add(d, &r, &id, err, sizeof err), 0);
	return id;
}
