/*
 * cmd_export.c: fdtune export, a tuned kernel for another code. It picks
 * the best recorded run matching the filters (or the run named with --run),
 * regenerates its kernel and writes two files:
 *   NAME.cu  the kernel with its parameters baked in, and NAME_launch(),
 *            which computes the grid from the problem and launches; it
 *            compiles with nvcc and with hipcc (and, kernel only, with NVRTC
 *            and hiprtc);
 *   NAME.h   the C interface: the argument types, NAME_coef() with the
 *            weights, NAME_launch(), and where the configuration came from;
 * and with --fortran NAME.f90, a Fortran module for the same (tn_export_f90.c).
 */
#include "db.h"
#include "gen.h"
#include "tn_cli.h"
#include "tn_export.h"
#include "tn_exp_build.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char usage[] =
"usage: fdtune export [options]\n"
"Write a standalone kernel for the best recorded configuration (or --run ID):\n"
"DIR/NAME.cu (kernel and launch function, for nvcc or hipcc) and DIR/NAME.h.\n"
"  --db PATH           database (default " TN_CLI_DB_DEFAULT ")\n"
"  -o, --out DIR       directory for the files (default .)\n"
"      --name NAME     base name of files and symbols (default fdt_FAMILY_rR):\n"
"                      a C identifier, not a C or C++ keyword or reserved name\n"
"      --run ID        this run instead of the best one\n"
"      --all-devices   one kernel per device with runs for the problem (-r\n"
"                      needed), chosen at run time by the device's name, and\n"
"                      the family's default for any other device\n"
"      --source-only   embed no measured build: NAME_launch always runs the kernel\n"
"                      that nvcc or hipcc compiles from NAME.cu (by default the\n"
"                      code fdtune timed is embedded and run on its architecture)\n"
"      --fortran       also DIR/NAME.f90: module NAME_fdtune, bind(C) types and\n"
"                      interfaces for Fortran (NAME: a letter first, <= 56 chars)\n"
"      --all-sizes     the best kernel of every recorded size of the problem (-r\n"
"                      needed; precision fp32 unless --precision), chosen at run\n"
"                      time by the grid: the size itself, else the nearest that\n"
"                      fits (README); with --all-devices, per device\n"
"      --which XxYxZ   with --all-sizes: print the configuration that grid gets\n"
"                      and write nothing\n"
"  -f, --family F, -r, --radius R, -n, --size N|XxYxZ, --device TEXT,\n"
"      --precision P   which problem and device (as for fdtune best; the\n"
"                      family is xyz unless --family or --run names another)\n"
"  -h, --help          this text\n"
"Exit status: 0 written, 3 nothing matched, 1 failure, 2 usage.\n";

/* NULL when name may be used for the files and as the prefix of C and C++
 * symbols, else why not: a keyword of C (to C23) or C++ (to C++20), or a
 * name those languages reserve (a leading underscore, as these names are
 * used at file scope, or a double underscore anywhere). */
static const char *refused_name(const char *name)
{
	static const char *const kw[] = { "alignas", "alignof", "and", "and_eq", "asm", "auto",
		"bitand", "bitor", "bool", "break", "case", "catch", "char", "char8_t", "char16_t",
		"char32_t", "class", "compl", "concept", "const", "consteval", "constexpr",
		"constinit", "const_cast", "continue", "co_await", "co_return", "co_yield",
		"decltype", "default", "delete", "do", "double", "dynamic_cast", "else", "enum",
		"explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if",
		"inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
		"nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register",
		"reinterpret_cast", "requires", "restrict", "return", "short", "signed", "sizeof",
		"static", "static_assert", "static_cast", "struct", "switch", "template", "this",
		"thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "typeof",
		"typeof_unqual", "union", "unsigned", "using", "virtual", "void", "volatile",
		"wchar_t", "while", "xor", "xor_eq" };
	for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
		if (!strcmp(name, kw[i]))
			return "a C or C++ keyword";
	if (name[0] == '_')
		return "reserved: C and C++ reserve names that start with an underscore";
	if (strstr(name, "__"))
		return "reserved: C++ reserves names that contain a double underscore";
	return NULL;
}

/* The launch function's parameters and the kernel's arguments: (out, in)
 * for a stencil, (next, prev, vel) for a time-stepping family (tn.h). */
const char *tn_exp_params = "fd_real *out, const fd_real *in", *tn_exp_args = "out, in";

void tn_exp_abi(const struct tn_family *fam)
{
	if (fam->steps > 0) {
		tn_exp_params = "fd_real *next, const fd_real *prev, const fd_real *vel";
		tn_exp_args = "next, prev, vel";
	}
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
int tn_exp_header(FILE *o, const char *name, const struct db_pick *p, int np, char cfg[][512],
	   const char *db_path, const char *dflt, const char *rule, const struct tn_measured *m,
	   int nk)
{
	const struct tn_family *f = tn_family(p->family);
	double w[TN_RMAX + 1];
	char s[3][32];
	if (!f || tn_coef_unit(f, p->radius, w))
		return -1;
	for (int a = 0; a < 3; a++)
		tn_exp_scale(f, a, "0", s[a], sizeof s[a]);
	fprintf(o, "/*\n * %s.h: exported by fdtune from %s. DO NOT EDIT; export again.\n"
		" * %s, R = %d, order %d, %s.\n", name, db_path, p->family, p->radius,
		2 * p->radius, p->precision);
	for (int i = 0; i < np; i++)
		fprintf(o, " * %s on %s (%s), run %lld, for %dx%dx%d: %.6f ms, %.1f GB/s, %.1f%%\n"
			" *   of the copy bandwidth fdtune measured there (recorded %s); %s\n",
			np > 1 && !rule ? "Selected" : "Tuned", p[i].device, p[i].arch, p[i].run, p[i].nx,
			p[i].ny, p[i].nz, p[i].median_ms, p[i].gbs, p[i].pct_copy, p[i].created, cfg[i]);
	if (dflt)
		fprintf(o, " * On any other device: the family default, %s\n", dflt);
	if (rule)
		fputs(rule, o);
	tn_measured_doc(o, name, m, nk);
	fprintf(o, " * Contract: %s point at interior point (0,0,0) of fields with %d halo\n"
		" * points on every side, rows of g.ld elements and planes of g.slice elements;\n"
		" * g.ld a multiple of 4 and the interior origin 16-byte aligned. Only the\n"
		" * interior of %s is written.%s\n */\n", tn_exp_args, p->radius,
		strcmp(tn_exp_args, "out, in") ? "next" : "out",
		strcmp(tn_exp_args, "out, in") ? " One step: next = 2 prev - next + vel L(prev);\n"
		" * swap next and prev between steps." : "");
	fprintf(o, "#ifndef %s_H\n#define %s_H\n\ntypedef %s fd_real;   /* %s */\n\n"
		"#ifndef FD_TYPES\n#define FD_TYPES\n"
		"struct fd_grid { int nx, ny, nz, ld; long long slice; };\n"
		"struct fd_coef { fd_real c0, x[9], y[9], z[9]; };\n#endif\n\n"
		"#define %s_RADIUS %d\n%s%s%s%s%s%s\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
		"/* The weights of the %s derivatives of order %d along the axes of %s,\n"
		" * scaled by 1/h%s%s%s. */\n"
		"static inline void %s_coef(struct fd_coef *c, double hx, double hy, double hz)\n{\n"
		"\tstatic const double w[%d] = {", name, name,
		strcmp(p->precision, "fp64") ? "float" : "double", p->precision, name, p->radius,
		strcmp(tn_exp_args, "out, in") ? "#define " : "",
		strcmp(tn_exp_args, "out, in") ? name : "",
		strcmp(tn_exp_args, "out, in") ? "_STEP 1   /* a time step: (next, prev, vel) */\n" : "",
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
		tn_exp_params, name, name, name);
	if (rule)
		fprintf(o, "/* The configuration %s_launch runs on the current device for grid\n"
			" * nx x ny x nz (\"vec=2 bx=64 ...\"), and in *size (when size is not NULL)\n"
			" * the recorded size it was tuned at, \"\" for the family default (also on\n"
			" * a device not listed). NULL when none can launch that grid. */\n"
			"const char *%s_which(int nx, int ny, int nz, const char **size);\n"
			"#define %s_BY_SIZE 1\n\n", name, name, name);
	fprintf(o, "#ifdef __cplusplus\n}\n#endif\n#endif\n");
	return ferror(o) ? -1 : 0;
}

void tn_exp_launch(FILE *o, const char *ind, const char *name, int k, const char *kernel,
		   long long dyn)
{
	tn_measured_launch(o, ind, name, k, tn_exp_args, dyn);
	if (dyn > 48 * 1024)
		fprintf(o, "%s{\t/* %lld bytes of dynamic LDS: over 48 KiB, the opt-in */\n"
			"%s\tconst int e = (int)FD_RT(FuncSetAttribute)((const void *)%s,\n"
			"%s\t\tFD_RT(FuncAttributeMaxDynamicSharedMemorySize), %lld);\n"
			"%s\tif (e)\n%s\t\treturn e;\n%s}\n", ind, dyn, ind, kernel, ind, dyn,
			ind, ind, ind);
	fprintf(o, "%s%s<<<grid, block, %lld, (FD_RT(Stream_t))stream>>>(%s, g, *c);\n", ind,
		kernel, dyn, tn_exp_args);
}

/* Writes NAME.cu around the generated source. */
static int source(FILE *o, const char *name, const char *src, char grid[3][96],
		  const unsigned block[3], long long dyn, const struct tn_measured *m)
{
	char kn[160];
	snprintf(kn, sizeof kn, "%s_kernel", name);
	fprintf(o, "/* %s.cu: see %s.h. DO NOT EDIT; export again. */\n"
		"#if !defined(__CUDACC_RTC__) && !defined(__HIPCC_RTC__)\n"
		"#if defined(__HIPCC__)\n#include <hip/hip_runtime.h>\n#define FD_RT(x) hip##x\n"
		"#else\n#include <cuda_runtime.h>\n#define FD_RT(x) cuda##x\n#endif\n"
		"#include <stdio.h>\n#include <string.h>\n"
		"#include \"%s.h\"\n#endif\n\n%s\n"
		"#if !defined(__CUDACC_RTC__) && !defined(__HIPCC_RTC__)\n", name, name, name, src);
	tn_measured_host(o, name, m, 1, &dyn);
	tn_measured_query(o, name, "0");
	fprintf(o, "extern \"C\" int %s_launch(%s, struct fd_grid g,\n"
		"\t\t\t  const struct fd_coef *c, void *stream)\n{\n"
		"\tconst int nx = g.nx, ny = g.ny, nz = g.nz;\n"
		"\tconst dim3 grid(%s, %s, %s), block(%u, %u, %u);\n",
		name, tn_exp_params, grid[0], grid[1], grid[2], block[0], block[1], block[2]);
	tn_exp_launch(o, "\t", name, 0, kn, dyn);
	fprintf(o, "\treturn (int)FD_RT(GetLastError)();\n}\n#endif\n");
	return ferror(o) ? -1 : 0;
}

/* The opening of a NAME.cu of several kernels: banner, the runtime's
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
	for (int i = 0; i < nd; i++)
		fprintf(o, "%s\"%s\"", i ? ", " : " ", dev[i]);
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

/* Writes NAME.cu for several devices: kernel i of src[i] in namespace
 * NAME_dI (the last, NAME_dflt, the fallback), chosen at the first launch
 * on each device by the device's name. */
static int source_multi(FILE *o, const char *name, const char *prelude, int nd,
			char dev[][256], char **src, char grid[][3][96], unsigned block[][3],
			const long long *dyn, const struct tn_measured *m)
{
	tn_exp_preamble(o, name, prelude);
	for (int i = 0; i <= nd; i++) {
		if (i < nd)
			fprintf(o, "namespace %s_d%d {          /* %s */\n%s}\n\n", name, i, dev[i], src[i]);
		else
			fprintf(o, "namespace %s_dflt {        /* any other device */\n%s}\n\n", name, src[i]);
	}
	fprintf(o, "#if !defined(__CUDACC_RTC__) && !defined(__HIPCC_RTC__)\n");
	tn_exp_device_pick(o, name, "pick", nd, (const char (*)[256])dev);
	tn_measured_host(o, name, m, nd + 1, dyn);
	{
		char kx[200];
		snprintf(kx, sizeof kx, "%s_pick()", name);
		tn_measured_query(o, name, kx);
	}
	fprintf(o, "extern \"C\" int %s_launch(%s, struct fd_grid g,\n"
		"\t\t\t  const struct fd_coef *c, void *stream)\n{\n"
		"\tconst int nx = g.nx, ny = g.ny, nz = g.nz;\n\tswitch (%s_pick()) {\n",
		name, tn_exp_params, name);
	for (int i = 0; i <= nd; i++) {
		char ns[160], label[32];
		if (i < nd) {
			snprintf(ns, sizeof ns, "%s_d%d", name, i);
			snprintf(label, sizeof label, "case %d", i);
		} else {
			snprintf(ns, sizeof ns, "%s_dflt", name);
			snprintf(label, sizeof label, "default");
		}
		char kn[400];
		snprintf(kn, sizeof kn, "%s::%s_kernel", ns, ns);
		fprintf(o, "\t%s: {\n\t\tconst dim3 grid(%s, %s, %s), block(%u, %u, %u);\n",
			label, grid[i][0], grid[i][1], grid[i][2], block[i][0], block[i][1],
			block[i][2]);
		tn_exp_launch(o, "\t\t", name, i, kn, dyn[i]);
		fprintf(o, "\t\tbreak;\n\t}\n");
	}
	fprintf(o, "\t}\n\treturn (int)FD_RT(GetLastError)();\n}\n#endif\n");
	return ferror(o) ? -1 : 0;
}

int tn_exp_file(const char *dir, const char *name, const char *ext, char *path, size_t pn,
		      FILE **f, char *err, size_t n)
{
	snprintf(path, pn, "%s/%s%s", dir, name, ext);
	if (!(*f = fopen(path, "w"))) {
		snprintf(err, n, "cannot write %.900s: %s", path, strerror(errno));
		return 1;
	}
	return 0;
}

/* The kernel of configuration params (JSON; parameters it lacks take their
 * first default value) named kname: v, its text cfg, source and geometry
 * (with kname NULL, only v and cfg). A configuration that accumulates
 * (acc=1) is refused: exports store.
 * With fit, a configuration over the limits of sm_90 and gfx90a is replaced
 * by its first neighbour (one parameter changed) that fits. */
int tn_exp_kernel(struct db *db, const struct tn_family *fam, const struct db_pick *p,
		     const char *params, int fit, const char *kname, int *v, char cfg[512],
		     char **src, char grid[3][96], unsigned block[3], long long *dyn, char *err,
		     size_t n)
{
	struct tn_problem pb = { fam, p->radius, p->nx, p->ny, p->nz, p->precision, { 1, 1, 1 } };
	struct tn_limits lim;
	struct gen_def d[TN_MAXP + 2];
	char why[256];
	const int acc = tn_param_index(fam, "acc");
	tn_limits_of_arch("sm_90", &lim);
	lim.lds_optin = 64 * 1024;      /* what gfx90a gives too */
	for (int i = 0; i < fam->np; i++) {
		int found;
		if (db_json_int(db, params, fam->p[i].name, &v[i], &found, err, n))
			return 1;
		if (!found)
			v[i] = fam->p[i].v[0];
	}
	if (acc >= 0 && v[acc])
		return snprintf(err, n, "run %lld accumulates into its output (acc=1: out += ...), "
				"and an exported kernel stores; export a run with acc=0 (sweep with "
				"-p acc=0, or name one with --run)", p->run), 1;
	for (int i = 0; fit && fam->check(&pb, v, &lim, why, sizeof why) && i < fam->np; i++)
		for (int j = 0; j < fam->p[i].n; j++) {
			int keep = v[i];
			v[i] = fam->p[i].v[j];
			if (!fam->check(&pb, v, &lim, why, sizeof why))
				break;
			v[i] = keep;
		}
	cfg[0] = 0;
	for (int i = 0; i < fam->np; i++) {
		size_t o = strlen(cfg);
		snprintf(cfg + o, 512 - o, "%s%s=%d", i ? " " : "", fam->p[i].name, v[i]);
	}
	if (!kname)
		return 0;
	if (gen_source(fam->tmpl, kname, d, tn_defs(&pb, v, d), src, err, n))
		return 1;
	fam->geom_src(&pb, v, grid, block);
	if (dyn)
		*dyn = tn_dyn_lds(&pb, v);
	return 0;
}

int tn_cmd_export(int argc, char **argv)
{
	enum { MAXDEV = 16 };
	static const struct option lo[] = {
		{ "db", required_argument, 0, 0x200 }, { "out", required_argument, 0, 'o' },
		{ "name", required_argument, 0, 0x201 }, { "run", required_argument, 0, 0x202 },
		{ "all-devices", no_argument, 0, 0x203 },
		{ "fortran", no_argument, 0, 0x206 }, { "source-only", no_argument, 0, 0x207 },
		{ "all-sizes", no_argument, 0, 0x204 },
		{ "which", required_argument, 0, 0x205 },
		TN_CLI_FILTER_OPTIONS, { "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 }
	};
	const char *path = TN_CLI_DB_DEFAULT, *dir = ".", *name = NULL;
	struct db_filter flt = { 0 };
	static struct db_pick p[MAXDEV + 1];
	static char dev[MAXDEV][256], cfg[MAXDEV + 1][512], grid[MAXDEV + 1][3][96];
	unsigned block[MAXDEV + 1][3];
	long long dyn[MAXDEV + 1];
	char *src[MAXDEV + 1] = { 0 }, *prelude = NULL;
	static struct tn_measured meas[MAXDEV + 1];
	struct db *db = NULL;
	const struct tn_family *fam;
	char err[2048], nm[128], kname[200], fpath[4096];
	int opt, run = 0, rc = TN_EX_FAIL, v[TN_MAXP], all = 0, nd = 1, fortran = 0, sizes = 0, which[3] = { 0 };
	int off = 0;
	FILE *f = NULL;

	while ((opt = getopt_long(argc, argv, "o:h" TN_CLI_FILTER_SHORT, lo, NULL)) != -1) {
		switch (tn_cli_filter_opt(&flt, opt, optarg, err, sizeof err)) {
		case 1:
			continue;
		case -1:
			goto usage;
		}
		switch (opt) {
		case 0x200: path = optarg; break;
		case 'o': dir = optarg; break;
		case 0x201: name = optarg; break;
		case 0x202:
			if (tn_parse_int(optarg, "--run", 1, 0x7fffffff, &run, err, sizeof err))
				goto usage;
			break;
		case 0x203: all = 1; break;
		case 0x206: fortran = 1; break;
		case 0x207: off = 1; break;
		case 0x204: sizes = 1; break;
		case 0x205:
			if (tn_parse_size(optarg, &which[0], &which[1], &which[2], err, sizeof err))
				goto usage;
			break;
		case 'h': fputs(usage, stdout); return TN_EX_OK;
		default: fputs(usage, stderr); return TN_EX_USAGE;
		}
	}
	if (optind < argc) {
		snprintf(err, sizeof err, "unexpected argument '%s'", argv[optind]);
		goto usage;
	}
	if (sizes && (run || !flt.radius || flt.nx)) {
		snprintf(err, sizeof err, "--all-sizes needs --radius and takes neither --run nor "
			 "--size: it exports the best run of every recorded size of one problem");
		goto usage;
	}
	if (which[0] && !sizes) {
		snprintf(err, sizeof err, "--which needs --all-sizes");
		goto usage;
	}
	if (all && (run || !flt.radius || flt.device)) {
		snprintf(err, sizeof err, "--all-devices needs --radius and takes neither --run nor "
			 "--device: it exports the best run of each device for one problem");
		goto usage;
	}
	if (name && (!*name || strlen(name) > 100)) {
		snprintf(err, sizeof err, "--name: 1 to 100 characters");
		goto usage;
	}
	for (const char *c = name; c && *c; c++)
		if (!(*c == '_' || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (c > name && *c >= '0' && *c <= '9'))) {
			snprintf(err, sizeof err, "--name '%s': not a C identifier", name);
			goto usage;
		}
	if (name && refused_name(name)) {
		snprintf(err, sizeof err, "--name '%s': %s; choose another name (it prefixes "
			 "the exported symbols: NAME_launch, NAME_coef, NAME_kernel)", name,
			 refused_name(name));
		goto usage;
	}
	if (fortran && name && tn_export_f90_name(name, err, sizeof err))
		goto usage;
	if (!flt.family && !run)
		flt.family = "xyz";     /* as for fdtune sweep */
	if (tn_cli_db_exists(path, err, sizeof err) || db_open(path, &db, err, sizeof err))
		goto fail;
	if (sizes) {
		if (!flt.precision)
			flt.precision = "fp32";
		snprintf(nm, sizeof nm, "fdt_%s_r%d", flt.family, flt.radius);
		rc = tn_exp_sizes(db, &flt, all, dir, name ? name : nm, path, which[0] ? which : NULL,
				  off, err, sizeof err);
		if (rc && rc != TN_EX_NOMATCH)
			goto fail;
		if (rc)
			fprintf(stderr, "fdtune export: %s in %s\n", err, path);
		if (rc || !fortran || which[0])
			goto done;
		/* one launch for every size: the module describes the largest one's run */
		name = name ? name : nm;
		rc = TN_EX_FAIL;
		if (db_pick(db, &flt, 0, &p[0], err, sizeof err) || !(fam = tn_family(flt.family)))
			goto fail;
		snprintf(cfg[0], sizeof cfg[0], "the largest recorded size's %.380s; NAME_launch picks "
			 "one per grid (the table in %.40s.h)", p[0].params, name);
		if (tn_exp_file(dir, name, ".f90", fpath, sizeof fpath, &f, err, sizeof err) ||
		    tn_export_f90(f, name, p, 1, cfg, path, fam->steps) | fclose(f)) {
			snprintf(err, sizeof err, "cannot write %.900s", fpath);
			goto fail;
		}
		printf("%s/%s.f90: module %s_fdtune\n", dir, name, name);
		rc = TN_EX_OK;
		goto done;
	}
	if (all && db_devices(db, &flt, dev, MAXDEV, &nd, err, sizeof err))
		goto fail;
	for (int i = 0; i < (all ? nd : 1); i++) {
		struct db_filter one = flt;
		if (all)
			one.device = dev[i];
		if ((rc = db_pick(db, &one, run, &p[i], err, sizeof err))) {
			rc = rc == DB_NOMATCH ? TN_EX_NOMATCH : TN_EX_FAIL;
			fprintf(stderr, "fdtune export: %s in %s\n", err, path);
			goto done;
		}
		rc = TN_EX_FAIL;
		if (strcmp(p[i].family, p[0].family) || p[i].radius != p[0].radius) {
			snprintf(err, sizeof err, "the devices disagree on the problem (%s R=%d and %s "
				 "R=%d); give --family", p[0].family, p[0].radius, p[i].family, p[i].radius);
			goto fail;
		}
	}
	if (all && !nd) {
		fprintf(stderr, "fdtune export: no successful runs match in %s\n", path);
		rc = TN_EX_NOMATCH;
		goto done;
	}
	if (!(fam = tn_family(p[0].family))) {
		snprintf(err, sizeof err, "run %lld is of family '%s', which this fdtune does not "
			 "know", p[0].run, p[0].family);
		goto fail;
	}
	tn_exp_abi(fam);
	snprintf(nm, sizeof nm, "fdt_%s_r%d", p[0].family, p[0].radius);
	name = name ? name : nm;
	for (int i = 0; i < (all ? nd + 1 : 1); i++) {
		if (!all)
			snprintf(kname, sizeof kname, "%s_kernel", name);
		else if (i < nd)
			snprintf(kname, sizeof kname, "%s_d%d_kernel", name, i);
		else
			snprintf(kname, sizeof kname, "%s_dflt_kernel", name);
		if (tn_exp_kernel(db, fam, &p[0], i < nd || !all ? p[i].params : fam->dflt, i == nd, kname,
			      v, cfg[i], &src[i], grid[i], block[i], &dyn[i], err, sizeof err))
			goto fail;
		if (i == nd && all)
			tn_measured_none(&meas[i], "not embedded: the family default, which no run measured");
		else if (tn_measured_get(db, fam, &p[i], v, off, &meas[i], err, sizeof err))
			goto fail;
		if (!meas[i].ok)
			fprintf(stderr, "fdtune export: %s R=%d on %s: %s; NAME_launch runs the kernel "
				"compiled from source\n", fam->name, p[0].radius, i < nd || !all ?
				p[i].device : "other devices", meas[i].why);
	}
	if (all) {
		struct gen_def pd[] = { { "dbl", !strcmp(p[0].precision, "fp64") } };
		if (gen_source("prelude.m4", "none", pd, 1, &prelude, err, sizeof err))
			goto fail;
	}
	if (mkdir(dir, 0777) && errno != EEXIST) {
		snprintf(err, sizeof err, "--out %s: %s", dir, strerror(errno));
		goto fail;
	}
	if (tn_exp_file(dir, name, ".h", fpath, sizeof fpath, &f, err, sizeof err) ||
	    tn_exp_header(f, name, p, all ? nd : 1, cfg, path, all ? cfg[nd] : NULL, NULL,
			  meas, all ? nd + 1 : 1) | fclose(f)) {
		f = NULL;
		snprintf(err, sizeof err, "cannot write %.900s", fpath);
		goto fail;
	}
	if (tn_exp_file(dir, name, ".cu", fpath, sizeof fpath, &f, err, sizeof err) ||
	    (all ? source_multi(f, name, prelude, nd, dev, src, grid, block, dyn, meas)
		 : source(f, name, src[0], grid[0], block[0], dyn[0], meas)) | fclose(f)) {
		snprintf(err, sizeof err, "cannot write %.900s", fpath);
		goto fail;
	}
	if (fortran && (tn_exp_file(dir, name, ".f90", fpath, sizeof fpath, &f, err, sizeof err) ||
			tn_export_f90(f, name, p, all ? nd : 1, cfg, path, fam->steps) | fclose(f))) {
		snprintf(err, sizeof err, "cannot write %.900s", fpath);
		goto fail;
	}
	for (int i = 0; i < (all ? nd : 1); i++)
		printf("%s/%s.cu and %s.h: %s R=%d (%s), %.1f GB/s on %s%s\n", dir, name, name,
		       p[i].family, p[i].radius, cfg[i], p[i].gbs, p[i].device,
		       meas[i].ok ? ", its measured build embedded" : "");
	if (all)
		printf("  and on any other device: %s\n", cfg[nd]);
	if (fortran)
		printf("%s/%s.f90: module %s_fdtune\n", dir, name, name);
	rc = TN_EX_OK;
	goto done;
usage:
	fprintf(stderr, "fdtune export: %s\n", err);
	return TN_EX_USAGE;
fail:
	fprintf(stderr, "fdtune export: %s\n", err);
done:
	for (int i = 0; i <= MAXDEV; i++) {
		free(src[i]);
		tn_measured_free(&meas[i]);
	}
	free(prelude);
	db_close(db);
	return rc;
}
