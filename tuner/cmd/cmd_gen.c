/*
 * cmd_gen.c: fdtune gen, the generator's command line. It prints the source
 * of one configuration, writes every configuration of a space into a
 * directory (one file each, parameters in the name), or lists the families.
 */
#define _POSIX_C_SOURCE 200809L
#include "gen.h"
#include "rt.h"
#include "tn_cli.h"
#include "tn_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
"usage: fdtune gen [options]\n"
"Print the kernel source of one configuration, or with --all write every\n"
"configuration of the space into a directory.\n\n"
TN_CLI_PROBLEM_HELP
"      --all             every configuration that passes the constraints\n"
"  -o, --out DIR         directory for --all (created if missing)\n"
"      --arch ARCH       target whose limits apply (default " "the platform's)\n"
"      --list            list the families (with -f, that one) and their parameter domains\n"
"  -h, --help            this text\n"
"Without --all every parameter takes one value: the one given with --param,\n"
"else the first of its default domain.\n";

/* The families and their parameters; only that family when only is not NULL. */
static void list(const struct tn_family *only)
{
	for (int i = 0; tn_families[i]; i++) {
		const struct tn_family *f = tn_families[i];
		if (only && f != only)
			continue;
		printf("%s: %s (templates/%s)\n", f->name, f->help, f->tmpl);
		for (int k = 0; k < f->np; k++) {
			printf("  %-5s %-52s", f->p[k].name, f->p[k].help);
			for (int j = 0; j < f->p[k].n; j++)
				printf("%s%d", j ? "," : " ", f->p[k].v[j]);
			printf("\n");
		}
		if (f->dflt_out_help)
			printf("  default space: %s\n", f->dflt_out_help);
	}
}

static int write_all(const struct tn_cli_problem *c, const struct tn_limits *lim,
		     const char *dir, char *err, size_t n)
{
	const struct tn_family *f = c->pb.fam;
	long long total = tn_space_size(&c->sp), wrote = 0, pruned = 0, replaced = 0, left = 0;
	if (tn_mkdirs(dir, err, n))
		return FDT_FAIL;
	for (long long i = 0; i < total; i++) {
		int v[TN_MAXP];
		char path[4096], why[256], *src;
		size_t o;
		int again = 0;
		FILE *fp;
		tn_space_at(&c->sp, i, v);
		if (f->check(&c->pb, v, lim, why, sizeof why)) {
			pruned++;
			continue;
		}
		if (tn_space_out(&c->sp, &c->pb, v, why, sizeof why)) {
			left++;
			continue;
		}
		o = (size_t)snprintf(path, sizeof path, "%s/%s_r%d", dir, f->name, c->pb.r);
		for (int k = 0; k < f->np && o < sizeof path; k++)
			o += (size_t)snprintf(path + o, sizeof path - o, "_%s%d", f->p[k].name, v[k]);
		if (o < sizeof path)
			snprintf(path + o, sizeof path - o, ".cu");
		if (tn_source(&c->pb, v, &src, err, n))
			return FDT_FAIL;
		if (!tn_file_open(path, &fp, err, n))
			fputs(src, fp);
		free(src);
		if (!fp || tn_file_close(fp, path, &again, err, n))
			return FDT_FAIL;
		wrote++;
		replaced += again;
	}
	fprintf(stderr, "fdtune gen: wrote %lld files to %s (%lld configurations pruned "
		"by the constraints", wrote, dir, pruned);
	if (replaced)
		fprintf(stderr, "; %lld of the files written replaced files already there", replaced);
	if (left)
		fprintf(stderr, "; %lld left out of the default space: %s", left,
			f->dflt_out_help ? f->dflt_out_help : "the family's rule");
	fputs(")\n", stderr);
	return FDT_OK;
}

int tn_cmd_gen(int argc, char **argv)
{
	static const struct option lo[] = {
		TN_CLI_PROBLEM_OPTIONS,
		{ "all", no_argument, 0, TN_O_ALL },
		{ "out", required_argument, 0, 'o' },
		{ "arch", required_argument, 0, TN_O_ARCH },
		{ "list", no_argument, 0, TN_O_LIST },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 }
	};
	struct tn_cli_problem c;
	struct tn_limits lim;
	const char *out = NULL, *arch = rt_default_arch();
	char err[1024], why[256];
	int opt, all = 0, listing = 0, family = 0, rc, v[TN_MAXP];
	char *src;

	tn_cli_problem_init(&c);
	struct tn_cli_seen seen = { 0 };
	int used;
	while ((opt = tn_cli_getopt(argc, argv, TN_CLI_PROBLEM_SHORT "o:h", lo, &seen)) != -1) {
		if (tn_cli_problem_opt(&c, opt, optarg, &used, err, sizeof err)) {
			fprintf(stderr, "fdtune gen: %s\n", err);
			return FDT_USAGE;
		}
		if (used)
			continue;
		switch (opt) {
		case TN_O_ALL: all = 1; break;
		case 'o': out = optarg; break;
		case TN_O_ARCH: arch = optarg; break;
		case TN_O_LIST: listing = 1; break;
		case 'h': fputs(usage, stdout); return FDT_OK;
		default: fputs(usage, stderr); return FDT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "fdtune gen: unexpected argument '%s'\n%s", argv[optind], usage);
		return FDT_USAGE;
	}
	/* --list takes -f (one family), checked as everywhere: an unknown one
	 * is a usage error */
	if ((rc = tn_cli_problem_done(&c, err, sizeof err))) {
		fprintf(stderr, "fdtune gen: %s\n", err);
		return rc;
	}
	for (int i = 0; i < seen.n; i++)
		family |= seen.opt[i] == 'f';
	if (listing) {
		list(family ? c.pb.fam : NULL);
		return FDT_OK;
	}
	tn_limits_of_arch(arch, &lim);
	if (all != !!out) {
		fprintf(stderr, "fdtune gen: --all and --out go together\n");
		return FDT_USAGE;
	}
	if (all) {
		rc = write_all(&c, &lim, out, err, sizeof err);
		if (rc)
			fprintf(stderr, "fdtune gen: %s\n", err);
		return rc;
	}
	for (int i = 0; i < c.pb.fam->np; i++) {
		const char *name = c.pb.fam->p[i].name;
		size_t len = strlen(name);
		int given = 0;
		for (int j = 0; j < c.nparams; j++)
			given |= !strncmp(c.params[j], name, len) && c.params[j][len] == '=';
		if (given && c.sp.n[i] != 1) {
			fprintf(stderr, "fdtune gen: --param %s has %d values; gen prints one "
				"configuration (use --all for a space)\n", name, c.sp.n[i]);
			return FDT_USAGE;
		}
		v[i] = c.sp.v[i][0];
	}
	if (c.pb.fam->check(&c.pb, v, &lim, why, sizeof why)) {
		fprintf(stderr, "fdtune gen: impossible configuration for %s: %s\n", arch, why);
		return FDT_USAGE;
	}
	if (tn_source(&c.pb, v, &src, err, sizeof err)) {
		fprintf(stderr, "fdtune gen: %s\n", err);
		return FDT_FAIL;
	}
	fputs(src, stdout);
	free(src);
	return FDT_OK;
}
