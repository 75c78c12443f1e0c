/*
 * fz_size.c: libFuzzer target for the scalar option parsers of tn.h and
 * tn_cli.h: sizes (-n N|XxYxZ), integers in a range (-r, --jobs, --evals,
 * --device), precisions and the filter options of best, export and report.
 * The first byte picks the parser, the rest is the option's text. A value
 * accepted must lie in the range the parser promises.
 */
#include "tn_cli.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s, err[512];
	int nx = 0, ny = 0, nz = 0, v = 0, used = 0;
	const char *prec = NULL;
	struct db_filter f;

	if (!size)
		return 0;
	s = malloc(size);
	if (!s)
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = 0;
	memset(&f, 0, sizeof f);
	switch (data[0] % 6) {
	case 0:
		if (!tn_parse_size(s, &nx, &ny, &nz, err, sizeof err) &&
		    (nx < 1 || ny < 1 || nz < 1 || nx > 65536 || ny > 65536 || nz > 65536))
			abort();
		break;
	case 1:
		if (!tn_parse_int(s, "--radius", 1, TN_RMAX, &v, err, sizeof err) &&
		    (v < 1 || v > TN_RMAX))
			abort();
		break;
	case 2:
		if (!tn_parse_int(s, "--max-configs", 1, 1 << 30, &v, err, sizeof err) &&
		    (v < 1 || v > 1 << 30))
			abort();
		break;
	case 3:
		if (!tn_parse_prec(s, &prec, err, sizeof err) && strcmp(prec, "fp32") &&
		    strcmp(prec, "fp64"))
			abort();
		break;
	case 4:
		if (!tn_cli_filter_opt(&f, 'n', s, &used, err, sizeof err) && used &&
		    (f.nx < 1 || f.nz > 65536))
			abort();
		break;
	case 5:
		if (!tn_cli_filter_opt(&f, 'r', s, &used, err, sizeof err) && used &&
		    (f.radius < 1 || f.radius > TN_RMAX))
			abort();
		break;
	}
	free(s);
	return 0;
}
