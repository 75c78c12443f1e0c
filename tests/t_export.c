/*
 * t_export.c: the measured build in an export, on the CPU. fdtune export of
 * recorded H100 runs ($RESULTS_DB) embeds in NAME.cu the code the sweep
 * timed; this test takes the bytes back out of NAME.cu and checks them
 * against what it makes itself: the run's source generated again and
 * compiled by this build's NVRTC with the options its builds row records
 * must give exactly those bytes, with the registers, LDS and spills of the
 * row, and the hash NAME.h states. It also checks what an export says and
 * does when it cannot embed (--source-only, another compiler version,
 * changed templates), that the files compile with nvcc and hipcc, and
 * the same for a gfx90a build of an fdtune built for ROCm.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "gen.h"
#include "rt.h"
#include "t_util.h"
#include "tn.h"

static char dir[] = "/tmp/fdt-export-XXXXXX", db[256];

static int setup(void **st)
{
	const char *src = getenv("RESULTS_DB");
	char cmd[1024], out[256];
	(void)st;
	if (!mkdtemp(dir))
		return -1;
	snprintf(db, sizeof db, "%s/h100.db", dir);
	snprintf(cmd, sizeof cmd, "cp '%s' %s", src ? src : "results/h100/fdtune.db", db);
	return t_sh(cmd, out, sizeof out) ? -1 : 0;
}

static int teardown(void **st)
{
	(void)st;
	t_rmtree(dir);
	return 0;
}

/* The whole of file path, NUL-terminated, in a malloc'ed buffer. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *s = NULL;
	long len;
	if (f && !fseek(f, 0, SEEK_END) && (len = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET) &&
	    (s = calloc(1, (size_t)len + 1)) && fread(s, 1, (size_t)len, f) != (size_t)len) {
		free(s);
		s = NULL;
	}
	if (f)
		fclose(f);
	return s;
}

/* The bytes of array `name` in the text of a NAME.cu: *size of them. */
static unsigned char *image(const char *cu, const char *name, size_t *size)
{
	char key[64];
	const char *s, *end;
	unsigned char *b;
	snprintf(key, sizeof key, "%s[", name);
	if (!(s = strstr(cu, key)) || sscanf(s + strlen(key), "%zu", size) != 1 ||
	    !(s = strchr(s, '{')) || !(end = strchr(s, '}')) || !(b = malloc(*size)))
		return NULL;
	for (size_t i = 0; i < *size; i++) {
		unsigned v;
		if (!(s = strstr(s, "0x")) || s > end || sscanf(s, "0x%2x", &v) != 1) {
			free(b);
			return NULL;
		}
		b[i] = (unsigned char)v;
		s += 4;
	}
	return b;
}

/* FNV-1a 64 of b[0..n), as hex: written here again, not taken from fdtune. */
static void fnv(const unsigned char *b, size_t n, char hex[17])
{
	unsigned long long h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	snprintf(hex, 17, "%016llx", h);
}

/* Exports the 512^3 best of args from the copy of $RESULTS_DB into dir/sub
 * as k.h and k.cu (extra options in more). */
static void export(const char *sub, const char *args, const char *more, const char *dbpath)
{
	char a[1024], out[8192];
	snprintf(a, sizeof a, "export --db %s --device H100 --out %s/%s --name k %s %s", dbpath,
		 dir, sub, args, more);
	if (t_fdtune("", a, out, sizeof out))
		fail_msg("fdtune %s:\n%s", a, out);
}

/* The embedded image of iso3dfd R = 8 and of xyz R = 4, 512^3 fp32, is what
 * this build's compiler makes of the run's source (the one the database
 * keeps, so the templates may have changed since) with the recorded options. */
static void embedded_is_recorded(void **st)
{
	static const char *const probs[] = { "-f iso3dfd -r 8 -n 512", "-f xyz -r 4 -n 512" };
	(void)st;
	if (strcmp(rt_platform(), "nvidia"))
		skip();         /* the records are NVIDIA builds; an AMD fdtune cannot embed them */
	{
		char comp[64];
		rt_compiler(comp, sizeof comp);
		if (strcmp(comp, "nvrtc 13.0")) {       /* what every H100 build records */
			printf("skipped: the records are nvrtc 13.0 builds and this NVRTC is %s\n", comp);
			skip();
		}
	}
	for (size_t q = 0; q < sizeof probs / sizeof probs[0]; q++) {
		char sub[16], path[512], hex[17], sh[17], opts[512], e[4096], *h, *cu, *src = NULL;
		long long run, build;
		size_t size;
		unsigned char *img;
		struct db *d = NULL;
		struct db_pick p;
		struct db_build_row b;
		const struct tn_family *f;
		struct gen_def defs[TN_MAXP + 2];
		struct rt_prog pr;
		int v[TN_MAXP];
		snprintf(sub, sizeof sub, "e%zu", q);
		export(sub, probs[q], "", db);
		snprintf(path, sizeof path, "%s/%s/k.h", dir, sub);
		assert_non_null(h = slurp(path));
		assert_non_null(strstr(h, "kernel 0: the measured build: run "));
		assert_int_equal(sscanf(strstr(h, "kernel 0: the measured build: run ") + 34,
					"%lld's build %lld", &run, &build), 2);
		snprintf(path, sizeof path, "%s/%s/k.cu", dir, sub);
		assert_non_null(cu = slurp(path));
		assert_non_null(img = image(cu, "k_code0", &size));
		/* the hash NAME.h states is the hash of the bytes NAME.cu holds */
		fnv(img, size, hex);
		assert_non_null(strstr(h, hex));
		/* the run's source again, compiled with its build's options */
		assert_int_equal(db_open(db, &d, e, sizeof e), 0);
		assert_int_equal(db_pick(d, NULL, run, &p, e, sizeof e), 0);
		assert_int_equal(db_run_build(d, run, &b, e, sizeof e), 0);
		assert_true(b.id == build);
		assert_non_null(f = tn_family(p.family));
		for (int i = 0; i < f->np; i++) {
			int found;
			assert_int_equal(db_json_int(d, p.params, f->p[i].name, &v[i], &found, e,
						     sizeof e), 0);
			if (!found)
				v[i] = f->p[i].v[0];
		}
		struct tn_problem pb = { f, p.radius, p.nx, p.ny, p.nz, p.precision, { 1, 1, 1 } };
		/* the source the database keeps for the build (issue 34), else
		 * today's templates' (a record older than kept sources) */
		if (db_source_get(d, b.source_hash, &src, e, sizeof e))
			assert_int_equal(gen_source(f->tmpl, "fdt_kernel", defs, tn_defs(&pb, v, defs),
						    &src, e, sizeof e), 0);
		gen_hash(src, sh);
		assert_string_equal(sh, b.source_hash);
		rt_compiler(opts, sizeof opts);
		assert_string_equal(opts, b.compiler_version);
		if (rt_compile(src, f->tmpl, b.arch, NULL, 0, &pr, e, sizeof e))
			fail_msg("%s", e);
		assert_int_equal(pr.size, size);
		assert_memory_equal(pr.code, img, size);
		assert_int_equal(pr.regs, b.regs);
		assert_int_equal(pr.spill, b.spill_bytes);
		assert_int_equal(pr.lds + (int)tn_dyn_lds(&pb, v), b.lds_bytes);
		rt_prog_free(&pr);
		db_close(d);
		free(src);
		free(img);
		free(cu);
		free(h);
	}
}

/* k.h's line on kernel 0 contains needle; k.cu holds an image or not. */
static void says(const char *sub, const char *needle, int embedded)
{
	char path[512], *h, *cu;
	snprintf(path, sizeof path, "%s/%s/k.h", dir, sub);
	assert_non_null(h = slurp(path));
	if (!strstr(h, needle))
		fail_msg("%s lacks '%s':\n%s", path, needle, h);
	snprintf(path, sizeof path, "%s/%s/k.cu", dir, sub);
	assert_non_null(cu = slurp(path));
	assert_int_equal(strstr(cu, "k_code0[") != NULL, embedded);
	assert_non_null(strstr(cu, "k_measured("));
	free(cu);
	free(h);
}

/* Where the build cannot be embedded the export still works, from source,
 * and NAME.h says why: --source-only, a build of another compiler version,
 * a build of other templates (its source hash differs). */
static void cannot_embed(void **st)
{
	char cmd[1024], out[4096], alt[300];
	(void)st;
	export("s", "-f iso3dfd -r 8 -n 512", "--source-only", db);
	says("s", "kernel 0: not embedded: exported with --source-only", 0);
	if (strcmp(rt_platform(), "nvidia"))
		skip();
	snprintf(alt, sizeof alt, "%s/alt.db", dir);
	snprintf(cmd, sizeof cmd, "cp %s %s && sqlite3 %s \"update builds set compiler_version = "
		 "'nvrtc 12.4' where compiler_version like 'nvrtc%%'\"", db, alt, alt);
	t_ok(cmd, out, sizeof out);
	export("v", "-f iso3dfd -r 8 -n 512", "", alt);
	says("v", "was built by nvrtc 12.4, and this fdtune compiles with nvrtc", 0);
	snprintf(cmd, sizeof cmd, "cp %s %s && sqlite3 %s \"update builds set source_hash = "
		 "'0123456789abcdef'\"", db, alt, alt);
	t_ok(cmd, out, sizeof out);
	export("t", "-f xyz -r 4 -n 512", "", alt);
	says("t", "the templates changed since", 0);
}

/* The measured build goes through the sweeps' compile cache: an export
 * stores what it compiled there, the next takes it from there, and the
 * three exports (cache cold, warm, and off) write the same NAME.cu. */
static void through_the_cache(void **st)
{
	char env[600], a[1024], out[8192], cmd[2048];
	(void)st;
	for (int k = 0; k < 3; k++) {
		snprintf(env, sizeof env, "FDTUNE_CACHE=%s%s", k < 2 ? dir : "", k < 2 ? "/cache" : "");
		snprintf(a, sizeof a, "export --db %s --device H100 --out %s/c%d --name k -f iso3dfd "
			 "-r 8 -n 512", db, dir, k);
		if (t_fdtune(env, a, out, sizeof out))
			fail_msg("%s fdtune %s:\n%s", env, a, out);
		if (k == 0) {
			snprintf(cmd, sizeof cmd, "ls %s/cache | grep -c . | grep -qv '^0$'", dir);
			t_ok(cmd, out, sizeof out);
		}
	}
	says("c1", "the measured build", 1);
	snprintf(cmd, sizeof cmd, "cmp %s/c0/k.cu %s/c1/k.cu && cmp %s/c0/k.cu %s/c2/k.cu", dir, dir,
		 dir, dir);
	t_ok(cmd, out, sizeof out);
}

/* NAME.cu with its embedded build compiles with nvcc for sm_90 and with
 * hipcc for gfx90a (where they are installed): one kernel, --all-devices
 * and --all-sizes. */
static void compiles(void **st)
{
	static const char *const kinds[] = { "-f iso3dfd -r 8 -n 512", "-f xyz -r 8 --all-sizes",
					     "-f dxz -r 4 -n 512" };
	char nvcc[512], cmd[2048], out[8192];
	(void)st;
	t_nvcc(nvcc, sizeof nvcc);
	if (!*nvcc && t_sh("command -v hipcc", out, sizeof out))
		skip();
	for (size_t q = 0; q < sizeof kinds / sizeof kinds[0]; q++) {
		char sub[16];
		snprintf(sub, sizeof sub, "c%zu", q);
		export(sub, kinds[q], "", db);
		if (*nvcc) {
			snprintf(cmd, sizeof cmd, "%s -arch=sm_90 -c %s/%s/k.cu -o %s/%s/k.o", nvcc, dir,
				 sub, dir, sub);
			t_ok(cmd, out, sizeof out);
		}
		if (!t_sh("command -v hipcc", out, sizeof out)) {
			snprintf(cmd, sizeof cmd, "hipcc -x hip --offload-arch=gfx90a -c %s/%s/k.cu -o "
				 "%s/%s/k-amd.o", dir, sub, dir, sub);
			t_ok(cmd, out, sizeof out);
		}
	}
}

/* The AMD side: an fdtune built for ROCm (ROOT/fdtune-amd, made where HIP is
 * installed) records a gfx90a build of a compile-only sweep; a run of it is
 * added by hand, as a board would have timed it (no AMD GPU here); the
 * export then embeds hiprtc's code object, whose bytes NAME.h's hash
 * states, under the guard that only hipcc sees, and compiles with hipcc and
 * with nvcc (which takes the source kernel). */
static void amd_image(void **st)
{
	const char *root = getenv("ROOT");
	char amd[512], cmd[2048], out[8192], path[512], hex[17], nvcc[512], *h, *cu;
	unsigned char *img;
	size_t size;
	(void)st;
	snprintf(amd, sizeof amd, "%s/fdtune-amd", root ? root : ".");
	snprintf(cmd, sizeof cmd, "command -v hipcc && test -x %s", amd);
	if (t_sh(cmd, out, sizeof out))
		skip();
	snprintf(cmd, sizeof cmd, "cd %s && %s sweep --compile-only -q --db amd.db -r 4 -n 64 "
		 "-p vec=4 -p bx=64 -p by=4 -p ypt=1 -p lds=1 -p nw=64 -p nt=0 -p pf=0 -p zu=1 && "
		 "sqlite3 amd.db \"INSERT INTO devices(vendor, name, arch, uuid, copy_gbs) VALUES "
		 "('amd', 'AMD Instinct MI250X', 'gfx90a', 'pci:test', 3200); INSERT INTO runs(sweep_id, "
		 "build_id, device_id, problem_id, config_id, status, median_ms, gbs, pct_copy, reps) "
		 "SELECT 1, id, (SELECT id FROM devices WHERE vendor = 'amd'), 1, config_id, 'ok', 0.01, "
		 "100, 3, 30 FROM builds\" && %s export --db amd.db -r 4 -n 64 --out a --name k", dir,
		 amd, amd);
	t_ok(cmd, out, sizeof out);
	snprintf(path, sizeof path, "%s/a/k.h", dir);
	assert_non_null(h = slurp(path));
	if (!strstr(h, "kernel 0: the measured build: run 1's build 1, hiprtc "))
		fail_msg("%s", h);
	snprintf(path, sizeof path, "%s/a/k.cu", dir);
	assert_non_null(cu = slurp(path));
	assert_non_null(strstr(cu, "#if defined(__HIPCC__)\n/* kernel 0's measured build"));
	assert_non_null(img = image(cu, "k_code0", &size));
	assert_memory_equal(img, "\177ELF", 4);       /* an AMDGPU code object */
	fnv(img, size, hex);
	assert_non_null(strstr(h, hex));
	snprintf(cmd, sizeof cmd, "hipcc -x hip --offload-arch=gfx90a -c %s/a/k.cu -o %s/a/k.o",
		 dir, dir);
	t_ok(cmd, out, sizeof out);
	t_nvcc(nvcc, sizeof nvcc);
	if (*nvcc) {
		snprintf(cmd, sizeof cmd, "%s -arch=sm_90 -c %s/a/k.cu -o %s/a/k-nv.o", nvcc, dir, dir);
		t_ok(cmd, out, sizeof out);
	}
	free(img);
	free(cu);
	free(h);
}

/* One ABI: the structs every kernel's prelude defines (whose text the
 * recorded source hashes cover, so it stays as it is) are those of
 * templates/fdt_abi.h, which fdtune, exports and users include. */
static void abi_one_definition(void **st)
{
	const char *dir_t = getenv("TEMPLATES");
	struct gen_def d[] = { { "dbl", 0 } };
	char path[512], e[1024], *pre = NULL, *abi, *c, body[256];
	(void)st;
	snprintf(path, sizeof path, "%s/fdt_abi.h", dir_t ? dir_t : "templates");
	assert_non_null(abi = slurp(path));
	assert_int_equal(gen_source("prelude.m4", "none", d, 1, &pre, e, sizeof e), 0);
	assert_non_null(strstr(pre, "struct fd_grid { int nx, ny, nz, ld; long long slice; };"));
	assert_non_null(strstr(abi, "struct fd_grid { int nx, ny, nz, ld; long long slice; };"));
	/* FD_COEF_OF(T)'s body with T = fd_real is the prelude's fd_coef */
	assert_non_null(c = strstr(abi, "#define FD_COEF_OF(T) "));
	assert_int_equal(sscanf(c + strlen("#define FD_COEF_OF(T) "), "%255[^\n]", body), 1);
	for (char *t; (t = strstr(body, "T "));)
		memmove(t + 8, t + 2, strlen(t + 2) + 1), memcpy(t, "fd_real ", 8);
	snprintf(path, sizeof path, "struct fd_coef %s;", body);
	if (!strstr(pre, path))
		fail_msg("the prelude does not define '%s'", path);
	free(pre);
	free(abi);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(embedded_is_recorded),
		cmocka_unit_test(cannot_embed),
		cmocka_unit_test(through_the_cache),
		cmocka_unit_test(compiles),
		cmocka_unit_test(amd_image),
		cmocka_unit_test(abi_one_definition),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
