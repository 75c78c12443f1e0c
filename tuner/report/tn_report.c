/*
 * tn_report.c: what fdtune report writes (tn_report.h). For each (device,
 * problem) with runs that match the filters, DIR/report.md gets a section:
 * the device's copy bandwidth, how many configurations ran and failed, the
 * ten fastest, and three plots of the effective bandwidth (against nw,
 * against the block shape bx x by, and against the radius), each under the
 * copy bandwidth drawn as the roof. SQLite ranks and groups; C only formats.
 * The plot data go to .dat files in DIR and the gnuplot commands, which draw
 * every plot as PNG and SVG, to DIR/plots.gp (gnuplot is run by the caller).
 */
#define _POSIX_C_SOURCE 200809L
#include "tn.h"
#include "tn_file.h"
#include "db.h"
#include "tn_report.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

/* The filters of f as command-line options, written into b[0..n-1]; returns
 * them without the leading space ("" when there are none). */
static const char *filters(const struct db_filter *f, char *b, size_t n)
{
	char r[32] = "";
	if (f->radius)
		snprintf(r, sizeof r, " --radius %d", f->radius);
	snprintf(b, n, "%s%s%s%s%s%s%s", f->device ? " --device " : "", f->device ? f->device : "",
		 f->family ? " --family " : "", f->family ? f->family : "", r,
		 f->precision ? " --precision " : "", f->precision ? f->precision : "");
	return *b ? b + 1 : b;
}

/* The sections: one row per (device model, problem) with runs matching ?1
 * device text, ?2 family, ?3 radius, ?4 precision (NULL / 0 = any); the
 * model's boards pool their runs (DB_SAME_MODEL), under the lowest board id,
 * and its copy bandwidth is the one last calibrated on any of them. */
enum { S_DEV_ID, S_PROB_ID, S_DEV, S_ARCH, S_FAM, S_RAD, S_NX, S_NY, S_NZ, S_PREC, S_COPY,
	   S_CONFIGS, S_RUNS, S_OK, S_FAILS };
static const char sections_sql[] =
	"SELECT min(v.device_id) AS dm, v.problem_id, v.device, v.arch, v.family, v.radius,"
	" v.nx, v.ny, v.nz, v.precision,"
	" (SELECT c.copy_gbs FROM devices c WHERE c.vendor = d.vendor AND c.name = d.name"
	"   AND c.arch = d.arch AND c.copy_gbs > 0 ORDER BY c.calibrated_at DESC LIMIT 1),"
	" count(DISTINCT v.config_id), count(*), sum(v.status = 'ok'),"
	" (SELECT group_concat(n || ' ' || status, ', ') FROM (SELECT f.status, sum(f.n) AS n"
	"   FROM v_failures f WHERE f.problem_id = v.problem_id AND f.device_id IN (SELECT m.id"
	"   FROM devices m WHERE m.vendor = d.vendor AND m.name = d.name AND m.arch = d.arch)"
	"   GROUP BY f.status))"
	" FROM v_runs v JOIN devices d ON d.id = v.device_id"
	" WHERE (?1 IS NULL OR" DB_DEVICE_HAS("v.device", "v.arch", "?1") ")"
	"  AND (?2 IS NULL OR v.family = ?2) AND (?3 = 0 OR v.radius = ?3)"
	"  AND (?4 IS NULL OR v.precision = ?4)"
	" GROUP BY d.vendor, v.device, v.arch, v.problem_id"
	" ORDER BY v.device, v.arch, v.family, v.radius, v.nx, v.ny, v.nz, v.precision";

/* The ten fastest records (v_current, copied into temp.recs) of the model of
 * board ?1, problem ?2, parameters as "k=v k=v"; each with the copy bandwidth
 * its % of copy is of (its sweep's calibration). */
static const char top_sql[] =
	"SELECT (SELECT group_concat(key || '=' || value, ' ') FROM json_each(params)),"
	" median_ms, gbs, pct_copy, regs,"
	" CASE WHEN pct_copy > 0 THEN 100.0 * gbs / pct_copy END FROM temp.recs"
	" WHERE " DB_SAME_MODEL("?1") " AND problem_id = ?2"
	" ORDER BY median_ms, run_id LIMIT 10";

#define OK_RUNS " FROM temp.recs WHERE " DB_SAME_MODEL("?1") " AND gbs IS NOT NULL"

/* One kind of plot: its query (?1 a board of the model, ?2 problem id; the best GB/s
 * per x value, in plotting order), the gnuplot lines that set the x range
 * after "stats 'FILE' ", and the plot command after "plot 'FILE' ". */
static const struct plot {
	const char *name, *what, *xlabel, *sql, *range, *body;
} plots[] = {
	{ "nw", "against nw", "nw (z planes per block; the values recorded)",
	  "SELECT json_extract(params, '$.nw') AS x, max(gbs)" OK_RUNS
	  " AND problem_id = ?2 AND x IS NOT NULL GROUP BY x ORDER BY x",
	  "using 2 nooutput\nset xrange [-0.6 : STATS_records - 0.4]\n",
	  "using 0:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best record per nw', "
	  "'' using 0:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle" },
	{ "shape", "against block shape", "block shape bx x by (threads)",
	  "SELECT bx, by_, bx || ' x ' || by_, max(gbs) FROM (SELECT gbs,"
	  " json_extract(params, '$.bx') AS bx, json_extract(params, '$.by') AS by_" OK_RUNS
	  " AND problem_id = ?2) WHERE bx IS NOT NULL AND by_ IS NOT NULL"
	  " GROUP BY bx, by_ ORDER BY bx * by_, bx",
	  "using 4 nooutput\nset xrange [-0.6 : STATS_records - 0.4]\n"
	  "set style fill solid 0.6 border -1\nset boxwidth 0.7\n",
	  "using 0:4:xtic(3) with boxes title 'best record per shape', "
	  "'' using 0:4:(sprintf('%.0f', $4)) with labels offset 0,0.8 notitle" },
	{ "radius", "against radius", "stencil radius R (order 2R)",
	  "SELECT radius, max(gbs)" OK_RUNS
	  " AND (family, nx, ny, nz, precision) ="
	  " (SELECT family, nx, ny, nz, precision FROM problems WHERE id = ?2)"
	  " GROUP BY radius ORDER BY radius",
	  "using 1 nooutput\nset xrange [STATS_min - 1 : STATS_max + 1]\n",
	  "using 1:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best record per radius', "
	  "'' using 1:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle" },
};

/* Puts "what: SQLite's message" into err; returns FDT_FAIL. */
static int sql_fail(sqlite3 *h, const char *what, char *err, size_t n)
{
	snprintf(err, n, "%s: %s", what, sqlite3_errmsg(h));
	return FDT_FAIL;
}

/* Prepares sql and binds ?1 = dev and ?2 = prob; 0 or FDT_FAIL. */
static int prep_ids(sqlite3 *h, const char *sql, long long dev, long long prob,
		    sqlite3_stmt **st, char *err, size_t n)
{
	if (sqlite3_prepare_v2(h, sql, -1, st, NULL) != SQLITE_OK)
		return sql_fail(h, "report query", err, n);
	if (sqlite3_bind_int64(*st, 1, dev) != SQLITE_OK ||
	    sqlite3_bind_int64(*st, 2, prob) != SQLITE_OK)
		return sql_fail(h, "report query", err, n);
	return FDT_OK;
}

/* Column c of st with d digits after the point, or "-" when NULL. */
static const char *num(sqlite3_stmt *st, int c, int d, char *b, size_t n)
{
	if (sqlite3_column_type(st, c) == SQLITE_NULL)
		return "-";
	snprintf(b, n, "%.*f", d, sqlite3_column_double(st, c));
	return b;
}

/* s as a gnuplot single-quoted string (no escapes but '' for '). */
static void gp_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

/* Writes the rows of sql for (dev, prob) to DIR/BASE.dat, tab-separated, text
 * quoted; *rows = their count. An empty file is removed. */
static int dump(sqlite3 *h, const char *sql, long long dev, long long prob, const char *dir,
		const char *base, int *rows, char *err, size_t n)
{
	sqlite3_stmt *st = NULL;
	FILE *f = NULL;
	char path[4096];
	int rc = FDT_FAIL, step;

	*rows = 0;
	snprintf(path, sizeof path, "%s/%s.dat", dir, base);
	if (prep_ids(h, sql, dev, prob, &st, err, n))
		goto done;
	if (!(f = fopen(path, "w"))) {
		snprintf(err, n, "cannot write %.900s: %s", path, strerror(errno));
		goto done;
	}
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		for (int c = 0; c < sqlite3_column_count(st); c++) {
			const char *sep = c ? "\t" : "";
			if (sqlite3_column_type(st, c) == SQLITE_TEXT)
				fprintf(f, "%s\"%s\"", sep, (const char *)sqlite3_column_text(st, c));
			else
				fprintf(f, "%s%.10g", sep, sqlite3_column_double(st, c));
		}
		fputc('\n', f);
		++*rows;
	}
	if (step != SQLITE_DONE) {
		sql_fail(h, "report plot data", err, n);
		goto done;
	}
	rc = 0;
done:
	if (f && fclose(f) && !rc) {
		snprintf(err, n, "cannot write %.900s: %s", path, strerror(errno));
		rc = FDT_FAIL;
	}
	if (sqlite3_finalize(st) != SQLITE_OK && !rc)
		rc = sql_fail(h, "report plot data", err, n);
	if (!*rows)
		remove(path);
	return rc;
}

/* Appends to gp the commands for plot p of one section (data in BASE.dat,
 * images BASE.png and BASE.svg; copy <= 0: no roof). */
static void gp_plot(FILE *gp, const struct plot *p, const char *base, const char *title,
		    double copy)
{
	fprintf(gp, "\nreset\nset title ");
	gp_str(gp, title);
	fprintf(gp, "\nset xlabel '%s'\nset ylabel 'effective bandwidth (GB/s)'\n"
		"set grid ytics\nset key top right\nstats '%s.dat' %s", p->xlabel, base, p->range);
	if (copy > 0)
		fprintf(gp, "copy = %.10g\nset yrange [0 : 1.25 * copy]\n"
			"set label 1 sprintf('copy bandwidth %%.0f GB/s', copy) at graph 0.01, "
			"first copy offset 0,0.7 tc rgb '#c00000'\n", copy);
	else
		fprintf(gp, "set yrange [0 : *]\nset offsets 0, 0, graph 0.2, 0\n");
	fprintf(gp, "set terminal pngcairo size 960,540 noenhanced font 'sans,11'\n"
		"set output '%s.png'\nplot '%s.dat' %s", base, base, p->body);
	if (copy > 0)
		fprintf(gp, ", copy with lines dt 2 lw 2 lc rgb '#c00000' "
			"title 'copy bandwidth (roof)'");
	fprintf(gp, "\nset terminal svg size 960,540 noenhanced font 'sans,11'\n"
		"set output '%s.svg'\nreplot\nunset output\n", base);
}

/* Time against energy (schema 8, sweep --energy): each configuration with
 * its energy measured, ms and J/Gpt, and 1 where it is on the Pareto front:
 * no other is as fast and as frugal and better in one of the two. */
static const char energy_sql[] =
	"SELECT e.median_ms, e.j_per_gpt, NOT EXISTS (SELECT 1 FROM v_energy o"
	" WHERE o." DB_SAME_MODEL("?1") " AND o.problem_id = ?2 AND o.median_ms <= e.median_ms"
	" AND o.j_per_gpt <= e.j_per_gpt AND (o.median_ms < e.median_ms"
	" OR o.j_per_gpt < e.j_per_gpt)) FROM v_energy e"
	" WHERE e." DB_SAME_MODEL("?1") " AND e.problem_id = ?2 ORDER BY e.median_ms, e.j_per_gpt";

/* The scatter of energy_sql's rows in BASE.dat, the front joined: its rows
 * go to a datablock where the others are "nan", read as missing, which a
 * line passes over (an undefined value would break it). */
static void gp_energy(FILE *gp, const char *base, const char *title)
{
	fprintf(gp, "\nreset\nset title ");
	gp_str(gp, title);
	fprintf(gp, "\nset xlabel 'median time (ms)'\nset ylabel 'energy (J per 10^9 points)'\n"
		"set grid\nset key top right\nset offsets graph 0.05, graph 0.05, graph 0.1, "
		"graph 0.05\nset table $front\nplot '%s.dat' using 1:($3 > 0 ? $2 : NaN) with table\n"
		"unset table\nset datafile missing 'nan'\nset terminal pngcairo size 960,540 noenhanced font 'sans,11'\n"
		"set output '%s.png'\nplot '%s.dat' using 1:2 with points pt 7 ps 1 lc rgb "
		"'#7f7f7f' title 'configurations measured', $front using 1:2 with "
		"linespoints pt 7 ps 1.6 lw 2 lc rgb '#c00000' title 'Pareto front'\n"
		"set terminal svg size 960,540 noenhanced font 'sans,11'\nset output '%s.svg'\n"
		"replot\nunset output\nunset datafile missing\nundefine $front\n", base, base, base, base);
}

/* Writes the section of the current row of sec into md (and its plots into
 * gp); *nplots counts the plots added. */
static int section(sqlite3 *h, sqlite3_stmt *sec, FILE *md, FILE *gp, const char *dir,
		   int *nplots, char *err, size_t n)
{
	long long dev = sqlite3_column_int64(sec, S_DEV_ID);
	long long prob = sqlite3_column_int64(sec, S_PROB_ID);
	long long configs = sqlite3_column_int64(sec, S_CONFIGS);
	long long runs = sqlite3_column_int64(sec, S_RUNS), ok = sqlite3_column_int64(sec, S_OK);
	double copy = sqlite3_column_double(sec, S_COPY);
	const char *fails = (const char *)sqlite3_column_text(sec, S_FAILS);
	char name[512], b[5][64];
	sqlite3_stmt *st = NULL;
	int rc, step, rank = 0;

	snprintf(name, sizeof name, "%s: %s R=%d %dx%dx%d %s", sqlite3_column_text(sec, S_DEV),
		 sqlite3_column_text(sec, S_FAM), sqlite3_column_int(sec, S_RAD),
		 sqlite3_column_int(sec, S_NX), sqlite3_column_int(sec, S_NY),
		 sqlite3_column_int(sec, S_NZ), sqlite3_column_text(sec, S_PREC));
	fprintf(md, "\n## %s (%s)\n\n", name, sqlite3_column_text(sec, S_ARCH));
	if (copy > 0)
		fprintf(md, "Copy bandwidth of the device, as last calibrated: %.0f GB/s (the roof "
			"in the plots). ", copy);
	else
		fprintf(md, "Copy bandwidth not measured (`fdtune devices --calibrate`): no roof. ");
	fprintf(md, "Configurations run: %lld", configs);
	if (runs != configs)
		fprintf(md, " (%lld runs)", runs);
	fprintf(md, "; %lld ok, %lld failed%s%s%s.\n\n", ok, runs - ok, fails ? " (" : "",
		fails ? fails : "", fails ? ")" : "");

	if ((rc = prep_ids(h, top_sql, dev, prob, &st, err, n)))
		goto done;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		if (!rank++)
			fprintf(md, "Each row's %% of copy is of the copy bandwidth its own sweep "
				"measured when it began (the column beside it), not of the figure "
				"above.\n\n| # | params | ms | GB/s | %% of copy | of copy GB/s | regs |\n"
				"|---:|---|---:|---:|---:|---:|---:|\n");
		fprintf(md, "| %d | `%s` | %s | %s | %s | %s | %s |\n", rank,
			sqlite3_column_text(st, 0), num(st, 1, 4, b[0], sizeof b[0]),
			num(st, 2, 1, b[1], sizeof b[1]), num(st, 3, 1, b[2], sizeof b[2]),
			num(st, 5, 0, b[4], sizeof b[4]), num(st, 4, 0, b[3], sizeof b[3]));
	}
	if (step != SQLITE_DONE) {
		rc = sql_fail(h, "report top runs", err, n);
		goto done;
	}
	if (!rank) {
		fprintf(md, "No successful runs: nothing to plot.\n");
		goto done;
	}
	for (size_t i = 0; i < sizeof plots / sizeof plots[0]; i++) {
		const struct plot *p = &plots[i];
		char base[128], title[700];
		int rows;
		snprintf(base, sizeof base, "d%lldp%lld-%s", dev, prob, p->name);
		if ((rc = dump(h, p->sql, dev, prob, dir, base, &rows, err, n)))
			goto done;
		if (!rows) {
			fprintf(md, "\nNo %s recorded: no plot %s.\n", p->name, p->what);
			continue;
		}
		snprintf(title, sizeof title, "%s - best effective bandwidth %s", name, p->what);
		gp_plot(gp, p, base, title, copy);
		fprintf(md, "\n![effective bandwidth %s](%s.png) ([SVG](%s.svg))\n", p->what,
			base, base);
		++*nplots;
	}
	{       /* the readers migrate a database in memory: v_energy is there */
		char base[128], title[700];
		int rows;
		snprintf(base, sizeof base, "d%lldp%lld-energy", dev, prob);
		if ((rc = dump(h, energy_sql, dev, prob, dir, base, &rows, err, n)))
			goto done;
		if (rows) {
			snprintf(title, sizeof title, "%s - time against energy", name);
			gp_energy(gp, base, title);
			fprintf(md, "\n![time against energy, %d configurations measured, the "
				"Pareto front joined](%s.png) ([SVG](%s.svg))\n", rows, base, base);
			++*nplots;
		}
	}
done:
	if (sqlite3_finalize(st) != SQLITE_OK && !rc)
		rc = sql_fail(h, "report top runs", err, n);
	return rc;
}

/* Writes DIR/report.md, DIR/plots.gp and the .dat files for every section
 * of sec (already bound, its first row stepped); *nplots = plots to draw. */
static int write_report(sqlite3 *h, sqlite3_stmt *sec, const char *path,
			const struct db_filter *f, const char *dir, int *nplots,
			char *err, size_t n)
{
	char mdp[4096], gpp[4096], fl[600];
	const char *fls;
	FILE *md = NULL, *gp = NULL;
	int rc = FDT_FAIL, step = SQLITE_ROW;

	snprintf(mdp, sizeof mdp, "%s/report.md", dir);
	snprintf(gpp, sizeof gpp, "%s/plots.gp", dir);
	if (!(md = fopen(mdp, "w")) || !(gp = fopen(gpp, "w"))) {
		snprintf(err, n, "cannot write %.900s: %s", md ? gpp : mdp, strerror(errno));
		goto done;
	}
	fprintf(gp, "# Made by fdtune report from %s; redraw with: cd %s && gnuplot plots.gp\n",
		path, dir);
	fprintf(md, "# fdtune report\n\nFrom `%s`", path);
	if (*(fls = filters(f, fl, sizeof fl)))
		fprintf(md, ", runs matching `%s`", fls);
	fprintf(md, ". Each point is the best record (a configuration's newest ok run; the "
		"highest effective bandwidth) for its x value; the dashed line is the device's "
		"copy bandwidth, the roof. The radius plot compares problems of the same device, "
		"family, size and precision. Plots drawn by gnuplot from `plots.gp` and the `.dat` "
		"files here.\n");
	for (; step == SQLITE_ROW; step = sqlite3_step(sec))
		if (section(h, sec, md, gp, dir, nplots, err, n))
			goto done;
	if (step != SQLITE_DONE) {
		sql_fail(h, "report sections", err, n);
		goto done;
	}
	rc = 0;
done:
	if (md && fclose(md) && !rc) {
		snprintf(err, n, "cannot write %.900s: %s", mdp, strerror(errno));
		rc = FDT_FAIL;
	}
	if (gp && fclose(gp) && !rc) {
		snprintf(err, n, "cannot write %.900s: %s", gpp, strerror(errno));
		rc = FDT_FAIL;
	}
	return rc;
}

/* Copies the records (v_current) into temp.recs, indexed by device and
 * problem, which the sections' queries read: a window over every run for
 * each radius plot would cost a report minutes on a large database. The
 * file stays untouched: query_only is lifted for that alone, then set back
 * as it was. 0 or FDT_FAIL. */
static int records(sqlite3 *h, char *err, size_t n)
{
	sqlite3_stmt *st = NULL;
	char qo[32];
	int rc = FDT_FAIL;

	if (sqlite3_prepare_v2(h, "PRAGMA query_only", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW) {
		sql_fail(h, "report records", err, n);
		goto done;
	}
	snprintf(qo, sizeof qo, "PRAGMA query_only = %d", sqlite3_column_int(st, 0));
	if (sqlite3_exec(h, "PRAGMA query_only = 0; DROP TABLE IF EXISTS temp.recs;"
			 " CREATE TEMP TABLE recs AS SELECT * FROM v_current;"
			 " CREATE INDEX temp.recs_dp ON recs(device_id, problem_id);", NULL, NULL,
			 NULL) != SQLITE_OK)
		sql_fail(h, "report records", err, n);
	else
		rc = 0;
	if (sqlite3_exec(h, qo, NULL, NULL, NULL) != SQLITE_OK && !rc)
		rc = sql_fail(h, "report records", err, n);
done:
	if (sqlite3_finalize(st) != SQLITE_OK && !rc)
		rc = sql_fail(h, "report records", err, n);
	return rc;
}

int tn_report_write(struct sqlite3 *h, const char *path, const struct db_filter *f,
		    const char *dir, int *nplots, char *err, size_t n)
{
	sqlite3_stmt *sec = NULL;
	char fl[600];
	const char *fls;
	int rc = FDT_FAIL, step;

	*nplots = 0;
	if (records(h, err, n))
		goto done;
	if (sqlite3_prepare_v2(h, sections_sql, -1, &sec, NULL) != SQLITE_OK ||
	    sqlite3_bind_text(sec, 1, f->device, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_text(sec, 2, f->family, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_int(sec, 3, f->radius) != SQLITE_OK ||
	    sqlite3_bind_text(sec, 4, f->precision, -1, SQLITE_STATIC) != SQLITE_OK) {
		sql_fail(h, "report sections", err, n);
		goto done;
	}
	if ((step = sqlite3_step(sec)) == SQLITE_DONE) {
		fls = filters(f, fl, sizeof fl);
		snprintf(err, n, "nothing to report: no runs in %.900s%s%s", path,
			 *fls ? " match " : " (fdtune sweep records them)", fls);
		rc = FDT_NOMATCH;
	} else if (step != SQLITE_ROW) {
		sql_fail(h, "report sections", err, n);
	} else if (!(rc = tn_mkdirs(dir, err, n))) {
		rc = write_report(h, sec, path, f, dir, nplots, err, n);
	}
done:
	if (sqlite3_finalize(sec) != SQLITE_OK && !rc)
		rc = sql_fail(h, "report sections", err, n);
	return rc;
}
