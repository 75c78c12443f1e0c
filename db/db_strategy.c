/*
 * db_strategy.c - "which strategy wins": the rows of the v_strategies view
 * (schema version 3) for fdtune best --strategies. Each row is one xyz
 * problem on one device: the fused kernel's best time against the best
 * two-pass and three-pass evaluations of the same sum, each pass tuned on
 * its own, as a table, CSV or JSON (made by SQLite). The view's query runs
 * over a snapshot of v_passes in a temporary table, indexed: the view itself
 * evaluates v_passes (every record of the history) again for each problem,
 * 18 s on the H100's history against 1 s.
 */
#include "db.h"
#include "db_int.h"

#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#define WHERE \
	" WHERE (?1 IS NULL OR" DB_DEVICE_HAS("device", "arch", "?1") ")" \
	" AND (?2 IS NULL OR precision = ?2) AND (?3 = 0 OR radius = ?3)" \
	" AND (?4 = 0 OR (nx = ?4 AND ny = ?5 AND nz = ?6))"

#define PASSES "temp.fdt_passes"
static const char snap_sql[] =
	"DROP TABLE IF EXISTS " PASSES ";"
	"CREATE TEMP TABLE fdt_passes AS SELECT * FROM v_passes;"
	"CREATE INDEX temp.fdt_passes_problem ON fdt_passes(device, arch, radius, nx, ny, nz,"
	" precision, family, acc);";

static const char rows_sql[] =
	"SELECT device, arch, radius, nx, ny, nz, precision, fused_ms, two_pass_ms,"
	" three_pass_ms, fused_vs_two, fused_vs_three, winner FROM (" DB_STRATEGIES(PASSES) ")" WHERE
	" ORDER BY device, arch, radius, nx, ny, nz, precision";

static const char json_sql[] =
	"SELECT json_group_array(json_object('device', device, 'arch', arch, 'radius', radius,"
	" 'nx', nx, 'ny', ny, 'nz', nz, 'precision', precision, 'fused_ms', fused_ms,"
	" 'two_pass_ms', two_pass_ms, 'three_pass_ms', three_pass_ms, 'fused_vs_two',"
	" fused_vs_two, 'fused_vs_three', fused_vs_three, 'winner', winner)) FROM"
	" (SELECT * FROM (" DB_STRATEGIES(PASSES) ")" WHERE
	" ORDER BY device, arch, radius, nx, ny, nz, precision)";

static int bind(sqlite3_stmt *st, const struct db_filter *f)
{
	int rc = SQLITE_OK;
	if (f && f->device)
		rc = sqlite3_bind_text(st, 1, f->device, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK && f && f->precision)
		rc = sqlite3_bind_text(st, 2, f->precision, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int(st, 3, f ? f->radius : 0);
	for (int i = 0; rc == SQLITE_OK && i < 3; i++)
		rc = sqlite3_bind_int(st, 4 + i, f ? (&f->nx)[i] : 0);
	return rc;
}

/* A time or a speedup; "-" when the strategy has no tuned passes. */
static void num(FILE *out, sqlite3_stmt *st, int col, const char *fmt, int csv)
{
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		fputs(csv ? "" : "       -   ", out);    /* as wide as either format */
	else
		fprintf(out, csv ? "%.6g" : fmt, sqlite3_column_double(st, col));
}

int db_strategies(struct db *d, const struct db_filter *f, enum db_fmt fmt, FILE *out,
				  char *err, size_t n)
{
	sqlite3 *h;
	sqlite3_stmt *st = NULL;
	struct res q;
	int rc, rows = 0, csv = fmt == DB_CSV;

	if (db_handle(d, &h, err, n))
		return FDT_FAIL;
	/* a reader's connection is query_only (db_read.c), which refuses even a
     * temporary table: lifted for the snapshot alone, the main file untouched */
	if (db_run1(h, "PRAGMA query_only", NULL, 0, &q) != SQLITE_OK)
		return db_fail(err, n, "cannot query the strategies: %s", sqlite3_errmsg(h));
	rc = q.i[0] ? sqlite3_exec(h, "PRAGMA query_only=0", NULL, NULL, NULL) : SQLITE_OK;
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(h, snap_sql, NULL, NULL, NULL);
	if (q.i[0] && sqlite3_exec(h, "PRAGMA query_only=1", NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(err, n, "cannot make the connection read-only again: %s",
					   sqlite3_errmsg(h));
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(h, fmt == DB_JSON ? json_sql : rows_sql, -1, &st, NULL);
	if (rc != SQLITE_OK || bind(st, f) != SQLITE_OK) {
		db_fail(err, n, "cannot query the strategies: %s (is the schema older than "
				"version 3? open the database with this fdtune once to migrate it)",
				sqlite3_errmsg(h));
		sqlite3_finalize(st);
		return FDT_FAIL;
	}
	if (fmt == DB_JSON) {
		if ((rc = sqlite3_step(st)) == SQLITE_ROW &&
			strcmp((const char *)sqlite3_column_text(st, 0), "[]"))
			fprintf(out, "%s\n", sqlite3_column_text(st, 0)), rows = 1;
	} else {
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			if (!rows++)
				fputs(csv ? "device,arch,radius,nx,ny,nz,precision,fused_ms,two_pass_ms,"
							"three_pass_ms,fused_vs_two,fused_vs_three,winner\r\n" :
					  "device                          R  size            prec  "
					  "fused ms  2-pass ms  3-pass ms  vs 2-pass  vs 3-pass  winner\n", out);
			if (csv)
				fprintf(out, "\"%s\",%s,%d,%d,%d,%d,%s,", sqlite3_column_text(st, 0),
						sqlite3_column_text(st, 1), sqlite3_column_int(st, 2),
						sqlite3_column_int(st, 3), sqlite3_column_int(st, 4),
						sqlite3_column_int(st, 5), sqlite3_column_text(st, 6));
			else {
				char size[48];
				snprintf(size, sizeof size, "%dx%dx%d", sqlite3_column_int(st, 3),
						 sqlite3_column_int(st, 4), sqlite3_column_int(st, 5));
				fprintf(out, "%-30.30s %2d  %-14s  %-4s  ", sqlite3_column_text(st, 0),
						sqlite3_column_int(st, 2), size, sqlite3_column_text(st, 6));
			}
			for (int c = 7; c <= 11; c++) {
				num(out, st, c, c < 10 ? "%8.4f   " : "%7.2fx   ", csv);
				if (csv)
					fputc(',', out);
			}
			fprintf(out, csv ? "%s\r\n" : "%s\n", sqlite3_column_text(st, 12));
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return db_fail(err, n, "cannot read the strategies: %s", sqlite3_errmsg(h));
	if (!rows) {
		db_fail(err, n, "no fused xyz runs match; the strategies compare a tuned xyz "
				"sweep with sweeps of x, y, z and xy for the same problem (acc=1 for "
				"the accumulating passes): see results/h100/families.sh");
		return FDT_NOMATCH;
	}
	return 0;
}
