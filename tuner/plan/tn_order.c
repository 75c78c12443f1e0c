/*
 * tn_order.c: the anytime order of a plan on a GPU (tn_plan.h): the size
 * of each problem's first pass and of its refinement steps, and which
 * problem has the most to gain next. Pure arithmetic, so tests check it
 * without a GPU.
 */
#include "tn_plan.h"

#include <math.h>

long long tn_order_pass(long long n, long long target)
{
	long long p = (long long)ceil(0.02 * (double)n);
	if (p < 8)
		p = n < 8 ? n : 8;
	return p < target ? p : target;
}

long long tn_order_chunk(long long target)
{
	long long c = (target + 9) / 10;
	return c < 32 ? 32 : c;
}

double tn_order_slice(double budget_s)
{
	double s = budget_s > 0 ? budget_s / 20 : 30;
	return s < 5 ? 5 : s > 60 ? 60 : s;
}

long long tn_order_chunk_time(long long target, double rate, double slice_s)
{
	long long c = tn_order_chunk(target), cap = (target + 1) / 2;
	double t = rate > 0 && slice_s > 0 ? rate * slice_s : 0;
	if (t > (double)cap)
		t = (double)cap;
	return (long long)t > c ? (long long)t : c;
}

long long tn_order_first(long long target)
{
	long long c = (target + 19) / 20;
	return c < 32 ? 32 : c;
}

long long tn_order_refine(long long target, int steps, double rate, double slice_s)
{
	return steps > 0 ? tn_order_chunk_time(target, rate, slice_s) : tn_order_first(target);
}

int tn_order_ahead(int nwk, int jobs, int busy)
{
	int most = 2 * jobs + 2 * nwk + 4, a = 2 * nwk + 4 + 2 * (busy > 0 ? busy : 0);
	return a < most ? a : most;
}

double tn_order_gain(const struct tn_order *o)
{
	double roof = isnan(o->best_pct) ? 1.0 : 1.0 - o->best_pct / 100.0;
	if (o->left <= 0 || o->target <= 0)
		return 0;
	if (roof < 1e-6)        /* at the roof: still refined last, not never */
		roof = 1e-6;
	return roof * (double)o->left / (double)o->target;
}

int tn_order_next(const struct tn_order *o, int n)
{
	int b = -1, fresh = 0;
	double g = 0;
	for (int i = 0; i < n; i++)
		fresh = fresh || (o[i].fresh && o[i].left > 0);
	for (int i = 0; i < n; i++) {
		double x = tn_order_gain(&o[i]);
		if (o[i].left > 0 && (!fresh || o[i].fresh) && (b < 0 || x > g)) {
			b = i;
			g = x;
		}
	}
	return b;
}
