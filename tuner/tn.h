/*
 * tn.h: the tuner's vocabulary. A problem is (family, R, nx, ny, nz,
 * precision); a family is one m4 template plus one descriptor in the family
 * table (tn_families.c): its parameters and their domains, its constraints,
 * launch geometry, bytes moved, coefficients and CPU reference. The sweep
 * loop knows families only through this descriptor, so adding a family never
 * touches it.
 *
 * A family with a parameter named "acc" accumulates when acc=1: the kernel
 * adds its result to the output (out += D u) instead of storing it, which is
 * how a multi-pass strategy builds a sum one pass at a time. The bench then
 * starts the output from a random base field and checks base + reference.
 */
#ifndef TN_H
#define TN_H

#include "fdt_rc.h"
#include <stddef.h>

#define TN_MAXP 16      /* parameters per family: libfdtune's FDTUNE_MAXP at most */
#define TN_MAXV 32      /* values per parameter domain */
#define TN_RMAX 8


struct tn_family;

/* The kernel ABI, struct fd_grid and struct fd_coef (templates/fdt_abi.h),
 * here with fp32 weights; the fp64 kernels' are tn_coef64 (tn_bench.h). */
typedef float fd_real;
#include "../templates/fdt_abi.h"

/* Weights as the kernels receive them (fd_coef): x[k], y[k], z[k] for
 * offsets +-k, k = 1..R; c0 the summed centre weight. */
struct tn_coef FD_COEF_OF(float);
_Static_assert(sizeof ((struct tn_coef *)0)->x == (TN_RMAX + 1) * sizeof(float),
	       "fd_coef holds the weights of radius 1..TN_RMAX");

struct tn_problem {
	const struct tn_family *fam;
	int r, nx, ny, nz;
	const char *prec;       /* "fp32" or "fp64": the element type of every field */
	double h[3];            /* grid spacings hx, hy, hz */
};

/* One field in memory: R halo points on every side; the interior origin is
 * 128-byte aligned and ld is a multiple of 32 floats. Element (i,j,k) of the
 * interior, -R <= i < nx + R and so on, is at origin + i + j*ld + k*slice. */
struct tn_layout { int r, nx, ny, nz, ld; long long slice, origin, total; };

/* What the target allows; from the device, or the arch's defaults. */
struct tn_limits {
	int max_threads;
	int lds_block;          /* static LDS bytes per block */
	int lds_optin;          /* dynamic LDS bytes per block, with the opt-in */
	int bulk;               /* 1: cp.async.bulk into LDS with mbarrier byte counts (sm_90+) */
};

/* The part a parameter plays in the tile a block covers, which the shared
 * geometry (tn_fam_geom), the bytes moved and the benches read from the
 * descriptor rather than from the parameter's name (tn_param_role):
 *   VEC  elements per thread in x     BX, BY  threads of a block in x, y
 *   YPT  rows per thread in y         Z       planes of z per block
 *   ACC  1: the kernel adds to its output (the output is read too) */
enum tn_role { TN_ROLE_NONE, TN_ROLE_VEC, TN_ROLE_BX, TN_ROLE_BY, TN_ROLE_YPT, TN_ROLE_Z,
	       TN_ROLE_ACC };

struct tn_param {
	const char *name, *help;
	int lo, hi;             /* every value given must lie in lo..hi */
	int n, v[TN_MAXV];      /* default domain */
	/* 1: a knob added after kernels were recorded; at its value lo it is not
	 * passed to the template, whose default for it is lo, nor written in a
	 * configuration's JSON or text, so those kernels keep their source, their
	 * recorded builds their hash (export embeds them), and their
	 * configurations their identity; its default domain starts at lo, the value a
	 * configuration without it reads (tn_config_parse) */
	int late;
	/* 1: only the launch depends on it (the grid, from the descriptor's geom):
	 * it is not passed to the template, so configurations that differ in it
	 * alone have one source and share one build (tn_pool.c, the compile
	 * cache); where the family has launch_if, only in the configurations
	 * that launch_if says (tn_param_launch) */
	int launch;
	enum tn_role role;
};

struct tn_family {
	const char *name, *tmpl, *help;
	int np;
	struct tn_param p[TN_MAXP];
	/* 0 when config v can run for pb within lim, else 1 and why. */
	int (*check)(const struct tn_problem *pb, const int *v,
		     const struct tn_limits *lim, char *why, size_t n);
	void (*geom)(const struct tn_problem *pb, const int *v,
		     unsigned grid[3], unsigned block[3]);
	/* The same geometry as C source, for exported kernels: the grid as
	 * expressions in the ints nx, ny, nz (pb gives the family and radius,
	 * not the size), and the block as numbers. */
	void (*geom_src)(const struct tn_problem *pb, const int *v, char grid[3][96],
			 unsigned block[3]);
	/* Bytes of dynamic LDS every launch of config v must give (NULL: none);
	 * the same at every size. */
	long long (*dyn_lds)(const struct tn_problem *pb, const int *v);
	/* Effective bytes moved by config v: each point read once per input
	 * field (twice with acc=1, the output read too) and written once. */
	double (*bytes)(const struct tn_problem *pb, const int *v);
	void (*coef)(const struct tn_problem *pb, struct tn_coef *c);
	/* Reference over the interior, compact x-fastest: out = value in double
	 * precision, mag = sum of |term| (for the error bound). */
	void (*ref)(const struct tn_problem *pb, const struct tn_coef *c,
		    const struct tn_layout *l, const float *in, double *out,
		    float *mag);
	int (*terms)(int r);    /* terms summed per output point */
	/* Time-stepping families (iso3dfd) have steps > 0: the kernel ABI is
	 * (next, prev, vel, grid, coef), one step next = 2 prev - next +
	 * vel L(prev), and validation runs that many steps ping-pong from fields
	 * a (prev of the first step) and b, then checks both against step_ref:
	 * ua, ub the values a and b then hold (compact), ma, mb the propagated
	 * error bound, scaled as mag (the check multiplies by 2 (terms + 1) u). */
	int steps;
	int (*step_ref)(const struct tn_problem *pb, const struct tn_coef *c,
			const struct tn_layout *l, const float *a, const float *b,
			const float *vel, int steps, double *ua, double *ub, float *ma,
			float *mb, char *err, size_t n);
	/* NULL, or the helper template (templates/) of the same steps made on the GPU in
	 * double precision with the same bound (tn_wref.h), which the GPU check
	 * then takes in place of step_ref: the host makes step_ref only where the
	 * CPU checks (FDTUNE_CHECK) */
	const char *step_gpu;
	int axes;               /* TN_X | TN_Y | TN_Z (tn_ref.h) summed by tn_fam_ref and
				 * tn_fam_coef, for families that use them */
	int d1;                 /* coef gives first-derivative weights a_k / h on the
				 * axes (c0 = 0), not second-derivative ones w_k / h^2
				 * with c0 = w_0 sum 1 / h^2: what exports write out */
	const char *dflt;       /* a configuration that runs well anywhere (JSON) */
	/* NULL, or nonzero when parameter i, a launch parameter (tn_param), is
	 * one in configuration v too: a template may need it as a constant in
	 * some configurations */
	int (*launch_if)(const int *v, int i);
	/* NULL, or nonzero with why set when the default space of problem pb
	 * (never NULL) leaves configuration v out: a combination that costs
	 * much to build and that measurements showed never pays, at any size or
	 * at pb's (the descriptor cites them). Bit k of set says parameter k was
	 * given with -p; the rule names the parameters whose being given brings
	 * the combination back (iso3dfd: ku, not lds), and with set 0 says what
	 * a default sweep leaves out (replay). */
	int (*dflt_out)(const struct tn_problem *pb, const int *v, unsigned set, char *why,
			size_t n);
	const char *dflt_out_help;      /* the rule in a line, for gen --list */
};

/* tn_families.c */
extern const struct tn_family *const tn_families[];
const struct tn_family *tn_family(const char *name);
/* *f = tn_family(name), FDT_OK; else FDT_USAGE with err saying
 * "--family 'NAME': unknown; families: ..." (NAME's bytes that would not
 * show written \xNN). */
int tn_family_find(const char *name, const struct tn_family **f, char *err, size_t n);
/* The dynamic LDS bytes a launch of config v of pb gives (0 where its family
 * has none). */
long long tn_dyn_lds(const struct tn_problem *pb, const int *v);

/* tn_coef.c: central second-derivative weights of order 2R, w[0..R]. */
int tn_d2_weights(int r, double w[TN_RMAX + 1]);
/* tn_coef.c: central first-derivative weights of order 2R, a[1..R] for the
 * differences u(k) - u(-k); a[0] = 0. */
int tn_d1_weights(int r, double a[TN_RMAX + 1]);
/* tn_coef.c: the weights f's coef gives at unit spacing, w[0..R] (w[0] the
 * centre weight of one axis), which h (f->d1) or h^2 divides on each axis of
 * f->axes, zero on the others: the contract an exported NAME_coef writes
 * out. 0, or 1 for R outside 1..8. */
int tn_coef_unit(const struct tn_family *f, int r, double w[TN_RMAX + 1]);

/* tn_field.c */
void tn_layout_of(const struct tn_problem *pb, struct tn_layout *l);
void tn_fill_random(float *f, long long n, unsigned long long seed);
double tn_err_bound(int terms, float mag);
/* Sets every element outside the interior to the poison bits (0xFF bytes). */
void tn_poison_halo(const struct tn_layout *l, float *f);
/* Checks out against ref/mag on the interior and the poison bit pattern
 * elsewhere; returns the count of bad points, the largest |out - ref|
 * (infinite for a NaN) and the largest bound over the interior, and
 * describes the first bad element in first[0..n). */
long long tn_check(const struct tn_layout *l, const float *out, const double *ref,
		   const float *mag, int terms, double *max_err, double *bound,
		   char *first, size_t n);
/* The same for an accumulating kernel: out must hold base + ref on the
 * interior (base in the field layout), within the bound of terms + 1. */
long long tn_check_acc(const struct tn_layout *l, const float *out, const float *base,
		       const double *ref, const float *mag, int terms, double *max_err,
		       double *bound, char *first, size_t n);
/* The general check: out holds elements of es bytes (4 or 8); base, when
 * given, is added to the reference on the interior (bound of terms + 1 and
 * mag + |base|); halo, when given, holds what every element outside the
 * interior must still hold bit for bit (else the poison pattern). */
struct tn_chk {
	const struct tn_layout *l;
	const void *out;
	int es;
	const float *base;
	const void *halo;
	const double *ref;
	const float *mag;
	int terms;
};
long long tn_check_field(const struct tn_chk *q, double *max_err, double *bound,
			 char *first, size_t n);
/* The rounding unit of the bounds for elements of es bytes (tn_field.c). */
double tn_unit(int es);
/* The message of tn_check for bad points, the first at allocation index a. */
void tn_describe_bad(const struct tn_layout *l, long long bad, long long a, char *msg, size_t n);

/* tn_space.c: a space is the product of one domain per parameter. */
struct tn_space {
	const struct tn_family *fam;
	int n[TN_MAXP], v[TN_MAXP][TN_MAXV];
	unsigned set;           /* bit k: parameter k's domain given (tn_space_set) */
};
void tn_space_default(const struct tn_family *f, struct tn_space *s);
/* "name=v1,v2,..." replaces that parameter's domain and marks it given; a
 * value given twice is kept once (vec=4,4 is one value). */
int tn_space_set(struct tn_space *s, const char *spec, char *err, size_t n);
/* Nonzero with why set when s, for problem pb (never NULL), leaves
 * configuration v out although it is in the product of the domains: the
 * family's dflt_out rule, which the parameters it names lift when given with
 * -p (tn_family). */
int tn_space_out(const struct tn_space *s, const struct tn_problem *pb, const int *v, char *why,
		 size_t n);
long long tn_space_size(const struct tn_space *s);
void tn_space_at(const struct tn_space *s, long long i, int *v);
/* Configuration v as JSON ({"vec":4,...}) and as text (vec=4 ...), a late
 * parameter at its lo left out (tn_param). */
void tn_config_json(const struct tn_family *f, const int *v, char *buf, size_t n);
/* The values v of configuration json (read by SQLite through db); a
 * parameter json lacks takes the first value of its default domain, and
 * bit k of *given (when not NULL) says whether json has parameter k. */
struct db;
int tn_config_parse(struct db *db, const struct tn_family *f, const char *json, int *v,
		    unsigned *given, char *err, size_t n);
void tn_config_text(const struct tn_family *f, const int *v, char *buf, size_t n);
/* v = the configuration of f that text names, words "name=value" apart by
 * spaces (tn_config_text's form); a parameter not named takes the first
 * value of its default domain. Nonzero with err set for a name f lacks, a
 * value that is no integer, or a name given twice. Values are taken as given,
 * outside lo..hi too (unlike tn_space_set), so that f->check can be tested
 * on them. What tests and tools build configurations with, never by position. */
int tn_config_named(const struct tn_family *f, const char *text, int *v, char *err, size_t n);
/* A family's default v for problem pb brought within 48 KiB of LDS per
 * block (no opt-in: what any device gives), by the first value of the last
 * parameter that makes it fit; libfdtune's defaults (tn_defaults.c) and an
 * export's kernel for other devices alike. 0 with *moved the parameter
 * changed (-1: none); 1 with why set, v as it was, when no one parameter
 * can. */
int tn_default_fit(const struct tn_problem *pb, int *v, int *moved, char *why, size_t n);
int tn_param_index(const struct tn_family *f, const char *name);
/* The index of the parameter of f that plays role r, or -1 (none). */
int tn_param_role(const struct tn_family *f, enum tn_role r);

/* tn_problem.c */
struct gen_def;
/* Bytes of one field element: 4 for fp32, 8 for fp64. */
int tn_elem_size(const struct tn_problem *pb);
/* "fp32" or "fp64" into *prec (a static string). */
int tn_parse_prec(const char *s, const char **prec, char *err, size_t n);
/* 0 when parameter i of f is a late one at its lo (tn_param): left out of the
 * template's definitions, the configuration's JSON and its text; else 1. */
int tn_param_shown(const struct tn_family *f, const int *v, int i);
/* 1 when parameter i of configuration v of f is a launch parameter there
 * (tn_param.launch, narrowed by the family's launch_if): not in the source. */
int tn_param_launch(const struct tn_family *f, const int *v, int i);
/* The generator's definitions of configuration v of pb: r, dbl (1 for
 * fp64) and one per parameter but a late one at its lo (tn_param), TN_MAXP + 2
 * at most; returns their count. */
int tn_defs(const struct tn_problem *pb, const int *v, struct gen_def *d);
/* The kernel source of configuration v of pb, its symbol fdt_kernel, as a
 * sweep compiles it and its build's source_hash hashes it (*src malloc'ed):
 * the one definition the pool, gen, export and compact share. gen_source's
 * status. */
int tn_source(const struct tn_problem *pb, const int *v, char **src, char *err, size_t n);
/* Monotonic wall-clock seconds (tn_problem.c). */
double tn_now_s(void);
/* The processors this process may run on (its affinity: a Slurm job's
 * cores, taskset's), at least 1; the machine's count where unknown. Thread
 * counts start from it, so that a job given part of a node does
 * not size itself by the whole node (tn_problem.c). */
int tn_cpus(void);
/* The compile threads a sweep runs by default: twice tn_cpus(), at most
 * TN_MAXJOBS (a job given 16 cores of a node compiles on 32 threads, not on
 * the node's 128). A cold plan on 16 cores of the 2-H100 host took 327 s on
 * 32 threads and 392 s on 16 (NOTES v44); the 2-GPU plan on all 32 cores
 * took 222 s on 64 threads and 217-228 s on 32 (NOTES v48): twice the
 * CPUs gains where the threads would idle, and costs nothing where the
 * cores are saturated. */
int tn_compile_threads(void);
/* Compile threads run this many nice steps below the sweep (at nice 19 at
 * most), so that a GPU worker or the sweep's own thread, when it wakes,
 * gets a core before a compile (a CFS weight of about 9 to 1): on 8 cores,
 * 16 compile threads at the same priority stretched a plan's timing by a
 * fifth (results/NOTES.md v71). */
#define TN_NICE 10
/* The environment variable name, an integer lo..hi, into v; dflt where it
 * is unset or empty. FDT_FAIL where it is not such a number, err naming it
 * and saying what it sets (what) and that unset it takes dflt. */
int tn_env_int(const char *name, int lo, int hi, int dflt, const char *what, int *v,
	       char *err, size_t n);
/* FDTUNE_NICE (0..19; 0: compile threads at the sweep's priority), else
 * (unset or empty) TN_NICE, into v; FDT_FAIL with a message where it is
 * not such a number. */
int tn_nice(int *v, char *err, size_t n);
/* Lowers the calling thread by d nice steps (19 at most; d <= 0: not at
 * all), and with it the threads and processes it starts later (m4). Linux
 * keeps a nice value per thread; where that fails the thread runs at the
 * priority it has: a cost, never a wrong result. */
void tn_lower(int d);
/* The most compile threads a sweep runs (-j, and the pool's array). */
#define TN_MAXJOBS 64
int tn_parse_size(const char *s, int *nx, int *ny, int *nz, char *err, size_t n);
int tn_parse_int(const char *s, const char *what, int lo, int hi, int *v,
		 char *err, size_t n);
/* A stencil radius, 1..TN_RMAX, named what in the message (every command's
 * --radius and a plan file's field parse it here). */
int tn_parse_radius(const char *s, const char *what, int *r, char *err, size_t n);
void tn_limits_of_arch(const char *arch, struct tn_limits *lim);

#endif
