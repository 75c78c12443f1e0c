/*
 * tn_cache.h: the compile cache of sweeps (tn_cache.c). Safe to use from
 * the compile threads: entries are files, written whole.
 */
#ifndef TN_CACHE_H
#define TN_CACHE_H

#include "rt.h"

/* $FDTUNE_CACHE (an absolute path), else ~/.cache/fdtune, created where
 * missing (HOME itself never is), checked on the first call; NULL when
 * caching is off: FDTUNE_CACHE set empty, or a directory that cannot be used
 * (a relative FDTUNE_CACHE, no HOME, a file, not writable), which the first
 * call says on stderr. Not thread-safe before its first call returns. */
const char *tn_cache_dir(void);
/* The key of a source for a compiler (name, version and options) and arch. */
void tn_cache_key(const char *src, const char *compiler, const char *arch, char key[40]);
/* 0 and *p filled (code, resources, options; log says it was cached), or 1
 * when there is no entry. */
int tn_cache_get(const char *dir, const char *key, struct rt_prog *p);
/* 0 when stored; failures only cost a later compile. */
int tn_cache_put(const char *dir, const char *key, const struct rt_prog *p);

#endif
