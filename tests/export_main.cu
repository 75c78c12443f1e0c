/*
 * export_main.cu: a host program that fdtune does not build, standing for a
 * user's code. It includes a kernel exported by `fdtune export --name k`,
 * lays out fields as k.h's contract says, launches through k_launch() and
 * validates against its own CPU reference: random input, output poisoned,
 * every interior point within the error bound of README, the halo untouched.
 * Built with nvcc by tests/t_gpu.c:  nvcc export_main.cu k.cu -o ex; ex NX NY NZ
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

int main(int argc, char **argv)
{
	const int nx = argc > 3 ? atoi(argv[1]) : 61, ny = argc > 3 ? atoi(argv[2]) : 37,
		  nz = argc > 3 ? atoi(argv[3]) : 29, xoff = 32;
	const int ld = (xoff + (nx + 3) / 4 * 4 + 8 + 31) / 32 * 32;
	const long long slice = (long long)ld * (ny + 2 * R), total = slice * (nz + 2 * R);
	const long long origin = R * slice + (long long)R * ld + xoff;
	float *in = (float *)malloc(total * 4), *out = (float *)malloc(total * 4), *din, *dout;
	struct fd_grid g = { nx, ny, nz, ld, slice };
	struct fd_coef c;
	long long bad = 0;
	unsigned long long s = 12345;

	if (!in || !out || nx < 1 || ny < 1 || nz < 1)
		return 2;
	for (long long i = 0; i < total; i++) {
		s = s * 6364136223846793005ULL + 1442695040888963407ULL;
		in[i] = (float)((double)(s >> 11) * 0x1.0p-53 * 2 - 1);
	}
	memset(out, 0xff, total * 4);
	k_coef(&c, 1, 1, 1);
	if (check(cudaMalloc(&din, total * 4), "cudaMalloc") ||
	    check(cudaMalloc(&dout, total * 4), "cudaMalloc") ||
	    check(cudaMemcpy(din, in, total * 4, cudaMemcpyHostToDevice), "copy in") ||
	    check(cudaMemcpy(dout, out, total * 4, cudaMemcpyHostToDevice), "poison") ||
	    check((cudaError_t)k_launch(dout + origin, din + origin, g, &c, 0), "k_launch") ||
	    check(cudaDeviceSynchronize(), "kernel") ||
	    check(cudaMemcpy(out, dout, total * 4, cudaMemcpyDeviceToHost), "copy out"))
		return 1;
	for (int k = -R; k < nz + R; k++)
		for (int j = -R; j < ny + R; j++)
			for (int i = -xoff; i < ld - xoff; i++) {
				long long a = origin + i + (long long)j * ld + k * slice;
				if (i >= 0 && i < nx && j >= 0 && j < ny && k >= 0 && k < nz) {
					const float *u = in + a;
					double ref = (double)c.c0 * u[0], mag = fabs(ref);
					for (int r = 1; r <= R; r++) {
						const double t[6] = { u[-r], u[r], u[-r * ld], u[r * ld],
							u[-r * slice], u[r * slice] };
						const float w[3] = { c.x[r], c.y[r], c.z[r] };
						for (int q = 0; q < 6; q++) {
							ref += (double)w[q / 2] * t[q];
							mag += fabs((double)w[q / 2] * t[q]);
						}
					}
					bad += !(fabs(out[a] - ref) <= 2.0 * (6 * R + 2) * 0x1.0p-24 * mag + 1e-30);
				} else {
					unsigned b;
					memcpy(&b, &out[a], 4);
					bad += b != 0xffffffffu;
				}
			}
	printf("exported kernel on %dx%dx%d: %lld bad points\n", nx, ny, nz, bad);
	cudaFree(din);
	cudaFree(dout);
	free(in);
	free(out);
	return bad != 0;
}
