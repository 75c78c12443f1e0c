/*
 * db_best.c - the "best configuration" report.  Ranks the records of each
 * (device model, problem), each configuration's newest ok run (DB_CURRENT;
 * boards of one model pool their runs), by median time, the same ordering as
 * the v_best view, filters them, and prints an aligned table for people, or
 * RFC 4180 CSV or JSON for scripts.  All rows are fetched before anything is
 * printed, so a failed query prints nothing.
 * By the energy objectives (db_filter.objective), the ranking is over each
 * configuration's measured energy (v_energy): joules a billion points, or
 * their product with the time (edp), and the energy columns are shown.
 * The filters' binding and no-match message serve db_pick.c too.
 */
#include "db.h"
#include "db_int.h"

#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

/* Result columns, in this order, of the query below. */
enum { DEV, ARCH, FAM, RAD, NX, NY, NZ, PREC, PARAMS, MS, GBS, PCT, MCELLS, REGS, SPILL,
	   REPS, RUN, RANK, JPG, WATTS, SPREAD, EDP, NEN, NQ };

#define MATCH DB_MATCH
#define RANKED \
	"SELECT device, arch, family, radius, nx, ny, nz, precision, params, median_ms, gbs," \
	" pct_copy, mcells, regs, spill_bytes, reps, run_id, rk, NULL, NULL, NULL, NULL, NULL" \
	" FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY device, arch, problem_id" \
	"                                    ORDER BY median_ms, run_id) AS rk" \
	"       FROM v_runs WHERE run_id IN (" DB_CURRENT_IDS_OF(DB_PROBLEM_MATCH) ") AND" MATCH \
	"       AND (?6 = 0 OR (nx = ?6 AND ny = ?7 AND nz = ?8)))" \
	" WHERE ?5 OR rk = 1" \
	" ORDER BY device, arch, family, radius, nx, ny, nz, precision, rk"

/* The same columns by an energy objective: the configurations with energy
 * measured, ranked by key. */
#define RANKED_BY(key) \
	"SELECT device, arch, family, radius, nx, ny, nz, precision, params, median_ms, gbs," \
	" pct_copy, mcells, regs, spill_bytes, reps, run_id, rk, j_per_gpt, watts," \
	" 100 * energy_spread, edp, n_energy" \
	" FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY device, arch, problem_id" \
	"                                    ORDER BY " key ", run_id) AS rk" \
	"       FROM v_energy WHERE" MATCH " AND (?6 = 0 OR (nx = ?6 AND ny = ?7 AND nz = ?8)))" \
	" WHERE ?5 OR rk = 1" \
	" ORDER BY device, arch, family, radius, nx, ny, nz, precision, rk"

/* by objective (enum db_objective) */
static const char *const queries[] = { RANKED, RANKED_BY("j_per_gpt"), RANKED_BY("edp") };

/* The same rows as one JSON array of objects, made by SQLite. */
#define JSON_OF(ranked, more) \
	"SELECT json_group_array(json_object('rank', rk, 'device', device, 'arch', arch," \
	" 'family', family, 'radius', radius, 'nx', nx, 'ny', ny, 'nz', nz," \
	" 'precision', precision, 'params', json(params), 'median_ms', median_ms, 'gbs', gbs," \
	" 'pct_copy', pct_copy, 'mcells', mcells, 'regs', regs, 'spill_bytes', spill_bytes," \
	" 'reps', reps, 'run_id', run_id" more ")), count(*) FROM (" ranked ")"
#define JSON_ENERGY \
	", 'j_per_gpt', j_per_gpt, 'watts', watts, 'energy_spread_pct', \"100 * energy_spread\"," \
	" 'edp', edp, 'n_energy', n_energy"
static const char *const json_queries[] = {
	JSON_OF(RANKED, ""), JSON_OF(RANKED_BY("j_per_gpt"), JSON_ENERGY),
	JSON_OF(RANKED_BY("edp"), JSON_ENERGY)
};

/* The recorded size nearest to ?6 x ?7 x ?8 (by point count) among runs that
 * match the other filters. */
static const char nearest_query[] =
	"SELECT nx, ny, nz FROM v_runs WHERE" MATCH
	" GROUP BY nx, ny, nz ORDER BY abs(nx * ny * nz - ?6 * ?7 * ?8), nx * ny * nz LIMIT 1";

/* Output columns: the query column each shows (-1 = NXxNYxNZ) and, for the
 * table, its digits after the point (-1 = text as is). */
struct col { const char *name; int q, digits; };

static const struct col tcols[] = {
	{"rank", RANK, -1}, {"device", DEV, -1}, {"family", FAM, -1}, {"R", RAD, -1},
	{"size", -1, -1}, {"prec", PREC, -1}, {"params", PARAMS, -1}, {"ms", MS, 4},
	{"GB/s", GBS, 1}, {"%copy", PCT, 1}, {"regs", REGS, -1},
	/* by an energy objective */
	{"J/Gpt", JPG, 3}, {"W", WATTS, 0}, {"spread%", SPREAD, 1}, {"n", NEN, -1},
};
static const struct col ccols[] = {
	{"rank", RANK, -1}, {"device", DEV, -1}, {"arch", ARCH, -1}, {"family", FAM, -1},
	{"radius", RAD, -1}, {"nx", NX, -1}, {"ny", NY, -1}, {"nz", NZ, -1},
	{"precision", PREC, -1}, {"params", PARAMS, -1}, {"median_ms", MS, -1}, {"gbs", GBS, -1},
	{"pct_copy", PCT, -1}, {"mcells", MCELLS, -1}, {"regs", REGS, -1},
	{"spill_bytes", SPILL, -1}, {"reps", REPS, -1}, {"run_id", RUN, -1},
	{"j_per_gpt", JPG, -1}, {"watts", WATTS, -1}, {"energy_spread_pct", SPREAD, -1},
	{"edp", EDP, -1}, {"n_energy", NEN, -1},
};
enum { NTE = 4, NCE = 5 };      /* the energy columns, last of tcols and ccols */

/* Formatted cells, row-major; every cell is an owned string. */
struct grid { char **c; size_t len, cap; };


static int put(struct grid *g, const char *s)
{
	char **c;

	if (g->len == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 256;
		if (!(c = realloc(g->c, cap * sizeof *c)))
			return FDT_FAIL;
		g->c = c;
		g->cap = cap;
	}
	if (!(g->c[g->len] = strdup(s)))
		return FDT_FAIL;
	g->len++;
	return 0;
}

/* Appends the cell for column k of the current row of st. */
static int cell(struct grid *g, sqlite3_stmt *st, const struct col *k, int csv)
{
	const unsigned char *t;
	char b[96];

	if (k->q < 0) {
		snprintf(b, sizeof b, "%dx%dx%d", sqlite3_column_int(st, NX), sqlite3_column_int(st, NY),
				 sqlite3_column_int(st, NZ));
		return put(g, b);
	}
	if (sqlite3_column_type(st, k->q) == SQLITE_NULL)
		return put(g, csv ? "" : "-");
	if (k->digits >= 0) {
		snprintf(b, sizeof b, "%.*f", k->digits, sqlite3_column_double(st, k->q));
		return put(g, b);
	}
	t = sqlite3_column_text(st, k->q);
	return t ? put(g, (const char *)t) : -1;
}

static void csvfield(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* Prints the grid, whose first row is the header: aligned columns with
 * numbers right-aligned, or CSV with CRLF line ends. */
static int print(FILE *out, const struct grid *g, const struct col *cols, size_t nc, int csv)
{
	size_t w[sizeof ccols / sizeof ccols[0]] = {0}, r, i;
	const char *sep;

	for (r = 0; r < g->len; r++)
		if (strlen(g->c[r]) > w[r % nc])
			w[r % nc] = strlen(g->c[r]);
	for (r = 0; r < g->len; r += nc) {
		for (i = 0; i < nc; i++) {
			sep = i == 0 ? "" : csv ? "," : "  ";
			if (csv) {
				fputs(sep, out);
				csvfield(out, g->c[r + i]);
			} else if (cols[i].digits >= 0 || cols[i].q == RAD || cols[i].q == REGS ||
					   cols[i].q == RANK || cols[i].q == NEN) {
				fprintf(out, "%s%*s", sep, (int)w[i], g->c[r + i]);
			} else {
				fprintf(out, "%s%-*s", sep, i == nc - 1 ? 0 : (int)w[i], g->c[r + i]);
			}
		}
		fputs(csv ? "\r\n" : "\n", out);
	}
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

static const char *opt(const char *s)
{
	return s && *s ? s : NULL;
}

static int bindtext(sqlite3_stmt *st, int i, const char *s)
{
	return opt(s) ? sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC) : sqlite3_bind_null(st, i);
}

const char *db_filter_desc(const struct db_filter *f, char *b, size_t n)
{
	int k = snprintf(b, n, " the filters (");

	if (opt(f->device))
		k += snprintf(b + k, n - (size_t)k, "device ~%.60s, ", f->device);
	if (opt(f->family))
		k += snprintf(b + k, n - (size_t)k, "family %.60s, ", f->family);
	if (opt(f->precision))
		k += snprintf(b + k, n - (size_t)k, "precision %.30s, ", f->precision);
	if (f->radius)
		k += snprintf(b + k, n - (size_t)k, "radius %d, ", f->radius);
	if (f->nx)
		k += snprintf(b + k, n - (size_t)k, "size %dx%dx%d, ", f->nx, f->ny, f->nz);
	if (b[k - 1] == '(')
		return "";
	snprintf(b + k - 2, n - (size_t)k + 2, ")");
	return b;
}

int db_filter_prepare(sqlite3 *h, const char *sql, const struct db_filter *f, int all,
				   sqlite3_stmt **st)
{
	int src = sqlite3_prepare_v2(h, sql, -1, st, NULL);
	int np = src == SQLITE_OK ? sqlite3_bind_parameter_count(*st) : 0;

	if (src == SQLITE_OK && (src = bindtext(*st, 1, f->device)) == SQLITE_OK &&
		(src = bindtext(*st, 2, f->family)) == SQLITE_OK &&
		(src = bindtext(*st, 3, f->precision)) == SQLITE_OK &&
		(src = sqlite3_bind_int(*st, 4, f->radius)) == SQLITE_OK && np >= 5 &&
		(src = sqlite3_bind_int(*st, 5, all != 0)) == SQLITE_OK &&
		(src = sqlite3_bind_int(*st, 6, f->nx)) == SQLITE_OK &&
		(src = sqlite3_bind_int(*st, 7, f->ny)) == SQLITE_OK)
		src = sqlite3_bind_int(*st, 8, f->nz);
	return src;
}

int db_filter_nomatch(sqlite3 *h, const struct db_filter *f, char *err, size_t n)
{
	sqlite3_stmt *st = NULL;
	char desc[256], near[128] = "";
	int src = db_filter_prepare(h, nearest_query, f, 0, &st);

	if (src == SQLITE_OK && f->nx && (src = sqlite3_step(st)) == SQLITE_ROW)
		snprintf(near, sizeof near, "; the nearest size recorded is %dx%dx%d (--size %dx%dx%d)",
				 sqlite3_column_int(st, 0), sqlite3_column_int(st, 1), sqlite3_column_int(st, 2),
				 sqlite3_column_int(st, 0), sqlite3_column_int(st, 1), sqlite3_column_int(st, 2));
	if (sqlite3_finalize(st) != SQLITE_OK || (src != SQLITE_OK && src != SQLITE_ROW &&
											  src != SQLITE_DONE))
		return db_fail(err, n, "db_best: query failed: %s", sqlite3_errmsg(h));
	if (f->objective != DB_OBJ_TIME)
		db_fail(err, n, "no runs with their energy measured match%s%s (fdtune sweep "
				"--recheck K --energy measures the K fastest records' on the GPU)",
				db_filter_desc(f, desc, sizeof desc), near);
	else
		db_fail(err, n, "no successful runs match%s%s", db_filter_desc(f, desc, sizeof desc),
				near);
	return FDT_NOMATCH;
}

/* DB_JSON: one array, built by SQLite's JSON functions. */
static int best_json(sqlite3 *h, const struct db_filter *f, int all, FILE *out, char *err,
					 size_t n)
{
	sqlite3_stmt *st = NULL;
	int src = db_filter_prepare(h, json_queries[f->objective], f, all, &st), rc = FDT_FAIL;

	if (src == SQLITE_OK && (src = sqlite3_step(st)) == SQLITE_ROW) {
		if (sqlite3_column_int(st, 1) == 0)
			rc = db_filter_nomatch(h, f, err, n);
		else if (fprintf(out, "%s\n", (const char *)sqlite3_column_text(st, 0)) < 0 ||
				 fflush(out))
			rc = db_fail(err, n, "db_best: writing the report failed; check the output");
		else
			rc = 0;
	} else {
		rc = db_fail(err, n, "db_best: query failed: %s", sqlite3_errmsg(h));
	}
	if (sqlite3_finalize(st) != SQLITE_OK && rc == 0)
		rc = db_fail(err, n, "db_best: %s", sqlite3_errmsg(h));
	return rc;
}

int db_best(struct db *d, const struct db_filter *f, enum db_fmt fmt, int all, FILE *out,
			char *err, size_t n)
{
	static const struct db_filter any = {NULL, NULL, NULL, 0, 0, 0, 0, DB_OBJ_TIME};
	const struct col *cols = fmt == DB_CSV ? ccols : tcols;
	size_t nc = fmt == DB_CSV ? sizeof ccols / sizeof ccols[0] : sizeof tcols / sizeof tcols[0];
	struct grid g = {NULL, 0, 0};
	sqlite3_stmt *st = NULL;
	sqlite3 *h = NULL;
	size_t i;
	int rc = FDT_FAIL, src, v;

	if (!out || (fmt != DB_TABLE && fmt != DB_CSV && fmt != DB_JSON))
		return db_fail(err, n, "db_best: an output stream and a format (DB_TABLE, DB_CSV or DB_JSON) are required");
	if (db_handle(d, &h, err, n))
		return FDT_FAIL;
	if ((v = db_version(d)) < 2)
		return db_fail(err, n, "db_best: schema version %d has no v_runs view; open the database with db_open to migrate it", v);
	f = f ? f : &any;
	if (f->objective < DB_OBJ_TIME || f->objective > DB_OBJ_EDP)
		return db_fail(err, n, "db_best: objective %d is none of time, energy, edp", f->objective);
	if (f->objective == DB_OBJ_TIME)    /* the energy columns only by energy */
		nc -= fmt == DB_CSV ? NCE : NTE;
	else if (v < 8)
		return db_fail(err, n, "db_best: this database (schema %d) has no energy measured; "
					   "measure it with fdtune sweep --recheck K --energy", v);
	if (fmt == DB_JSON)
		return best_json(h, f, all, out, err, n);
	if (!all) { /* the rank column is shown only when every run is listed */
		cols++;
		nc--;
	}
	for (i = 0; i < nc; i++) {
		if (put(&g, cols[i].name)) {
			rc = db_fail(err, n, "db_best: out of memory");
			goto done;
		}
	}
	if ((src = db_filter_prepare(h, queries[f->objective], f, all, &st)) == SQLITE_OK) {
		while ((src = sqlite3_step(st)) == SQLITE_ROW) {
			for (i = 0; i < nc; i++) {
				if (cell(&g, st, &cols[i], fmt == DB_CSV)) {
					rc = db_fail(err, n, "db_best: out of memory formatting the report");
					goto done;
				}
			}
		}
	}
	if (src != SQLITE_DONE) {
		rc = db_fail(err, n, "db_best: query failed: %s; check the database with the sqlite3 shell",
				  sqlite3_errmsg(h));
		goto done;
	}
	if (g.len == nc) {
		rc = db_filter_nomatch(h, f, err, n);
		goto done;
	}
	rc = print(out, &g, cols, nc, fmt == DB_CSV);
	if (rc)
		db_fail(err, n, "db_best: writing the report failed; check the output file or pipe");
done:
	src = sqlite3_finalize(st);
	if (src != SQLITE_OK && rc == 0)
		rc = db_fail(err, n, "db_best: %s", sqlite3_errmsg(h));
	for (i = 0; i < g.len; i++)
		free(g.c[i]);
	free(g.c);
	return rc;
}
