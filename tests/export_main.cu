/*
 * export_main.cu: a host program that fdtune does not build, standing for a
 * user's code. It includes a kernel exported by `fdtune export --name k`
 * (one size or --all-sizes; fp32 or fp64; a stencil (out, in) or a time step
 * (next, prev, vel)), lays out fields as k.h's contract says, launches
 * through k_launch() and validates against its own CPU reference: random
 * input, output poisoned, every interior point within the error bound of
 * README, the halo untouched. With k_D1 (first-derivative weights) the
 * reference is the first derivative along the one axis with weights, or the
 * mixed derivative of the two. With --time N it then times N launches with
 * events and prints the median; with --time fdtune, as fdtune's sweeps time
 * (tuner/sweep/tn_time.c): batches of 10 after a first of 3, until the
 * median moves by less than 0.5% (at least 30 launches, at most 300 or 2 s). It prints which build k_launch runs
 * (k_measured): the one fdtune measured, embedded, or the source kernel.
 * Built with nvcc by tests/t_gpu.c and results/h100/export-sizes.sh:
 *   nvcc export_main.cu k.cu -o ex; ex NX NY NZ [--time N]
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k.h"

#define R k_RADIUS

static int check(cudaError_t e, const char *what)
{
	if (e != cudaSuccess)
		fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
	return e != cudaSuccess;
}

static int cmp(const void *a, const void *b)
{
	const float x = *(const float *)a, y = *(const float *)b;
	return (x > y) - (x < y);
}

static unsigned long long seed = 12345;

/* Uniform in [lo, hi). */
static double rnd(double lo, double hi)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return lo + (double)(seed >> 11) * 0x1.0p-53 * (hi - lo);
}

static int launch(fd_real *out, const fd_real *in, const fd_real *vel, struct fd_grid g,
		  const struct fd_coef *c)
{
#ifdef k_STEP
	return k_launch(out, in, vel, g, c, 0);
#else
	(void)vel;
	return k_launch(out, in, g, c, 0);
#endif
}

#ifdef k_D1
/* At the point p: sum_k a_k (u(+k) - u(-k)) along the one axis whose weights
 * are set, or sum_{k,q} s_k t_q (u(+k,+q) - u(+k,-q) - u(-k,+q) + u(-k,-q))
 * over the two; mag the sum of the terms' magnitudes. */
static void d1_ref(const fd_real *p, const struct fd_coef *c, long long ld, long long slice,
		   double *ref, double *mag)
{
	const fd_real *w[3] = { c->x, c->y, c->z };
	const long long st[3] = { 1, ld, slice };
	int ax[3], na = 0;
	for (int a = 0; a < 3; a++)
		if (w[a][1] != 0)
			ax[na++] = a;
	for (int r = 1; r <= R; r++) {
		const double ws = w[ax[0]][r];
		const long long ds = r * st[ax[0]];
		if (na == 1) {
			*ref += ws * ((double)p[ds] - p[-ds]);
			*mag += fabs(ws * p[ds]) + fabs(ws * p[-ds]);
			continue;
		}
		for (int q = 1; q <= R; q++) {
			const double wq = ws * w[ax[1]][q];
			const long long dt = q * st[ax[1]];
			const double t[4] = { p[ds + dt], -p[ds - dt], -p[-ds + dt], p[-ds - dt] };
			for (int e = 0; e < 4; e++) {
				*ref += wq * t[e];
				*mag += fabs(wq * t[e]);
			}
		}
	}
}
#endif

int main(int argc, char **argv)
{
	const int nx = argc > 3 ? atoi(argv[1]) : 61, ny = argc > 3 ? atoi(argv[2]) : 37,
		  nz = argc > 3 ? atoi(argv[3]) : 29, xoff = 32;
	const int timed = argc > 5 && !strcmp(argv[4], "--time");
	const int autot = timed && !strcmp(argv[5], "fdtune");
	const int reps = autot ? 300 : timed ? atoi(argv[5]) : 0;
	const int ld = (xoff + (nx + 3) / 4 * 4 + 8 + 31) / 32 * 32;
	const long long slice = (long long)ld * (ny + 2 * R), total = slice * (nz + 2 * R);
	const long long origin = R * slice + (long long)R * ld + xoff;
	const size_t bytes = (size_t)total * sizeof(fd_real);
	const double u = sizeof(fd_real) == 4 ? 0x1.0p-24 : 0x1.0p-53;
	fd_real *in = (fd_real *)malloc(bytes), *out = (fd_real *)malloc(bytes);
	fd_real *vel = (fd_real *)malloc(bytes), *base = (fd_real *)malloc(bytes);
	fd_real *din, *dout, *dvel;
	struct fd_grid g = { nx, ny, nz, ld, slice };
	struct fd_coef c;
	long long bad = 0;
#ifdef k_STEP
	const int step = 1;
#else
	const int step = 0;
#endif

	if (!in || !out || !vel || !base || nx < 1 || ny < 1 || nz < 1)
		return 2;
	for (long long i = 0; i < total; i++) {
		in[i] = (fd_real)rnd(-1, 1);
		vel[i] = (fd_real)rnd(0.5, 1);
		base[i] = (fd_real)rnd(-1, 1);
	}
	/* the output poisoned; a time step reads its interior (next) */
	memset(out, 0xff, bytes);
	for (int k = 0; step && k < nz; k++)
		for (int j = 0; j < ny; j++)
			for (int i = 0; i < nx; i++) {
				long long a = origin + i + (long long)j * ld + k * slice;
				out[a] = base[a];
			}
	k_coef(&c, 1, 1, 1);
	if (check(cudaMalloc(&din, bytes), "cudaMalloc") ||
	    check(cudaMalloc(&dout, bytes), "cudaMalloc") ||
	    check(cudaMalloc(&dvel, bytes), "cudaMalloc") ||
	    check(cudaMemcpy(din, in, bytes, cudaMemcpyHostToDevice), "copy in") ||
	    check(cudaMemcpy(dvel, vel, bytes, cudaMemcpyHostToDevice), "copy vel") ||
	    check(cudaMemcpy(dout, out, bytes, cudaMemcpyHostToDevice), "poison") ||
	    check((cudaError_t)launch(dout + origin, din + origin, dvel + origin, g, &c), "k_launch") ||
	    check(cudaDeviceSynchronize(), "kernel") ||
	    check(cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost), "copy out"))
		return 1;
	/* parallel where built with -Xcompiler -fopenmp (results/h100/parity.sh) */
	#pragma omp parallel for reduction(+ : bad) schedule(dynamic)
	for (int k = -R; k < nz + R; k++)
		for (int j = -R; j < ny + R; j++)
			for (int i = -xoff; i < ld - xoff; i++) {
				long long a = origin + i + (long long)j * ld + k * slice;
				if (i >= 0 && i < nx && j >= 0 && j < ny && k >= 0 && k < nz) {
					const fd_real *p = in + a;
#ifdef k_D1
					double dr = 0, dm = 0;
					d1_ref(p, &c, ld, slice, &dr, &dm);
					bad += !(fabs(out[a] - dr) <= 2.0 * (4 * R * R + 8) * u * dm + 1e-30);
					continue;
#endif
					double ref = (double)c.c0 * p[0], mag = fabs(ref);
					for (int r = 1; r <= R; r++) {
						const double t[6] = { p[-r], p[r], p[-r * ld], p[r * ld],
							p[-r * slice], p[r * slice] };
						const fd_real w[3] = { c.x[r], c.y[r], c.z[r] };
						for (int q = 0; q < 6; q++) {
							ref += (double)w[q / 2] * t[q];
							mag += fabs((double)w[q / 2] * t[q]);
						}
					}
					if (step) {     /* next = 2 prev - next + vel L(prev) */
						ref = 2.0 * p[0] - (double)base[a] + (double)vel[a] * ref;
						mag = 2.0 * fabs((double)p[0]) + fabs((double)base[a]) +
						      fabs((double)vel[a]) * mag;
					}
					bad += !(fabs(out[a] - ref) <= 2.0 * (6 * R + 8) * u * mag + 1e-30);
				} else {
					unsigned char b[sizeof(fd_real)];
					memcpy(b, &out[a], sizeof b);
					for (size_t q = 0; q < sizeof b; q++)
						bad += b[q] != 0xff;
				}
			}
#ifdef k_BY_SIZE
	{
		const char *size = NULL, *cfg = k_which(nx, ny, nz, &size);
		printf("%dx%dx%d runs %s (%s)\n", nx, ny, nz, cfg ? cfg : "nothing",
		       size && *size ? size : "the family default");
	}
#endif
	{
		const char *why = "";
		k_measured(nx, ny, nz, &why);
		printf("k_launch on %dx%dx%d runs %s\n", nx, ny, nz, why);
	}
	printf("exported kernel on %dx%dx%d: %lld bad points\n", nx, ny, nz, bad);
	if (!bad && reps > 0) {
		cudaEvent_t e0, e1;
		float *ms = (float *)calloc((size_t)reps, sizeof *ms);
		const double moved = (step ? 4.0 : 2.0) * nx * ny * (double)nz * sizeof(fd_real);
		if (!ms || check(cudaEventCreate(&e0), "event") || check(cudaEventCreate(&e1), "event"))
			return 1;
		float *sorted = (float *)calloc((size_t)reps, sizeof *sorted);
		double med = 0, prev = 0, total = 0;
		int k = 0;
		if (!sorted)
			return 1;
		for (int i = 0; i < 2 + reps; i++) {    /* two warm-up launches */
			if (check(cudaEventRecord(e0, 0), "record") ||
			    check((cudaError_t)launch(dout + origin, din + origin, dvel + origin, g, &c),
				  "k_launch") ||
			    check(cudaEventRecord(e1, 0), "record") ||
			    check(cudaEventSynchronize(e1), "kernel") ||
			    (i >= 2 && check(cudaEventElapsedTime(&ms[i - 2], e0, e1), "elapsed")))
				return 1;
			if (i < 2)
				continue;
			total += ms[k++];
			if (autot && (k == 3 || (k > 3 && (k - 3) % 10 == 0))) {
				memcpy(sorted, ms, (size_t)k * sizeof *ms);
				qsort(sorted, (size_t)k, sizeof *sorted, cmp);
				med = k % 2 ? sorted[k / 2] : 0.5 * (sorted[k / 2 - 1] + sorted[k / 2]);
				if ((k >= 30 && fabs(med - prev) <= 0.005 * med) || total > 2000)
					break;
				prev = med;
			}
		}
		memcpy(sorted, ms, (size_t)k * sizeof *ms);
		qsort(sorted, (size_t)k, sizeof *sorted, cmp);
		med = k % 2 ? sorted[k / 2] : 0.5 * (sorted[k / 2 - 1] + sorted[k / 2]);
		printf("time %dx%dx%d: median %.4f ms, %.1f GB/s over %d launches\n", nx, ny, nz,
		       med, moved / (med * 1e-3) * 1e-9, k);
		free(sorted);
		free(ms);
	}
	cudaFree(din);
	cudaFree(dout);
	cudaFree(dvel);
	free(in);
	free(out);
	free(vel);
	free(base);
	return bad != 0;
}
