/*
 * tn_families.c: the family table, and finding a family by name. Adding a
 * family is one template in templates/, one descriptor in fam_NAME.c (the
 * Makefile builds every tuner/fam/fam_*.c), and its line here, declared
 * and listed (docs/contributing.md); what descriptors share is in
 * fam_share.c, below this table, so that no descriptor depends on it.
 */
#include "fdt_rc.h"
#include "fam.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const struct tn_family tn_fam_xyz;
extern const struct tn_family tn_fam_bugs;      /* test only: FDTUNE_TEST_BUGS=1 */
extern const struct tn_family tn_fam_x, tn_fam_y, tn_fam_z, tn_fam_xy;
extern const struct tn_family tn_fam_xs, tn_fam_ym, tn_fam_zm;
extern const struct tn_family tn_fam_dxy, tn_fam_dxz, tn_fam_dyz, tn_fam_d1x, tn_fam_d1y, tn_fam_d1z;
extern const struct tn_family tn_fam_iso3dfd;

const struct tn_family *const tn_families[] = {
	&tn_fam_xyz,
	&tn_fam_x, &tn_fam_y,
	&tn_fam_z, &tn_fam_xy,
	&tn_fam_xs, &tn_fam_ym, &tn_fam_zm,
	&tn_fam_dxy, &tn_fam_dxz, &tn_fam_dyz, &tn_fam_d1x, &tn_fam_d1y, &tn_fam_d1z,
	&tn_fam_iso3dfd,
	NULL
};

const struct tn_family *tn_family(const char *name)
{
	const char *bugs = getenv("FDTUNE_TEST_BUGS");
	for (int i = 0; tn_families[i]; i++)
		if (!strcmp(tn_families[i]->name, name))
			return tn_families[i];
	if (bugs && !strcmp(bugs, "1") && !strcmp(name, tn_fam_bugs.name))
		return &tn_fam_bugs;            /* test only: fam_bugs.c */
	return NULL;
}

int tn_family_find(const char *name, const struct tn_family **f, char *err, size_t n)
{
	int o;
	if ((*f = tn_family(name)))
		return FDT_OK;
	/* bytes that would not show (a BOM, control characters) are written \xNN */
	o = snprintf(err, n, "--family '");
	for (const unsigned char *c = (const unsigned char *)name; *c && o > 0 && (size_t)o < n &&
	     c - (const unsigned char *)name < 64; c++)
		o += snprintf(err + o, n - (size_t)o, *c < 0x20 || *c >= 0x7f ? "\\x%02x" : "%c", *c);
	if (o > 0 && (size_t)o < n)
		o += snprintf(err + o, n - (size_t)o, "': unknown; families:");
	for (int i = 0; tn_families[i] && o > 0 && (size_t)o < n; i++)
		o += snprintf(err + o, n - (size_t)o, " %s", tn_families[i]->name);
	return FDT_USAGE;
}
