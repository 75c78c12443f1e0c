/*
 * fz_sweep.c: libFuzzer target for fdtune sweep's command line, parsed by
 * the real tn_cmd_sweep (cmd_sweep.c, tn_cli.c, tn_plan.c): problem options
 * and their comma lists (a plan), -p lists,
 * --budget and --timeout durations, --shard, --devices, --jobs, --evals,
 * --max-configs, --spacing. Each line of the input is one argument. This
 * file defines tn_sweep in place of tuner/sweep/tn_sweep.c, so nothing runs:
 * the stub checks that every option accepted arrives within the range that
 * the sweep relies on, and walks each problem's space as the sweep would
 * begin to.
 */
#include "tn_cli.h"
#include "tn_sweep.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	opterr = 0;
	return 0;
}

#define CHECK(c) do { if (!(c)) abort(); } while (0)

int tn_sweep(const struct tn_sweep_opts *o, char *err, size_t n)
{
	int np = o->plan ? o->plan->n : 1;
	(void)err;
	(void)n;
	CHECK(o->db_path && o->cmdline && (o->plan ? np >= 1 && o->plan->p : o->pb && o->sp));
	for (int i = 0; i < np; i++) {          /* every problem of the plan */
		const struct tn_problem *pb = o->plan ? &o->plan->p[i].pb : o->pb;
		const struct tn_space *sp = o->plan ? &o->plan->p[i].sp : o->sp;
		long long size = tn_space_size(sp);
		int v[TN_MAXP];
		CHECK(pb->fam && sp->fam == pb->fam);
		CHECK(pb->r >= 1 && pb->r <= TN_RMAX);
		CHECK(pb->nx >= 1 && pb->ny >= 1 && pb->nz >= 1);
		CHECK(pb->nx <= 65536 && pb->ny <= 65536 && pb->nz <= 65536);
		CHECK(!strcmp(pb->prec, "fp32") || !strcmp(pb->prec, "fp64"));
		for (int k = 0; k < 3; k++)
			CHECK(isfinite(pb->h[k]) && pb->h[k] > 0);
		CHECK(size >= 0);
		if (size > 0) {
			tn_space_at(sp, size - 1, v);
			for (int k = 0; k < pb->fam->np; k++)
				CHECK(v[k] >= pb->fam->p[k].lo && v[k] <= pb->fam->p[k].hi);
		}
	}
	CHECK(o->ndev >= 0 && o->ndev <= TN_MAXDEV);
	for (int k = 0; k < o->ndev; k++)
		CHECK(o->devices[k] >= 0 && o->devices[k] <= 63);
	CHECK(o->timeout_s >= 1 && o->timeout_s <= 86400);
	CHECK(o->jobs >= 1 && o->jobs <= 64);
	CHECK(o->max_configs >= 0);
	CHECK(o->evals >= 1 && o->evals <= 100);
	CHECK(o->shards == 0 || (o->shards >= 1 && o->shard >= 0 && o->shard < o->shards));
	CHECK(o->budget_s >= 0);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s, *argv[66];
	int argc = 0;

	if (!(s = malloc(size + 1)))
		return 0;
	memcpy(s, data, size);
	s[size] = 0;
	argv[argc++] = "sweep";
	for (char *p = s; argc < 65;) {
		char *nl = strchr(p, '\n');
		argv[argc++] = p;
		if (!nl)
			break;
		*nl = 0;
		p = nl + 1;
	}
	argv[argc] = NULL;
	optind = 0;     /* glibc: start afresh */
	tn_cmd_sweep(argc, argv);
	free(s);
	return 0;
}
