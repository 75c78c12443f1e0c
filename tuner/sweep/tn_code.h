/*
 * tn_code.h: code objects kept in the database under the compile cache's
 * keys (tn_code.c), for online tuning to load instead of compiling.
 */
#ifndef TN_CODE_H
#define TN_CODE_H

#include "db.h"
#include "fdt_rc.h"
#include "rt.h"
#include "tn_cache.h"

/* The code d keeps for src built by compiler id (tn_cache_compiler) for
 * arch, into *p as a compile would fill it (code, resources, options; log
 * says where it came from): FDT_OK; FDT_NOMATCH where d (NULL: none) keeps
 * none; FDT_FAIL with err set where the one kept is damaged. */
int tn_code_get(struct db *d, const char *src, const char *arch, const char *id,
		struct rt_prog *p, char *err, size_t n);
/* Keeps p's code in d as the build of src by compiler id for arch (a code
 * kept already under that key is replaced). */
int tn_code_put(struct db *d, const char *src, const char *arch, const char *id,
		const struct rt_prog *p, char *err, size_t n);

#endif
