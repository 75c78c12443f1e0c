/*
 * rt_energy.c: the energy counters of rt_energy.h. Each library's few
 * entry points are declared here by their documented C signatures and
 * looked up with dlsym, so neither nvml.h nor rocm_smi.h is needed to
 * build. One process opens the library once (its init is reference
 * counted by the library itself); each open device holds a handle.
 * On AMD the clocks are not read (ROCm SMI returns them as a table of
 * levels whose layout changed across releases): they are -1.
 */
#define _GNU_SOURCE
#include "fdt_rc.h"
#include "rt_energy.h"
#include "rt.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* NVML: nvmlReturn_t is an int enum, 0 success; nvmlDevice_t a pointer */
typedef int (*nv_init_t)(void);
typedef const char *(*nv_str_t)(int);
typedef int (*nv_by_uuid_t)(const char *, void **);
typedef int (*nv_ull_t)(void *, unsigned long long *);
typedef int (*nv_uint_t)(void *, unsigned *);
typedef int (*nv_clock_t)(void *, int, unsigned *);
enum { NV_CLOCK_SM = 1, NV_CLOCK_MEM = 2 };

/* ROCm SMI: rsmi_status_t an int enum, 0 success; devices by index */
typedef int (*rs_init_t)(uint64_t);
typedef int (*rs_shut_t)(void);
typedef int (*rs_count_t)(uint32_t *);
typedef int (*rs_pci_t)(uint32_t, uint64_t *);
typedef int (*rs_energy_t)(uint32_t, uint64_t *, float *, uint64_t *);
typedef int (*rs_power_t)(uint32_t, uint32_t, uint64_t *);
typedef int (*rs_str_t)(int, const char **);

struct rt_energy {
	void *lib;
	int amd, inited;        /* inited: the library's init succeeded */
	char what[16];
	/* NVML */
	void *dev;
	nv_init_t nv_shutdown;
	nv_str_t nv_error;
	nv_ull_t nv_energy;
	nv_uint_t nv_power, nv_limit;
	nv_clock_t nv_clock;
	/* ROCm SMI */
	uint32_t ind;
	rs_shut_t rs_shutdown;
	rs_energy_t rs_energy;
	rs_power_t rs_power, rs_cap;
	rs_str_t rs_error;
};

/* The message of status s of e's library. */
static const char *why(const struct rt_energy *e, int s)
{
	const char *m = NULL;
	if (e->amd) {
		if (e->rs_error && !e->rs_error(s, &m) && m)
			return m;
	} else if (e->nv_error && (m = e->nv_error(s))) {
		return m;
	}
	return "error";
}

static void *sym(struct rt_energy *e, const char *name, int *missing)
{
	void *p = dlsym(e->lib, name);
	*missing |= !p;
	return p;
}

static int open_nvml(struct rt_energy *e, const struct rt_dev *d, char *err, size_t n)
{
	nv_init_t init;
	nv_by_uuid_t by_uuid;
	int miss = 0, s;
	init = (nv_init_t)sym(e, "nvmlInit_v2", &miss);
	by_uuid = (nv_by_uuid_t)sym(e, "nvmlDeviceGetHandleByUUID", &miss);
	e->nv_shutdown = (nv_init_t)sym(e, "nvmlShutdown", &miss);
	e->nv_error = (nv_str_t)sym(e, "nvmlErrorString", &miss);
	e->nv_energy = (nv_ull_t)sym(e, "nvmlDeviceGetTotalEnergyConsumption", &miss);
	e->nv_power = (nv_uint_t)sym(e, "nvmlDeviceGetPowerUsage", &miss);
	e->nv_limit = (nv_uint_t)sym(e, "nvmlDeviceGetEnforcedPowerLimit", &miss);
	e->nv_clock = (nv_clock_t)sym(e, "nvmlDeviceGetClockInfo", &miss);
	if (miss) {
		snprintf(err, n, "NVML lacks the energy functions (a driver older than Volta's?)");
		return FDT_FAIL;
	}
	if ((s = init())) {
		snprintf(err, n, "NVML: nvmlInit: %s", why(e, s));
		return FDT_FAIL;
	}
	e->inited = 1;
	if ((s = by_uuid(d->uuid, &e->dev))) {
		snprintf(err, n, "NVML has no GPU %s (%s): %s", d->uuid, d->name, why(e, s));
		return FDT_FAIL;
	}
	return FDT_OK;
}

static int open_rsmi(struct rt_energy *e, const struct rt_dev *d, char *err, size_t n)
{
	rs_init_t init;
	rs_count_t count;
	rs_pci_t pci;
	unsigned dom, bus, dev;
	uint32_t nd = 0;
	int miss = 0, s;
	init = (rs_init_t)sym(e, "rsmi_init", &miss);
	count = (rs_count_t)sym(e, "rsmi_num_monitor_devices", &miss);
	pci = (rs_pci_t)sym(e, "rsmi_dev_pci_id_get", &miss);
	e->rs_shutdown = (rs_shut_t)sym(e, "rsmi_shut_down", &miss);
	e->rs_energy = (rs_energy_t)sym(e, "rsmi_dev_energy_count_get", &miss);
	e->rs_power = (rs_power_t)sym(e, "rsmi_dev_power_ave_get", &miss);
	e->rs_cap = (rs_power_t)sym(e, "rsmi_dev_power_cap_get", &miss);
	e->rs_error = (rs_str_t)sym(e, "rsmi_status_string", &miss);
	if (miss) {
		snprintf(err, n, "ROCm SMI lacks the energy functions (a release before 4.0?)");
		return FDT_FAIL;
	}
	if (sscanf(d->pci, "pci:%x:%x:%x", &dom, &bus, &dev) != 3) {
		snprintf(err, n, "GPU %s has no PCI location to find it by in ROCm SMI", d->name);
		return FDT_FAIL;
	}
	if ((s = init(0))) {
		snprintf(err, n, "ROCm SMI: rsmi_init: %s", why(e, s));
		return FDT_FAIL;
	}
	e->inited = 1;
	if ((s = count(&nd))) {
		snprintf(err, n, "ROCm SMI: %s", why(e, s));
		return FDT_FAIL;
	}
	for (uint32_t i = 0; i < nd; i++) {
		uint64_t b = 0;
		/* bdfid: domain << 32 | bus << 8 | device << 3 | function */
		if (!pci(i, &b) && (b >> 32) == dom && (b >> 8 & 0xff) == bus &&
		    (b >> 3 & 0x1f) == dev) {
			e->ind = i;
			return FDT_OK;
		}
	}
	snprintf(err, n, "ROCm SMI has no GPU at %s (%s) among its %u", d->pci, d->name, nd);
	return FDT_FAIL;
}

int rt_energy_open(const struct rt_dev *dev, struct rt_energy **ep, char *err, size_t n)
{
	struct rt_energy *e = calloc(1, sizeof *e);
	const char *env, *path;
	int rc;
	*ep = NULL;
	if (!e) {
		snprintf(err, n, "out of memory");
		return FDT_FAIL;
	}
	e->amd = !strcmp(dev->vendor, "amd");
	snprintf(e->what, sizeof e->what, "%s", e->amd ? "ROCm SMI" : "NVML");
	env = getenv(e->amd ? "FDTUNE_RSMI" : "FDTUNE_NVML");
	path = env && *env ? env : e->amd ? "librocm_smi64.so.1" : "libnvidia-ml.so.1";
	if (!(e->lib = dlopen(path, RTLD_NOW | RTLD_LOCAL)) && !env && e->amd)
		e->lib = dlopen(path = "/opt/rocm/lib/librocm_smi64.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!e->lib) {
		const char *d = dlerror();
		snprintf(err, n, "cannot load %s (%s): %s", e->what, path, d ? d : "not found");
		free(e);
		return FDT_FAIL;
	}
	rc = e->amd ? open_rsmi(e, dev, err, n) : open_nvml(e, dev, err, n);
	if (rc) {
		rt_energy_close(e);
		return FDT_FAIL;
	}
	*ep = e;
	return FDT_OK;
}

int rt_energy_read(struct rt_energy *e, double *joules, char *err, size_t n)
{
	int s;
	if (e->amd) {
		uint64_t c = 0, ts = 0;
		float res = 0;
		if ((s = e->rs_energy(e->ind, &c, &res, &ts)))
			return snprintf(err, n, "ROCm SMI energy: %s", why(e, s)), 1;
		*joules = (double)c * res * 1e-6;       /* counts of res microjoules */
		return FDT_OK;
	}
	unsigned long long mj = 0;
	if ((s = e->nv_energy(e->dev, &mj)))
		return snprintf(err, n, "NVML energy: %s", why(e, s)), 1;
	*joules = (double)mj * 1e-3;
	return FDT_OK;
}

int rt_energy_state(struct rt_energy *e, struct rt_power_state *st, char *err, size_t n)
{
	int s;
	st->watts = st->limit_w = st->sm_mhz = st->mem_mhz = -1;
	if (e->amd) {
		uint64_t p = 0;
		if ((s = e->rs_power(e->ind, 0, &p)))
			return snprintf(err, n, "ROCm SMI power: %s", why(e, s)), 1;
		st->watts = (double)p * 1e-6;
		if (!e->rs_cap(e->ind, 0, &p))
			st->limit_w = (double)p * 1e-6;
		return FDT_OK;
	}
	unsigned v = 0;
	if ((s = e->nv_power(e->dev, &v)))
		return snprintf(err, n, "NVML power: %s", why(e, s)), 1;
	st->watts = v * 1e-3;
	if (!e->nv_limit(e->dev, &v))
		st->limit_w = v * 1e-3;
	if (!e->nv_clock(e->dev, NV_CLOCK_SM, &v))
		st->sm_mhz = v;
	if (!e->nv_clock(e->dev, NV_CLOCK_MEM, &v))
		st->mem_mhz = v;
	return FDT_OK;
}

const char *rt_energy_source(const struct rt_energy *e)
{
	return e->what;
}

void rt_energy_close(struct rt_energy *e)
{
	if (!e)
		return;
	if (e->inited && e->amd)
		e->rs_shutdown();
	else if (e->inited)
		e->nv_shutdown();
	if (e->lib)
		dlclose(e->lib);
	free(e);
}
