/*
 * cmd_merge.c: fdtune merge, the databases of several sweeps (shards of a
 * job array, nodes of a cluster) combined into one, with nothing lost and
 * nothing twice (db_merge in db/db_merge.c).
 */
#include "db.h"
#include "tn_cli.h"

#include <stdio.h>

static const char usage[] =
"usage: fdtune merge --db TARGET SOURCE.db [SOURCE.db ...]\n"
"Copy every device, problem, configuration, sweep, build and run of each\n"
"source database into TARGET (created if missing). Rows already in TARGET\n"
"are not copied again, so merging twice is harmless; a source that fails\n"
"leaves TARGET as it was. Sources are only read. A sweep of TARGET left\n"
"running on this host by a process that is gone is marked interrupted.\n"
"  --db PATH     the target (default " TN_CLI_DB_DEFAULT ")\n"
"  -h, --help    this text\n";

int tn_cmd_merge(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "db", required_argument, 0, 0x200 }, { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 }
	};
	const char *path = TN_CLI_DB_DEFAULT;
	struct db *db = NULL;
	char err[2048];
	int opt, rc = TN_EX_OK;

	while ((opt = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (opt) {
		case 0x200: path = optarg; break;
		case 'h': fputs(usage, stdout); return TN_EX_OK;
		default: fputs(usage, stderr); return TN_EX_USAGE;
		}
	}
	if (optind == argc) {
		fprintf(stderr, "fdtune merge: no source database given\n%s", usage);
		return TN_EX_USAGE;
	}
	if (db_open(path, &db, err, sizeof err)) {
		fprintf(stderr, "fdtune merge: %s\n", err);
		return TN_EX_FAIL;
	}
	for (int i = optind; i < argc; i++) {
		long long runs, builds;
		if (db_merge(db, argv[i], &runs, &builds, err, sizeof err)) {
			fprintf(stderr, "fdtune merge: %s\n", err);
			rc = TN_EX_FAIL;
			continue;
		}
		printf("%s: %lld runs and %lld builds added to %s\n", argv[i], runs, builds, path);
	}
	/* after the merges, so that the sweeps merged in are checked too */
	if (db_reap_sweeps(db, stderr, NULL, err, sizeof err)) {
		fprintf(stderr, "fdtune merge: %s\n", err);
		rc = TN_EX_FAIL;
	}
	db_close(db);
	return rc;
}
