/*
 * t_cproc.c: compile processes (tn_cproc.c), on the CPU machine. A compile
 * handed to a helper process gives what rt_compile gives in the sweep's
 * process: the same code, byte for byte, resources, options and status,
 * and the same failure for a source that does not compile. Helpers are
 * reused, one a compile at a time, their CPU seconds counted; one found
 * dead is replaced; one that dies during a compile fails that compile,
 * saying so, and nothing else; at the end none is left. FDTUNE_COMPILE_PROCS takes 0 or 1 only. This
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

/* Three threads at once: each compile its own helper, none more. */
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

/* An idle helper killed (the OOM killer's way) is replaced at the next
 * compile, which succeeds; one killed during a compile fails that compile
 * alone, saying how it died, and the next compile starts another. */
static void deaths(void **st)
{
	struct job j;
	pthread_t th;
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
	/* killed while it compiles: taken from the idle ones, then killed */
	assert_int_equal(pthread_create(&th, NULL, compile, &j), 0);
	for (int i = 0; i < 10000 && tn_cproc_idle_pid() == pid; i++)
		usleep(100);
	assert_int_equal(tn_cproc_idle_pid(), 0);
	assert_int_equal(kill(pid, SIGKILL), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_not_equal(j.rc, 0);
	assert_non_null(strstr(j.err, "died during its compile: killed by signal 9"));
	assert_int_equal(tn_cproc_count(), 0);
	compile(&j);
	assert_int_equal(j.rc, 0);
	tn_cproc_end();
	assert_int_equal(tn_cproc_count(), 0);
	free(j.src);
}

/* FDTUNE_COMPILE_PROCS: unset, empty or 0 off, 1 on, else refused. */
static void env(void **st)
{
	char err[256] = "";
	int on = -1;
	(void)st;
	unsetenv("FDTUNE_COMPILE_PROCS");
	assert_int_equal(tn_cproc_env(&on, err, sizeof err), 0);
	assert_int_equal(on, 0);
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
					cmocka_unit_test(env) };
	if (argc > 1 && !strcmp(argv[1], "__compile"))
		return tn_cproc_main();
	signal(SIGPIPE, SIG_IGN);       /* a dead helper shows as EPIPE, as in a sweep */
	return cmocka_run_group_tests(t, NULL, NULL);
}
