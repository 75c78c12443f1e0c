/*
 * cmd_compact.c: fdtune compact, the database to ship or to hand to users,
 * and fdtune upgrade, a database brought to this fdtune's schema in place.
 * compact writes the database to ship or to hand to users,
 * made from a full one (db_compact in db/db_compact.c): each problem's
 * fastest records, with the sources of the fastest few kept, so that an
 * export of them embeds the measured build whatever the templates have
 * become since. A record whose source the full database does not keep gets
 * the source today's templates generate, where it hashes as its build's did;
 * one that no longer does is named: its measured build is lost until
 * `fdtune sweep --recheck` times it again (and keeps its source).
 */
#include "db.h"
#include "gen.h"
#include "tn.h"
#include "tn_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
"usage: fdtune compact --db FULL --out SMALL [--keep K] [--sources S]\n"
"Write SMALL, a new database of what users query (best, export, libfdtune,\n"
"the transfer search) from FULL, which is only read: for each device model\n"
"and problem its K fastest records (a configuration's newest ok run) of\n"
"each kind (storing, and accumulating: acc=1) with their builds (compiler\n"
"logs dropped), and every device, problem and sweep.\n"
"The sources of the S fastest records' builds are kept in SMALL: from FULL\n"
"where it keeps them, else generated from today's templates where that\n"
"source hashes as the build's did. A record of the S fastest whose source\n"
"is lost is named, the problem's fastest storing one (what export picks)\n"
"marked: its export cannot embed the measured build until `fdtune sweep\n"
"--recheck` times it again. Exit 1 when such a best is among them.\n"
"  --db PATH     the full database (default " TN_CLI_DB_DEFAULT ")\n"
"  --out PATH    the database to write; it must not exist\n"
"  --keep K      records kept a device model and problem (default 100)\n"
"  --sources S   the fastest records whose sources are kept (default 8, <= K)\n"
"  -h, --help    this text\n";

/* The records without a kept source, as db_each_unkept gives them. */
struct lack {
	struct db_unkept u;
	char *dev, *fam, *prec, *params, *hash;
};
struct lacks { struct lack *a; int n, cap, oom; };     /* oom: collect ran out of memory */

static int collect(void *ctx, const struct db_unkept *u)
{
	struct lacks *l = ctx;
	struct lack *x;
	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 64;
		struct lack *a = realloc(l->a, (size_t)cap * sizeof *a);
		if (!a)
			return l->oom = 1;
		l->a = a;
		l->cap = cap;
	}
	x = &l->a[l->n++];
	x->u = *u;
	x->dev = strdup(u->device);
	x->fam = strdup(u->family);
	x->prec = strdup(u->precision);
	x->params = strdup(u->params);
	x->hash = strdup(u->source_hash);
	return l->oom = !x->dev || !x->fam || !x->prec || !x->params || !x->hash;
}

static void lacks_free(struct lacks *l)
{
	for (int i = 0; i < l->n; i++) {
		free(l->a[i].dev);
		free(l->a[i].fam);
		free(l->a[i].prec);
		free(l->a[i].params);
		free(l->a[i].hash);
	}
	free(l->a);
}

/* Keeps in db the source today's templates generate for record x, where it
 * hashes as x's build did: *kept = 1; else *kept = 0 and why says why not.
 * 1 on a database error (err). */
static int regenerate(struct db *db, const struct lack *x, int *kept, char *why, size_t wn,
		      char *err, size_t n)
{
	const struct tn_family *f;
	int v[TN_MAXP];
	char sh[17], *src = NULL;
	int rc = 0;

	*kept = 0;
	if (tn_family_find(x->fam, &f, why, wn))
		return FDT_OK;
	struct tn_problem pb = { f, x->u.radius, x->u.nx, x->u.ny, x->u.nz, x->prec, { 1, 1, 1 } };
	if (tn_config_parse(db, f, x->params, v, NULL, why, wn) ||
	    tn_source(&pb, v, &src, why, wn))
		goto done;
	gen_hash(src, sh);
	if (strcmp(sh, x->hash)) {
		snprintf(why, wn, "today's templates generate source %s, its build compiled %s", sh,
			 x->hash);
		goto done;
	}
	if (db_source_put(db, sh, src, err, n))
		rc = 1;
	else
		*kept = 1;
done:
	free(src);
	return rc;
}

int tn_cmd_compact(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "db", required_argument, 0, TN_O_DB }, { "out", required_argument, 0, TN_O_OUT },
		{ "keep", required_argument, 0, TN_O_KEEP }, { "sources", required_argument, 0, TN_O_SOURCES },
		{ "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 }
	};
	const char *from = TN_CLI_DB_DEFAULT, *to = NULL;
	struct lacks l = { 0 };
	struct db *db = NULL;
	char err[2048];
	int opt, keep = 100, srcs = 8, rc = FDT_FAIL, again = 0, lost = 0, lostbest = 0;
	long long runs = 0, nsrc = 0;

	struct tn_cli_seen seen = { 0 };
	while ((opt = tn_cli_getopt(argc, argv, "h", lo, &seen)) != -1) {
		switch (opt) {
		case TN_O_DB: from = optarg; break;
		case TN_O_OUT: to = optarg; break;
		case TN_O_KEEP:
			if (tn_parse_int(optarg, "--keep", 1, 1000000, &keep, err, sizeof err))
				goto usage;
			break;
		case TN_O_SOURCES:
			if (tn_parse_int(optarg, "--sources", 0, 1000000, &srcs, err, sizeof err))
				goto usage;
			break;
		case 'h': fputs(usage, stdout); return FDT_OK;
		default: fputs(usage, stderr); return FDT_USAGE;
		}
	}
	if (optind < argc) {
		snprintf(err, sizeof err, "unexpected argument '%s'", argv[optind]);
		goto usage;
	}
	if (!to || !*to || !*from) {
		snprintf(err, sizeof err, "%s", !*from ? "--db needs a path" :
			 "--out names the database to write");
		goto usage;
	}
	if (srcs > keep) {
		snprintf(err, sizeof err, "--sources %d is more than the %d records --keep keeps", srcs,
			 keep);
		goto usage;
	}
	if (db_compact(from, to, keep, &runs, err, sizeof err)) {
		fprintf(stderr, "fdtune compact: %s\n", err);
		return FDT_FAIL;
	}
	if (db_open(to, &db, err, sizeof err))
		goto fail;
	if (srcs && db_each_unkept(db, srcs, collect, &l, err, sizeof err)) {
		if (l.oom)
			snprintf(err, sizeof err, "out of memory");
		goto fail;
	}
	for (int i = 0; i < l.n; i++) {
		const struct lack *x = &l.a[i];
		char why[1024] = "";
		int kept;
		if (regenerate(db, x, &kept, why, sizeof why, err, sizeof err))
			goto fail;
		again += kept;
		if (kept)
			continue;
		lost++;
		/* the fastest storing record: what export picks */
		lostbest += x->u.rank == 1 && !x->u.acc;
		printf("%s %s R=%d %dx%dx%d %s, %s rank %d, run %lld: source lost (%s)%s\n",
		       x->dev, x->fam, x->u.radius, x->u.nx, x->u.ny, x->u.nz, x->prec,
		       x->u.acc ? "accumulating" : "storing", x->u.rank, x->u.run, why,
		       x->u.rank == 1 && !x->u.acc ? "; THE BEST: its export cannot embed the "
		       "measured build" : "");
	}
	if (db_source_count(db, &nsrc, err, sizeof err))
		goto fail;
	printf("fdtune compact: %s: %lld runs (the %d fastest records of each device model and "
	       "problem), %lld sources kept (those of %d records made again from today's templates); of the %d "
	       "fastest records of each, %d without a source (%d bests)\n", to, runs, keep, nsrc,
	       again, srcs, lost, lostbest);
	if (lostbest)
		fprintf(stderr, "fdtune compact: %d bests cannot embed their measured builds; `fdtune "
			"sweep --recheck 3 --db %s` with their problems times them again\n", lostbest,
			from);
	rc = lostbest ? FDT_FAIL : FDT_OK;
	goto done;
usage:
	fprintf(stderr, "fdtune compact: %s\n%s", err, usage);
	return FDT_USAGE;
fail:
	fprintf(stderr, "fdtune compact: %s\n", err);
	db_close(db);
	db = NULL;
	remove(to);
	fprintf(stderr, "fdtune compact: %s removed\n", to);
done:
	lacks_free(&l);
	db_close(db);
	return rc;
}

static const char upusage[] =
"usage: fdtune upgrade --db PATH\n"
"Migrate the database at PATH, in place, to the schema this fdtune writes\n"
"(a sweep or a merge into it does the same; best, export and libfdtune read\n"
"an older schema without writing it). Nothing else changes.\n"
"  --db PATH     the database (default " TN_CLI_DB_DEFAULT ")\n"
"  -h, --help    this text\n";

int tn_cmd_upgrade(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "db", required_argument, 0, TN_O_DB }, { "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 }
	};
	const char *path = TN_CLI_DB_DEFAULT;
	struct db *db = NULL;
	char err[2048];
	int opt;

	struct tn_cli_seen seen = { 0 };
	while ((opt = tn_cli_getopt(argc, argv, "h", lo, &seen)) != -1) {
		switch (opt) {
		case TN_O_DB: path = optarg; break;
		case 'h': fputs(upusage, stdout); return FDT_OK;
		default: fputs(upusage, stderr); return FDT_USAGE;
		}
	}
	if (optind < argc || !*path) {
		fprintf(stderr, "fdtune upgrade: %s\n%s", *path ? "unexpected argument" :
			"--db needs a path", upusage);
		return FDT_USAGE;
	}
	/* checked as a reader first, so that a missing file is not made */
	if (tn_cli_db_read(path, 0, &db, err, sizeof err)) {
		fprintf(stderr, "fdtune upgrade: %s\n", err);
		return FDT_FAIL;
	}
	db_close(db);
	db = NULL;
	if (db_open(path, &db, err, sizeof err)) {
		fprintf(stderr, "fdtune upgrade: %s\n", err);
		return FDT_FAIL;
	}
	printf("fdtune upgrade: %s: at schema %d\n", path, db_version(db));
	db_close(db);
	return FDT_OK;
}
