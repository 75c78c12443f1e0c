/*
 * db_schema.c: the schema of fdtune's results database, as the list of
 * migrations that take it from version 0 (an empty file) to the latest.
 * db.c applies them (db_open); released entries are never edited.
 */
#include "db.h"
#include "db_int.h"

#define STR_(x) #x
#define STR(x) STR_(x)

/* migrations[i] takes the schema from version i to i + 1.  Released entries
 * are never edited; changes are appended as new versions. */
const char *const db_migrations[] = {
	/* 1: tables only */
	"CREATE TABLE devices(id INTEGER PRIMARY KEY, vendor TEXT NOT NULL, name TEXT NOT NULL,\n"
	" arch TEXT NOT NULL, uuid TEXT NOT NULL DEFAULT '', sms INTEGER, mem_bytes INTEGER,\n"
	" l2_bytes INTEGER, lds_per_block INTEGER, max_threads INTEGER, copy_gbs REAL,\n"
	" memcpy_gbs REAL, copy_bytes INTEGER, calibrated_at TEXT, UNIQUE(vendor,name,arch,uuid));\n"
	"CREATE TABLE problems(id INTEGER PRIMARY KEY, family TEXT NOT NULL, radius INTEGER NOT NULL,\n"
	" nx INTEGER NOT NULL, ny INTEGER NOT NULL, nz INTEGER NOT NULL, precision TEXT NOT NULL,\n"
	" UNIQUE(family,radius,nx,ny,nz,precision));\n"
	"CREATE TABLE configs(id INTEGER PRIMARY KEY, family TEXT NOT NULL,\n"
	" params TEXT NOT NULL CHECK(json_valid(params)), UNIQUE(family,params));\n"
	"CREATE TABLE sweeps(id INTEGER PRIMARY KEY, cmdline TEXT NOT NULL, host TEXT NOT NULL,\n"
	" device_id INTEGER REFERENCES devices(id), problem_id INTEGER NOT NULL REFERENCES problems(id),\n"
	" mode TEXT NOT NULL CHECK(mode IN ('gpu','compile-only')),\n"
	" started TEXT NOT NULL DEFAULT (" NOW "), ended TEXT,\n"
	" status TEXT NOT NULL DEFAULT 'running' CHECK(status IN ('running','done','failed','interrupted')),\n"
	" n_space INTEGER, n_pruned INTEGER, message TEXT);\n"
	"CREATE TABLE builds(id INTEGER PRIMARY KEY, config_id INTEGER NOT NULL REFERENCES configs(id),\n"
	" sweep_id INTEGER REFERENCES sweeps(id), compiler TEXT NOT NULL, compiler_version TEXT NOT NULL,\n"
	" arch TEXT NOT NULL, options TEXT NOT NULL, source_hash TEXT NOT NULL, compile_ms REAL,\n"
	" regs INTEGER, lds_bytes INTEGER, spill_bytes INTEGER,\n"
	" status TEXT NOT NULL CHECK(status IN ('ok','compile_error','gen_error')), log TEXT,\n"
	" created TEXT NOT NULL DEFAULT (" NOW "));\n"
	"CREATE TABLE runs(id INTEGER PRIMARY KEY, sweep_id INTEGER REFERENCES sweeps(id),\n"
	" build_id INTEGER REFERENCES builds(id), device_id INTEGER NOT NULL REFERENCES devices(id),\n"
	" problem_id INTEGER NOT NULL REFERENCES problems(id),\n"
	" config_id INTEGER NOT NULL REFERENCES configs(id),\n"
	" status TEXT NOT NULL CHECK(status IN ('ok','compile_error','load_error','launch_error',"
	"'wrong_result','resource_limit','timeout')),\n"
	" message TEXT, median_ms REAL, min_ms REAL, max_ms REAL, reps INTEGER, gbs REAL, mcells REAL,\n"
	" pct_copy REAL, max_err REAL, err_bound REAL, created TEXT NOT NULL DEFAULT (" NOW "));\n"
	"PRAGMA application_id = " STR(DB_APPLICATION_ID) ";\n",

	/* 2: indexes, and the views used by db_best and from the sqlite3 shell */
	"CREATE INDEX runs_dev_prob_status ON runs(device_id, problem_id, status);\n"
	"CREATE INDEX builds_config ON builds(config_id);\n"
	"CREATE VIEW v_runs AS SELECT r.id AS run_id, r.sweep_id, r.build_id, r.device_id,\n"
	" d.name AS device, d.arch, r.problem_id, p.family, p.radius, p.nx, p.ny, p.nz, p.precision,\n"
	" r.config_id, c.params, b.regs, b.lds_bytes, b.spill_bytes, r.status, r.message,\n"
	" r.median_ms, r.min_ms, r.max_ms, r.reps, r.gbs, r.mcells, r.pct_copy, r.max_err,\n"
	" r.err_bound, r.created\n"
	"FROM runs r JOIN devices d ON d.id = r.device_id JOIN problems p ON p.id = r.problem_id\n"
	" JOIN configs c ON c.id = r.config_id LEFT JOIN builds b ON b.id = r.build_id;\n"
	"CREATE VIEW v_best AS SELECT device, arch, family, radius, nx, ny, nz, precision, params,\n"
	" median_ms, gbs, pct_copy, mcells, regs, spill_bytes, reps, run_id\n"
	"FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY device_id, problem_id\n"
	"                                   ORDER BY median_ms, run_id) AS rk\n"
	"      FROM v_runs WHERE status = 'ok' AND median_ms IS NOT NULL)\n"
	"WHERE rk = 1;\n"
	"CREATE VIEW v_failures AS SELECT device_id, device, arch, problem_id, family, radius,\n"
	" nx, ny, nz, precision, status, count(*) AS n\n"
	"FROM v_runs WHERE status <> 'ok' GROUP BY device_id, problem_id, status;\n",

	/* 3: the evaluation strategies of the xyz sum, from the best of each pass.
     * v_passes: the fastest ok run of each family, problem and device, apart
     * for storing (acc 0) and accumulating (acc 1) kernels. v_strategies: for
     * each xyz problem, fused (one xyz pass) against two passes (xy then z,
     * or z then xy) and three passes (one of x, y, z storing, the other two
     * accumulating), each pass its own best; speedups are over fused. */
	"CREATE VIEW v_passes AS SELECT device, arch, family, radius, nx, ny, nz, precision,\n"
	" coalesce(json_extract(params, '$.acc'), 0) AS acc, min(median_ms) AS ms\n"
	"FROM v_runs WHERE status = 'ok' AND median_ms IS NOT NULL\n"
	"GROUP BY device, arch, family, radius, nx, ny, nz, precision, acc;\n"
	"CREATE VIEW v_strategies AS " DB_STRATEGIES("v_passes") ";\n",

	/* 4: boards of one model pool their runs in v_best: a sweep over
     * --devices 0,1 shares one space out between two boards, and its best
     * is the best of both */
	"DROP VIEW v_best;\n"
	"CREATE VIEW v_best AS SELECT device, arch, family, radius, nx, ny, nz, precision, params,\n"
	" median_ms, gbs, pct_copy, mcells, regs, spill_bytes, reps, run_id\n"
	"FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY device, arch, problem_id\n"
	"                                   ORDER BY median_ms, run_id) AS rk\n"
	"      FROM v_runs WHERE status = 'ok' AND median_ms IS NOT NULL)\n"
	"WHERE rk = 1;\n",

	/* 5: the process that owns a sweep: its pid and an identity that tells it
     * from a later process with the same pid (db_proc_id), so that a sweep
     * whose process is gone can be marked interrupted (db_reap_sweeps) */
	"ALTER TABLE sweeps ADD COLUMN pid INTEGER;\n"
	"ALTER TABLE sweeps ADD COLUMN proc_id TEXT;\n",

	/* 6: a configuration's record is its newest ok run (DB_CURRENT): the view
     * v_current, and v_best and v_passes over it */
	"CREATE VIEW v_current AS " DB_CURRENT ";\n"
	"DROP VIEW v_best;\n"
	"CREATE VIEW v_best AS SELECT device, arch, family, radius, nx, ny, nz, precision, params,\n"
	" median_ms, gbs, pct_copy, mcells, regs, spill_bytes, reps, run_id\n"
	"FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY device, arch, problem_id\n"
	"                                   ORDER BY median_ms, run_id) AS rk FROM v_current)\n"
	"WHERE rk = 1;\n"
	"DROP VIEW v_passes;\n"
	"CREATE VIEW v_passes AS SELECT device, arch, family, radius, nx, ny, nz, precision,\n"
	" coalesce(json_extract(params, '$.acc'), 0) AS acc, min(median_ms) AS ms\n"
	"FROM v_current\n"
	"GROUP BY device, arch, family, radius, nx, ny, nz, precision, acc;\n",

	/* 7: the generated sources kept for the builds that matter (db_source.c),
     * once per source hash (builds.source_hash), deflated (codec 'zlib'),
     * size the length of the text */
	"CREATE TABLE sources(hash TEXT PRIMARY KEY, codec TEXT NOT NULL CHECK(codec IN ('zlib')),\n"
	" size INTEGER NOT NULL CHECK(size > 0), body BLOB NOT NULL);\n",

	/* 8: the energy of a run, measured in the process that timed it (sweep
     * --energy, db_energy.c): its launches' energy from the GPU's counter,
     * joules a launch and a billion points, the windows' mean power and
     * spread, and the power limit and clocks in force. v_energy: each
     * configuration's measurements on a device model (its runs with energy),
     * averaged, beside its record's time (v_current); edp is the
     * energy-delay product, J/Gpt times ms. */
	"CREATE TABLE energy(run_id INTEGER PRIMARY KEY REFERENCES runs(id), source TEXT NOT NULL,\n"
	" joules REAL NOT NULL, j_per_gpt REAL NOT NULL, watts REAL NOT NULL, spread REAL,\n"
	" seconds REAL NOT NULL, windows INTEGER NOT NULL, power_limit_w REAL, sm_mhz REAL,\n"
	" mem_mhz REAL, created TEXT NOT NULL DEFAULT (" NOW "));\n"
	"CREATE VIEW v_energy AS SELECT c.*, m.n_energy, m.j_per_gpt, m.watts,\n"
	" m.energy_spread, m.power_limit_w, m.sm_mhz, m.mem_mhz, m.j_per_gpt * c.median_ms AS edp\n"
	"FROM v_current c JOIN (SELECT d.name, d.arch, r.problem_id, r.config_id, count(*) AS n_energy,\n"
	"  avg(e.j_per_gpt) AS j_per_gpt, avg(e.watts) AS watts,\n"
	"  (max(e.j_per_gpt) - min(e.j_per_gpt)) / avg(e.j_per_gpt) AS energy_spread,\n"
	"  max(e.power_limit_w) AS power_limit_w, avg(e.sm_mhz) AS sm_mhz, avg(e.mem_mhz) AS mem_mhz\n"
	" FROM energy e JOIN runs r ON r.id = e.run_id JOIN devices d ON d.id = r.device_id\n"
	" GROUP BY d.name, d.arch, r.problem_id, r.config_id) m\n"
	" ON m.name = c.device AND m.arch = c.arch AND m.problem_id = c.problem_id\n"
	" AND m.config_id = c.config_id;\n",

	/* 9: the code objects kept for online tuning (db_code.c), by the compile
	 * cache's key of their source; sum is gen_hash_bytes of the code, size
	 * its length, meta the compile cache's line of the build */
	"CREATE TABLE codes(key TEXT PRIMARY KEY, arch TEXT NOT NULL, compiler TEXT NOT NULL,\n"
	" source_hash TEXT NOT NULL, meta TEXT NOT NULL,\n"
	" codec TEXT NOT NULL CHECK(codec IN ('zlib')), size INTEGER NOT NULL CHECK(size > 0),\n"
	" sum TEXT NOT NULL, body BLOB NOT NULL);\n",
};
_Static_assert(sizeof db_migrations / sizeof db_migrations[0] == DB_SCHEMA_LATEST,
			   "one migration per schema version");
