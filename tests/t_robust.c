/*
 * t_robust.c: what a sweep's database survives. Concurrent writers (two
 * sweeps of one or two problems, two shards of one problem) while merge and
 * best read it; a full disk (a small tmpfs, root only) and the resume once
 * space is freed; and a fault injected at every database write in turn
 * (FDTUNE_FAULT, db/db_fault.c). Each case runs the built binary ($FDTUNE)
 * on compile-only sweeps and checks that nothing recorded is lost or counted
 * twice, that no sweep is left 'running', and that the database passes
 * SQLite's integrity and foreign key checks.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "t_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[] = "/tmp/fdt_robustXXXXXX";
static char out[65536];

/* 8 configurations of xyz at 16^3; the radius makes the problem */
#define SPACE "-n 16 -p vec=1,2 -p bx=32,64 -p by=1,2 -p ypt=1 -p lds=0 -p nw=8 -p nt=0 -p pf=0 -p zu=1"
#define NCFG 8
/* 6 more (vec, ypt) of the full disk; 2 of the fault injection */
#define FULL_SPACE "-n 16 -p vec=1,2,4 -p bx=32 -p by=1 -p ypt=1,2 -p lds=0 -p nw=8 -p nt=0 -p pf=0 -p zu=1"
#define FULL_NCFG 6
#define FAULT_SPACE "-n 16 -p vec=1,2 -p bx=32 -p by=1 -p ypt=1 -p lds=0 -p nw=8 -p nt=0 -p pf=0 -p zu=1"
#define FAULT_NCFG 2

static const char *bin(void)
{
	const char *b = getenv("FDTUNE");
	return b ? b : "./fdtune";
}

/* Runs the shell command cmd with stdout and stderr in out; the exit status. */
static int sh(const char *cmd)
{
	return t_sh(cmd, out, sizeof out);
}

static void expect(const char *cmd, int status, const char *needle)
{
	int st = sh(cmd);
	if (st != status || (needle && !strstr(out, needle)))
		print_error("%s -> %d, wanted %d and \"%s\":\n%s\n", cmd, st, status,
			    needle ? needle : "", out);
	assert_int_equal(st, status);
	if (needle)
		assert_non_null(strstr(out, needle));
}

/* The database at db is sound: SQLite's integrity and foreign key checks
 * pass (no build without its config and sweep, no run without its build),
 * and no sweep is left running. */
static void sound(const char *db)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "sqlite3 '%s' 'pragma integrity_check; pragma foreign_key_check;"
		 " select count(*) || \" running\" from sweeps where status = \"running\"'", db);
	expect(cmd, 0, NULL);
	if (strcmp(out, "ok\n0 running\n"))
		print_error("%s:\n%s\n", db, out);
	assert_string_equal(out, "ok\n0 running\n");
}

/* The builds of the problem of radius r recorded in db. */
static long long builds_of(const char *db, int r)
{
	char q[256];
	snprintf(q, sizeof q, "select count(*) from builds b join sweeps s on s.id = b.sweep_id"
		 " join problems p on p.id = s.problem_id where p.radius = %d", r);
	return t_count(db, q);
}

/* Two sweeps of one problem, one of another and a merge into the database
 * start together on a file that does not exist yet; best and merge read it
 * until they end. Every configuration is built once per problem: a
 * configuration the other sweep recorded meanwhile is not recorded again. */
static void concurrent_writers(void **st)
{
	char db[256], cmd[4096];
	(void)st;
	snprintf(db, sizeof db, "%s/c.db", dir);
	/* a source for the merge that writes into db: a problem of its own */
	snprintf(cmd, sizeof cmd, "FDTUNE_CACHE= %s sweep --compile-only -q -j 1 -r 4 %s --db %s/src.db",
		 bin(), SPACE, dir);
	expect(cmd, 0, "sweep 1 done");
	snprintf(cmd, sizeof cmd,
		 "cd %s && export FDTUNE_CACHE=; f=%s; s=\"sweep --compile-only -q -j 1 %s --db c.db\"\n"
		 "($f $s -r 1 > a.log 2>&1; echo $? >> rc) & a=$!\n"
		 "($f $s -r 1 > b.log 2>&1; echo $? >> rc) & b=$!\n"
		 "($f $s -r 2 > c.log 2>&1; echo $? >> rc) & c=$!\n"
		 "($f merge --db c.db src.db > d.log 2>&1; echo $? >> rc) & d=$!\n"
		 "i=0; while kill -0 $a $b $c 2>/dev/null && [ $i -lt 600 ]; do i=$((i+1))\n"
		 "  if [ -e c.db ]; then $f best --db c.db >> best.log 2>&1; echo $? >> best.rc\n"
		 "    $f merge --db m.db c.db >> merge.log 2>&1; echo $? >> merge.rc; fi\n"
		 "  sleep 0.05; done; wait\n"
		 "cat a.log b.log c.log d.log best.log merge.log; echo rc $(cat rc) best $(sort -u best.rc)"
		 " merge $(sort -u merge.rc)", dir, bin(), SPACE);
	expect(cmd, 0, "rc 0 0 0 0 best");
	if (strstr(out, "locked") || strstr(out, "busy") || !strstr(out, "merge 0\n") ||
	    strstr(out, "best 1") || strstr(out, "best 2"))
		print_error("%s\n", out);
	assert_null(strstr(out, "locked"));
	assert_null(strstr(out, "busy"));
	assert_non_null(strstr(out, "merge 0\n"));   /* every merge worked */
	assert_null(strstr(out, "best 1"));          /* best: 3, nothing timed */
	assert_null(strstr(out, "best 2"));
	/* nothing lost, nothing twice */
	assert_int_equal(t_count(db, "select count(*) from builds b join sweeps s on s.id = b.sweep_id"
				 " join problems p on p.id = s.problem_id where p.radius = 1"), NCFG);
	assert_int_equal(t_count(db, "select count(*) from builds b join sweeps s on s.id = b.sweep_id"
				 " join problems p on p.id = s.problem_id where p.radius = 2"), NCFG);
	assert_int_equal(t_count(db, "select count(*) from builds b join sweeps s on s.id = b.sweep_id"
				 " join problems p on p.id = s.problem_id where p.radius = 4"), NCFG);
	assert_int_equal(t_count(db, "select count(*) from builds"), 3 * NCFG);
	assert_int_equal(t_count(db, "select count(*) from sweeps where status = 'done'"), 4);
	sound(db);
	/* a last merge makes the copy whole, and the copy is sound */
	snprintf(cmd, sizeof cmd, "cd %s && %s merge --db m.db c.db", dir, bin());
	expect(cmd, 0, "added to m.db");
	snprintf(db, sizeof db, "%s/m.db", dir);
	assert_int_equal(t_count(db, "select count(*) from builds"), 3 * NCFG);
	assert_int_equal(t_count(db, "select count(*) from sweeps where status = 'done'"), 4);
	sound(db);
}

/* Two shards of one problem on one node write one database at once. Three
 * sweeps in it were left running by processes of this host that are gone
 * (pids above Linux's limit): both shards find them at once, one marks them
 * interrupted, and neither fails on the lock the other holds. */
static void concurrent_shards(void **st)
{
	char db[256], cmd[2048];
	(void)st;
	snprintf(db, sizeof db, "%s/s.db", dir);
	snprintf(cmd, sizeof cmd,
		 "cd %s && export FDTUNE_CACHE=; f=%s; s=\"sweep --compile-only -q -j 1 %s --db s.db\"\n"
		 "$f $s -r 1 -p vec=1 -p bx=32 -p by=1 > /dev/null 2>&1 || exit 1\n"
		 "for pid in 99999991 99999992 99999993; do sqlite3 s.db \"insert into sweeps(cmdline,"
		 " host, problem_id, mode, pid) values ('gone', '$(hostname)', 1, 'compile-only', $pid)\""
		 " || exit 1; done\n"
		 "$f $s -r 3 --shard 0/2 > a.log 2>&1 & a=$!; $f $s -r 3 --shard 1/2 > b.log 2>&1 & b=$!\n"
		 "wait $a; x=$?; wait $b; y=$?; cat a.log b.log; echo rc $x $y", dir, bin(), SPACE);
	expect(cmd, 0, "rc 0 0");
	assert_null(strstr(out, "locked"));
	assert_non_null(strstr(out, "marked interrupted"));
	assert_int_equal(t_count(db, "select count(*) from sweeps where status = 'interrupted'"), 3);
	assert_int_equal(t_count(db, "select count(*) from sweeps where status = 'done'"), 3);
	assert_int_equal(builds_of(db, 3), NCFG);
	assert_int_equal(t_count(db, "select count(distinct config_id) from builds b join sweeps s"
				 " on s.id = b.sweep_id join problems p on p.id = s.problem_id"
				 " where p.radius = 3"), NCFG);
	sound(db);
}

/* Where the test runs as root, a 2 MB tmpfs nearly filled by a file leaves
 * a sweep's database too little space: the sweep stops with exit 1 and a
 * message naming the database and what to do, loses nothing it recorded,
 * and resumes to its end once the filler is deleted; the sweep that the
 * full disk stopped is then 'interrupted'. The space left grows from try to
 * try until the disk fills after the first build and before the last. */
static void full_disk(void **st)
{
	char mnt[256], db[300], cmd[2048], sweep[1024], *p;
	long long built = -1;
	(void)st;
	if (geteuid() != 0) {
		print_message("full_disk: skipped: mounting a tmpfs needs root\n");
		skip();
	}
	snprintf(mnt, sizeof mnt, "%s/mnt", dir);
	snprintf(db, sizeof db, "%s/f.db", mnt);
	snprintf(sweep, sizeof sweep, "%s sweep --compile-only -q -j 2 -r 3 %s --db %s", bin(),
		 FULL_SPACE, db);
	assert_int_equal(mkdir(mnt, 0700), 0);
	for (int left = 16; built < 1 && left < 256; left += 8) {       /* 4 KB pages */
		if (mount("tmpfs", mnt, "tmpfs", 0, "size=2m")) {
			print_message("full_disk: skipped: cannot mount a tmpfs on %s: %s\n", mnt,
				      strerror(errno));
			skip();
		}
		/* the database exists (a build of another problem), then the filler */
		snprintf(cmd, sizeof cmd, "%s sweep --compile-only -q -j 1 -r 4 -n 16 -p vec=1 -p bx=32 "
			 "-p by=1 -p ypt=1 -p lds=0 -p nw=8 -p nt=0 -p pf=0 -p zu=1 --db %s && dd if=/dev/zero "
			 "of=%s/filler bs=4k count=$(( $(stat -f -c %%a %s) - %d )) 2>&1", bin(), db,
			 mnt, mnt, left);
		expect(cmd, 0, NULL);
		if (sh(sweep) == 1 && (p = strstr(out, "built=")) && (built = atoll(p + 6)) >= 1)
			break;
		built = -1;
		assert_int_equal(umount(mnt), 0);
	}
	if (built < 1)
		print_error("the sweep never stopped on a full disk after a build:\n%s\n", out);
	assert_true(built >= 1);
	assert_non_null(strstr(out, "disk full"));
	assert_non_null(strstr(out, db));                       /* the database, by name */
	assert_non_null(strstr(out, "run the same command again"));
	assert_int_equal(builds_of(db, 3), built);             /* nothing recorded is lost */
	/* space again: the same command goes on and ends */
	snprintf(cmd, sizeof cmd, "rm %s/filler && %s", mnt, sweep);
	expect(cmd, 0, "already recorded");
	assert_int_equal(builds_of(db, 3), FULL_NCFG);
	assert_int_equal(t_count(db, "select count(distinct config_id) from builds b join sweeps s on"
				 " s.id = b.sweep_id where s.problem_id = (select id from problems"
				 " where radius = 3)"), FULL_NCFG);
	assert_int_equal(t_count(db, "select count(*) from sweeps where status = 'interrupted'"), 1);
	assert_int_equal(t_count(db, "select count(*) from sweeps where status = 'done'"), 2);
	sound(db);
	assert_int_equal(umount(mnt), 0);
}

/* Runs the compile-only sweep of radius 1 over FAULT_SPACE on db with
 * FDTUNE_FAULT=fault (none when NULL); 1 when the fault was injected. */
static int faulty(const char *db, const char *fault, int *status)
{
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "%s%s %s sweep --compile-only -q -j 1 -r 1 %s --db %s",
		 fault ? "FDTUNE_FAULT=" : "", fault ? fault : "", bin(), FAULT_SPACE, db);
	*status = sh(cmd);
	return strstr(out, "FDTUNE_FAULT:") != NULL;
}

/* Each database write of a sweep fails in turn, until a run writes less
 * often than that: the sweep stops with exit 1 and says what failed (or
 * ends well, when SQLite could do without the write), the database stays
 * sound, and the same command then records the whole space, once. kind:
 * "db", an I/O error once; "full", a disk full from that write on. */
static void fault_loop(const char *kind)
{
	char db[256], fault[64], cmd[1024];
	int n, status, injected = 1;
	snprintf(db, sizeof db, "%s/fault.db", dir);
	for (n = 1; injected && n < 1000; n++) {
		snprintf(cmd, sizeof cmd, "rm -f %s %s-wal %s-shm", db, db, db);
		assert_int_equal(system(cmd), 0);
		snprintf(fault, sizeof fault, "%s:%d", kind, n);
		injected = faulty(db, fault, &status);
		if (injected && status != 0 && !strstr(out, *kind == 'f' ? "disk full" : "I/O error"))
			print_error("FDTUNE_FAULT=%s -> %d:\n%s\n", fault, status, out);
		if (injected && status != 0)
			assert_non_null(strstr(out, *kind == 'f' ? "disk full" : "I/O error"));
		if (!injected)
			assert_int_equal(status, 0);
		if (*kind == 'd' && t_count(db, "select count(*) from sqlite_master where name = 'sweeps'") > 0)
			sound(db);      /* an I/O error once: the end of the sweep is recorded */
		/* the same command without the fault records the whole space, once */
		faulty(db, NULL, &status);
		if (status)
			print_error("after FDTUNE_FAULT=%s, the same command -> %d:\n%s\n", fault,
				    status, out);
		assert_int_equal(status, 0);
		assert_int_equal(builds_of(db, 1), FAULT_NCFG);
		sound(db);
	}
	print_message("%s: a fault at each of %d database writes\n", kind, n - 2);
	assert_true(n > 20);
}

static void db_faults(void **st)
{
	(void)st;
	fault_loop("db");
}

static void full_faults(void **st)
{
	(void)st;
	fault_loop("full");
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(concurrent_writers), cmocka_unit_test(concurrent_shards),
		cmocka_unit_test(full_disk), cmocka_unit_test(db_faults),
		cmocka_unit_test(full_faults),
	};
	char mnt[256];
	int rc;
	if (!mkdtemp(dir))
		return 1;
	rc = cmocka_run_group_tests_name("robust", t, NULL, NULL);
	snprintf(mnt, sizeof mnt, "%s/mnt", dir);
	umount2(mnt, MNT_DETACH);       /* left mounted by a failed full_disk */
	t_rmtree(dir);
	return rc;
}
