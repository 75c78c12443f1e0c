/*
 * wave_host.c: the host side of the wave propagator (wave.h): the layout,
 * the velocity model, the Ricker source, the stability bound and the
 * analysis of seismograms the physics tests apply. Plain C11, no GPU.
 */
#include "wave.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void wv_layout_of(int nx, int ny, int nz, int r, struct wv_layout *l)
{
	const int xoff = 32;
	l->nx = nx;
	l->ny = ny;
	l->nz = nz;
	l->r = r;
	l->ld = (xoff + (nx + 3) / 4 * 4 + (r + 3) / 4 * 4 + 31) / 32 * 32;
	l->slice = (long long)l->ld * (ny + 2 * r);
	l->origin = r * l->slice + (long long)r * l->ld + xoff;
	l->total = l->slice * (nz + 2 * r);
}

void wv_model_layers(const struct wv_layout *l, float *vel, double v1, double v2, int zi,
		     double dt)
{
	const float a = (float)(v1 * dt * v1 * dt), b = (float)(v2 * dt * v2 * dt);
	for (int k = 0; k < l->nz; k++)
		for (int j = 0; j < l->ny; j++) {
			float *row = vel + l->origin + k * l->slice + (long long)j * l->ld;
			for (int i = 0; i < l->nx; i++)
				row[i] = k < zi ? a : b;
		}
}

int wv_model_file(const struct wv_layout *l, float *vel, const char *path, double dt,
		  double *vmin, double *vmax, char *err, size_t n)
{
	FILE *f = fopen(path, "rb");
	int rc = 1;
	*vmin = INFINITY;
	*vmax = 0;
	if (!f) {
		snprintf(err, n, "cannot open the model %s: %s", path, strerror(errno));
		return 1;
	}
	for (int k = 0; k < l->nz; k++)
		for (int j = 0; j < l->ny; j++) {
			float *row = vel + l->origin + k * l->slice + (long long)j * l->ld;
			if (fread(row, sizeof *row, (size_t)l->nx, f) != (size_t)l->nx) {
				snprintf(err, n, "the model %s holds fewer than %dx%dx%d floats (row %d "
					 "of plane %d); give its dimensions with -n", path, l->nx, l->ny,
					 l->nz, j, k);
				goto done;
			}
			for (int i = 0; i < l->nx; i++) {
				const double v = row[i];
				if (!(v > 0 && v < 1e6)) {
					snprintf(err, n, "the model %s has velocity %g at (%d,%d,%d); "
						 "velocities are in m/s, positive", path, v, i, j, k);
					goto done;
				}
				*vmin = v < *vmin ? v : *vmin;
				*vmax = v > *vmax ? v : *vmax;
				row[i] = (float)(v * dt * v * dt);
			}
		}
	if (fgetc(f) != EOF) {
		snprintf(err, n, "the model %s holds more than %dx%dx%d floats; give its "
			 "dimensions with -n", path, l->nx, l->ny, l->nz);
		goto done;
	}
	rc = 0;
done:
	fclose(f);
	return rc;
}

double wv_ricker(double f, double t)
{
	const double pi = 3.14159265358979323846, a = pi * pi * f * f * t * t;
	return (1 - 2 * a) * exp(-a);
}

void wv_source(float *src, int nt, double f, double t0, double dt, float vel_s, double h3)
{
	for (int s = 0; s < nt; s++)
		src[s] = (float)(wv_ricker(f, s * dt - t0) * vel_s / h3);
}

double wv_dt_max(float c0, const float *cx, const float *cy, const float *cz, int r, double vmax)
{
	double lam = fabs(c0);
	for (int k = 1; k <= r; k++)
		lam += 2 * (fabs(cx[k]) + fabs(cy[k]) + fabs(cz[k]));
	return 2 / (vmax * sqrt(lam));
}

double wv_pick(const float *tr, int n, int s0, int s1, double dt, double *amp)
{
	int p;
	double d = 0;
	s0 = s0 < 0 ? 0 : s0;
	s1 = s1 > n ? n : s1;
	if (s0 >= s1) {
		*amp = 0;
		return -1;
	}
	p = s0;
	for (int s = s0; s < s1; s++)
		p = tr[s] > tr[p] ? s : p;
	*amp = tr[p];
	if (p > 0 && p + 1 < n) {
		const double ym = tr[p - 1], y0 = tr[p], yp = tr[p + 1], q = ym - 2 * y0 + yp;
		if (q < 0) {
			d = 0.5 * (ym - yp) / q;
			*amp = y0 - 0.25 * (ym - yp) * d;
		}
	}
	return (p + d + 1) * dt;
}

double wv_fit_inv_r(const double *r, const double *amp, int m, double *dev)
{
	double num = 0, den = 0, a;
	for (int i = 0; i < m; i++) {
		num += amp[i] / r[i];
		den += 1 / (r[i] * r[i]);
	}
	a = den > 0 ? num / den : 0;
	*dev = 0;
	for (int i = 0; i < m; i++) {
		const double e = a ? fabs(amp[i] * r[i] / a - 1) : INFINITY;
		*dev = e > *dev ? e : *dev;
	}
	return a;
}

/* Trace tr at time t (sample s at (s + 1) dt), linear; 0 outside. */
static double at(const float *tr, int n, double dt, double t)
{
	const double x = t / dt - 1;
	const int s = (int)floor(x);
	const double w = x - s;
	if (s < 0 || s + 1 >= n)
		return 0;
	return (1 - w) * tr[s] + w * tr[s + 1];
}

double wv_corr(const float *a, double ta, const float *b, double tb, int n, double dt, double w)
{
	double ab = 0, aa = 0, bb = 0;
	const int m = (int)ceil(w / dt);
	for (int i = -m; i <= m; i++) {
		const double x = at(a, n, dt, ta + i * dt), y = at(b, n, dt, tb + i * dt);
		ab += x * y;
		aa += x * x;
		bb += y * y;
	}
	return aa > 0 && bb > 0 ? ab / sqrt(aa * bb) : 0;
}
