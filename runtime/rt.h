/*
 * rt.h: the GPU runtime of fdtune, the only module that talks to a GPU.
 *
 * rt.c is written once against the HIP runtime API and hiprtc. On AMD it
 * builds against ROCm; on NVIDIA it builds against hip_nv.h, a small mapping
 * of exactly the HIP subset used here onto the CUDA driver API and NVRTC.
 * Every function returns 0 on success and otherwise a nonzero status with a
 * message in err[0..n). Device pointers are plain void *.
 */
#ifndef RT_H
#define RT_H

#include "fdt_rc.h"     /* the functions that can fail return its statuses */

#include <stddef.h>

/* Properties of one GPU as fdtune records them. */
struct rt_dev {
	int id;                 /* ordinal as seen by this process */
	char vendor[16];        /* "nvidia" or "amd" */
	char name[256];
	char arch[64];          /* compile target: "sm_90", "gfx90a" */
	char uuid[64];          /* the board's UUID, GPU-xxxxxxxx-xxxx-...: equal
				 * boards, and boards of other hosts, differ */
	char pci[32];           /* its PCI location on this host, pci:DDDD:BB:DD */
	int sms;                /* multiprocessors / compute units */
	long long mem;          /* bytes of device memory */
	long long l2;           /* bytes of L2 cache */
	int lds_block;          /* static LDS / shared bytes per block */
	int max_threads;        /* threads per block */
	int regs_block;         /* 32-bit registers per block */
	int warp;               /* warp / wavefront width */
};

/* Result of one run-time compilation. regs, lds and spill are -1 when the
 * compiler did not report them. code is NULL when the compile failed. */
struct rt_prog {
	void *code;
	size_t size;
	char *log;              /* always allocated, possibly empty */
	double ms;              /* wall time of the compile */
	char options[512];      /* every option given to the compiler */
	int regs, lds, spill;   /* spill: bytes of spill stores or scratch */
};

struct rt_kernel;
struct rt_timer;

const char *rt_platform(void);          /* "nvidia" or "amd" */
const char *rt_default_arch(void);      /* arch used when no GPU is present */
void rt_compiler(char *buf, size_t n);  /* "nvrtc 13.0" / "hiprtc 5.2" */

/* rt_init loads the driver and counts GPUs. *ndev = 0 with status 0 means
 * "no GPU here": compilation still works. */
int rt_init(int *ndev, char *err, size_t n);
int rt_device(int i, struct rt_dev *d, char *err, size_t n); /* select it */

/* The options rt_compile gives the compiler for arch, before any extra. */
void rt_compile_options(const char *arch, char *buf, size_t n);
int rt_compile(const char *src, const char *name, const char *arch,
			   const char *const *opts, int nopt, struct rt_prog *p,
			   char *err, size_t n);
void rt_prog_free(struct rt_prog *p);
/* The resources of kernel name (extern "C") of p, a program of one kernel
 * or several, as p's regs, lds and spill hold them for its first: 0, or -1
 * (each -1) where the compiler's report does not name it. */
int rt_prog_kernel(const struct rt_prog *p, const char *name, int *regs, int *lds, int *spill);
/* What rt_prog_kernel reads (rt_res.c), for either vendor's compiler: the
 * kernel's entry in ptxas's -v report in log, or in the AMDGPU metadata of
 * code[0..size); name NULL: the first kernel. */
int rt_res_ptxas(const char *log, const char *name, int *regs, int *lds, int *spill);
int rt_res_amdgpu(const void *code, size_t size, const char *name, int *regs, int *lds,
		  int *spill);

int rt_load(const struct rt_prog *p, const char *fn, struct rt_kernel **k,
			char *err, size_t n);
/* Resources of a loaded kernel as the driver sees them. */
int rt_attrs(struct rt_kernel *k, int *regs, int *lds, int *local,
			 int *max_threads, char *err, size_t n);
/* Every later launch of k gives it bytes of dynamic LDS (0 after rt_load);
 * over 48 KiB on NVIDIA this opts the kernel in, up to the device's limit. */
int rt_set_lds(struct rt_kernel *k, unsigned bytes, char *err, size_t n);
int rt_launch(struct rt_kernel *k, const unsigned grid[3],
			  const unsigned block[3], void **args, char *err, size_t n);
void rt_unload(struct rt_kernel *k);    /* releases report failures on stderr */

int rt_alloc(void **p, size_t bytes, char *err, size_t n);
void rt_free(void *p);
int rt_host_alloc(void **p, size_t bytes, char *err, size_t n); /* pinned */
void rt_host_free(void *p);
int rt_upload(void *dst, const void *src, size_t bytes, char *err, size_t n);
int rt_download(void *dst, const void *src, size_t bytes, char *err, size_t n);
int rt_copy(void *dst, const void *src, size_t bytes, char *err, size_t n);
int rt_fill(void *dst, int byte, size_t bytes, char *err, size_t n);
/* *yes = 1 where p lies in memory the selected GPU's kernels and rt_copy
 * use: device memory allocated on it, or managed memory allocated while it
 * was selected; 0 for host memory (pageable or pinned) and another GPU's. */
int rt_device_mem(const void *p, int *yes, char *err, size_t n);
int rt_sync(char *err, size_t n);

/* Device-event timer on the default stream. */
int rt_timer_new(struct rt_timer **t, char *err, size_t n);
int rt_timer_start(struct rt_timer *t, char *err, size_t n);
int rt_timer_stop(struct rt_timer *t, float *ms, char *err, size_t n);
void rt_timer_free(struct rt_timer *t);

#endif
