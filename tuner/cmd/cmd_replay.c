/*
 * cmd_replay.c: fdtune replay, search strategies measured without a GPU.
 * The recorded runs of one device and problem (an exhaustive sweep) are the
 * oracle: each strategy asks for configurations, is told their recorded
 * times, and is scored by how close its best comes to the exhaustive best
 * for the evaluations it spent, over many seeds.
 */
#include "db.h"
#include "tn_cli.h"
#include "tn_search.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
"usage: fdtune replay [options]\n"
"Replay search strategies against the recorded runs of one device and problem\n"
"(the fastest run matching the filters picks them) and report, for each, how\n"
"close its best comes to the best of all recorded runs.\n"
"  --db PATH           database (default " TN_CLI_DB_DEFAULT ")\n"
"  -f, --family F, -r, --radius R, -n, --size N|XxYxZ, --device TEXT,\n"
"      --precision P   which device and problem (as for fdtune best)\n"
"  -s, --strategy S    exhaustive, random or guided (default: all three)\n"
"  -b, --budget PCT    evaluations allowed, percent of the space (default 10)\n"
"      --seeds N       runs of each randomized strategy (default 25)\n"
"  -h, --help          this text\n"
"Exit status: 0 done, 3 nothing matched, 1 failure, 2 usage.\n";

struct space {
	const struct tn_family *fam;
	struct db *db;
	int *cfg;
	double *ms;             /* recorded time, -1 for a failure */
	long long n, cap;
	char err[512];
};

/* Adds one recorded run; a configuration recorded twice keeps its best. */
static int add(void *p, const char *params, const char *status, double ms)
{
	struct space *s = p;
	int v[TN_MAXP];
	for (int k = 0; k < s->fam->np; k++) {
		int found;
		if (db_json_int(s->db, params, s->fam->p[k].name, &v[k], &found, s->err, sizeof s->err))
			return -1;
		if (!found)
			v[k] = s->fam->p[k].v[0];
	}
	if (strcmp(status, "ok"))
		ms = -1;
	for (long long i = 0; i < s->n; i++)
		if (!memcmp(s->cfg + i * s->fam->np, v, (size_t)s->fam->np * sizeof *v)) {
			if (ms >= 0 && (s->ms[i] < 0 || ms < s->ms[i]))
				s->ms[i] = ms;
			return 0;
		}
	if (s->n == s->cap) {
		long long cap = s->cap ? 2 * s->cap : 1024;
		int *c = realloc(s->cfg, (size_t)cap * (size_t)s->fam->np * sizeof *c);
		double *m;
		if (!c) {
			snprintf(s->err, sizeof s->err, "out of memory for %lld configurations", cap);
			return -1;
		}
		s->cfg = c;
		if (!(m = realloc(s->ms, (size_t)cap * sizeof *m))) {
			snprintf(s->err, sizeof s->err, "out of memory for %lld configurations", cap);
			return -1;
		}
		s->ms = m;
		s->cap = cap;
	}
	memcpy(s->cfg + s->n * s->fam->np, v, (size_t)s->fam->np * sizeof *v);
	s->ms[s->n++] = ms;
	return 0;
}

/* One run of a strategy: the best time found and the evaluations spent. */
static int play(const struct space *sp, enum tn_strategy st, long long budget,
		unsigned long long seed, double *best, long long *used, char *err, size_t n)
{
	struct tn_search *s;
	long long idx[64];
	int m;
	if (tn_search_new(st, sp->cfg, sp->fam->np, sp->n, budget, seed, &s, err, n))
		return 1;
	*best = INFINITY;
	*used = 0;
	while ((m = tn_search_next(s, idx, 64)) > 0)
		for (int i = 0; i < m; i++) {
			double t = sp->ms[idx[i]];
			tn_search_report(s, idx[i], t);
			if (t >= 0 && t < *best)
				*best = t;
			++*used;
		}
	tn_search_free(s);
	return 0;
}

int tn_cmd_replay(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "db", required_argument, 0, 0x200 }, { "strategy", required_argument, 0, 's' },
		{ "budget", required_argument, 0, 'b' }, { "seeds", required_argument, 0, 0x201 },
		TN_CLI_FILTER_OPTIONS, { "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 }
	};
	const char *path = TN_CLI_DB_DEFAULT;
	struct db_filter flt = { 0 };
	struct db_pick p;
	struct space sp = { 0 };
	char err[1024];
	int opt, all = 1, pct = 10, seeds = 25, rc = TN_EX_FAIL;
	enum tn_strategy only = TN_EXHAUSTIVE;
	double exh = INFINITY;

	while ((opt = getopt_long(argc, argv, "s:b:h" TN_CLI_FILTER_SHORT, lo, NULL)) != -1) {
		switch (tn_cli_filter_opt(&flt, opt, optarg, err, sizeof err)) {
		case 1:
			continue;
		case -1:
			goto usage;
		}
		switch (opt) {
		case 0x200: path = optarg; break;
		case 's':
			if (tn_strategy_parse(optarg, &only)) {
				snprintf(err, sizeof err, "--strategy '%s': exhaustive, random or guided",
					 optarg);
				goto usage;
			}
			all = 0;
			break;
		case 'b':
			if (tn_parse_int(optarg, "--budget", 1, 100, &pct, err, sizeof err))
				goto usage;
			break;
		case 0x201:
			if (tn_parse_int(optarg, "--seeds", 1, 10000, &seeds, err, sizeof err))
				goto usage;
			break;
		case 'h': fputs(usage, stdout); return TN_EX_OK;
		default: fputs(usage, stderr); return TN_EX_USAGE;
		}
	}
	if (optind < argc) {
		snprintf(err, sizeof err, "unexpected argument '%s'", argv[optind]);
		goto usage;
	}
	if (tn_cli_db_exists(path, err, sizeof err) || db_open(path, &sp.db, err, sizeof err))
		goto fail;
	if ((rc = db_pick(sp.db, &flt, 0, &p, err, sizeof err))) {
		rc = rc == DB_NOMATCH ? TN_EX_NOMATCH : TN_EX_FAIL;
		fprintf(stderr, "fdtune replay: %s in %s\n", err, path);
		goto done;
	}
	rc = TN_EX_FAIL;
	if (!(sp.fam = tn_family(p.family))) {
		snprintf(err, sizeof err, "family '%s' is unknown to this fdtune", p.family);
		goto fail;
	}
	if (db_each_run(sp.db, p.run, add, &sp, err, sizeof err)) {
		if (*sp.err)
			snprintf(err, sizeof err, "%s", sp.err);
		goto fail;
	}
	for (long long i = 0; i < sp.n; i++)
		if (sp.ms[i] >= 0 && sp.ms[i] < exh)
			exh = sp.ms[i];
	printf("%s, %s R=%d %dx%dx%d %s: %lld configurations recorded, best %.4f ms\n",
	       p.device, p.family, p.radius, p.nx, p.ny, p.nz, p.precision, sp.n, exh);
	printf("%-10s  %6s  %11s  %20s  %17s  %14s\n", "strategy", "seeds", "evaluations",
	       "best, % of exhaustive", "worst seed, %", "within 2%");
	for (int s = 0; s < 3; s++) {
		enum tn_strategy st = (enum tn_strategy)s;
		int runs = st == TN_EXHAUSTIVE ? 1 : seeds, close = 0;
		long long budget = st == TN_EXHAUSTIVE ? 0 : (sp.n * pct + 99) / 100, used = 0;
		double sum = 0, worst = 100;
		if (!all && st != only)
			continue;
		for (int k = 0; k < runs; k++) {
			double best, q;
			long long u;
			if (play(&sp, st, budget, 0x5eed + 7919ULL * (unsigned long long)k, &best, &u,
				 err, sizeof err))
				goto fail;
			q = isinf(best) ? 0 : 100.0 * exh / best;   /* bandwidth ratio */
			sum += q;
			worst = q < worst ? q : worst;
			close += q >= 98.0;
			used += u;
		}
		printf("%-10s  %6d  %5lld (%3.0f%%)  %20.2f  %17.2f  %8d of %3d\n", tn_strategy_name(st),
		       runs, used / runs, 100.0 * (double)used / runs / (double)sp.n, sum / runs,
		       worst, close, runs);
	}
	rc = TN_EX_OK;
	goto done;
usage:
	fprintf(stderr, "fdtune replay: %s\n", err);
	return TN_EX_USAGE;
fail:
	fprintf(stderr, "fdtune replay: %s\n", err);
done:
	free(sp.cfg);
	free(sp.ms);
	db_close(sp.db);
	return rc;
}
