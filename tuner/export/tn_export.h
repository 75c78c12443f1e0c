/*
 * tn_export.h: fdtune export, a tuned kernel for another code. From the best
 * recorded run (or one named) it regenerates the kernel and writes
 *   NAME.cu   the kernel with its parameters baked in and NAME_launch(),
 *             which computes the grid and launches; for nvcc and hipcc;
 *   NAME.h    the C interface: the ABI (templates/fdt_abi.h), NAME_coef(),
 *             NAME_launch() and where the configuration came from;
 *   NAME.f90  with fortran, module NAME_fdtune for the same (tn_exp_f90.c).
 * tn_export is the command's one entry; the tn_exp_ functions below are what
 * the module's files share: tn_exp_emit.c (NAME.h and the pieces of every
 * NAME.cu), tn_exp_one.c (one kernel, or one per device), tn_exp_sizes.c
 * (one per recorded size), tn_exp_f90.c and tn_exp_name.c (which NAMEs).
 */
#ifndef TN_EXPORT_H
#define TN_EXPORT_H

#include <stdio.h>

#include "db.h"
#include "tn.h"
#include "tn_exp_build.h"

/* What to export (fdtune export's options). */
struct tn_export {
	const char *db_path;    /* the database's path, quoted in the files */
	const char *dir;        /* where the files go, created with its parents */
	const char *name;       /* NULL: fdt_FAMILY_rR */
	struct db_filter flt;   /* the problem and device; family NULL: xyz */
	int run;                /* this run instead of the best (0: the best) */
	int all;                /* one kernel per device, and the family default */
	int sizes;              /* one kernel per recorded size (flt.radius needed) */
	int fortran;            /* NAME.f90 too */
	int source_only;        /* embed no measured build (tn_exp_build.h) */
	int which[3];           /* with sizes and which[0] > 0: print the pick for
				 * this grid and write nothing */
};

/* Exports x from db: writes the files and prints what went where. An fdt_rc.h
 * status; err says what failed, or matched nothing. */
int tn_export(struct db *db, const struct tn_export *x, char *err, size_t n);
/* 0 when name may name an export (files and symbols; with fortran, the
 * Fortran module too); else FDT_USAGE and why in err. */
int tn_exp_name(const char *name, int fortran, char *err, size_t n);

/* ---- shared by the export's files ---- */

/* The fields a family's kernels take, before the grid and the weights:
 * (out, in), or (next, prev, vel) for time stepping (tn.h, steps > 0). */
struct tn_abi {
	const char *params;     /* as NAME_launch declares them */
	const char *args;       /* as NAME_launch passes them to the kernel */
	const char *out;        /* the field written */
	int step;               /* 1 for (next, prev, vel) */
};
struct tn_abi tn_abi_of(const struct tn_family *f);
/* The scale of axis a (0 x, 1 y, 2 z) in NAME_coef for family f: "1 / (hx *
 * hx)" (second derivatives), "1 / hx" (first), or zero for an axis f does not
 * take (with zero NULL, the expression for every axis); in buf[0..n). */
void tn_exp_scale(const struct tn_family *f, int a, const char *zero, char *buf, size_t n);
/* NAME.h for the runs p[0..np) with configurations cfg[0..np); dflt, when
 * not NULL, the configuration for any other device; rule, when not NULL,
 * comment lines on the pick by size (NAME_which is then declared); m[0..nk)
 * the measured builds of NAME.cu's kernels (NAME_measured is declared).
 * Writers of a file (this one, the NAME.cu writers, tn_exp_f90) fail only
 * for what they write, never for I/O: tn_exp_close reports that. */
int tn_exp_header(FILE *o, const char *name, const struct tn_abi *abi, const struct db_pick *p,
		  int np, char cfg[][512], const char *db_path, const char *dflt, const char *rule,
		  const struct tn_measured *m, int nk, char *err, size_t n);
/* The table NAME_devices of the nd device names dev and static int
 * NAME_FN(void): the current device's index in it, nd for any other (looked
 * up once per device). */
void tn_exp_device_pick(FILE *o, const char *name, const char *fn, int nd,
			const char (*dev)[256]);
/* Text from outside (a path, the database's device names, dates, ...) made
 * safe to write into generated files, into buf[0..n) (cut short with "..."
 * when it does not fit), which it returns: with lit, the inside of a C or
 * C++ string literal that holds s ('"', '\\', control characters and the
 * second '?' of a trigraph as C escapes); else text for a comment of C, C++
 * or Fortran (control characters, and the second character of a C
 * comment's opening or closing, as \ooo). A buffer of 4 strlen(s) + 1
 * bytes always holds it whole. */
const char *tn_exp_esc(const char *s, int lit, char *buf, size_t n);
/* What the comments of the files quote of run p, escaped whole (a path as
 * long as PATH_MAX may be cut). */
struct tn_exp_said { char device[1024], arch[256], created[128], precision[64], db[4200]; };
void tn_exp_say(const struct db_pick *p, const char *db_path, struct tn_exp_said *s);
/* The opening of every NAME.cu: banner, the runtime's
 * header for nvcc or hipcc (FD_RT, FD_PROP name its API), NAME.h, prelude. */
void tn_exp_preamble(FILE *o, const char *name, const char *prelude);
/* Opens DIR/NAME.EXT for writing (tn_file_open: a temporary file beside it;
 * a symbolic link there is refused); the path in path[0..pn). */
int tn_exp_file(const char *dir, const char *name, const char *ext, char *path, size_t pn,
		FILE **f, char *err, size_t n);
/* The text of file in the templates directory (gen_template_dir), into
 * *text (malloc'ed): what an export pastes (fdt_abi.h, fdt_rule.h). */
int tn_exp_template(const char *file, char **text, char *err, size_t n);
/* Closes f, the file path that a writer wrote, and returns the writer's
 * status rc when it failed (its message in err; path left as it was), else
 * 0 once the file is renamed over path (a replaced file is said on stderr)
 * or FDT_FAIL when writing, closing or renaming failed (the path and the
 * reason in err). */
int tn_exp_close(FILE *f, int rc, const char *path, char *err, size_t n);
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
void tn_exp_launch(FILE *o, const struct tn_abi *abi, const char *indent, const char *name,
		   int k, const char *kernel, long long dyn);
/* --all-sizes (tn_exp_sizes.c): the best run of every recorded size of the
 * problem of f (family, radius, precision; device, or every device with
 * all), one kernel per distinct configuration, into DIR/NAME.cu and NAME.h;
 * with which (a grid), prints what that grid gets instead; source_only:
 * embed no measured build. An fdt_rc.h status; err says what failed. */
int tn_exp_sizes(struct db *db, const struct db_filter *f, int all, const char *dir,
		 const char *name, const char *db_path, const int *which, int source_only,
		 char *err, size_t n);
/* NAME.f90 (tn_exp_f90.c): the runs p[0..np) as for NAME.h (cfg[np] the
 * fallback when np > 1). */
int tn_exp_f90(FILE *o, const char *name, const struct tn_abi *abi, const struct db_pick *p,
	       int np, char cfg[][512], const char *db_path, char *err, size_t n);

#endif
