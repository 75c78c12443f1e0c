/*
 * fdt_rule.h: the rule that picks, for a grid, which recorded size's tuned
 * configuration runs it. There is one copy of it: libfdtune (db/fdt_lib.c)
 * includes this file when it is built, and `fdtune export --all-sizes` reads
 * it from the templates directory at run time and pastes it, unchanged, into
 * the host part of NAME.cu, which runs without a database. Both build the
 * same table (the recorded sizes in the order below, each with its
 * configuration's fit from fdt_rule_fit_of) and call fdt_rule_pick, so they
 * pick the same configuration for any grid. Plain C that also compiles as
 * C++ (nvcc, hipcc), with no headers and no floating point: the same
 * integers everywhere.
 *
 * The rule: the recorded size itself when the grid was tuned; else the
 * nearest recorded size whose configuration fits the grid, the distance
 * between nx x ny x nz and mx x my x mz being
 *     log2(nx/mx)^2 + log2(ny/my)^2 + 2 log2(nz/mz)^2
 * (in 16-bit fixed point; ties go to the first in the table, which is
 * sorted by point count, then nx, ny, nz). Shape matters, not only the
 * point count: nx sets the waste of the x tile (vec x bx), ny that of the y
 * tile (by x ypt), and nz, counted twice, the z window nw, the parameter
 * whose best value moves most with the size (the number of blocks along z
 * and the share of 2R halo planes each block reads again). A grid smaller
 * than every recorded size gets the smallest in shape.
 * A configuration fits a grid when its launch stays within the limits of
 * the grid of blocks: at most 65535 blocks in grid y and grid z (grid x, up
 * to 2^31 - 1, always fits). Every kernel handles remainders, so a tile or
 * a window nw larger than the grid is correct (one block covers that axis).
 * Not checked: lds=2 addresses a plane with 32-bit offsets (planes over
 * 2^31 elements).
 */
#ifndef FDT_RULE_H
#define FDT_RULE_H

/* A recorded size and the index of the configuration tuned there. */
struct fdt_rule_size { int nx, ny, nz, kernel; };

/* What a configuration launches: the grid axis (0 x, 1 y, 2 z) that grid y
 * and grid z of the launch count blocks of, and the points per block
 * along it. */
struct fdt_rule_fit { int yaxis, ytile, zaxis, ztile; };

/* log2(x) in 16-bit fixed point, for x < 2^31; x below 1 (a damaged record:
 * no grid has it) counts as 1. */
static inline long long fdt_rule_log2q(long long x)
{
	long long m, r;
	int i = 0, b;
	if (x < 1)
		x = 1;
	while ((x >> i) > 1)
		i++;
	m = (x << 30) >> i;             /* x / 2^i in [1, 2), 30 fraction bits */
	r = (long long)i << 16;
	for (b = 15; b >= 0; b--) {
		m = (m * m) >> 30;
		if (m >= 2LL << 30) {
			m >>= 1;
			r += 1LL << b;
		}
	}
	return r;
}

/* The distance of the rule between grid nx x ny x nz and recorded size s. */
static inline long long fdt_rule_distance(const struct fdt_rule_size *s, int nx, int ny, int nz)
{
	long long dx = fdt_rule_log2q(nx) - fdt_rule_log2q(s->nx);
	long long dy = fdt_rule_log2q(ny) - fdt_rule_log2q(s->ny);
	long long dz = fdt_rule_log2q(nz) - fdt_rule_log2q(s->nz);
	return dx * dx + dy * dy + 2 * dz * dz;
}

/* 1 when configuration f can launch on grid nx x ny x nz (all >= 1). */
static inline int fdt_rule_fits(const struct fdt_rule_fit *f, int nx, int ny, int nz)
{
	const long long n[3] = { nx, ny, nz };
	return (n[f->yaxis] + f->ytile - 1) / f->ytile <= 65535 &&
	       (n[f->zaxis] + f->ztile - 1) / f->ztile <= 65535;
}

/* The index in t[0..n) of the recorded size whose configuration runs grid
 * nx x ny x nz; fit[k] is the fit of configuration k (t[i].kernel). -1 when
 * none fits (or the grid is empty). */
static inline int fdt_rule_pick(const struct fdt_rule_size *t, int n,
				const struct fdt_rule_fit *fit, int nx, int ny, int nz)
{
	long long best = -1, d;
	int i, k = -1;
	if (nx < 1 || ny < 1 || nz < 1)
		return -1;
	for (i = 0; i < n; i++) {
		if (!fdt_rule_fits(&fit[t[i].kernel], nx, ny, nz))
			continue;
		d = fdt_rule_distance(&t[i], nx, ny, nz);
		if (k < 0 || d < best) {
			best = d;
			k = i;
		}
	}
	return k;
}

#ifndef FDT_RULE_TABLE_ONLY     /* defined where the fits are a table (NAME.cu) */
static inline int fdt_rule_streq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/* The fit of a configuration from its parameters by name, as the families'
 * launch geometries use them (tuner/fam): grid y counts tiles of by x ypt
 * rows and grid z windows of nw (or nm) planes; with zd=1 (xyz) grid y
 * counts x tiles of vec x bx points and grid z the y tiles; with bz (ym),
 * grid y counts z tiles of bz planes and grid z marches of nm rows. A
 * parameter a family lacks counts 1. */
static inline void fdt_rule_fit_of(const char *const *names, const int *values, int np,
				   struct fdt_rule_fit *f)
{
	int vec = 1, bx = 1, by = 1, ypt = 1, nw = 0, nm = 1, zd = 0, bz = 0, i;
	for (i = 0; i < np; i++) {
		const char *s = names[i];
		const int v = values[i] > 0 ? values[i] : 0;
		if (fdt_rule_streq(s, "vec"))
			vec = v;
		else if (fdt_rule_streq(s, "bx"))
			bx = v;
		else if (fdt_rule_streq(s, "by"))
			by = v;
		else if (fdt_rule_streq(s, "ypt"))
			ypt = v;
		else if (fdt_rule_streq(s, "nw"))
			nw = v;
		else if (fdt_rule_streq(s, "nm"))
			nm = v;
		else if (fdt_rule_streq(s, "zd"))
			zd = values[i];
		else if (fdt_rule_streq(s, "bz"))
			bz = v;
	}
	f->yaxis = 1;
	f->ytile = by * ypt;
	f->zaxis = 2;
	f->ztile = nw ? nw : nm;
	if (zd) {
		f->yaxis = 0;
		f->ytile = vec * bx;
		f->zaxis = 1;
		f->ztile = by * ypt;
	} else if (bz) {
		f->yaxis = 2;
		f->ytile = bz;
		f->zaxis = 1;
		f->ztile = nm;
	}
	if (f->ytile < 1)
		f->ytile = 1;
	if (f->ztile < 1)
		f->ztile = 1;
}
#endif

#endif
