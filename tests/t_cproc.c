/*
 * t_cproc.c: compile processes (tn_cproc.c), on the CPU machine. A compile
 * handed to a helper process gives what rt_compile gives in the sweep's
 * process: the same code, byte for byte, resources, options and status,
 * and the same failure for a source that does not compile. Helpers are
 * reused, one a compile at a time, their CPU seconds counted; one found
 * dead or killed is replaced; one that crashes during a compile fails that
 * compile, saying so, and nothing else; where none can be started the
 * compile runs in this process; at the end none is left. FDTUNE_COMPILE_PROCS takes 0 or 1 only. This
 * program is its own helper: run as "t_cproc __compile", it serves
 * compiles (tn_cproc_main).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tn.h"
#include "rt.h"
#include "tn_cproc.h"

#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The source of the k-th configuration (k < 3) of xyz's default space at
 * radius r that fits, into *src. */
static void source(int r, int k, char **src)
{
	const struct tn_family *f;
	struct tn_problem pb;
	struct tn_space sp;
	struct tn_limits lim;
	int v[TN_MAXP], got = -1;
	char err[512], why[256];
	assert_int_equal(tn_family_find("xyz", &f, err, sizeof err), 0);
	pb = (struct tn_problem){ f, r, 40, 24, 16, "fp32", { 1, 1, 1 } };
	tn_limits_of_arch(rt_default_arch(), &lim);
	tn_space_default(f, &sp);
	for (long long i = 0; i < tn_space_size(&sp) && got < k; i += 101) {
		tn_space_at(&sp, i, v);
		got += !f->check(&pb, v, &lim, why, sizeof why);
	}
	assert_int_equal(got, k);
	assert_int_equal(tn_source(&pb, v, src, err, sizeof err), 0);
}

/* Three sources compiled in this process and by a helper: the same code,
 * resources, options and status; one helper served them all. */
static void same_as_here(void **st)
{
	double c0 = tn_cproc_cpu_s(), c1;
	(void)st;
	for (int k = 0; k < 3; k++) {
		struct rt_prog a, b;
		char *src, err[1024] = "", err2[1024] = "";
		source(2, k, &src);
		assert_int_equal(rt_compile(src, "xyz", rt_default_arch(), NULL, 0, &a, err,
					    sizeof err), 0);
		assert_int_equal(tn_cproc_compile(src, "xyz", rt_default_arch(), &b, err2,
						  sizeof err2), 0);
		assert_true(a.size > 0);
		assert_int_equal(b.size, a.size);
		assert_memory_equal(b.code, a.code, a.size);
		assert_int_equal(b.regs, a.regs);
		assert_int_equal(b.lds, a.lds);
		assert_int_equal(b.spill, a.spill);
		assert_string_equal(b.options, a.options);
		assert_non_null(b.log);
		assert_true(b.ms > 0);
		rt_prog_free(&a);
		rt_prog_free(&b);
		free(src);
	}
	assert_int_equal(tn_cproc_count(), 1);
	assert_true(tn_cproc_idle_pid() > 0);
	/* the helpers' CPU seconds: NVRTC costs 0.05 s a program at least
	 * (results/nvrtc), counted while the helper lives and after it ends */
	assert_true((c1 = tn_cproc_cpu_s()) >= c0 + 3 * 0.05);
	tn_cproc_end();
	assert_int_equal(tn_cproc_count(), 0);
	assert_true(tn_cproc_cpu_s() >= c1);
}

/* A source that does not compile: the status, message and log of
 * rt_compile, from the helper, which stays for the next compile. */
static void bad_source(void **st)
{
	const char *src = "extern \"C\" __global__ void fdt_kernel(float *p) { p[0] = q; }\n";
	struct rt_prog a, b;
	char err[1024] = "", err2[1024] = "";
	(void)st;
	assert_int_not_equal(rt_compile(src, "bad", rt_default_arch(), NULL, 0, &a, err,
					sizeof err), 0);
	assert_int_not_equal(tn_cproc_compile(src, "bad", rt_default_arch(), &b, err2,
					      sizeof err2), 0);
	assert_string_equal(err2, err);
	assert_non_null(strstr(b.log, "identifier \"q\" is undefined"));
	assert_null(b.code);
	rt_prog_free(&a);
	rt_prog_free(&b);
	assert_int_equal(tn_cproc_count(), 1);
	tn_cproc_end();
}

struct job {
	char *src;
	int rc;
	char err[1024];
};

static void *compile(void *arg)
{
	struct job *j = arg;
	struct rt_prog p;
	j->rc = tn_cproc_compile(j->src, "xyz", rt_default_arch(), &p, j->err, sizeof j->err);
	rt_prog_free(&p);
	return NULL;
}

/* Three threads at once: a helper for each compile under way, none more. */
static void threads(void **st)
{
	pthread_t th[3];
	struct job j[3];
	(void)st;
	for (int k = 0; k < 3; k++) {
		source(1, k, &j[k].src);
		assert_int_equal(pthread_create(&th[k], NULL, compile, &j[k]), 0);
	}
	for (int k = 0; k < 3; k++) {
		assert_int_equal(pthread_join(th[k], NULL), 0);
		assert_int_equal(j[k].rc, 0);
		free(j[k].src);
	}
	assert_true(tn_cproc_count() >= 1 && tn_cproc_count() <= 3);
	tn_cproc_end();
	assert_int_equal(tn_cproc_count(), 0);
}

/* The CPU clock ticks process pid has used (tn_cproc_pid_cpu_s), and
 * none where they cannot be read. */
static long ticks(pid_t pid)
{
	double s = tn_cproc_pid_cpu_s(pid);
	assert_true(s > 0);     /* a helper has run: 0 is a /proc not read */
	return lround(s * (double)sysconf(_SC_CLK_TCK));
}

/* Starts j's compile on a thread, and sends sig to its helper (the idle
 * one, pid) once that helper has used 3 clock ticks more than while idle:
 * it is compiling; then j's outcome. */
static void kill_during(struct job *j, pid_t pid, int sig)
{
	pthread_t th;
	long t0 = ticks(pid);
	assert_int_equal(pthread_create(&th, NULL, compile, j), 0);
	for (int i = 0; i < 100000 && ticks(pid) < t0 + 3; i++)
		usleep(100);
	assert_true(ticks(pid) >= t0 + 3);
	assert_int_equal(kill(pid, sig), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
}

/* An idle helper killed (the OOM killer's way) is replaced at the next
 * compile, which succeeds; one killed during a compile (SIGKILL: from
 * outside) is replaced and the compile tried again, which succeeds; one
 * that crashes during a compile (SIGSEGV) fails that compile alone,
 * saying how it died, and the next compile starts another. */
static void deaths(void **st)
{
	struct job j;
	pid_t pid;
	(void)st;
	source(6, 0, &j.src);
	compile(&j);                    /* a helper, idle after */
	assert_int_equal(j.rc, 0);
	assert_true((pid = tn_cproc_idle_pid()) > 0);
	assert_int_equal(kill(pid, SIGKILL), 0);
	usleep(100000);
	compile(&j);
	assert_int_equal(j.rc, 0);
	assert_int_equal(tn_cproc_count(), 1);
	assert_true((pid = tn_cproc_idle_pid()) > 0);
	kill_during(&j, pid, SIGKILL);
	assert_int_equal(j.rc, 0);      /* again, on a new helper */
	assert_int_equal(tn_cproc_count(), 1);
	assert_true(tn_cproc_idle_pid() > 0 && tn_cproc_idle_pid() != pid);
	pid = tn_cproc_idle_pid();
	kill_during(&j, pid, SIGSEGV);
	assert_int_not_equal(j.rc, 0);
#ifdef __SANITIZE_ADDRESS__
	/* (AddressSanitizer's handler reports the SIGSEGV and exits with 1) */
	assert_non_null(strstr(j.err, "died during its compile: it exited with status 1"));
#else
	assert_non_null(strstr(j.err, "died during its compile: killed by signal 11"));
#endif
	assert_int_equal(tn_cproc_count(), 0);
	compile(&j);
	assert_int_equal(j.rc, 0);
	tn_cproc_end();
	assert_int_equal(tn_cproc_count(), 0);
	free(j.src);
}

/* Where helpers cannot be started (no such program) or do not answer as
 * one (a program that is not fdtune), the compile runs in this process,
 * and succeeds; no helper is left. At most keep helpers stay idle. */
static void fallback(void **st)
{
	struct job j[3];
	pthread_t th[3];
	(void)st;
	source(1, 0, &j[0].src);
	tn_cproc_exe("/nonexistent/fdtune");
	compile(&j[0]);
	assert_int_equal(j[0].rc, 0);
	assert_int_equal(tn_cproc_count(), 0);
	tn_cproc_exe("/bin/true");
	compile(&j[0]);
	assert_int_equal(j[0].rc, 0);
	assert_int_equal(tn_cproc_count(), 0);
	tn_cproc_exe(NULL);
	tn_cproc_keep(1);
	for (int k = 1; k < 3; k++)
		source(1, k, &j[k].src);
	for (int k = 0; k < 3; k++)
		assert_int_equal(pthread_create(&th[k], NULL, compile, &j[k]), 0);
	for (int k = 0; k < 3; k++) {
		assert_int_equal(pthread_join(th[k], NULL), 0);
		assert_int_equal(j[k].rc, 0);
		free(j[k].src);
	}
	assert_int_equal(tn_cproc_count(), 1);
	tn_cproc_keep(64);
	tn_cproc_end();
	assert_int_equal(tn_cproc_count(), 0);
}

/* FDTUNE_COMPILE_PROCS: 0 off; unset, empty or 1 on; else refused. */
static void env(void **st)
{
	char err[256] = "";
	int on = -1;
	(void)st;
	unsetenv("FDTUNE_COMPILE_PROCS");
	assert_int_equal(tn_cproc_env(&on, err, sizeof err), 0);
	assert_int_equal(on, 1);
	setenv("FDTUNE_COMPILE_PROCS", "", 1);
	assert_int_equal(tn_cproc_env(&on, err, sizeof err), 0);
	assert_int_equal(on, 1);
	setenv("FDTUNE_COMPILE_PROCS", "1", 1);
	assert_int_equal(tn_cproc_env(&on, err, sizeof err), 0);
	assert_int_equal(on, 1);
	setenv("FDTUNE_COMPILE_PROCS", "0", 1);
	assert_int_equal(tn_cproc_env(&on, err, sizeof err), 0);
	assert_int_equal(on, 0);
	setenv("FDTUNE_COMPILE_PROCS", "yes", 1);
	assert_int_not_equal(tn_cproc_env(&on, err, sizeof err), 0);
	assert_non_null(strstr(err, "FDTUNE_COMPILE_PROCS=yes: give 1"));
	unsetenv("FDTUNE_COMPILE_PROCS");
}

int main(int argc, char **argv)
{
	const struct CMUnitTest t[] = { cmocka_unit_test(same_as_here), cmocka_unit_test(bad_source),
					cmocka_unit_test(threads), cmocka_unit_test(deaths),
					cmocka_unit_test(fallback), cmocka_unit_test(env) };
	if (argc > 1 && !strcmp(argv[1], "__compile"))
		return tn_cproc_main();
	signal(SIGPIPE, SIG_IGN);       /* a dead helper shows as EPIPE, as in a sweep */
	return cmocka_run_group_tests(t, NULL, NULL);
}
