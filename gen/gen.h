/*
 * gen.h: the kernel generator. It expands an m4 template (run as m4 -P -E)
 * with one value per parameter and returns the C/HIP source. Every parameter
 * NAME=v reaches the template as the macro FDT_NAME (upper case); FDT_PARAMS
 * carries "name=v ..." for the DO NOT EDIT banner and FDT_KERNEL the kernel's
 * symbol. Expansion fails when m4 fails or when any FDT_ or m4_ name is left
 * in the output (an undefined or misspelt macro).
 */
#ifndef GEN_H
#define GEN_H

#include "fdt_rc.h"     /* the functions that can fail return its statuses */

#include <stddef.h>

struct gen_def { const char *name; int value; };

/* Directory of the templates: $FDTUNE_TEMPLATES, else the one built in. */
const char *gen_template_dir(void);
/* 0 when template tmpl (a file name) can be read in gen_template_dir();
 * else 1 with err naming the path, the reason and what to set. */
int gen_template_check(const char *tmpl, char *err, size_t n);

/* *src is malloc'ed on success. */
int gen_source(const char *tmpl, const char *kernel, const struct gen_def *defs,
	       int ndef, char **src, char *err, size_t n);

/* 64-bit FNV-1a of s (gen_hash) or of p[0..n) (gen_hash_bytes), as 16 hex
 * digits in hex[17]. */
void gen_hash(const char *s, char hex[17]);
void gen_hash_bytes(const void *p, size_t n, char hex[17]);

#endif
