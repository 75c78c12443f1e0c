/*
 * cmd_info.c: fdtune devices (the GPUs, their recorded copy bandwidth, and
 * --calibrate to measure it) and fdtune best (the best configuration of
 * each device and problem, from the database, and the sweeps still running
 * whose results may change it).
 */
#define _POSIX_C_SOURCE 200809L
#include "db.h"
#include "rt.h"
#include "tn_bench.h"
#include "tn_cli.h"

#include <stdio.h>
#include <string.h>

static const char devices_usage[] =
"usage: fdtune devices [--calibrate] [--db PATH]\n"
"List the GPUs this build of fdtune sees (platform, compiler, arch, memory).\n"
"  --calibrate     measure each GPU's copy bandwidth, the roof that sweeps\n"
"                  report against, and store it in the database\n"
"  --db PATH       database (default " TN_CLI_DB_DEFAULT ")\n"
"  -h, --help      this text\n";

int tn_cmd_devices(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "calibrate", no_argument, 0, 'c' },
		{ "db", required_argument, 0, TN_O_DB },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 }
	};
	const char *path = TN_CLI_DB_DEFAULT;
	char err[1024], comp[64];
	int opt, cal = 0, ndev, rc = FDT_OK;
	struct db *db = NULL;

	struct tn_cli_seen seen = { 0 };
	while ((opt = tn_cli_getopt(argc, argv, "h", lo, &seen)) != -1) {
		switch (opt) {
		case 'c': cal = 1; break;
		case TN_O_DB: path = optarg; break;
		case 'h': fputs(devices_usage, stdout); return FDT_OK;
		default: fputs(devices_usage, stderr); return FDT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "fdtune devices: unexpected argument '%s'\n", argv[optind]);
		return FDT_USAGE;
	}
	rt_compiler(comp, sizeof comp);
	printf("platform %s, compiler %s\n", rt_platform(), comp);
	if (rt_init(&ndev, err, sizeof err)) {
		fprintf(stderr, "fdtune devices: %s\n", err);
		return FDT_FAIL;
	}
	if (!ndev) {
		printf("no GPU found; fdtune can still compile for %s (fdtune sweep runs "
		       "compile-only)\n", rt_default_arch());
		return cal ? FDT_FAIL : FDT_OK;
	}
	if (db_path_check(path, 1, err, sizeof err) || db_open(path, &db, err, sizeof err)) {
		fprintf(stderr, "fdtune devices: %s\n", err);
		return FDT_FAIL;
	}
	for (int i = 0; i < ndev; i++) {
		struct rt_dev d;
		long long id, bytes = 0;
		double copy = 0, mc = 0;
		if (rt_device(i, &d, err, sizeof err))
			goto fail;
		struct db_device dd = { d.vendor, d.name, d.arch, d.uuid, d.sms, d.mem, d.l2,
					d.lds_block, d.max_threads };
		if (db_device_id(db, &dd, &id, err, sizeof err))
			goto fail;
		if (cal && (tn_calibrate(&d, &copy, &mc, &bytes, err, sizeof err) ||
			    db_device_set_copy(db, id, copy, mc, bytes, err, sizeof err)))
			goto fail;
		if (db_device_copy(db, id, &copy, err, sizeof err))
			goto fail;
		printf("%d: %s  arch %s  %d SMs/CUs  %.1f GiB  L2 %.0f MiB  LDS/block %d KiB\n"
		       "   %s at %s\n", i, d.name, d.arch, d.sms, d.mem / 1073741824.0,
		       d.l2 / 1048576.0, d.lds_block / 1024, d.uuid, d.pci);
		if (copy > 0)
			printf("   copy bandwidth %.0f GB/s (reads + writes)%s\n", copy,
			       cal ? "" : ", as recorded");
		else
			printf("   copy bandwidth not measured yet: fdtune devices --calibrate\n");
		if (cal)
			printf("   memcpy device-to-device %.0f GB/s, over %lld MiB buffers\n",
			       mc, bytes >> 20);
	}
	goto done;
fail:
	fprintf(stderr, "fdtune devices: %s\n", err);
	rc = FDT_FAIL;
done:
	db_close(db);
	return rc;
}

static const char best_usage[] =
"usage: fdtune best [options]\n"
"The best configuration of each device and problem in the database.\n"
"  --db PATH           database (default " TN_CLI_DB_DEFAULT ")\n"
"  --csv               CSV instead of a table\n"
"  --json              a JSON array instead of a table\n"
"  --all               every successful run, best first, not only the best\n"
"  --strategies        for each xyz problem: fused against two passes (xy + z)\n"
"                      and three passes (x + y + z), each pass tuned, and the\n"
"                      winner; needs sweeps of xyz, xy, x, y, z (acc=0 and 1)\n"
"  -f, --family F      only this family\n"
"  -r, --radius R      only this radius\n"
"  -n, --size N|XxYxZ  only this size; when none is recorded, the nearest is named\n"
"  --device TEXT       only devices whose name or arch contains TEXT\n"
TN_CLI_OBJECTIVE_HELP
"  --precision P       only this precision\n"
"  -h, --help          this text\n"
"Exit status: 0 rows printed, 3 nothing matched, 1 database error, 2 usage.\n";

int tn_cmd_best(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "db", required_argument, 0, TN_O_DB },
		{ "csv", no_argument, 0, TN_O_CSV },
		{ "json", no_argument, 0, TN_O_JSON },
		{ "all", no_argument, 0, TN_O_ALL },
		{ "strategies", no_argument, 0, TN_O_STRATEGIES },
		TN_CLI_FILTER_OPTIONS, TN_CLI_OBJECTIVE_OPTION,
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 }
	};
	const char *path = TN_CLI_DB_DEFAULT;
	struct db_filter f = { 0 };
	enum db_fmt fmt = DB_TABLE;
	char err[1024];
	int opt, all = 0, strat = 0, rc, live = 0;
	struct db *db = NULL;

	struct tn_cli_seen seen = { 0 };
	int used;
	while ((opt = tn_cli_getopt(argc, argv, "h" TN_CLI_FILTER_SHORT, lo, &seen)) != -1) {
		if (tn_cli_filter_opt(&f, opt, optarg, &used, err, sizeof err)) {
			fprintf(stderr, "fdtune best: %s\n", err);
			return FDT_USAGE;
		}
		if (used)
			continue;
		switch (opt) {
		case TN_O_DB: path = optarg; break;
		case TN_O_CSV: case TN_O_JSON:
			if (fmt != DB_TABLE && fmt != (opt == TN_O_CSV ? DB_CSV : DB_JSON)) {
				fputs("fdtune best: --csv and --json: give one\n", stderr);
				return FDT_USAGE;
			}
			fmt = opt == TN_O_CSV ? DB_CSV : DB_JSON;
			break;
		case TN_O_ALL: all = 1; break;
		case TN_O_STRATEGIES: strat = 1; break;
		case 'h': fputs(best_usage, stdout); return FDT_OK;
		default: fputs(best_usage, stderr); return FDT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "fdtune best: unexpected argument '%s'\n", argv[optind]);
		return FDT_USAGE;
	}
	if (strat && f.objective != DB_OBJ_TIME) {
		fputs("fdtune best: --strategies compares times: leave --objective out\n", stderr);
		return FDT_USAGE;
	}
	if (strat && (all || (f.family && strcmp(f.family, "xyz")))) {
		fprintf(stderr, "fdtune best: %s\n", all ? "--strategies and --all: give one" :
			"--strategies compares the passes of xyz problems: give -f xyz or no -f");
		return FDT_USAGE;
	}
	if (tn_cli_db_read(path, 0, &db, err, sizeof err)) {
		fprintf(stderr, "fdtune best: %s\n", err);
		return FDT_FAIL;
	}
	rc = strat ? db_strategies(db, &f, fmt, stdout, err, sizeof err) :
		     db_best(db, &f, fmt, all, stdout, err, sizeof err);
	/* sweeps still running: their results may change the answer */
	if (rc != FDT_FAIL && db_live_sweeps(db, stderr, "fdtune best: ", &live, err, sizeof err))
		fprintf(stderr, "fdtune best: %s\n", err);
	else if (rc != FDT_FAIL && live)
		fprintf(stderr, "fdtune best: not final: %d sweep%s above still run%s and may change "
			"it\n", live, live > 1 ? "s" : "", live > 1 ? "" : "s");
	if (rc == FDT_FAIL)
		tn_cli_db_said(db, path, err, sizeof err);
	db_close(db);
	if (rc == FDT_NOMATCH) {
		fprintf(stderr, "fdtune best: %s in %s\n", err, path);
		return FDT_NOMATCH;
	}
	if (rc) {
		fprintf(stderr, "fdtune best: %s\n", err);
		return FDT_FAIL;
	}
	return FDT_OK;
}
