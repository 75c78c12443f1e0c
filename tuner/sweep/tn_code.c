/*
 * tn_code.c: the compile cache's companion in the database (db_code.c).
 * A code object built from a source by a compiler for an arch is kept in
 * the database under the compile cache's key (tn_cache_key), with the
 * cache's line of the build, so that a program tuning online (libfdtune)
 * on a machine whose cache is empty loads what it would have compiled.
 * `fdtune codes` fills it (tuner/cmd/cmd_codes.c); the online tuning reads
 * it (tuner/online/tn_online.c). A compiler of another version or with
 * other options has other keys and finds nothing: it compiles as before.
 */
#include "tn_code.h"
#include "gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tn_code_get(struct db *d, const char *src, const char *arch, const char *id,
		struct rt_prog *p, char *err, size_t n)
{
	char key[40], *meta = NULL;
	void *code = NULL;
	size_t size = 0;
	int rc, used = 0;

	memset(p, 0, sizeof *p);
	p->regs = p->lds = p->spill = -1;
	if (!d)
		return FDT_NOMATCH;
	tn_cache_key(src, id, arch, key);
	if ((rc = db_code_get(d, key, &meta, &code, &size, err, n)))
		return rc;
	/* what the compilers make: an ELF object (NVRTC's cubin, hiprtc's code
	 * object) or a CUDA fatbin; anything else is never given to a driver */
	if (size < 4 || (memcmp(code, "\177ELF", 4) && memcmp(code, "\x50\xed\x55\xba", 4))) {
		snprintf(err, n, "code %s is not a code object (neither ELF nor a fatbin)", key);
		free(meta);
		free(code);
		return FDT_FAIL;
	}
	/* the cache's line: registers, LDS, spills, compile ms, options */
	if (sscanf(meta, "%d %d %d %lf %n", &p->regs, &p->lds, &p->spill, &p->ms, &used) < 4 ||
	    used <= 0) {
		snprintf(err, n, "code %s: its build line \"%.80s\" is not one this fdtune reads",
			 key, meta);
		free(meta);
		free(code);
		p->regs = p->lds = p->spill = -1;
		return FDT_FAIL;
	}
	snprintf(p->options, sizeof p->options, "%s", meta + used);
	p->options[strcspn(p->options, "\n")] = 0;
	free(meta);
	p->code = code;
	p->size = size;
	if (!(p->log = strdup("from the database's code objects"))) {
		rt_prog_free(p);
		snprintf(err, n, "out of memory");
		return FDT_FAIL;
	}
	return FDT_OK;
}

int tn_code_put(struct db *d, const char *src, const char *arch, const char *id,
		const struct rt_prog *p, char *err, size_t n)
{
	char key[40], hash[17], meta[700];
	struct db_code c;
	if (!p->code || !p->size) {
		snprintf(err, n, "keeping code: the build has no code object");
		return FDT_FAIL;
	}
	tn_cache_key(src, id, arch, key);
	gen_hash(src, hash);
	snprintf(meta, sizeof meta, "%d %d %d %.3f %s", p->regs, p->lds, p->spill, p->ms,
		 p->options);
	c = (struct db_code){ key, arch, id, hash, meta };
	return db_code_put(d, &c, p->code, p->size, err, n);
}
