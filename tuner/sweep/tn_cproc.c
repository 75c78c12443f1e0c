/*
 * tn_cproc.c: compile processes. In one process, compiles do not keep the
 * host's cores busy: on 2 H200s (32 vCPUs), 64 compile threads kept 14
 * cores busy, the rest of the compiles asleep on a lock (results/h200x2/
 * run21, NOTES "v81 measured"). So each compile thread hands its compile
 * to a helper process ("fdtune __compile"; FDTUNE_COMPILE_PROCS=0: not),
 * which runs rt_compile alone in its own address space and sends back
 * what it made. Helpers are kept idle between compiles and reused by any
 * thread, so a compile pays a pipe's round trip, not a process start. A
 * helper that crashes fails its compile, not the sweep.
 *
 * The pipe's form: a helper's hello (MAGIC) once it has started, then
 * requests (struct req, then the source, the program's name and the arch,
 * without their NULs) and answers (struct ans, then the code, the log, the
 * message and the options). Helpers ignore SIGINT, SIGTERM and SIGHUP
 * (blocked from their start until then): the sweep decides when to stop,
 * and a helper ends when its stdin does (the sweep closed it, or died).
 * They start with FDTUNE_COMPILE_PROCS=0, so that a program that is not
 * fdtune (a test's own, say) cannot start helpers of its own in turn.
 *
 * What a failure costs: a helper that crashes during a compile (a signal
 * other than the four a user or the system sends to end a process) fails
 * that compile, as rt_compile's crash would have ended the sweep. One that
 * is killed (SIGKILL, SIGTERM, SIGINT, SIGHUP: the OOM killer, a user) is
 * replaced and the compile tried again; where helpers cannot be started or
 * keep being killed, the compile runs in the calling thread, as with
 * FDTUNE_COMPILE_PROCS=0. So nothing but the source decides a build's status.
 */
#define _GNU_SOURCE
#include "fdt_rc.h"
#include "rt.h"
#include "tn_cproc.h"
#include "tn_file.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define MAGIC 0x43544446u               /* "FDTC" */

struct req {
	uint32_t magic, nsrc, nname, narch;
};
struct ans {
	uint32_t magic;
	int32_t status, regs, lds, spill;
	uint32_t nlog, nerr, nopt;
	uint64_t size;
	double ms;
};

struct helper {
	pid_t pid;
	int to, from;           /* its stdin, its stdout */
	struct helper *next;    /* in the idle stack */
	struct helper *anext;   /* in the list of all */
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct helper *idle;     /* a stack */
static struct helper *all;      /* every helper alive, idle or in use */
static int nidle, keep = 64;   /* helpers idle; kept idle at most */
static double dead_cpu;         /* CPU seconds of the helpers waited for */
static const char *exe = "/proc/self/exe";
static int told;                /* the fallback to threads said once */

int tn_cproc_env(int *on, char *err, size_t n)
{
	const char *v = getenv("FDTUNE_COMPILE_PROCS");
	*on = !v || strcmp(v, "0");        /* unset or empty: on */
	if (v && *v && strcmp(v, "0") && strcmp(v, "1")) {
		snprintf(err, n, "FDTUNE_COMPILE_PROCS=%s: give 1 (each compile in a helper "
			 "process, the default) or 0 (in the sweep's own threads)", v);
		return FDT_FAIL;
	}
	return FDT_OK;
}

void tn_cproc_exe(const char *path)
{
	exe = path ? path : "/proc/self/exe";
}

void tn_cproc_keep(int n)
{
	pthread_mutex_lock(&mu);
	keep = n > 0 ? n : 1;
	pthread_mutex_unlock(&mu);
}

/* environ for a helper: FDTUNE_COMPILE_PROCS=0 in place of any value
 * (malloc'ed, the strings shared with environ); NULL out of memory. */
static char **child_env(void)
{
	static char off[] = "FDTUNE_COMPILE_PROCS=0";
	size_t k = 0, m = 0;
	char **e;
	while (environ[k])
		k++;
	if (!(e = malloc((k + 2) * sizeof *e)))
		return NULL;
	for (size_t i = 0; i < k; i++)
		if (strncmp(environ[i], "FDTUNE_COMPILE_PROCS=", 21))
			e[m++] = environ[i];
	e[m++] = off;
	e[m] = NULL;
	return e;
}

static void finish(struct helper *h, int *sig, char *why, size_t n);

/* Starts a helper into *hp, and waits for its hello. */
static int start(struct helper **hp, char *err, size_t n)
{
	char *argv[] = { "fdtune", "__compile", NULL }, **env;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t mask;
	struct helper *h = calloc(1, sizeof *h);
	int to[2] = { -1, -1 }, from[2] = { -1, -1 }, rc;
	uint32_t hello = 0;

	*hp = NULL;
	if (!h || pipe2(to, O_CLOEXEC) || pipe2(from, O_CLOEXEC)) {
		snprintf(err, n, "cannot start a compile process: %s",
			 h ? strerror(errno) : "out of memory");
		rc = FDT_FAIL;
		goto fail;
	}
	/* the signals a helper ignores stay blocked until it does (tn_cproc_main) */
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	if (!(env = child_env()))
		rc = ENOMEM;
	else if (!(rc = posix_spawn_file_actions_init(&fa))) {
		if (!(rc = posix_spawnattr_init(&at))) {
			if (!(rc = posix_spawn_file_actions_adddup2(&fa, to[0], 0)) &&
			    !(rc = posix_spawn_file_actions_adddup2(&fa, from[1], 1)) &&
			    !(rc = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK)) &&
			    !(rc = posix_spawnattr_setsigmask(&at, &mask)))
				rc = posix_spawn(&h->pid, exe, &fa, &at, argv, env);
			posix_spawnattr_destroy(&at);
		}
		posix_spawn_file_actions_destroy(&fa);
	}
	free(env);
	if (rc) {
		snprintf(err, n, "cannot start a compile process (%s): %s", exe, strerror(rc));
		rc = FDT_FAIL;
		goto fail;
	}
	close(to[0]);
	close(from[1]);
	h->to = to[1];
	h->from = from[0];
	pthread_mutex_lock(&mu);
	h->anext = all;
	all = h;
	pthread_mutex_unlock(&mu);
	if (tn_xfer(h->from, &hello, sizeof hello, 0) || hello != MAGIC) {
		kill(h->pid, SIGKILL);
		finish(h, NULL, NULL, 0);
		snprintf(err, n, "%s did not answer as a compile process (fdtune __compile)", exe);
		return FDT_FAIL;
	}
	*hp = h;
	return FDT_OK;
fail:
	for (int i = 0; i < 2; i++) {
		if (to[i] >= 0)
			close(to[i]);
		if (from[i] >= 0)
			close(from[i]);
	}
	free(h);
	return rc;
}

/* Closes h's pipes, waits for it and frees it; *sig (may be NULL) the
 * signal that ended it (0: none), why[0..n) (may be NULL) how it ended. It
 * is reaped and its CPU seconds counted in one hold of the lock, so that
 * tn_cproc_cpu_s never reads it gone and not yet counted. */
static void finish(struct helper *h, int *sig, char *why, size_t n)
{
	struct rusage u;
	siginfo_t si;
	int st = -1, r;
	close(h->to);
	close(h->from);
	memset(&u, 0, sizeof u);
	while ((r = waitid(P_PID, (id_t)h->pid, &si, WEXITED | WNOWAIT)) < 0 && errno == EINTR)
		;               /* (ended, not yet reaped) */
	pthread_mutex_lock(&mu);
	if (!r && wait4(h->pid, &st, WNOHANG, &u) != h->pid)
		st = -1;
	dead_cpu += (double)u.ru_utime.tv_sec + u.ru_utime.tv_usec * 1e-6 +
		    (double)u.ru_stime.tv_sec + u.ru_stime.tv_usec * 1e-6;
	for (struct helper **q = &all; *q; q = &(*q)->anext)
		if (*q == h) {
			*q = h->anext;
			break;
		}
	pthread_mutex_unlock(&mu);
	if (sig)
		*sig = st != -1 && WIFSIGNALED(st) ? WTERMSIG(st) : 0;
	if (why && st == -1)
		snprintf(why, n, "it could not be waited for");
	else if (why && WIFSIGNALED(st))
		snprintf(why, n, "killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
	else if (why)
		snprintf(why, n, "it exited with status %d", WEXITSTATUS(st));
	free(h);
}

/* Sends h the request and reads its answer into p: 0 (p as rt_compile
 * left it, its status into *status, its message into err); 1 where h is
 * gone, with *sent 0 when the request never reached it; 2 where the
 * answer could not be read whole (out of memory, or not in form). */
static int ask(struct helper *h, const char *src, const char *name, const char *arch,
	       struct rt_prog *p, int *status, int *sent, char *err, size_t n)
{
	struct req q = { MAGIC, (uint32_t)strlen(src), (uint32_t)strlen(name),
			 (uint32_t)strlen(arch) };
	struct ans a;
	char msg[1024];

	*sent = 0;
	if (tn_xfer(h->to, &q, sizeof q, 1))
		return 1;
	*sent = 1;
	if (tn_xfer(h->to, (void *)src, q.nsrc, 1) || tn_xfer(h->to, (void *)name, q.nname, 1) ||
	    tn_xfer(h->to, (void *)arch, q.narch, 1) || tn_xfer(h->from, &a, sizeof a, 0))
		return 1;
	if (a.magic != MAGIC || a.nerr >= sizeof msg || a.nopt >= sizeof p->options)
		return 2;
	p->size = (size_t)a.size;
	p->ms = a.ms;
	p->regs = a.regs;
	p->lds = a.lds;
	p->spill = a.spill;
	if ((a.size && !(p->code = malloc(p->size))) || !(p->log = calloc(1, (size_t)a.nlog + 1)))
		return 2;
	if (tn_xfer(h->from, p->code, p->size, 0) || tn_xfer(h->from, p->log, a.nlog, 0) ||
	    tn_xfer(h->from, msg, a.nerr, 0) || tn_xfer(h->from, p->options, a.nopt, 0))
		return 1;
	msg[a.nerr] = 0;
	p->options[a.nopt] = 0;
	*status = a.status;
	if (a.status)
		snprintf(err, n, "%s", msg);
	return 0;
}

/* 1 for the signals that end a process from outside (the OOM killer, a
 * user, a session's end), not a crash of its own. */
static int outside(int sig)
{
	return sig == SIGKILL || sig == SIGTERM || sig == SIGINT || sig == SIGHUP;
}

/* Frees what p holds and empties it, its resources unknown (-1). */
static void clear(struct rt_prog *p)
{
	rt_prog_free(p);
	memset(p, 0, sizeof *p);
	p->regs = p->lds = p->spill = -1;
}

int tn_cproc_compile(const char *src, const char *name, const char *arch, struct rt_prog *p,
		     char *err, size_t n)
{
	char why[256];
	int status = FDT_FAIL;

	memset(p, 0, sizeof *p);        /* (as rt_compile: p holds nothing yet) */
	for (int tries = 0; tries < 3; tries++) {
		struct helper *h;
		int sent, sig, r, mine;
		clear(p);               /* what a try that failed had read */
		pthread_mutex_lock(&mu);
		if ((h = idle)) {
			idle = h->next;
			nidle--;
		}
		pthread_mutex_unlock(&mu);
		if (!h && start(&h, why, sizeof why)) {
			pthread_mutex_lock(&mu);
			mine = !told;
			told = 1;
			pthread_mutex_unlock(&mu);
			if (mine)
				fprintf(stderr, "fdtune: %s; compiling in this process's threads "
					"instead\n", why);
			break;
		}
		if (!(r = ask(h, src, name, arch, p, &status, &sent, err, n))) {
			pthread_mutex_lock(&mu);
			if ((mine = nidle < keep)) {
				h->next = idle;
				idle = h;
				nidle++;
			}
			pthread_mutex_unlock(&mu);
			if (!mine)
				finish(h, NULL, NULL, 0);       /* more idle than kept */
			return status;
		}
		if (r == 2)
			kill(h->pid, SIGKILL);  /* out of step with it: ended */
		finish(h, &sig, why, sizeof why);
		if (r == 2)
			break;
		if (sent && !outside(sig)) {    /* crashed on this source */
			clear(p);
			p->log = calloc(1, 1);
			snprintf(err, n, "the compile process of %s died during its compile: %s",
				 name, why);
			return FDT_FAIL;
		}                       /* gone before, or killed: again, with a new one */
	}
	rt_prog_free(p);                /* here, as without helpers */
	return rt_compile(src, name, arch, NULL, 0, p, err, n);
}

void tn_cproc_end(void)
{
	for (;;) {
		struct helper *h;
		pthread_mutex_lock(&mu);
		if ((h = idle)) {
			idle = h->next;
			nidle--;
		}
		pthread_mutex_unlock(&mu);
		if (!h)
			return;
		finish(h, NULL, NULL, 0);       /* its stdin closed: it ends */
	}
}

int tn_cproc_count(void)
{
	int k;
	pthread_mutex_lock(&mu);
	k = 0;
	for (const struct helper *h = all; h; h = h->anext)
		k++;
	pthread_mutex_unlock(&mu);
	return k;
}

double tn_cproc_pid_cpu_s(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long ut = 0, st = 0;
	FILE *f;
	size_t k;
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	if (!(f = fopen(path, "r")))
		return 0;
	k = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[k] = 0;
	/* after the command's ")": state, then fields 4..13, then utime, stime */
	if (!(p = strrchr(buf, ')')) ||
	    sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
		return 0;
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

double tn_cproc_cpu_s(void)
{
	double s;
	pthread_mutex_lock(&mu);
	s = dead_cpu;
	for (const struct helper *h = all; h; h = h->anext)
		s += tn_cproc_pid_cpu_s(h->pid);
	pthread_mutex_unlock(&mu);
	return s;
}

pid_t tn_cproc_idle_pid(void)
{
	pid_t p;
	pthread_mutex_lock(&mu);
	p = idle ? idle->pid : 0;
	pthread_mutex_unlock(&mu);
	return p;
}

/* Reads k bytes of stdin into a new string; NULL at its end or out of memory. */
static char *text(uint32_t k)
{
	char *s = malloc((size_t)k + 1);
	if (s && tn_xfer(0, s, k, 0)) {
		free(s);
		return NULL;
	}
	if (s)
		s[k] = 0;
	return s;
}

int tn_cproc_main(void)
{
	const uint32_t hello = MAGIC;
	sigset_t mask;
	signal(SIGINT, SIG_IGN);        /* the sweep decides when to stop; */
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	sigemptyset(&mask);             /* what came while blocked is dropped */
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_UNBLOCK, &mask, NULL);
	if (tn_xfer(1, (void *)&hello, sizeof hello, 1))
		return FDT_FAIL;
	for (;;) {
		struct req q;
		struct ans a;
		struct rt_prog p;
		char err[1024] = "", *src, *name, *arch;
		int bad;

		if (tn_xfer(0, &q, sizeof q, 0) || q.magic != MAGIC)
			return FDT_OK;  /* stdin ended: the sweep is done with it */
		src = text(q.nsrc);
		name = src ? text(q.nname) : NULL;
		arch = name ? text(q.narch) : NULL;
		if (!arch) {
			free(src);
			free(name);
			return FDT_FAIL;
		}
		memset(&p, 0, sizeof p);
		a = (struct ans){ .magic = MAGIC };
		a.status = rt_compile(src, name, arch, NULL, 0, &p, err, sizeof err);
		a.regs = p.regs;
		a.lds = p.lds;
		a.spill = p.spill;
		a.ms = p.ms;
		a.size = p.code ? p.size : 0;
		a.nlog = p.log ? (uint32_t)strlen(p.log) : 0;
		a.nerr = (uint32_t)strlen(err);
		a.nopt = (uint32_t)strnlen(p.options, sizeof p.options - 1);
		bad = tn_xfer(1, &a, sizeof a, 1) || tn_xfer(1, p.code, a.size, 1) ||
		      tn_xfer(1, p.log, a.nlog, 1) || tn_xfer(1, err, a.nerr, 1) ||
		      tn_xfer(1, p.options, a.nopt, 1);
		rt_prog_free(&p);
		free(src);
		free(name);
		free(arch);
		if (bad)
			return FDT_FAIL;        /* the sweep is gone */
	}
}
