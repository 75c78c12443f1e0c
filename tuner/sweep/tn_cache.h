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
/* What decides the code besides the source and arch: the compiler, its
 * version and the options it gets for arch, into id[0..n) (the cache's
 * compiler, as tn_cache_key takes it). */
void tn_cache_compiler(const char *arch, char *id, size_t n);
/* rt_compile of src (program name tmpl) for arch by compiler id, or its
 * code from the cache dir (NULL: none), where a compile is stored: the one
 * way the sweeps' pool, export and online tuning build a kernel. *cached
 * (may be NULL) says which; rt_compile's status and message. With a cache,
 * calls of one process for one source compile it once at a time: a second
 * waits for the first's compile, then reads what it stored. */
int tn_cache_compile(const char *dir, const char *src, const char *tmpl, const char *arch,
		     const char *id, struct rt_prog *p, int *cached, char *err, size_t n);
/* The compile tn_cache_compile calls: rt_compile's contract; NULL (the
 * default) rt_compile itself. A sweep sets tn_cproc_compile there with
 * compile processes on (the default), and back to NULL at its end. */
typedef int tn_compile_fn(const char *src, const char *name, const char *arch,
			  struct rt_prog *p, char *err, size_t n);
void tn_cache_set_compile(tn_compile_fn *fn);

/* Its size, limit and cleaning (tn_cache_use.c). */
#define TN_CACHE_MAX_DEFAULT (2LL << 30)        /* bytes, unless FDTUNE_CACHE_MAX */
struct tn_cache_use {
	long long entries, bytes;       /* what is left */
	long long removed, removed_bytes;
	long long foreign;              /* files of other forms, never touched */
};
/* Marks the entry KEY as used now (the trim removes the least recently used). */
void tn_cache_touch(const char *dir, const char *key);
/* Counts the entries of the cache dir into *u and, with max >= 0, removes
 * the least recently used until their bytes are at most max (0 empties it);
 * temporary files of interrupted writes older than an hour go too. 0, or 1
 * with err set when dir cannot be read. */
int tn_cache_trim(const char *dir, long long max, struct tn_cache_use *u, char *err, size_t n);
/* $FDTUNE_CACHE_MAX into *max (TN_CACHE_MAX_DEFAULT when unset); 1 with err
 * set when it is no size. */
int tn_cache_limit(long long *max, char *err, size_t n);
/* b bytes as text in KiB or MiB, into s[0..n). */
void tn_cache_fmt(long long b, char *s, size_t n);
/* A size: bytes, or a number with K, M or G (1024-based; GiB and GB alike). */
int tn_cache_size_parse(const char *s, long long *bytes, char *err, size_t n);

#endif
