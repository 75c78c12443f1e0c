/*
 * db_merge.c: merging one fdtune database into another, for sweeps split
 * into shards or run on several nodes. SQLite does the work: the source,
 * opened as db_read opens a database (read-only files and directories,
 * older schemas migrated in memory, nothing left beside it), is attached
 * and copied table by table in one transaction, rows
 * matched by their natural keys, so that merging the same file twice adds
 * nothing and a failure leaves the target as it was:
 *   devices (vendor, name, arch, uuid), problems and configs by their unique
 *   keys; sweeps by (cmdline, host, started, mode, device, problem), those
 *   of one key paired in order, and a sweep merged while it ran takes its
 *   final state later; builds by (config, arch, compiler, source hash,
 *   created, sweep: two problems of a plan build the same source in the
 *   same second); runs by (device, problem, config,
 *   created, status, median). Ids are remapped through those keys.
 * A device filter (temp.mkeep: the source's devices kept; temp.mall.a: 1
 * where there is no filter) keeps only those devices' rows and what they
 * name: their sweeps and those sweeps' builds, and the sweeps and builds
 * their runs point to (a sweep on several GPUs of one model is recorded
 * under its first GPU: its other builds stay behind).
 */
#include "db.h"
#include "db_int.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <sqlite3.h>

/* Maps from the source's ids to the target's, through natural keys. */
static const char merge_sql[] =
	"INSERT INTO devices(vendor, name, arch, uuid, sms, mem_bytes, l2_bytes, lds_per_block,"
	" max_threads, copy_gbs, memcpy_gbs, copy_bytes, calibrated_at)"
	" SELECT vendor, name, arch, uuid, sms, mem_bytes, l2_bytes, lds_per_block, max_threads,"
	" copy_gbs, memcpy_gbs, copy_bytes, calibrated_at FROM src.devices"
	" WHERE id IN (SELECT id FROM temp.mkeep)"
	" ON CONFLICT(vendor, name, arch, uuid) DO UPDATE SET"
	" copy_gbs = coalesce(copy_gbs, excluded.copy_gbs),"
	" memcpy_gbs = coalesce(memcpy_gbs, excluded.memcpy_gbs),"
	" copy_bytes = coalesce(copy_bytes, excluded.copy_bytes),"
	" calibrated_at = coalesce(calibrated_at, excluded.calibrated_at);"
	"INSERT INTO problems(family, radius, nx, ny, nz, precision)"
	" SELECT family, radius, nx, ny, nz, precision FROM src.problems WHERE (SELECT a FROM temp.mall)"
	" OR id IN (SELECT problem_id FROM src.runs WHERE device_id IN (SELECT id FROM temp.mkeep)"
	"  UNION SELECT problem_id FROM src.sweeps WHERE device_id IN (SELECT id FROM temp.mkeep))"
	" ON CONFLICT DO NOTHING;"
	"INSERT INTO configs(family, params) SELECT family, params FROM src.configs"
	" WHERE (SELECT a FROM temp.mall)"
	" OR id IN (SELECT config_id FROM src.runs WHERE device_id IN (SELECT id FROM temp.mkeep)"
	"  UNION SELECT config_id FROM src.builds WHERE sweep_id IN (SELECT id FROM src.sweeps"
	"   WHERE device_id IN (SELECT id FROM temp.mkeep)))"
	" ON CONFLICT DO NOTHING;"
	"CREATE TEMP TABLE mdev AS SELECT s.id AS old, t.id AS new FROM src.devices s"
	" JOIN main.devices t USING (vendor, name, arch, uuid);"
	"CREATE TEMP TABLE mprob AS SELECT s.id AS old, t.id AS new FROM src.problems s"
	" JOIN main.problems t USING (family, radius, nx, ny, nz, precision);"
	"CREATE TEMP TABLE mcfg AS SELECT s.id AS old, t.id AS new FROM src.configs s"
	" JOIN main.configs t USING (family, params);"
	/* the maps are read once a row of the source: indexed by the old id */
	"CREATE INDEX temp.mdev_old ON mdev(old); CREATE INDEX temp.mprob_old ON mprob(old);"
	"CREATE INDEX temp.mcfg_old ON mcfg(old);"
	/* sweeps of one key (the same command started in the same second) are
     * paired in the order of their ids: the k-th of the source with the k-th
     * of the target, and those past the target's count are added */
	"CREATE TEMP TABLE ssweep AS SELECT s.id AS old, s.cmdline, s.host, s.started, s.mode,"
	" (SELECT new FROM mdev WHERE old = s.device_id) AS dev,"
	" (SELECT new FROM mprob WHERE old = s.problem_id) AS prob, ROW_NUMBER() OVER (PARTITION BY"
	" s.cmdline, s.host, s.started, s.mode, s.device_id, s.problem_id ORDER BY s.id) AS k"
	" FROM src.sweeps s WHERE (SELECT a FROM temp.mall) OR s.device_id IN (SELECT id FROM temp.mkeep)"
	" OR s.id IN (SELECT sweep_id FROM src.runs WHERE device_id IN (SELECT id FROM temp.mkeep));"
	"INSERT INTO sweeps(cmdline, host, device_id, problem_id, mode, started, ended, status,"
	" n_space, n_pruned, message, pid, proc_id)"
	" SELECT s.cmdline, s.host, a.dev, a.prob, s.mode, s.started, s.ended, s.status,"
	" s.n_space, s.n_pruned, s.message, s.pid, s.proc_id FROM src.sweeps s JOIN ssweep a ON a.old = s.id"
	" WHERE a.k > (SELECT count(*) FROM main.sweeps t WHERE t.cmdline = a.cmdline"
	" AND t.host = a.host AND t.started = a.started AND t.mode = a.mode AND t.device_id IS a.dev"
	" AND t.problem_id = a.prob) ORDER BY s.id;"
	"CREATE TEMP TABLE msweep AS SELECT a.old, t.id AS new FROM ssweep a JOIN (SELECT id,"
	" cmdline, host, started, mode, device_id, problem_id, ROW_NUMBER() OVER (PARTITION BY"
	" cmdline, host, started, mode, device_id, problem_id ORDER BY id) AS k FROM main.sweeps) t"
	" ON t.cmdline = a.cmdline AND t.host = a.host AND t.started = a.started AND t.mode = a.mode"
	" AND t.device_id IS a.dev AND t.problem_id = a.prob AND t.k = a.k;"
	"CREATE INDEX temp.msweep_old ON msweep(old);"
	/* a sweep merged while it ran takes its final state, also where the
     * merge found its process gone and marked it interrupted meanwhile */
	"UPDATE main.sweeps SET status = s.status, ended = s.ended, message = s.message,"
	" n_space = s.n_space, n_pruned = s.n_pruned FROM src.sweeps s JOIN msweep m ON m.old = s.id"
	" WHERE main.sweeps.id = m.new AND main.sweeps.status IN ('running', 'interrupted')"
	" AND s.status NOT IN ('running', main.sweeps.status);"
	"INSERT INTO builds(config_id, sweep_id, compiler, compiler_version, arch, options,"
	" source_hash, compile_ms, regs, lds_bytes, spill_bytes, status, log, created)"
	" SELECT m.new, (SELECT new FROM msweep WHERE old = b.sweep_id), b.compiler,"
	" b.compiler_version, b.arch, b.options, b.source_hash, b.compile_ms, b.regs, b.lds_bytes,"
	" b.spill_bytes, b.status, b.log, b.created FROM src.builds b JOIN mcfg m ON m.old = b.config_id"
	" WHERE ((SELECT a FROM temp.mall)"
	" OR b.sweep_id IN (SELECT id FROM src.sweeps WHERE device_id IN (SELECT id FROM temp.mkeep))"
	" OR b.id IN (SELECT build_id FROM src.runs WHERE device_id IN (SELECT id FROM temp.mkeep)))"
	" AND NOT EXISTS (SELECT 1 FROM main.builds t WHERE t.config_id = m.new AND t.arch = b.arch"
	" AND t.compiler = b.compiler AND t.source_hash = b.source_hash AND t.created = b.created"
	" AND t.sweep_id IS (SELECT new FROM msweep WHERE old = b.sweep_id));"
	"CREATE TEMP TABLE mbuild AS SELECT b.id AS old, t.id AS new FROM src.builds b"
	" JOIN mcfg m ON m.old = b.config_id JOIN main.builds t ON t.config_id = m.new"
	" AND t.arch = b.arch AND t.compiler = b.compiler AND t.source_hash = b.source_hash"
	" AND t.created = b.created AND t.sweep_id IS (SELECT new FROM msweep WHERE old = b.sweep_id);"
	"CREATE INDEX temp.mbuild_old ON mbuild(old);"
	"INSERT INTO runs(sweep_id, build_id, device_id, problem_id, config_id, status, message,"
	" median_ms, min_ms, max_ms, reps, gbs, mcells, pct_copy, max_err, err_bound, created)"
	" SELECT (SELECT new FROM msweep WHERE old = r.sweep_id),"
	" (SELECT new FROM mbuild WHERE old = r.build_id), d.new, p.new, c.new, r.status, r.message,"
	" r.median_ms, r.min_ms, r.max_ms, r.reps, r.gbs, r.mcells, r.pct_copy, r.max_err,"
	" r.err_bound, r.created FROM src.runs r JOIN mdev d ON d.old = r.device_id"
	" JOIN mprob p ON p.old = r.problem_id JOIN mcfg c ON c.old = r.config_id"
	" WHERE ((SELECT a FROM temp.mall) OR r.device_id IN (SELECT id FROM temp.mkeep)) AND NOT EXISTS (SELECT 1 FROM main.runs t WHERE t.device_id = d.new"
	" AND t.problem_id = p.new AND t.config_id = c.new AND t.created = r.created"
	" AND t.status = r.status AND t.median_ms IS r.median_ms);"
	/* the energy of the runs main now has (schema 8), each found as the
     * runs themselves were */
	"INSERT OR IGNORE INTO main.energy(run_id, source, joules, j_per_gpt, watts, spread,"
	" seconds, windows, power_limit_w, sm_mhz, mem_mhz, created)"
	" SELECT t.id, e.source, e.joules, e.j_per_gpt, e.watts, e.spread, e.seconds, e.windows,"
	" e.power_limit_w, e.sm_mhz, e.mem_mhz, e.created FROM src.energy e"
	" JOIN src.runs r ON r.id = e.run_id JOIN mdev d ON d.old = r.device_id"
	" JOIN mprob p ON p.old = r.problem_id JOIN mcfg c ON c.old = r.config_id"
	" JOIN main.runs t ON t.device_id = d.new AND t.problem_id = p.new AND t.config_id = c.new"
	" AND t.created = r.created AND t.status = r.status AND t.median_ms IS r.median_ms;"
	/* the sources kept of the builds main now has (schema 7) */
	"INSERT OR IGNORE INTO main.sources(hash, codec, size, body) SELECT hash, codec, size, body"
	" FROM src.sources WHERE hash IN (SELECT source_hash FROM main.builds);";

/* Attaches the fdtune database at path to h as src, only to be read: what
 * db_read opens, so that a read-only source in a read-only directory is
 * merged and nothing is left beside it; the file itself through
 * db_read_query's URI, or, where its schema is older, the copy db_read
 * migrated in memory, deserialized into src. */
static int attach(sqlite3 *h, const char *path, char *err, size_t n)
{
	struct db *s = NULL;
	sqlite3 *sh;
	sqlite3_stmt *st = NULL;
	unsigned char *img = NULL;
	sqlite3_int64 sz = 0;
	const char *file;
	char uri[4200];
	int rc = FDT_FAIL;

	if (db_read_checked(path, &s, err, n) || db_handle(s, &sh, err, n))
		goto done;
	file = sqlite3_db_filename(sh, "main");
	if (file && *file)
		db_uri(uri, sizeof uri, path, db_read_query(path));
	else if (!(img = sqlite3_serialize(sh, "main", &sz, 0))) {
		db_fail(err, n, "reading %s: out of memory", path);
		goto done;
	} else {
		/* the copy keeps the file's WAL header, which the deserialized
         * database cannot open: bytes 18 and 19 (the file format's write
         * and read versions) say rollback journal (1) instead */
		if (sz > 19)
			img[18] = img[19] = 1;
		snprintf(uri, sizeof uri, ":memory:");
	}
	db_close(s);
	s = NULL;
	rc = sqlite3_prepare_v2(h, "ATTACH ?1 AS src", -1, &st, NULL);
	if (rc == SQLITE_OK && (rc = sqlite3_bind_text(st, 1, uri, -1, SQLITE_STATIC)) == SQLITE_OK)
		rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
	if (sqlite3_finalize(st) != SQLITE_OK || rc != SQLITE_OK) {
		rc = db_fail(err, n, "cannot attach %s: %s", path, sqlite3_errmsg(h));
		goto done;
	}
	if (img) {
		/* frees img, also when it fails */
		rc = sqlite3_deserialize(h, "src", img, sz, sz, SQLITE_DESERIALIZE_FREEONCLOSE |
								 SQLITE_DESERIALIZE_READONLY);
		img = NULL;
		if (rc != SQLITE_OK) {
			rc = db_fail(err, n, "reading %s: %s", path, sqlite3_errmsg(h));
			sqlite3_exec(h, "DETACH src", NULL, NULL, NULL);
			goto done;
		}
	}
	rc = 0;
done:
	sqlite3_free(img);
	db_close(s);
	return rc;
}

/* The source devices db_merge's filter device keeps (the header's), with
 * device bound to ?1: its name contains device, ASCII case aside, as best,
 * export and libfdtune match names; or its uuid is device. */
#define MERGE_KEEP " WHERE ?1 IS NULL OR instr(lower(name), lower(?1)) OR uuid = ?1"

/* -1 with err when src is the same file as target (which need not exist). */
static int same_file(const char *target, const char *src, char *err, size_t n)
{
	struct stat a, b;

	if (target && !stat(target, &a) && !stat(src, &b) && a.st_dev == b.st_dev &&
		a.st_ino == b.st_ino)
		return db_fail(err, n, "%s is the target itself; nothing to merge", src);
	return 0;
}

/* -1 with err where device is given and no device of src (open in h as
 * main) matches it. */
static int has_device(sqlite3 *h, const char *src, const char *device, char *err, size_t n)
{
	sqlite3_stmt *st = NULL;
	int rc, k = 0;

	if (!device)
		return 0;
	rc = sqlite3_prepare_v2(h, "SELECT count(*) FROM main.devices" MERGE_KEEP, -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, 1, device, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		k = sqlite3_column_int(st, 0);
		rc = SQLITE_OK;
	}
	if (sqlite3_finalize(st) != SQLITE_OK && rc == SQLITE_OK)
		rc = SQLITE_ERROR;
	if (rc != SQLITE_OK)
		return db_fail(err, n, "reading the devices of %s: %s", src, sqlite3_errmsg(h));
	if (!k)
		return db_fail(err, n, "%s has no device whose name contains '%s' (or whose uuid it "
					   "is); `fdtune best --db %s` names its devices", src, device, src);
	return 0;
}

int db_merge_check(const char *target, const char *src, const char *device, char *err,
				   size_t n)
{
	struct db *s = NULL;
	sqlite3 *h;
	int rc = FDT_FAIL;

	if (same_file(target, src, err, n) || db_read_checked(src, &s, err, n) ||
		db_handle(s, &h, err, n) || has_device(h, src, device, err, n))
		goto done;
	rc = 0;
done:
	db_close(s);
	return rc;
}

/* temp.mkeep and temp.mall (the header's filter) for device (NULL: all);
 * 1 with err set where device matches no device of src. */
static int keep(sqlite3 *h, const char *src, const char *device, char *err, size_t n)
{
	sqlite3_stmt *st = NULL;
	int rc, k = 0;
	rc = sqlite3_exec(h, "CREATE TEMP TABLE mkeep(id INTEGER PRIMARY KEY);"
						 "CREATE TEMP TABLE mall(a INTEGER)", NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(h, "INSERT INTO temp.mkeep SELECT id FROM src.devices"
								   MERGE_KEEP, -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, 1, device, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
	k = sqlite3_changes(h);
	if (sqlite3_finalize(st) != SQLITE_OK && rc == SQLITE_OK)
		rc = SQLITE_ERROR;
	st = NULL;
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(h, "INSERT INTO temp.mall VALUES (?1 IS NULL)", -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, 1, device, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
	if (sqlite3_finalize(st) != SQLITE_OK && rc == SQLITE_OK)
		rc = SQLITE_ERROR;
	if (rc != SQLITE_OK) {
		db_fail(err, n, "merging %s: %s", src, sqlite3_errmsg(h));
		return 1;
	}
	if (device && !k) {
		db_fail(err, n, "%s has no device whose name contains '%s' (or whose uuid it is); "
				"`fdtune best --db %s` names its devices", src, device, src);
		return 1;
	}
	return 0;
}

int db_merge(struct db *d, const char *src, const char *device, long long *runs,
			 long long *builds, char *err, size_t n)
{
	sqlite3 *h = NULL;
	sqlite3_stmt *st = NULL;
	int rc;
	long long before[2] = {0, 0}, after[2] = {0, 0};
	long long *cnt[2] = {before, after};

	if (db_handle(d, &h, err, n) || same_file(sqlite3_db_filename(h, "main"), src, err, n))
		return FDT_FAIL;
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			if (attach(h, src, err, n))
				return FDT_FAIL;
			/* deferred: the first statement takes main's write lock, and
             * src, attached read-write where this process may write it, is
             * only read */
			rc = sqlite3_exec(h, "BEGIN", NULL, NULL, NULL);
			if (rc == SQLITE_OK && keep(h, src, device, err, n)) {
				sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
				rc = SQLITE_ERROR;
				goto detach;
			}
			if (rc == SQLITE_OK)
				rc = sqlite3_exec(h, merge_sql, NULL, NULL, NULL);
			if (rc == SQLITE_OK && (rc = sqlite3_exec(h, "COMMIT", NULL, NULL, NULL)) != SQLITE_OK)
				db_fail(err, n, "committing the merge of %s: %s; the target is unchanged", src,
						sqlite3_errmsg(h));
			else if (rc != SQLITE_OK)
				db_fail(err, n, "merging %s failed: %s; the target is unchanged", src,
						sqlite3_errmsg(h));
			if (rc != SQLITE_OK) {
				if (!sqlite3_get_autocommit(h) &&
					sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL) != SQLITE_OK)
					fprintf(stderr, "fdtune: rollback: %s\n", sqlite3_errmsg(h));
				goto detach;
			}
		}
		rc = sqlite3_prepare_v2(h, "SELECT (SELECT count(*) FROM main.runs),"
								   " (SELECT count(*) FROM main.builds)", -1, &st, NULL);
		if (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
			cnt[pass][0] = sqlite3_column_int64(st, 0);
			cnt[pass][1] = sqlite3_column_int64(st, 1);
		}
		if (sqlite3_finalize(st) != SQLITE_OK || rc != SQLITE_OK) {
			rc = db_fail(err, n, "counting rows: %s", sqlite3_errmsg(h));
			if (pass)
				goto detach;
			return rc;
		}
		st = NULL;
	}
	*runs = after[0] - before[0];
	*builds = after[1] - before[1];
	rc = SQLITE_OK;
detach:
	if (sqlite3_exec(h, "DROP TABLE IF EXISTS temp.mdev; DROP TABLE IF EXISTS temp.mprob;"
						" DROP TABLE IF EXISTS temp.mkeep; DROP TABLE IF EXISTS temp.mall;"
						" DROP TABLE IF EXISTS temp.mcfg; DROP TABLE IF EXISTS temp.msweep;"
						" DROP TABLE IF EXISTS temp.ssweep;"
						" DROP TABLE IF EXISTS temp.mbuild; DETACH src", NULL, NULL, NULL)
		!= SQLITE_OK && rc == SQLITE_OK)
		rc = db_fail(err, n, "detaching %s: %s", src, sqlite3_errmsg(h));
	return rc == SQLITE_OK ? 0 : -1;
}
