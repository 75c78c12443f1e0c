/*
 * tn_report.h: fdtune report's writer (tn_report.c): a markdown report of
 * the runs in the database, its plot data and the gnuplot script for them.
 */
#ifndef TN_REPORT_H
#define TN_REPORT_H

#include <stddef.h>

struct sqlite3;
/* Which runs are reported (db.h's filter: its device, family, radius and
 * precision; NULL / 0 = any). device matches the device's name or arch with
 * LIKE '%device%'; family and radius match exactly. */
struct db_filter;

/*
 * Writes DIR/report.md, DIR/plots.gp and DIR/dNpM-{nw,shape,radius}.dat from
 * the database h (opened by db_open from path, which is only quoted) for the
 * (device, problem) pairs with runs matching f, creating dir (and its
 * parents) when missing; files of the same names are replaced. *nplots = how
 * many plots plots.gp draws (each as .png and .svg, when run in dir; 0 when
 * no pair has a successful run). Returns 0; FDT_NOMATCH when no run
 * matches (nothing is written); FDT_FAIL on a database or file error. The
 * message is in err[0..n-1] whenever it does not return 0.
 */
int tn_report_write(struct sqlite3 *h, const char *path, const struct db_filter *f,
		    const char *dir, int *nplots, char *err, size_t n);

#endif
