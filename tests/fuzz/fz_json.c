/*
 * fz_json.c: libFuzzer target for parameter JSON read back from a database
 * (db_json_int, as fdtune export and replay use it on configs.params). The
 * input up to the first newline is a key, the rest the JSON; every
 * parameter name of every family is looked up in it as well.
 */
#include "db.h"
#include "tn.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct db *mem;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s, *json, err[512];
	int v, found;

	if (!mem && db_open(":memory:", &mem, err, sizeof err))
		abort();
	if (!(s = malloc(size + 1)))
		return 0;
	memcpy(s, data, size);
	s[size] = 0;
	json = strchr(s, '\n');
	if (json)
		*json++ = 0;
	else
		json = s;
	found = -1;
	if (!db_json_int(mem, json, s, &v, &found, err, sizeof err) && found != 0 && found != 1)
		abort();
	for (int i = 0; tn_families[i]; i++)
		for (int k = 0; k < tn_families[i]->np; k++)
			db_json_int(mem, json, tn_families[i]->p[k].name, &v, &found, err, sizeof err);
	free(s);
	return 0;
}
