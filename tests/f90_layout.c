/*
 * f90_layout.c: the C half of the check that NAME.f90 of fdtune export
 * --fortran matches NAME.h. tests/f90_layout.f90, a Fortran program that
 * uses module k_fdtune, calls these functions with its own fd_grid and
 * fd_coef; each compares what the Fortran side built with what C builds
 * from k.h and returns the number of differences. Built by tests/t_fortran.c:
 *   cc -c -I EXPORT f90_layout.c; gfortran -I EXPORT f90_layout.f90 f90_layout.o
 * with the export of each family and precision under the name k.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "k.h"

int fd_check_layout(const long long off[9], size_t gsize, size_t csize);
int fd_check_grid(struct fd_grid g);
int fd_check_coef(const struct fd_coef *f, double hx, double hy, double hz);

static int same(const char *what, long long fortran, long long c)
{
	if (fortran != c)
		fprintf(stderr, "%s: %lld in Fortran, %lld in C\n", what, fortran, c);
	return fortran != c;
}

/* off: the byte offsets of nx, ny, nz, ld, slice in fd_grid and of c0, x,
 * y, z in fd_coef, as the Fortran compiler laid them out. */
int fd_check_layout(const long long off[9], size_t gsize, size_t csize)
{
	const long long c[9] = {
		offsetof(struct fd_grid, nx), offsetof(struct fd_grid, ny),
		offsetof(struct fd_grid, nz), offsetof(struct fd_grid, ld),
		offsetof(struct fd_grid, slice), offsetof(struct fd_coef, c0),
		offsetof(struct fd_coef, x), offsetof(struct fd_coef, y), offsetof(struct fd_coef, z)
	};
	static const char *const names[9] = { "nx", "ny", "nz", "ld", "slice", "c0", "x", "y", "z" };
	int bad = same("sizeof(struct fd_grid)", (long long)gsize, sizeof(struct fd_grid)) +
		  same("sizeof(struct fd_coef)", (long long)csize, sizeof(struct fd_coef));
	for (int i = 0; i < 9; i++)
		bad += same(names[i], off[i], c[i]);
	return bad;
}

/* g passed by value, as k_launch takes it: the values the Fortran side set. */
int fd_check_grid(struct fd_grid g)
{
	return same("nx", g.nx, 61) + same("ny", g.ny, -37) + same("nz", g.nz, 29) +
	       same("ld", g.ld, 128) + same("slice", g.slice, 5000000007LL);
}

/* The weights k_coef of k.h gives for these spacings, bit for bit. */
int fd_check_coef(const struct fd_coef *f, double hx, double hy, double hz)
{
	struct fd_coef c;
	k_coef(&c, hx, hy, hz);
	if (memcmp(&c, f, sizeof c)) {
		fprintf(stderr, "k_coef(%g, %g, %g): the Fortran weights differ from C's\n", hx, hy, hz);
		return 1;
	}
	return 0;
}
