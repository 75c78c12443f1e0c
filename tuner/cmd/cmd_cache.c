/*
 * cmd_cache.c: `fdtune cache`, the compile cache's use and its cleaning.
 * Sweeps keep compiled kernels in the cache (tuner/sweep/tn_cache.c) and
 * trim it to $FDTUNE_CACHE_MAX after each sweep (tn_cache_use.c); this
 * command shows where it is and what it holds, trims it to another size
 * now (--max), or empties it (--clean). Only the cache's own files go.
 */
#include "tn_cache.h"
#include "tn_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
"usage: fdtune cache [--max SIZE | --clean]\n"
"The compile cache of sweeps: where it is, its entries and bytes, and its\n"
"limit. Sweeps load a kernel compiled before instead of compiling it again,\n"
"and after each sweep remove the least recently used entries beyond the\n"
"limit: FDTUNE_CACHE_MAX (default 2G). FDTUNE_CACHE names the directory\n"
"(default ~/.cache/fdtune; set empty, caching is off).\n"
"  --max SIZE    remove the least recently used entries until SIZE is left\n"
"                (bytes, or with K, M or G: 500M, 2G)\n"
"  --clean       remove every entry\n"
"  -h, --help    this text\n";

int tn_cmd_cache(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "max", required_argument, 0, TN_O_MAX }, { "clean", no_argument, 0, TN_O_CLEAN },
		{ "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 }
	};
	struct tn_cli_seen seen = { 0 };
	struct tn_cache_use u;
	const char *dir;
	char err[1024], a[32], b[32];
	long long max = -1, limit;
	int opt, clean = 0;

	while ((opt = tn_cli_getopt(argc, argv, "h", lo, &seen)) != -1) {
		switch (opt) {
		case TN_O_MAX:
			if (tn_cache_size_parse(optarg, &max, err, sizeof err)) {
				fprintf(stderr, "fdtune cache: --max %s\n%s", err, usage);
				return FDT_USAGE;
			}
			break;
		case TN_O_CLEAN: clean = 1; break;
		case 'h': fputs(usage, stdout); return FDT_OK;
		default: fputs(usage, stderr); return FDT_USAGE;
		}
	}
	if (optind < argc || (clean && max >= 0)) {
		fprintf(stderr, "fdtune cache: %s\n%s", optind < argc ? "unexpected argument" :
			"--max and --clean: give one", usage);
		return FDT_USAGE;
	}
	if (tn_cache_limit(&limit, err, sizeof err)) {
		fprintf(stderr, "fdtune cache: %s\n", err);
		return FDT_USAGE;
	}
	if (!(dir = tn_cache_dir())) {  /* tn_cache_dir said why on stderr */
		printf("fdtune cache: off, nothing to show\n");
		return clean || max >= 0 ? FDT_FAIL : FDT_OK;
	}
	if (tn_cache_trim(dir, clean ? 0 : max, &u, err, sizeof err)) {
		fprintf(stderr, "fdtune cache: %s\n", err);
		return FDT_FAIL;
	}
	tn_cache_fmt(u.bytes, a, sizeof a);
	tn_cache_fmt(limit, b, sizeof b);
	if (clean || max >= 0) {
		char c[32];
		tn_cache_fmt(u.removed_bytes, c, sizeof c);
		printf("fdtune cache: removed %lld entries (%s)\n", u.removed, c);
	}
	printf("fdtune cache: %s: %lld entries, %s; limit %s (FDTUNE_CACHE_MAX%s)\n", dir,
	       u.entries, a, b, getenv("FDTUNE_CACHE_MAX") && *getenv("FDTUNE_CACHE_MAX") ?
	       "" : ", the default");
	if (u.foreign)
		printf("fdtune cache: %lld other files there are not fdtune's; left as they are\n",
		       u.foreign);
	return FDT_OK;
}
