/*
 * tn_space.c: search spaces. A space holds one domain per parameter of a
 * family; configuration i of the space is the mixed-radix digit string of i,
 * the last parameter varying fastest. Configurations are written as
 * canonical JSON ({"vec":4,"bx":64,...} in the family's parameter order),
 * which is how the database keys them.
 */
#include "db.h"
#include "tn.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tn_param_index(const struct tn_family *f, const char *name)
{
	for (int i = 0; i < f->np; i++)
		if (!strcmp(f->p[i].name, name))
			return i;
	return -1;
}

int tn_param_role(const struct tn_family *f, enum tn_role r)
{
	for (int i = 0; i < f->np; i++)
		if (f->p[i].role == r)
			return i;
	return -1;
}

void tn_space_default(const struct tn_family *f, struct tn_space *s)
{
	memset(s, 0, sizeof *s);
	s->fam = f;
	for (int i = 0; i < f->np; i++) {
		s->n[i] = f->p[i].n;
		memcpy(s->v[i], f->p[i].v, sizeof s->v[i]);
	}
}

int tn_space_set(struct tn_space *s, const char *spec, char *err, size_t n)
{
	const struct tn_family *f = s->fam;
	const char *eq = strchr(spec, '='), *p;
	char name[32];
	int idx, cnt = 0, dup, v[TN_MAXV];

	if (!eq || eq == spec || (size_t)(eq - spec) >= sizeof name) {
		snprintf(err, n, "--param '%s': expected NAME=V1,V2,...", spec);
		return FDT_FAIL;
	}
	memcpy(name, spec, (size_t)(eq - spec));
	name[eq - spec] = 0;
	if ((idx = tn_param_index(f, name)) < 0) {
		int o = snprintf(err, n, "--param %s: family %s has no such parameter; it has:",
				 name, f->name);
		for (int i = 0; i < f->np && o > 0 && (size_t)o < n; i++)
			o += snprintf(err + o, n - (size_t)o, " %s", f->p[i].name);
		return FDT_FAIL;
	}
	for (p = eq + 1;;) {
		char *end;
		long x;
		errno = 0;
		x = strtol(p, &end, 10);
		if (end == p || errno || x < 0 || x > 1 << 20 || (*end && *end != ',')) {
			snprintf(err, n, "--param %s: '%s' is not a list of non-negative integers",
				 name, eq + 1);
			return FDT_FAIL;
		}
		if (x < f->p[idx].lo || x > f->p[idx].hi) {
			snprintf(err, n, "--param %s=%ld: outside %d..%d", name, x, f->p[idx].lo,
				 f->p[idx].hi);
			return FDT_FAIL;
		}
		/* a value given again is one configuration, not two: kept once, in
		 * the order first given */
		for (dup = 0; dup < cnt && v[dup] != x; dup++)
			;
		if (dup == cnt && cnt == TN_MAXV) {
			snprintf(err, n, "--param %s: more than %d values", name, TN_MAXV);
			return FDT_FAIL;
		}
		if (dup == cnt)
			v[cnt++] = (int)x;
		if (!*end)
			break;
		p = end + 1;
	}
	s->n[idx] = cnt;
	memcpy(s->v[idx], v, sizeof v);
	s->set |= 1u << idx;
	return FDT_OK;
}

int tn_space_out(const struct tn_space *s, const struct tn_problem *pb, const int *v, char *why,
		 size_t n)
{
	return s->fam->dflt_out && s->fam->dflt_out(pb, v, s->set, why, n);
}

long long tn_space_size(const struct tn_space *s)
{
	long long t = 1;
	for (int i = 0; i < s->fam->np; i++)
		t *= s->n[i];
	return t;
}

void tn_space_at(const struct tn_space *s, long long i, int *v)
{
	for (int k = s->fam->np - 1; k >= 0; k--) {
		v[k] = s->v[k][i % s->n[k]];
		i /= s->n[k];
	}
}

void tn_config_json(const struct tn_family *f, const int *v, char *buf, size_t n)
{
	size_t o = (size_t)snprintf(buf, n, "{");
	for (int i = 0, k = 0; i < f->np && o < n; i++)
		if (tn_param_shown(f, v, i))
			o += (size_t)snprintf(buf + o, n - o, "%s\"%s\":%d", k++ ? "," : "",
					      f->p[i].name, v[i]);
	if (o < n)
		snprintf(buf + o, n - o, "}");
}

int tn_config_parse(struct db *db, const struct tn_family *f, const char *json, int *v,
		    unsigned *given, char *err, size_t n)
{
	if (given)
		*given = 0;
	for (int k = 0; k < f->np; k++) {
		int found;
		if (db_json_int(db, json, f->p[k].name, &v[k], &found, err, n))
			return FDT_FAIL;
		if (!found)
			v[k] = f->p[k].v[0];
		else if (given)
			*given |= 1u << k;
	}
	return FDT_OK;
}

void tn_config_text(const struct tn_family *f, const int *v, char *buf, size_t n)
{
	size_t o = 0;
	buf[0] = 0;
	for (int i = 0, k = 0; i < f->np && o < n; i++)
		if (tn_param_shown(f, v, i))
			o += (size_t)snprintf(buf + o, n - o, "%s%s=%d", k++ ? " " : "",
					      f->p[i].name, v[i]);
}

int tn_config_named(const struct tn_family *f, const char *text, int *v, char *err, size_t n)
{
	char set[TN_MAXP] = { 0 };
	const char *s = text;
	for (int i = 0; i < f->np; i++)
		v[i] = f->p[i].v[0];
	while (s && *s) {
		char name[64], *end;
		size_t k = strcspn(s, "= ");
		long val;
		int i;
		if (*s == ' ') {
			s++;
			continue;
		}
		if (s[k] != '=' || k == 0 || k >= sizeof name) {
			snprintf(err, n, "'%.40s' in '%.200s': not name=value", s, text);
			return FDT_FAIL;
		}
		memcpy(name, s, k);
		name[k] = 0;
		if ((i = tn_param_index(f, name)) < 0) {
			snprintf(err, n, "%s has no parameter '%s'", f->name, name);
			return FDT_FAIL;
		}
		errno = 0;
		val = strtol(s + k + 1, &end, 10);
		if (end == s + k + 1 || (*end && *end != ' ') || errno || val < INT_MIN ||
		    val > INT_MAX) {
			snprintf(err, n, "%s=%.40s: not an integer", name, s + k + 1);
			return FDT_FAIL;
		}
		if (set[i]++) {
			snprintf(err, n, "%s given twice in '%.200s'", name, text);
			return FDT_FAIL;
		}
		v[i] = (int)val;
		s = end;
	}
	return FDT_OK;
}

int tn_default_fit(const struct tn_problem *pb, int *v, int *moved, char *why, size_t n)
{
	const struct tn_family *f = pb->fam;
	struct tn_limits lim;
	tn_limits_of_arch("sm_90", &lim);
	lim.lds_optin = lim.lds_block;  /* no opt-in: 48 KiB, what any device gives */
	*moved = -1;
	if (!f->check(pb, v, &lim, why, n))
		return 0;
	for (int i = f->np - 1; i >= 0; i--)
		for (int j = 0; j < f->p[i].n; j++) {
			const int keep = v[i];
			v[i] = f->p[i].v[j];
			if (!f->check(pb, v, &lim, why, n))
				return *moved = i, 0;
			v[i] = keep;
		}
	return 1;
}
