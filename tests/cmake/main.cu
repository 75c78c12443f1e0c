/*
 * main.cu: a user's CUDA program built with CMake against an installed
 * fdtune, for tests/cmake/CMakeLists.txt and README's CMake example (which
 * tests/t_pkg.c builds; t_gpu.c's cmake_package runs it on a GPU). It asks
 * libfdtune which configuration the database given as its argument
 * recommends for the device, then runs the kernel that fdtune_add_kernels
 * exported as lap8 once on a 64^3 grid laid out as lap8.h's contract says,
 * and checks the result at the centre (the input is (x^2 + y^2 + z^2) / 64
 * about the centre, whose Laplacian is 6 / 64 everywhere). Prints what it
 * did; exits 0 when the result is right or there is no GPU, 1 otherwise.
 */
#include <cuda_runtime.h>
#include <fdtune.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "lap8.h"

int main(int argc, char **argv)
{
	const int n = 64, r = lap8_RADIUS, ld = (n + 2 * r + 31) / 32 * 32 + 32;
	const long long slice = (long long)ld * (n + 2 * r), total = slice * (n + 2 * r);
	const long long origin = r * slice + (long long)r * ld + 32;
	struct fd_grid g = { n, n, n, ld, slice };
	struct fdtune_config cfg;
	struct fd_coef c;
	cudaDeviceProp p;
	fdtune_db *db = NULL;
	fd_real *h = (fd_real *)malloc(total * sizeof *h), *in = NULL, *out = NULL;
	char err[256];
	int dev = 0, ok;

	if (!h)
		return 1;
	if (cudaGetDeviceCount(&dev) != cudaSuccess || dev == 0 ||
	    cudaGetDeviceProperties(&p, 0) != cudaSuccess) {
		printf("no GPU: built, not run\n");
		return 0;
	}
	if (argc > 1 && fdtune_open(argv[1], &db, err, sizeof err))
		fprintf(stderr, "%s; using defaults\n", err);
	if (!fdtune_lookup(db, p.name, "xyz", r, n, n, n, "fp32", &cfg, err, sizeof err))
		printf("libfdtune recommends on %s: %s\n", p.name, cfg.params);
	fdtune_close(db);
	for (long long i = 0; i < total; i++) {
		long long k = i / slice - r - n / 2, j = i % slice / ld - r - n / 2,
			  x = i % ld - 32 - n / 2;
		h[i] = (fd_real)(x * x + j * j + k * k) / 64;
	}
	lap8_coef(&c, 1, 1, 1);
	ok = cudaMalloc(&in, total * sizeof *h) == cudaSuccess &&
	     cudaMalloc(&out, total * sizeof *h) == cudaSuccess &&
	     cudaMemcpy(in, h, total * sizeof *h, cudaMemcpyHostToDevice) == cudaSuccess &&
	     lap8_launch(out + origin, in + origin, g, &c, 0) == 0 &&
	     cudaMemcpy(h, out, total * sizeof *h, cudaMemcpyDeviceToHost) == cudaSuccess;
	if (ok) {
		double v = h[origin + (n / 2) * slice + (n / 2) * ld + n / 2];
		printf("lap8 at the centre: %.6f (6/64 = %.6f)\n", v, 6.0 / 64);
		ok = fabs(v - 6.0 / 64) < 1e-3;
	} else {
		printf("lap8: %s\n", cudaGetErrorString(cudaGetLastError()));
	}
	cudaFree(in);
	cudaFree(out);
	free(h);
	return !ok;
}
