/*
 * online_main.cu: a user's time loop for the online tuning table
 * (results/h100/online/online.sh), a program fdtune does not build. It
 * includes a kernel exported by `fdtune export --name k` (a stencil (out,
 * in) or a time step (next, prev, vel)), lays out fields as k.h's contract
 * says (32 elements before each row's interior, rows of a multiple of 32),
 * fills them with small random values, and runs STEPS steps of k_launch,
 * or with --online DB of libfdtune's fdtune_online_step with k_launch as
 * the program's own kernel (a time step swaps next and prev; a stencil
 * writes out from the same in every step). It prints the loop's time from
 * its first step to its last, events around it all (the tuning, and the
 * steps that waited for the compiles, included), then times AFTER more
 * steps of the kernel the loop ends on, and with --online prints the
 * report and the settling.
 *   nvcc -arch=sm_90 -DK_FAMILY='"xyz"' online_main.cu k.cu -o on (libfdtune, as
 *   results/h100/online/online.sh links it)
 *   on NX NY NZ STEPS [--after K] [--online DB [--tries T]]
 * Output lines: "loop: S steps, T ms, M ms a step" and "after: K steps, M
 * ms a step", and with --online "settled: S steps, W waiting, K trying".
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdtune.h"
#include "k.h"

#define R k_RADIUS
#ifdef k_STEP
#define NF 3
#else
#define NF 2
#endif
#ifndef K_FAMILY                /* the family k.h was exported from: -DK_FAMILY='"xyz"' */
#error "compile with -DK_FAMILY='\"FAMILY\"'"
#endif

static int check(cudaError_t e, const char *what)
{
	if (e != cudaSuccess)
		fprintf(stderr, "online_main: %s: %s\n", what, cudaGetErrorString(e));
	return e != cudaSuccess;
}

/* Uniform in [lo, hi), a hash of (i, stream). */
static float rnd(unsigned long long i, unsigned stream, double lo, double hi)
{
	unsigned long long z = i * 3 + stream + 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return (float)(lo + (double)(z >> 11) * 0x1.0p-53 * (hi - lo));
}

struct own { struct fd_grid g; const struct fd_coef *c; };

/* The program's own kernel on fields f (the export's argument order). */
static int own_kernel(void *ctx, void *const *f)
{
	const struct own *o = (const struct own *)ctx;
#ifdef k_STEP
	return k_launch((fd_real *)f[0], (const fd_real *)f[1], (const fd_real *)f[2], o->g, o->c, 0);
#else
	return k_launch((fd_real *)f[0], (const fd_real *)f[1], o->g, o->c, 0);
#endif
}

static int step(fdtune_online *ot, void **f, int nf, struct own *o);

/* Runs n steps on fields f (a time step swaps next and prev), timed with
 * events e0, e1 from the first to the last: their milliseconds in *ms. */
static int steps_of(fdtune_online *ot, fd_real **f, int nf, struct own *o, int n,
		    cudaEvent_t e0, cudaEvent_t e1, float *ms)
{
	void *p[3];
	if (check(cudaEventRecord(e0, 0), "event"))
		return 1;
	for (int s = 0; s < n; s++) {
		for (int a = 0; a < nf; a++)
			p[a] = f[a];
		if (step(ot, p, nf, o))
			return 1;
#ifdef k_STEP
		fd_real *t = f[0];
		f[0] = f[1];
		f[1] = t;
#endif
	}
	return check(cudaEventRecord(e1, 0), "event") || check(cudaEventSynchronize(e1), "sync") ||
	       check(cudaEventElapsedTime(ms, e0, e1), "elapsed");
}

static int step(fdtune_online *ot, void **f, int nf, struct own *o)
{
	char err[512];
	if (!ot)
		return own_kernel(o, f);
	if (fdtune_online_step(ot, f, nf, &o->g, o->c, own_kernel, o, err, sizeof err)) {
		fprintf(stderr, "online_main: %s\n", err);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const int nf = NF;
	int nx, ny, nz, steps, after = 200, tries = 0;
	const char *db = NULL;
	fdtune_online *ot = NULL;
	struct fd_coef c;
	struct own o;
	fd_real *f[3] = { NULL, NULL, NULL };
	cudaEvent_t e0, e1;
	float ms;
	char err[1024];

	if (argc < 5) {
		fprintf(stderr, "usage: %s NX NY NZ STEPS [--after K] [--online DB [--tries T]]\n",
			argv[0]);
		return 2;
	}
	nx = atoi(argv[1]);
	ny = atoi(argv[2]);
	nz = atoi(argv[3]);
	steps = atoi(argv[4]);
	for (int i = 5; i + 1 < argc; i += 2)
		if (!strcmp(argv[i], "--after"))
			after = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--online"))
			db = argv[i + 1];
		else if (!strcmp(argv[i], "--tries"))
			tries = atoi(argv[i + 1]);
	if (nx < 1 || ny < 1 || nz < 1 || steps < 1 || after < 1) {
		fprintf(stderr, "online_main: sizes, STEPS and --after must be positive\n");
		return 2;
	}
	{
		const int ld = (32 + nx + R + 31) / 32 * 32;
		const long long slice = (long long)ld * (ny + 2 * R);
		const long long total = slice * (nz + 2 * R) + 64;
		const long long origin = R * slice + (long long)R * ld + 32;
		fd_real *h = (fd_real *)malloc((size_t)total * sizeof *h);
		if (!h)
			return 1;
		o.g = (struct fd_grid){ nx, ny, nz, ld, slice };
		for (int a = 0; a < nf; a++) {
			void *d = NULL;
			for (long long i = 0; i < total; i++)
				h[i] = a == 2 ? (fd_real)0.01 : (fd_real)rnd(i, a, -0.5, 0.5);
			if (check(cudaMalloc(&d, (size_t)total * sizeof *h), "cudaMalloc") ||
			    check(cudaMemcpy(d, h, (size_t)total * sizeof *h, cudaMemcpyHostToDevice),
				  "upload"))
				return 1;
			f[a] = (fd_real *)d + origin;
		}
		free(h);
	}
	k_coef(&c, 1, 1, 1);
	o.c = &c;
	if (db) {
		struct fdtune_online_opts oo = { 0, 0, tries, NULL };
		if (fdtune_online_open(db, K_FAMILY, R, nx, ny, nz, sizeof(fd_real) == 8 ? "fp64" : "fp32", &oo, &ot, err,
				       sizeof err)) {
			fprintf(stderr, "online_main: %s\n", err);
			return 1;
		}
	}
	if (check(cudaEventCreate(&e0), "event") || check(cudaEventCreate(&e1), "event") ||
	    steps_of(ot, f, nf, &o, steps, e0, e1, &ms))
		return 1;
	printf("loop: %d steps, %.3f ms, %.5f ms a step\n", steps, ms, ms / steps);
	if (steps_of(ot, f, nf, &o, after, e0, e1, &ms))
		return 1;
	printf("after: %d steps, %.5f ms a step\n", after, ms / after);
	if (ot) {
		struct fdtune_config cfg;
		long long s = 0, w = 0;
		fdtune_online_report(ot, stdout);
		if (fdtune_online_settled(ot, &cfg, &s, &w))
			printf("settled: %lld steps, %lld waiting, %lld trying, on %s\n", s, w, s - w,
			       cfg.source == FDTUNE_ONLINE ? cfg.params : "the program's kernel");
		else
			printf("settled: never\n");
		fdtune_online_close(ot);
	}
	return 0;
}
