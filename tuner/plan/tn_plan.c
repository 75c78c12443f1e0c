/*
 * tn_plan.c: building a plan (tn_plan.h) from the sweep's comma lists or
 * from a plan file. Each value is checked with the parser of its option, so
 * the messages are those of a single problem, prefixed by the file and line
 * for plan files. --param specs go to every family of the plan that has the
 * parameter; one that no family has is refused.
 */
#define _POSIX_C_SOURCE 200809L
#include "fdt_rc.h"
#include "tn_plan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tn_problem_name(const struct tn_problem *pb, char *buf, size_t n)
{
	snprintf(buf, n, "%s R=%d %dx%dx%d %s", pb->fam->name, pb->r, pb->nx, pb->ny, pb->nz,
		 pb->prec);
}

void tn_plan_free(struct tn_plan *pl)
{
	free(pl->p);
	memset(pl, 0, sizeof *pl);
}

/* Appends problem pb with the family's default space and c's params;
 * refuses a problem already in the plan. */
static int add(struct tn_plan *pl, const struct tn_problem *pb, const struct tn_plan_common *c,
	       char *err, size_t n)
{
	struct tn_plan_item *it;
	for (int i = 0; i < pl->n; i++) {
		const struct tn_problem *q = &pl->p[i].pb;
		if (q->fam == pb->fam && q->r == pb->r && q->nx == pb->nx && q->ny == pb->ny &&
		    q->nz == pb->nz && !strcmp(q->prec, pb->prec)) {
			snprintf(err, n, "%s is in the plan twice; name each problem once",
				 pl->p[i].name);
			return FDT_USAGE;
		}
	}
	if (pl->n == pl->cap) {
		int cap = pl->cap ? 2 * pl->cap : 16;
		struct tn_plan_item *p = realloc(pl->p, (size_t)cap * sizeof *p);
		if (!p) {
			snprintf(err, n, "out of memory for a plan of %d problems", cap);
			return FDT_FAIL;
		}
		pl->p = p;
		pl->cap = cap;
	}
	it = &pl->p[pl->n];
	memset(it, 0, sizeof *it);
	it->pb = *pb;
	memcpy(it->pb.h, c->h, sizeof it->pb.h);
	tn_space_default(pb->fam, &it->sp);
	for (int i = 0; i < c->nparams; i++) {
		char name[64];
		const char *eq = strchr(c->params[i], '=');
		size_t len = eq ? (size_t)(eq - c->params[i]) : 0;
		snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : 0), c->params[i]);
		if (tn_param_index(pb->fam, name) >= 0 &&
		    tn_space_set(&it->sp, c->params[i], err, n))
			return FDT_USAGE;
	}
	tn_problem_name(&it->pb, it->name, sizeof it->name);
	pl->n++;
	return FDT_OK;
}

/* Every --param names a parameter of some family of the plan. */
static int params_used(struct tn_plan *pl, const struct tn_plan_common *c, char *err, size_t n)
{
	for (int i = 0; i < c->nparams; i++) {
		char name[64];
		const char *eq = strchr(c->params[i], '=');
		size_t len = eq ? (size_t)(eq - c->params[i]) : 0;
		int used = 0;
		snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : 0), c->params[i]);
		for (int k = 0; k < pl->n && !used; k++)
			used = tn_param_index(pl->p[k].pb.fam, name) >= 0;
		if (!used && pl->n) {
			struct tn_space sp = pl->p[0].sp;
			(void)tn_space_set(&sp, c->params[i], err, n);  /* fails: its message */
			if (pl->n > 1) {
				size_t o = strlen(err);
				snprintf(err + o, n - o, " (nor has any other family of the plan)");
			}
			return FDT_USAGE;
		}
	}
	return FDT_OK;
}

/* The next comma-separated token of *s into tok; 0 at the end (*s NULL).
 * "4,,8" and "4," give an empty token, which callers refuse. */
static int token(const char **s, char *tok, size_t n)
{
	const char *c;
	size_t len;
	if (!*s)
		return 0;
	c = strchr(*s, ',');
	len = c ? (size_t)(c - *s) : strlen(*s);
	snprintf(tok, n, "%.*s", (int)(len < n ? len : n - 1), *s);
	*s = c ? c + 1 : NULL;
	return 1;
}

static int empty_item(const char *opt, const char *list, char *err, size_t n)
{
	snprintf(err, n, "%s '%s': an empty item in the list; expected values separated by "
		 "single commas", opt, list);
	return FDT_USAGE;
}

int tn_plan_lists(struct tn_plan *pl, const char *fams, const char *radii, const char *sizes,
		  const char *precs, const struct tn_plan_common *c, char *err, size_t n)
{
	const char *a = fams, *b, *d, *e;
	char ft[64], rt[64], st[64], pt[64];
	int rc;
	memset(pl, 0, sizeof *pl);
	while (token(&a, ft, sizeof ft)) {
		struct tn_problem pb;
		memset(&pb, 0, sizeof pb);
		if (!*ft)
			return empty_item("--family", fams, err, n);
		if (tn_family_find(ft, &pb.fam, err, n))
			return FDT_USAGE;
		for (b = radii; token(&b, rt, sizeof rt);) {
			if (!*rt)
				return empty_item("--radius", radii, err, n);
			if (tn_parse_radius(rt, "--radius", &pb.r, err, n))
				return FDT_USAGE;
			for (d = sizes; token(&d, st, sizeof st);) {
				if (!*st)
					return empty_item("--size", sizes, err, n);
				if (tn_parse_size(st, &pb.nx, &pb.ny, &pb.nz, err, n))
					return FDT_USAGE;
				for (e = precs; token(&e, pt, sizeof pt);) {
					if (!*pt)
						return empty_item("--precision", precs, err, n);
					if (tn_parse_prec(pt, &pb.prec, err, n))
						return FDT_USAGE;
					if ((rc = add(pl, &pb, c, err, n)))
						return rc;
				}
			}
		}
	}
	if (!pl->n) {
		snprintf(err, n, "the plan is empty: give -f, -r, -n and --precision a value each");
		return FDT_USAGE;
	}
	return params_used(pl, c, err, n);
}

/* One line of a plan file, its comment and blank space already gone. */
static int line(struct tn_plan *pl, char *s, const struct tn_plan_common *c, char *err,
		size_t n)
{
	char *w[5], *save = NULL;
	int k = 0;
	struct tn_problem pb;
	for (char *t = strtok_r(s, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save))
		if (k < 5)
			w[k++] = t;
		else
			k++;
	if (!k)
		return FDT_OK;
	if (k < 3 || k > 4) {
		snprintf(err, n, "expected FAMILY RADIUS SIZE [PRECISION], e.g. 'xyz 4 512 fp32'; "
			 "got %d field%s", k, k == 1 ? "" : "s");
		return FDT_USAGE;
	}
	memset(&pb, 0, sizeof pb);
	pb.prec = "fp32";
	if (tn_family_find(w[0], &pb.fam, err, n) ||
	    tn_parse_radius(w[1], "radius", &pb.r, err, n) ||
	    tn_parse_size(w[2], &pb.nx, &pb.ny, &pb.nz, err, n) ||
	    (k == 4 && tn_parse_prec(w[3], &pb.prec, err, n)))
		return FDT_USAGE;
	return add(pl, &pb, c, err, n);
}

int tn_plan_file(struct tn_plan *pl, const char *path, const struct tn_plan_common *c,
		 char *err, size_t n)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL, *s, why[768];
	size_t cap = 0;
	ssize_t len;
	int no = 0, rc = 0;
	memset(pl, 0, sizeof *pl);
	if (!f) {
		snprintf(err, n, "--plan %s: %s", path, strerror(errno));
		return FDT_FAIL;
	}
	while (!rc && (len = getline(&buf, &cap, f)) >= 0) {
		no++;
		if (memchr(buf, 0, (size_t)len)) {
			snprintf(why, sizeof why, "a NUL byte: a plan is text, one problem a line "
				 "(is this a binary file?)");
			rc = FDT_USAGE;
			break;
		}
		if (len > 1023) {
			snprintf(why, sizeof why, "a line over 1022 characters");
			rc = FDT_USAGE;
			break;
		}
		/* a UTF-8 byte order mark, as some editors write, is no part of the text */
		s = no == 1 && !strncmp(buf, "\xef\xbb\xbf", 3) ? buf + 3 : buf;
		s[strcspn(s, "#\n")] = 0;
		rc = line(pl, s, c, why, sizeof why);
	}
	free(buf);
	if (!rc && ferror(f)) {
		snprintf(err, n, "--plan %s: cannot read it", path);
		rc = 1;
	} else if (rc) {
		snprintf(err, n, "%s:%d: %s", path, no, why);
	} else if (!pl->n) {
		snprintf(err, n, "%s: no problems in it; write one a line as FAMILY RADIUS SIZE "
			 "[PRECISION], e.g. 'xyz 4 512 fp32'", path);
		rc = FDT_USAGE;
	} else if ((rc = params_used(pl, c, err, n))) {
		;
	}
	fclose(f);
	return rc;
}
