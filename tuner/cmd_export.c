/*
 * cmd_export.c: fdtune export, a tuned kernel for another code. It picks
 * the best recorded run matching the filters (or the run named with --run),
 * regenerates its kernel and writes two files:
 *   NAME.cu  the kernel with its parameters baked in, and NAME_launch(),
 *            which computes the grid from the problem and launches; it
 *            compiles with nvcc and with hipcc (and, kernel only, with NVRTC
 *            and hiprtc);
 *   NAME.h   the C interface: the argument types, NAME_coef() with the
 *            weights, NAME_launch(), and where the configuration came from.
 */
#include "db.h"
#include "gen.h"
#include "tn_cli.h"

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
"      --name NAME     base name of files and symbols (default fdt_FAMILY_rR)\n"
"      --run ID        this run instead of the best one\n"
"  -f, --family F, -r, --radius R, -n, --size N|XxYxZ, --device TEXT,\n"
"      --precision P   which problem and device (as for fdtune best)\n"
"  -h, --help          this text\n"
"Exit status: 0 written, 3 nothing matched, 1 failure, 2 usage.\n";

/* Writes NAME.h. */
static int header(FILE *o, const char *name, const struct db_pick *p, const char *cfg,
		  const char *db_path)
{
	double w[TN_RMAX + 1];
	if (tn_d2_weights(p->radius, w))
		return -1;
	fprintf(o, "/*\n * %s.h: exported by fdtune from %s (run %lld). DO NOT EDIT; export again.\n"
		" * %s, R = %d, order %d, %s; parameters: %s\n"
		" * Tuned on %s (%s) for %dx%dx%d, %s: %.4f ms, %.1f GB/s, %.1f%% of the copy\n"
		" * bandwidth fdtune measured there (recorded %s).\n"
		" * Contract: in and out point at interior point (0,0,0) of fields with %d halo\n"
		" * points on every side, rows of g.ld floats and planes of g.slice floats;\n"
		" * g.ld a multiple of 4 and the interior origin 16-byte aligned. Only the\n"
		" * interior of out is written.\n */\n",
		name, db_path, p->run, p->family, p->radius, 2 * p->radius, p->precision, cfg,
		p->device, p->arch, p->nx, p->ny, p->nz, p->precision, p->median_ms, p->gbs,
		p->pct_copy, p->created, p->radius);
	fprintf(o, "#ifndef %s_H\n#define %s_H\n\n#ifndef FD_TYPES\n#define FD_TYPES\n"
		"struct fd_grid { int nx, ny, nz, ld; long long slice; };\n"
		"struct fd_coef { float c0, x[9], y[9], z[9]; };\n#endif\n\n"
		"#define %s_RADIUS %d\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
		"/* The weights of the second derivatives of order %d, scaled by 1/h^2. */\n"
		"static inline void %s_coef(struct fd_coef *c, double hx, double hy, double hz)\n{\n"
		"\tstatic const double w[%d] = {", name, name, name, p->radius,
		2 * p->radius, name, p->radius + 1);
	for (int k = 0; k <= p->radius; k++)
		fprintf(o, "%s%.17g", k ? ", " : " ", w[k]);
	fprintf(o, " };\n\tconst double s[3] = { 1 / (hx * hx), 1 / (hy * hy), 1 / (hz * hz) };\n"
		"\tint k;\n\tfor (k = 0; k < 9; k++)\n"
		"\t\tc->x[k] = c->y[k] = c->z[k] = 0.0f;\n"
		"\tfor (k = 1; k <= %d; k++) {\n\t\tc->x[k] = (float)(w[k] * s[0]);\n"
		"\t\tc->y[k] = (float)(w[k] * s[1]);\n\t\tc->z[k] = (float)(w[k] * s[2]);\n\t}\n"
		"\tc->c0 = (float)(w[0] * (s[0] + s[1] + s[2]));\n}\n\n"
		"/* Launches on stream (a cudaStream_t or hipStream_t, 0 for the default);\n"
		" * returns 0, or the runtime's error code for the launch. */\n"
		"int %s_launch(float *out, const float *in, struct fd_grid g,\n"
		"\t\tconst struct fd_coef *c, void *stream);\n\n"
		"#ifdef __cplusplus\n}\n#endif\n#endif\n", p->radius, name);
	return ferror(o) ? -1 : 0;
}

/* Writes NAME.cu around the generated source. */
static int source(FILE *o, const char *name, const char *src, char grid[3][96],
		  const unsigned block[3])
{
	fprintf(o, "/* %s.cu: see %s.h. DO NOT EDIT; export again. */\n"
		"#if !defined(__CUDACC_RTC__) && !defined(__HIPCC_RTC__)\n"
		"#if defined(__HIPCC__)\n#include <hip/hip_runtime.h>\n#define FD_RT(x) hip##x\n"
		"#else\n#include <cuda_runtime.h>\n#define FD_RT(x) cuda##x\n#endif\n"
		"#include \"%s.h\"\n#endif\n\n%s\n"
		"#if !defined(__CUDACC_RTC__) && !defined(__HIPCC_RTC__)\n"
		"extern \"C\" int %s_launch(float *out, const float *in, struct fd_grid g,\n"
		"\t\t\t  const struct fd_coef *c, void *stream)\n{\n"
		"\tconst int nx = g.nx, ny = g.ny, nz = g.nz;\n"
		"\tconst dim3 grid(%s, %s, %s), block(%u, %u, %u);\n"
		"\t%s_kernel<<<grid, block, 0, (FD_RT(Stream_t))stream>>>(out, in, g, *c);\n"
		"\treturn (int)FD_RT(GetLastError)();\n}\n#endif\n",
		name, name, name, src, name, grid[0], grid[1], grid[2], block[0], block[1],
		block[2], name);
	return ferror(o) ? -1 : 0;
}

static int write_file(const char *dir, const char *name, const char *ext, char *path, size_t pn,
		      FILE **f, char *err, size_t n)
{
	snprintf(path, pn, "%s/%s%s", dir, name, ext);
	if (!(*f = fopen(path, "w"))) {
		snprintf(err, n, "cannot write %.900s: %s", path, strerror(errno));
		return 1;
	}
	return 0;
}

int tn_cmd_export(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "db", required_argument, 0, 0x200 }, { "out", required_argument, 0, 'o' },
		{ "name", required_argument, 0, 0x201 }, { "run", required_argument, 0, 0x202 },
		TN_CLI_FILTER_OPTIONS, { "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 }
	};
	const char *path = TN_CLI_DB_DEFAULT, *dir = ".", *name = NULL;
	struct db_filter flt = { 0 };
	struct db_pick p;
	struct db *db = NULL;
	const struct tn_family *fam;
	struct gen_def d[TN_MAXP + 1];
	char err[2048], nm[128], kname[160], cfg[512] = "", fpath[4096], grid[3][96], *src = NULL;
	unsigned block[3];
	int opt, run = 0, rc = TN_EX_FAIL, v[TN_MAXP];
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
		case 'h': fputs(usage, stdout); return TN_EX_OK;
		default: fputs(usage, stderr); return TN_EX_USAGE;
		}
	}
	if (optind < argc) {
		snprintf(err, sizeof err, "unexpected argument '%s'", argv[optind]);
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
	if (tn_cli_db_exists(path, err, sizeof err) || db_open(path, &db, err, sizeof err))
		goto fail;
	if ((rc = db_pick(db, &flt, run, &p, err, sizeof err))) {
		rc = rc == DB_NOMATCH ? TN_EX_NOMATCH : TN_EX_FAIL;
		fprintf(stderr, "fdtune export: %s in %s\n", err, path);
		goto done;
	}
	rc = TN_EX_FAIL;
	if (!(fam = tn_family(p.family))) {
		snprintf(err, sizeof err, "run %lld is of family '%s', which this fdtune does not "
			 "know", p.run, p.family);
		goto fail;
	}
	/* parameters missing from an older record take their default, the first value */
	d[0] = (struct gen_def){ "r", p.radius };
	for (int i = 0; i < fam->np; i++) {
		int found;
		size_t o = strlen(cfg);
		if (db_json_int(db, p.params, fam->p[i].name, &v[i], &found, err, sizeof err))
			goto fail;
		if (!found)
			v[i] = fam->p[i].v[0];
		d[i + 1] = (struct gen_def){ fam->p[i].name, v[i] };
		snprintf(cfg + o, sizeof cfg - o, "%s%s=%d", i ? " " : "", fam->p[i].name, v[i]);
	}
	snprintf(nm, sizeof nm, "fdt_%s_r%d", p.family, p.radius);
	name = name ? name : nm;
	snprintf(kname, sizeof kname, "%s_kernel", name);
	if (gen_source(fam->tmpl, kname, d, fam->np + 1, &src, err, sizeof err))
		goto fail;
	fam->geom_src(v, grid, block);
	if (mkdir(dir, 0777) && errno != EEXIST) {
		snprintf(err, sizeof err, "--out %s: %s", dir, strerror(errno));
		goto fail;
	}
	if (write_file(dir, name, ".h", fpath, sizeof fpath, &f, err, sizeof err) ||
	    header(f, name, &p, cfg, path) | fclose(f)) {
		f = NULL;
		snprintf(err, sizeof err, "cannot write %.900s", fpath);
		goto fail;
	}
	if (write_file(dir, name, ".cu", fpath, sizeof fpath, &f, err, sizeof err) ||
	    source(f, name, src, grid, block) | fclose(f)) {
		snprintf(err, sizeof err, "cannot write %.900s", fpath);
		goto fail;
	}
	printf("%s/%s.cu and %s.h: %s R=%d (%s), %.1f GB/s on %s\n", dir, name, name,
	       p.family, p.radius, cfg, p.gbs, p.device);
	rc = TN_EX_OK;
	goto done;
usage:
	fprintf(stderr, "fdtune export: %s\n", err);
	free(src);
	return TN_EX_USAGE;
fail:
	fprintf(stderr, "fdtune export: %s\n", err);
done:
	free(src);
	db_close(db);
	return rc;
}
