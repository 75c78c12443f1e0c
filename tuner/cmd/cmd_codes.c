/*
 * cmd_codes.c: `fdtune codes`, code objects kept in a database (db_code.c)
 * for online tuning. A program that tunes online (libfdtune) on a GPU model
 * or grid size the database has not seen takes its candidates from the
 * fastest records of the relatives and would compile each, about a second
 * apiece: longer than a short run lasts. With their code objects kept, its
 * candidates are ready at its first step. This command compiles, for each
 * device model and problem, the kept sources of the K fastest records
 * (and the validation kernel of online tuning) for the model's arch with
 * this fdtune's compiler, and keeps them, so that a program with the same
 * compiler loads them; one with another compiler version compiles as
 * before. Compiles go through the compile cache, so a second run is quick.
 */
#include "db.h"
#include "tn.h"
#include "tn_cli.h"
#include "tn_code.h"
#include "tn_online.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
"usage: fdtune codes --db PATH [--top K]\n"
"Keep in the database the code objects that online tuning (libfdtune's\n"
"fdtune_online_step, the wave example's --online) would compile for its\n"
"candidates: for each device model and problem, those of the K fastest\n"
"records whose sources the database keeps, built for the model's arch by\n"
"this fdtune's compiler, and the validation kernel's. A program whose\n"
"compiler is the same (name, version, options) then loads them and its\n"
"first run is tuned from its first steps; another compiles them. Only the\n"
"archs this fdtune compiles for are done (sm_* with NVRTC, gfx* with\n"
"hiprtc); the others are counted. Run it again after sweeps or a compact.\n"
"  --db PATH     the database, written (default " TN_CLI_DB_DEFAULT ")\n"
"  --top K       records a device model and problem (default 3, 1..100)\n"
"  -h, --help    this text\n";

/* The (arch, source hash) pairs to build, listed before any is written. */
struct want {
	char (*arch)[64];
	char (*hash)[17];
	int n, cap;
};

static int add(void *p, const char *arch, const char *hash)
{
	struct want *w = p;
	if (w->n == w->cap) {
		int cap = w->cap ? 2 * w->cap : 64;
		char(*a)[64] = realloc(w->arch, (size_t)cap * sizeof *a);
		if (a)
			w->arch = a;
		char(*h)[17] = realloc(w->hash, (size_t)cap * sizeof *h);
		if (h)
			w->hash = h;
		if (!a || !h)
			return FDT_FAIL;
		w->cap = cap;
	}
	snprintf(w->arch[w->n], sizeof w->arch[w->n], "%s", arch ? arch : "");
	snprintf(w->hash[w->n], sizeof w->hash[w->n], "%s", hash ? hash : "");
	w->n++;
	return FDT_OK;
}

/* 1 when this build's compiler makes code for arch. */
static int ours(const char *arch)
{
	return !strncmp(arch, strcmp(rt_platform(), "amd") ? "sm_" : "gfx", 3);
}

/* Keeps the code of src for arch unless kept already: 0 kept now, 1 kept
 * before, -1 failed (err set). */
static int keep(struct db *db, const char *src, const char *name, const char *arch,
		long long *bytes, char *err, size_t n)
{
	struct rt_prog p;
	char id[600];
	int rc;
	tn_cache_compiler(arch, id, sizeof id);
	if (!tn_code_get(db, src, arch, id, &p, err, n)) {
		rt_prog_free(&p);
		return 1;
	}
	rc = tn_cache_compile(tn_cache_dir(), src, name, arch, id, &p, NULL, err, n);
	if (!rc)
		rc = tn_code_put(db, src, arch, id, &p, err, n);
	if (!rc)
		*bytes += (long long)p.size;
	rt_prog_free(&p);
	return rc ? -1 : 0;
}

int tn_cmd_codes(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "db", required_argument, 0, TN_O_DB }, { "top", required_argument, 0, TN_O_TOP },
		{ "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 }
	};
	struct tn_cli_seen seen = { 0 };
	const char *path = TN_CLI_DB_DEFAULT;
	struct want w = { 0 };
	struct db *db = NULL;
	char err[2048], last[64] = "";
	long long bytes = 0;
	int opt, top = 3, made = 0, had = 0, other = 0, bad = 0, rc = FDT_FAIL;

	while ((opt = tn_cli_getopt(argc, argv, "h", lo, &seen)) != -1) {
		switch (opt) {
		case TN_O_DB: path = optarg; break;
		case TN_O_TOP:
			if (tn_parse_int(optarg, "--top", 1, 100, &top, err, sizeof err)) {
				fprintf(stderr, "fdtune codes: %s\n%s", err, usage);
				return FDT_USAGE;
			}
			break;
		case 'h': fputs(usage, stdout); return FDT_OK;
		default: fputs(usage, stderr); return FDT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "fdtune codes: unexpected argument %s\n%s", argv[optind], usage);
		return FDT_USAGE;
	}
	/* checked as a reader first, so that a missing file is not made */
	if (tn_cli_db_read(path, 0, &db, err, sizeof err)) {
		fprintf(stderr, "fdtune codes: %s\n", err);
		return FDT_FAIL;
	}
	db_close(db);
	db = NULL;
	if (db_path_check(path, 1, err, sizeof err) || db_open(path, &db, err, sizeof err)) {
		fprintf(stderr, "fdtune codes: %s\n", err);
		return FDT_FAIL;
	}
	*err = 0;
	if (db_each_code_source(db, top, add, &w, err, sizeof err)) {
		fprintf(stderr, "fdtune codes: %s\n", *err ? err : "out of memory");
		goto out;
	}
	for (int i = 0; i < w.n; i++) {
		char *src = NULL;
		int k;
		if (!ours(w.arch[i])) {
			other++;
			continue;
		}
		/* a new arch: online tuning's validation kernel first */
		if (strcmp(last, w.arch[i])) {
			snprintf(last, sizeof last, "%s", w.arch[i]);
			for (int dbl = 0; dbl < 2; dbl++) {
				if ((k = keep(db, tn_on_cmp_src(dbl), "cmp.m4", last, &bytes, err,
					      sizeof err)) < 0) {
					fprintf(stderr, "fdtune codes: the validation kernel for %s: %s\n",
						last, err);
					goto out;
				}
				k ? had++ : made++;
			}
		}
		if (db_source_get(db, w.hash[i], &src, err, sizeof err)) {
			fprintf(stderr, "fdtune codes: source %s passed over: %s\n", w.hash[i], err);
			bad++;
			continue;
		}
		k = keep(db, src, "kept source", w.arch[i], &bytes, err, sizeof err);
		free(src);
		if (k < 0) {
			fprintf(stderr, "fdtune codes: source %s for %s passed over: %s\n", w.hash[i],
				w.arch[i], err);
			bad++;
			continue;
		}
		k ? had++ : made++;
		if ((made + had) % 25 == 0)
			fprintf(stderr, "fdtune codes: %d of %d sources\n", i + 1, w.n);
	}
	printf("fdtune codes: %s: %d code objects kept now (%.0f KiB before deflating), %d kept "
	       "before; %d sources for archs this fdtune (%s) does not compile, %d passed over\n",
	       path, made, bytes / 1024.0, had, other, rt_platform(), bad);
	rc = bad ? FDT_FAIL : FDT_OK;
out:
	free(w.arch);
	free(w.hash);
	db_close(db);
	return rc;
}
