/*
 * tn_time.h: timing launches to a stable median (raced against the best so
 * far), and the device's copy bandwidth (tn_time.c).
 */
#ifndef TN_TIME_H
#define TN_TIME_H

#include "rt.h"

struct gen_def;

/* median, min and max are per launch (ms); reps counts the launches timed,
 * group how many made one sample (1 but for kernels under TN_SHORT_MS). */
struct tn_stats { double median, min, max; int reps, group; };

#define TN_SHORT_MS 0.05        /* kernels faster than this are timed in groups */
#define TN_GROUP_MS 0.25        /* ... of launches adding up to about this */
#define TN_GROUP_MAX 64
#define TN_HOLD_US 20.0         /* a group waits behind a hold of this */
#define TN_HOLD_PER_US 8.0      /* ... and this much per launch of the group */

/* One launch; i counts the launches of a measurement (0, 1, ...). */
typedef int (*tn_launch_fn)(void *ctx, int i, char *err, size_t n);

/* The hold that groups of launches of a kernel of microseconds wait behind:
 * templates/spin.m4 for arch when first needed (k NULL until then; the
 * process's own, tn_helper_get), let go by tn_hold_close. Zeroed, then arch
 * set, before use. */
struct tn_hold { char arch[64]; struct rt_kernel *k; };
/* Loads the hold's kernel (templates/spin.m4, once a process) unless it is
 * already: at a bench's open, so that its compile never counts in the time
 * a run is given (--timeout); 0, or 1 with err set. */
int tn_hold_open(struct tn_hold *h, char *err, size_t n);
void tn_hold_close(struct tn_hold *h);

/* A helper kernel of fdtune's own (the copy, the output check, the hold):
 * template tmpl with definitions d[0..nd), compiled for arch and loaded as
 * kernel into *k (rt_unload frees it); nonzero with err set on failure. */
int tn_helper_load(const char *tmpl, const char *kernel, const struct gen_def *d, int nd,
		   const char *arch, struct rt_kernel **k, char *err, size_t n);

/* The same kernel for the life of the process: loaded by tn_helper_load the
 * first time these (tmpl, kernel, d, arch) are asked for, and the same *k
 * every time after, from any thread; the caller must not rt_unload it. For
 * the helpers every problem needs (the check, the hold), so that a switch
 * to a problem not yet held runs neither m4 nor the compiler. */
int tn_helper_get(const char *tmpl, const char *kernel, const struct gen_def *d, int nd,
		  const char *arch, struct rt_kernel **k, char *err, size_t n);

#define TN_RACE_ONE 2.0         /* one launch over this times the best ... */
#define TN_RACE_ONE_MS 0.5      /* ... and this much over it: raced out */

/* The race: 1 when a kernel whose first k samples are s[0..k) (ms a launch;
 * a group's mean once grouped) cannot win against race_ms, the best median
 * so far (0: no race), so that its timing stops there: after 1 launch (not
 * grouped) that took over TN_RACE_ONE x race_ms and over race_ms +
 * TN_RACE_ONE_MS; after 3 when the fastest took over 1.3x; after 13 when
 * their median is over 1.1x. Else 0. The margin in ms: one first launch in
 * 17018 ran 0.2 ms long (2.4x its median), which at 0.1 ms kernels would
 * race out a winner (NOTES "v66 reviewed"). */
int tn_race_out(const double *s, int k, double race_ms);

/* Times fn until the median is stable, or less when race_ms > 0 and it
 * cannot win (tn_race_out); warm untimed launches first. h: the hold of the
 * groups (NULL: none; those then run at the pace the host launches them).
 * Nonzero status, err set, if a launch or the hold's compile failed. */
int tn_measure(struct rt_timer *t, struct tn_hold *h, tn_launch_fn fn, void *ctx, int warm,
	       double race_ms, struct tn_stats *st, char *err, size_t n);

/* Copy bandwidth of the device, reads plus writes: the best of fdtune's own
 * copy kernels (templates/copy.m4) and a device-to-device memcpy. */
int tn_calibrate(const struct rt_dev *dev, double *copy_gbs, double *memcpy_gbs,
		 long long *bytes, char *err, size_t n);

#endif
