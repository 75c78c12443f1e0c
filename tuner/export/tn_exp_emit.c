/*
 * tn_exp_emit.c: the pieces every export writes (tn_export.h): the fields a
 * family's kernels take (tn_abi_of), NAME.h with the ABI of
 * templates/fdt_abi.h pasted in, the opening of a NAME.cu, the device pick
 * of exports for several devices, the launch statement of one kernel, the
 * kernel of one configuration regenerated with its launch geometry; and what
 * every file needs: outside text escaped, the files opened and closed with
 * the reason of any failure, the templates it pastes read.
 */
#include "fdt_rc.h"
#include "gen.h"
#include "tn_export.h"
#include "tn_exp_build.h"
#include "tn_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tn_abi tn_abi_of(const struct tn_family *f)
{
	if (f->steps > 0)
		return (struct tn_abi){ "fd_real *next, const fd_real *prev, const fd_real *vel",
					"next, prev, vel", "next", 1 };
	return (struct tn_abi){ "fd_real *out, const fd_real *in", "out, in", "out", 0 };
}

void tn_exp_scale(const struct tn_family *f, int a, const char *zero, char *buf, size_t n)
{
	const char h = (char)('x' + a);
	if (zero && !(f->axes >> a & 1))
		snprintf(buf, n, "%s", zero);
	else if (f->d1)
		snprintf(buf, n, "1 / h%c", h);
	else
		snprintf(buf, n, "1 / (h%c * h%c)", h, h);
}

/* Writes NAME.h for the runs p[0..np) with configurations cfg[0..np): one,
 * one per device or one per (device, size); dflt, when not NULL, the
 * configuration for any other device; rule, when not NULL, comment lines on
 * the pick by size, and NAME_which is declared. */
int tn_exp_header(FILE *o, const char *name, const struct tn_abi *abi, const struct db_pick *p,
		  int np, char cfg[][512], const char *db_path, const char *dflt, const char *rule,
		  const struct tn_measured *m, int nk, char *err, size_t n)
{
	const struct tn_family *f = tn_family(p->family);
	double w[TN_RMAX + 1];
	char s[3][32], *text;
	struct tn_exp_said q;
	if (!f || tn_coef_unit(f, p->radius, w))
		return snprintf(err, n, "no weights for %s R=%d", p->family, p->radius), FDT_FAIL;
	if (tn_exp_template("fdt_abi.h", &text, err, n))
		return FDT_FAIL;
	for (int a = 0; a < 3; a++)
		tn_exp_scale(f, a, "0", s[a], sizeof s[a]);
	tn_exp_say(p, db_path, &q);
	fprintf(o, "/*\n * %s.h: exported by fdtune from %s. DO NOT EDIT; export again.\n"
		" * %s, R = %d, order %d, %s.\n", name, q.db, p->family, p->radius,
		2 * p->radius, q.precision);
	for (int i = 0; i < np; i++) {
		struct tn_exp_said r;
		tn_exp_say(&p[i], db_path, &r);
		fprintf(o, " * %s on %s (%s), run %lld, for %dx%dx%d: %.6f ms, %.1f GB/s, %.1f%%\n"
			" *   of the copy bandwidth fdtune measured there (recorded %s); %s\n",
			np > 1 && !rule ? "Selected" : "Tuned", r.device, r.arch, p[i].run, p[i].nx,
			p[i].ny, p[i].nz, p[i].median_ms, p[i].gbs, p[i].pct_copy, r.created, cfg[i]);
	}
	if (dflt)
		fprintf(o, " * On any other device: the family default, %s\n", dflt);
	if (rule)
		fputs(rule, o);
	tn_measured_doc(o, name, m, nk);
	fprintf(o, " * Contract: %s point at interior point (0,0,0) of fields with %d halo\n"
		" * points on every side, rows of g.ld elements and planes of g.slice elements;\n"
		" * g.ld a multiple of 4 and the interior origin 16-byte aligned. Only the\n"
		" * interior of %s is written.%s\n */\n", abi->args, p->radius, abi->out,
		abi->step ? " One step: next = 2 prev - next + vel L(prev);\n"
		" * swap next and prev between steps." : "");
	fprintf(o, "#ifndef %s_H\n#define %s_H\n\ntypedef %s fd_real;   /* %s */\n\n%s\n", name, name,
		strcmp(p->precision, "fp64") ? "float" : "double", q.precision, text);
	fprintf(o, "#define %s_RADIUS %d\n%s%s%s%s%s%s\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
		"/* The weights of the %s derivatives of order %d along the axes of %s,\n"
		" * scaled by 1/h%s%s%s. */\n"
		"static inline void %s_coef(struct fd_coef *c, double hx, double hy, double hz)\n{\n"
		"\tstatic const double w[%d] = {", name, p->radius,
		abi->step ? "#define " : "", abi->step ? name : "",
		abi->step ? "_STEP 1   /* a time step: (next, prev, vel) */\n" : "",
		f->d1 ? "#define " : "", f->d1 ? name : "",
		f->d1 ? "_D1 1     /* first-derivative weights: c->c0 is 0 */\n" : "",
		f->d1 ? "first" : "second", 2 * p->radius, p->family, f->d1 ? "" : "^2",
		f->axes == 7 ? "" : "; zero on the other axes",   /* all three */
		f->d1 ? "; c0 = 0" : "", name, p->radius + 1);
	for (int k = 0; k <= p->radius; k++)
		fprintf(o, "%s%.17g", k ? ", " : " ", w[k]);
	fprintf(o, " };\n\tconst double s[3] = { %s, %s, %s };\n\tint k;\n", s[0], s[1], s[2]);
	for (int a = 0; a < 3; a++)
		if (!(f->axes >> a & 1))
			fprintf(o, "\t(void)h%c;\n", 'x' + a);
	fprintf(o, "\tfor (k = 0; k < 9; k++)\n"
		"\t\tc->x[k] = c->y[k] = c->z[k] = 0;\n"
		"\tfor (k = 1; k <= %d; k++) {\n\t\tc->x[k] = (fd_real)(w[k] * s[0]);\n"
		"\t\tc->y[k] = (fd_real)(w[k] * s[1]);\n\t\tc->z[k] = (fd_real)(w[k] * s[2]);\n\t}\n"
		"\tc->c0 = (fd_real)(w[0] * (s[0] + s[1] + s[2]));\n}\n\n"
		"/* Launches on stream (a cudaStream_t or hipStream_t, 0 for the default);\n"
		" * returns 0, or the runtime's error code for the launch. */\n"
		"int %s_launch(%s, struct fd_grid g,\n"
		"\t\tconst struct fd_coef *c, void *stream);\n\n"
		"/* 1 when %s_launch of grid nx x ny x nz on the current device runs the\n"
		" * build fdtune measured, 0 when it runs the kernel compiled from %s.cu; in\n"
		" * *why (when why is not NULL) which, and why. */\n"
		"int %s_measured(int nx, int ny, int nz, const char **why);\n\n", p->radius, name,
		abi->params, name, name, name);
	if (rule)
		fprintf(o, "/* The configuration %s_launch runs on the current device for grid\n"
			" * nx x ny x nz (\"vec=2 bx=64 ...\"), and in *size (when size is not NULL)\n"
			" * the recorded size it was tuned at, \"\" for the family default (also on\n"
			" * a device not listed). NULL when none can launch that grid. */\n"
			"const char *%s_which(int nx, int ny, int nz, const char **size);\n"
			"#define %s_BY_SIZE 1\n\n", name, name, name);
	fprintf(o, "#ifdef __cplusplus\n}\n#endif\n#endif\n");
	free(text);
	return FDT_OK;
}

void tn_exp_launch(FILE *o, const struct tn_abi *abi, const char *ind, const char *name, int k,
		   const char *kernel, long long dyn)
{
	tn_measured_launch(o, ind, name, k, abi->args, dyn);
	if (dyn > 48 * 1024)
		fprintf(o, "%s{\t/* %lld bytes of dynamic LDS: over 48 KiB, the opt-in */\n"
			"%s\tconst int e = (int)FD_RT(FuncSetAttribute)((const void *)%s,\n"
			"%s\t\tFD_RT(FuncAttributeMaxDynamicSharedMemorySize), %lld);\n"
			"%s\tif (e)\n%s\t\treturn e;\n%s}\n", ind, dyn, ind, kernel, ind, dyn,
			ind, ind, ind);
	fprintf(o, "%s%s<<<grid, block, %lld, (FD_RT(Stream_t))stream>>>(%s, g, *c);\n", ind,
		kernel, dyn, abi->args);
}

/* The opening of a NAME.cu: banner, the runtime's
 * header for nvcc or hipcc (FD_RT, FD_PROP name its API), NAME.h, prelude. */
void tn_exp_preamble(FILE *o, const char *name, const char *prelude)
{
	fprintf(o, "/* %s.cu: see %s.h. DO NOT EDIT; export again. */\n"
		"#if !defined(__CUDACC_RTC__) && !defined(__HIPCC_RTC__)\n"
		"#if defined(__HIPCC__)\n#include <hip/hip_runtime.h>\n#define FD_RT(x) hip##x\n"
		"#define FD_PROP hipDeviceProp_t\n#else\n#include <cuda_runtime.h>\n"
		"#define FD_RT(x) cuda##x\n#define FD_PROP cudaDeviceProp\n#endif\n"
		"#include <stdio.h>\n#include <string.h>\n#include \"%s.h\"\n#endif\n\n%s\n", name, name, name,
		prelude);
}

void tn_exp_device_pick(FILE *o, const char *name, const char *fn, int nd,
			const char (*dev)[256])
{
	fprintf(o, "static const char *const %s_devices[%d] = {", name, nd);
	for (int i = 0; i < nd; i++) {
		char e[4 * sizeof dev[i]];
		fprintf(o, "%s\"%s\"", i ? ", " : " ", tn_exp_esc(dev[i], 1, e, sizeof e));
	}
	fprintf(o, " };\n\n/* The current device's index in %s_devices, or %d. */\n"
		"static int %s_%s(void)\n{\n\tstatic int known[64], which[64];\n"
		"\tint d = 0, k = %d;\n\tFD_PROP p;\n"
		"\tif (FD_RT(GetDevice)(&d) != FD_RT(Success) || d < 0 || d >= 64)\n\t\treturn %d;\n"
		"\tif (known[d])\n\t\treturn which[d];\n"
		"\tif (FD_RT(GetDeviceProperties)(&p, d) == FD_RT(Success))\n"
		"\t\tfor (int i = 0; i < %d; i++)\n"
		"\t\t\tif (!strcmp(p.name, %s_devices[i]))\n\t\t\t\tk = i;\n"
		"\twhich[d] = k;\n\tknown[d] = 1;\n\treturn k;\n}\n\n", name, nd, name, fn, nd, nd,
		nd, name);
}

void tn_exp_say(const struct db_pick *p, const char *db_path, struct tn_exp_said *s)
{
	tn_exp_esc(p->device, 0, s->device, sizeof s->device);
	tn_exp_esc(p->arch, 0, s->arch, sizeof s->arch);
	tn_exp_esc(p->created, 0, s->created, sizeof s->created);
	tn_exp_esc(p->precision, 0, s->precision, sizeof s->precision);
	tn_exp_esc(db_path, 0, s->db, sizeof s->db);
}

int tn_exp_file(const char *dir, const char *name, const char *ext, char *path, size_t pn,
		      FILE **f, char *err, size_t n)
{
	snprintf(path, pn, "%s/%s%s", dir, name, ext);
	return tn_file_open(path, f, err, n);
}

int tn_exp_template(const char *file, char **text, char *err, size_t n)
{
	char path[4096];
	size_t l;
	snprintf(path, sizeof path, "%s/%s", gen_template_dir(), file);
	if (!tn_file_read(path, text, err, n))
		return FDT_OK;
	l = strlen(err);
	snprintf(err + l, n - l, "; set FDTUNE_TEMPLATES to fdtune's templates directory");
	return FDT_FAIL;
}

int tn_exp_close(FILE *f, int rc, const char *path, char *err, size_t n)
{
	int replaced = 0;
	if (rc) {
		tn_file_abort(f, path);
		return rc;
	}
	if (tn_file_close(f, path, &replaced, err, n))
		return FDT_FAIL;
	if (replaced)
		fprintf(stderr, "fdtune export: %s existed and was replaced\n", path);
	return FDT_OK;
}

/* The kernel of configuration params (JSON; parameters it lacks take their
 * first default value) named kname: v, its text cfg, source and geometry
 * (with kname NULL, only v and cfg). A configuration that accumulates
 * (acc=1) is refused: exports store.
 * With fit (the family default, for devices nothing was tuned on), as
 * libfdtune's default is: within 48 KiB of LDS a block (tn_default_fit). */
int tn_exp_kernel(struct db *db, const struct tn_family *fam, const struct db_pick *p,
		     const char *params, int fit, const char *kname, int *v, char cfg[512],
		     char **src, char grid[3][96], unsigned block[3], long long *dyn, char *err,
		     size_t n)
{
	struct tn_problem pb = { fam, p->radius, p->nx, p->ny, p->nz, p->precision, { 1, 1, 1 } };
	struct gen_def d[TN_MAXP + 2];
	char why[256];
	int moved;
	const int acc = tn_param_role(fam, TN_ROLE_ACC);
	if (tn_config_parse(db, fam, params, v, NULL, err, n))
		return FDT_FAIL;
	if (acc >= 0 && v[acc])
		return snprintf(err, n, "run %lld accumulates into its output (acc=1: out += ...), "
				"and an exported kernel stores; export a run with acc=0 (sweep with "
				"-p acc=0, or name one with --run)", p->run), 1;
	if (fit)        /* where nothing fits, as it is: the launch says why */
		(void)tn_default_fit(&pb, v, &moved, why, sizeof why);
	tn_config_text(fam, v, cfg, 512);
	if (!kname)
		return FDT_OK;
	if (gen_source(fam->tmpl, kname, d, tn_defs(&pb, v, d), src, err, n))
		return FDT_FAIL;
	fam->geom_src(&pb, v, grid, block);
	if (dyn)
		*dyn = tn_dyn_lds(&pb, v);
	return FDT_OK;
}
