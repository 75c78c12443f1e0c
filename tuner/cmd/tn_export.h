/*
 * tn_export.h: what fdtune export's two files share: cmd_export.c (one
 * kernel, or one per device) and cmd_export_sizes.c (--all-sizes, one per
 * recorded size, picked at run time by templates/fdt_rule.h).
 */
#ifndef TN_EXPORT_H
#define TN_EXPORT_H

#include <stdio.h>

#include "db.h"
#include "tn.h"
#include "tn_exp_build.h"

/* The launch function's parameters and the kernel's arguments of the family
 * set by tn_exp_abi: (out, in), or (next, prev, vel) for time stepping. */
extern const char *tn_exp_params, *tn_exp_args;
void tn_exp_abi(const struct tn_family *fam);
/* The scale of axis a (0 x, 1 y, 2 z) in NAME_coef for family f: "1 / (hx *
 * hx)" (second derivatives), "1 / hx" (first), or zero for an axis f does not
 * take (with zero NULL, the expression for every axis); in buf[0..n). */
void tn_exp_scale(const struct tn_family *f, int a, const char *zero, char *buf, size_t n);
/* NAME.h for the runs p[0..np) with configurations cfg[0..np); dflt, when
 * not NULL, the configuration for any other device; rule, when not NULL,
 * comment lines on the pick by size (NAME_which is then declared); m[0..nk)
 * the measured builds of NAME.cu's kernels (NAME_measured is declared). */
int tn_exp_header(FILE *o, const char *name, const struct db_pick *p, int np, char cfg[][512],
		  const char *db_path, const char *dflt, const char *rule, const struct tn_measured *m,
		  int nk);
/* The table NAME_devices of the nd device names dev and static int
 * NAME_FN(void): the current device's index in it, nd for any other (looked
 * up once per device). */
void tn_exp_device_pick(FILE *o, const char *name, const char *fn, int nd,
			const char (*dev)[256]);
/* Opens DIR/NAME.EXT for writing; the path in path[0..pn). */
/* The opening of a NAME.cu of several kernels: banner, the runtime's
 * header for nvcc or hipcc (FD_RT, FD_PROP name its API), NAME.h, prelude. */
void tn_exp_preamble(FILE *o, const char *name, const char *prelude);
int tn_exp_file(const char *dir, const char *name, const char *ext, char *path, size_t pn,
		FILE **f, char *err, size_t n);
/* Configuration params (JSON) of p's problem as values v and text cfg and,
 * when kname is not NULL, its source named kname and its launch geometry;
 * with fit, a configuration over sm_90's limits becomes its first fitting
 * neighbour. */
int tn_exp_kernel(struct db *db, const struct tn_family *fam, const struct db_pick *p,
		  const char *params, int fit, const char *kname, int *v, char cfg[512],
		  char **src, char grid[3][96], unsigned block[3], long long *dyn, char *err,
		  size_t n);
/* The launch statements of NAME.cu's kernel k, whose source kernel is
 * kernel (a name, qualified as needed), with the dim3s grid and block in
 * scope and dyn bytes of dynamic LDS: its measured build where NAME_build
 * gives one (tn_exp_build.h), else the source kernel, which over 48 KiB is
 * first opted in, returning the runtime's error if that fails. Each line
 * starts with indent. */
void tn_exp_launch(FILE *o, const char *indent, const char *name, int k, const char *kernel,
		   long long dyn);
/* fdtune export --all-sizes (cmd_export_sizes.c): the best run of every
 * recorded size of the problem of f (family, radius, precision; device, or
 * every device with all), one kernel per distinct configuration, into
 * DIR/NAME.cu and NAME.h; with which (a grid), prints what that grid gets
 * instead. off: embed no measured build. A TN_EX_ status; err says what failed. */
int tn_exp_sizes(struct db *db, const struct db_filter *f, int all, const char *dir,
		 const char *name, const char *db_path, const int *which, int off, char *err,
		 size_t n);

#endif
