/*
 * tn_hdata.h: a problem's host data for validation, computed once per
 * sweep and shared by its workers. It is what a bench (tn_bench.h) checks
 * kernels with: the random inputs (in; in2 and vel for the time-stepping
 * families; base for a family with an acc parameter), the validation
 * weights, and the CPU reference with its error magnitudes (for a family
 * whose GPU check makes its own, tn_hdata_gpu_ref, only where the CPU
 * checks). At 512^3 the
 * reference costs seconds of every core; made in each worker, a plan on N
 * GPUs made it N times at once on the same cores, while the GPUs waited.
 *
 * The sweep makes it (tn_hdata_make) in one memory file (memfd) and hands
 * each worker the /proc path of that file (tn_hdata_path); the worker maps
 * it read-only (tn_hdata_map). Where no memory file can be made or mapped,
 * a worker makes its own copy: the same bits, as every value comes from
 * fixed seeds.
 */
#ifndef TN_HDATA_H
#define TN_HDATA_H

#include "tn.h"

#include <stddef.h>

struct tn_hdata {
	struct tn_layout l;
	struct tn_coef c;       /* validation weights: random (tn_hdata.c says why) */
	const float *in;        /* the input, fp32, l.total elements */
	const float *in2, *vel; /* time stepping: the field at step -1, and vel; else NULL */
	const float *base;      /* acc families: the output before the kernel; else NULL */
	const double *ref;      /* reference on the compact interior (two fields for
				 * time-stepping families: in's and in2's, after the steps); NULL
				 * where tn_hdata_gpu_ref */
	const float *mag;       /* its magnitudes, as tn_field.c's check takes them */
	void *map;              /* the mapping all of the above lie in */
	size_t size;
	int fd;                 /* the memory file, in the process that made it; else -1 */
};

/* Where outputs are checked: on the GPU (the default), on the CPU, or both,
 * which fails a run when the two disagree. $FDTUNE_CHECK = gpu, cpu, both. */
enum { TN_CHECK_GPU = 1, TN_CHECK_CPU = 2, TN_CHECK_BOTH = 3 };
int tn_check_mode(void);
/* Nonzero when the GPU check of pb takes a reference made on the GPU: a
 * family with one (tn_family.step_gpu), unless $FDTUNE_GPU_REF is 0.
 * tn_gpu_ref_env reads that variable into *on (1 when unset): 0, or 1 with
 * err set for a value other than 0 or 1. */
int tn_gpu_ref(const struct tn_problem *pb);
int tn_gpu_ref_env(int *on, char *err, size_t n);
/* Nonzero when tn_gpu_ref(pb) and the CPU does not check: the host data
 * of pb then has no reference (ref and mag NULL), and the host makes none. */
int tn_hdata_gpu_ref(const struct tn_problem *pb);

/* Bytes of the mapping of pb's host data. */
size_t tn_hdata_size(const struct tn_problem *pb);
/* Makes pb's host data in h: in a memory file another process can map
 * when share is nonzero and the system has them, else in private memory.
 * 0, or 1 with err set (out of memory) and h empty. */
int tn_hdata_make(struct tn_hdata *h, const struct tn_problem *pb, int share, char *err,
		  size_t n);
/* The path by which another process of this user maps h (tn_hdata_map);
 * "" when h is private. */
void tn_hdata_path(const struct tn_hdata *h, char *buf, size_t n);
/* Maps, read-only, the host data of pb that another process made, by its
 * path; 0, or 1 with err set and h empty. */
int tn_hdata_map(struct tn_hdata *h, const struct tn_problem *pb, const char *path, char *err,
		 size_t n);
/* Releases h (its mapping, and its file in the process that made it). */
void tn_hdata_free(struct tn_hdata *h);

#endif
