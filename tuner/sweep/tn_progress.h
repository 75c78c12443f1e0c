/*
 * tn_progress.h: the progress display of long work. On a terminal: one line
 * redrawn in place with the count, the rate, the best so far and the ETA.
 * Otherwise (batch logs): the same facts as a plain line every 30 seconds.
 */
#ifndef TN_PROGRESS_H
#define TN_PROGRESS_H

struct tn_progress {
	long long total, done;
	double t0, last, best_gbs, best_pct;
	int tty, quiet;
};

void tn_progress_init(struct tn_progress *p, long long total, int quiet);
/* One item finished; gbs and pct are NaN when it was not timed. */
void tn_progress_step(struct tn_progress *p, double gbs, double pct);
void tn_progress_end(struct tn_progress *p);

#endif
