/*
 * gen.c: runs m4 over a template for one configuration and checks the
 * result. m4 runs as a child process (m4 -P -E -I DIR): -P prefixes every
 * builtin with m4_ so that C names are safe, -E turns m4 warnings into
 * errors. The child's stdout is the source; its stderr is the error message.
 */
#define _POSIX_C_SOURCE 200809L
#include "gen.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef FDT_TEMPLATE_DIR
#define FDT_TEMPLATE_DIR "templates"
#endif

const char *gen_template_dir(void)
{
	const char *d = getenv("FDTUNE_TEMPLATES");
	return d && *d ? d : FDT_TEMPLATE_DIR;
}

void gen_hash(const char *s, char hex[17])
{
	unsigned long long h = 0xcbf29ce484222325ULL;   /* FNV-1a 64 offset basis */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	snprintf(hex, 17, "%016llx", h);
}

/* Reads fd to EOF into a malloc'ed string. */
static char *slurp(int fd, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *b = malloc(cap), *t;
	ssize_t r;
	if (!b)
		return NULL;
	for (;;) {
		if (n + 1 >= cap) {
			if (!(t = realloc(b, cap *= 2))) {
				free(b);
				return NULL;
			}
			b = t;
		}
		r = read(fd, b + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	b[n] = 0;
	*len = n;
	return b;
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
	const char *dir = gen_template_dir(), *m4 = getenv("FDTUNE_M4");
	char *argv[40], defbuf[32][64], params[512] = "", kdef[160], pdef[600];
	char path[4096], *out = NULL, *msg = NULL;
	int po[2] = { -1, -1 }, pe[2] = { -1, -1 }, st, na = 0, status = 1, line;
	size_t len, off = 0, elen;
	pid_t pid = -1;
	const char *left;

	*src = NULL;
	if (ndef > 32) {
		snprintf(err, n, "gen: too many parameters (%d)", ndef);
		return 1;
	}
	snprintf(path, sizeof path, "%s/%s", dir, tmpl);
	if (access(path, R_OK)) {
		snprintf(err, n, "template %s: %s; set FDTUNE_TEMPLATES to the templates/ "
			 "directory of fdtune", path, strerror(errno));
		return 1;
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
		snprintf(defbuf[i], sizeof defbuf[i], "-DFDT_%s=%d", up, defs[i].value);
		argv[na++] = defbuf[i];
		off += (size_t)snprintf(params + off, off < sizeof params ? sizeof params - off : 0,
					"%s%s=%d", i ? " " : "", defs[i].name, defs[i].value);
	}
	snprintf(kdef, sizeof kdef, "-DFDT_KERNEL=%s", kernel);
	snprintf(pdef, sizeof pdef, "-DFDT_PARAMS=%s", params);
	argv[na++] = kdef;
	argv[na++] = pdef;
	argv[na++] = path;
	argv[na] = NULL;

	if (pipe(po) || pipe(pe)) {
		snprintf(err, n, "gen: pipe: %s", strerror(errno));
		goto done;
	}
	if ((pid = fork()) < 0) {
		snprintf(err, n, "gen: fork: %s", strerror(errno));
		goto done;
	}
	if (pid == 0) {
		dup2(po[1], 1);
		dup2(pe[1], 2);
		close(po[0]);
		close(pe[0]);
		close(po[1]);
		close(pe[1]);
		execvp(argv[0], argv);
		fprintf(stderr, "cannot run %s: %s; install m4 (apt-get install m4) "
			"or set FDTUNE_M4", argv[0], strerror(errno));
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	po[1] = pe[1] = -1;
	/* m4 reports errors before or instead of output, and briefly: reading
	 * stdout first cannot block on a full stderr pipe in practice. */
	out = slurp(po[0], &len);
	msg = slurp(pe[0], &elen);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!out || !msg) {
		snprintf(err, n, "gen: out of memory");
		goto done;
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		while (elen && (msg[elen - 1] == '\n'))
			msg[--elen] = 0;
		snprintf(err, n, "m4 failed on %s (%s): %s", tmpl, params,
			 *msg ? msg : "no message");
		goto done;
	}
	if ((left = leftover(out, &line))) {
		int w = 0;
		while (isalnum((unsigned char)left[w]) || left[w] == '_')
			w++;
		snprintf(err, n, "%s (%s): macro %.*s left unexpanded at line %d of the "
			 "output; define it or fix its name", tmpl, params, w, left, line);
		goto done;
	}
	*src = out;
	out = NULL;
	status = 0;
done:
	for (int i = 0; i < 2; i++) {
		if (po[i] >= 0)
			close(po[i]);
		if (pe[i] >= 0)
			close(pe[i]);
	}
	free(out);
	free(msg);
	return status;
}
