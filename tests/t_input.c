/*
 * t_input.c: bad input met on the second day (issue 23, section 3), each
 * case with the exit status of README's table: an architecture no compiler
 * knows, --max-configs and --budget stopping a sweep by one rule, an
 * unknown family named alike by every command, options given twice or that
 * cannot both hold, --device matched literally, plan files with a NUL byte
 * or a byte order mark, and a sweep killed whose process is still a zombie.
 * Runs the built binary ($FDTUNE), on a copy of $RESULTS_DB where it reads
 * one; and a database whose schema version no fdtune wrote (issue 35).
 */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "t_util.h"

#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[] = "/tmp/fdt_inputXXXXXX";
static char out[65536];

/* one configuration of xyz, and (ONE, TWO) with R=1 at 8^3, and two */
#define P1 "-p vec=1 -p bx=32 -p by=1 -p ypt=1 -p lds=0 -p nw=8 -p nt=0 -p pf=0 -p zu=1"
#define ONE "-n 8 -r 1 " P1
#define TWO "-n 8 -r 1 -p vec=1,2 -p bx=32 -p by=1 -p ypt=1 -p lds=0 -p nw=8 -p nt=0 -p pf=0 -p zu=1"

static void expect(const char *args, int status, const char *needle)
{
	t_expect("", args, status, needle, out, sizeof out);
}

/* sm_1000 has the form of an NVIDIA target but no compiler knows it: refused
 * before a database is created, not recorded as compile errors. */
static void unknown_arch(void **st)
{
	char args[512], db[256];
	(void)st;
	snprintf(db, sizeof db, "%s/arch.db", dir);
	t_fdtune("", "devices", out, sizeof out);
	snprintf(args, sizeof args, "sweep --compile-only -q --arch %s %s --db %s",
		 strstr(out, "platform amd") ? "gfx9999" : "sm_1000", ONE, db);
	expect(args, 2, "cannot compile for it");
	assert_int_not_equal(access(db, F_OK), 0);
}

/* --max-configs and --budget stop a sweep before its end alike, as --help
 * says: exit 1, the sweep interrupted; the same command goes on. */
static void stop_rule(void **st)
{
	static const char *const limits[] = { "--max-configs 1", "--budget 0.001s" };
	char args[512], db[256];
	(void)st;
	for (int i = 0; i < 2; i++) {
		snprintf(db, sizeof db, "%s/stop%d.db", dir, i);
		snprintf(args, sizeof args, "sweep --compile-only -q -j 1 %s %s --db %s", limits[i],
			 TWO, db);
		expect(args, 1, "before the end; what finished is recorded");
		assert_int_equal(t_count(db, "select count(*) from sweeps where status = "
					 "'interrupted'"), 1);
		assert_true(t_count(db, "select count(*) from builds") < 2);
		snprintf(args, sizeof args, "sweep --compile-only -q -j 1 %s --db %s", TWO, db);
		expect(args, 0, "done: built=");
		assert_int_equal(t_count(db, "select count(*) from builds"), 2);
	}
	/* a limit the space stays within is no stop */
	snprintf(db, sizeof db, "%s/stop2.db", dir);
	snprintf(args, sizeof args, "sweep --compile-only -q -j 1 --max-configs 2 %s --db %s", TWO,
		 db);
	expect(args, 0, "done: built=2");
}

/* An unknown family: exit 2 and the list of families, from every command. */
static void unknown_family(void **st)
{
	static const char *const cmds[] = { "best", "report", "replay", "export", "gen", "sweep" };
	const char *db = getenv("RESULTS_DB");
	char args[512];
	(void)st;
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		snprintf(args, sizeof args, "%s -f nosuch%s%s", cmds[i], i < 4 && db ? " --db " : "",
			 i < 4 && db ? db : "");
		expect(args, 2, "--family 'nosuch': unknown; families: xyz x y z");
	}
	/* a byte that would not show is written so */
	expect("best -f $(printf '\\357\\273\\277xyz')", 2, "--family '\\xef\\xbb\\xbfxyz': unknown");
}

/* Options given twice, or that cannot both hold: refused (exit 2). */
static void conflicts(void **st)
{
	char args[512];
	(void)st;
	expect("best --csv --json", 2, "--csv and --json: give one");
	expect("best --strategies -f iso3dfd", 2, "give -f xyz or no -f");
	expect("best --strategies --all", 2, "--strategies and --all: give one");
	expect("best -r 4 -r 8", 2, "--radius given twice");
	expect("export -f xyz -f iso3dfd", 2, "--family given twice");
	/* -p twice for one parameter: said, and the last taken (a base space and an
	 * override, as scripts write them) */
	expect("gen -p vec=4 -p vec=2", 0, "warning: --param vec given twice (vec=4, then vec=2)");
	assert_non_null(strstr(out, "vec=2 bx="));
	expect("gen -r 4 -r 8", 2, "--radius given twice");
	snprintf(args, sizeof args, "sweep --compile-only -q %s -p vec=2 --db %s/twice.db", ONE, dir);
	expect(args, 0, "--param vec given twice (vec=1, then vec=2): vec=2 is taken");
	snprintf(args, sizeof args, "%s/twice.db", dir);
	assert_int_equal(t_count(args, "select count(*) from configs where params like "
				 "'%\"vec\":2%'"), 1);
	expect("sweep -r 4 -r 8", 2, "--radius given twice");
	expect("sweep -s guided --compile-only", 2, "-s (of GPU sweeps) cannot hold with it");
	expect("sweep --devices 0,1 --compile-only", 2, "--devices (-d) (of GPU sweeps) cannot");
	/* --devices where there is no GPU: refused before a database is created */
	if (t_fdtune("", "devices", out, sizeof out) || !strstr(out, "no GPU found"))
		return;
	snprintf(args, sizeof args, "sweep --devices 0 -q %s --db %s/dev.db", ONE, dir);
	expect(args, 1, "names GPUs, but there is no");
	snprintf(args, sizeof args, "%s/dev.db", dir);
	assert_int_not_equal(access(args, F_OK), 0);
	/* -s without a GPU: said not to apply */
	snprintf(args, sizeof args, "sweep -s guided -q %s --db %s/s.db", ONE, dir);
	expect(args, 0, "-s and --evals, which steer GPU sweeps, do not apply");
}

/* --device is matched literally: % and _ are no LIKE wildcards. */
static void device_literal(void **st)
{
	const char *db = getenv("RESULTS_DB");
	char args[512];
	(void)st;
	if (!db)
		skip();
	snprintf(args, sizeof args, "best --db %s -f xyz -r 4 --device 'H100%%'", db);
	expect(args, 3, "no successful runs match");
	snprintf(args, sizeof args, "best --db %s -f xyz -r 4 --device '_100'", db);
	expect(args, 3, "no successful runs match");
	snprintf(args, sizeof args, "best --db %s -f xyz -r 4 -n 512 --device h100", db);
	expect(args, 0, "H100");
}

/* A plan with a NUL byte says so; one with a UTF-8 byte order mark runs. */
static void plan_bytes(void **st)
{
	char args[512];
	(void)st;
	snprintf(args, sizeof args, "printf 'xyz 1 8\\n\\000\\n' > %s/nul.plan && printf "
		 "'\\357\\273\\277xyz 1 8\\n' > %s/bom.plan", dir, dir);
	t_ok(args, out, sizeof out);
	snprintf(args, sizeof args, "sweep --compile-only -q --plan %s/nul.plan --db %s/p.db", dir, dir);
	expect(args, 2, "nul.plan:2: a NUL byte");
	assert_null(strstr(out, "characters"));
	snprintf(args, sizeof args, "sweep --compile-only -q -j 1 --plan %s/bom.plan %s --db %s/p.db",
		 dir, P1, dir);
	expect(args, 0, "xyz R=1 8x8x8 fp32");
}

/* A sweep killed with SIGKILL and not yet waited for is a zombie; the next
 * sweep marks it interrupted at once. */
static void zombie(void **st)
{
	char db[256], args[512], stat[64];
	const char *bin = getenv("FDTUNE");
	pid_t pid;
	(void)st;
	snprintf(db, sizeof db, "%s/z.db", dir);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		execl("/bin/sh", "sh", "-c", "exec \"$0\" sweep --compile-only -q -j 1 -n 8 -r 1 "
		      "-p vec=1,2,4 -p bx=32,64,128 -p by=1,2,4,8 --db \"$1\" >/dev/null 2>&1",
		      bin ? bin : "./fdtune", db, (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 300 && (access(db, F_OK) || t_count(db, "select count(*) from builds")
				    < 1); i++)
		usleep(100000);
	assert_int_equal(kill(pid, SIGKILL), 0);
	snprintf(stat, sizeof stat, "grep -q '^[0-9]* (.*) Z' /proc/%d/stat", (int)pid);
	for (int i = 0; i < 50 && t_sh(stat, out, sizeof out); i++)
		usleep(20000);
	assert_int_equal(t_sh(stat, out, sizeof out), 0);         /* a zombie, not waited for */
	snprintf(args, sizeof args, "sweep --compile-only -q -j 1 %s --db %s", ONE, db);
	expect(args, 0, "marked interrupted");
	assert_int_equal(t_count(db, "select count(*) from sweeps where status = 'running'"), 0);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
}

/* issue 35.6: every option with a value, --param aside, is refused when
 * given twice (exit 2, named), in one place for every command. */
static void twice(void **st)
{
	static const struct { const char *args, *needle; } t[] = {
		{ "best --db A.db --db B.db", "--db given twice" },
		{ "sweep --places 1 --places 2", "--places given twice" },
		{ "sweep --recheck 2 --recheck 3", "--recheck given twice" },
		{ "sweep --max-configs 1 --max-configs 2", "--max-configs given twice" },
		{ "sweep --budget 1h --budget 2h", "--budget given twice" },
		{ "merge --device X --device Y A.db", "--device given twice" },
		{ "export --out a --out b", "--out given twice" },
		{ "report -o a --out b", "--out given twice" },
		{ "sweep -r 4 -r 8", "--radius given twice; give it once (it takes a list" },
	};
	(void)st;
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		expect(t[i].args, 2, t[i].needle);
	assert_int_not_equal(access("B.db", F_OK), 0);
	expect("sweep --db A.db --db B.db", 2, "--db given twice");
	assert_null(strstr(out, "takes a list"));       /* the hint is -f, -r, -n's */
}

/* issue 35.3 and 35.10: an empty --out, --name or --db is refused (it was
 * the current directory, or / once a file name was appended). */
static void empty_paths(void **st)
{
	const char *db = getenv("RESULTS_DB");
	char args[512];
	(void)st;
	if (!db)
		skip();
	snprintf(args, sizeof args, "export --db %s -r 4 -n 512 --out '' --name k_i35", db);
	expect(args, 2, "--out needs a directory");
	assert_int_not_equal(access("/k_i35.cu", F_OK), 0);
	assert_int_not_equal(access("/k_i35.h", F_OK), 0);
	snprintf(args, sizeof args, "export --db %s -r 4 -n 512 --out %s --name ''", db, dir);
	expect(args, 2, "--name needs a name");
	expect("gen --all -n 8 -r 1 " P1 " --out ''", 2, "--out needs a directory");
	expect("best --db ''", 2, "--db needs a path");
	assert_null(strstr(out, "db_read"));
	expect("merge --db '' A.db", 2, "--db needs a path");
}

/* issue 35.7: a value given twice in -p is one configuration. */
static void param_dedup(void **st)
{
	char args[512], db[256];
	(void)st;
	snprintf(db, sizeof db, "%s/dedup.db", dir);
	snprintf(args, sizeof args, "sweep --compile-only -j 1 %s -p vec=1,1,1 --db %s", ONE, db);
	expect(args, 0, " 1 configurations to run");
	assert_int_equal(t_count(db, "select count(*) from builds"), 1);
	expect("gen -p vec=4,4", 0, "vec=4 bx=");
}

/* The number of times needle occurs in s. */
static int occurs(const char *s, const char *needle)
{
	int k = 0;
	for (const char *p = s; (p = strstr(p, needle)); p++)
		k++;
	return k;
}

/* issue 35.10: messages that misled. */
static void messages(void **st)
{
	char args[1024], db[256];
	(void)st;
	/* getopt's own messages began with the bare command ("replay: ...") */
	expect("replay --bogus", 2, "fdtune replay: unknown option '--bogus'");
	assert_true(strncmp(out, "replay:", 7) && !strstr(out, "\nreplay:"));
	expect("best --db", 2, "fdtune best: --db needs a value");
	/* gen --list checks -f, and lists that family alone */
	expect("gen --list -f nosuch", 2, "--family 'nosuch': unknown");
	expect("gen --list -f y", 0, "y: ");
	assert_null(strstr(out, "xyz: "));
	/* a wrong FDTUNE_TEMPLATES is refused before anything is recorded */
	snprintf(db, sizeof db, "%s/tmpl.db", dir);
	snprintf(args, sizeof args, "sweep --compile-only -q %s --db %s", ONE, db);
	t_expect("FDTUNE_TEMPLATES=/nonexistent", args, 1, "FDTUNE_TEMPLATES names no templates",
		 out, sizeof out);
	assert_int_not_equal(access(db, F_OK), 0);
	/* why a sweep stopped is said once; "done:" is never left bare */
	snprintf(db, sizeof db, "%s/msg.db", dir);
	snprintf(args, sizeof args, "sweep --compile-only -q -j 1 --max-configs 1 %s --db %s", TWO,
		 db);
	expect(args, 1, "--max-configs reached");
	assert_int_equal(occurs(out, "--max-configs reached"), 1);
	snprintf(args, sizeof args, "sweep --compile-only -q -j 1 %s --db %s", TWO, db);
	expect(args, 0, "done: built=1");
	snprintf(args, sizeof args, "sweep --compile-only -q -j 1 --force %s --db %s", ONE, db);
	t_fdtune("", args, out, sizeof out);
	snprintf(args, sizeof args, "sweep --compile-only -j 1 %s --db %s", TWO, db);
	t_fdtune("", args, out, sizeof out);
	assert_null(strstr(out, "done: \n"));
	/* a sweep of this host whose process is gone: best says so, and writes nothing */
	snprintf(args, sizeof args, "sqlite3 %s \"update sweeps set status = 'running', "
		 "pid = 4194999, proc_id = 'gone/1' where id = 1\"", db);
	t_ok(args, out, sizeof out);
	snprintf(args, sizeof args, "best --db %s", db);
	t_fdtune("", args, out, sizeof out);
	assert_non_null(strstr(out, "is interrupted: its process (pid 4194999) is gone"));
	assert_null(strstr(out, "running on host"));
	assert_null(strstr(out, "not final"));
	assert_int_equal(t_count(db, "select count(*) from sweeps where status = 'running'"), 1);
	/* --recheck without a GPU: refused before a compile-only sweep is announced */
	if (t_fdtune("", "devices", out, sizeof out) || !strstr(out, "no GPU found"))
		return;
	snprintf(args, sizeof args, "sweep --recheck 3 %s --db %s", "-n 8 -r 1", db);
	expect(args, 1, "--recheck times recorded configurations again on a GPU");
	assert_null(strstr(out, "running a compile-only sweep"));
}

/* issue 35: `fdtune best` on a fresh clone (no sweep yet, so nothing at the
 * default results/fdtune.db) names the shipped databases and the --db that
 * reads one, and that --db works; where none is shipped, it says that a sweep
 * writes the default. */
static void fresh_clone(void **st)
{
	const char *src = getenv("RESULTS_DB");
	char cmd[1024], env[512];
	(void)st;
	snprintf(cmd, sizeof cmd, "mkdir -p %s/clone/results/h100 %s/bare && cp '%s' "
		 "%s/clone/results/h100/fdtune.db", dir, dir, src ? src : "results/h100/fdtune.db",
		 dir);
	t_ok(cmd, out, sizeof out);
	snprintf(env, sizeof env, "cd %s/clone &&", dir);
	t_expect(env, "best", 1, "for example --db results/h100/fdtune.db", out, sizeof out);
	assert_non_null(strstr(out, "no database at results/fdtune.db"));
	t_expect(env, "best --db results/h100/fdtune.db --csv", 0, "NVIDIA H100", out, sizeof out);
	t_expect(env, "export -f xyz -r 8 -n 512", 1, "--db results/h100/fdtune.db", out,
		 sizeof out);
	snprintf(env, sizeof env, "cd %s/bare &&", dir);
	t_expect(env, "best", 1, "a sweep writes it", out, sizeof out);
}

/* issue 35.9: a cache that cannot be used turns caching off, said once,
 * and nothing is created for it: no missing HOME, no relative folder. */
static void cache_off(void **st)
{
	char args[1024], env[512], db[256];
	(void)st;
	snprintf(db, sizeof db, "%s/cache.db", dir);
	snprintf(args, sizeof args, "sweep --compile-only -j 1 --force %s --db %s", ONE, db);
	t_expect("env -u FDTUNE_CACHE HOME=/nonexistent_i35", args, 0,
		 "compile cache off: HOME /nonexistent_i35 is no existing directory", out, sizeof out);
	assert_int_equal(occurs(out, "compile cache off"), 1);
	assert_non_null(strstr(out, ", which is off)"));
	assert_int_not_equal(access("/nonexistent_i35", F_OK), 0);
	snprintf(env, sizeof env, "cd %s && FDTUNE_CACHE=rel_cache", dir);
	t_expect(env, args, 0, "FDTUNE_CACHE 'rel_cache' is a relative path", out, sizeof out);
	snprintf(env, sizeof env, "%s/rel_cache", dir);
	assert_int_not_equal(access(env, F_OK), 0);
	snprintf(env, sizeof env, "touch %s/afile", dir);
	t_ok(env, out, sizeof out);
	snprintf(env, sizeof env, "FDTUNE_CACHE=%s/afile", dir);
	t_expect(env, args, 0, "afile is not a directory", out, sizeof out);
	assert_int_equal(occurs(out, "compile cache off"), 1);
}

/* issue 35.9: the cache has a limit and a way to clean it. `fdtune cache`
 * counts the entries a sweep stored; a hit marks its entry used; --max
 * removes the least recently used first; a sweep trims to FDTUNE_CACHE_MAX
 * and says so; --clean empties it and leaves files not of its forms; a
 * limit that is no size is refused. */
static void cache_limit(void **st)
{
	char args[1024], env[512], db[256], cache[256];
	(void)st;
	snprintf(cache, sizeof cache, "%s/lim_cache", dir);
	snprintf(db, sizeof db, "%s/lim.db", dir);
	snprintf(env, sizeof env, "FDTUNE_CACHE=%s", cache);
	snprintf(args, sizeof args, "sweep --compile-only -q -j 1 %s --db %s", ONE, db);
	t_expect(env, args, 0, "built=1", out, sizeof out);
	t_expect(env, "cache", 0, ": 1 entries", out, sizeof out);
	assert_non_null(strstr(out, "the default"));
	/* a second entry; the first made old, then used again by a hit */
	snprintf(args, sizeof args, "sweep --compile-only -q -j 1 -n 8 -r 2 %s --db %s", P1, db);
	t_expect(env, args, 0, "built=1", out, sizeof out);
	snprintf(args, sizeof args, "touch -d 2001-01-01 %s/*.txt", cache);
	t_ok(args, out, sizeof out);
	snprintf(args, sizeof args, "sweep --compile-only -j 1 --force %s --db %s", ONE, db);
	t_expect(env, args, 0, "1 from the cache", out, sizeof out);
	snprintf(args, sizeof args, "find %s -name '*.txt' -newermt 2002-01-01 | wc -l", cache);
	t_ok(args, out, sizeof out);
	assert_int_equal(atoi(out), 1);
	/* --max of the newest entry's size keeps it, and only it */
	snprintf(args, sizeof args, "cd %s && for t in $(ls -t *.txt | head -1); do "
		 "k=${t%%.txt}; cat $k.txt $k.bin | wc -c; done", cache);
	t_ok(args, out, sizeof out);
	snprintf(args, sizeof args, "cache --max %d", atoi(out));
	t_expect(env, args, 0, "removed 1 entries", out, sizeof out);
	assert_non_null(strstr(out, ": 1 entries"));
	snprintf(args, sizeof args, "sweep --compile-only -j 1 --force %s --db %s", ONE, db);
	t_expect(env, args, 0, "1 from the cache", out, sizeof out);
	/* a sweep trims to the limit, and says so */
	snprintf(env, sizeof env, "FDTUNE_CACHE=%s FDTUNE_CACHE_MAX=1K", cache);
	snprintf(args, sizeof args, "sweep --compile-only -j 1 -n 8 -r 3 %s --db %s", P1, db);
	t_expect(env, args, 0, "least recently used entries", out, sizeof out);
	snprintf(args, sizeof args, "touch %s/notes.txt", cache);
	t_ok(args, out, sizeof out);
	snprintf(env, sizeof env, "FDTUNE_CACHE=%s", cache);
	t_expect(env, "cache --clean", 0, ": 0 entries", out, sizeof out);
	assert_non_null(strstr(out, "1 other files"));
	snprintf(args, sizeof args, "%s/notes.txt", cache);
	assert_int_equal(access(args, F_OK), 0);
	snprintf(env, sizeof env, "FDTUNE_CACHE=%s FDTUNE_CACHE_MAX=lots", cache);
	t_expect(env, "cache", 2, "'lots' is no size", out, sizeof out);
	t_expect("", "cache --max 2G --clean", 2, "give one", out, sizeof out);
}

/* issue 33: configurations that differ in a launch parameter alone (xyz's
 * nw) have one source: a cold sweep compiles each source once, the pool
 * handing a build to the configurations queued beside it and the cache to
 * the later ones, and every configuration still gets its build recorded. */
static void shared_builds(void **st)
{
	char args[1024], env[512], db[256], cache[256];
	(void)st;
	snprintf(cache, sizeof cache, "%s/share_cache", dir);
	snprintf(db, sizeof db, "%s/share.db", dir);
	snprintf(env, sizeof env, "FDTUNE_CACHE=%s", cache);
	snprintf(args, sizeof args, "sweep --compile-only -j 2 -r 2 -n 32 -p vec=2 -p bx=32 "
		 "-p by=2 -p ypt=1,2 -p lds=1 -p nw=8,16,32 -p nt=0 -p pf=0 -p zu=1,2 --db %s", db);
	t_expect(env, args, 0, "built=12", out, sizeof out);
	assert_non_null(strstr(out, "the build of another configuration of the same source"));
	assert_int_equal(t_count(db, "select count(*) from builds where status = 'ok'"), 12);
	assert_int_equal(t_count(db, "select count(distinct source_hash) from builds"), 4);
	snprintf(args, sizeof args, "ls %s | grep -c 'bin$'", cache);
	t_ok(args, out, sizeof out);
	assert_int_equal(atoi(out), 4);         /* 4 compiles, 4 entries */
}

/* A copy of $RESULTS_DB at dir/name (path[0..n)) with user_version v,
 * after sql (NULL: none) has run on it. */
static void copy_version(const char *name, const char *sql, int v, char *path, size_t n)
{
	const char *db = getenv("RESULTS_DB");
	char cmd[1024];
	sqlite3 *h = NULL;
	if (!db)
		skip();
	snprintf(path, n, "%s/%s", dir, name);
	snprintf(cmd, sizeof cmd, "cp '%s' '%s'", db, path);
	t_ok(cmd, out, sizeof out);
	snprintf(cmd, sizeof cmd, "PRAGMA user_version=%d", v);
	assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
	if (sql)
		assert_int_equal(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, cmd, NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_close(h), SQLITE_OK);
}

/* issue 35.1: a negative schema version is refused by every command that
 * opens the file (no crash, no SQL run from outside the migrations), and
 * the file keeps its bytes. */
static void bad_version(void **st)
{
	const char *src = getenv("RESULTS_DB");
	char db[256], args[1024], sum[2][128];
	(void)st;
	copy_version("neg.db", NULL, -2147483647 - 1, db, sizeof db);
	snprintf(args, sizeof args, "best --db %s", db);
	expect(args, 1, "unknown schema version -2147483648");
	copy_version("neg5.db", NULL, -5, db, sizeof db);
	snprintf(args, sizeof args, "best --db %s", db);
	expect(args, 1, "unknown schema version -5");
	snprintf(args, sizeof args, "sweep --compile-only -q %s --db %s", ONE, db);
	expect(args, 1, "unknown schema version -5");
	snprintf(args, sizeof args, "merge --db %s %s", db, src);
	expect(args, 1, "unknown schema version -5");
	assert_int_equal(t_count(db, "PRAGMA user_version"), -5);
	copy_version("neg2.db", NULL, -2, db, sizeof db);
	snprintf(args, sizeof args, "cksum < %s", db);
	t_ok(args, sum[1], sizeof sum[1]);
	snprintf(args, sizeof args, "best --db %s", db);
	expect(args, 1, "not an fdtune database");
	snprintf(args, sizeof args, "cksum < %s", db);
	t_ok(args, sum[0], sizeof sum[0]);
	assert_string_equal(sum[0], sum[1]);
}

/* issue 35.4: a merge refused (the target itself, a --device no source
 * has) leaves the target as it was: not migrated from schema 5, the same
 * bytes; a target it would have created is not created. 35.8: --device in
 * any case. */
static void merge_refused(void **st)
{
	const char *src = getenv("RESULTS_DB");
	char db[256], args[1024], sum[2][128];
	(void)st;
	/* schema 5: what migration 6 adds taken away */
	copy_version("v5.db", "DROP VIEW v_current", 5, db, sizeof db);
	snprintf(args, sizeof args, "cksum < %s", db);
	t_ok(args, sum[0], sizeof sum[0]);
	snprintf(args, sizeof args, "merge --db %s %s", db, db);
	expect(args, 1, "is the target itself; nothing to merge");
	snprintf(args, sizeof args, "merge --db %s --device nosuch %s", db, src);
	expect(args, 1, "has no device whose name contains 'nosuch'");
	assert_int_equal(t_count(db, "PRAGMA user_version"), 5);
	snprintf(args, sizeof args, "cksum < %s", db);
	t_ok(args, sum[1], sizeof sum[1]);
	assert_string_equal(sum[0], sum[1]);
	/* issue 35.8: --device matches names as best and export do, case aside */
	snprintf(args, sizeof args, "merge --db %s/h.db --device h100 %s", dir, src);
	expect(args, 0, "runs and");
	snprintf(args, sizeof args, "%s/h.db", dir);
	assert_true(t_count(args, "select count(*) from runs") > 0);
	snprintf(args, sizeof args, "merge --db %s/new.db --device nosuch %s", dir, src);
	expect(args, 1, "has no device whose name contains 'nosuch'");
	snprintf(args, sizeof args, "%s/new.db", dir);
	assert_int_not_equal(access(args, F_OK), 0);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(unknown_arch), cmocka_unit_test(stop_rule),
		cmocka_unit_test(unknown_family), cmocka_unit_test(conflicts),
		cmocka_unit_test(device_literal), cmocka_unit_test(plan_bytes),
		cmocka_unit_test(zombie), cmocka_unit_test(bad_version),
		cmocka_unit_test(twice), cmocka_unit_test(empty_paths),
		cmocka_unit_test(merge_refused), cmocka_unit_test(param_dedup),
		cmocka_unit_test(messages), cmocka_unit_test(cache_off),
		cmocka_unit_test(fresh_clone), cmocka_unit_test(cache_limit),
		cmocka_unit_test(shared_builds),
	};
	int rc;
	if (!mkdtemp(dir))
		return 1;
	rc = cmocka_run_group_tests_name("input", t, NULL, NULL);
	t_rmtree(dir);
	return rc;
}
