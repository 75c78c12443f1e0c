/*
 * main.c: fdtune's entry point; dispatches to the subcommands, and answers
 * --version (the version of the build, FDT_VERSION from the Makefile, the
 * one pkg-config and the CMake package of `make install` report) and help.
 */
#include "gen.h"
#include "tn_cli.h"
#include "tn_worker.h"
#include "tn_cproc.h"

#include <stdio.h>
#include <string.h>

#ifndef FDT_VERSION
#define FDT_VERSION "unknown"
#endif

static const char usage[] =
"usage: fdtune COMMAND [options]     (fdtune COMMAND --help for each)\n"
"An autotuner and kernel generator for high-order finite-difference stencils.\n\n"
"commands:\n"
"  devices   list the GPUs; --calibrate measures their copy bandwidth\n"
"  gen       print or write the generated kernel sources\n"
"  sweep     generate, compile, validate, time and store a space of kernels\n"
"  best      the best configurations recorded, as a table, CSV or JSON\n"
"  report    a markdown report with gnuplot plots of the recorded runs\n"
"  export    a tuned kernel as source and header for another code\n"
"  replay    search strategies replayed against recorded runs, no GPU\n"
"  merge     combine the databases of several sweeps into one\n"
"  compact   the database users query, from a full one: the fastest records\n"
"  upgrade   migrate a database to this fdtune's schema, in place\n"
"  cache     the compile cache: its size and limit; --clean empties it\n"
"  codes     keep code objects in a database, for online tuning's first run\n"
"  help      this text; help COMMAND: that command's --help\n\n"
"  --version the version of fdtune and the templates it reads\n";

int main(int argc, char **argv)
{
	static const struct { const char *name; int (*fn)(int, char **); } cmds[] = {
		{ "devices", tn_cmd_devices }, { "gen", tn_cmd_gen },
		{ "sweep", tn_cmd_sweep }, { "best", tn_cmd_best },
		{ "report", tn_cmd_report }, { "export", tn_cmd_export },
		{ "replay", tn_cmd_replay }, { "merge", tn_cmd_merge },
		{ "compact", tn_cmd_compact }, { "upgrade", tn_cmd_upgrade },
		{ "cache", tn_cmd_cache }, { "codes", tn_cmd_codes },
	};
	if (argc > 1 && !strcmp(argv[1], "__worker"))   /* a sweep's GPU worker */
		return tn_worker_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "__compile"))  /* a sweep's compile process */
		return tn_cproc_main();
	if (argc > 1 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
		printf("fdtune %s (templates: %s)\n", FDT_VERSION, gen_template_dir());
		return FDT_OK;
	}
	if (argc > 2 && !strcmp(argv[1], "help")) {     /* help COMMAND: COMMAND --help */
		char *help[] = { argv[2], "--help", NULL };
		for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
			if (!strcmp(argv[2], cmds[i].name))
				return cmds[i].fn(2, help);
	}
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		if (argc > 2)
			fprintf(stderr, "fdtune help: unknown command '%s'\n", argv[2]);
		fputs(usage, argc < 2 || argc > 2 ? stderr : stdout);
		return argc < 2 || argc > 2 ? FDT_USAGE : FDT_OK;
	}
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "fdtune: unknown command '%s'\n%s", argv[1], usage);
	return FDT_USAGE;
}
