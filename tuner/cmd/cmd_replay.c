/*
 * cmd_replay.c: fdtune replay, search strategies measured without a GPU.
 * The recorded runs of one device and problem (an exhaustive sweep) are the
 * oracle: each strategy asks for configurations, is told their recorded
 * times, and is scored by how close its best comes to the exhaustive best
 * for the evaluations it spent, over many seeds. The transfer strategy is
 * replayed leave-one-size-out: its seeds come from the runs of the other
 * sizes only (tn_transfer.h with skip_size), never from the replayed
 * problem's own, whose recorded times only answer what it proposes.
 * Configurations the family's default space leaves out (tn_family.dflt_out)
 * are not in the replayed space, as they are not in a default sweep's
 * (--all-recorded: they are, as before the rule; figures of that time).
 * --each-size replays every recorded size of the problem in turn.
 * --other-devices replays a GPU new to the database: the seeds come from
 * the other devices' runs only (every size, the problem itself included),
 * the replayed device's own runs all held out.
 */
#include "db.h"
#include "tn_cli.h"
#include "tn_search.h"
#include "tn_transfer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
"usage: fdtune replay [options]\n"
"Replay search strategies against the recorded runs of one device and problem\n"
"(the fastest run matching the filters picks them) and report, for each, how\n"
"close its best comes to the best of all recorded runs. Runs the family's\n"
"default space leaves out (fdtune gen --list) are not replayed (--all-recorded).\n"
"  --db PATH           database (default " TN_CLI_DB_DEFAULT ")\n"
"  -f, --family F, -r, --radius R, -n, --size N|XxYxZ, --device TEXT,\n"
"      --precision P   which device and problem (as for fdtune best)\n"
"  -s, --strategy S    exhaustive, random, guided or transfer (default: all)\n"
"  -b, --budget PCT    evaluations allowed, percent of the space (default 10,\n"
"                      2 for transfer)\n"
"      --seeds N       runs of each randomized strategy (default 25)\n"
"      --in-flight N   outcomes outstanding, as in a live sweep: each proposal\n"
"                      is made with the N before it not yet timed (0: every\n"
"                      outcome known; a sweep on 2 GPUs has about 10 from a warm\n"
"                      cache, up to 140 while 64 threads compile). Without it,\n"
"                      batches of 64 are proposed, then all timed\n"
"      --start PCT     guided: its random start, percent of the space (default\n"
"                      3, at most the budget); a plan's first pass on a GPU is\n"
"                      -b 2 --start 1\n"
"      --seeded        guided: its start from the bests of the relatives of its\n"
"                      radius first, as a plan's first pass takes them (the\n"
"                      other sizes on this device, or with --other-devices the\n"
"                      other devices' every size), then at random\n"
"      --each-size     every size recorded for the device, family, radius and\n"
"                      precision in turn, as a markdown table; transfer never\n"
"                      sees the runs of the size it is replayed on (any radius)\n"
"      --other-devices transfer as on a GPU new to the database: its seeds come\n"
"                      from the other devices' runs only, every size, this\n"
"                      problem included; this device's own runs are all held out\n"
"      --all-recorded  replay every configuration recorded, those the default\n"
"                      space leaves out too (as replays did before it had them)\n"
"  -h, --help          this text\n"
"Exit status: 0 done, 3 nothing matched, 1 failure, 2 usage.\n";

struct space {
	const struct tn_family *fam;
	struct db *db;
	int *cfg;
	double *ms;             /* recorded time, -1 for a failure */
	long long n, cap;
	struct tn_space dflt;   /* the family's default space, whose rule leaves some out */
	struct tn_problem pb;   /* the problem replayed, which the rule may depend on */
	int all;                /* --all-recorded: the default space's rule not applied */
	char err[512];
};

/* What one replay compares, and how it prints. */
struct plan {
	int all, pct, pct_set, seeds, each, others, lag, recorded;
	int start;              /* guided's random start, percent; -1: the default */
	int seeded;             /* guided's start from the relatives of its radius */
	enum tn_strategy only;
};

/* Adds one recorded run; a configuration recorded twice keeps its best, one
 * its family's default space leaves out is not added. */
static int add(void *p, const char *params, const char *status, double ms)
{
	struct space *s = p;
	int v[TN_MAXP];
	char why[256];
	if (tn_config_parse(s->db, s->fam, params, v, NULL, s->err, sizeof s->err))
		return FDT_FAIL;
	/* what a default sweep leaves out is not in the space (tn_family) */
	if (!s->all && tn_space_out(&s->dflt, &s->pb, v, why, sizeof why))
		return 0;
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
			return FDT_FAIL;
		}
		s->cfg = c;
		if (!(m = realloc(s->ms, (size_t)cap * sizeof *m))) {
			snprintf(s->err, sizeof s->err, "out of memory for %lld configurations", cap);
			return FDT_FAIL;
		}
		s->ms = m;
		s->cap = cap;
	}
	memcpy(s->cfg + s->n * s->fam->np, v, (size_t)s->fam->np * sizeof *v);
	s->ms[s->n++] = ms;
	return 0;
}

/* One run of a strategy: the best time found and the evaluations spent;
 * start: guided's random start (-1: its default); sd: transfer's seeds, or
 * a guided start's (--seeded). */
static int play(const struct space *sp, enum tn_strategy st, long long budget, int lag,
		long long start, unsigned long long seed, const struct tn_seeds *sd, double *best,
		long long *used, long long *kept, char *err, size_t n)
{
	struct tn_search *s;
	long long idx[64], *q;
	long long head = 0, tail = 0;
	if (!(q = malloc((size_t)sp->n * sizeof *q))) {
		snprintf(err, n, "out of memory");
		return FDT_FAIL;
	}
	if (tn_search_new(st, sp->cfg, sp->fam->np, sp->n, budget, seed, &s, err, n)) {
		free(q);
		return FDT_FAIL;
	}
	*kept = sd ? tn_search_seed(s, sd->v, TN_MAXP, sd->n) : 0;
	if (st == TN_GUIDED && start >= 0)
		tn_search_set_start(s, start);
	*best = INFINITY;
	*used = 0;
	/* q[head..tail): proposed, not yet reported; with lag < 0 a batch of
	 * 64 is proposed and all of it reported, else each proposal is made
	 * with lag outstanding (fewer at the start), then the oldest reported */
	for (;;) {
		long long room = lag >= 0 ? lag + 1 - (tail - head) : head == tail ? 64 : 0;
		int m = room > 0 ? tn_search_next(s, idx, room < 64 ? (int)room : 64) : 0;
		for (int i = 0; i < m; i++)
			q[tail++] = idx[i];
		if (head == tail)
			break;
		do {
			double t = sp->ms[q[head]];
			tn_search_report(s, q[head++], t);
			if (t >= 0 && t < *best)
				*best = t;
			++*used;
		} while (lag < 0 && head < tail);
	}
	tn_search_free(s);
	free(q);
	return FDT_OK;
}

/* Replays the strategies of pl against the runs of p's device and problem. */
static int replay(struct db *db, const struct db_pick *p, const struct plan *pl, char *err,
		  size_t en)
{
	struct space sp = { 0 };
	struct tn_seeds sd = { 0 }, sr = { 0 };
	struct tn_problem pb = { 0 };
	struct db_related q = { 0 };
	double exh = INFINITY;
	char size[64];
	int rc = 1;

	sp.db = db;
	sp.all = pl->recorded;
	if (!(sp.fam = tn_family(p->family))) {
		snprintf(err, en, "family '%s' is unknown to this fdtune", p->family);
		return FDT_FAIL;
	}
	tn_space_default(sp.fam, &sp.dflt);
	pb = (struct tn_problem){ .fam = sp.fam, .r = p->radius, .nx = p->nx, .ny = p->ny,
				  .nz = p->nz, .prec = p->precision };
	sp.pb = pb;
	if (db_each_run(db, p->run, add, &sp, err, en)) {
		if (*sp.err)
			snprintf(err, en, "%s", sp.err);
		goto out;
	}
	q.run = p->run;
	if (pl->others)         /* this device held out, the others' every size */
		q.devices = DB_REL_OTHERS;
	else
		q.skip_size = 1;        /* leave the whole size out, every radius */
	if ((pl->all || pl->only == TN_TRANSFER) && tn_transfer_seeds(db, &q, &pb, &sd, err, en))
		goto out;
	if (pl->seeded && tn_transfer_seeds_radius(db, &q, &pb, &sr, err, en))
		goto out;
	if (pl->others && (pl->all || pl->only == TN_TRANSFER) && !sd.nprob)
		fprintf(stderr, "fdtune replay: no other device of this database has %s %s runs: "
			"the transfer search starts at random (merge another GPU's database in "
			"first: fdtune merge)\n", p->family, p->precision);
	for (long long i = 0; i < sp.n; i++)
		if (sp.ms[i] >= 0 && sp.ms[i] < exh)
			exh = sp.ms[i];
	snprintf(size, sizeof size, "%dx%dx%d", p->nx, p->ny, p->nz);
	if (!pl->each) {
		printf("%s, %s R=%d %s %s: %lld configurations recorded, best %.4f ms\n",
		       p->device, p->family, p->radius, size, p->precision, sp.n, exh);
		printf("%-10s  %6s  %11s  %20s  %17s  %14s\n", "strategy", "seeds", "evaluations",
		       "best, % of exhaustive", "worst seed, %", "within 2%");
	}
	for (int s = 0; s < 4; s++) {
		enum tn_strategy st = (enum tn_strategy)s;
		int runs = st == TN_EXHAUSTIVE ? 1 : pl->seeds, close2 = 0, close3 = 0;
		int pct = pl->pct_set ? pl->pct : st == TN_TRANSFER ? TN_TRANSFER_EVALS : pl->pct;
		long long budget = st == TN_EXHAUSTIVE ? 0 : (sp.n * pct + 99) / 100, used = 0, kept = 0;
		long long start = pl->start < 0 ? -1 : (sp.n * pl->start + 99) / 100;
		double sum = 0, worst = 100;
		if (!pl->all && st != pl->only)
			continue;
		for (int k = 0; k < runs; k++) {
			double best, qq;
			long long u;
			if (play(&sp, st, budget, pl->lag, start, 0x5eed + 7919ULL * (unsigned long long)k,
				 st == TN_TRANSFER ? &sd : st == TN_GUIDED && pl->seeded ? &sr : NULL,
				 &best, &u, &kept, err, en))
				goto out;
			qq = isinf(best) ? 0 : 100.0 * exh / best;      /* bandwidth ratio */
			sum += qq;
			worst = qq < worst ? qq : worst;
			close2 += qq >= 98.0;
			close3 += qq >= 97.0;
			used += u;
		}
		if (!pl->each)
			printf("%-10s  %6d  %5lld (%3.0f%%)  %20.2f  %17.2f  %8d of %3d\n",
			       tn_strategy_name(st), runs, used / runs,
			       100.0 * (double)used / runs / (double)sp.n, sum / runs, worst, close2, runs);
		else
			printf("| %s | %lld | %s | %d | %lld | %.1f%% | %.2f | %.2f | %d of %d |\n",
			       size, sp.n, tn_strategy_name(st), runs, used / runs,
			       100.0 * (double)used / runs / (double)sp.n, 100 - sum / runs, 100 - worst,
			       close3, runs);
		if (st == TN_TRANSFER && !pl->each)
			printf("%-10s  %lld seeds from %d %s, %lld of them in this space\n", "",
			       sd.n, sd.nprob, pl->others ? "problems on other devices" :
			       "other sizes or radii", kept);
	}
	rc = 0;
out:
	tn_seeds_free(&sd);
	tn_seeds_free(&sr);
	free(sp.cfg);
	free(sp.ms);
	return rc;
}

int tn_cmd_replay(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "db", required_argument, 0, TN_O_DB }, { "strategy", required_argument, 0, 's' },
		{ "budget", required_argument, 0, 'b' }, { "seeds", required_argument, 0, TN_O_SEEDS },
		{ "each-size", no_argument, 0, TN_O_EACH_SIZE }, { "other-devices", no_argument, 0, TN_O_OTHER_DEVICES },
		{ "in-flight", required_argument, 0, TN_O_IN_FLIGHT },
		{ "start", required_argument, 0, TN_O_START },
		{ "seeded", no_argument, 0, TN_O_SEEDED },
		{ "all-recorded", no_argument, 0, TN_O_ALL_RECORDED },
		TN_CLI_FILTER_OPTIONS, { "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 }
	};
	const char *path = TN_CLI_DB_DEFAULT;
	struct db_filter flt = { 0 };
	struct db_pick p;
	struct db *db = NULL;
	struct plan pl = { .all = 1, .pct = 10, .seeds = 25, .only = TN_EXHAUSTIVE, .lag = -1,
			  .start = -1 };
	char err[1024];
	int opt, rc = FDT_FAIL;

	struct tn_cli_seen seen = { 0 };
	int used;
	while ((opt = tn_cli_getopt(argc, argv, "s:b:h" TN_CLI_FILTER_SHORT, lo, &seen)) != -1) {
		if (tn_cli_filter_opt(&flt, opt, optarg, &used, err, sizeof err))
			goto usage;
		if (used)
			continue;
		switch (opt) {
		case TN_O_DB: path = optarg; break;
		case 's':
			if (tn_strategy_parse(optarg, &pl.only)) {
				snprintf(err, sizeof err, "--strategy '%s': exhaustive, random, guided "
					 "or transfer", optarg);
				goto usage;
			}
			pl.all = 0;
			break;
		case 'b':
			if (tn_parse_int(optarg, "--budget", 1, 100, &pl.pct, err, sizeof err))
				goto usage;
			pl.pct_set = 1;
			break;
		case TN_O_SEEDS:
			if (tn_parse_int(optarg, "--seeds", 1, 10000, &pl.seeds, err, sizeof err))
				goto usage;
			break;
		case TN_O_IN_FLIGHT:
			if (tn_parse_int(optarg, "--in-flight", 0, 100000, &pl.lag, err, sizeof err))
				goto usage;
			break;
		case TN_O_START:
			if (tn_parse_int(optarg, "--start", 0, 100, &pl.start, err, sizeof err))
				goto usage;
			break;
		case TN_O_SEEDED: pl.seeded = 1; break;
		case TN_O_EACH_SIZE: pl.each = 1; break;
		case TN_O_OTHER_DEVICES: pl.others = 1; break;
		case TN_O_ALL_RECORDED: pl.recorded = 1; break;
		case 'h': fputs(usage, stdout); return FDT_OK;
		default: fputs(usage, stderr); return FDT_USAGE;
		}
	}
	if (optind < argc) {
		snprintf(err, sizeof err, "unexpected argument '%s'", argv[optind]);
		goto usage;
	}
	if (tn_cli_db_read(path, 0, &db, err, sizeof err))
		goto fail;
	if ((rc = db_pick(db, &flt, 0, &p, err, sizeof err))) {
		rc = rc == FDT_NOMATCH ? FDT_NOMATCH : FDT_FAIL;
		if (rc == FDT_FAIL && db_damaged(db, err))
			goto fail;
		fprintf(stderr, "fdtune replay: %s in %s\n", err, path);
		goto done;
	}
	rc = FDT_FAIL;
	if (!pl.each) {
		if (replay(db, &p, &pl, err, sizeof err))
			goto fail;
	} else {
		int sizes[64][3], ns;
		struct db_filter f1 = { p.device, p.family, p.precision, p.radius, 0, 0, 0, DB_OBJ_TIME };
		if (db_sizes(db, &f1, sizes, 64, &ns, err, sizeof err))
			goto fail;
		printf("%s, %s R=%d %s, %s\n\n", p.device, p.family, p.radius, p.precision,
		       pl.others ? "transfer seeded from the other devices' runs" :
		       "each size held out in turn");
		fputs("| held-out size | space | strategy | seeds | evaluations | of the space | "
		       "gap to exhaustive, mean % | worst seed, % | seeds within 3% |\n"
		       "|---|---:|---|---:|---:|---:|---:|---:|---|\n", stdout);
		for (int i = ns - 1; i >= 0; i--) {     /* largest first */
			struct db_pick pi;
			f1.nx = sizes[i][0];
			f1.ny = sizes[i][1];
			f1.nz = sizes[i][2];
			if (db_pick(db, &f1, 0, &pi, err, sizeof err) || replay(db, &pi, &pl, err, sizeof err))
				goto fail;
		}
	}
	rc = FDT_OK;
	goto done;
usage:
	fprintf(stderr, "fdtune replay: %s\n", err);
	return FDT_USAGE;
fail:
	tn_cli_db_said(db, path, err, sizeof err);
	fprintf(stderr, "fdtune replay: %s\n", err);
done:
	db_close(db);
	return rc;
}
