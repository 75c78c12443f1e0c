/*
 * t_energy.c: energy, on the CPU, through the test double of NVML
 * (tests/fake_nvml.c, loaded by $FDTUNE_NVML as the real one would be).
 * - The counter: found by the GPU's UUID; it advances at the double's
 *   power, so the joules over a measured interval give that power back;
 *   the state reports power, limit and clocks.
 * - What goes wrong says what: a library that is not there, a GPU that the
 *   library does not know, a library without the energy functions.
 * - Windows aligned on the counter's updates (tn_energy.c) measure the
 *   double's power within 2% however its updates fall, and give the energy
 *   a launch as power times its time.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt.h"
#include "rt_energy.h"
#include "tn_energy.h"

static struct rt_dev board(const char *uuid)
{
	struct rt_dev d;
	memset(&d, 0, sizeof d);
	snprintf(d.vendor, sizeof d.vendor, "nvidia");
	snprintf(d.name, sizeof d.name, "NVIDIA H100 80GB HBM3");
	snprintf(d.uuid, sizeof d.uuid, "%s", uuid);
	snprintf(d.pci, sizeof d.pci, "pci:0000:00:06");
	return d;
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static void sleep_s(double s)
{
	struct timespec t = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };
	nanosleep(&t, NULL);
}

static int setup(void **st)
{
	(void)st;
	setenv("FDTUNE_NVML", FAKE_NVML_PATH, 1);
	setenv("FAKE_NVML_UUID", "GPU-2f43e0c6-e6dd-cd83-d242-b461b7c717d0", 1);
	setenv("FAKE_NVML_WATTS", "250", 1);
	setenv("FAKE_NVML_TICK_MS", "20", 1);
	return 0;
}

static void counter(void **st)
{
	struct rt_dev d = board("GPU-2f43e0c6-e6dd-cd83-d242-b461b7c717d0");
	struct rt_energy *e;
	struct rt_power_state ps;
	char err[512];
	double j0, j1, t0, t1;
	(void)st;
	if (rt_energy_open(&d, &e, err, sizeof err))
		fail_msg("%s", err);
	assert_string_equal(rt_energy_source(e), "NVML");
	assert_int_equal(rt_energy_read(e, &j0, err, sizeof err), 0);
	t0 = now_s();
	sleep_s(0.3);
	assert_int_equal(rt_energy_read(e, &j1, err, sizeof err), 0);
	t1 = now_s();
	/* 250 W over 0.3 s, give or take a tick of 20 ms at each end */
	assert_true(fabs((j1 - j0) - 250 * (t1 - t0)) <= 250 * 0.045);
	assert_int_equal(rt_energy_state(e, &ps, err, sizeof err), 0);
	assert_true(ps.watts == 250 && ps.limit_w == 700);
	assert_true(ps.sm_mhz == 1980 && ps.mem_mhz == 2619);
	rt_energy_close(e);
}

static void refused(void **st)
{
	struct rt_dev d = board("GPU-00000000-0000-0000-0000-000000000000");
	struct rt_energy *e = (struct rt_energy *)&d;
	char err[512];
	(void)st;
	assert_int_equal(rt_energy_open(&d, &e, err, sizeof err), 1);
	assert_null(e);
	assert_non_null(strstr(err, "NVML has no GPU GPU-00000000-0000"));
	assert_non_null(strstr(err, "Not Found"));
	setenv("FDTUNE_NVML", "/nonexistent/libnvidia-ml.so.1", 1);
	assert_int_equal(rt_energy_open(&d, &e, err, sizeof err), 1);
	assert_non_null(strstr(err, "cannot load NVML (/nonexistent/libnvidia-ml.so.1)"));
	/* a library without NVML's functions: the C library itself */
	setenv("FDTUNE_NVML", "libc.so.6", 1);
	assert_int_equal(rt_energy_open(&d, &e, err, sizeof err), 1);
	assert_non_null(strstr(err, "NVML lacks the energy functions"));
	setenv("FDTUNE_NVML", FAKE_NVML_PATH, 1);
	snprintf(d.vendor, sizeof d.vendor, "amd");
	setenv("FDTUNE_RSMI", "/nonexistent/librocm_smi64.so.1", 1);
	assert_int_equal(rt_energy_open(&d, &e, err, sizeof err), 1);
	assert_non_null(strstr(err, "cannot load ROCm SMI"));
}

/* A stand-in for launches: it sleeps a kernel's time each. */
static int nap(void *ctx, int i, char *err, size_t n)
{
	(void)i;
	(void)err;
	(void)n;
	sleep_s(*(double *)ctx * 1e-3);
	return 0;
}

static int no_sync(void *ctx, char *err, size_t n)
{
	(void)ctx;
	(void)err;
	(void)n;
	return 0;
}

static void windows(void **st)
{
	struct rt_dev d = board("GPU-2f43e0c6-e6dd-cd83-d242-b461b7c717d0");
	struct rt_energy *e;
	struct tn_energy_res r;
	char err[512];
	const char *ticks[] = { "20", "7", "50" };
	double ms = 2.0;
	(void)st;
	for (int k = 0; k < 3; k++) {
		setenv("FAKE_NVML_TICK_MS", ticks[k], 1);
		if (rt_energy_open(&d, &e, err, sizeof err))
			fail_msg("%s", err);
		struct tn_energy_run run = { nap, no_sync, &ms, ms, 0.25, 3 };
		if (tn_energy_measure(e, &run, &r, err, sizeof err))
			fail_msg("%s", err);
		if (fabs(r.watts - 250) > 5)
			fail_msg("tick %s ms: %.2f W measured, 250 drawn", ticks[k], r.watts);
		assert_true(r.spread >= 0 && r.spread < 0.04);
		assert_true(r.seconds >= 3 * 0.25 && r.seconds < 3 * 0.25 + 1);
		assert_true(fabs(r.joules_launch - r.watts * ms * 1e-3) < 1e-9);
		assert_int_equal(r.windows, 3);
		assert_true(r.state.limit_w == 700 && r.state.sm_mhz == 1980);
		rt_energy_close(e);
	}
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(counter), cmocka_unit_test(refused), cmocka_unit_test(windows),
	};
	return cmocka_run_group_tests_name("energy", t, setup, NULL);
}
