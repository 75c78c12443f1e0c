/*
 * tn_online_cmp.c: the source of online tuning's validation kernel
 * (templates/cmp.m4), which the build generates into tn_cmp_src.h as C
 * strings (tn_cmp_gen.c), so that the compile threads (tn_online.c) build
 * it with NVRTC or hiprtc and the step (tn_online_run.c) launches it,
 * without m4 or the templates at run time.
 */
#include "tn_online.h"
#include "tn_cmp_src.h"

const char *tn_on_cmp_src(int dbl)
{
	return dbl ? tn_cmp_src64 : tn_cmp_src32;
}
