/*
 * t_hdata.c: a problem's host data, made once by the sweep and mapped by
 * its workers (tn_hdata.h, tn_hshare.h). Shared or private, made or mapped
 * by another process through its /proc path, the data have the same bits,
 * and they are the reference of the family's own CPU function on the same
 * inputs; a mapping of another problem's data is refused. The sharing makes
 * each problem once however often it is asked for, ahead in order, skips
 * what will not be asked for, and within a budget releases the least
 * recently asked first.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tn.h"
#include "tn_hdata.h"
#include "tn_hshare.h"

extern char **environ;

static struct tn_problem prob(const char *fam, int r, int nx, int ny, int nz)
{
	struct tn_problem pb = { tn_family(fam), r, nx, ny, nz, "fp32", { 1, 0.5, 2 } };
	assert_non_null(pb.fam);
	return pb;
}

/* 0 when a and b hold the same bits, part by part. */
static int differ(const struct tn_hdata *a, const struct tn_hdata *b)
{
	if (a->size != b->size || memcmp(&a->c, &b->c, sizeof a->c))
		return 1;
	return memcmp(a->map, b->map, a->size) != 0;
}

/* Shared and private copies of every kind of family (plain, acc, time
 * stepping) agree, and another process maps the shared one by its path. */
#define NKIND 4
static void kinds(struct tn_problem *pbs)
{
	pbs[0] = prob("x", 3, 37, 5, 4);
	pbs[1] = prob("xyz", 4, 29, 7, 9);
	pbs[2] = prob("iso3dfd", 2, 19, 6, 5);
	pbs[3] = prob("dxy", 2, 13, 9, 3);
}

/* The child of same_bits: maps kind i's data at path; 0 when it has the bits
 * of a private copy made here, 2 when it cannot map, 3 when they differ. */
static int child(int i, const char *path)
{
	struct tn_problem pbs[NKIND];
	struct tn_hdata m, pr;
	char err[512];
	kinds(pbs);
	if (tn_hdata_map(&m, &pbs[i], path, err, sizeof err) ||
	    tn_hdata_make(&pr, &pbs[i], 0, err, sizeof err)) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	return differ(&m, &pr) ? 3 : 0;
}

static void same_bits(void **st)
{
	struct tn_problem pbs[NKIND];
	(void)st;
	kinds(pbs);
	for (size_t i = 0; i < NKIND; i++) {
		struct tn_hdata sh, pr;
		char err[512], path[64], idx[16];
		pid_t pid;
		int ws;
		assert_int_equal(tn_hdata_make(&sh, &pbs[i], 1, err, sizeof err), 0);
		assert_int_equal(tn_hdata_make(&pr, &pbs[i], 0, err, sizeof err), 0);
		assert_true(sh.fd >= 0 && pr.fd < 0);
		assert_int_equal(sh.size, tn_hdata_size(&pbs[i]));
		assert_int_equal(differ(&sh, &pr), 0);
		/* random inputs, not zeros; the wave's and acc's parts are there */
		assert_true(sh.in[sh.l.origin] != 0 && sh.in[sh.l.origin + 1] != sh.in[sh.l.origin]);
		assert_true((sh.in2 != NULL) == (pbs[i].fam->steps > 0));
		assert_true((sh.base != NULL) == (tn_param_index(pbs[i].fam, "acc") >= 0));
		if (!sh.in2) {          /* the reference is the family's, on these inputs */
			long long pts = (long long)pbs[i].nx * pbs[i].ny * pbs[i].nz;
			double *ref = malloc((size_t)pts * 8);
			float *mag = malloc((size_t)pts * 4);
			assert_true(ref && mag);
			pbs[i].fam->ref(&pbs[i], &sh.c, &sh.l, sh.in, ref, mag);
			assert_memory_equal(ref, sh.ref, (size_t)pts * 8);
			assert_memory_equal(mag, sh.mag, (size_t)pts * 4);
			free(ref);
			free(mag);
		}
		tn_hdata_path(&sh, path, sizeof path);
		assert_true(!strncmp(path, "/proc/", 6));
		tn_hdata_path(&pr, err, sizeof err);
		assert_string_equal(err, "");
		/* another process (exec'ed: OpenMP does not survive a fork) maps it and
		 * compares it with its own private copy */
		snprintf(idx, sizeof idx, "%zu", i);
		fflush(NULL);
		assert_int_equal(posix_spawn(&pid, "/proc/self/exe", NULL, NULL,
					       (char *[]){ "t_hdata", "map", idx, path, NULL }, environ), 0);
		assert_int_equal(waitpid(pid, &ws, 0), pid);
		assert_true(WIFEXITED(ws));
		assert_int_equal(WEXITSTATUS(ws), 0);
		tn_hdata_free(&sh);
		tn_hdata_free(&pr);
	}
}

/* A family with a GPU reference (iso3dfd) has none in its host data when
 * only the GPU checks (FDTUNE_CHECK unset or gpu): 24 bytes a point fewer,
 * and no CPU time spent on it. Where the CPU checks (cpu, both) the host
 * data holds step_ref's reference, bit for bit; a family without one
 * (xyz) keeps its reference whatever the mode, and FDTUNE_GPU_REF=0 brings
 * the host's back. */
static void gpu_ref_host(void **st)
{
	static const char *const modes[] = { NULL, "gpu", "cpu", "both" };
	struct tn_problem w = prob("iso3dfd", 3, 21, 9, 7), x = prob("xyz", 3, 21, 9, 7);
	const long long pts = 21LL * 9 * 7;
	size_t full = 0;
	(void)st;
	unsetenv("FDTUNE_GPU_REF");
	assert_non_null(w.fam->step_gpu);
	assert_null(x.fam->step_gpu);
	for (int i = 3; i >= 0; i--) {
		struct tn_hdata h, hx;
		char err[512];
		const int cpu = i >= 2;
		if (modes[i])
			setenv("FDTUNE_CHECK", modes[i], 1);
		else
			unsetenv("FDTUNE_CHECK");
		assert_int_equal(tn_hdata_gpu_ref(&w), !cpu);
		assert_int_equal(tn_hdata_gpu_ref(&x), 0);
		assert_int_equal(tn_hdata_make(&h, &w, 1, err, sizeof err), 0);
		assert_int_equal(tn_hdata_make(&hx, &x, 0, err, sizeof err), 0);
		assert_non_null(hx.ref);
		assert_int_equal(h.size, tn_hdata_size(&w));
		if (i == 3)
			full = h.size;
		if (cpu) {
			double *ua = malloc((size_t)pts * 16);
			float *ma = malloc((size_t)pts * 8);
			assert_true(ua && ma && h.ref && h.mag);
			assert_int_equal(h.size, full);
			assert_int_equal(w.fam->step_ref(&w, &h.c, &h.l, h.in, h.in2, h.vel, w.fam->steps,
							 ua, ua + pts, ma, ma + pts, err, sizeof err), 0);
			assert_memory_equal(ua, h.ref, (size_t)pts * 16);
			assert_memory_equal(ma, h.mag, (size_t)pts * 8);
			free(ua);
			free(ma);
		} else {
			assert_null(h.ref);
			assert_null(h.mag);
			assert_true(h.size + (size_t)pts * 24 <= full);
			assert_true(h.in && h.in2 && h.vel);
		}
		tn_hdata_free(&h);
		tn_hdata_free(&hx);
	}
	unsetenv("FDTUNE_CHECK");
	/* FDTUNE_GPU_REF=0: the CPU makes it again, for the GPU check too */
	setenv("FDTUNE_GPU_REF", "0", 1);
	assert_int_equal(tn_gpu_ref(&w), 0);
	assert_int_equal(tn_hdata_gpu_ref(&w), 0);
	assert_int_equal(tn_hdata_size(&w), full);
	unsetenv("FDTUNE_GPU_REF");
	assert_int_equal(tn_gpu_ref(&w), 1);
}

/* Data mapped as another problem's, or from a missing path, is refused. */
static void foreign(void **st)
{
	struct tn_problem a = prob("xyz", 2, 20, 8, 8), b = prob("xyz", 2, 21, 8, 8);
	struct tn_hdata h, m;
	char err[512], path[64];
	(void)st;
	assert_int_equal(tn_hdata_make(&h, &a, 1, err, sizeof err), 0);
	tn_hdata_path(&h, path, sizeof path);
	assert_int_equal(tn_hdata_map(&m, &b, path, err, sizeof err), 1);
	assert_non_null(strstr(err, "not those of a 21x8x8 xyz problem"));
	assert_null(m.map);
	assert_int_equal(tn_hdata_map(&m, &a, "/proc/self/fd/99999", err, sizeof err), 1);
	assert_non_null(strstr(err, "cannot open"));
	assert_int_equal(tn_hdata_map(&m, &a, path, err, sizeof err), 0);
	assert_int_equal(differ(&m, &h), 0);
	tn_hdata_free(&m);
	tn_hdata_free(&h);
}

/* Asked for again and again, a problem is made once; a skipped one is made
 * only when asked for. */
static void share_once(void **st)
{
	const struct tn_problem pbs[] = { prob("xyz", 2, 24, 8, 8), prob("iso3dfd", 2, 16, 8, 6),
					  prob("x", 2, 40, 4, 4) };
	const struct tn_problem *pp[] = { &pbs[0], &pbs[1], &pbs[2] };
	struct tn_hshare *s;
	struct tn_hshare_stats sst;
	char err[256], p0[64], p1[64], again[64];
	(void)st;
	assert_int_equal(tn_hshare_new(&s, pp, 3, 1e12, err, sizeof err), 0);
	tn_hshare_skip(s, 2);
	for (int k = 0; k < 3; k++) {
		tn_hshare_get(s, 0, p0, sizeof p0);
		tn_hshare_get(s, 1, p1, sizeof p1);
	}
	assert_true(*p0 && *p1 && strcmp(p0, p1));
	tn_hshare_stats(s, &sst);
	assert_int_equal(sst.made, 2);
	assert_int_equal(sst.released, 0);
	tn_hshare_get(s, 2, again, sizeof again);
	assert_true(*again);
	tn_hshare_get(s, 0, again, sizeof again);
	assert_string_equal(again, p0);
	tn_hshare_stats(s, &sst);
	assert_int_equal(sst.made, 3);
	assert_true(sst.make_s > 0);
	tn_hshare_free(s);
}

/* Freed while its thread makes a problem (a sweep refused or stopped as it
 * begins), a share returns without waiting for it: the thread ends that
 * problem and frees the rest itself. Sanitizer builds check that nothing
 * is used after its free or leaked (make test-sanitize). */
static void share_free_early(void **st)
{
	const struct tn_problem pbs[] = { prob("xyz", 4, 160, 160, 160), prob("x", 2, 40, 4, 4) };
	const struct tn_problem *pp[] = { &pbs[0], &pbs[1] };
	struct tn_hshare *s;
	char err[256], p[64];
	(void)st;
	for (int k = 0; k < 3; k++) {
		assert_int_equal(tn_hshare_new(&s, pp, 2, 1e12, err, sizeof err), 0);
		usleep(20000);          /* the thread under way (about 0.2 s a make here) */
		if (k == 2) {           /* the second made on demand, the first by then too */
			tn_hshare_get(s, 1, p, sizeof p);
			assert_true(*p);
		}
		tn_hshare_free(s);
	}
}

/* Within a budget of one problem's bytes, asking for another releases the
 * least recently asked, which is made again when asked for again. */
static void share_budget(void **st)
{
	const struct tn_problem pbs[] = { prob("xyz", 2, 24, 8, 8), prob("xyz", 2, 24, 8, 9) };
	const struct tn_problem *pp[] = { &pbs[0], &pbs[1] };
	struct tn_hshare *s;
	struct tn_hshare_stats sst;
	char err[256], p[64];
	struct tn_hdata m;
	(void)st;
	assert_int_equal(tn_hshare_new(&s, pp, 2, (double)tn_hdata_size(&pbs[1]) + 1, err,
				       sizeof err), 0);
	for (int k = 0; k < 2; k++)
		for (int j = 0; j < 2; j++) {
			tn_hshare_get(s, j, p, sizeof p);
			assert_int_equal(tn_hdata_map(&m, &pbs[j], p, err, sizeof err), 0);
			tn_hdata_free(&m);
		}
	tn_hshare_stats(s, &sst);
	assert_int_equal(sst.made, 4);
	assert_int_equal(sst.released, 3);
	tn_hshare_free(s);
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "map"))
		return child(atoi(argv[2]), argv[3]);
	const struct CMUnitTest t[] = {
		cmocka_unit_test(same_bits), cmocka_unit_test(foreign),
		cmocka_unit_test(share_once), cmocka_unit_test(share_budget),
		cmocka_unit_test(share_free_early), cmocka_unit_test(gpu_ref_host),
	};
	return cmocka_run_group_tests_name("hdata", t, NULL, NULL);
}
