/*
 * tn_cli.c: the option parsers fdtune's subcommands share: the problem and
 * space options of gen and sweep, the filters of best, export and replay,
 * and the checks that refuse a missing database and a space no
 * configuration of which can run. Values are checked here, before anything
 * runs, with messages that name the option, the bad value and what is
 * allowed.
 */
#define _POSIX_C_SOURCE 200809L
#include "fdt_rc.h"
#include "tn_cli.h"

#include <errno.h>
#include <glob.h>
#include <unistd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *family_name = "xyz";

/* The long name of opt in lo (an option table ending in a zero entry), or
 * NULL when it has none. */
static const char *long_name(const struct option *lo, int opt)
{
	for (; lo->name; lo++)
		if (lo->val == opt)
			return lo->name;
	return NULL;
}

int tn_cli_getopt(int argc, char **argv, const char *so, const struct option *lo,
		  struct tn_cli_seen *s)
{
	/* options whose value names a file or folder: "" would be the current
	 * directory, or / once a file name is appended */
	static const struct { const char *name, *what; } paths[] = {
		{ "db", "a path (the database file)" }, { "out", "a directory" },
		{ "name", "a name" }, { "plan", "a plan file" },
	};
	char so2[128];
	int idx = -1, opt, has_arg = 0;
	const char *name, *a;

	/* getopt's own messages would begin with argv[0], the bare command
	 * ("replay: unrecognized option"): ":" and opterr 0 leave them to us */
	snprintf(so2, sizeof so2, ":%s", so);
	opterr = 0;
	opt = getopt_long(argc, argv, so2, lo, &idx);
	if (opt == '?' || opt == ':') {
		a = optind > 0 && optind <= argc ? argv[optind - 1] : "";
		if (opt == ':' && !strncmp(a, "--", 2))
			fprintf(stderr, "fdtune %s: %s needs a value\n", argv[0], a);
		else if (opt == ':')
			fprintf(stderr, "fdtune %s: -%c needs a value\n", argv[0], optopt);
		else if (optopt)
			fprintf(stderr, "fdtune %s: unknown option '-%c'\n", argv[0], optopt);
		else
			fprintf(stderr, "fdtune %s: unknown option '%s'\n", argv[0], a);
		return '?';
	}
	if (opt == -1)
		return opt;
	name = idx >= 0 ? lo[idx].name : long_name(lo, opt);
	for (const struct option *o = lo; o->name; o++)
		if (o->val == opt)
			has_arg = o->has_arg == required_argument;
	if (!name && opt > 0 && opt < 128 && strchr(so, opt) && strchr(so, opt)[1] == ':')
		has_arg = 1;
	for (size_t i = 0; name && has_arg && i < sizeof paths / sizeof paths[0]; i++)
		if (!strcmp(name, paths[i].name) && optarg && !*optarg) {
			fprintf(stderr, "fdtune %s: --%s needs %s, not an empty string\n", argv[0],
				name, paths[i].what);
			return '?';
		}
	/* --param is the one option that repeats (one parameter each); flags
	 * given twice say the same thing twice */
	if (!has_arg || opt == 'p')
		return opt;
	for (int i = 0; i < s->n; i++)
		if (s->opt[i] == opt) {
			if (name)
				fprintf(stderr, "fdtune %s: --%s given twice; give it once%s\n",
					argv[0], name, !strcmp(argv[0], "sweep") && (opt == 'f' || opt == 'r' ||
					opt == 'n' || opt == TN_O_PRECISION) ? " (it takes a list, one list: -r 4,8)" : "");
			else
				fprintf(stderr, "fdtune %s: -%c given twice; give it once\n", argv[0],
					opt);
			return '?';
		}
	if (s->n < (int)(sizeof s->opt / sizeof s->opt[0]))
		s->opt[s->n++] = opt;
	return opt;
}

void tn_cli_problem_init(struct tn_cli_problem *c)
{
	memset(c, 0, sizeof *c);
	family_name = "xyz";
	c->pb.r = 4;
	c->pb.nx = c->pb.ny = c->pb.nz = 512;
	c->pb.prec = "fp32";
	c->pb.h[0] = c->pb.h[1] = c->pb.h[2] = 1.0;
}

static int spacing(struct tn_cli_problem *c, const char *s, char *err, size_t n)
{
	double h[3];
	const char *p = s;
	int k = 0, ok = 1;
	while (k < 3) {
		char *end;
		errno = 0;
		h[k++] = strtod(p, &end);
		ok &= end != p && !errno && isfinite(h[k - 1]) && h[k - 1] > 0;
		if (*end != ',' || !ok) {
			ok &= !*end;
			break;
		}
		p = end + 1;
	}
	if (k == 1)
		h[1] = h[2] = h[0];
	if (!ok || (k != 1 && k != 3)) {
		snprintf(err, n, "--spacing '%s': expected H or HX,HY,HZ, all positive", s);
		return FDT_USAGE;
	}
	memcpy(c->pb.h, h, sizeof h);
	return FDT_OK;
}

/* Says on stderr when arg (NAME=V1,...) names a parameter of params[0..np)
 * again: the last is taken, as scripts that give a base space and then
 * override one parameter mean it, but not silently. */
static void param_twice(const char *const *params, int np, const char *arg)
{
	size_t k = strcspn(arg, "=");
	for (int i = 0; i < np; i++)
		if (!strncmp(params[i], arg, k) && params[i][k] == '=')
			fprintf(stderr, "fdtune: warning: --param %.*s given twice (%s, then %s): "
				"%s is taken\n", (int)k, arg, params[i], arg, arg);
}

int tn_cli_problem_opt(struct tn_cli_problem *c, int opt, const char *arg, int *used, char *err,
		       size_t n)
{
	*used = 1;
	switch (opt) {
	case 'f':
		family_name = arg;
		return FDT_OK;
	case 'r':
		return tn_parse_radius(arg, "--radius", &c->pb.r, err, n) ? FDT_USAGE : FDT_OK;
	case 'n':
		return tn_parse_size(arg, &c->pb.nx, &c->pb.ny, &c->pb.nz, err, n) ? FDT_USAGE : FDT_OK;
	case TN_O_PRECISION:
		return tn_parse_prec(arg, &c->pb.prec, err, n) ? FDT_USAGE : FDT_OK;
	case TN_O_SPACING:
		return spacing(c, arg, err, n);
	case 'p':
		if (c->nparams == 64) {
			snprintf(err, n, "--param given more than 64 times");
			return FDT_USAGE;
		}
		param_twice(c->params, c->nparams, arg);
		c->params[c->nparams++] = arg;
		return FDT_OK;
	}
	*used = 0;
	return FDT_OK;
}

int tn_cli_problem_done(struct tn_cli_problem *c, char *err, size_t n)
{
	const struct tn_family *f;
	if (tn_family_find(family_name, &f, err, n))
		return FDT_USAGE;
	c->pb.fam = f;
	tn_space_default(f, &c->sp);
	for (int i = 0; i < c->nparams; i++)
		if (tn_space_set(&c->sp, c->params[i], err, n))
			return FDT_USAGE;
	return FDT_OK;
}

void tn_cli_db_said(struct db *db, const char *path, char *err, size_t n)
{
	char was[1024];
	if (!n || !db || !db_damaged(db, err) || strstr(err, " is damaged ("))
		return;                 /* an open that failed, or db.c, said so already */
	snprintf(was, sizeof was, "%s", err);
	snprintf(err, n, "%s is damaged (%s): move it aside or choose another database; nothing "
		 "was written to it", path, was);
}

int tn_cli_db_read(const char *path, int check, struct db **db, char *err, size_t n)
{
	glob_t g;
	size_t l;
	if (!(check ? db_read_checked : db_read)(path, db, err, n))
		return FDT_OK;
	if (strcmp(path, TN_CLI_DB_DEFAULT) || !access(path, F_OK) || errno != ENOENT)
		return FDT_FAIL;
	l = strlen(err);
	memset(&g, 0, sizeof g);
	if (glob("results/*/fdtune.db", 0, NULL, &g) || g.gl_pathc == 0) {
		snprintf(err + l, n - l, " (a sweep writes it: make sweep, or fdtune sweep)");
		globfree(&g);
		return FDT_FAIL;
	}
	l += (size_t)snprintf(err + l, n - l, ". No sweep has written it yet; the databases of "
			      "fdtune's own measurements are");
	for (size_t i = 0; i < g.gl_pathc && l < n; i++)
		l += (size_t)snprintf(err + l, n - l, "%s %s", i ? "," : "", g.gl_pathv[i]);
	if (l < n)
		snprintf(err + l, n - l, ": give one with --db, for example --db %s", g.gl_pathv[0]);
	globfree(&g);
	return FDT_FAIL;
}

int tn_cli_filter_opt(struct db_filter *f, int opt, const char *arg, int *used, char *err,
		      size_t n)
{
	const struct tn_family *fam;
	*used = 1;
	switch (opt) {
	case 'f':       /* as gen and sweep: an unknown family is a usage error */
		f->family = arg;
		return tn_family_find(arg, &fam, err, n) ? FDT_USAGE : FDT_OK;
	case 'r':
		return tn_parse_radius(arg, "--radius", &f->radius, err, n) ? FDT_USAGE : FDT_OK;
	case 'n':
		return tn_parse_size(arg, &f->nx, &f->ny, &f->nz, err, n) ? FDT_USAGE : FDT_OK;
	case TN_O_DEVICE:
		f->device = arg;
		return FDT_OK;
	case TN_O_PRECISION:
		return tn_parse_prec(arg, &f->precision, err, n) ? FDT_USAGE : FDT_OK;
	case TN_O_OBJECTIVE:
		if (!strcmp(arg, "time") || !strcmp(arg, "energy") || !strcmp(arg, "edp")) {
			f->objective = arg[0] == 't' ? DB_OBJ_TIME : arg[1] == 'n' ? DB_OBJ_ENERGY :
				       DB_OBJ_EDP;
			return FDT_OK;
		}
		snprintf(err, n, "--objective '%s': expected time (the shortest median), energy "
			 "(the fewest joules a point) or edp (energy x time)", arg);
		return FDT_USAGE;
	}
	*used = 0;
	return FDT_OK;
}

int tn_cli_space_check(const struct tn_cli_problem *c, const char *arch, char *err, size_t n)
{
	const struct tn_family *f = c->pb.fam;
	const struct tn_problem *pb = &c->pb;
	struct tn_limits lim;
	long long total = tn_space_size(&c->sp);
	char why[256] = "", tmp[256];
	int v[TN_MAXP], o, left = 0;

	tn_limits_of_arch(arch, &lim);
	for (long long i = 0; i < total; i++) {
		tn_space_at(&c->sp, i, v);
		if (!f->check(pb, v, &lim, tmp, sizeof tmp)) {
			if (!tn_space_out(&c->sp, pb, v, tmp, sizeof tmp))
				return FDT_OK;
			left = 1;       /* runnable, but the default space leaves it out */
		}
		if (!*why)
			snprintf(why, sizeof why, "%s", tmp);
	}
	o = snprintf(err, n, "no configuration of this space can run: all %lld fail the "
		     "constraints of %s R=%d %s on %s%s (e.g. %s)", total, f->name, pb->r, pb->prec,
		     arch, left ? ", or are left out of its default space (-p of the parameter "
		     "its rule names sweeps them: fdtune gen --list)" : "",
		     total ? why : "the space is empty");
	for (int i = 0; i < c->nparams && o > 0 && (size_t)o < n; i++) {
		int k = (int)strcspn(c->params[i], "="), p = -1;
		for (int j = 0; j < f->np; j++)
			if ((int)strlen(f->p[j].name) == k && !strncmp(f->p[j].name, c->params[i], (size_t)k))
				p = j;
		if (p < 0)
			continue;
		o += snprintf(err + o, n - (size_t)o, "; %s takes %d..%d (default", f->p[p].name,
			      f->p[p].lo, f->p[p].hi);
		for (int j = 0; j < f->p[p].n && o > 0 && (size_t)o < n; j++)
			o += snprintf(err + o, n - (size_t)o, "%s%d", j ? "," : " ", f->p[p].v[j]);
		if (o > 0 && (size_t)o < n)
			o += snprintf(err + o, n - (size_t)o, "), you gave -p %s", c->params[i]);
	}
	if (o > 0 && (size_t)o < n)
		snprintf(err + o, n - (size_t)o, "; fdtune gen --list shows every parameter, and "
			 "nothing was recorded");
	return FDT_USAGE;
}
