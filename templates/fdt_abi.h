/*
 * fdt_abi.h: the kernel ABI, the arguments every fdtune kernel takes after
 * its fields. The one definition: fdtune (tuner/tn.h) and exports (NAME.h)
 * include or paste it, NAME.f90's types follow it (tuner/export/tn_exp_f90.c),
 * and the kernels' prelude.m4 spells the same structs in the words every
 * recorded build's source hash covers (tests/t_export.c holds the two alike).
 * C, C++, CUDA, HIP; the includer defines fd_real.
 */
#ifndef FD_TYPES
#define FD_TYPES
/* The interior is nx x ny x nz points; a row is ld elements long, a plane
 * slice elements. */
struct fd_grid { int nx, ny, nz, ld; long long slice; };
/* The weights of offsets +-k, k = 1..8, along x, y and z (x[k], y[k],
 * z[k]); c0 the sum of the centre weights. FD_COEF_OF(T) is its body for
 * elements of type T, for a program that passes weights of both precisions. */
#define FD_COEF_OF(T) { T c0, x[9], y[9], z[9]; }
struct fd_coef FD_COEF_OF(fd_real);
#endif
