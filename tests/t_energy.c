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
 * - The objectives: three configurations timed and measured through the
 *   double at powers where the fastest, the most frugal and the least
 *   energy-delay product are three different ones; fdtune best and export
 *   by --objective time, energy and edp pick each, and so does libfdtune's
 *   fdtune_lookup_by; the report plots time against energy with the Pareto
 *   front; a compact keeps the energy, and a merge carries it.
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
#include <unistd.h>

#include "db.h"
#include "fdtune.h"
#include "rt.h"
#include "rt_energy.h"
#include "tn_energy.h"
#include "t_util.h"

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

/* Three configurations of xyz R = 4 64^3: (median ms, power drawn) */
static const struct { const char *params; double ms, watts; } cfgs[] = {
	{ "{\"vec\":4,\"bx\":32,\"by\":4,\"ypt\":2,\"lds\":1,\"nw\":64,\"nt\":0,\"pf\":0,"
	  "\"mb\":0,\"ku\":0,\"zd\":0,\"zu\":1}", 1.0, 400 },       /* fastest */
	{ "{\"vec\":2,\"bx\":64,\"by\":4,\"ypt\":2,\"lds\":1,\"nw\":64,\"nt\":0,\"pf\":0,"
	  "\"mb\":0,\"ku\":0,\"zd\":0,\"zu\":1}", 1.2, 250 },       /* least J x ms */
	{ "{\"vec\":1,\"bx\":128,\"by\":2,\"ypt\":2,\"lds\":0,\"nw\":64,\"nt\":0,\"pf\":0,"
	  "\"mb\":0,\"ku\":0,\"zd\":0,\"zu\":1}", 1.5, 180 },       /* fewest joules */
};

/* A database at path with the three runs, each with its energy measured
 * through the double at its power. */
static void make_db(const char *path)
{
	struct db *d;
	struct rt_dev b = board("GPU-2f43e0c6-e6dd-cd83-d242-b461b7c717d0");
	struct db_device dev = { "nvidia", b.name, "sm_90", b.uuid, 132, 80LL << 30, 50 << 20,
				 49152, 1024 };
	long long did, pid, sid;
	char err[512], w[32];
	assert_int_equal(db_open(path, &d, err, sizeof err), 0);
	assert_int_equal(db_device_id(d, &dev, &did, err, sizeof err), 0);
	assert_int_equal(db_problem_id(d, "xyz", 4, 64, 64, 64, "fp32", &pid, err, sizeof err), 0);
	assert_int_equal(db_sweep_begin(d, "t_energy", "host", did, pid, "gpu", &sid, err,
					sizeof err), 0);
	for (size_t i = 0; i < 3; i++) {
		struct rt_energy *e;
		struct tn_energy_res r;
		double ms = cfgs[i].ms;
		long long cid, rid;
		snprintf(w, sizeof w, "%g", cfgs[i].watts);
		setenv("FAKE_NVML_WATTS", w, 1);
		assert_int_equal(db_config_id(d, "xyz", cfgs[i].params, &cid, err, sizeof err), 0);
		struct db_run run = { sid, 0, did, pid, cid, "ok", "",
				      ms, ms, ms, 10, 1000 / ms, 262.144 / ms, 50, 0, 1 };
		assert_int_equal(db_run_add(d, &run, &rid, err, sizeof err), 0);
		if (rt_energy_open(&b, &e, err, sizeof err))
			fail_msg("%s", err);
		struct tn_energy_run m = { nap, no_sync, &ms, ms, 0.1, 3 };
		if (tn_energy_measure(e, &m, &r, err, sizeof err))
			fail_msg("%s", err);
		struct db_energy en = { rt_energy_source(e), r.joules_launch,
					r.joules_launch / (64.0 * 64 * 64 * 1e-9), r.watts, r.spread,
					r.seconds, r.windows, r.state.limit_w, r.state.sm_mhz,
					r.state.mem_mhz };
		assert_int_equal(db_energy_add(d, rid, &en, err, sizeof err), 0);
		rt_energy_close(e);
	}
	assert_int_equal(db_sweep_end(d, sid, "done", 3, 0, NULL, err, sizeof err), 0);
	db_close(d);
	setenv("FAKE_NVML_WATTS", "250", 1);
}

static void objectives(void **st)
{
	char dir[] = "/tmp/t_energy_XXXXXX", db[128], args[512], out[8192];
	static const char *const obj[] = { "time", "energy", "edp" };
	static const int want[] = { 0, 2, 1 };
	(void)st;
	assert_non_null(mkdtemp(dir));
	snprintf(db, sizeof db, "%s/e.db", dir);
	make_db(db);
	assert_int_equal(t_count(db, "select count(*) from energy where source = 'NVML' and "
				 "abs(watts - 180) < 5 and power_limit_w = 700"), 1);
	for (int k = 0; k < 3; k++) {
		/* the vec of each configuration tells which was picked */
		char vec[16];
		snprintf(vec, sizeof vec, "\"vec\":%c", cfgs[want[k]].params[7]);
		snprintf(args, sizeof args, "best --db %s --objective %s --json", db, obj[k]);
		t_expect("", args, 0, vec, out, sizeof out);
		if (k)
			assert_non_null(strstr(out, "\"j_per_gpt\""));
		else
			assert_null(strstr(out, "j_per_gpt"));
		snprintf(args, sizeof args, "export --db %s --objective %s --source-only -o %s "
			 "--name k%d", db, obj[k], dir, k);
		t_expect("", args, 0, "", out, sizeof out);
		snprintf(args, sizeof args, "grep -c 'vec.%c' %s/k%d.cu", cfgs[want[k]].params[7],
			 dir, k);
		if (t_sh(args, out, sizeof out) != 0)
			fail_msg("export --objective %s did not export the configuration with %s",
				 obj[k], vec);
	}
	/* libfdtune, by each objective, and an objective that is none */
	{
		fdtune_db *fd;
		struct fdtune_config fc;
		char e2[512];
		const enum fdtune_objective fo[] = { FDTUNE_TIME, FDTUNE_ENERGY, FDTUNE_EDP };
		assert_int_equal(fdtune_open(db, &fd, e2, sizeof e2), 0);
		for (int k = 0; k < 3; k++) {
			assert_int_equal(fdtune_lookup_by(fd, fo[k], "H100", "xyz", 4, 64, 64, 64, "fp32",
							  &fc, e2, sizeof e2), 0);
			assert_int_equal(fc.source, FDTUNE_EXACT);
			assert_int_equal(fdtune_param(&fc, "vec", 0), cfgs[want[k]].params[7] - '0');
		}
		assert_int_equal(fdtune_lookup_by(fd, (enum fdtune_objective)7, "H100", "xyz", 4, 64,
						  64, 64, "fp32", &fc, e2, sizeof e2), 1);
		assert_non_null(strstr(e2, "objective 7"));
		fdtune_close(fd);
	}
	/* the table shows the energy columns; a wrong objective is refused */
	snprintf(args, sizeof args, "best --db %s --objective energy --all", db);
	t_expect("", args, 0, "J/Gpt", out, sizeof out);
	snprintf(args, sizeof args, "best --db %s --objective power", db);
	t_expect("", args, 2, "expected time", out, sizeof out);
	/* the report plots time against energy, the three on the Pareto front */
	snprintf(args, sizeof args, "report --db %s --out %s/rep", db, dir);
	t_expect("", args, 0, "wrote", out, sizeof out);
	snprintf(args, sizeof args, "grep -c 'time against energy, 3 configurations measured' "
		 "%s/rep/report.md && test $(awk '$3 == 1' %s/rep/*-energy.dat | wc -l) = 3", dir,
		 dir);
	if (t_sh(args, out, sizeof out) != 0)
		fail_msg("the report's energy plot: %s", out);
	/* compact keeps the measured runs with their energy; merge carries it */
	snprintf(args, sizeof args, "compact --db %s --keep 1 --sources 1 --out %s/c.db", db, dir);
	t_fdtune("", args, out, sizeof out);    /* 1: no source kept of runs without builds */
	snprintf(args, sizeof args, "%s/c.db", dir);
	assert_int_equal(t_count(args, "select count(*) from energy"), 3);
	snprintf(args, sizeof args, "merge --db %s/m.db %s", dir, db);
	t_expect("", args, 0, "", out, sizeof out);
	snprintf(args, sizeof args, "%s/m.db", dir);
	assert_int_equal(t_count(args, "select count(*) from energy e join runs r on "
				 "r.id = e.run_id"), 3);
	t_rmtree(dir);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(counter), cmocka_unit_test(refused), cmocka_unit_test(windows),
		cmocka_unit_test(objectives),
	};
	return cmocka_run_group_tests_name("energy", t, setup, NULL);
}
