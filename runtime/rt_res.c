/*
 * rt_res.c: the resources a run-time compiler reports for one kernel of a
 * program (registers, static LDS bytes, spill or scratch bytes), read from
 * what it hands back: ptxas's -v report in NVRTC's log, or the AMDGPU
 * metadata (msgpack, in a note of the code object) of hiprtc's code. Plain
 * C on text and bytes, the same for both builds of rt.c (which reads every
 * program it compiles through rt_prog_kernel) and for the tests, which
 * compile several kernels a program: hiprtc pays some 0.3 s a program
 * before the first kernel (NOTES, issue 33).
 */
#include "rt.h"

#include <limits.h>
#include <string.h>

/* ---- NVRTC: ptxas -v ---- */

/* Value of the number just before `tail` in log[0..end), or -1 (also for
 * one past INT_MAX). */
static int ptxas_num(const char *log, const char *end, const char *tail)
{
	const size_t tl = strlen(tail);
	const char *s = NULL, *d;
	long long v = 0;
	for (const char *p = log; (size_t)(end - p) >= tl; p++)
		if (!memcmp(p, tail, tl)) {
			s = p;
			break;
		}
	if (!s)
		return -1;
	while (s > log && s[-1] == ' ')
		s--;
	d = s;
	while (s > log && s[-1] >= '0' && s[-1] <= '9')
		s--;
	if (s == d)
		return -1;
	for (; s < d && v <= INT_MAX; s++)
		v = v * 10 + (*s - '0');
	return v <= INT_MAX ? (int)v : -1;
}

int rt_res_ptxas(const char *log, const char *name, int *regs, int *lds, int *spill)
{
	static const char entry[] = "Compiling entry function '";
	const char *b, *e = NULL;
	*regs = *lds = *spill = -1;
	if (!log)
		return -1;
	/* from the entry function named (NULL: the first) to the next one */
	for (b = strstr(log, entry); b && name; b = strstr(b + 1, entry))
		if (!strncmp(b + sizeof entry - 1, name, strlen(name)) &&
		    b[sizeof entry - 1 + strlen(name)] == '\'')
			break;
	if (b)
		e = strstr(b + 1, entry);
	else if (name)
		return -1;
	else
		b = log;                /* no entry function named: the whole report */
	if (!e)
		e = b + strlen(b);
	*regs = ptxas_num(b, e, " registers");
	*spill = ptxas_num(b, e, " bytes spill stores");
	*lds = ptxas_num(b, e, " bytes smem");
	if (*regs >= 0 && *lds < 0)
		*lds = 0;               /* ptxas omits smem when there is none */
	return *regs >= 0 ? 0 : -1;
}

/* ---- hiprtc: the AMDGPU metadata, msgpack ---- */

/* The msgpack value at c[0..n): its kind ('u' unsigned, 's' string, 'a'
 * array, 'm' map, 'o' other), *v (the unsigned, or the string's length, or
 * the items of an array or the pairs of a map), *at (where the string's
 * bytes or the items start); returns the bytes of its head (strings: and
 * of their bytes; 'o': of the whole value), 0 when it does not fit in n. */
static size_t mp_head(const unsigned char *c, size_t n, int *kind, unsigned long long *v,
		      const unsigned char **at)
{
	static const unsigned char fixed[] = {   /* 0xc0..0xdf: bytes after the tag, or -size byte */
		0, 0, 0, 0, 1, 2, 4, 1, 2, 4, 4, 8, 1, 2, 4, 8, 1, 2, 4, 8, 2, 3, 5, 9, 17, 1, 2, 4,
		2, 4, 2, 4 };
	size_t h, len;
	unsigned t;
	if (!n)
		return 0;
	t = c[0];
	*kind = 'o';
	*v = 0;
	*at = c + 1;
	if (t < 0x80 || t >= 0xe0) {            /* fixint, negative fixint */
		*kind = t < 0x80 ? 'u' : 'o';
		*v = t;
		return 1;
	}
	if (t < 0xa0) {                         /* fixmap, fixarray */
		*kind = t < 0x90 ? 'm' : 'a';
		*v = t & 0x0f;
		return 1;
	}
	if (t < 0xc0) {                         /* fixstr */
		*kind = 's';
		*v = t & 0x1f;
		return 1 + *v <= n ? 1 + *v : 0;
	}
	h = fixed[t - 0xc0];
	if (1 + h > n)
		return 0;
	for (size_t i = 0; i < h && h <= 8; i++)
		*v = *v << 8 | c[1 + i];
	switch (t) {
	case 0xcc: case 0xcd: case 0xce: case 0xcf:
		*kind = 'u';
		return 1 + h;
	case 0xd9: case 0xda: case 0xdb:        /* str 8, 16, 32 */
		*kind = 's';
		*at = c + 1 + h;
		return 1 + h + *v <= n ? 1 + h + *v : 0;
	case 0xdc: case 0xdd:
		*kind = 'a';
		*at = c + 1 + h;
		return 1 + h;
	case 0xde: case 0xdf:
		*kind = 'm';
		*at = c + 1 + h;
		return 1 + h;
	case 0xc4: case 0xc5: case 0xc6:        /* bin 8, 16, 32 */
		len = 1 + h + *v;
		return len <= n ? len : 0;
	case 0xc7: case 0xc8: case 0xc9:        /* ext 8, 16, 32: a type byte too */
		len = 2 + h + *v;
		return len <= n ? len : 0;
	case 0xd4: case 0xd5: case 0xd6: case 0xd7: case 0xd8:  /* fixext: type and 1..16 */
		return h + 1 <= n ? h + 1 : 0;
	default:                                /* nil, bools, floats, signed ints */
		return 1 + h;
	}
}

/* Bytes of the whole value at c[0..n) (its items too), 0 when it does not
 * fit or nests deeper than 32. */
static size_t mp_skip(const unsigned char *c, size_t n, int depth)
{
	unsigned long long v;
	const unsigned char *at;
	int kind;
	size_t h = mp_head(c, n, &kind, &v, &at), used;
	if (!h || depth > 32)
		return 0;
	if (kind != 'a' && kind != 'm')
		return h;
	used = h;
	for (unsigned long long i = 0; i < (kind == 'm' ? 2 * v : v); i++) {
		size_t k = mp_skip(c + used, n - used, depth + 1);
		if (!k)
			return 0;
		used += k;
	}
	return used;
}

/* 1 when the string value at c[0..n) is s. */
static int mp_is(const unsigned char *c, size_t n, const char *s)
{
	unsigned long long v;
	const unsigned char *at;
	int kind;
	return mp_head(c, n, &kind, &v, &at) && kind == 's' && v == strlen(s) &&
	       !memcmp(at, s, v);
}

int rt_res_amdgpu(const void *code, size_t size, const char *name, int *regs, int *lds,
		  int *spill)
{
	static const char key[] = "\xae" "amdhsa.kernels";      /* fixstr of 14 */
	const unsigned char *c = code, *p = NULL, *end;
	unsigned long long nk, np, v;
	const unsigned char *at;
	int kind;
	size_t h;
	*regs = *lds = *spill = -1;
	if (!c)
		return -1;
	end = c + size;
	for (size_t i = 0; i + sizeof key - 1 < size && !p; i++)
		if (!memcmp(c + i, key, sizeof key - 1))
			p = c + i + sizeof key - 1;
	if (!p || !(h = mp_head(p, (size_t)(end - p), &kind, &nk, &at)) || kind != 'a')
		return -1;
	p += h;
	for (unsigned long long k = 0; k < nk; k++) {   /* each kernel: a map */
		long long vgpr = -1, grp = -1, prv = -1;
		int mine = !name;
		if (!(h = mp_head(p, (size_t)(end - p), &kind, &np, &at)) || kind != 'm')
			return -1;
		p += h;
		for (unsigned long long i = 0; i < np; i++) {
			const unsigned char *val;
			size_t kl = mp_skip(p, (size_t)(end - p), 0), vl;
			if (!kl)
				return -1;
			val = p + kl;
			if (!(vl = mp_skip(val, (size_t)(end - val), 0)))
				return -1;
			if (name && mp_is(p, kl, ".name") && mp_is(val, vl, name))
				mine = 1;
			else if (mp_head(val, vl, &kind, &v, &at) && kind == 'u' && v <= 0x7fffffff) {
				if (mp_is(p, kl, ".vgpr_count"))
					vgpr = (long long)v;
				else if (mp_is(p, kl, ".group_segment_fixed_size"))
					grp = (long long)v;
				else if (mp_is(p, kl, ".private_segment_fixed_size"))
					prv = (long long)v;
			}
			p = val + vl;
		}
		if (mine) {
			if (vgpr < 0)
				return -1;
			/* .vgpr_count counts the AGPRs too (LLVM's NumVGPR: on
			 * gfx90a the arch VGPRs, rounded to 4, and the AGPRs) */
			*regs = (int)vgpr;
			*lds = (int)grp;
			*spill = (int)prv;
			return 0;
		}
	}
	return -1;
}
