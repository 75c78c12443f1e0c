/*
 * rt_energy.h: a GPU's energy counter, power, clocks and power limit, read
 * from the driver's management library, loaded at run time: NVML
 * (libnvidia-ml.so.1) on NVIDIA, ROCm SMI (librocm_smi64.so) on AMD. So
 * fdtune has no build dependency on either, and where one is missing it
 * says so and times as before. $FDTUNE_NVML and $FDTUNE_RSMI name another
 * library to load in their place (the tests' double of NVML). fdtune only
 * reads: it never sets a clock or a power limit.
 * Every function returns 0 on success, else nonzero with err[0..n) set.
 */
#ifndef RT_ENERGY_H
#define RT_ENERGY_H

#include <stddef.h>

struct rt_dev;
struct rt_energy;

/* What was in force on the GPU when read; a value the library does not
 * report is -1. */
struct rt_power_state {
	double watts;           /* power now (NVML: averaged over about a second) */
	double limit_w;         /* the enforced power limit */
	double sm_mhz, mem_mhz; /* clocks now */
};

/* Opens the counter of GPU dev (matched by its UUID on NVIDIA, its PCI
 * location on AMD). */
int rt_energy_open(const struct rt_dev *dev, struct rt_energy **e, char *err, size_t n);
/* The GPU's energy counter in joules since an arbitrary origin; it moves
 * in steps as the driver updates it (every few to tens of milliseconds). */
int rt_energy_read(struct rt_energy *e, double *joules, char *err, size_t n);
int rt_energy_state(struct rt_energy *e, struct rt_power_state *st, char *err, size_t n);
/* The library in use, e.g. "NVML" or "ROCm SMI", for messages and records. */
const char *rt_energy_source(const struct rt_energy *e);
void rt_energy_close(struct rt_energy *e);

#endif
