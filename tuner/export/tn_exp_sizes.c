/*
 * tn_exp_sizes.c: fdtune export --all-sizes. One NAME.cu holds the best
 * kernel of every recorded size of a problem (of one device, or of each with
 * --all-devices), one kernel per distinct configuration in its own
 * namespace, and a table of sizes -> kernel. NAME_launch picks by the grid it
 * is given with the rule of templates/fdt_rule.h, which this file reads from
 * the templates directory and pastes into NAME.cu's host code: the same code
 * that libfdtune's fdtune_lookup is built with, fed the same table (sizes
 * in db_sizes' order, fits from fdt_rule_fit_of), so both pick alike.
 */
#include "db.h"
#include "gen.h"
#include "tn_export.h"
#include "tn_file.h"
#include "../../templates/fdt_rule.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXDEV = 16, MAXE = 128 };       /* devices; (device, size) entries */

struct table {
	int nd, ne, nk;                 /* devices, entries, distinct kernels (+ default) */
	char dev[MAXDEV][256];
	int first[MAXDEV + 1];          /* device d's entries: first[d] .. first[d + 1] - 1 */
	struct db_pick p[MAXE];         /* entry e's run */
	struct fdt_rule_size size[MAXE];
	int v[MAXE + 1][TN_MAXP];       /* kernel k's values; k = nk - 1 the default */
	char cfg[MAXE + 1][512], ecfg[MAXE][512];
	struct fdt_rule_fit fit[MAXE + 1];
};

/* Kernel index of values v, added to t when new. */
static int kernel_index(struct table *t, const struct tn_family *fam, const int *v,
			const char *cfg)
{
	const char *names[TN_MAXP];
	for (int k = 0; k < t->nk; k++)
		if (!memcmp(t->v[k], v, sizeof(int) * (size_t)fam->np))
			return k;
	memcpy(t->v[t->nk], v, sizeof(int) * (size_t)fam->np);
	snprintf(t->cfg[t->nk], sizeof t->cfg[0], "%s", cfg);
	for (int i = 0; i < fam->np; i++)
		names[i] = fam->p[i].name;
	fdt_rule_fit_of(names, v, fam->np, &t->fit[t->nk]);
	return t->nk++;
}

/* The table of f's problem: devices, their sizes and best runs, kernels. */
static int build(struct db *db, const struct tn_family *fam, const struct db_filter *f, int all,
		 struct table *t, char *err, size_t n)
{
	int v[TN_MAXP], sz[MAXE][3], ns, rc;
	char cfg[512];
	if (db_devices(db, f, t->dev, MAXDEV, &t->nd, err, n))
		return FDT_FAIL;
	if (!t->nd) {
		struct db_pick p;
		rc = db_pick(db, f, 0, &p, err, n);     /* its message names the filters */
		return rc == FDT_NOMATCH ? FDT_NOMATCH : FDT_FAIL;
	}
	if (!all && t->nd > 1) {
		snprintf(err, n, "%d devices have runs of %s R=%d %s (%s, %s%s); give --device or "
			 "--all-devices", t->nd, f->family, f->radius, f->precision, t->dev[0],
			 t->dev[1], t->nd > 2 ? ", ..." : "");
		return FDT_USAGE;
	}
	for (int d = 0; d < t->nd; d++) {
		struct db_filter one = *f;
		one.device = t->dev[d];
		t->first[d] = t->ne;
		if (db_sizes(db, &one, sz, MAXE - t->ne, &ns, err, n))
			return FDT_FAIL;
		for (int s = 0; s < ns; s++) {
			struct db_pick *p = &t->p[t->ne];
			one.nx = sz[s][0];
			one.ny = sz[s][1];
			one.nz = sz[s][2];
			if ((rc = db_pick(db, &one, 0, p, err, n)))
				return rc == FDT_NOMATCH ? FDT_NOMATCH : FDT_FAIL;
			if (tn_exp_kernel(db, fam, p, p->params, 0, NULL, v, cfg, NULL, NULL, NULL, NULL, err, n))
				return FDT_FAIL;
			t->size[t->ne] = (struct fdt_rule_size){ p->nx, p->ny, p->nz,
								 kernel_index(t, fam, v, cfg) };
			snprintf(t->ecfg[t->ne], sizeof t->ecfg[0], "kernel %d: %.480s",
				 t->size[t->ne].kernel, cfg);
			t->ne++;
		}
	}
	t->first[t->nd] = t->ne;
	/* the default, also when it is one of the tuned kernels: the last */
	if (tn_exp_kernel(db, fam, &t->p[0], fam->dflt, 1, NULL, t->v[t->nk], t->cfg[t->nk], NULL,
			  NULL, NULL, NULL, err, n))
		return FDT_FAIL;
	{
		const char *names[TN_MAXP];
		for (int i = 0; i < fam->np; i++)
			names[i] = fam->p[i].name;
		fdt_rule_fit_of(names, t->v[t->nk], fam->np, &t->fit[t->nk]);
	}
	t->nk++;
	return FDT_OK;
}

/* --which: what each device's table gives grid w. */
static void which(const struct table *t, const int *w)
{
	for (int d = 0; d < t->nd; d++) {
		int i = fdt_rule_pick(t->size + t->first[d], t->first[d + 1] - t->first[d], t->fit,
				      w[0], w[1], w[2]);
		printf("%dx%dx%d on %s: ", w[0], w[1], w[2], t->dev[d]);
		if (i >= 0) {
			const struct fdt_rule_size *s = &t->size[t->first[d] + i];
			printf("%s size %dx%dx%d: %s\n", s->nx == w[0] && s->ny == w[1] && s->nz == w[2] ?
			       "tuned at its" : "the nearest recorded", s->nx, s->ny, s->nz,
			       t->cfg[s->kernel]);
		} else if (fdt_rule_fits(&t->fit[t->nk - 1], w[0], w[1], w[2])) {
			printf("the family default: %s\n", t->cfg[t->nk - 1]);
		} else {
			printf("no configuration can launch this grid\n");
		}
	}
}

/* NAME.cu: kernel k of t (src[k], geometry grid[k], block[k]) in namespace
 * NAME_kK, the default (the last) in NAME_dflt, the rule and the table. */
static void cu_sizes(FILE *o, const char *name, const struct tn_abi *abi, const struct table *t,
		    const char *prelude, const char *rule, char **src, char grid[][3][96],
		    unsigned block[][3], const long long *dyn, int all, const struct tn_measured *m)
{
	const int nk = t->nk - 1;       /* the tuned kernels; nk is the default */
	tn_exp_preamble(o, name, prelude);
	for (int k = 0; k <= nk; k++) {
		if (k < nk)
			fprintf(o, "namespace %s_k%d {          /* %s */\n%s}\n\n", name, k, t->cfg[k], src[k]);
		else
			fprintf(o, "namespace %s_dflt {        /* the family default, %s */\n%s}\n\n", name,
				t->cfg[k], src[k]);
	}
	fprintf(o, "#if !defined(__CUDACC_RTC__) && !defined(__HIPCC_RTC__)\n"
		"#define FDT_RULE_TABLE_ONLY\n%s\n", rule);
	fprintf(o, "/* Recorded sizes -> kernel, device by device, each in fdt_rule.h's order. */\n"
		"static const struct fdt_rule_size %s_sizes[%d] = {\n", name, t->ne);
	for (int e = 0; e < t->ne; e++) {
		char d[4 * sizeof t->p[e].device];
		fprintf(o, "\t{ %d, %d, %d, %d },%s%s%s\n", t->size[e].nx, t->size[e].ny,
			t->size[e].nz, t->size[e].kernel, all ? "    /* " : "",
			all ? tn_exp_esc(t->p[e].device, 0, d, sizeof d) : "", all ? " */" : "");
	}
	fprintf(o, "};\nstatic const char *const %s_size_names[%d] = {", name, t->ne);
	for (int e = 0; e < t->ne; e++)
		fprintf(o, "%s\"%dx%dx%d\"", e ? ", " : " ", t->size[e].nx, t->size[e].ny, t->size[e].nz);
	fprintf(o, " };\nstatic const int %s_first[%d] = {", name, t->nd + 1);
	for (int d = 0; d <= t->nd; d++)
		fprintf(o, "%s%d", d ? ", " : " ", t->first[d]);
	fprintf(o, " };\n/* Kernel k's fit (fdt_rule_fit_of), the default's last. */\n"
		"static const struct fdt_rule_fit %s_fits[%d] = {", name, nk + 1);
	for (int k = 0; k <= nk; k++)
		fprintf(o, "%s{ %d, %d, %d, %d }", k ? ", " : " ", t->fit[k].yaxis, t->fit[k].ytile,
			t->fit[k].zaxis, t->fit[k].ztile);
	fprintf(o, " };\nstatic const char *const %s_configs[%d] = {\n", name, nk + 1);
	for (int k = 0; k <= nk; k++)
		fprintf(o, "\t\"%s\",\n", t->cfg[k]);
	fprintf(o, "};\n\n");
	if (all) {
		tn_exp_device_pick(o, name, "device", t->nd, (const char (*)[256])t->dev);
	} else {
		fprintf(o, "static int %s_device(void)\n{\n\treturn 0;\n}\n\n", name);
	}
	tn_measured_host(o, name, m, t->nk, dyn);
	fprintf(o, "/* The kernel for grid nx x ny x nz on the current device: its index, %d\n"
		" * for the default, -1 when none fits; *e the table entry or -1. The\n"
		" * last grid asked on this thread is remembered with its answer: a time\n"
		" * loop asks the same every step, and the rule costs host time (about\n"
		" * 0.4 us) that a launch timed alone would count. */\n"
		"static int %s_kernel(int nx, int ny, int nz, int *e)\n{\n"
		"\tstatic thread_local int last[6] = { -1, 0, 0, 0, 0, 0 };   /* d nx ny nz k e */\n"
		"\tconst int d = %s_device();\n\tint i = -1, k;\n"
		"\tif (last[0] == d && last[1] == nx && last[2] == ny && last[3] == nz) {\n"
		"\t\t*e = last[5];\n\t\treturn last[4];\n\t}\n\t*e = -1;\n"
		"\tif (d < %d && (i = fdt_rule_pick(%s_sizes + %s_first[d], %s_first[d + 1] - "
		"%s_first[d],\n\t\t\t\t\t   %s_fits, nx, ny, nz)) >= 0) {\n"
		"\t\t*e = %s_first[d] + i;\n\t\tk = %s_sizes[*e].kernel;\n\t} else {\n"
		"\t\tk = nx >= 1 && ny >= 1 && nz >= 1 && fdt_rule_fits(&%s_fits[%d], nx, ny, nz) ? "
		"%d : -1;\n\t}\n"
		"\tlast[0] = d, last[1] = nx, last[2] = ny, last[3] = nz, last[4] = k, last[5] = *e;\n"
		"\treturn k;\n}\n\n", nk, name, name, t->nd, name, name, name, name, name, name, name,
		name, nk, nk);
	{
		char kx[200];
		snprintf(kx, sizeof kx, "%s_kernel(nx, ny, nz, &e)", name);
		tn_measured_query(o, name, kx);
	}
	fprintf(o, "extern \"C\" const char *%s_which(int nx, int ny, int nz, const char **size)\n{\n"
		"\tint e, k = %s_kernel(nx, ny, nz, &e);\n"
		"\tif (size)\n\t\t*size = e >= 0 ? %s_size_names[e] : \"\";\n"
		"\treturn k >= 0 ? %s_configs[k] : 0;\n}\n\n", name, name, name, name);
	fprintf(o, "extern \"C\" int %s_launch(%s, struct fd_grid g,\n"
		"\t\t\t  const struct fd_coef *c, void *stream)\n{\n"
		"\tconst int nx = g.nx, ny = g.ny, nz = g.nz;\n\tint e;\n"
		"\tswitch (%s_kernel(nx, ny, nz, &e)) {\n", name, abi->params, name);
	for (int k = 0; k <= nk; k++) {
		char ns[160];
		if (k < nk)
			snprintf(ns, sizeof ns, "%s_k%d", name, k);
		else
			snprintf(ns, sizeof ns, "%s_dflt", name);
		char kn[400];
		snprintf(kn, sizeof kn, "%s::%s_kernel", ns, ns);
		fprintf(o, "\tcase %d: {\n\t\tconst dim3 grid(%s, %s, %s), block(%u, %u, %u);\n",
			k, grid[k][0], grid[k][1], grid[k][2], block[k][0], block[k][1], block[k][2]);
		tn_exp_launch(o, abi, "\t\t", name, k, kn, dyn[k]);
		fprintf(o, "\t\tbreak;\n\t}\n");
	}
	fprintf(o, "\tdefault:\n\t\treturn (int)FD_RT(ErrorInvalidConfiguration);\n\t}\n"
		"\treturn (int)FD_RT(GetLastError)();\n}\n#endif\n");
}

int tn_exp_sizes(struct db *db, const struct db_filter *f, int all, const char *dir,
		 const char *name, const char *db_path, const int *w, int source_only, char *err,
		 size_t n)
{
	static struct table t;
	static char grid[MAXE + 1][3][96];
	static unsigned block[MAXE + 1][3];
	static long long dyn[MAXE + 1];
	static struct tn_measured m[MAXE + 1];
	const struct tn_family *fam = tn_family(f->family);
	struct tn_abi abi;
	char *src[MAXE + 1] = { 0 }, *prelude = NULL, *rule = NULL, kname[200], fpath[4096];
	char doc[1024];
	struct gen_def pd[] = { { "dbl", !strcmp(f->precision, "fp64") } };
	int rc = FDT_FAIL, v[TN_MAXP];
	FILE *o = NULL;

	memset(&t, 0, sizeof t);
	if (!fam) {
		snprintf(err, n, "unknown family '%s'; fdtune gen --list lists them", f->family);
		return FDT_USAGE;
	}
	abi = tn_abi_of(fam);
	if ((rc = build(db, fam, f, all, &t, err, n)))
		return rc;
	rc = FDT_FAIL;
	if (w) {
		which(&t, w);
		return FDT_OK;
	}
	for (int k = 0; k < t.nk; k++) {
		if (k < t.nk - 1)
			snprintf(kname, sizeof kname, "%s_k%d_kernel", name, k);
		else
			snprintf(kname, sizeof kname, "%s_dflt_kernel", name);
		/* the values of t.v[k] as JSON, so that tn_exp_kernel regenerates them */
		tn_config_json(fam, t.v[k], fpath, sizeof fpath);
		if (tn_exp_kernel(db, fam, &t.p[0], fpath, 0, kname, v, t.cfg[k], &src[k], grid[k],
				  block[k], &dyn[k], err, n))
			goto done;
		if (k == t.nk - 1) {
			tn_measured_none(&m[k], "not embedded: the family default, which no run measured");
			continue;
		}
		for (int e = 0; e < t.ne; e++)  /* the build of the first run that chose it */
			if (t.size[e].kernel == k) {
				if (tn_measured_get(db, fam, &t.p[e], t.v[k], source_only, &m[k], err, n))
					goto done;
				break;
			}
		if (!m[k].ok && !source_only)
			fprintf(stderr, "fdtune export: kernel %d (%s): %s; NAME_launch runs the kernel "
				"compiled from source\n", k, t.cfg[k], m[k].why);
	}
	if (gen_source("prelude.m4", "none", pd, 1, &prelude, err, n) ||
	    tn_exp_template("fdt_rule.h", &rule, err, n))
		goto done;
	if (tn_mkdirs(dir, err, n))
		goto done;
	snprintf(doc, sizeof doc,
		 " * %s_launch picks the kernel by the grid it is given, with the rule of\n"
		 " * fdtune's templates/fdt_rule.h (pasted into %s.cu; libfdtune's\n"
		 " * fdtune_lookup runs the same code): the kernel tuned at the grid's size on\n"
		 " * this device; else that of the nearest recorded size whose launch fits the\n"
		 " * grid (at most 65535 blocks in grid y and z), by the distance\n"
		 " *   log2(nx/mx)^2 + log2(ny/my)^2 + 2 log2(nz/mz)^2;\n"
		 " * else the family default, %s.\n"
		 " * %s_which(nx, ny, nz, &size) names what a grid gets.\n", name, name,
		 t.cfg[t.nk - 1], name);
	if (tn_exp_file(dir, name, ".h", fpath, sizeof fpath, &o, err, n) ||
	    tn_exp_close(o, tn_exp_header(o, name, &abi, t.p, t.ne, t.ecfg, db_path, NULL, doc, m,
					  t.nk, err, n), fpath, err, n))
		goto done;
	if (tn_exp_file(dir, name, ".cu", fpath, sizeof fpath, &o, err, n))
		goto done;
	cu_sizes(o, name, &abi, &t, prelude, rule, src, grid, block, dyn, all, m);
	if (tn_exp_close(o, 0, fpath, err, n))
		goto done;
	printf("%s/%s.cu and %s.h: %s R=%d %s, %d sizes on %d device%s, %d kernels and the "
	       "default\n", dir, name, name, f->family, f->radius, f->precision, t.ne, t.nd,
	       t.nd > 1 ? "s" : "", t.nk - 1);
	for (int e = 0; e < t.ne; e++)
		printf("  %dx%dx%d on %s: %s, %.1f GB/s\n", t.size[e].nx, t.size[e].ny, t.size[e].nz,
		       t.p[e].device, t.ecfg[e], t.p[e].gbs);
	rc = FDT_OK;
done:
	for (int k = 0; k <= MAXE; k++) {
		free(src[k]);
		tn_measured_free(&m[k]);
	}
	free(prelude);
	free(rule);
	return rc;
}
