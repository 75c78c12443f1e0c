/*
 * tn_coef.c: weights of the central second-derivative stencil of order 2R,
 * for any R in 1..8, from the closed form rather than a table:
 *   w[k] = 2 (-1)^(k+1) (R!)^2 / (k^2 (R-k)! (R+k)!),  k = 1..R
 *   w[0] = -2 sum_{k=1..R} 1/k^2
 * so that u''(0) ~ (w[0] u(0) + sum_k w[k] (u(k) + u(-k))) / h^2. The
 * weights satisfy the moment conditions sum_k w_|k| k^2 = 2 and
 * sum_k w_|k| k^(2m) = 0 for m = 0, 2..R (tests/t_core.c checks them).
 * The first-derivative weights of the same order follow from the same ratio:
 *   a[k] = (-1)^(k+1) (R!)^2 / (k (R-k)! (R+k)!),  k = 1..R,  a[0] = 0
 * so that u'(0) ~ sum_k a[k] (u(k) - u(-k)) / h; they satisfy
 * sum_k 2 a_k k^(2m-1) = [m == 1] for m = 1..R (tests/t_mixed.c checks them).
 */
#include "tn.h"

int tn_d2_weights(int r, double w[TN_RMAX + 1])
{
	if (r < 1 || r > TN_RMAX)
		return 1;
	w[0] = 0;
	for (int k = 1; k <= r; k++) {
		/* (R!)^2 / ((R-k)! (R+k)!) = prod_{i=1..k} (R-k+i) / (R+i) */
		double q = 1;
		for (int i = 1; i <= k; i++)
			q *= (double)(r - k + i) / (r + i);
		w[k] = (k % 2 ? 2.0 : -2.0) * q / ((double)k * k);
		w[0] -= 2.0 / ((double)k * k);
	}
	for (int k = r + 1; k <= TN_RMAX; k++)
		w[k] = 0;
	return 0;
}

int tn_d1_weights(int r, double a[TN_RMAX + 1])
{
	if (r < 1 || r > TN_RMAX)
		return 1;
	a[0] = 0;
	for (int k = 1; k <= r; k++) {
		double q = 1;           /* (R!)^2 / ((R-k)! (R+k)!), as above */
		for (int i = 1; i <= k; i++)
			q *= (double)(r - k + i) / (r + i);
		a[k] = (k % 2 ? 1.0 : -1.0) * q / k;
	}
	for (int k = r + 1; k <= TN_RMAX; k++)
		a[k] = 0;
	return 0;
}

int tn_coef_unit(const struct tn_family *f, int r, double w[TN_RMAX + 1])
{
	return f->d1 ? tn_d1_weights(r, w) : tn_d2_weights(r, w);
}
