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

/* The codes getopt_long returns for long options without a short form,
 * one per option name across every command (an option means one thing
 * wherever it is taken). */
enum tn_opt {
	TN_O_ALL = 0x100,
	TN_O_ALL_DEVICES,
	TN_O_ALL_RECORDED,
	TN_O_ALL_SIZES,
	TN_O_ARCH,
	TN_O_BUDGET,
	TN_O_CLEAN,
	TN_O_COMPILE_ONLY,
	TN_O_CSV,
	TN_O_DB,
	TN_O_DEVICE,
	TN_O_DEVICES,
	TN_O_EACH_SIZE,
	TN_O_ENERGY,
	TN_O_ENERGY_WINDOW,
	TN_O_EVALS,
	TN_O_FORCE,
	TN_O_FORTRAN,
	TN_O_IN_FLIGHT,
	TN_O_JSON,
	TN_O_KEEP,
	TN_O_LIST,
	TN_O_MAX,
	TN_O_MAX_CONFIGS,
	TN_O_NAME,
	TN_O_NO_RACE,
	TN_O_OBJECTIVE,
	TN_O_OTHER_DEVICES,
	TN_O_OUT,
	TN_O_PLACES,
	TN_O_QUEUE,
	TN_O_PLAN,
	TN_O_PRECISION,
	TN_O_RECHECK,
	TN_O_RUN,
	TN_O_SEEDED,
	TN_O_SEEDS,
	TN_O_SEEDS_FROM,
	TN_O_SHARD,
	TN_O_SOURCE_ONLY,
	TN_O_SOURCES,
	TN_O_SPACING,
	TN_O_START,
	TN_O_STRATEGIES,
	TN_O_TIMEOUT,
	TN_O_TOP,
	TN_O_WHICH
};

/* Long options of the problem. */
#define TN_CLI_PROBLEM_OPTIONS \
	{ "family", required_argument, 0, 'f' }, \
	{ "radius", required_argument, 0, 'r' }, \
	{ "size", required_argument, 0, 'n' }, \
	{ "precision", required_argument, 0, TN_O_PRECISION }, \
	{ "spacing", required_argument, 0, TN_O_SPACING }, \
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
 * replay. */
#define TN_CLI_FILTER_OPTIONS \
	{ "family", required_argument, 0, 'f' }, \
	{ "radius", required_argument, 0, 'r' }, \
	{ "size", required_argument, 0, 'n' }, \
	{ "device", required_argument, 0, TN_O_DEVICE }, \
	{ "precision", required_argument, 0, TN_O_PRECISION }
#define TN_CLI_FILTER_SHORT "f:r:n:"
/* --objective time|energy|edp (db_filter.objective), for best and export */
#define TN_CLI_OBJECTIVE_OPTION { "objective", required_argument, 0, TN_O_OBJECTIVE }
#define TN_CLI_OBJECTIVE_HELP \
"  --objective O       what best means: time (default, the shortest median),\n" \
"                      energy (the fewest joules a point, as sweep --energy\n" \
"                      measured) or edp (energy x time)\n"
/* One getopt result: *used = 1 when opt was a filter option (stored in f),
 * 0 when not; FDT_OK, or FDT_USAGE on a bad value or an unknown family
 * (message in err). tn_cli_getopt refuses an option given twice. */
int tn_cli_filter_opt(struct db_filter *f, int opt, const char *arg, int *used, char *err,
		      size_t n);

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
/* Handles one getopt result of the problem options: *used = 1 if it was one
 * of them, 0 if not; FDT_OK, or FDT_USAGE on a bad value (message in err;
 * tn_cli_getopt refuses an option given twice). -p twice for one parameter
 * is warned about on stderr; the last is taken. */
int tn_cli_problem_opt(struct tn_cli_problem *c, int opt, const char *arg, int *used, char *err,
		       size_t n);
/* Resolves the family and applies --param; FDT_OK or another fdt_rc.h status. */
int tn_cli_problem_done(struct tn_cli_problem *c, char *err, size_t n);
/* db_read of path (read only: a mistyped --db creates nothing; check 1:
 * db_read_checked, for what leaves the database, as export). Where it
 * fails because nothing is at the default path (a fresh clone: no sweep yet),
 * err also names the databases fdtune's repository ships (results/GPU/
 * fdtune.db under the working directory) and the --db that reads one. */
int tn_cli_db_read(const char *path, int check, struct db **db, char *err, size_t n);
/* Where what failed on db (read from path) found a damaged page
 * (db_damaged of db and err), err[0..n) is replaced by one message that
 * names path, keeps the error and says what to do; else, where db is NULL
 * (the open failed, and said why) or err says so already (db.c's own
 * message), err is left as it is. Call before db_close. */
void tn_cli_db_said(struct db *db, const char *path, char *err, size_t n);
/* FDT_USAGE, with err naming why and the domains of the parameters given
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
int tn_cmd_codes(int argc, char **argv);

#endif
