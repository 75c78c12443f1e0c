/*
 * tn_exp_build.c: the measured build in an export (tn_exp_build.h). The
 * build is made again rather than kept: fdtune records a build's compiler,
 * version, target, options, source hash and resources, and keeps the source
 * itself for the builds that matter (db_source.c), not their code; the same
 * compiler given the same source and options makes the same code, and the
 * checks below make sure that it did. The source is the one the database
 * keeps, else (a record from before sources were kept) the one today's
 * templates generate, where it hashes as the build's did.
 */
#include "fdt_rc.h"
#include "tn_exp_build.h"
#include "tn_export.h"
#include "gen.h"
#include "rt.h"
#include "tn_cache.h"

#include <stdlib.h>
#include <string.h>

void tn_measured_none(struct tn_measured *m, const char *why)
{
	memset(m, 0, sizeof *m);
	snprintf(m->why, sizeof m->why, "%s", why);
}

void tn_measured_free(struct tn_measured *m)
{
	free(m->code);
	m->code = NULL;
	m->ok = 0;
}

/* 1 when resource r was recorded (>= 0) and differs from got. */
static int differs(int r, int got)
{
	return r >= 0 && r != got;
}

/* 1 when compiler options a and b make the same code: equal once NVRTC's
 * --no-cache, which only keeps its cache out (runtime/rt.c), is dropped. */
static int same_opts(const char *a, const char *b)
{
	char x[2][512];
	const char *in[2] = { a, b };
	for (int i = 0; i < 2; i++) {
		char *c;
		snprintf(x[i], sizeof x[i], "%s", in[i]);
		if ((c = strstr(x[i], " --no-cache")) && (c[11] == ' ' || !c[11]))
			memmove(c, c + 11, strlen(c + 11) + 1);
	}
	return !strcmp(x[0], x[1]);
}

/* Tries the build of run `run` (of pb's problem and configuration v) into
 * m: m->ok says whether it is the measured build, m->why what it is or why
 * not. It compiles the source the database keeps for the build, else today's
 * source tsrc, which hashes to tsh. */
static void try_run(struct db *db, const struct tn_family *fam, const struct tn_problem *pb,
		    const int *v, long long run, const char *tsrc, const char *tsh,
		    struct tn_measured *m)
{
	struct db_build_row b;
	struct rt_prog pr = { 0 };
	char comp[64], opts[512], id[700], e[1024], *kept = NULL;
	const char *src = tsrc, *sh = tsh;
	int lds, g;

	tn_measured_none(m, "");
	m->run = run;
	if (db_run_build(db, run, &b, e, sizeof e)) {
		snprintf(m->why, sizeof m->why, "not embedded: %.600s", e);
		return;
	}
	m->build = b.id;
	if ((g = db_source_get(db, b.source_hash, &kept, e, sizeof e)) == FDT_FAIL) {
		snprintf(m->why, sizeof m->why, "not embedded: %.600s", e);
		return;
	}
	if (!g) {
		src = kept;
		sh = b.source_hash;
	}
	rt_compiler(comp, sizeof comp);
	rt_compile_options(b.arch, opts, sizeof opts);
	tn_cache_compiler(b.arch, id, sizeof id);       /* the cache's: a sweep's build is reused */
	if (strcmp(b.status, "ok"))
		snprintf(m->why, sizeof m->why, "not embedded: build %lld of run %lld is '%s'", b.id,
			 run, b.status);
	else if (strcmp(comp, b.compiler_version))
		snprintf(m->why, sizeof m->why, "not embedded: run %lld was built by %s, and this "
			 "fdtune compiles with %s; export with an fdtune built against %s to carry "
			 "the measured build", run, b.compiler_version, comp, b.compiler_version);
	else if (!same_opts(opts, b.options))
		snprintf(m->why, sizeof m->why, "not embedded: run %lld was built with the options "
			 "'%.200s', and this fdtune gives '%.200s'", run, b.options, opts);
	else if (strcmp(sh, b.source_hash))
		snprintf(m->why, sizeof m->why, "not embedded: the database keeps no source of run "
			 "%lld's build, and the source this fdtune generates for it hashes to %s, "
			 "not %s (the templates changed since: fdtune sweep --recheck times it again "
			 "and keeps its source)", run, sh, b.source_hash);
	else if (tn_cache_compile(tn_cache_dir(), src, fam->tmpl, b.arch, id, &pr, NULL, e, sizeof e))
		snprintf(m->why, sizeof m->why, "not embedded: %s failed to rebuild run %lld's kernel "
			 "for %s: %.400s", comp, run, b.arch, e);
	if (m->why[0])
		goto done;
	lds = pr.lds < 0 ? -1 : pr.lds + (int)tn_dyn_lds(pb, v);      /* as tn_record.c */
	if (differs(b.regs, pr.regs) || differs(b.lds_bytes, lds) ||
	    differs(b.spill_bytes, pr.spill) || b.regs < 0) {
		snprintf(m->why, sizeof m->why, "not embedded: rebuilt, run %lld's kernel has %d "
			 "registers, %d bytes of LDS and %d of spills, and its build recorded %d, %d "
			 "and %d", run, pr.regs, lds, pr.spill, b.regs, b.lds_bytes, b.spill_bytes);
		goto done;
	}
	m->ok = 1;
	m->code = pr.code;
	m->size = pr.size;
	pr.code = NULL;
	snprintf(m->platform, sizeof m->platform, "%s", rt_platform());
	snprintf(m->arch, sizeof m->arch, "%s", b.arch);
	snprintf(m->fn, sizeof m->fn, "fdt_kernel");
	gen_hash_bytes(m->code, m->size, m->hash);
	snprintf(m->why, sizeof m->why, "the measured build: run %lld's build %lld, %s for %s "
		 "(%.200s), %zu bytes, code hash %s; checked: source hash %s (%s), %d registers, "
		 "%d bytes of LDS (static and dynamic), %d of spills, as recorded", run, b.id, comp,
		 b.arch, b.options, m->size, m->hash, sh, kept ? "the source the database keeps" :
		 "today's templates", pr.regs, lds, pr.spill);
done:
	rt_prog_free(&pr);
	free(kept);
}

int tn_measured_get(struct db *db, const struct tn_family *fam, const struct db_pick *p,
		    const int *v, int off, struct tn_measured *m, char *err, size_t n)
{
	enum { MAXR = 8 };
	struct tn_problem pb = { fam, p->radius, p->nx, p->ny, p->nz, p->precision, { 1, 1, 1 } };
	long long ids[MAXR];
	char sh[17], first[sizeof m->why], *src = NULL;
	int nr = 0, rc = 1;

	tn_measured_none(m, "");
	m->run = p->run;
	if (off) {
		snprintf(m->why, sizeof m->why, "not embedded: exported with --source-only");
		return FDT_OK;
	}
	if (tn_source(&pb, v, &src, err, n))
		return FDT_FAIL;
	gen_hash(src, sh);
	{
		char vals[TN_MAXP * 48] = "{";
		for (int i = 0; i < fam->np; i++) {
			size_t o = strlen(vals);
			snprintf(vals + o, sizeof vals - o, "%s\"%s\": [%d, %d]", i ? ", " : "",
				 fam->p[i].name, v[i], fam->p[i].v[0]);
		}
		strncat(vals, "}", sizeof vals - strlen(vals) - 1);
		if (db_run_repeats(db, p->run, vals, ids, MAXR, &nr, err, n))
			goto done;
	}
	/* the run itself, else the newest repeat of its configuration that
	 * today's source reproduces (the others were built from older templates) */
	first[0] = 0;
	for (int i = 0; i < nr && !m->ok; i++) {
		try_run(db, fam, &pb, v, ids[i], src, sh, m);
		if (!i)
			snprintf(first, sizeof first, "%s", m->why);
	}
	if (nr && m->ok && m->run != p->run) {
		char why[sizeof m->why];
		snprintf(why, sizeof why, "%.440s; run %lld, the fastest, was built from older templates, "
			 "and run %lld is the same configuration measured again", m->why, p->run, m->run);
		snprintf(m->why, sizeof m->why, "%s", why);
	} else if (!m->ok && first[0]) {
		snprintf(m->why, sizeof m->why, "%s", first);
	}
	rc = 0;
done:
	free(src);
	return rc;
}

void tn_measured_doc(FILE *o, const char *name, const struct tn_measured *m, int nk)
{
	int ok = 0;
	for (int k = 0; k < nk; k++)
		ok += m[k].ok;
	fprintf(o, " * Measured builds: %d of %d kernels carry the code fdtune timed; %s_launch\n"
		" * runs it on a device of its architecture, else the kernel compiled from this\n"
		" * source; %s_measured(nx, ny, nz, &why) tells which a launch takes.\n",
		ok, nk, name, name);
	for (int k = 0; k < nk; k++) {
		char e[4 * sizeof m[k].why];
		fprintf(o, " *   kernel %d: %s\n", k, tn_exp_esc(m[k].why, 0, e, sizeof e));
	}
}

/* The guard of code for platform p: compiled by hipcc, or by nvcc. */
static const char *guard(const char *p)
{
	return strcmp(p, "amd") ? "#if !defined(__HIPCC__)" : "#if defined(__HIPCC__)";
}

void tn_measured_host(FILE *o, const char *name, const struct tn_measured *m, int nk,
		      const long long *dyn)
{
	for (int k = 0; k < nk; k++) {
		const unsigned char *c = m[k].code;
		if (!m[k].ok)
			continue;
		fprintf(o, "%s\n/* kernel %d's measured build, %zu bytes for %s */\n"
			"static const unsigned char %s_code%d[%zu] __attribute__((aligned(16))) = {",
			guard(m[k].platform), k, m[k].size, m[k].arch, name, k, m[k].size);
		for (size_t i = 0; i < m[k].size; i++)
			fprintf(o, "%s0x%02x,", i % 16 ? "" : "\n\t", c[i]);
		fprintf(o, "\n};\n#endif\n\n");
	}
	fprintf(o, "/* Kernel k's measured build: code (NULL: none here), target, symbol, dynamic\n"
		" * LDS, and what the launch takes when it runs it, or the source and why. */\n"
		"struct %s_img { const unsigned char *code; const char *arch, *fn; unsigned dyn;\n"
		"\tconst char *yes, *no; };\nstatic const struct %s_img %s_imgs[%d] = {\n",
		name, name, name, nk);
	for (int k = 0; k < nk; k++) {
		if (!m[k].ok) {
			char e[4 * sizeof m[k].why];
			fprintf(o, "\t{ 0, \"\", \"\", 0, \"\", \"the source kernel: %s\" },\n",
				tn_exp_esc(m[k].why, 1, e, sizeof e));
			continue;
		}
		fprintf(o, "%s\n\t{ %s_code%d, \"%s\", \"%s\", %lldu, \"the measured build of run "
			"%lld (build %lld, code hash %s)\",\n\t  \"the source kernel: the measured build "
			"is for %s, and this device is another\" },\n#else\n\t{ 0, \"\", \"\", 0, \"\", "
			"\"the source kernel: the measured build is for %s, on the other vendor's "
			"runtime\" },\n#endif\n", guard(m[k].platform), name, k, m[k].arch, m[k].fn,
			dyn[k], m[k].run, m[k].build, m[k].hash, m[k].arch, m[k].arch);
	}
	fprintf(o, "};\n\n");
	fprintf(o,
"/* Kernel k's measured build loaded on the current device (once per device and\n"
" * kernel), or NULL where the source kernel runs; *why says which and why. */\n"
"static const void *%s_build(int k, const char **why)\n{\n"
"\tstatic int state[64][%d];      /* 0 not tried, 1 loaded, 2 the source kernel */\n"
"\tstatic const void *fn[64][%d];\n\tstatic const char *said[64][%d];\n"
"\tconst struct %s_img *m = &%s_imgs[k];\n\tint d = 0;\n"
"\t*why = m->no;\n\tif (!m->code)\n\t\treturn 0;\n"
"\tif (FD_RT(GetDevice)(&d) != FD_RT(Success) || d < 0 || d >= 64) {\n"
"\t\t*why = \"the source kernel: the current device is not known\";\n\t\treturn 0;\n\t}\n"
"\tif (!state[d][k]) {\n\t\tstate[d][k] = 2;\n\t\tsaid[d][k] = m->no;\n"
"#if defined(__HIPCC__)\n"
"\t\thipDeviceProp_t p;\n\t\thipModule_t mod;\n\t\thipFunction_t f;\n"
"\t\tif (hipGetDeviceProperties(&p, d) == hipSuccess &&\n"
"\t\t    !strncmp(p.gcnArchName, m->arch, strlen(m->arch)) &&\n"
"\t\t    strchr(\":\", p.gcnArchName[strlen(m->arch)])) {\n"
"\t\t\tsaid[d][k] = \"the source kernel: the measured build failed to load\";\n"
"\t\t\tif (hipModuleLoadData(&mod, m->code) == hipSuccess &&\n"
"\t\t\t    hipModuleGetFunction(&f, mod, m->fn) == hipSuccess) {\n"
"\t\t\t\tfn[d][k] = (const void *)f;\n\t\t\t\tstate[d][k] = 1;\n\t\t\t}\n\t\t}\n"
"#else\n"
"\t\tstatic cudaLibrary_t lib[%d];\n\t\tstatic cudaKernel_t krn[%d];\n"
"\t\tint ma = 0, mi = 0;\n\t\tchar arch[32];\n"
"\t\tif (cudaDeviceGetAttribute(&ma, cudaDevAttrComputeCapabilityMajor, d) == cudaSuccess &&\n"
"\t\t    cudaDeviceGetAttribute(&mi, cudaDevAttrComputeCapabilityMinor, d) == cudaSuccess &&\n"
"\t\t    snprintf(arch, sizeof arch, \"sm_%%d%%d\", ma, mi) > 0 && !strcmp(arch, m->arch)) {\n"
"\t\t\tsaid[d][k] = \"the source kernel: the measured build failed to load\";\n"
"\t\t\tif ((lib[k] || (cudaLibraryLoadData(&lib[k], m->code, 0, 0, 0, 0, 0, 0) ==\n"
"\t\t\t\t\t   cudaSuccess && cudaLibraryGetKernel(&krn[k], lib[k], m->fn) ==\n"
"\t\t\t\t\t   cudaSuccess)) && krn[k] &&\n"
"\t\t\t    (m->dyn <= 48 * 1024 || cudaFuncSetAttribute((const void *)krn[k],\n"
"\t\t\t\tcudaFuncAttributeMaxDynamicSharedMemorySize, (int)m->dyn) == cudaSuccess)) {\n"
"\t\t\t\tfn[d][k] = (const void *)krn[k];\n\t\t\t\tstate[d][k] = 1;\n\t\t\t}\n\t\t}\n"
"#endif\n"
"\t\tif (state[d][k] == 1)\n\t\t\tsaid[d][k] = m->yes;\n"
"\t\telse\n\t\t\t(void)FD_RT(GetLastError)();      /* a failed load is no launch error */\n"
"\t}\n\t*why = said[d][k];\n\treturn state[d][k] == 1 ? fn[d][k] : 0;\n}\n\n",
		name, nk, nk, nk, name, name, nk, nk);
	fprintf(o,
"/* Launches the measured build f (of %s_build) with the kernel's arguments a. */\n"
"static int %s_go(const void *f, dim3 grid, dim3 block, void **a, unsigned dyn, void *stream)\n{\n"
"#if defined(__HIPCC__)\n"
"\treturn (int)hipModuleLaunchKernel((hipFunction_t)f, grid.x, grid.y, grid.z, block.x,\n"
"\t\t\t\t\t  block.y, block.z, dyn, (hipStream_t)stream, a, 0);\n"
"#else\n"
"\treturn (int)cudaLaunchKernel(f, grid, block, a, dyn, (cudaStream_t)stream);\n"
"#endif\n}\n\n", name, name);
}

void tn_measured_query(FILE *o, const char *name, const char *kexpr)
{
	fprintf(o, "extern \"C\" int %s_measured(int nx, int ny, int nz, const char **why)\n{\n"
		"\tconst char *w = \"no kernel can launch this grid\";\n%s"
		"\tconst int k = %s;\n"
		"\tconst int yes = k >= 0 && %s_build(k, &w) != 0;\n"
		"\t(void)nx;\n\t(void)ny;\n\t(void)nz;\n"
		"\tif (why)\n\t\t*why = w;\n\treturn yes;\n}\n\n", name,
		strstr(kexpr, "&e") ? "\tint e;\n" : "", kexpr, name);
}

void tn_measured_launch(FILE *o, const char *ind, const char *name, int k, const char *args,
			long long dyn)
{
	char a[256];
	size_t off = 0;
	/* "out, in" -> "&out, &in" */
	for (const char *s = args; *s && off + 4 < sizeof a; s++) {
		if (s == args || s[-1] == ' ')
			a[off++] = '&';
		a[off++] = *s;
	}
	a[off] = 0;
	fprintf(o, "%s{\n%s\tconst char *why;\n%s\tconst void *f = %s_build(%d, &why);\n"
		"%s\tif (f) {\n%s\t\tvoid *a[] = { %s, &g, (void *)c };\n"
		"%s\t\treturn %s_go(f, grid, block, a, %lldu, stream);\n%s\t}\n%s}\n",
		ind, ind, ind, name, k, ind, ind, a, ind, name, dyn, ind, ind);
}
