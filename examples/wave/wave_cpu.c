/*
 * wave_cpu.c: wave.h's device interface on the host, and wave_k_launch as
 * a CPU loop with the exported kernel's contract (one step of next = 2 prev
 * - next + vel L(prev) over the interior, in float). Linked instead of
 * wave_dev.cu and the exported kernel, it runs the same propagator
 * (wave_run.c) on a small grid without a GPU: the CPU test of examples/wave.
 */
#include "wave_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double marks[2];

const char *wd_error(void)
{
	return "host memory";
}

int wd_init(char *name, size_t n)
{
	snprintf(name, n, "the CPU (wave_cpu.c)");
	return 0;
}

float *wd_alloc(long long count)
{
	return calloc((size_t)count, sizeof(float));
}

void wd_free(float *p)
{
	free(p);
}

int wd_put(float *dst, const float *src, long long count)
{
	memcpy(dst, src, (size_t)count * sizeof *dst);
	return 0;
}

int wd_get(float *dst, const float *src, long long count)
{
	memcpy(dst, src, (size_t)count * sizeof *dst);
	return 0;
}

int wd_inject(float *next, long long off, const float *src, int s)
{
	next[off] += src[s];
	return 0;
}

int wd_record(float *seis, const float *f, long long off, int nr, int s)
{
	memcpy(seis + (long long)s * nr, f + off, (size_t)nr * sizeof *seis);
	return 0;
}

int wd_sync(void)
{
	return 0;
}

int wd_mark(int which)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	marks[which != 0] = t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
	return 0;
}

double wd_elapsed(void)
{
	return marks[1] - marks[0];
}

int wave_k_measured(int nx, int ny, int nz, const char **why)
{
	(void)nx;
	(void)ny;
	(void)nz;
	if (why)
		*why = "the CPU stepper of wave_cpu.c, no GPU kernel";
	return 0;
}

int wave_k_launch(float *next, const float *prev, const float *vel, struct fd_grid g,
		  const struct fd_coef *c, void *stream)
{
	const int r = wave_k_RADIUS;
	(void)stream;
	#pragma omp parallel for schedule(static)
	for (int k = 0; k < g.nz; k++)
		for (int j = 0; j < g.ny; j++)
			for (int i = 0; i < g.nx; i++) {
				const long long o = i + (long long)j * g.ld + k * g.slice;
				const float *u = prev + o;
				float lap = c->c0 * u[0];
				for (int q = 1; q <= r; q++)
					lap += c->x[q] * (u[-q] + u[q]) + c->y[q] * (u[-q * g.ld] + u[q * g.ld]) +
					       c->z[q] * (u[-q * g.slice] + u[q * g.slice]);
				next[o] = 2 * u[0] - next[o] + vel[o] * lap;
			}
	return 0;
}
