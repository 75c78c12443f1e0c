/*
 * tn_progress.h: the progress display of long work. On a terminal: one line
 * redrawn in place with the count, the rate, the best so far and the ETA.
 * Otherwise (batch logs): the same facts as a plain line every 30 seconds.
 * A plan's display also names the problem at work (i of N) and its best.
 */
#ifndef TN_PROGRESS_H
#define TN_PROGRESS_H

struct tn_progress {
	long long total, done;
	double t0, last, best_gbs, best_pct;
	double end;             /* CLOCK_MONOTONIC time the work must end by; 0: none */
	char what[128];         /* the problem at work, "" for a single one */
	int tty, quiet;
};

void tn_progress_init(struct tn_progress *p, long long total, int quiet);
/* The work turns to problem i of n, named name, whose best so far is
 * gbs (pct of copy), NaN when none. */
void tn_progress_job(struct tn_progress *p, int i, int n, const char *name, double gbs,
		     double pct);
/* One item finished; gbs and pct are NaN when it was not timed. */
void tn_progress_step(struct tn_progress *p, double gbs, double pct);
void tn_progress_end(struct tn_progress *p);

#endif
