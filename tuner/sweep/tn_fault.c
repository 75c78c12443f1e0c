/*
 * tn_fault.c: fault injection on the pipe to the workers, for the tests
 * only, as db/db_fault.c does under the database. With FDTUNE_FAULT=pipe:N
 * the N-th write of the sweep to a worker fails as if the worker had gone
 * (EPIPE), and the fault is announced on stderr ("FDTUNE_FAULT: ..."). The
 * workers inherit the variable but never call this: their replies go
 * through.
 */
#include "tn_fault.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tn_fault_pipe(void)
{
	static long long nth = -1, seen;
	if (nth < 0) {
		const char *e = getenv("FDTUNE_FAULT");
		char *end;
		nth = e && !strncmp(e, "pipe:", 5) ? strtoll(e + 5, &end, 10) : 0;
		if (nth < 0 || (nth && *end))
			nth = 0;
	}
	if (!nth || ++seen != nth)
		return 0;
	fprintf(stderr, "fdtune: FDTUNE_FAULT: write %lld to a worker fails (EPIPE)\n", seen);
	errno = EPIPE;
	return 1;
}
