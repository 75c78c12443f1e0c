/*
 * wave.h: the parts of the acoustic wave propagator of examples/wave that
 * its C driver (wave.c), its Fortran driver (wave.f90, through bind(C)) and
 * the tests share. Host parts (wave_host.c): the model, the Ricker wavelet,
 * the stability bound, and the analysis of a seismogram (arrival pick, 1/r
 * decay fit, correlation). Device parts (wave_dev.cu, compiled with nvcc or
 * hipcc; wave_cpu.c is the same interface on the host, for the CPU test):
 * memory, the source injection and the receiver gather, and timers.
 *
 * Fields follow the exported kernel's contract (wave_k.h): R halo points on
 * every side, which stay zero (a pressure-release boundary on every face),
 * rows of ld floats, planes of slice floats, pointers and offsets taken
 * from interior point (0,0,0). Every function that can fail returns 0 or 1
 * and writes its message into err (n bytes).
 */
#ifndef WAVE_H
#define WAVE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The layout of fdtune's own fields: 32 floats before the interior of each
 * row (>= R, keeps the interior 128-byte aligned), rows padded to 32. */
struct wv_layout {
	int nx, ny, nz, r, ld;
	long long slice, origin, total;         /* origin: of point (0,0,0) */
};
void wv_layout_of(int nx, int ny, int nz, int r, struct wv_layout *l);

/* vel (l->total floats, halo zero) := (v dt)^2 of the model: v1 above
 * depth zi (grid points) and v2 from zi down. */
void wv_model_layers(const struct wv_layout *l, float *vel, double v1, double v2, int zi,
		     double dt);
/* The same from a raw float32 file of nx*ny*nz velocities in m/s, x
 * fastest; vmin and vmax of the file are returned. */
int wv_model_file(const struct wv_layout *l, float *vel, const char *path, double dt,
		  double *vmin, double *vmax, char *err, size_t n);

/* The Ricker wavelet of peak frequency f at time t (its peak at t = 0). */
double wv_ricker(double f, double t);
/* src[s] = ricker(f, s dt - t0) vel_s / (hx hy hz), s = 0..nt-1: the
 * amounts added at the source point by step s, so that the field is
 * ricker(f, t - t0 - r / v) / (4 pi r) at distance r (a point source of
 * u_tt = v^2 (L u + f delta)); vel_s = (v dt)^2 at the source. */
void wv_source(float *src, int nt, double f, double t0, double dt, float vel_s, double h3);

/* The largest dt that is stable for velocity vmax with the weights of the
 * exported kernel (fd_coef, scaled by 1/h^2): leapfrog needs (v dt)^2
 * lambda <= 4, lambda = |c0| + 2 sum_k (|x_k| + |y_k| + |z_k|), the
 * Laplacian's largest eigenvalue (at the Nyquist wavenumber). */
double wv_dt_max(float c0, const float *cx, const float *cy, const float *cz, int r, double vmax);

/* Analysis of a trace of n samples tr[0..n), sample s at time (s + 1) dt
 * (what step s wrote). wv_pick: the time of the largest |sample| within
 * samples [s0, s1), refined by the parabola through it and its neighbours;
 * its value in *amp. */
double wv_pick(const float *tr, int n, int s0, int s1, double dt, double *amp);
/* The least-squares fit a / r of amp[0..m) against r[0..m): a, and the
 * largest relative misfit |amp r / a - 1| in *dev. */
double wv_fit_inv_r(const double *r, const double *amp, int m, double *dev);
/* The normalised correlation of a around ta and b around tb (times in s;
 * the traces resampled linearly), over the window [-w, w] seconds. */
double wv_corr(const float *a, double ta, const float *b, double tb, int n, double dt, double w);

/* Device side. wd_init: 0 when there is a GPU (its name in name), 1 with
 * the reason otherwise. Memory is zeroed on allocation. */
int wd_init(char *name, size_t n);
float *wd_alloc(long long count);
void wd_free(float *p);
int wd_put(float *dst, const float *src, long long count);
int wd_get(float *dst, const float *src, long long count);
/* next[off] += src[s]: one thread, on the default stream. */
int wd_inject(float *next, long long off, const float *src, int s);
/* seis[s * nr + i] = f[off + i], i = 0..nr-1: a receiver line along x. */
int wd_record(float *seis, const float *f, long long off, int nr, int s);
int wd_sync(void);
/* Milliseconds between wd_mark(0) and wd_mark(1) on the default stream. */
int wd_mark(int which);
double wd_elapsed(void);
const char *wd_error(void);          /* the last runtime error, as text */

#ifdef __cplusplus
}
#endif
#endif
