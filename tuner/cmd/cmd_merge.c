/*
 * cmd_merge.c: fdtune merge, the databases of several sweeps (shards of a
 * job array, nodes of a cluster) combined into one, with nothing lost and
 * nothing twice (db_merge in db/db_merge.c). Every source is opened to be
 * checked (db_merge_check: read as db_read reads it, not the target itself,
 * the --device filter matching) before the target is opened, created or
 * migrated, so that a source that cannot be merged stops the merge before
 * anything is written.
 */
#include "db.h"
#include "tn_cli.h"

#include <stdio.h>
#include <unistd.h>

static const char usage[] =
"usage: fdtune merge --db TARGET [--device TEXT] SOURCE.db [SOURCE.db ...]\n"
"Copy every device, problem, configuration, sweep, build and run of each\n"
"source database into TARGET (created if missing). Rows already in TARGET\n"
"are not copied again, so merging twice is harmless. Every source is checked\n"
"before anything is merged: one that is missing, not an fdtune database or\n"
"of a newer fdtune stops the merge with TARGET as it was (not created). A\n"
"source that fails while it is merged leaves TARGET as the sources before it\n"
"made it, and the rest are not merged (a TARGET this merge created is\n"
"removed). Sources are only read: read-only files in read-only directories\n"
"are merged and nothing is left beside them. A sweep of TARGET left running\n"
"on this host by a process that is gone is marked interrupted.\n"
"  --db PATH     the target (default " TN_CLI_DB_DEFAULT ")\n"
"  --device TEXT only the devices whose name contains TEXT, case aside (or\n"
"                whose uuid it is): their sweeps, builds and runs, and the problems and\n"
"                configurations these name; to share one GPU's results, or to\n"
"                take them out of a database that holds several\n"
"  -h, --help    this text\n";

int tn_cmd_merge(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "db", required_argument, 0, TN_O_DB }, { "device", required_argument, 0, TN_O_DEVICE },
		{ "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 }
	};
	const char *path = TN_CLI_DB_DEFAULT, *device = NULL;
	struct db *db = NULL;
	char err[2048];
	int opt, rc = FDT_OK, created;

	struct tn_cli_seen seen = { 0 };
	while ((opt = tn_cli_getopt(argc, argv, "h", lo, &seen)) != -1) {
		switch (opt) {
		case TN_O_DB: path = optarg; break;
		case TN_O_DEVICE:
			if (!*optarg) {
				fprintf(stderr, "fdtune merge: --device: empty; give part of a device's "
					"name, or its uuid\n%s", usage);
				return FDT_USAGE;
			}
			device = optarg;
			break;
		case 'h': fputs(usage, stdout); return FDT_OK;
		default: fputs(usage, stderr); return FDT_USAGE;
		}
	}
	if (optind == argc) {
		fprintf(stderr, "fdtune merge: no source database given\n%s", usage);
		return FDT_USAGE;
	}
	if (db_path_check(path, 1, err, sizeof err)) {
		fprintf(stderr, "fdtune merge: %s; nothing was merged\n", err);
		return FDT_FAIL;
	}
	/* each bad source is named, before the target is opened: a refused
	 * merge leaves it as it was, its schema too */
	for (int i = optind; i < argc; i++)
		if (db_merge_check(path, argv[i], device, err, sizeof err)) {
			fprintf(stderr, "fdtune merge: %s\n", err);
			rc = FDT_FAIL;
		}
	if (rc) {
		fprintf(stderr, "fdtune merge: nothing was merged into %s\n", path);
		return rc;
	}
	created = access(path, F_OK) != 0;
	if (db_open(path, &db, err, sizeof err)) {
		fprintf(stderr, "fdtune merge: %s; nothing was merged\n", err);
		return FDT_FAIL;
	}
	for (int i = optind; i < argc; i++) {
		long long runs, builds;
		if (db_merge(db, argv[i], device, &runs, &builds, err, sizeof err)) {
			fprintf(stderr, "fdtune merge: %s\n", err);
			if (i + 1 < argc)
				fprintf(stderr, "fdtune merge: %d sources after %s not merged\n",
					argc - i - 1, argv[i]);
			rc = FDT_FAIL;
			break;
		}
		printf("%s: %lld runs and %lld builds added to %s\n", argv[i], runs, builds, path);
	}
	if (rc && created) {
		db_close(db);
		unlink(path);
		fprintf(stderr, "fdtune merge: %s, which this merge created, removed\n", path);
		return rc;
	}
	/* after the merges, so that the sweeps merged in are checked too */
	if (db_reap_sweeps(db, stderr, NULL, err, sizeof err)) {
		fprintf(stderr, "fdtune merge: %s\n", err);
		rc = FDT_FAIL;
	}
	db_close(db);
	return rc;
}
