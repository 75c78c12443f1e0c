/* spin.c MODE SECONDS-ish: a fixed amount of CPU work, its wall seconds on
 * stdout. MODE alu: integer hashing in registers; mem: a pointer chase
 * through a 64 MiB random cycle (cache and DRAM latency, as a compiler's
 * pointer-heavy work). Each copy does the same work, so the slowdown of a
 * copy among others says what its vCPU shares. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + 1e-9 * t.tv_nsec;
}
int main(int argc, char **argv)
{
	unsigned long long x = 88172645463325252ull, acc = 0;
	double t0;
	if (argc < 2)
		return 2;
	if (!strcmp(argv[1], "alu")) {
		t0 = now();
		for (long i = 0; i < 600000000L; i++) {
			x ^= x << 13; x ^= x >> 7; x ^= x << 17;
			acc += x * 0x9E3779B97F4A7C15ull;
		}
	} else {
		size_t n = (64u << 20) / sizeof(size_t);
		size_t *a = malloc(n * sizeof *a), j = 0;
		for (size_t i = 0; i < n; i++)
			a[i] = i;
		for (size_t i = n - 1; i > 0; i--) {      /* Sattolo: one cycle */
			x ^= x << 13; x ^= x >> 7; x ^= x << 17;
			size_t k = x % i, t = a[i];
			a[i] = a[k]; a[k] = t;
		}
		t0 = now();
		for (long i = 0; i < 5000000L; i++)
			j = a[j];
		acc = j;
		free(a);
	}
	printf("%.3f %llu\n", now() - t0, acc & 1);
	return 0;
}
