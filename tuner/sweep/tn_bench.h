/*
 * tn_bench.h: measuring compiled kernels of one problem on one GPU. A bench
 * uses the problem's host data (tn_hdata.h: a random input, its reference)
 * and owns its fields on the GPU: those, and enough rotating input/output
 * pairs that timed launches do not run out of L2. tn_bench_run validates a kernel, then times it.
 */
#ifndef TN_BENCH_H
#define TN_BENCH_H

#include "rt.h"
#include "tn.h"
#include "tn_energy.h"
#include "tn_hdata.h"
#include "tn_pcache.h"
#include "tn_time.h"

#define TN_NROT 16
/* Placements of the fields a contender (a run under TN_PLACES_GATE times the
 * best so far, or the problem's first) is timed on, by default: its median is
 * the median of theirs. One kernel's time moves with where its fields lie in
 * device memory: by 3.8% for iso3dfd R = 8 at 640x480x400 on the H100
 * (results/NOTES.md v27), so the gate is wider than that. */
#define TN_PLACES 3
#define TN_PLACES_MAX 16
#define TN_PLACES_GATE 1.05

/* The weights argument of fp64 kernels (fd_coef with fd_real = double). */
struct tn_coef64 FD_COEF_OF(double);

struct tn_bench {
	const struct tn_problem *pb;
	struct tn_layout l;
	struct tn_coef c;       /* validation weights: random (tn_bench.c) */
	struct tn_coef ct;      /* timing weights: the family's own */
	struct fd_grid g;
	int terms, nrot;
	int es;                 /* bytes per element: 4 fp32, 8 fp64 */
	const float *in;        /* host, the problem's tn_hdata: input (fp32 values) */
	float *out;             /* output read back (pinned, es wide; NULL
				 * unless the CPU checks) */
	const float *in2, *vel; /* time-stepping families: the field at step -1, and vel */
	void *ha, *hb;          /* the same, in and in2 es wide, for the CPU halo check */
	const double *ref;      /* reference on the compact interior (two fields for
				 * time-stepping families: din's and dout's) */
	const float *mag;
	const float *base;      /* acc=1: the output before the kernel (layout) */
	int acc;                /* index of the family's acc parameter, or -1 */
	void *din[TN_NROT], *dout[TN_NROT], *dbase;
	void *dvel[TN_NROT], *da0, *db0;        /* time stepping: vel, initial fields */
	void *dref, *dmag, *dres;     /* the reference on the GPU, and check results */
	struct rt_kernel *check;      /* templates/check.m4 (the process's: tn_helper_get) */
	int mode;                     /* TN_CHECK_*: where outputs are checked */
	int gref;                     /* 1: dref was made on the GPU (tn_wref.h), not
				       * uploaded from the host's ref */
	struct rt_timer *t;
	struct tn_hold hold;          /* templates/spin.m4, for kernels of microseconds */
	double copy_gbs;        /* the roof: fdtune's own copy bandwidth */
	double race_ms;         /* best median so far: kernels that cannot win are
				 * raced out early (tn_bench.c); 0: off */
	double best_ms;         /* best median of the problem so far, raced or not; 0:
				 * none yet */
	int places;             /* placements a contender is timed on; <= 1: one */
	struct rt_energy *meter;        /* the GPU's energy counter, or NULL */
	double energy_s;        /* >0: an ok run's energy is measured, windows this long */
	double open_s[2];       /* tn_bench_open's seconds: the check kernel's load and the GPU
				 * reference (tn_wref.h), then
				 * the fields' allocations and uploads */
};

/* Outcome of one configuration; status is a runs.status value. */
struct tn_result {
	const char *status;
	char msg[512];
	double median, min, max, gbs, mcells, pct, max_err, bound;
	double check_s;         /* wall time of the validation */
	int reps;
	int energy;             /* 1: e holds the energy measured after the timing */
	struct tn_energy_res e;
	char esrc[16];          /* the counter's library: "NVML", "ROCm SMI" */
};

/* Opens a bench of pb on dev with pb's host data hd (inputs, reference),
 * which must outlive it: b points into hd and copies what the GPU needs. */
int tn_bench_open(struct tn_bench *b, const struct tn_problem *pb, const struct tn_hdata *hd,
		  const struct rt_dev *dev, double copy_gbs, char *err, size_t n);
void tn_bench_close(struct tn_bench *b);
/* What a bench of pb holds while open on dev, for the cache of a worker
 * (tn_pcache.h): its device bytes, with room for places - 1 more placements
 * of its timing fields (a contender's, tn_bench_run), and its host bytes. */
struct tn_pcost tn_bench_cost(const struct tn_problem *pb, const struct rt_dev *dev, int places);

/* Returns 0 when res holds the outcome, whatever it is; nonzero when the
 * GPU can no longer be used (a fault poisons the context): res then holds
 * the failing configuration's outcome, and err says what happened. */
int tn_bench_run(struct tn_bench *b, struct rt_kernel *k, const int *v,
		 const unsigned grid[3], const unsigned block[3], struct tn_result *res,
		 char *err, size_t n);


#endif
