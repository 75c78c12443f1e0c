/*
 * cmd_sweep.c: fdtune sweep, the main job: every configuration of a space
 * generated, compiled, validated, timed and stored (tn_sweep.c), for one
 * problem or a plan of several (comma lists of -f, -r, -n and --precision,
 * or --plan FILE). Every option is checked here, before a GPU is touched or
 * the database opened.
 */
#define _POSIX_C_SOURCE 200809L
#include "fdt_rc.h"
#include "rt.h"
#include "tn_cli.h"
#include "tn_bench.h"
#include "tn_sweep.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char usage[] =
"usage: fdtune sweep [options]\n"
"Generate, compile, validate, time and store every configuration of the\n"
"space of a problem. Without a GPU: a compile-only sweep that records each\n"
"build's registers, LDS and spills.\n\n"
"  -f, --family F,...    kernel families (default xyz); see fdtune gen --list\n"
"  -r, --radius R,...    stencil radii 1..8, order 2R (default 4)\n"
"  -n, --size N|XxYxZ,...  interior grid points (default 512)\n"
"      --precision P,... fp32 (default) or fp64\n"
"                        lists make a plan: every family x radius x size x\n"
"                        precision, one database, one --budget, and on a GPU a\n"
"                        short guided pass over each problem first (from the\n"
"                        bests recorded for its radius at other sizes, or on\n"
"                        other GPUs, where the database or --seeds-from's\n"
"                        holds any), then the\n"
"                        problems with the most to gain (docs/sweeps.md)\n"
"      --plan FILE       the problems of a plan, one a line: FAMILY RADIUS SIZE\n"
"                        [PRECISION]; # starts a comment\n"
"      --spacing H|HX,HY,HZ  grid spacings (default 1)\n"
"  -p, --param NAME=V1,V2,...  replace a parameter's domain in every family of\n"
"                        the plan that has it (repeatable)\n"
"      --db PATH         database (default " TN_CLI_DB_DEFAULT ")\n"
"  -d, --device N        GPU ordinal (default 0)\n"
"      --devices I,J,...  GPUs of one model, one worker process each; they\n"
"                        share out the configurations\n"
"      --timeout S       a run may take S seconds plus 2000 times the best\n"
"                        median so far before its worker is killed and the\n"
"                        run recorded as a timeout (default 10)\n"
"  -j, --jobs N          compile threads (default: twice the CPUs this process may\n"
"                        run on, taskset's or Slurm's, at most 64)\n"
"      --compile-only    compile and record, do not run even with a GPU\n"
"      --arch ARCH       compile target of a compile-only sweep\n"
"      --max-configs N   stop after N configurations (of the whole plan)\n"
"      --budget TIME     stop after TIME (8h, 90m, 600s); run again to go on\n"
"      --shard I/N       run the I-th of N shares of the plan's configurations\n"
"                        (0 <= I < N), dealt round-robin over every problem,\n"
"                        for job arrays; fdtune merge combines their databases\n"
"  -s, --strategy S      exhaustive, random, guided (a random 3% start, then\n"
"                        local search around the best) or transfer (the bests\n"
"                        recorded for the same family, GPU and precision at\n"
"                        other sizes or radii, and on the database's other GPUs\n"
"                        at any size, first, then local search); GPU sweeps.\n"
"                        Default: transfer where the database (or\n"
"                        --seeds-from's) holds such results, else exhaustive\n"
"      --seeds-from DB   another database, only read (a GPU's shipped records,\n"
"                        such as results/h100/fdtune.db): the bests DB holds\n"
"                        for a problem's family, radius and precision (any\n"
"                        size, any GPU) lead its search with those of its\n"
"                        relatives in --db: a plan's first pass starts from\n"
"                        them, and without -s a sweep runs a transfer search\n"
"                        from them. Nothing of DB is copied into --db\n"
"      --evals PCT       random, guided, transfer: percent of the space to run\n"
"                        (10; 2 for transfer)\n"
"      --force           run again what is already recorded for this device and\n"
"                        problem, or compile-only for this arch and compiler (by\n"
"                        default a sweep resumes: it skips those)\n"
"      --no-race         time every configuration to a stable median; by\n"
"                        default one that cannot win stops early: after 1\n"
"                        timed launch over 2x the best median so far and 0.5\n"
"                        ms more, after 3 all over 1.3x, or after 13 with a\n"
"                        median over 1.1x\n"
"      --places N        time each contender (a problem's first run, and any\n"
"                        within 5% of its best so far) on N placements of its\n"
"                        fields in device memory, each allocated anew, and\n"
"                        record the median of their medians; 1..16 (3; 1: one\n"
"                        placement): a kernel's time can move by 4% with where\n"
"                        its fields lie\n"
"      --queue N         runs each GPU's worker holds, 1 or 2 (2): with 2 the next\n"
"                        run waits in the worker while it measures one, so the\n"
"                        GPU does not wait for the sweep to record each run; 1\n"
"                        sends a run only once the last is answered\n"
"      --recheck K       time again only the K fastest kernels recorded for each\n"
"                        problem on this GPU model (1..1000), each under the\n"
"                        configuration it was recorded as: a configuration's\n"
"                        newest run is its record, so this replaces times that\n"
"                        were lucky, or are stale after a driver or fdtune\n"
"                        update; no -p, -s or --evals\n"
"      --energy          also measure each run's energy with the GPU's counter\n"
"                        (NVML, ROCm SMI): 3 windows of back-to-back launches,\n"
"                        about 0.5 s each, after its timing; recorded as joules\n"
"                        a billion points, mean power, spread, power limit and\n"
"                        clocks (best --objective energy|edp). With --recheck K,\n"
"                        the K fastest records of each problem\n"
"      --energy-window S seconds a window lasts (0.05..10, default 0.5)\n"
"  -q, --quiet           no progress display\n"
"  -h, --help            this text\n"
"A sweep left running in the database by a process of this host that is gone\n"
"(kill -9, a crash, a full disk) is marked interrupted when a sweep starts.\n"
"Environment: FDTUNE_CACHE the compile cache (~/.cache/fdtune; empty: none);\n"
"FDTUNE_COMPILE_PROCS=0 compiles in the sweep's threads, not in helper\n"
"processes (fdtune __compile, about 80 MB each); FDTUNE_NICE the compile\n"
"threads' nice steps below the sweep (10); more in docs/commands.md.\n"
"Exit status: 0 the sweep ran to its end (failed configurations are recorded,\n"
"not errors), 1 it could not run or stopped early, 2 bad usage (also: a problem\n"
"of which no configuration can run).\n"
"Examples: fdtune sweep -r 4 -n 512 -p nw=64,128 -p vec=4\n"
"          fdtune sweep -f xyz,iso3dfd -r 4,8 -n 512,1000x300x129 --budget 8h\n"
"          fdtune sweep -f iso3dfd -r 8 -n 640x480x400 --recheck 3\n"
"          fdtune sweep -r 8 -n 512 --recheck 20 --energy\n";

/* 1 when arch names a target of this build's compiler: sm_NN[a] with
 * NVRTC, gfxNNN[:feature...] with hiprtc (the form of rt_default_arch). */
static int arch_ok(const char *a)
{
	int nv = !strncmp(rt_default_arch(), "sm_", 3);
	size_t k = strlen(nv ? "sm_" : "gfx"), d;
	if (strncmp(a, nv ? "sm_" : "gfx", k))
		return 0;
	d = strspn(a + k, nv ? "0123456789" : "0123456789abcdef");
	if (d < 2 || (nv && !isdigit((unsigned char)a[k])))
		return 0;
	a += k + d;
	return nv ? !*a || (a[0] >= 'a' && a[0] <= 'z' && !a[1]) : !*a || *a == ':';
}

/* 0 when this build's compiler compiles for arch, asked with a one-line
 * kernel before anything runs (sm_1000 has the form of a target, but no
 * compiler knows it); else 1 with the compiler's word in err. */
static int arch_compiles(const char *arch, char *err, size_t n)
{
	static const char src[] = "extern \"C\" __global__ void fdt_probe(float *p) { *p = 1; }\n";
	struct rt_prog p;
	char e[512], comp[64], *log;
	int rc = rt_compile(src, "fdt_probe", arch, NULL, 0, &p, e, sizeof e);
	if (rc) {
		log = p.log && *p.log ? p.log : e;
		log[strcspn(log, "\n")] = 0;
		rt_compiler(comp, sizeof comp);
		snprintf(err, n, "--arch '%s': %s cannot compile for it (%.300s); give a target "
			 "it knows, such as %s", arch, comp, log, rt_default_arch());
	}
	rt_prog_free(&p);
	return rc ? 1 : 0;
}

/* The options as given: the problem options' lists make the plan. */
struct args {
	struct tn_cli_problem c;
	struct tn_sweep_opts o;
	const char *fams, *radii, *sizes, *precs, *file;
	int lists, energy;
	double window;          /* --energy-window; 0: not given */
};

/* *v = seconds in s, within lo..hi; 1 with err set when it is not. */
static int seconds(const char *s, const char *what, double lo, double hi, double *v, char *err,
		   size_t n)
{
	char *end;
	*v = strtod(s, &end);
	if (end == s || *end || !(*v >= lo && *v <= hi)) {
		snprintf(err, n, "%s '%s': expected seconds, %g..%g", what, s, lo, hi);
		return FDT_FAIL;
	}
	return FDT_OK;
}

/* --devices I,J,...: GPU ordinals, each once (checked later), no empty entry. */
static int devices(const char *arg, struct tn_sweep_opts *o, char *err, size_t n)
{
	char *tok, *save = NULL, list[256];
	size_t len = strlen(arg);
	o->ndev = 0;
	if (!len || len >= sizeof list || strstr(arg, ",,") || *arg == ',' || arg[len - 1] == ',')
		return snprintf(err, n, "--devices '%.100s': expected GPU ordinals such as 0,1, "
				"each once, no empty entries", arg), 1;
	snprintf(list, sizeof list, "%s", arg);
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (o->ndev == TN_MAXDEV)
			return snprintf(err, n, "--devices: at most %d GPUs", TN_MAXDEV), 1;
		if (tn_parse_int(tok, "--devices", 0, 63, &o->devices[o->ndev++], err, n))
			return FDT_FAIL;
	}
	if (!o->ndev)
		return snprintf(err, n, "--devices '%s': expected GPU ordinals such as 0,1", arg), 1;
	return FDT_OK;
}

/* --shard I/N, 0 <= I < N; not sscanf: its %d has no defined result for
 * numbers out of range. */
static int shard(const char *arg, struct tn_sweep_opts *o, char *err, size_t n)
{
	const char *sl = strchr(arg, '/');
	char num[24];
	int no = !sl || (size_t)(sl - arg) >= sizeof num;
	if (!no) {
		snprintf(num, sizeof num, "%.*s", (int)(sl - arg), arg);
		no = tn_parse_int(num, "--shard", 0, 1 << 30, &o->shard, err, n) ||
		     tn_parse_int(sl + 1, "--shard", 1, 1 << 30, &o->shards, err, n);
	}
	if (no || o->shard >= o->shards)
		return snprintf(err, n, "--shard '%s': expected I/N with 0 <= I < N", arg), 1;
	return FDT_OK;
}

/* --budget 8h, 90m, 600s or 600. */
static int budget(const char *arg, struct tn_sweep_opts *o, char *err, size_t n)
{
	char *end;
	double v = strtod(arg, &end);
	double unit = !strcmp(end, "h") ? 3600 : !strcmp(end, "m") ? 60 :
		      (!strcmp(end, "s") || !*end) ? 1 : -1;
	if (end == arg || unit < 0 || !(v > 0) || !isfinite(v))
		return snprintf(err, n, "--budget '%s': expected a time such as 8h, 90m or 600s",
				arg), 1;
	o->budget_s = v * unit;
	return FDT_OK;
}

/* One option of the sweep's own (not the problem's) into a: *used = 0 for
 * an option it does not know; FDT_OK, or FDT_FAIL with err set on a bad
 * value. */
static int option(struct args *a, int opt, const char *arg, int *used, char *err, size_t n)
{
	struct tn_sweep_opts *o = &a->o;
	int mc;
	*used = 1;
	switch (opt) {
	case TN_O_DB: o->db_path = arg; return FDT_OK;
	case TN_O_SEEDS_FROM: o->seeds_path = arg; return FDT_OK;
	case 'd':
		o->ndev = 1;
		return tn_parse_int(arg, "--device", 0, 63, &o->devices[0], err, n);
	case TN_O_DEVICES: return devices(arg, o, err, n);
	case TN_O_TIMEOUT: return seconds(arg, "--timeout", 1, 86400, &o->timeout_s, err, n);
	case 'j': return tn_parse_int(arg, "--jobs", 1, TN_MAXJOBS, &o->jobs, err, n);
	case TN_O_COMPILE_ONLY: o->compile_only = 1; return FDT_OK;
	case TN_O_ARCH: o->arch = arg; return FDT_OK;
	case TN_O_MAX_CONFIGS:
		if (tn_parse_int(arg, "--max-configs", 1, 1 << 30, &mc, err, n))
			return FDT_FAIL;
		o->max_configs = mc;
		return FDT_OK;
	case 'q': o->quiet = 1; return FDT_OK;
	case TN_O_NO_RACE: o->no_race = 1; return FDT_OK;
	case TN_O_QUEUE: return tn_parse_int(arg, "--queue", 1, TN_QUEUE, &o->queue, err, n);
	case TN_O_PLACES: return tn_parse_int(arg, "--places", 1, TN_PLACES_MAX, &o->places, err, n);
	case TN_O_FORCE: o->force = 1; return FDT_OK;
	case TN_O_ENERGY: a->energy = 1; return FDT_OK;
	case TN_O_ENERGY_WINDOW: return seconds(arg, "--energy-window", 0.05, 10, &a->window, err, n);
	case TN_O_RECHECK:
		o->force = 1;
		return tn_parse_int(arg, "--recheck", 1, 1000, &o->recheck, err, n);
	case 's':
		o->strategy_set = 1;
		if (tn_strategy_parse(arg, &o->strategy))
			return snprintf(err, n, "--strategy '%s': exhaustive, random, guided or "
					"transfer", arg), 1;
		return FDT_OK;
	case TN_O_SHARD: return shard(arg, o, err, n);
	case TN_O_BUDGET: return budget(arg, o, err, n);
	case TN_O_EVALS:
		o->evals_set = 1;
		return tn_parse_int(arg, "--evals", 1, 100, &o->evals, err, n);
	}
	*used = 0;
	return FDT_OK;
}

/* The options that cannot hold together, and an arch the compiler does not
 * know: every one is checked here, before anything runs, GPU or not. 0, or
 * 1 with err set. */
static int check(struct args *a, char *err, size_t n)
{
	struct tn_sweep_opts *o = &a->o;
	int strat;
	for (int i = 0; i < o->ndev; i++)
		for (int j = 0; j < i; j++)
			if (o->devices[i] == o->devices[j])
				return snprintf(err, n, "--devices names GPU %d twice; give each GPU "
						"once", o->devices[i]), 1;
	if (o->arch && !arch_ok(o->arch))
		return snprintf(err, n, "--arch '%s': this fdtune compiles for %s targets such as "
				"%s", o->arch, rt_platform(), rt_default_arch()), 1;
	/* compile-only builds every configuration: -s exhaustive says the same */
	strat = o->strategy_set && o->strategy != TN_EXHAUSTIVE;
	if (o->compile_only && (strat || o->evals_set || o->ndev))
		return snprintf(err, n, "--compile-only runs no kernel, so %s (of GPU sweeps) "
				"cannot hold with it; leave out one", strat ? "-s" : o->evals_set ?
				"--evals" : "--devices (-d)"), 1;
	if (a->window > 0 && !a->energy)
		return snprintf(err, n, "--energy-window sets the windows of --energy: give "
				"--energy too"), 1;
	o->energy_s = !a->energy ? 0 : a->window > 0 ? a->window : 0.5;
	if (o->energy_s > 0 && o->compile_only)
		return snprintf(err, n, "--energy measures runs on a GPU: leave out "
				"--compile-only"), 1;
	if (o->recheck && (o->compile_only || o->strategy_set || o->evals_set || o->shards > 1 ||
			   a->c.nparams || o->seeds_path))
		return snprintf(err, n, "--recheck runs the records of each problem again, as "
				"recorded, on a GPU, and no search: leave out %s", o->compile_only ?
				"--compile-only" : o->strategy_set ? "-s" : o->evals_set ? "--evals" :
				o->shards > 1 ? "--shard" : a->c.nparams ? "-p" : "--seeds-from"), 1;
	if (o->seeds_path && o->compile_only)
		return snprintf(err, n, "--seeds-from leads the searches of a GPU sweep, and "
				"--compile-only builds every configuration: leave out one"), 1;
	if (o->arch && arch_compiles(o->arch, err, n))
		return FDT_FAIL;
	if (a->file && a->lists)
		return snprintf(err, n, "--plan names the problems; leave out -f, -r, -n and "
				"--precision, or leave out --plan"), 1;
	return FDT_OK;
}

/* --seeds-from's database (path; NULL: none) opens to be read, and is not
 * the sweep's own (db): else 1 with err set. */
static int seeds_check(const char *path, const char *db, char *err, size_t n)
{
	struct db *d;
	struct stat a, b;
	if (!path)
		return FDT_OK;
	if (!stat(path, &a) && !stat(db, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		return snprintf(err, n, "--seeds-from %s is the sweep's own database (--db), "
				"whose records lead its searches already: leave out --seeds-from",
				path), 1;
	if (tn_seeds_read(path, &d, err, n))
		return FDT_FAIL;
	db_close(d);
	return FDT_OK;
}

/* The plan of a's problems into plan, each with some configuration that
 * can run, and the database path writable; an exit status, FDT_OK when
 * it may run (the message on stderr otherwise). */
static int make_plan(struct args *a, struct tn_plan *plan)
{
	struct tn_plan_common pc;
	char err[2048];
	int rc;
	memcpy(pc.h, a->c.pb.h, sizeof pc.h);
	pc.params = a->c.params;
	pc.nparams = a->c.nparams;
	if ((rc = a->file ? tn_plan_file(plan, a->file, &pc, err, sizeof err) :
		     tn_plan_lists(plan, a->fams, a->radii, a->sizes, a->precs, &pc, err,
				   sizeof err))) {
		fprintf(stderr, "fdtune sweep: %s\n", err);
		return rc == FDT_USAGE ? FDT_USAGE : FDT_FAIL;
	}
	for (int i = 0; i < plan->n; i++) {    /* nothing of a problem can run: refused */
		struct tn_cli_problem one = a->c;
		one.pb = plan->p[i].pb;
		one.sp = plan->p[i].sp;
		if ((rc = tn_cli_space_check(&one, a->o.arch ? a->o.arch : rt_default_arch(), err,
					     sizeof err))) {
			fprintf(stderr, "fdtune sweep: %s%s%s\n", plan->n > 1 ? plan->p[i].name : "",
				plan->n > 1 ? ": " : "", err);
			return rc;
		}
	}
	if (db_path_check(a->o.db_path, 1, err, sizeof err) ||  /* before any GPU starts */
	    seeds_check(a->o.seeds_path, a->o.db_path, err, sizeof err)) {
		fprintf(stderr, "fdtune sweep: %s\n", err);
		return FDT_FAIL;
	}
	return FDT_OK;
}

/* The sweep's options: the problem's (tn_cli.c parses them), then its own
 * (option() above parses each). */
static const struct option lo[] = {
	TN_CLI_PROBLEM_OPTIONS,
	{ "db", required_argument, 0, TN_O_DB },
	{ "seeds-from", required_argument, 0, TN_O_SEEDS_FROM },
	{ "device", required_argument, 0, 'd' },
	{ "jobs", required_argument, 0, 'j' },
	{ "compile-only", no_argument, 0, TN_O_COMPILE_ONLY },
	{ "arch", required_argument, 0, TN_O_ARCH },
	{ "max-configs", required_argument, 0, TN_O_MAX_CONFIGS },
	{ "quiet", no_argument, 0, 'q' },
	{ "force", no_argument, 0, TN_O_FORCE },
	{ "strategy", required_argument, 0, 's' },
	{ "evals", required_argument, 0, TN_O_EVALS },
	{ "shard", required_argument, 0, TN_O_SHARD },
	{ "budget", required_argument, 0, TN_O_BUDGET },
	{ "devices", required_argument, 0, TN_O_DEVICES },
	{ "timeout", required_argument, 0, TN_O_TIMEOUT },
	{ "no-race", no_argument, 0, TN_O_NO_RACE },
	{ "plan", required_argument, 0, TN_O_PLAN },
	{ "places", required_argument, 0, TN_O_PLACES },
	{ "queue", required_argument, 0, TN_O_QUEUE },
	{ "recheck", required_argument, 0, TN_O_RECHECK },
	{ "energy", no_argument, 0, TN_O_ENERGY },
	{ "energy-window", required_argument, 0, TN_O_ENERGY_WINDOW },
	{ "help", no_argument, 0, 'h' },
	{ 0, 0, 0, 0 }
};

int tn_cmd_sweep(int argc, char **argv)
{
	struct args a;
	struct tn_plan plan = { 0 };
	struct tn_cli_seen seen = { 0 };
	int used;
	char err[2048], cmd[4096];
	int opt, rc;
	size_t off = 0;

	memset(&a, 0, sizeof a);
	tn_cli_problem_init(&a.c);
	a.fams = "xyz";
	a.radii = "4";
	a.sizes = "512";
	a.precs = "fp32";
	a.o.db_path = TN_CLI_DB_DEFAULT;
	a.o.jobs = tn_compile_threads();
	a.o.evals = 10;
	a.o.seed = 0x5eed;
	a.o.timeout_s = 10;
	while ((opt = tn_cli_getopt(argc, argv, TN_CLI_PROBLEM_SHORT "d:j:s:qh", lo, &seen)) != -1) {
		/* the problem options take lists here: they make the plan */
		if (opt == 'f' || opt == 'r' || opt == 'n' || opt == TN_O_PRECISION) {
			*(opt == 'f' ? &a.fams : opt == 'r' ? &a.radii : opt == 'n' ? &a.sizes :
			  &a.precs) = optarg;
			a.lists = 1;
			continue;
		}
		if (opt == TN_O_PLAN) {
			a.file = optarg;
			continue;
		}
		if (opt == 'h') {
			fputs(usage, stdout);
			return FDT_OK;
		}
		/* a problem option, or one of the sweep's own */
		if (tn_cli_problem_opt(&a.c, opt, optarg, &used, err, sizeof err))
			goto bad;
		if (used)
			continue;
		if (option(&a, opt, optarg, &used, err, sizeof err))
			goto bad;
		if (!used) {
			fputs(usage, stderr);
			return FDT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "fdtune sweep: unexpected argument '%s'\n%s", argv[optind], usage);
		return FDT_USAGE;
	}
	if (check(&a, err, sizeof err))
		goto bad;
	if ((rc = make_plan(&a, &plan)) != FDT_OK) {
		tn_plan_free(&plan);
		return rc;
	}
	off = (size_t)snprintf(cmd, sizeof cmd, "fdtune");
	for (int i = 0; i < argc && off < sizeof cmd; i++)
		off += (size_t)snprintf(cmd + off, sizeof cmd - off, " %s", argv[i]);
	a.o.plan = &plan;
	a.o.cmdline = cmd;
	rc = tn_sweep(&a.o, err, sizeof err);
	tn_plan_free(&plan);
	if (rc) {
		fprintf(stderr, "fdtune sweep: %s\n", err);
		return rc == FDT_USAGE ? FDT_USAGE : FDT_FAIL;
	}
	return FDT_OK;
bad:
	fprintf(stderr, "fdtune sweep: %s\n", err);
	return FDT_USAGE;
}
