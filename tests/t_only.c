/*
 * t_only.c: one case, or a few, of any test program. With T_ONLY=PATTERN in
 * the environment a test program runs only its cases whose names match
 * PATTERN (cmocka's filter: * and ? as in the shell), e.g.
 *
 *     T_ONLY='export*' build/t_cli
 *
 * and the others do not show, not even as skipped. Every test program links
 * this file (the Makefile's T_ONLY_O); it sets the filter before main runs,
 * so no test's main has to. A case must pass when it runs alone: none may
 * rely on what an earlier case left behind.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

/* Before main: T_ONLY's pattern, where it is set and not empty, becomes
 * cmocka's filter of the cases to run. */
__attribute__((constructor)) static void t_only(void)
{
	const char *p = getenv("T_ONLY");
	if (p && *p)
		cmocka_set_test_filter(p);
}
