/*
 * tn_defaults.c: a build tool that prints fdt_defaults.h, libfdtune's table
 * of every family's default (what fdtune_lookup gives when nothing is
 * recorded, db/fdt_lib.c), from the family descriptors' dflt (tn.h), so
 * that a default has one home: libfdtune cannot link the tuner, and make
 * runs this on every build. A row per family, precision and radius 1..8:
 * the descriptor's default, and where that needs more LDS per block than
 * every device gives without opting in (48 KiB), its last parameter that can
 * bring it under at the first value of its domain that does (xyz at R = 7
 * and 8: pf = 0).
 */
#include "db.h"
#include "fdtune.h"
#include "tn.h"

#include <stdio.h>
#include <string.h>

/* a family's parameters fit libfdtune's configurations */
_Static_assert(TN_MAXP <= FDTUNE_MAXP, "TN_MAXP exceeds libfdtune's FDTUNE_MAXP");

/* libfdtune's struct fdtune_config: at most 16 parameters, names of 15 */
enum { LIB_NP = 16, LIB_NAME = 15 };

/* The row of f's default for precision prec and radius r. */
static int row(struct db *db, const struct tn_family *f, const char *prec, int r)
{
	struct tn_problem pb = { f, r, 512, 512, 512, prec, { 1, 1, 1 } };
	int v[TN_MAXP], moved, np = 0;
	unsigned given;
	char err[512], why[256];
	if (tn_config_parse(db, f, f->dflt, v, &given, err, sizeof err)) {
		fprintf(stderr, "tn_defaults: %s's default %s: %s\n", f->name, f->dflt, err);
		return 1;
	}
	if (tn_default_fit(&pb, v, &moved, why, sizeof why)) {
		fprintf(stderr, "tn_defaults: %s's default does not fit %s R=%d: %s\n", f->name,
			prec, r, why);
		return 1;
	}
	if (moved >= 0)
		given |= 1u << moved;
	printf("\t{ \"%s\", \"%s\", %d, {", f->name, prec, r);
	for (int k = 0; k < f->np; k++)
		if (given >> k & 1) {
			if (strlen(f->p[k].name) > LIB_NAME) {
				fprintf(stderr, "tn_defaults: %s's parameter %s: a name longer than %d "
					"characters does not fit libfdtune's fdtune_config\n", f->name,
					f->p[k].name, LIB_NAME);
				return 1;
			}
			printf("%s\"%s\"", np++ ? ", " : " ", f->p[k].name);
		}
	if (np > LIB_NP) {
		fprintf(stderr, "tn_defaults: %s's default has %d parameters, more than libfdtune's "
			"%d\n", f->name, np, LIB_NP);
		return 1;
	}
	printf(" }, {");
	for (int k = 0, i = 0; k < f->np; k++)
		if (given >> k & 1)
			printf("%s%d", i++ ? ", " : " ", v[k]);
	printf(" }, %d },\n", np);
	return 0;
}

int main(void)
{
	static const char *const prec[] = { "fp32", "fp64" };
	struct db *db = NULL;
	char err[512];
	int rc = 1;
	if (db_open(":memory:", &db, err, sizeof err)) {
		fprintf(stderr, "tn_defaults: %s\n", err);
		return 1;
	}
	printf("/* fdt_defaults.h: every family's default for libfdtune (fdt_lib.c), printed\n"
	       " * by tuner/fam/tn_defaults.c from the family descriptors. DO NOT EDIT. */\n"
	       "static const struct fdt_default {\n\tconst char *family, *precision;\n\tint radius;\n"
	       "\tconst char *name[%d];\n\tint value[%d], np;\n} fdt_defaults[] = {\n", LIB_NP, LIB_NP);
	for (int i = 0; tn_families[i]; i++)
		for (int p = 0; p < 2; p++)
			for (int r = 1; r <= TN_RMAX; r++)
				if (row(db, tn_families[i], prec[p], r))
					goto done;
	printf("};\n");
	rc = ferror(stdout) || fflush(stdout);
done:
	db_close(db);
	return rc;
}
