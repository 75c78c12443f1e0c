/*
 * fdt_online.c: libfdtune's online tuning (fdtune.h), the public face of
 * tuner/online: it checks the problem as fdtune_lookup does, reads the
 * database once (db_read: nothing is written, a read-only file in a
 * read-only directory will do), asks the runtime which GPU the program
 * runs on (its name and arch choose the candidates' ranking and compile
 * target, its limits which candidates can run), and hands the rest to
 * tn_on_open and tn_on_step. Once the choice is made, what was learned is
 * kept (tn_on_save, on a thread of its own) in the tuned database where this process may write it,
 * else in the user's own companion (fdtune_online_db), which the next run's
 * fdtune_online_open and fdtune_lookup consult first.
 */
#define _GNU_SOURCE
#include "fdt_rc.h"
#include "fdtune.h"
#include "tn_online.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct fdtune_online {
	struct tn_online *on;
	char keep[4096];        /* where what is learned goes; "": nowhere */
	char cmdline[1024];     /* the program's, for the records */
	int kept;               /* 1: the keeping started, on thread saver */
	pthread_t saver;
	int saving;             /* saver runs or has not been joined */
};

/* Keeps what the settled tuning learned (thread saver: a database's
 * commits would cost the program's time loop milliseconds). */
static void *save(void *p)
{
	fdtune_online *t = p;
	char e[512];
	int rc = tn_on_save(t->on, t->keep, t->cmdline, e, sizeof e);
	pthread_mutex_lock(&t->on->mu);
	if (rc == FDT_OK)
		snprintf(t->on->kept, sizeof t->on->kept, "kept in %.480s", t->keep);
	else
		snprintf(t->on->kept, sizeof t->on->kept, "not kept in %.200s: %.280s", t->keep, e);
	pthread_mutex_unlock(&t->on->mu);
	if (rc == FDT_FAIL)
		fprintf(stderr, "fdtune online: %s; the run goes on\n", t->on->kept);
	return NULL;
}

/* Waits for the keeping, where it started. */
static void saved(fdtune_online *t)
{
	if (t->saving) {
		pthread_join(t->saver, NULL);
		t->saving = 0;
	}
}

/* The program's command line, its words apart by spaces. */
static void cmdline(char *buf, size_t n)
{
	FILE *f = fopen("/proc/self/cmdline", "rb");
	size_t k = f ? fread(buf, 1, n - 1, f) : 0;
	if (f)
		fclose(f);
	buf[k] = 0;
	for (size_t i = 0; k && i < k - 1; i++)
		if (!buf[i])
			buf[i] = ' ';
}

/* Where what is learned goes (t->keep): the tuned database where it can be
 * written, else the companion, its directory made where missing. */
static void keep_where(fdtune_online *t, const char *db_path, const char *companion)
{
	char e[256], *s;
	if (!db_path_check(db_path, 1, e, sizeof e)) {
		snprintf(t->keep, sizeof t->keep, "%s", db_path);
		return;
	}
	if (companion)
		snprintf(t->keep, sizeof t->keep, "%s", companion);
	else if (fdtune_online_db(t->keep, sizeof t->keep))
		return;
	if ((s = strrchr(t->keep, '/')) && s != t->keep) {
		*s = 0;
		if (mkdir(t->keep, 0777) && errno != EEXIST)
			fprintf(stderr, "fdtune online: cannot make %s: %s\n", t->keep, strerror(errno));
		*s = '/';
	}
}

int fdtune_online_open(const char *db_path, const char *family, int radius, int nx, int ny,
		       int nz, const char *precision, const struct fdtune_online_opts *o,
		       fdtune_online **ot, char *err, size_t n)
{
	char e[1024] = "", name[256] = "";
	const char *arch = rt_default_arch();
	struct tn_problem pb = { NULL, radius, nx, ny, nz, NULL, { 1, 1, 1 } };
	struct tn_on_opts to = { 0, 0, NULL, NULL };
	struct tn_limits lim;
	struct rt_dev dev;
	struct db *d = NULL;
	int nd = 0, gpu = o ? o->gpu : 0;
	fdtune_online *t;

	if (err && n)
		*err = 0;
	if (!ot)
		return snprintf(err, n, "fdtune_online_open: ot (where the handle goes) is "
				"required"), FDT_FAIL;
	*ot = NULL;
	if (!db_path || !family || !precision)
		return snprintf(err, n, "fdtune_online_open: a database path, a family and a "
				"precision are required"), FDT_FAIL;
	if (tn_family_find(family, &pb.fam, e, sizeof e) || tn_parse_prec(precision, &pb.prec,
									   e, sizeof e))
		return snprintf(err, n, "fdtune_online_open: %s", e), FDT_FAIL;
	if (radius < 1 || radius > FDTUNE_RMAX || nx < 1 || ny < 1 || nz < 1)
		return snprintf(err, n, "fdtune_online_open: radius %d (1..%d) or size %dx%dx%d "
				"(each at least 1) out of range", radius, FDTUNE_RMAX, nx, ny, nz),
			FDT_FAIL;
	if (o && (o->candidates < 0 || o->candidates > TN_ON_MAX || o->tries < 0 ||
		  o->tries > TN_ON_TRIES_MAX || gpu < 0))
		return snprintf(err, n, "fdtune_online_open: candidates 0..%d, tries 0..%d and a "
				"GPU ordinal from 0 are accepted", TN_ON_MAX, TN_ON_TRIES_MAX),
			FDT_FAIL;
	/* the program's GPU: without one, the steps run its kernel */
	if (!rt_init(&nd, e, sizeof e) && gpu < nd && !rt_device(gpu, &dev, e, sizeof e)) {
		snprintf(name, sizeof name, "%s", dev.name);
		arch = dev.arch;
	}
	tn_limits_of_arch(arch, &lim);
	if (*name) {
		lim.max_threads = dev.max_threads;
		lim.lds_block = dev.lds_block;
	}
	to.cands = o ? o->candidates : 0;
	to.tries = o ? o->tries : 0;
	to.lim = &lim;
	if (!(t = calloc(1, sizeof *t)))
		return snprintf(err, n, "out of memory"), FDT_FAIL;
	cmdline(t->cmdline, sizeof t->cmdline);
	keep_where(t, db_path, o ? o->companion : NULL);
	/* an earlier run's choice, kept in the companion, is consulted first */
	if (*t->keep && strcmp(t->keep, db_path) && !access(t->keep, R_OK) &&
	    db_read_checked(t->keep, &to.learned, e, sizeof e))     /* small: checked whole */
		fprintf(stderr, "fdtune online: %s is left out: %s\n", t->keep, e);
	if (db_read(db_path, &d, e, sizeof e) ||
	    tn_on_open(d, &pb, name, arch, &to, &t->on, e, sizeof e)) {
		db_close(d);
		db_close(to.learned);
		free(t);
		return snprintf(err, n, "fdtune_online_open: %s", e), FDT_FAIL;
	}
	db_close(d);
	db_close(to.learned);
	t->on->ordinal = gpu;
	if (*name)
		t->on->dev = dev;
	*ot = t;
	return FDT_OK;
}

int fdtune_online_step(fdtune_online *ot, void *const *fields, int nfields, const void *grid,
		       const void *coef, fdtune_kernel_fn kernel, void *ctx, char *err, size_t n)
{
	struct tn_on_call k = { fields, nfields, grid, coef, kernel, ctx };
	char e[768];
	int rc;
	if (!ot || !fields)
		return snprintf(err, n, "fdtune_online_step: a handle and fields are required"),
			FDT_FAIL;
	if ((rc = tn_on_step(ot->on, &k, e, sizeof e)))
		snprintf(err, n, "%s", e);
	if (!rc && ot->on->settled && !ot->kept) {
		ot->kept = 1;
		if (!*ot->keep)
			snprintf(ot->on->kept, sizeof ot->on->kept, "not kept: no database to keep "
				 "it in (FDTUNE_ONLINE_DB is empty, or there is no HOME)");
		else if (!(ot->saving = !pthread_create(&ot->saver, NULL, save, ot)))
			save(ot);       /* no thread: here, at once */
	}
	return rc ? FDT_FAIL : FDT_OK;
}

int fdtune_online_settled(fdtune_online *ot, struct fdtune_config *cfg, long long *steps,
			  long long *waited)
{
	const struct tn_online *on = ot ? ot->on : NULL;
	const struct tn_family *f;
	if (!on || !on->settled)
		return 0;
	if (steps)
		*steps = on->steps_tuning;
	if (waited)
		*waited = on->steps_waiting;
	if (!cfg)
		return 1;
	f = on->pb.fam;
	memset(cfg, 0, sizeof *cfg);
	snprintf(cfg->family, sizeof cfg->family, "%s", f->name);
	snprintf(cfg->device, sizeof cfg->device, "%s", on->device);
	cfg->radius = on->pb.r;
	cfg->nx = on->pb.nx;
	cfg->ny = on->pb.ny;
	cfg->nz = on->pb.nz;
	cfg->median_ms = tn_on_median(on, on->chosen);
	if (on->chosen == TN_ON_DEFAULT) {
		cfg->source = FDTUNE_DEFAULT;
		snprintf(cfg->params, sizeof cfg->params, "{}");
		return 1;
	}
	cfg->source = FDTUNE_ONLINE;
	snprintf(cfg->params, sizeof cfg->params, "%s", on->c[on->chosen].params);
	for (int i = 0; i < f->np && cfg->np < FDTUNE_MAXP; i++)
		if (tn_param_shown(f, on->c[on->chosen].v, i)) {
			snprintf(cfg->name[cfg->np], sizeof cfg->name[0], "%s", f->p[i].name);
			cfg->value[cfg->np++] = on->c[on->chosen].v[i];
		}
	return 1;
}

void fdtune_online_report(fdtune_online *ot, FILE *out)
{
	if (!ot)
		return;
	saved(ot);              /* the report says where it was kept */
	tn_on_report(ot->on, out ? out : stdout);
}

void fdtune_online_close(fdtune_online *ot)
{
	if (!ot)
		return;
	saved(ot);
	tn_on_close(ot->on);
	free(ot);
}
