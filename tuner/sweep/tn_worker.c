/*
 * tn_worker.c: both sides of tn_worker.h. Requests and replies are fixed
 * structs over two pipes (the worker is this same executable, so the
 * layouts agree); a run request is followed by the code object's bytes.
 * A reply is smaller than PIPE_BUF and written at once, so when the pipe
 * is readable the whole reply is there.
 */
#define _GNU_SOURCE
#include "fdt_rc.h"
#include "tn_worker.h"
#include "tn_fault.h"
#include "tn_file.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

enum { REQ_CAL = 1, REQ_OPEN, REQ_RUN };

struct req {
	int type;
	char fam[32], prec[8];
	int r, nx, ny, nz;
	double h[3], copy;
	long long key;          /* REQ_OPEN: the problem's key in the worker's cache */
	char data[64];          /* REQ_OPEN: the path of its host data (tn_hdata.h); "": none */
	int places, nwk;        /* REQ_OPEN: placements of a contender, workers of the sweep */
	struct tn_wk_time tm;   /* REQ_RUN */
	int v[TN_MAXP];
	unsigned grid[3], block[3];
	long long size;         /* REQ_RUN: bytes of code that follow */
};

struct rep {
	int status, fatal;
	char err[768];
	struct rt_dev dev;
	double copy, mcpy, check_s, time_s;
	long long bytes;
	struct tn_result res;
	char rstatus[32];
	int built, evicted;     /* REQ_OPEN: the bench was built; benches released for it */
	double open_s[3];       /* REQ_OPEN: seconds of the build: host data, check
				 * kernel, fields on the GPU (tn_wk.open_s) */
	char energy_err[256];   /* REQ_RUN: the energy counter could not be opened */
};
_Static_assert(sizeof(struct rep) < 4096, "a reply fits in PIPE_BUF");

static const char *const statuses[] = { "ok", "compile_error", "load_error", "launch_error",
	"wrong_result", "resource_limit", "timeout", NULL };

static int put(int fd, const void *buf, size_t len) { return tn_xfer(fd, (void *)buf, len, 1); }
static int get(int fd, void *buf, size_t len) { return tn_xfer(fd, buf, len, 0); }
/* put, for the sweep's requests: where a test injects its pipe faults */
static int request(int fd, const void *buf, size_t len) { return tn_fault_pipe() || put(fd, buf, len); }

/* ---- the sweep's side ---- */

static void reap(struct tn_wk *w)
{
	int st = 0;
	w->sig = 0;
	if (w->pid > 0 && waitpid(w->pid, &st, 0) == w->pid) {
		w->sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
		if (WIFSIGNALED(st))
			snprintf(w->why, sizeof w->why, "the worker was killed by signal %d (%s)",
				 WTERMSIG(st), strsignal(WTERMSIG(st)));
		else
			snprintf(w->why, sizeof w->why, "the worker exited with status %d",
				 WEXITSTATUS(st));
	}
	if (w->to >= 0)
		close(w->to);
	if (w->from >= 0)
		close(w->from);
	w->to = w->from = -1;
	w->pid = 0;
	w->job = NULL;
}

void tn_wk_kill(struct tn_wk *w)
{
	if (w->pid > 0)
		kill(w->pid, SIGKILL);
	reap(w);
}

/* Waits up to limit seconds for a reply; nonzero with err set otherwise. */
static int answer(struct tn_wk *w, double limit, struct rep *r, char *err, size_t n)
{
	struct pollfd p = { w->from, POLLIN, 0 };
	int k;
	do
		k = poll(&p, 1, (int)(limit * 1000));
	while (k < 0 && errno == EINTR);
	if (k == 0) {
		tn_wk_kill(w);
		snprintf(err, n, "GPU %d: the worker did not answer within %.0f s; it was killed",
			 w->device, limit);
		return FDT_FAIL;
	}
	if (k < 0 || get(w->from, r, sizeof *r)) {
		reap(w);
		snprintf(err, n, "GPU %d: %s", w->device, w->why);
		return FDT_FAIL;
	}
	if (r->status) {
		snprintf(err, n, "GPU %d: %s", w->device, r->err);
		return FDT_FAIL;
	}
	return FDT_OK;
}

int tn_wk_start(struct tn_wk *w, char *err, size_t n)
{
	int to[2], from[2];
	char dev[16], *argv[] = { "fdtune", "__worker", dev, NULL };
	posix_spawn_file_actions_t fa;
	int rc;

	w->to = w->from = -1;
	w->pid = 0;
	w->job = NULL;
	snprintf(dev, sizeof dev, "%d", w->device);
	if (pipe2(to, O_CLOEXEC))
		return snprintf(err, n, "pipe: %s", strerror(errno)), 1;
	if (pipe2(from, O_CLOEXEC)) {
		close(to[0]);
		close(to[1]);
		return snprintf(err, n, "pipe: %s", strerror(errno)), 1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, to[0], 0);
	posix_spawn_file_actions_adddup2(&fa, from[1], 1);
	rc = posix_spawn(&w->pid, w->exe ? w->exe : "/proc/self/exe", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(to[0]);
	close(from[1]);
	w->to = to[1];
	w->from = from[0];
	/* room for a queued run's request and code (tn_wk_queue): 1 MiB where
	 * the system allows (pipe-max-size), else what the pipe has */
	(void)fcntl(w->to, F_SETPIPE_SZ, 1 << 20);
	w->pipe_cap = fcntl(w->to, F_GETPIPE_SZ);
	if (rc) {
		w->pid = 0;
		reap(w);
		return snprintf(err, n, "cannot start a worker process: %s", strerror(rc)), 1;
	}
	w->starts++;
	return FDT_OK;
}

int tn_wk_hello(struct tn_wk *w, char *err, size_t n)
{
	struct rep r;
	if (answer(w, 300, &r, err, n))
		return FDT_FAIL;
	w->dev = r.dev;
	return FDT_OK;
}

int tn_wk_spawn(struct tn_wk *w, char *err, size_t n)
{
	return tn_wk_start(w, err, n) || tn_wk_hello(w, err, n);
}

int tn_wk_calibrate_ask(struct tn_wk *w, char *err, size_t n)
{
	struct req q;
	memset(&q, 0, sizeof q);
	q.type = REQ_CAL;
	if (request(w->to, &q, sizeof q))
		return snprintf(err, n, "GPU %d: the worker is gone", w->device), 1;
	return FDT_OK;
}

int tn_wk_calibrate_get(struct tn_wk *w, double *copy, double *memcpy_gbs, long long *bytes,
			char *err, size_t n)
{
	struct rep r;
	if (answer(w, 600, &r, err, n))
		return FDT_FAIL;
	*copy = r.copy;
	*memcpy_gbs = r.mcpy;
	*bytes = r.bytes;
	return FDT_OK;
}

int tn_wk_calibrate(struct tn_wk *w, double *copy, double *memcpy_gbs, long long *bytes,
		    char *err, size_t n)
{
	return tn_wk_calibrate_ask(w, err, n) || tn_wk_calibrate_get(w, copy, memcpy_gbs, bytes, err, n);
}

int tn_wk_open_ask(struct tn_wk *w, const struct tn_problem *pb, long long key,
		   const struct tn_wk_cache *wc, char *err, size_t n)
{
	struct req q;
	memset(&q, 0, sizeof q);
	q.type = REQ_OPEN;
	snprintf(q.fam, sizeof q.fam, "%s", pb->fam->name);
	snprintf(q.prec, sizeof q.prec, "%s", pb->prec);
	q.r = pb->r;
	q.nx = pb->nx;
	q.ny = pb->ny;
	q.nz = pb->nz;
	memcpy(q.h, pb->h, sizeof q.h);
	q.copy = wc->copy_gbs;
	q.key = key;
	q.places = wc->places;
	q.nwk = wc->nwk;
	snprintf(q.data, sizeof q.data, "%s", wc->data);
	if (request(w->to, &q, sizeof q))
		return snprintf(err, n, "GPU %d: the worker is gone", w->device), 1;
	return FDT_OK;
}

int tn_wk_open_get(struct tn_wk *w, char *err, size_t n)
{
	struct rep r;
	if (answer(w, 1800, &r, err, n))        /* the CPU reference of a large grid */
		return FDT_FAIL;
	w->built += r.built;
	w->hits += !r.built;
	w->evicted += r.evicted;
	for (int i = 0; i < 3; i++)
		w->open_s[i] += r.open_s[i];
	return FDT_OK;
}

int tn_wk_open(struct tn_wk *w, const struct tn_problem *pb, long long key,
	       const struct tn_wk_cache *wc, char *err, size_t n)
{
	return tn_wk_open_ask(w, pb, key, wc, err, n) || tn_wk_open_get(w, err, n);
}

static void run_req(struct req *q, const struct rt_prog *p, const int *v, const unsigned grid[3],
		    const unsigned block[3], const struct tn_wk_time *tm)
{
	memset(q, 0, sizeof *q);
	q->type = REQ_RUN;
	memcpy(q->v, v, sizeof q->v);
	memcpy(q->grid, grid, sizeof q->grid);
	memcpy(q->block, block, sizeof q->block);
	q->size = (long long)p->size;
	q->tm = *tm;
}

int tn_wk_queue(struct tn_wk *w, const struct rt_prog *p, const int *v,
		const unsigned grid[3], const unsigned block[3], const struct tn_wk_time *tm)
{
	struct req q;
	if (w->pid <= 0 || (long long)(sizeof q + p->size) > w->pipe_cap)
		return 1;
	run_req(&q, p, v, grid, block, tm);
	/* the pipe holds at most the rest of the run in progress, which the
	 * worker is reading (it answered the one before), so this write waits
	 * at most for that read; a failed one found the worker gone, and the
	 * sweep learns it from the answer to its run in progress */
	if (tn_fault_pipe() || put(w->to, &q, sizeof q) || put(w->to, p->code, p->size))
		return 2;
	return 0;
}

int tn_wk_submit(struct tn_wk *w, const struct rt_prog *p, const int *v,
		 const unsigned grid[3], const unsigned block[3], const struct tn_wk_time *tm,
		 char *err, size_t n)
{
	struct req q;
	run_req(&q, p, v, grid, block, tm);
	if (request(w->to, &q, sizeof q) || request(w->to, p->code, p->size)) {
		tn_wk_kill(w);
		return snprintf(err, n, "GPU %d: the worker is gone: %s", w->device, w->why), 1;
	}
	return FDT_OK;
}

int tn_wk_read(struct tn_wk *w, struct tn_wk_done *d)
{
	struct rep r;
	memset(d, 0, sizeof *d);
	if (get(w->from, &r, sizeof r)) {
		reap(w);
		return 1;
	}
	d->res = r.res;
	d->res.status = "launch_error";
	for (int i = 0; statuses[i]; i++)
		if (!strcmp(statuses[i], r.rstatus))
			d->res.status = statuses[i];
	d->fatal = r.fatal;
	d->check_s = r.check_s;
	d->time_s = r.time_s;
	snprintf(d->energy_err, sizeof d->energy_err, "%s", r.energy_err);
	return 0;
}

/* ---- the worker's side ---- */

/* The GPU's energy counter, opened at the first run that asks for energy;
 * NULL when it cannot be (r->energy_err then says why, once). */
static struct rt_energy *meter(const struct rt_dev *me, const struct req *q, struct rep *r)
{
	static struct rt_energy *m;
	static int tried;
	if (q->tm.energy_s <= 0 || tried++)
		return m;
	if (rt_energy_open(me, &m, r->energy_err, sizeof r->energy_err))
		m = NULL;
	return m;
}

/* Loads, checks the resources of, validates and times one kernel. */
static int run_one(struct tn_bench *b, const struct req *q, void *code, struct rep *r)
{
	struct rt_prog p;
	struct rt_kernel *k = NULL;
	int regs, lds, local, maxt, fatal = 0;
	long long dyn = tn_dyn_lds(b->pb, q->v);
	double t0 = tn_now_s();
	memset(&p, 0, sizeof p);
	p.code = code;
	p.size = (size_t)q->size;
	r->res.status = "load_error";
	r->res.median = r->res.min = r->res.max = r->res.gbs = r->res.mcells = NAN;
	r->res.pct = r->res.max_err = r->res.bound = NAN;
	r->res.reps = -1;
	if (rt_load(&p, "fdt_kernel", &k, r->res.msg, sizeof r->res.msg) ||
	    rt_attrs(k, &regs, &lds, &local, &maxt, r->res.msg, sizeof r->res.msg)) {
		/* load_error; k, when loaded, is unloaded below */
	} else if (rt_set_lds(k, (unsigned)dyn, r->res.msg, sizeof r->res.msg)) {
		r->res.status = "resource_limit";
	} else if ((long long)q->block[0] * q->block[1] * q->block[2] > maxt) {
		r->res.status = "resource_limit";
		snprintf(r->res.msg, sizeof r->res.msg, "%u threads per block, the kernel allows %d "
			 "(%d registers per thread)", q->block[0] * q->block[1] * q->block[2], maxt,
			 regs);
	} else {
		b->race_ms = q->tm.race_ms;
		b->best_ms = q->tm.best_ms;
		b->places = q->tm.places;
		fatal = tn_bench_run(b, k, q->v, q->grid, q->block, &r->res, r->err, sizeof r->err);
		r->check_s = r->res.check_s;
		r->time_s = tn_now_s() - t0 - r->check_s;
	}
	if (!fatal)             /* a lost context cannot release anything */
		rt_unload(k);
	snprintf(r->rstatus, sizeof r->rstatus, "%s", r->res.status);
	r->fatal = fatal;
	return fatal;
}

/* The benches the worker holds, one a slot of its cache (tn_pcache.h). */
static struct slot {
	struct tn_problem pb;
	char prec[8];
	struct tn_hdata hd;     /* mapped from the sweep's, or the worker's own */
	struct tn_bench b;
} slots[TN_PCACHE_MAX];

/* The budget of the cache: 80% of the device memory (tn_bench_open refuses
 * one problem over 90%, and the runtime and the check kernel take some),
 * half the host memory shared among the sweep's nwk workers. */
static struct tn_pcost budget(const struct rt_dev *me, int nwk)
{
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGE_SIZE);
	double host = pages > 0 && psz > 0 ? (double)pages * psz : 16e9;
	return (struct tn_pcost){ 0.8 * (double)me->mem, 0.5 * host / (nwk > 0 ? nwk : 1) };
}

/* What the cache's build of a slot needs: the problem asked for. */
struct opening {
	const struct tn_problem *pb;
	const struct rt_dev *me;
	double copy;
	const char *data;       /* the sweep's host data of pb, or "" */
	double *open_s;         /* where the build's seconds go (rep.open_s) */
};

/* The problem's host data: the sweep's, mapped; else (none shared, or it
 * cannot be mapped: said once) made here, the same bits. Then its bench. */
static int build_slot(void *ctx, int s, long long key, char *err, size_t n)
{
	static int said;
	const struct opening *o = ctx;
	struct slot *t = &slots[s];
	char why[512];
	double t0 = tn_now_s();
	(void)key;
	t->pb = *o->pb;
	snprintf(t->prec, sizeof t->prec, "%s", o->pb->prec);
	t->pb.prec = t->prec;
	if (!*o->data || tn_hdata_map(&t->hd, &t->pb, o->data, why, sizeof why)) {
		if (*o->data && !said++)
			fprintf(stderr, "fdtune: %s; each worker computes its own fields and "
				"reference instead\n", why);
		if (tn_hdata_make(&t->hd, &t->pb, 0, err, n))
			return FDT_FAIL;
	}
	o->open_s[0] += tn_now_s() - t0;
	if (tn_bench_open(&t->b, &t->pb, &t->hd, o->me, o->copy, err, n)) {
		tn_hdata_free(&t->hd);
		return FDT_FAIL;
	}
	o->open_s[1] += t->b.open_s[0];
	o->open_s[2] += t->b.open_s[1];
	return FDT_OK;
}

static void release_slot(void *ctx, int s)
{
	(void)ctx;
	tn_bench_close(&slots[s].b);
	tn_hdata_free(&slots[s].hd);
}

/* Makes q's problem the open one, *cur its slot (tn_pcache_open): held, or
 * built. 0, or 1 with r->err set; r->built and r->evicted say what it did. */
static int open_problem(struct tn_pcache *pc, const struct rt_dev *me, const struct req *q,
			int *cur, struct rep *r)
{
	struct tn_problem pb;
	struct opening o = { &pb, me, q->copy, q->data, r->open_s };
	const struct tn_pcache_ops op = { build_slot, release_slot, &o };
	long long ev = pc->evictions;
	memset(&pb, 0, sizeof pb);
	if (!(pb.fam = tn_family(q->fam))) {
		snprintf(r->err, sizeof r->err, "unknown family %s", q->fam);
		return 1;
	}
	pb.prec = q->prec;
	pb.r = q->r;
	pb.nx = q->nx;
	pb.ny = q->ny;
	pb.nz = q->nz;
	memcpy(pb.h, q->h, sizeof pb.h);
	*cur = tn_pcache_open(pc, q->key, tn_bench_cost(&pb, me, q->places > 0 ? q->places :
							 TN_PLACES), &op, &r->built, r->err,
			      sizeof r->err);
	r->evicted = (int)(pc->evictions - ev);
	return *cur < 0;
}

int tn_worker_main(int argc, char **argv)
{
	int out, ndev = 0, dev = argc > 1 ? atoi(argv[1]) : 0, cur = -1;
	struct tn_pcache pc;
	struct rt_dev me;
	struct rep r;
	struct req q;
	void *code = NULL;

	/* replies go to the original stdout; anything else printed goes to stderr */
	if ((out = dup(1)) < 0 || dup2(2, 1) < 0)
		return 3;
	signal(SIGINT, SIG_IGN);        /* the sweep decides when to stop */
	memset(&r, 0, sizeof r);
	tn_pcache_init(&pc, (struct tn_pcost){ 0, 0 });
	if (rt_init(&ndev, r.err, sizeof r.err) ||
	    (dev >= ndev && snprintf(r.err, sizeof r.err, "no GPU %d (%d present)", dev, ndev)) ||
	    rt_device(dev, &r.dev, r.err, sizeof r.err))
		r.status = 1;
	me = r.dev;
	if (put(out, &r, sizeof r) || r.status)
		return 3;
	while (!get(0, &q, sizeof q)) {
		memset(&r, 0, sizeof r);
		if (q.type == REQ_CAL) {
			r.status = tn_calibrate(&me, &r.copy, &r.mcpy, &r.bytes, r.err, sizeof r.err);
		} else if (q.type == REQ_OPEN) {
			/* the problem of a plan the next runs are for: held, or built */
			q.fam[sizeof q.fam - 1] = q.prec[sizeof q.prec - 1] = 0;
			q.data[sizeof q.data - 1] = 0;
			pc.budget = budget(&me, q.nwk);
			cur = -1;
			r.status = open_problem(&pc, &me, &q, &cur, &r);
		} else if (q.type == REQ_RUN && cur >= 0 && q.size > 0 && q.size < (1LL << 30)) {
			if (!(code = malloc((size_t)q.size)) || get(0, code, (size_t)q.size))
				return 3;
			slots[cur].b.meter = meter(&me, &q, &r);
			slots[cur].b.energy_s = q.tm.energy_s;
			run_one(&slots[cur].b, &q, code, &r);
			free(code);
			code = NULL;
		} else {
			r.status = 1;
			snprintf(r.err, sizeof r.err, "worker: unexpected request %d", q.type);
		}
		if (put(out, &r, sizeof r) || r.fatal)
			break;          /* a lost context is never reused */
	}
	for (int s = 0; s < TN_PCACHE_MAX && !r.fatal; s++)
		if (pc.s[s].key >= 0)
			release_slot(NULL, s);
	return r.fatal ? 4 : 0;
}
