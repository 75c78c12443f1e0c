/*
 * tn_wref.h: the reference of a time-stepping family made on the GPU
 * (tn_wref.c, templates/wref.m4).
 */
#ifndef TN_WREF_H
#define TN_WREF_H

#include "rt.h"
#include "tn.h"

#include <stddef.h>

/* Makes on the current device, for pb (a family with steps > 0 and a
 * step_gpu template), with validation weights c: ref, 2 nx ny nz doubles,
 * the two fields after the family's steps from a (the field at step 0) and
 * b (at step -1), compact x-fastest, and mag, 2 nx ny nz floats, their
 * error bounds, as tn_family.step_ref makes them on the CPU (ua, ub then
 * ma, mb). a, b and vel are device fields of l's layout, es bytes an
 * element. Needs 16 bytes a point of device memory while it runs. Returns
 * 0 when done (synchronised), else 1 with err set. */
int tn_wref_make(const struct tn_problem *pb, const struct tn_layout *l, const struct tn_coef *c,
		 int es, const void *a, const void *b, const void *vel, const char *arch,
		 void *ref, void *mag, char *err, size_t n);

#endif
