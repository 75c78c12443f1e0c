/*
 * tn_exp_one.c: tn_export, the export's driver, and the NAME.cu of one
 * kernel, or of one kernel per device (--all-devices) with the family's
 * default for any other device, picked at the first launch on each device
 * by its name. --all-sizes goes to tn_exp_sizes.c; each kind of NAME.cu has
 * its own function here or there that writes its launch switch, and every
 * kernel's launch statement is tn_exp_launch's.
 */
#include "fdt_rc.h"
#include "gen.h"
#include "tn_export.h"
#include "tn_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXDEV = 16 };

/* The runs of one export: p[0..nd) and, with all, the default as kernel nd. */
struct runs {
	int nd;
	char dev[MAXDEV][256];
	struct db_pick p[MAXDEV + 1];
	char cfg[MAXDEV + 1][512], grid[MAXDEV + 1][3][96];
	unsigned block[MAXDEV + 1][3];
	long long dyn[MAXDEV + 1];
	char *src[MAXDEV + 1];
	struct tn_measured m[MAXDEV + 1];       /* kernel i's measured build */
};

/* NAME.cu of one kernel: the generated source and NAME_launch. */
static void cu_one(FILE *o, const char *name, const struct tn_abi *abi, const struct runs *r)
{
	char kn[160];
	snprintf(kn, sizeof kn, "%s_kernel", name);
	tn_exp_preamble(o, name, r->src[0]);
	fputs("#if !defined(__CUDACC_RTC__) && !defined(__HIPCC_RTC__)\n", o);
	tn_measured_host(o, name, r->m, 1, r->dyn);
	tn_measured_query(o, name, "0");
	fprintf(o, "extern \"C\" int %s_launch(%s, struct fd_grid g,\n"
		"\t\t\t  const struct fd_coef *c, void *stream)\n{\n"
		"\tconst int nx = g.nx, ny = g.ny, nz = g.nz;\n"
		"\tconst dim3 grid(%s, %s, %s), block(%u, %u, %u);\n",
		name, abi->params, r->grid[0][0], r->grid[0][1], r->grid[0][2], r->block[0][0],
		r->block[0][1], r->block[0][2]);
	tn_exp_launch(o, abi, "\t", name, 0, kn, r->dyn[0]);
	fprintf(o, "\treturn (int)FD_RT(GetLastError)();\n}\n#endif\n");
}

/* NAME.cu for several devices: kernel i of r in namespace NAME_dI (the
 * last, NAME_dflt, the fallback), chosen at the first launch on each device
 * by the device's name. */
static void cu_devices(FILE *o, const char *name, const struct tn_abi *abi, const char *prelude,
		      const struct runs *r)
{
	const int nd = r->nd;
	tn_exp_preamble(o, name, prelude);
	for (int i = 0; i <= nd; i++) {
		char e[4 * sizeof r->dev[i]];
		if (i < nd)
			fprintf(o, "namespace %s_d%d {          /* %s */\n%s}\n\n", name, i,
				tn_exp_esc(r->dev[i], 0, e, sizeof e), r->src[i]);
		else
			fprintf(o, "namespace %s_dflt {        /* any other device */\n%s}\n\n", name,
				r->src[i]);
	}
	fprintf(o, "#if !defined(__CUDACC_RTC__) && !defined(__HIPCC_RTC__)\n");
	tn_exp_device_pick(o, name, "pick", nd, r->dev);
	tn_measured_host(o, name, r->m, nd + 1, r->dyn);
	{
		char kx[200];
		snprintf(kx, sizeof kx, "%s_pick()", name);
		tn_measured_query(o, name, kx);
	}
	fprintf(o, "extern \"C\" int %s_launch(%s, struct fd_grid g,\n"
		"\t\t\t  const struct fd_coef *c, void *stream)\n{\n"
		"\tconst int nx = g.nx, ny = g.ny, nz = g.nz;\n\tswitch (%s_pick()) {\n",
		name, abi->params, name);
	for (int i = 0; i <= nd; i++) {
		char ns[160], label[32], kn[400];
		if (i < nd) {
			snprintf(ns, sizeof ns, "%s_d%d", name, i);
			snprintf(label, sizeof label, "case %d", i);
		} else {
			snprintf(ns, sizeof ns, "%s_dflt", name);
			snprintf(label, sizeof label, "default");
		}
		snprintf(kn, sizeof kn, "%s::%s_kernel", ns, ns);
		fprintf(o, "\t%s: {\n\t\tconst dim3 grid(%s, %s, %s), block(%u, %u, %u);\n",
			label, r->grid[i][0], r->grid[i][1], r->grid[i][2], r->block[i][0],
			r->block[i][1], r->block[i][2]);
		tn_exp_launch(o, abi, "\t\t", name, i, kn, r->dyn[i]);
		fprintf(o, "\t\tbreak;\n\t}\n");
	}
	fprintf(o, "\t}\n\treturn (int)FD_RT(GetLastError)();\n}\n#endif\n");
}

/* Appends " in PATH" (the database's) to err; returns rc. */
static int in_db(int rc, const struct tn_export *x, char *err, size_t n)
{
	size_t l = strlen(err);
	snprintf(err + l, n - l, " in %s", x->db_path);
	return rc;
}

/* Where no device was named and the database records the problem on
 * several, the one picked (the fastest, p's) is said on stderr, with the
 * others and how to choose. */
static void said_device(struct db *db, const struct tn_export *x, const struct db_pick *p)
{
	struct db_filter f = x->flt;
	char dev[MAXDEV][256], e[256];
	int nd = 0;
	f.family = p->family;
	f.radius = p->radius;
	f.precision = p->precision;
	f.nx = p->nx, f.ny = p->ny, f.nz = p->nz;
	if (db_devices(db, &f, dev, MAXDEV, &nd, e, sizeof e) || nd < 2)
		return;
	fprintf(stderr, "fdtune export: %d devices record %s R=%d %dx%dx%d %s; exporting %s's "
		"best, the fastest of them (--device names the one to export, --all-devices "
		"exports each device's best):", nd, p->family, p->radius, p->nx, p->ny, p->nz,
		p->precision, p->device);
	for (int i = 0; i < nd; i++)
		fprintf(stderr, "%s %s", i ? "," : "", dev[i]);
	fputc('\n', stderr);
}

/* The runs of x into r: the best (or x->run), or with all the best of each
 * device. An fdt_rc.h status. */
static int pick(struct db *db, const struct tn_export *x, struct runs *r, char *err, size_t n)
{
	int rc;
	r->nd = 1;
	if (x->all && db_devices(db, &x->flt, r->dev, MAXDEV, &r->nd, err, n))
		return FDT_FAIL;
	if (x->all && !r->nd) {
		snprintf(err, n, "no successful runs match");
		return in_db(FDT_NOMATCH, x, err, n);
	}
	for (int i = 0; i < r->nd; i++) {
		struct db_filter one = x->flt;
		if (x->all)
			one.device = r->dev[i];
		if ((rc = db_pick(db, &one, x->run, &r->p[i], err, n)))
			return in_db(rc == FDT_NOMATCH ? FDT_NOMATCH : FDT_FAIL, x, err, n);
		if (!x->all && !x->run && !x->flt.device)
			said_device(db, x, &r->p[0]);
		if (strcmp(r->p[i].family, r->p[0].family) || r->p[i].radius != r->p[0].radius)
			return snprintf(err, n, "the devices disagree on the problem (%s R=%d and %s "
					"R=%d); give --family", r->p[0].family, r->p[0].radius,
					r->p[i].family, r->p[i].radius), FDT_FAIL;
	}
	return FDT_OK;
}

/* --all-sizes, and with fortran NAME.f90: one launch for every size, so the
 * module describes the largest size's run. */
static int by_size(struct db *db, const struct tn_export *x, char *err, size_t n)
{
	struct db_filter f = x->flt;
	struct db_pick p[1];
	char nm[128], cfg[1][512], path[4096], params[381];
	const char *name = x->name;
	const struct tn_family *fam;
	struct tn_abi abi;
	FILE *o;
	int rc;

	if (!f.precision)
		f.precision = "fp32";
	snprintf(nm, sizeof nm, "fdt_%s_r%d", f.family, f.radius);
	name = name ? name : nm;
	rc = tn_exp_sizes(db, &f, x->all, x->dir, name, x->db_path, x->which[0] ? x->which : NULL,
			  x->source_only, err, n);
	if (rc == FDT_NOMATCH)
		return in_db(rc, x, err, n);
	if (rc || !x->fortran || x->which[0])
		return rc;
	if (db_pick(db, &f, 0, &p[0], err, n) || !(fam = tn_family(f.family)))
		return FDT_FAIL;
	abi = tn_abi_of(fam);
	snprintf(cfg[0], sizeof cfg[0], "the largest recorded size's %s; NAME_launch picks one per "
		 "grid (the table in %.40s.h)", tn_exp_esc(p[0].params, 0, params, sizeof params), name);
	if (tn_exp_file(x->dir, name, ".f90", path, sizeof path, &o, err, n) ||
	    tn_exp_close(o, tn_exp_f90(o, name, &abi, p, 1, cfg, x->db_path, err, n), path, err, n))
		return FDT_FAIL;
	printf("%s/%s.f90: module %s_fdtune\n", x->dir, name, name);
	return FDT_OK;
}

/* Writes NAME.h, NAME.cu and with fortran NAME.f90 of r. */
static int write_files(const struct tn_export *x, const char *name, const struct tn_abi *abi,
		       struct runs *r, const char *prelude, char *err, size_t n)
{
	const int all = x->all, np = all ? r->nd : 1;
	char path[4096];
	FILE *f;
	if (tn_mkdirs(x->dir, err, n))
		return FDT_FAIL;
	if (tn_exp_file(x->dir, name, ".h", path, sizeof path, &f, err, n) ||
	    tn_exp_close(f, tn_exp_header(f, name, abi, r->p, np, r->cfg, x->db_path,
					  all ? r->cfg[r->nd] : NULL, NULL, r->m, all ? r->nd + 1 : 1,
					  err, n), path, err, n))
		return FDT_FAIL;
	if (tn_exp_file(x->dir, name, ".cu", path, sizeof path, &f, err, n))
		return FDT_FAIL;
	if (all)
		cu_devices(f, name, abi, prelude, r);
	else
		cu_one(f, name, abi, r);
	if (tn_exp_close(f, 0, path, err, n))
		return FDT_FAIL;
	if (x->fortran && (tn_exp_file(x->dir, name, ".f90", path, sizeof path, &f, err, n) ||
			   tn_exp_close(f, tn_exp_f90(f, name, abi, r->p, np, r->cfg, x->db_path,
						      err, n), path, err, n)))
		return FDT_FAIL;
	return FDT_OK;
}

int tn_export(struct db *db, const struct tn_export *x, char *err, size_t n)
{
	struct runs *r;
	const struct tn_family *fam;
	struct tn_abi abi;
	char nm[128], kname[200], *prelude = NULL;
	const char *name = x->name;
	int rc, v[TN_MAXP];

	if (x->sizes)
		return by_size(db, x, err, n);
	if (!(r = calloc(1, sizeof *r)))
		return snprintf(err, n, "out of memory"), FDT_FAIL;
	if ((rc = pick(db, x, r, err, n)))
		goto done;
	rc = FDT_FAIL;
	if (!(fam = tn_family(r->p[0].family))) {
		snprintf(err, n, "run %lld is of family '%s', which this fdtune does not know",
			 r->p[0].run, r->p[0].family);
		goto done;
	}
	abi = tn_abi_of(fam);
	snprintf(nm, sizeof nm, "fdt_%s_r%d", r->p[0].family, r->p[0].radius);
	name = name ? name : nm;
	for (int i = 0; i < (x->all ? r->nd + 1 : 1); i++) {
		if (!x->all)
			snprintf(kname, sizeof kname, "%s_kernel", name);
		else if (i < r->nd)
			snprintf(kname, sizeof kname, "%s_d%d_kernel", name, i);
		else
			snprintf(kname, sizeof kname, "%s_dflt_kernel", name);
		if (tn_exp_kernel(db, fam, &r->p[0], i < r->nd ? r->p[i].params : fam->dflt,
				  i == r->nd, kname, v, r->cfg[i], &r->src[i], r->grid[i], r->block[i],
				  &r->dyn[i], err, n))
			goto done;
		if (x->all && i == r->nd)
			tn_measured_none(&r->m[i], "not embedded: the family default, which no run "
					 "measured");
		else if (tn_measured_get(db, fam, &r->p[i], v, x->source_only, &r->m[i], err, n))
			goto done;
		if (!r->m[i].ok && !x->source_only && i < r->nd)
			fprintf(stderr, "fdtune export: %s R=%d on %s: %s; NAME_launch runs the kernel "
				"compiled from source\n", fam->name, r->p[0].radius, r->p[i].device,
				r->m[i].why);
	}
	if (x->all) {
		struct gen_def pd[] = { { "dbl", !strcmp(r->p[0].precision, "fp64") } };
		if (gen_source("prelude.m4", "none", pd, 1, &prelude, err, n))
			goto done;
	}
	if (write_files(x, name, &abi, r, prelude, err, n))
		goto done;
	for (int i = 0; i < r->nd; i++)
		printf("%s/%s.cu and %s.h: %s R=%d (%s), %.1f GB/s on %s%s\n", x->dir, name, name,
		       r->p[i].family, r->p[i].radius, r->cfg[i], r->p[i].gbs, r->p[i].device,
		       r->m[i].ok ? ", its measured build embedded" : "");
	if (x->all)
		printf("  and on any other device: %s\n", r->cfg[r->nd]);
	if (x->fortran)
		printf("%s/%s.f90: module %s_fdtune\n", x->dir, name, name);
	rc = FDT_OK;
done:
	for (int i = 0; i <= MAXDEV; i++) {
		free(r->src[i]);
		tn_measured_free(&r->m[i]);
	}
	free(r);
	free(prelude);
	return rc;
}
