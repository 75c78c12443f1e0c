/*
 * fz_param.c: libFuzzer target for parameter lists (-p NAME=V1,V2,...,
 * tn_space_set) of every family. The first byte picks the family, each
 * following line is one -p; then the space is walked as a sweep would: its
 * size, its first, middle and last configurations, their JSON and text, and
 * the family's check of each against an H100's limits. An accepted list must
 * keep every value within the parameter's declared range.
 */
#include "tn_cli.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void visit(const struct tn_space *sp, long long i)
{
	const struct tn_family *f = sp->fam;
	struct tn_problem pb;
	struct tn_limits lim;
	int v[TN_MAXP];
	char buf[1024], why[256];

	tn_space_at(sp, i, v);
	for (int k = 0; k < f->np; k++)
		if (v[k] < f->p[k].lo || v[k] > f->p[k].hi)
			abort();
	tn_config_json(f, v, buf, sizeof buf);
	tn_config_text(f, v, buf, sizeof buf);
	memset(&pb, 0, sizeof pb);
	pb.fam = f;
	pb.r = 1 + (int)(i % TN_RMAX);
	pb.nx = pb.ny = pb.nz = 64 + (int)(i % 449);
	pb.prec = i & 1 ? "fp64" : "fp32";
	pb.h[0] = pb.h[1] = pb.h[2] = 1.0;
	tn_limits_of_arch("sm_90", &lim);
	if (f->check)
		f->check(&pb, v, &lim, why, sizeof why);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct tn_family *f;
	struct tn_space sp;
	char *s, *line, *save = NULL, err[1024];
	int nf = 0;
	long long n;

	if (!size)
		return 0;
	while (tn_families[nf])
		nf++;
	f = tn_families[data[0] % nf];
	if (!(s = malloc(size)))
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = 0;
	tn_space_default(f, &sp);
	for (line = strtok_r(s, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (tn_space_set(&sp, line, err, sizeof err))
			break;
	n = tn_space_size(&sp);
	if (n < 0)
		abort();
	if (n > 0) {
		visit(&sp, 0);
		visit(&sp, n / 2);
		visit(&sp, n - 1);
	}
	free(s);
	return 0;
}
