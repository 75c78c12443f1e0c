/*
 * tn_problem.c: reading problems from the command line, the limits of a
 * compile target when no GPU is present to report them, the clock every
 * part of a sweep reads (tn_now_s), the processors it may use (tn_cpus), and
 * the lower priority of its compile threads (tn_nice, tn_lower).
 */
#define _GNU_SOURCE             /* sched_getaffinity, CPU_COUNT */
#include "fdt_rc.h"
#include "tn.h"
#include "gen.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

double tn_now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

int tn_cpus(void)
{
	cpu_set_t set;
	long c;
	if (!sched_getaffinity(0, sizeof set, &set) && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	c = sysconf(_SC_NPROCESSORS_ONLN);
	return c > 0 ? (int)c : 1;
}

int tn_compile_threads(void)
{
	int c = tn_cpus();
	return c < TN_MAXJOBS / 2 ? 2 * c : TN_MAXJOBS;
}

int tn_env_int(const char *name, int lo, int hi, int dflt, const char *what, int *v,
	       char *err, size_t n)
{
	const char *s = getenv(name);
	*v = dflt;
	if (!s || !*s)
		return FDT_OK;
	if (tn_parse_int(s, name, lo, hi, v, err, n)) {
		size_t l = strlen(err);
		snprintf(err + l, n - l, " (%s; unset it for %d)", what, dflt);
		return FDT_FAIL;
	}
	return FDT_OK;
}

int tn_nice(int *v, char *err, size_t n)
{
	return tn_env_int("FDTUNE_NICE", 0, 19, TN_NICE, "the nice steps compile threads run "
			  "below the sweep, 0 for none", v, err, n);
}

void tn_lower(int d)
{
	id_t me;
	int cur;
	if (d <= 0)
		return;
	me = (id_t)syscall(SYS_gettid);         /* not gettid(): glibc 2.30 and later only */
	errno = 0;
	cur = getpriority(PRIO_PROCESS, me);
	if (cur == -1 && errno)
		return;         /* unknown: left as it is */
	/* refused (it should not be: lowering needs no privilege): left as it is */
	(void)setpriority(PRIO_PROCESS, me, cur + d < 19 ? cur + d : 19);
}

int tn_parse_int(const char *s, const char *what, int lo, int hi, int *v,
		 char *err, size_t n)
{
	char *end;
	long x;
	errno = 0;
	x = strtol(s, &end, 10);
	if (end == s || *end || errno || x < lo || x > hi) {
		snprintf(err, n, "%s: '%s' is not an integer in %d..%d", what, s, lo, hi);
		return FDT_FAIL;
	}
	*v = (int)x;
	return FDT_OK;
}

int tn_parse_radius(const char *s, const char *what, int *r, char *err, size_t n)
{
	return tn_parse_int(s, what, 1, TN_RMAX, r, err, n);
}

/* "N" (a cube) or "NXxNYxNZ"; every extent 1..65536. */
int tn_parse_size(const char *s, int *nx, int *ny, int *nz, char *err, size_t n)
{
	int *d[3] = { nx, ny, nz }, k = 0;
	const char *p = s;
	for (;;) {
		char *end;
		long x;
		errno = 0;
		x = strtol(p, &end, 10);
		if (end == p || errno || x < 1 || x > 65536)
			goto bad;
		*d[k++] = (int)x;
		if (!*end)
			break;
		if (*end != 'x' || k == 3)
			goto bad;
		p = end + 1;
	}
	if (k == 1)
		*ny = *nz = *nx;
	else if (k != 3)
		goto bad;
	return FDT_OK;
bad:
	snprintf(err, n, "--size '%s': expected N or NXxNYxNZ with every extent in 1..65536", s);
	return FDT_FAIL;
}

void tn_limits_of_arch(const char *arch, struct tn_limits *lim)
{
	/* Static LDS per block and threads per block of the targets fdtune
	 * knows; both vendors allow 1024 threads per block. Dynamic LDS with
	 * the opt-in: 227 KiB on sm_90, 163 on sm_80/87, 99 on sm_86/89, 96 on
	 * sm_70/72, 64 on sm_75; 64 KiB on every gfx target (no opt-in). */
	int sm = 0;
	lim->max_threads = 1024;
	lim->lds_block = strncmp(arch, "gfx", 3) ? 48 * 1024 : 64 * 1024;
	lim->lds_optin = lim->lds_block;
	if (sscanf(arch, "sm_%d", &sm) == 1)
		lim->lds_optin = sm >= 90 ? 227 * 1024 : sm == 80 || sm == 87 ? 163 * 1024 :
				 sm == 86 || sm == 89 ? 99 * 1024 : sm == 70 || sm == 72 ? 96 * 1024 :
				 sm == 75 ? 64 * 1024 : 48 * 1024;
	lim->bulk = sm >= 90;
}

int tn_elem_size(const struct tn_problem *pb)
{
	return pb->prec && !strcmp(pb->prec, "fp64") ? 8 : 4;
}

int tn_parse_prec(const char *s, const char **prec, char *err, size_t n)
{
	if (!strcmp(s, "fp32") || !strcmp(s, "fp64")) {
		*prec = !strcmp(s, "fp32") ? "fp32" : "fp64";
		return FDT_OK;
	}
	snprintf(err, n, "--precision '%s': expected fp32 or fp64", s);
	return FDT_FAIL;
}

int tn_param_shown(const struct tn_family *f, const int *v, int i)
{
	return !f->p[i].late || v[i] != f->p[i].lo;
}

int tn_param_launch(const struct tn_family *f, const int *v, int i)
{
	return f->p[i].launch && (!f->launch_if || f->launch_if(v, i));
}

int tn_defs(const struct tn_problem *pb, const int *v, struct gen_def *d)
{
	const struct tn_family *f = pb->fam;
	d[0] = (struct gen_def){ "r", pb->r };
	d[1] = (struct gen_def){ "dbl", tn_elem_size(pb) == 8 };
	int k = 2;
	for (int i = 0; i < f->np; i++)
		if (tn_param_shown(f, v, i) && !tn_param_launch(f, v, i))
			d[k++] = (struct gen_def){ f->p[i].name, v[i] };
	return k;
}

int tn_source(const struct tn_problem *pb, const int *v, char **src, char *err, size_t n)
{
	struct gen_def d[TN_MAXP + 2];
	return gen_source(pb->fam->tmpl, "fdt_kernel", d, tn_defs(pb, v, d), src, err, n);
}
