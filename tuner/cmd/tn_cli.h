/*
 * tn_cli.h: what fdtune's subcommands share: the problem and space
 * options (--family, -r, --size, --precision, --spacing, --param), the
 * filter options of best, export and replay, and the entry points of the
 * subcommands.
 */
#ifndef TN_CLI_H
#define TN_CLI_H

#include <getopt.h>
#include <stdio.h>
#include "db.h"
#include "tn.h"

#define TN_CLI_DB_DEFAULT "results/fdtune.db"

/* Long options of the problem; getopt values >= 0x100 belong to it. */
#define TN_CLI_PROBLEM_OPTIONS \
	{ "family", required_argument, 0, 'f' }, \
	{ "radius", required_argument, 0, 'r' }, \
	{ "size", required_argument, 0, 'n' }, \
	{ "precision", required_argument, 0, 0x100 }, \
	{ "spacing", required_argument, 0, 0x101 }, \
	{ "param", required_argument, 0, 'p' }
#define TN_CLI_PROBLEM_SHORT "f:r:n:p:"
#define TN_CLI_PROBLEM_HELP \
"  -f, --family F        kernel family (default xyz); see fdtune gen --list\n" \
"  -r, --radius R        stencil radius 1..8, order 2R (default 4)\n" \
"  -n, --size N|XxYxZ    interior grid points (default 512)\n" \
"      --precision P     fp32 (default) or fp64\n" \
"      --spacing H|HX,HY,HZ  grid spacings (default 1)\n" \
"  -p, --param NAME=V1,V2,...  replace a parameter's domain (repeatable)\n"

/* Long options that pick runs from a database, shared by best, export and
 * replay; getopt values 0x300.. belong to them. */
#define TN_CLI_FILTER_OPTIONS \
	{ "family", required_argument, 0, 'f' }, \
	{ "radius", required_argument, 0, 'r' }, \
	{ "size", required_argument, 0, 'n' }, \
	{ "device", required_argument, 0, 0x300 }, \
	{ "precision", required_argument, 0, 0x301 }
#define TN_CLI_FILTER_SHORT "f:r:n:"
/* --objective time|energy|edp (db_filter.objective), for best and export */
#define TN_CLI_OBJECTIVE_OPTION { "objective", required_argument, 0, 0x302 }
#define TN_CLI_OBJECTIVE_HELP \
"  --objective O       what best means: time (default, the shortest median),\n" \
"                      energy (the fewest joules a point, as sweep --energy\n" \
"                      measured) or edp (energy x time)\n"
/* 1 when opt was a filter option (stored in f), 0 when not, -1 on a bad
 * value or an unknown family (message in err); tn_cli_getopt refuses an
 * option given twice. */
int tn_cli_filter_opt(struct db_filter *f, int opt, const char *arg, char *err, size_t n);

/* The options a command's tn_cli_getopt has returned; zero it first. */
struct tn_cli_seen {
	int opt[64];
	int n;
};
/* getopt_long(argc, argv, so, lo) for a command (argv[0] its name, as main
 * passes it), refusing in one place what no option takes: an option with a
 * value given twice (--param aside, which repeats) and an empty --db, --out,
 * --name or --plan. Those, an unknown option and a missing value print
 * "fdtune CMD: ..." on stderr (getopt's own messages are off) and return
 * '?', which the caller answers with its usage (exit 2). */
int tn_cli_getopt(int argc, char **argv, const char *so, const struct option *lo,
		  struct tn_cli_seen *s);

struct tn_cli_problem {
	struct tn_problem pb;
	struct tn_space sp;
	const char *params[64];
	int nparams;
};

void tn_cli_problem_init(struct tn_cli_problem *c);
/* Handles one getopt result of the problem options: 1 if it was one of
 * them, 0 if not, -1 on a bad value (message in err; tn_cli_getopt refuses
 * an option given twice). -p twice for one parameter is warned about on
 * stderr; the last is taken. */
int tn_cli_problem_opt(struct tn_cli_problem *c, int opt, const char *arg, char *err, size_t n);
/* Resolves the family and applies --param; 0 or an EX_ code. */
int tn_cli_problem_done(struct tn_cli_problem *c, char *err, size_t n);
/* db_read of path (read only: a mistyped --db creates nothing). Where it
 * fails because nothing is at the default path (a fresh clone: no sweep yet),
 * err also names the databases fdtune's repository ships (results/GPU/
 * fdtune.db under the working directory) and the --db that reads one. */
int tn_cli_db_read(const char *path, struct db **db, char *err, size_t n);
/* TN_EX_USAGE, with err naming why and the domains of the parameters given
 * with -p, when no configuration of c's space passes its family's
 * constraints for the limits of arch (tn_limits_of_arch); else 0. */
int tn_cli_space_check(const struct tn_cli_problem *c, const char *arch, char *err, size_t n);

int tn_cmd_gen(int argc, char **argv);
int tn_cmd_sweep(int argc, char **argv);
int tn_cmd_devices(int argc, char **argv);
int tn_cmd_best(int argc, char **argv);
int tn_cmd_report(int argc, char **argv);
int tn_cmd_export(int argc, char **argv);
int tn_cmd_replay(int argc, char **argv);
int tn_cmd_merge(int argc, char **argv);
int tn_cmd_compact(int argc, char **argv);
int tn_cmd_upgrade(int argc, char **argv);
int tn_cmd_cache(int argc, char **argv);

#endif
