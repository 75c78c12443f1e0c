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
 * (tuner/sweep/tn_time.c): batches of 10 samples after a first of 3, until
 * the median moves by less than 0.5% (at least 30 samples, at most 300 or
 * 2 s), a sample being a group of launches for kernels under 0.05 ms. It
 * prints which build k_launch runs
 * (k_measured): the one fdtune measured, embedded, or the source kernel.
 * With --time fdtune --placements P, P - 1 more medians follow, each on
 * fields allocated anew elsewhere in device memory. With --time fdtune
 * --energy, it measures the kernel's energy as a user would with NVML
 * (loaded at run time, $FDTUNE_NVML naming another library): 3 rounds of
 * 1000 back-to-back launches and at least 2 s, each from a step of the GPU's
 * energy counter seen after launching began to the first step after the
 * last was queued, while launches go on, so that the GPU is busy at both ends; the
 * round's joules over its seconds is the power, which times the median
 * gives the joules a launch and a billion points.
 * Built with nvcc by tests/t_gpu.c and results/h100/export-sizes.sh:
 *   nvcc export_main.cu k.cu -o ex -ldl
 *   ex NX NY NZ [--time N|fdtune [--placements P | --energy]]
 */
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* Uniform in [lo, hi): a hash of (i, stream), so that fields fill in
 * parallel where built with OpenMP and the same with or without it. */
static double rnd(unsigned long long i, unsigned stream, double lo, double hi)
{
	unsigned long long z = i * 3 + stream + 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return lo + (double)(z >> 11) * 0x1.0p-53 * (hi - lo);
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

/* Returns after at least cycles clock ticks: the hold that a group of
 * launches is queued behind (as templates/spin.m4 in fdtune's sweeps). */
__global__ void hold(long long cycles)
{
	if (threadIdx.x == 0) {
		const long long t0 = clock64();
		while (clock64() - t0 < cycles)
			;
	}
}

/* Times launches on (out, in, vel) with events, two warm-ups first: reps of
 * them one by one, or with autot as fdtune's sweeps time (tn_time.c, whose
 * constants these are): batches of 10 samples after a first of 3, and for a
 * kernel whose first 3 launches' median is under 0.05 ms, samples that are
 * each the mean of a group of ceil(0.25 ms / that median) launches (2 to 64)
 * between one pair of events, queued behind a hold of 20 + 8 us a launch (at
 * 2 GHz). The median per launch in *med (ms), the launches timed in *cnt. */
static int time_it(fd_real *out, const fd_real *in, const fd_real *vel, struct fd_grid g,
		   const struct fd_coef *c, int reps, int autot, double *med, int *cnt)
{
	cudaEvent_t e0, e1;
	float *ms = (float *)calloc((size_t)reps, sizeof *ms);
	float *sorted = (float *)calloc((size_t)reps, sizeof *sorted);
	double prev = 0, total = 0;
	int k = 0, rc = 1, ev = 0, grp = 1;
	if (reps < 1 || !ms || !sorted || check(cudaEventCreate(&e0), "event"))
		goto done;
	ev = 1;
	if (check(cudaEventCreate(&e1), "event"))
		goto done;
	ev = 2;
	*med = 0;
	for (int i = 0; i < 2; i++)             /* two warm-up launches */
		if (check((cudaError_t)launch(out, in, vel, g, c), "k_launch"))
			goto done;
	if (check(cudaDeviceSynchronize(), "warm-up"))
		goto done;
	while (k < reps) {
		float t;
		if (grp > 1) {
			hold<<<1, 32>>>((long long)((20.0 + 8.0 * grp) * 2000));
			if (check(cudaGetLastError(), "hold"))
				goto done;
		}
		if (check(cudaEventRecord(e0, 0), "record"))
			goto done;
		for (int j = 0; j < grp; j++)
			if (check((cudaError_t)launch(out, in, vel, g, c), "k_launch"))
				goto done;
		if (check(cudaEventRecord(e1, 0), "record") ||
		    check(cudaEventSynchronize(e1), "kernel") ||
		    check(cudaEventElapsedTime(&t, e0, e1), "elapsed"))
			goto done;
		ms[k++] = t / grp;
		total += t;
		if (autot && (k == 3 || (k > 3 && (k - 3) % 10 == 0))) {
			memcpy(sorted, ms, (size_t)k * sizeof *ms);
			qsort(sorted, (size_t)k, sizeof *sorted, cmp);
			*med = k % 2 ? sorted[k / 2] : 0.5 * (sorted[k / 2 - 1] + sorted[k / 2]);
			if (grp == 1 && k == 3 && *med < 0.05) {
				grp = (int)ceil(0.25 / fmax(*med, 1e-4));
				grp = grp < 2 ? 2 : grp > 64 ? 64 : grp;
				k = 0;
				prev = 0;
				continue;
			}
			if ((k >= 30 && fabs(*med - prev) <= 0.005 * *med) || total > 2000)
				break;
			prev = *med;
		}
	}
	memcpy(sorted, ms, (size_t)k * sizeof *ms);
	qsort(sorted, (size_t)k, sizeof *sorted, cmp);
	*med = k % 2 ? sorted[k / 2] : 0.5 * (sorted[k / 2 - 1] + sorted[k / 2]);
	*cnt = k * grp;
	rc = 0;
done:
	if (ev > 1)
		cudaEventDestroy(e1);
	if (ev > 0)
		cudaEventDestroy(e0);
	free(sorted);
	free(ms);
	return rc;
}

/* NVML's total energy counter of the current device, by its UUID: the few
 * entry points a user's code would call (signatures as nvml.h gives them). */
struct nvml {
	void *lib, *dev;
	int (*energy)(void *, unsigned long long *);
};

static int nvml_open(struct nvml *n)
{
	const char *env = getenv("FDTUNE_NVML");
	int (*init)(void);
	int (*by_uuid)(const char *, void **);
	cudaDeviceProp p;
	char uuid[64];
	int d = 0, o;
	if (!(n->lib = dlopen(env && *env ? env : "libnvidia-ml.so.1", RTLD_NOW))) {
		fprintf(stderr, "energy: cannot load NVML: %s\n", dlerror());
		return 1;
	}
	init = (int (*)(void))dlsym(n->lib, "nvmlInit_v2");
	by_uuid = (int (*)(const char *, void **))dlsym(n->lib, "nvmlDeviceGetHandleByUUID");
	n->energy = (int (*)(void *, unsigned long long *))dlsym(n->lib,
		"nvmlDeviceGetTotalEnergyConsumption");
	if (!init || !by_uuid || !n->energy || init() || check(cudaGetDevice(&d), "device") ||
	    check(cudaGetDeviceProperties(&p, d), "properties"))
		return fprintf(stderr, "energy: NVML has no energy counter here\n"), 1;
	o = snprintf(uuid, sizeof uuid, "GPU-");
	for (int i = 0; i < 16; i++)
		o += snprintf(uuid + o, sizeof uuid - (size_t)o, "%s%02x",
			      i == 4 || i == 6 || i == 8 || i == 10 ? "-" : "",
			      (unsigned char)p.uuid.bytes[i]);
	if (by_uuid(uuid, &n->dev))
		return fprintf(stderr, "energy: NVML does not know %s\n", uuid), 1;
	return 0;
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

/* One round: launches until the counter steps (its joules and time in *j0,
 * *t0), 1000 launches and at least 2 s of them (a 0.4 ms kernel's 1000
 * launches are a few of the counter's steps), then launches until it steps
 * again (*j1, *t1). Launches
 * go in batches of about 2 ms of work with the counter read between them,
 * for 90% of a batch's time, so the queue never runs dry. */
static int energy_round(struct nvml *nv, fd_real *out, const fd_real *in, const fd_real *vel,
			struct fd_grid g, const struct fd_coef *c, double ms, double *w)
{
	const int batch = ms < 2 ? (int)ceil(2 / ms) : 1;
	unsigned long long e = 0, x = 0, e0 = 0;
	double t0 = 0;
	int phase = 0, done = 0;        /* 0: to the first step, 1: the 1000, 2: to the next */
	if (nv->energy(nv->dev, &e))
		return 1;
	for (;;) {
		const double until = now_s() + 0.9e-3 * batch * ms;
		for (int b = 0; b < batch; b++)
			if (check((cudaError_t)launch(out, in, vel, g, c), "k_launch"))
				return 1;
		done += phase == 1 ? batch : 0;
		do {
			if (nv->energy(nv->dev, &x))
				return 1;
		} while (x == e && now_s() < until);
		if (phase == 1 && done >= 1000 && now_s() - t0 >= 2.0)
			phase = 2;
		if (x != e && phase == 0) {
			phase = 1;
			e0 = x;
			t0 = now_s();
		} else if (x != e && phase == 2) {
			*w = (double)(x - e0) * 1e-3 / (now_s() - t0);
			return check(cudaDeviceSynchronize(), "energy");
		}
		e = x;
	}
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
	#pragma omp parallel for schedule(static)
	for (long long i = 0; i < total; i++) {
		in[i] = (fd_real)rnd((unsigned long long)i, 0, -1, 1);
		vel[i] = (fd_real)rnd((unsigned long long)i, 1, 0.5, 1);
		base[i] = (fd_real)rnd((unsigned long long)i, 2, -1, 1);
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
		/* with --placements P, P - 1 more medians, each on device fields
		 * allocated anew while every earlier placement is still held, so
		 * that each lies elsewhere: does a kernel's time depend on where
		 * its fields lie, within one process as from one process to the
		 * next? */
		const int np = argc > 7 && !strcmp(argv[6], "--placements") ? atoi(argv[7]) : 1;
		const int energy = argc > 6 && !strcmp(argv[6], "--energy");
		const double moved = (step ? 4.0 : 2.0) * nx * ny * (double)nz * sizeof(fd_real);
		fd_real *held[3 * 64] = { 0 };
		double med;
		int k;
		if (np < 1 || np > 64) {
			fprintf(stderr, "--placements %s: expected 1..64\n", argv[7]);
			return 2;
		}
		if (time_it(dout + origin, din + origin, dvel + origin, g, &c, reps, autot, &med, &k))
			return 1;
		printf("time %dx%dx%d: median %.4f ms, %.1f GB/s over %d launches\n", nx, ny, nz,
		       med, moved / (med * 1e-3) * 1e-9, k);
		if (energy) {
			struct nvml nv;
			if (nvml_open(&nv))
				return 1;
			for (int round = 0; round < 3; round++) {
				double w;
				if (energy_round(&nv, dout + origin, din + origin, dvel + origin, g, &c,
						 med, &w))
					return 1;
				printf("energy %dx%dx%d round %d: %.1f W, %.4f J a launch, %.3f J/Gpt "
				       "over 1000 launches or more (2 s)\n",
				       nx, ny, nz, round + 1, w, w * med * 1e-3,
				       w * med * 1e-3 / (nx * (double)ny * nz * 1e-9));
			}
		}
		for (int pl = 1; pl < np; pl++) {
			fd_real *f[3] = { din, dout, dvel }, *nf[3];
			for (int i = 0; i < 3; i++)
				if (check(cudaMalloc(&nf[i], bytes), "cudaMalloc") ||
				    check(cudaMemcpy(nf[i], f[i], bytes, cudaMemcpyDeviceToDevice), "copy"))
					return 1;
			for (int i = 0; i < 3; i++)
				held[3 * (pl - 1) + i] = f[i];
			din = nf[0], dout = nf[1], dvel = nf[2];
			if (time_it(dout + origin, din + origin, dvel + origin, g, &c, reps, autot, &med, &k))
				return 1;
			printf("placement %d %dx%dx%d: median %.4f ms over %d launches\n", pl, nx, ny, nz,
			       med, k);
		}
		for (int i = 0; i < 3 * 64; i++)
			if (held[i] && check(cudaFree(held[i]), "cudaFree"))
				return 1;
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
