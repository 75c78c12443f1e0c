/*
 * tn_stop.c: when a sweep stops early: the signal its handler (tn_sweep.c)
 * stored, its time budget spent, or --max-configs proposed. Every stage of
 * a sweep asks here, so that the step, the records and the plan agree on
 * it, and none of them depends on the plan's file for it.
 */
#include "tn_run.h"

volatile int tn_stop_signal;

int tn_over_budget(const struct tn_run *c)
{
	return c->o->budget_s > 0 && c->t0 > 0 && tn_now_s() - c->t0 > c->o->budget_s;
}

int tn_maxed(const struct tn_run *c)
{
	return c->o->max_configs > 0 && c->issued >= c->o->max_configs;
}

int tn_stopping(const struct tn_run *c)
{
	return tn_stop_signal || tn_over_budget(c);
}
