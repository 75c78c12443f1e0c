/*
 * tn_cache.c: the compile cache. A compiled kernel is stored as two files
 * in the cache directory, KEY.bin (the code object) and KEY.txt (registers,
 * LDS, spills, compile time, options), where KEY hashes the source, the
 * compiler and its version, and the target arch: what decides the code. A
 * re-run, or a sweep of another problem size, then loads instead of
 * compiling. Files are written under a temporary name and renamed, so that
 * concurrent sweeps and a kill at any moment leave only whole entries.
 * The directory is checked once: one that cannot be used (a relative
 * FDTUNE_CACHE, a missing HOME, a file, no write permission) turns caching
 * off, said once on stderr. Within a process, one source is compiled by one
 * thread at a time: another asking for it waits, then reads the cache.
 */
#define _POSIX_C_SOURCE 200809L
#include "tn_cache.h"
#include "gen.h"
#include "tn_file.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The cache directory the environment asks for into dir[0..n), or "" when
 * caching is off; why[0..wn) says why where that is worth saying. Creates
 * nothing but the cache directory itself and its parents below an existing
 * HOME. */
static void resolve(char *dir, size_t n, char *why, size_t wn)
{
	const char *e = getenv("FDTUNE_CACHE"), *home = getenv("HOME");
	struct stat st;
	char err[1024];

	*dir = *why = 0;
	if (e && !*e)
		return;                 /* FDTUNE_CACHE= turns the cache off */
	if (e && *e != '/') {
		snprintf(why, wn, "FDTUNE_CACHE '%.200s' is a relative path, which would put a "
			 "cache wherever fdtune runs; give an absolute one", e);
		return;
	}
	if (!e && (!home || !*home)) {
		snprintf(why, wn, "HOME is not set; set FDTUNE_CACHE to a directory");
		return;
	}
	if (!e && (stat(home, &st) || !S_ISDIR(st.st_mode))) {
		snprintf(why, wn, "HOME %.200s is no existing directory, and fdtune does not "
			 "create it; set FDTUNE_CACHE to a directory", home);
		return;
	}
	if (e)
		snprintf(dir, n, "%s", e);
	else
		snprintf(dir, n, "%s/.cache/fdtune", home);
	if (tn_mkdirs(dir, err, sizeof err)) {
		snprintf(why, wn, "%.900s", err);
		*dir = 0;
	} else if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(why, wn, "%.900s is not a directory", dir);
		*dir = 0;
	} else if (access(dir, W_OK | X_OK)) {
		snprintf(why, wn, "cannot write in %.900s: %s", dir, strerror(errno));
		*dir = 0;
	}
}

const char *tn_cache_dir(void)
{
	static char dir[4096];
	static int done;
	char why[1100];

	if (!done) {
		done = 1;
		resolve(dir, sizeof dir, why, sizeof why);
		if (*why)
			fprintf(stderr, "fdtune: compile cache off: %s\n", why);
	}
	return *dir ? dir : NULL;
}

void tn_cache_key(const char *src, const char *compiler, const char *arch, char key[40])
{
	char a[17], b[17];
	size_t n = strlen(compiler) + strlen(arch) + 3;
	char *id = malloc(n);
	gen_hash(src, a);
	if (id)
		snprintf(id, n, "%s|%s|", compiler, arch);
	gen_hash(id ? id : "", b);
	free(id);
	snprintf(key, 40, "%s%s", a, b);
}

int tn_cache_get(const char *dir, const char *key, struct rt_prog *p)
{
	char path[4200];
	FILE *f;
	long len;
	int ok = 0;

	memset(p, 0, sizeof *p);
	p->regs = p->lds = p->spill = -1;
	snprintf(path, sizeof path, "%s/%s.txt", dir, key);
	if (!(f = fopen(path, "r")))
		return 1;
	ok = fscanf(f, "%d %d %d %lf ", &p->regs, &p->lds, &p->spill, &p->ms) == 4 &&
	     fgets(p->options, sizeof p->options, f);
	fclose(f);
	p->options[strcspn(p->options, "\n")] = 0;
	snprintf(path, sizeof path, "%s/%s.bin", dir, key);
	if (!ok || !(f = fopen(path, "rb")))
		return 1;
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) ||
	    !(p->code = malloc((size_t)len)) || fread(p->code, 1, (size_t)len, f) != (size_t)len) {
		fclose(f);
		free(p->code);
		p->code = NULL;
		return 1;
	}
	fclose(f);
	p->size = (size_t)len;
	tn_cache_touch(dir, key);
	p->log = strdup("from the compile cache");
	return p->log ? 0 : (free(p->code), p->code = NULL, 1);
}

/* Writes len bytes of b to dir/name through a temporary file. */
static int put(const char *dir, const char *name, const void *b, size_t len)
{
	char tmp[4300], path[4200];
	FILE *f;
	int bad, fd;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	snprintf(tmp, sizeof tmp, "%s.XXXXXX", path);  /* unique even on a shared cache */
	if ((fd = mkstemp(tmp)) < 0)
		return 1;
	if (!(f = fdopen(fd, "wb"))) {
		close(fd);
		unlink(tmp);
		return 1;
	}
	bad = fwrite(b, 1, len, f) != len;
	bad |= fclose(f) != 0;
	if (bad || rename(tmp, path)) {
		unlink(tmp);
		return 1;
	}
	return 0;
}

int tn_cache_put(const char *dir, const char *key, const struct rt_prog *p)
{
	char name[64], meta[700], why[256];
	int n;
	if (!p->code || tn_mkdirs(dir, why, sizeof why))   /* a cache that fails is no cache */
		return 1;
	snprintf(name, sizeof name, "%s.bin", key);
	if (put(dir, name, p->code, p->size))
		return 1;
	n = snprintf(meta, sizeof meta, "%d %d %d %.3f %s\n", p->regs, p->lds, p->spill, p->ms,
		     p->options);
	snprintf(name, sizeof name, "%s.txt", key);     /* last: it makes the entry visible */
	return put(dir, name, meta, (size_t)n);
}

void tn_cache_compiler(const char *arch, char *id, size_t n)
{
	char comp[64], opts[512];
	rt_compiler(comp, sizeof comp);
	rt_compile_options(arch, opts, sizeof opts);
	snprintf(id, n, "%s %s", comp, opts);
}

/* The keys being compiled in this process, so that two compile threads
 * never build one source at once: the warm pool's compiles ahead of a step
 * (tn_warm.c) go on while that step's own pool asks for the same sources.
 * A full table only loses the wait (both compile). */
#define BUSY 256
static pthread_mutex_t busy_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t busy_cv = PTHREAD_COND_INITIALIZER;
static char busy[BUSY][40];             /* "" where free */

/* The slot this thread now holds for key, or -1 where the table is full;
 * -2 after waiting for another thread's compile of key to end (its result,
 * if any, is in the cache now). */
static int busy_claim(const char *key)
{
	int s, fr = -1, rc;
	pthread_mutex_lock(&busy_mu);
	for (s = 0; s < BUSY && strcmp(busy[s], key); s++)
		if (fr < 0 && !busy[s][0])
			fr = s;
	if (s < BUSY) {
		while (!strcmp(busy[s], key))
			pthread_cond_wait(&busy_cv, &busy_mu);
		rc = -2;
	} else {
		if (fr >= 0)
			memcpy(busy[fr], key, sizeof busy[fr]);
		rc = fr;
	}
	pthread_mutex_unlock(&busy_mu);
	return rc;
}

/* Frees slot s of busy_claim (negative: nothing) and wakes the threads
 * waiting for its key. */
static void busy_done(int s)
{
	if (s < 0)
		return;
	pthread_mutex_lock(&busy_mu);
	busy[s][0] = 0;
	pthread_cond_broadcast(&busy_cv);
	pthread_mutex_unlock(&busy_mu);
}

static tn_compile_fn *compile_fn;     /* NULL: rt_compile */

void tn_cache_set_compile(tn_compile_fn *fn)
{
	compile_fn = fn;
}

int tn_cache_compile(const char *dir, const char *src, const char *tmpl, const char *arch,
		     const char *id, struct rt_prog *p, int *cached, char *err, size_t n)
{
	char key[40];
	int s = -1, rc;
	if (cached)
		*cached = 0;
	if (dir) {
		tn_cache_key(src, id, arch, key);
		/* looked up again after a wait, and after a claim (another thread
		 * may have stored it between the first look and the claim); after a
		 * wait that stored nothing (its compile failed) it compiles
		 * unclaimed, so that the waiters do not fail one after another */
		for (int waited = 0;; waited = 1) {
			if (!tn_cache_get(dir, key, p)) {
				if (cached)
					*cached = 1;
				busy_done(s);
				return 0;
			}
			if (s >= 0 || waited)
				break;
			if ((s = busy_claim(key)) == -1)
				break;          /* the table is full: compiled unclaimed */
		}
	}
	rc = (compile_fn ? compile_fn(src, tmpl, arch, p, err, n) :
	      rt_compile(src, tmpl, arch, NULL, 0, p, err, n)) != 0;
	if (dir && !rc)
		tn_cache_put(dir, key, p);      /* a failure costs a compile later */
	busy_done(s);
	return rc;
}
