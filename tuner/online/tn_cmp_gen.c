/*
 * tn_cmp_gen.c: a build tool that prints tn_cmp_src.h, the source of online
 * tuning's validation kernel (templates/cmp.m4) for fp32 and fp64 as C
 * strings, so that libfdtune compiles it at run time with NVRTC or hiprtc
 * without m4 or the templates (tuner/online/tn_online_run.c). make runs it
 * on every build; the header lives in the build tree.
 */
#include "gen.h"
#include "tn_online.h"

#include <stdio.h>
#include <stdlib.h>

/* s as a C string literal, a line a piece. */
static void literal(const char *name, const char *s)
{
	printf("static const char %s[] =\n\"", name);
	for (; *s; s++) {
		if (*s == '\n')
			printf("\\n\"\n\"");
		else if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else
			putchar(*s);
	}
	printf("\";\n");
}

int main(void)
{
	char err[1024], *src[2] = { NULL, NULL };
	for (int dbl = 0; dbl < 2; dbl++) {
		const struct gen_def d[] = { { "bs", TN_CMP_BS }, { "dbl", dbl } };
		if (gen_source("cmp.m4", "fdt_cmp", d, 2, &src[dbl], err, sizeof err)) {
			fprintf(stderr, "tn_cmp_gen: %s\n", err);
			return 1;
		}
	}
	printf("/* tn_cmp_src.h: made by tn_cmp_gen from templates/cmp.m4. DO NOT EDIT. */\n");
	literal("tn_cmp_src32", src[0]);
	literal("tn_cmp_src64", src[1]);
	free(src[0]);
	free(src[1]);
	return ferror(stdout) != 0;
}
