/*
 * gen.c: runs m4 over a template for one configuration and checks the
 * result. m4 runs as a child process (m4 -P -E -I DIR): -P prefixes every
 * builtin with m4_ so that C names are safe, -E turns m4 warnings into
 * errors. The child's stdout is the source; its stderr is the error message.
 * It is started with posix_spawn, which stays cheap in a large process.
 */
#define _GNU_SOURCE             /* pipe2 */
#include "fdt_rc.h"
#include "gen.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#ifndef FDT_TEMPLATE_DIR
#define FDT_TEMPLATE_DIR "templates"
#endif

const char *gen_template_dir(void)
{
	const char *d = getenv("FDTUNE_TEMPLATES");
	return d && *d ? d : FDT_TEMPLATE_DIR;
}

/* The file of template tmpl: in dir, or tmpl itself where it is an absolute
 * path (a family outside templates/, such as a test's; its includes still
 * come from dir). */
static void template_path(const char *dir, const char *tmpl, char *path, size_t n)
{
	if (tmpl[0] == '/')
		snprintf(path, n, "%s", tmpl);
	else
		snprintf(path, n, "%s/%s", dir, tmpl);
}

int gen_template_check(const char *tmpl, char *err, size_t n)
{
	const char *dir = gen_template_dir(), *env = getenv("FDTUNE_TEMPLATES");
	char path[4096];
	template_path(dir, tmpl, path, sizeof path);
	if (!access(path, R_OK))
		return FDT_OK;
	snprintf(err, n, "cannot read the template %.1000s (%s): %s; %s", path, strerror(errno),
		 env && *env ? "FDTUNE_TEMPLATES names no templates directory" :
		 "the templates built in are missing",
		 env && *env ? "set it to fdtune's templates directory, or unset it" :
		 "set FDTUNE_TEMPLATES to fdtune's templates directory");
	return FDT_FAIL;
}

void gen_hash_bytes(const void *p, size_t n, char hex[17])
{
	unsigned long long h = 0xcbf29ce484222325ULL;   /* FNV-1a 64 offset basis */
	for (size_t i = 0; i < n; i++)
		h = (h ^ ((const unsigned char *)p)[i]) * 0x100000001b3ULL;
	snprintf(hex, 17, "%016llx", h);
}

void gen_hash(const char *s, char hex[17])
{
	gen_hash_bytes(s, strlen(s), hex);
}

/* A growing buffer for one pipe. */
struct buf { char *b; size_t len, cap; };

static int append(struct buf *x, int fd)
{
	ssize_t r;
	if (x->len + 4096 >= x->cap) {
		size_t cap = x->cap ? 2 * x->cap : 1 << 16;
		char *t = realloc(x->b, cap);
		if (!t)
			return -1;
		x->b = t;
		x->cap = cap;
	}
	r = read(fd, x->b + x->len, x->cap - x->len - 1);
	if (r > 0)
		x->len += (size_t)r;
	x->b[x->len] = 0;
	return r < 0 && (errno == EINTR || errno == EAGAIN) ? 1 : (int)(r > 0);
}

/* Reads both pipes to EOF, whichever m4 writes first; 0 or -1 (memory). */
static int drain(int fo, int fe, struct buf *out, struct buf *msg)
{
	struct pollfd p[2] = { { fo, POLLIN, 0 }, { fe, POLLIN, 0 } };
	struct buf *b[2] = { out, msg };
	int open = 2;
	for (int i = 0; i < 2; i++)
		if (!(b[i]->b = calloc(1, b[i]->cap = 1 << 16)))
			return -1;
	while (open) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		for (int i = 0; i < 2; i++) {
			int r;
			if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if ((r = append(b[i], p[i].fd)) < 0)
				return -1;
			if (r == 0) {
				p[i].fd = -1;
				open--;
			}
		}
	}
	return 0;
}

/* The first FDT_ or m4_ word left in s, or NULL. */
static const char *leftover(const char *s, int *line)
{
	*line = 1;
	for (const char *p = s; *p; p++) {
		if (*p == '\n')
			++*line;
		if ((p == s || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) &&
		    (!strncmp(p, "FDT_", 4) || !strncmp(p, "m4_", 3)))
			return p;
	}
	return NULL;
}

int gen_source(const char *tmpl, const char *kernel, const struct gen_def *defs,
	       int ndef, char **src, char *err, size_t n)
{
	enum { MAXDEF = 32 };
	const char *dir = gen_template_dir(), *m4 = getenv("FDTUNE_M4");
	char *argv[MAXDEF + 8], defbuf[MAXDEF][64], params[512] = "", kdef[160], pdef[600];
	char path[4096];
	struct buf out = { 0 }, msg = { 0 };
	int po[2] = { -1, -1 }, pe[2] = { -1, -1 }, st = 0, na = 0, status = 1, line, reaped = 0;
	size_t off = 0;
	pid_t pid = -1, w;
	const char *left;

	*src = NULL;
	if (ndef > MAXDEF) {
		snprintf(err, n, "gen: too many parameters (%d, at most %d)", ndef, MAXDEF);
		return FDT_FAIL;
	}
	template_path(dir, tmpl, path, sizeof path);
	if (access(path, R_OK)) {
		snprintf(err, n, "template %s: %s; set FDTUNE_TEMPLATES to the templates/ "
			 "directory of fdtune", path, strerror(errno));
		return FDT_FAIL;
	}
	argv[na++] = (char *)(m4 && *m4 ? m4 : "m4");
	argv[na++] = "-P";
	argv[na++] = "-E";
	argv[na++] = "-I";
	argv[na++] = (char *)dir;
	for (int i = 0; i < ndef; i++) {
		char up[48];
		size_t k;
		for (k = 0; defs[i].name[k] && k < sizeof up - 1; k++)
			up[k] = (char)toupper((unsigned char)defs[i].name[k]);
		up[k] = 0;
		if (defs[i].name[k] || snprintf(defbuf[i], sizeof defbuf[i], "-DFDT_%s=%d", up,
						defs[i].value) >= (int)sizeof defbuf[i]) {
			snprintf(err, n, "gen: parameter name '%s' is too long", defs[i].name);
			return FDT_FAIL;
		}
		argv[na++] = defbuf[i];
		if (off < sizeof params)
			off += (size_t)snprintf(params + off, sizeof params - off, "%s%s=%d",
						i ? " " : "", defs[i].name, defs[i].value);
	}
	snprintf(kdef, sizeof kdef, "-DFDT_KERNEL=%s", kernel);
	snprintf(pdef, sizeof pdef, "-DFDT_PARAMS=%s", params);
	argv[na++] = kdef;
	argv[na++] = pdef;
	argv[na++] = path;
	argv[na] = NULL;

	/* close-on-exec: m4 processes started by other threads must not hold
	 * these pipes open */
	if (pipe2(po, O_CLOEXEC) || pipe2(pe, O_CLOEXEC)) {
		snprintf(err, n, "gen: pipe: %s", strerror(errno));
		goto done;
	}
	/* posix_spawn, not fork: a sweep holds gigabytes of fields, and copying
	 * its page tables for every m4 would cost more than m4 itself */
	{
		posix_spawn_file_actions_t fa;
		int e = posix_spawn_file_actions_init(&fa);
		if (!e) {
			e = posix_spawn_file_actions_adddup2(&fa, po[1], 1);
			if (!e)
				e = posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
			if (!e)
				e = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
			posix_spawn_file_actions_destroy(&fa);
		}
		if (e) {
			pid = -1;
			snprintf(err, n, "cannot run %s: %s; install m4 (apt-get install m4) or set "
				 "FDTUNE_M4", argv[0], strerror(e));
			goto done;
		}
	}
	close(po[1]);
	close(pe[1]);
	po[1] = pe[1] = -1;
	if (drain(po[0], pe[0], &out, &msg)) {
		snprintf(err, n, "gen: out of memory or poll failure reading m4");
		goto done;
	}
	while ((w = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
		;
	if (w < 0) {
		snprintf(err, n, "gen: waitpid: %s", strerror(errno));
		goto done;
	}
	reaped = 1;
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		while (msg.len && msg.b[msg.len - 1] == '\n')
			msg.b[--msg.len] = 0;
		snprintf(err, n, "m4 failed on %s (%s): %s", tmpl, params,
			 msg.len ? msg.b : "no message");
		goto done;
	}
	if ((left = leftover(out.b, &line))) {
		int wd = 0;
		while (isalnum((unsigned char)left[wd]) || left[wd] == '_')
			wd++;
		snprintf(err, n, "%s (%s): macro %.*s left unexpanded at line %d of the "
			 "output; define it or fix its name", tmpl, params, wd, left, line);
		goto done;
	}
	*src = out.b;
	out.b = NULL;
	status = 0;
done:
	for (int i = 0; i < 2; i++) {
		if (po[i] >= 0)
			close(po[i]);
		if (pe[i] >= 0)
			close(pe[i]);
	}
	if (pid > 0 && !reaped)         /* m4 sees its pipes closed and ends */
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	free(out.b);
	free(msg.b);
	return status;
}
