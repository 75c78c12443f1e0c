/*
 * fake_nvml.c: a test double of NVML, built as a shared library that the
 * tests load in the real one's place ($FDTUNE_NVML). It implements the
 * entry points fdtune uses (runtime/rt_energy.c), with the documented C
 * signatures: a GPU that draws a constant $FAKE_NVML_WATTS (default 250),
 * whose energy counter (mJ) advances by that power over real time in steps
 * of $FAKE_NVML_TICK_MS (default 20), as the driver updates it; power limit
 * 700 W, clocks 1980 and 2619 MHz. Only the UUID in $FAKE_NVML_UUID is
 * known, when it is set; any other is NVML_ERROR_NOT_FOUND (6).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* what the library exports: no prototypes elsewhere */
int nvmlInit_v2(void);
int nvmlShutdown(void);
const char *nvmlErrorString(int s);
int nvmlDeviceGetHandleByUUID(const char *uuid, void **dev);
int nvmlDeviceGetTotalEnergyConsumption(void *dev, unsigned long long *mj);
int nvmlDeviceGetPowerUsage(void *dev, unsigned *mw);
int nvmlDeviceGetEnforcedPowerLimit(void *dev, unsigned *mw);
int nvmlDeviceGetClockInfo(void *dev, int type, unsigned *mhz);

static int inits;
static double t0;
static int board;

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static double env(const char *name, double dflt)
{
	const char *s = getenv(name);
	return s && *s ? atof(s) : dflt;
}

int nvmlInit_v2(void)
{
	if (!inits++)
		t0 = now_s() - 1000.0;  /* a counter that has run a while */
	return 0;
}

int nvmlShutdown(void)
{
	return inits-- > 0 ? 0 : 1;     /* NVML_ERROR_UNINITIALIZED */
}

const char *nvmlErrorString(int s)
{
	return s == 6 ? "Not Found" : s == 1 ? "Uninitialized" : s ? "Unknown Error" : "Success";
}

int nvmlDeviceGetHandleByUUID(const char *uuid, void **dev)
{
	const char *want = getenv("FAKE_NVML_UUID");
	if (!inits)
		return 1;
	if (want && *want && strcmp(want, uuid))
		return 6;
	*dev = &board;
	return 0;
}

int nvmlDeviceGetTotalEnergyConsumption(void *dev, unsigned long long *mj)
{
	double tick = env("FAKE_NVML_TICK_MS", 20) * 1e-3, t = now_s() - t0;
	if (dev != &board)
		return 2;               /* NVML_ERROR_INVALID_ARGUMENT */
	t = tick > 0 ? (double)(long long)(t / tick) * tick : t;
	*mj = (unsigned long long)(env("FAKE_NVML_WATTS", 250) * t * 1e3);
	return 0;
}

int nvmlDeviceGetPowerUsage(void *dev, unsigned *mw)
{
	if (dev != &board)
		return 2;
	*mw = (unsigned)(env("FAKE_NVML_WATTS", 250) * 1e3);
	return 0;
}

int nvmlDeviceGetEnforcedPowerLimit(void *dev, unsigned *mw)
{
	if (dev != &board)
		return 2;
	*mw = 700000;
	return 0;
}

int nvmlDeviceGetClockInfo(void *dev, int type, unsigned *mhz)
{
	if (dev != &board)
		return 2;
	*mhz = type == 1 ? 1980 : type == 2 ? 2619 : 1755;
	return 0;
}
