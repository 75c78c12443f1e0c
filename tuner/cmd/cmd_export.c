/*
 * cmd_export.c: fdtune export, a tuned kernel for another code: the options
 * parsed and checked, the database opened, and tn_export (tuner/export/)
 * writes DIR/NAME.cu, NAME.h and, with --fortran, NAME.f90.
 */
#include "db.h"
#include "tn_cli.h"
#include "tn_export.h"

#include <stdio.h>

static const char usage[] =
"usage: fdtune export [options]\n"
"Write a standalone kernel for the best recorded configuration (or --run ID):\n"
"DIR/NAME.cu (kernel and launch function, for nvcc or hipcc) and DIR/NAME.h.\n"
"  --db PATH           database (default " TN_CLI_DB_DEFAULT ")\n"
"  -o, --out DIR       directory for the files (default .)\n"
"      --name NAME     base name of files and symbols (default fdt_FAMILY_rR):\n"
"                      a C identifier, not a C or C++ keyword or reserved name,\n"
"                      nor one that NAME_launch ... would make an export's own\n"
"                      name of (fd, fd_..., fdt_rule...: fd_coef, fdt_rule_pick)\n"
"      --run ID        this run instead of the best one\n"
"      --all-devices   one kernel per device with runs for the problem (-r\n"
"                      needed), chosen at run time by the device's name, and\n"
"                      the family's default for any other device\n"
"      --source-only   embed no measured build: NAME_launch always runs the kernel\n"
"                      that nvcc or hipcc compiles from NAME.cu (by default the\n"
"                      code fdtune timed is embedded and runs on its architecture)\n"
"      --fortran       also DIR/NAME.f90: module NAME_fdtune, bind(C) types and\n"
"                      interfaces for Fortran (NAME: a letter first, <= 56 chars)\n"
"      --all-sizes     the best kernel of every recorded size of the problem (-r\n"
"                      needed; precision fp32 unless --precision), chosen at run\n"
"                      time by the grid: the size itself, else the nearest that\n"
"                      fits (docs/export.md); with --all-devices, per device\n"
"      --which XxYxZ   with --all-sizes: print the configuration that grid gets\n"
"                      and write nothing\n"
"  -f, --family F, -r, --radius R, -n, --size N|XxYxZ, --device TEXT,\n"
"      --precision P   which problem and device (as for fdtune best; the\n"
"                      family is xyz unless --family or --run names another)\n"
TN_CLI_OBJECTIVE_HELP
"  -h, --help          this text\n"
"Exit status: 0 written, 3 nothing matched, 1 failure, 2 usage.\n";

int tn_cmd_export(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "db", required_argument, 0, TN_O_DB }, { "out", required_argument, 0, 'o' },
		{ "name", required_argument, 0, TN_O_NAME }, { "run", required_argument, 0, TN_O_RUN },
		{ "all-devices", no_argument, 0, TN_O_ALL_DEVICES },
		{ "fortran", no_argument, 0, TN_O_FORTRAN }, { "source-only", no_argument, 0, TN_O_SOURCE_ONLY },
		{ "all-sizes", no_argument, 0, TN_O_ALL_SIZES },
		{ "which", required_argument, 0, TN_O_WHICH },
		TN_CLI_FILTER_OPTIONS, TN_CLI_OBJECTIVE_OPTION, { "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 }
	};
	struct tn_export x = { .db_path = TN_CLI_DB_DEFAULT, .dir = "." };
	struct db *db = NULL;
	char err[2048];
	int opt, rc;

	struct tn_cli_seen seen = { 0 };
	int used;
	while ((opt = tn_cli_getopt(argc, argv, "o:h" TN_CLI_FILTER_SHORT, lo, &seen)) != -1) {
		if (tn_cli_filter_opt(&x.flt, opt, optarg, &used, err, sizeof err))
			goto usage;
		if (used)
			continue;
		switch (opt) {
		case TN_O_DB: x.db_path = optarg; break;
		case 'o': x.dir = optarg; break;
		case TN_O_NAME: x.name = optarg; break;
		case TN_O_RUN:
			if (tn_parse_int(optarg, "--run", 1, 0x7fffffff, &x.run, err, sizeof err))
				goto usage;
			break;
		case TN_O_ALL_DEVICES: x.all = 1; break;
		case TN_O_FORTRAN: x.fortran = 1; break;
		case TN_O_SOURCE_ONLY: x.source_only = 1; break;
		case TN_O_ALL_SIZES: x.sizes = 1; break;
		case TN_O_WHICH:
			if (tn_parse_size(optarg, &x.which[0], &x.which[1], &x.which[2], err, sizeof err))
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
	if (x.sizes && (x.run || !x.flt.radius || x.flt.nx)) {
		snprintf(err, sizeof err, "--all-sizes needs --radius and takes neither --run nor "
			 "--size: it exports the best run of every recorded size of one problem");
		goto usage;
	}
	if (x.which[0] && !x.sizes) {
		snprintf(err, sizeof err, "--which needs --all-sizes");
		goto usage;
	}
	if (x.all && (x.run || !x.flt.radius || x.flt.device)) {
		snprintf(err, sizeof err, "--all-devices needs --radius and takes neither --run nor "
			 "--device: it exports the best run of each device for one problem");
		goto usage;
	}
	if (x.name && tn_exp_name(x.name, x.fortran, err, sizeof err))
		goto usage;
	if (!x.flt.family && !x.run)
		x.flt.family = "xyz";   /* as for fdtune sweep */
	rc = FDT_FAIL;
	if (!tn_cli_db_read(x.db_path, 1, &db, err, sizeof err))   /* read only, checked whole */
		rc = tn_export(db, &x, err, sizeof err);
	if (rc)
		tn_cli_db_said(db, x.db_path, err, sizeof err);
	db_close(db);
	if (rc)
		fprintf(stderr, "fdtune export: %s\n", err);
	return rc;
usage:
	fprintf(stderr, "fdtune export: %s\n", err);
	return FDT_USAGE;
}
