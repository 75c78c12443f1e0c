/*
 * db_record.c: what a sweep records: devices, problems and configurations
 * (insert-or-get), sweeps, builds and runs. Every insert is one autocommitted
 * statement with bound parameters; the _once variants insert only what no
 * other sweep recorded meanwhile, in the same statement.
 */
#include "db.h"
#include "db_int.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Values to bind (struct val, db_int.h): text, an integer, an integer that
 * is NULL unless positive or non-negative, a real that is NULL when NaN. */
static struct val txt(const char *s) { return (struct val){'s', 0, 0, s}; }
static struct val num(long long i) { return (struct val){'i', i, 0, NULL}; }
static struct val pos(long long i) { return (struct val){i > 0 ? 'i' : 'n', i, 0, NULL}; }
static struct val nneg(long long i) { return (struct val){i >= 0 ? 'i' : 'n', i, 0, NULL}; }
static struct val real(double d) { return (struct val){isnan(d) ? 'n' : 'd', 0, d, NULL}; }

/* Insert-or-get: sel and ins take the same parameters; ins must be
 * "INSERT ... ON CONFLICT DO NOTHING RETURNING id". */
static int getid(struct db *d, const char *sel, const char *ins, const struct val *v, int nv,
				 long long *id, const char *what, char *err, size_t n)
{
	struct res r;

	if (db_stmt(d->h, sel, v, nv, &r, what, err, n))
		return FDT_FAIL;
	if (!r.got && db_stmt(d->h, ins, v, nv, &r, what, err, n))
		return FDT_FAIL;
	if (!r.got && db_stmt(d->h, sel, v, nv, &r, what, err, n)) /* lost a race: now present */
		return FDT_FAIL;
	if (!r.got)
		return db_fail(err, n, "%s: row not found after insert; retry", what);
	*id = r.i[0];
	return 0;
}

/* Runs sql, an INSERT ... RETURNING id or an UPDATE of one row by id, which
 * must return or change exactly one row; *id (when id) = the returned id. */
static int one(struct db *d, const char *sql, const struct val *v, int nv, long long *id,
			   const char *what, char *err, size_t n)
{
	struct res r;

	if (db_stmt(d->h, sql, v, nv, &r, what, err, n))
		return FDT_FAIL;
	if (r.got != 1)
		return db_fail(err, n, "%s: %d rows matched, expected 1; pass an id returned by fdtune's db_ calls",
					what, r.got);
	if (id)
		*id = r.i[0];
	return 0;
}

/* As one for an INSERT ... SELECT ... RETURNING id, which may also insert
 * nothing when cond is set: *id (when id) = 0 then. */
static int once(struct db *d, const char *sql, const struct val *v, int nv, int cond,
				long long *id, const char *what, char *err, size_t n)
{
	struct res r;

	if (!cond)
		return one(d, sql, v, nv, id, what, err, n);
	if (db_stmt(d->h, sql, v, nv, &r, what, err, n))
		return FDT_FAIL;
	if (r.got > 1)
		return db_fail(err, n, "%s: %d rows inserted, expected at most 1", what, r.got);
	if (id)
		*id = r.got ? r.i[0] : 0;
	return 0;
}

static int need(const void *p, const char *what, char *err, size_t n)
{
	return p ? 0 : db_fail(err, n, "%s is required (got NULL)", what);
}

int db_device_id(struct db *d, const struct db_device *dev, long long *id, char *err, size_t n)
{
	if (need(d, "database", err, n) || need(dev, "device", err, n) || need(id, "id", err, n) ||
		need(dev->vendor, "device vendor", err, n) || need(dev->name, "device name", err, n) ||
		need(dev->arch, "device arch", err, n))
		return FDT_FAIL;
	struct val v[] = {txt(dev->vendor), txt(dev->name), txt(dev->arch),
					  txt(dev->uuid ? dev->uuid : ""), pos(dev->sms), pos(dev->mem_bytes),
					  pos(dev->l2_bytes), pos(dev->lds_per_block), pos(dev->max_threads)};
	return one(d, "INSERT INTO devices(vendor, name, arch, uuid, sms, mem_bytes, l2_bytes,"
				  " lds_per_block, max_threads) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)"
				  " ON CONFLICT(vendor, name, arch, uuid) DO UPDATE SET"
				  " sms = coalesce(excluded.sms, sms),"
				  " mem_bytes = coalesce(excluded.mem_bytes, mem_bytes),"
				  " l2_bytes = coalesce(excluded.l2_bytes, l2_bytes),"
				  " lds_per_block = coalesce(excluded.lds_per_block, lds_per_block),"
				  " max_threads = coalesce(excluded.max_threads, max_threads) RETURNING id",
			   v, 9, id, "record device", err, n);
}

int db_device_set_copy(struct db *d, long long dev, double copy_gbs, double memcpy_gbs,
					   long long bytes, char *err, size_t n)
{
	char what[64];

	if (need(d, "database", err, n))
		return FDT_FAIL;
	snprintf(what, sizeof what, "record copy calibration of device %lld", dev);
	struct val v[] = {num(dev), real(copy_gbs), real(memcpy_gbs), pos(bytes)};
	return one(d, "UPDATE devices SET copy_gbs = ?2, memcpy_gbs = ?3, copy_bytes = ?4,"
				  " calibrated_at = " NOW " WHERE id = ?1",
			   v, 4, NULL, what, err, n);
}

int db_device_copy(struct db *d, long long dev, double *copy_gbs, char *err, size_t n)
{
	struct res r;

	if (need(d, "database", err, n) || need(copy_gbs, "copy_gbs", err, n))
		return FDT_FAIL;
	struct val v[] = {num(dev)};
	if (db_stmt(d->h, "SELECT coalesce(copy_gbs, 0) FROM devices WHERE id = ?1", v, 1, &r,
			 "read copy calibration", err, n))
		return FDT_FAIL;
	if (!r.got)
		return db_fail(err, n, "no device with id %lld; pass an id from db_device_id", dev);
	*copy_gbs = r.d;
	return 0;
}

int db_problem_id(struct db *d, const char *family, int radius, int nx, int ny, int nz,
				  const char *precision, long long *id, char *err, size_t n)
{
	if (need(d, "database", err, n) || need(family, "family", err, n) ||
		need(precision, "precision", err, n) || need(id, "id", err, n))
		return FDT_FAIL;
	if (radius < 0 || nx <= 0 || ny <= 0 || nz <= 0)
		return db_fail(err, n, "invalid problem (radius %d, %dx%dx%d): radius must be >= 0, sizes > 0",
					radius, nx, ny, nz);
	struct val v[] = {txt(family), num(radius), num(nx), num(ny), num(nz), txt(precision)};
	return getid(d, "SELECT id FROM problems WHERE family = ?1 AND radius = ?2 AND nx = ?3"
					" AND ny = ?4 AND nz = ?5 AND precision = ?6",
				 "INSERT INTO problems(family, radius, nx, ny, nz, precision)"
				 " VALUES(?1,?2,?3,?4,?5,?6) ON CONFLICT DO NOTHING RETURNING id",
				 v, 6, id, "record problem", err, n);
}

int db_config_id(struct db *d, const char *family, const char *params_json, long long *id,
				 char *err, size_t n)
{
	if (need(d, "database", err, n) || need(family, "family", err, n) ||
		need(params_json, "params_json", err, n) || need(id, "id", err, n))
		return FDT_FAIL;
	struct val v[] = {txt(family), txt(params_json)};
	return getid(d, "SELECT id FROM configs WHERE family = ?1 AND params = ?2",
				 "INSERT INTO configs(family, params) VALUES(?1,?2)"
				 " ON CONFLICT DO NOTHING RETURNING id",
				 v, 2, id, "record config", err, n);
}

int db_config_find(struct db *d, const char *family, const char *params_json, long long *id,
				   char *err, size_t n)
{
	struct res r;
	if (need(d, "database", err, n) || need(family, "family", err, n) ||
		need(params_json, "params_json", err, n) || need(id, "id", err, n))
		return FDT_FAIL;
	struct val v[] = {txt(family), txt(params_json)};
	if (db_stmt(d->h, "SELECT id FROM configs WHERE family = ?1 AND params = ?2", v, 2, &r,
				"look up config", err, n))
		return FDT_FAIL;
	*id = r.got ? r.i[0] : -1;
	return 0;
}

int db_sweep_begin(struct db *d, const char *cmdline, const char *host, long long dev,
				   long long prob, const char *mode, long long *id, char *err, size_t n)
{
	if (need(d, "database", err, n) || need(cmdline, "cmdline", err, n) ||
		need(host, "host", err, n) || need(mode, "mode", err, n) || need(id, "id", err, n))
		return FDT_FAIL;
	char proc[128];
	int v5 = db_version(d) >= 5;

	if (db_proc_id((long)getpid(), proc, sizeof proc))
		proc[0] = 0;
	struct val v[] = {txt(cmdline), txt(host), pos(dev), num(prob), txt(mode),
					  num((long long)getpid()), txt(proc[0] ? proc : NULL)};
	return one(d, v5 ? "INSERT INTO sweeps(cmdline, host, device_id, problem_id, mode, pid,"
					   " proc_id) VALUES(?1,?2,?3,?4,?5,?6,?7) RETURNING id"
					 : "INSERT INTO sweeps(cmdline, host, device_id, problem_id, mode)"
					   " VALUES(?1,?2,?3,?4,?5) RETURNING id",
			   v, v5 ? 7 : 5, id, "record sweep start", err, n);
}

int db_sweep_end(struct db *d, long long id, const char *status, long long n_space,
				 long long n_pruned, const char *message, char *err, size_t n)
{
	char what[64];

	if (need(d, "database", err, n) || need(status, "status", err, n))
		return FDT_FAIL;
	if (strcmp(status, "done") && strcmp(status, "failed") && strcmp(status, "interrupted"))
		return db_fail(err, n, "sweep status '%s' is invalid; use done, failed or interrupted", status);
	snprintf(what, sizeof what, "record end of sweep %lld", id);
	struct val v[] = {num(id), txt(status), nneg(n_space), nneg(n_pruned), txt(message)};
	const char *sql = "UPDATE sweeps SET ended = " NOW ", status = ?2, n_space = ?3,"
					  " n_pruned = ?4, message = ?5 WHERE id = ?1";
	if (!one(d, sql, v, 5, NULL, what, err, n))
		return 0;
	/* on a full disk, the WAL copied into the database and truncated
     * usually leaves room for this one row */
	if (!db_full(d) || sqlite3_wal_checkpoint_v2(d->h, "main", SQLITE_CHECKPOINT_TRUNCATE, NULL,
												 NULL) != SQLITE_OK)
		return FDT_FAIL;
	return one(d, sql, v, 5, NULL, what, err, n);
}

static int build_add(struct db *d, const struct db_build *b, long long prob, long long *id,
					 char *err, size_t n)
{
	if (need(d, "database", err, n) || need(b, "build", err, n) ||
		need(b->compiler, "compiler", err, n) ||
		need(b->compiler_version, "compiler_version", err, n) || need(b->arch, "arch", err, n) ||
		need(b->options, "options", err, n) || need(b->source_hash, "source_hash", err, n) ||
		need(b->status, "build status", err, n))
		return FDT_FAIL;
	struct val v[] = {num(b->config_id), pos(b->sweep_id), txt(b->compiler),
					  txt(b->compiler_version), txt(b->arch), txt(b->options),
					  txt(b->source_hash), real(b->compile_ms), nneg(b->regs),
					  nneg(b->lds_bytes), nneg(b->spill_bytes), txt(b->status), txt(b->log),
					  pos(prob)};
	/* the condition is db_build_recorded's */
	return once(d, "INSERT INTO builds(config_id, sweep_id, compiler, compiler_version, arch,"
				   " options, source_hash, compile_ms, regs, lds_bytes, spill_bytes, status, log)"
				   " SELECT ?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13 WHERE ?14 IS NULL"
				   " OR NOT EXISTS (SELECT 1 FROM builds WHERE config_id = ?1 AND arch = ?5"
				   " AND compiler = ?3 AND status IN ('ok', 'compile_error')"
				   " AND sweep_id IN (SELECT id FROM sweeps WHERE problem_id = ?14)) RETURNING id",
				v, 14, prob > 0, id, "record build", err, n);
}

int db_build_add(struct db *d, const struct db_build *b, long long *id, char *err, size_t n)
{
	return build_add(d, b, 0, id, err, n);
}

int db_build_add_once(struct db *d, const struct db_build *b, long long prob, long long *id,
					  char *err, size_t n)
{
	if (prob <= 0)
		return db_fail(err, n, "db_build_add_once: problem id %lld is not a problem's id", prob);
	return build_add(d, b, prob, id, err, n);
}

static int run_add(struct db *d, const struct db_run *x, int cond, long long *id, char *err,
				   size_t n)
{
	if (need(d, "database", err, n) || need(x, "run", err, n) ||
		need(x->status, "run status", err, n))
		return FDT_FAIL;
	struct val v[] = {pos(x->sweep_id), pos(x->build_id), num(x->device_id),
					  num(x->problem_id), num(x->config_id), txt(x->status), txt(x->message),
					  real(x->median_ms), real(x->min_ms), real(x->max_ms), nneg(x->reps),
					  real(x->gbs), real(x->mcells), real(x->pct_copy), real(x->max_err),
					  real(x->err_bound), num(cond)};
	/* the condition is db_run_recorded's */
	return once(d, "INSERT INTO runs(sweep_id, build_id, device_id, problem_id, config_id,"
				   " status, message, median_ms, min_ms, max_ms, reps, gbs, mcells, pct_copy,"
				   " max_err, err_bound)"
				   " SELECT ?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16 WHERE ?17 = 0"
				   " OR NOT EXISTS (SELECT 1 FROM runs WHERE " DB_SAME_MODEL("?3") " AND problem_id = ?4"
				   " AND config_id = ?5 AND status IN ('ok', 'compile_error', 'wrong_result',"
				   " 'resource_limit', 'launch_error', 'timeout') AND NOT EXISTS (SELECT 1"
				   " FROM builds b WHERE b.id = runs.build_id AND b.status = 'gen_error'))"
				   " RETURNING id",
				v, 17, cond, id, "record run", err, n);
}

int db_run_add(struct db *d, const struct db_run *x, long long *id, char *err, size_t n)
{
	return run_add(d, x, 0, id, err, n);
}

int db_run_add_once(struct db *d, const struct db_run *x, long long *id, char *err, size_t n)
{
	return run_add(d, x, 1, id, err, n);
}

int db_run_recorded(struct db *d, long long dev, long long prob, long long cfg, int *yes,
					double *ms, char *err, size_t n)
{
	struct res r;

	if (need(d, "database", err, n) || need(yes, "yes", err, n))
		return FDT_FAIL;
	struct val v[] = {num(dev), num(prob), num(cfg)};
	if (ms) {
		if (db_stmt(d->h, "SELECT coalesce((SELECT median_ms FROM runs WHERE " DB_SAME_MODEL("?1")
					   " AND problem_id = ?2 AND config_id = ?3 AND status = 'ok' AND median_ms"
					   " IS NOT NULL ORDER BY created DESC, id DESC LIMIT 1), -1)", v, 3, &r,
				 "look up recorded times", err, n))
			return FDT_FAIL;
		*ms = r.d;
	}
	if (db_stmt(d->h, "SELECT count(*) FROM runs WHERE " DB_SAME_MODEL("?1") " AND problem_id = ?2"
				   " AND config_id = ?3 AND status IN ('ok', 'compile_error', 'wrong_result',"
				   " 'resource_limit', 'launch_error', 'timeout') AND NOT EXISTS (SELECT 1 FROM builds b"
				   " WHERE b.id = runs.build_id AND b.status = 'gen_error')", v, 3, &r,
			 "look up recorded runs", err, n))
		return FDT_FAIL;
	*yes = r.i[0] > 0;
	return 0;
}

int db_build_recorded(struct db *d, long long cfg, long long prob, const char *arch,
					  const char *compiler, int *yes, char *err, size_t n)
{
	struct res r;

	if (need(d, "database", err, n) || need(yes, "yes", err, n) || need(arch, "arch", err, n) ||
		need(compiler, "compiler", err, n))
		return FDT_FAIL;
	/* the source depends on the problem (radius, precision): a build counts
     * only for the problem of its sweep */
	struct val v[] = {num(cfg), txt(arch), txt(compiler), num(prob)};
	if (db_stmt(d->h, "SELECT count(*) FROM builds WHERE config_id = ?1 AND arch = ?2"
				   " AND compiler = ?3 AND status IN ('ok', 'compile_error')"
				   " AND sweep_id IN (SELECT id FROM sweeps WHERE problem_id = ?4)", v, 4, &r,
			 "look up recorded builds", err, n))
		return FDT_FAIL;
	*yes = r.i[0] > 0;
	return 0;
}

int db_energy_add(struct db *d, long long run, const struct db_energy *e, char *err, size_t n)
{
	if (need(d, "database", err, n) || need(e, "energy", err, n) ||
		need(e->source, "energy source", err, n))
		return FDT_FAIL;
	if (db_version(d) < 8)
		return db_fail(err, n, "db_energy_add: schema %d has no energy table; open the database "
					   "with db_open to migrate it", db_version(d));
	struct val v[] = {num(run), txt(e->source), real(e->joules), real(e->j_per_gpt),
					  real(e->watts), real(e->spread), real(e->seconds), num(e->windows),
					  real(e->limit_w), real(e->sm_mhz), real(e->mem_mhz)};
	return one(d, "INSERT INTO energy(run_id, source, joules, j_per_gpt, watts, spread, seconds,"
				  " windows, power_limit_w, sm_mhz, mem_mhz) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,"
				  "?10,?11) RETURNING run_id", v, 11, NULL, "record energy", err, n);
}
