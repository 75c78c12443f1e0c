/*
 * tn_cli.c: parsing of the problem and space options shared by fdtune gen
 * and fdtune sweep. Values are checked here, with messages that name the
 * option, the bad value and what is allowed.
 */
#define _POSIX_C_SOURCE 200809L
#include "tn_cli.h"

#include <errno.h>
#include <unistd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *family_name = "xyz";

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
		return -1;
	}
	memcpy(c->pb.h, h, sizeof h);
	return 1;
}

int tn_cli_problem_opt(struct tn_cli_problem *c, int opt, const char *arg, char *err, size_t n)
{
	switch (opt) {
	case 'f':
		family_name = arg;
		return 1;
	case 'r':
		return tn_parse_int(arg, "--radius", 1, TN_RMAX, &c->pb.r, err, n) ? -1 : 1;
	case 'n':
		return tn_parse_size(arg, &c->pb.nx, &c->pb.ny, &c->pb.nz, err, n) ? -1 : 1;
	case 0x100:
		return tn_parse_prec(arg, &c->pb.prec, err, n) ? -1 : 1;
	case 0x101:
		return spacing(c, arg, err, n);
	case 'p':
		if (c->nparams == 64) {
			snprintf(err, n, "--param given more than 64 times");
			return -1;
		}
		c->params[c->nparams++] = arg;
		return 1;
	}
	return 0;
}

int tn_cli_problem_done(struct tn_cli_problem *c, char *err, size_t n)
{
	const struct tn_family *f = tn_family(family_name);
	if (!f) {
		int o = snprintf(err, n, "--family '%s': unknown; families:", family_name);
		for (int i = 0; tn_families[i] && o > 0 && (size_t)o < n; i++)
			o += snprintf(err + o, n - (size_t)o, " %s", tn_families[i]->name);
		return TN_EX_USAGE;
	}
	c->pb.fam = f;
	tn_space_default(f, &c->sp);
	for (int i = 0; i < c->nparams; i++)
		if (tn_space_set(&c->sp, c->params[i], err, n))
			return TN_EX_USAGE;
	return 0;
}

int tn_cli_db_exists(const char *path, char *err, size_t n)
{
	if (!access(path, F_OK))
		return 0;
	snprintf(err, n, "no database at %s (%s); give --db the file a sweep wrote", path,
		 strerror(errno));
	return 1;
}

int tn_cli_filter_opt(struct db_filter *f, int opt, const char *arg, char *err, size_t n)
{
	switch (opt) {
	case 'f':
		f->family = arg;
		return 1;
	case 'r':
		return tn_parse_int(arg, "--radius", 1, TN_RMAX, &f->radius, err, n) ? -1 : 1;
	case 'n':
		return tn_parse_size(arg, &f->nx, &f->ny, &f->nz, err, n) ? -1 : 1;
	case 0x300:
		f->device = arg;
		return 1;
	case 0x301:
		f->precision = arg;
		return 1;
	}
	return 0;
}
