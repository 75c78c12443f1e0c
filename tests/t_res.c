/*
 * t_res.c: runtime/rt_res.c's readers of a compiler's report on made-up
 * reports, on every build (t_compile reads real ones, but each build only
 * its own compiler's): the AMDGPU metadata (msgpack) of a code object of
 * three kernels whose names prefix one another, with the argument maps'
 * own .name keys, every kind of value the walker must step over and the
 * keys in another order from one kernel to the next; and ptxas's -v report
 * of two kernels, the first without shared memory. Each kernel's resources
 * come by its name and never another's; every prefix of either report, and
 * code objects with bytes changed at random, give a kernel's own values or
 * none (under make test-sanitize: read nothing past the end).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "rt.h"

static unsigned char mp[4096];
static size_t nmp;

static void put(const void *b, size_t n)
{
	assert_true(nmp + n <= sizeof mp);
	memcpy(mp + nmp, b, n);
	nmp += n;
}

static void byte(unsigned b)
{
	unsigned char c = (unsigned char)b;
	put(&c, 1);
}

/* A string, as a fixstr where it fits one and long set, else as str 8. */
static void str(const char *s, int longer)
{
	const size_t n = strlen(s);
	if (n < 32 && !longer)
		byte(0xa0 | (unsigned)n);
	else {
		byte(0xd9);
		byte((unsigned)n);
	}
	put(s, n);
}

/* An unsigned: a positive fixint, else uint 8, 16 or 32. */
static void unum(unsigned long v)
{
	if (v < 0x80)
		byte((unsigned)v);
	else if (v < 0x100) {
		byte(0xcc);
		byte((unsigned)v);
	} else if (v < 0x10000) {
		byte(0xcd);
		byte((unsigned)(v >> 8));
		byte((unsigned)(v & 0xff));
	} else {
		byte(0xce);
		for (int i = 3; i >= 0; i--)
			byte((unsigned)(v >> (8 * i)) & 0xff);
	}
}

/* The argument list of a kernel: two maps, each with its own .name. */
static void args(void)
{
	str(".args", 0);
	byte(0x92);
	for (int i = 0; i < 2; i++) {
		byte(0x83);
		str(".name", 0);
		str(i ? "tb_k10" : "out", 0);
		str(".offset", 0);
		unum(8u * (unsigned)i);
		str(".value_kind", 0);
		str("global_buffer", 0);
	}
}

/* The code object: bytes before the note, the metadata map, bytes after. */
static void code_object(void)
{
	static const unsigned char f64[9] = { 0xcb, 0x40, 0x09, 0x21, 0xfb, 0x54, 0x44, 0x2d, 0x18 };
	static const unsigned char bin[5] = { 0xc4, 0x03, 0xa5, 0xa5, 0xa5 };
	nmp = 0;
	put("\x7f" "ELF junk before the note ", 25);
	byte(0x82);                             /* the metadata: a map of 2 */
	str("amdhsa.version", 0);
	byte(0x92);
	unum(1);
	unum(2);
	str("amdhsa.kernels", 0);
	byte(0x93);
	/* tb_k1, keys sorted as LLVM writes them; AGPRs counted in .vgpr_count */
	byte(0x86);
	str(".agpr_count", 0);
	unum(4);
	args();
	str(".group_segment_fixed_size", 0);
	unum(1024);
	str(".name", 0);
	str("tb_k1", 0);
	str(".private_segment_fixed_size", 0);
	unum(0);
	str(".vgpr_count", 0);
	unum(40);
	/* tb_k10: its name first and as str 8; values of every other kind */
	byte(0xde);
	byte(0x00);
	byte(0x0a);                             /* map 16 of 10 */
	str(".name", 1);
	str("tb_k10", 1);
	str(".vgpr_count", 0);
	unum(300);
	str(".group_segment_fixed_size", 0);
	unum(70000);
	str(".private_segment_fixed_size", 0);
	unum(16);
	str(".uniform_work_group_size", 0);
	byte(0xc3);                             /* true */
	str(".nothing", 0);
	byte(0xc0);                             /* nil */
	str(".negative", 0);
	byte(0xff);                             /* -1 */
	str(".float", 0);
	put(f64, sizeof f64);
	str(".bin", 0);
	put(bin, sizeof bin);
	str(".ext", 0);
	byte(0xd5);                             /* fixext 2 */
	byte(0x01);
	byte(0x02);
	byte(0x03);
	/* tb_k, no LDS */
	byte(0x84);
	str(".vgpr_count", 0);
	unum(7);
	str(".name", 0);
	str("tb_k", 0);
	str(".group_segment_fixed_size", 0);
	unum(0);
	str(".private_segment_fixed_size", 0);
	unum(0);
	put(" and junk after it", 18);
}

static void want(int rc, int regs, int lds, int spill, const int *got)
{
	assert_int_equal(got[0], rc);
	assert_int_equal(got[1], regs);
	assert_int_equal(got[2], lds);
	assert_int_equal(got[3], spill);
}

static void amdgpu(const void *c, size_t n, const char *name, int *g)
{
	g[0] = rt_res_amdgpu(c, n, name, &g[1], &g[2], &g[3]);
}

static void amdgpu_by_name(void **st)
{
	int g[4];
	unsigned seed = 12345;
	(void)st;
	code_object();
	amdgpu(mp, nmp, "tb_k1", g);
	want(0, 40, 1024, 0, g);
	amdgpu(mp, nmp, "tb_k10", g);
	want(0, 300, 70000, 16, g);
	amdgpu(mp, nmp, "tb_k", g);
	want(0, 7, 0, 0, g);
	amdgpu(mp, nmp, NULL, g);               /* the first kernel */
	want(0, 40, 1024, 0, g);
	amdgpu(mp, nmp, "tb_k2", g);
	want(-1, -1, -1, -1, g);
	amdgpu(mp, nmp, "out", g);              /* an argument's name, not a kernel's */
	want(-1, -1, -1, -1, g);
	amdgpu(NULL, 0, NULL, g);
	want(-1, -1, -1, -1, g);
	for (size_t k = 0; k <= nmp; k++) {     /* every prefix, in a buffer of its size */
		unsigned char *cut = malloc(k ? k : 1);
		assert_non_null(cut);
		memcpy(cut, mp, k);
		amdgpu(cut, k, "tb_k10", g);
		if (!g[0])
			want(0, 300, 70000, 16, g);
		free(cut);
	}
	amdgpu(mp, nmp - 18, "tb_k", g);        /* the last byte of the object is its own */
	want(0, 7, 0, 0, g);
	for (int t = 0; t < 20000; t++) {       /* bytes changed: no crash, no read past */
		unsigned char *bad = malloc(nmp);
		assert_non_null(bad);
		memcpy(bad, mp, nmp);
		for (int j = 0; j < 3; j++) {
			seed = seed * 1103515245u + 12345u;
			bad[(seed >> 8) % nmp] = (unsigned char)(seed >> 20);
		}
		amdgpu(bad, nmp, t % 2 ? "tb_k10" : NULL, g);
		assert_true(g[0] == 0 || (g[1] == -1 && g[2] == -1 && g[3] == -1));
		free(bad);
	}
}

static const char ptxas[] =
	"ptxas info    : 0 bytes gmem\n"
	"ptxas info    : Compiling entry function 'tb_k1' for 'sm_90'\n"
	"ptxas info    : Function properties for tb_k1\n"
	"    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
	"ptxas info    : Used 12 registers, 360 bytes cmem[0]\n"
	"ptxas info    : Compiling entry function 'tb_k10' for 'sm_90'\n"
	"ptxas info    : Function properties for tb_k10\n"
	"    0 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads\n"
	"ptxas info    : Used 30 registers, used 1 barriers, 1024 bytes smem, 400 bytes cmem[0]\n";

static void ptxas_by_name(void **st)
{
	int g[4];
	(void)st;
	g[0] = rt_res_ptxas(ptxas, "tb_k1", &g[1], &g[2], &g[3]);
	want(0, 12, 0, 0, g);                   /* no smem: 0, not tb_k10's */
	g[0] = rt_res_ptxas(ptxas, NULL, &g[1], &g[2], &g[3]);
	want(0, 12, 0, 0, g);
	g[0] = rt_res_ptxas(ptxas, "tb_k10", &g[1], &g[2], &g[3]);
	want(0, 30, 1024, 8, g);
	g[0] = rt_res_ptxas(ptxas, "tb_k", &g[1], &g[2], &g[3]);
	want(-1, -1, -1, -1, g);
	g[0] = rt_res_ptxas("ptxas info    : Used 99999999999 registers\n", NULL, &g[1], &g[2],
			    &g[3]);
	want(-1, -1, -1, -1, g);                /* past INT_MAX: not a count */
	g[0] = rt_res_ptxas("ptxas info    : Used 9 registers\n", NULL, &g[1], &g[2], &g[3]);
	want(0, 9, 0, -1, g);                   /* an older report: the whole log */
	for (size_t k = 0; k < sizeof ptxas; k++) {
		char *cut = malloc(k + 1);
		assert_non_null(cut);
		memcpy(cut, ptxas, k);
		cut[k] = 0;
		g[0] = rt_res_ptxas(cut, "tb_k10", &g[1], &g[2], &g[3]);
		if (!g[0])
			assert_int_equal(g[1], 30);
		g[0] = rt_res_ptxas(cut, "tb_k1", &g[1], &g[2], &g[3]);
		if (!g[0])
			assert_int_equal(g[1], 12);
		free(cut);
	}
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(amdgpu_by_name), cmocka_unit_test(ptxas_by_name),
	};
	return cmocka_run_group_tests_name("res", t, NULL, NULL);
}
