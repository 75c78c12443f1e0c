/*
 * fdt_lib.c: libfdtune (fdtune.h). One read-only SQLite connection to an
 * fdtune database; a lookup is one query for the best record (DB_CURRENT:
 * each configuration's newest run) of every recorded size of the problem, and the rule of
 * templates/fdt_rule.h (the one `fdtune export --all-sizes` pastes into its
 * NAME.cu) picks among them: the exact size, else the nearest that fits.
 * SQLite's json_each splits the parameters. When nothing is recorded, each
 * family has a default: its descriptor's (tuner/fam/, dflt), made to fit any
 * device with 48 KiB of LDS per block at every radius and precision, from
 * the table fdt_defaults.h that the build prints from the descriptors
 * (tuner/fam/tn_defaults.c).
 */
#include "fdtune.h"
#include "db.h"
#include "db_int.h"
#include "../templates/fdt_rule.h"
#include "fdt_defaults.h"

#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* online: the companion of what online tuning learned (fdtune_online_db),
 * opened beside the database where it exists; NULL where not */
struct fdtune_db { sqlite3 *h; int schema; struct fdtune_db *online; };

/* Writes the message into err[0..n) where err is given (NULL: only the
 * status); returns 1, the status of every failure of libfdtune. */
static int lib_fail(char *err, size_t n, const char *fmt, ...)
{
	va_list ap;
	if (err && n) {
		va_start(ap, fmt);
		vsnprintf(err, n, fmt, ap);
		va_end(ap);
	}
	return FDT_FAIL;
}

/* Whether the directory of path takes new files (WAL readers need to). */
static int dir_writable(const char *path)
{
	char d[4096];
	const char *s = strrchr(path, '/');
	if (!s)
		return !access(".", W_OK);
	snprintf(d, sizeof d, "%.*s", (int)(s - path) + (s == path), path);
	return !access(d, W_OK);
}

/* fdtune_open's rc holds SQLite's codes, or SAID: a failure whose message
 * is already in err. */
#define SAID (-1)

int fdtune_online_db(char *buf, size_t n)
{
	const char *e = getenv("FDTUNE_ONLINE_DB"), *home = getenv("HOME");
	if (!buf || !n)
		return FDT_FAIL;
	if (e) {
		snprintf(buf, n, "%s", e);
		return *e ? FDT_OK : FDT_FAIL;
	}
	if (!home || !*home)
		return snprintf(buf, n, "%s", ""), FDT_FAIL;
	snprintf(buf, n, "%s/.fdtune/online.db", home);
	return FDT_OK;
}

static int open_one(const char *path, fdtune_db **db, char *err, size_t n);

int fdtune_open(const char *path, fdtune_db **db, char *err, size_t n)
{
	char cp[4096], e[256];
	struct stat a, b;
	int rc = open_one(path, db, err, n);
	/* the companion, where there is one and it is another file; one that
	 * cannot be opened is left out, said once on stderr */
	if (rc || fdtune_online_db(cp, sizeof cp) || stat(cp, &b) ||
	    (!stat(path, &a) && a.st_dev == b.st_dev && a.st_ino == b.st_ino))
		return rc;
	if (open_one(cp, &(*db)->online, e, sizeof e))
		fprintf(stderr, "fdtune: the online tuning's companion is left out: %s\n", e);
	return FDT_OK;
}

static int open_one(const char *path, fdtune_db **db, char *err, size_t n)
{
	fdtune_db *d;
	sqlite3_stmt *st = NULL;
	struct stat sb;
	int rc;

	if (!db)
		return lib_fail(err, n, "fdtune_open: db (where the handle goes) is required");
	*db = NULL;
	if (!path || !*path)
		return lib_fail(err, n, "fdtune_open: path is required");
	if (!stat(path, &sb) && S_ISDIR(sb.st_mode))
		return lib_fail(err, n, "cannot open %s: it is a directory; give the database "
				"file (an fdtune sweep's --db)", path);
	if (!(d = calloc(1, sizeof *d)))
		return lib_fail(err, n, "out of memory");
	/* read-only; immutable where the directory is not writable, so that
	 * nothing (no -wal or -shm file either) is ever created */
	rc = sqlite3_open_v2(path, &d->h, SQLITE_OPEN_READONLY, NULL);
	if (rc == SQLITE_OK && access(path, F_OK)) {
		lib_fail(err, n, "cannot open %s: no such file", path);
		rc = SAID;
	}
	if (rc == SQLITE_OK && !dir_writable(path)) {
		char uri[4200];
		db_uri(uri, sizeof uri, path, "immutable=1");
		if (sqlite3_close(d->h) == SQLITE_OK)
			d->h = NULL;
		rc = sqlite3_open_v2(uri, &d->h, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
	}
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(d->h, "SELECT (SELECT application_id FROM pragma_application_id),"
					" (SELECT user_version FROM pragma_user_version)", -1, &st, NULL);
	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW &&
	    sqlite3_column_int(st, 0) != 0x46445455) {
		lib_fail(err, n, "%s is not an fdtune database", path);
		rc = SAID;
	} else if (rc == SQLITE_ROW && sqlite3_column_int(st, 1) < 0) {
		lib_fail(err, n, "%s is not an fdtune database: unknown schema version %d", path,
			 sqlite3_column_int(st, 1));
		rc = SAID;
	} else if (rc == SQLITE_ROW && sqlite3_column_int(st, 1) < 2) {
		/* best and the other readers migrate a copy in memory only; merge
		 * writes its target at the current schema */
		lib_fail(err, n, "%s has schema version %d, before the views libfdtune reads; "
			 "copy it into a database of the current schema with `fdtune merge --db "
			 "NEW.db %s` and open NEW.db", path, sqlite3_column_int(st, 1), path);
		rc = SAID;
	} else if (rc == SQLITE_ROW) {
		d->schema = sqlite3_column_int(st, 1);
		rc = SQLITE_OK;
	}
	if (rc != SQLITE_OK && rc != SAID)
		lib_fail(err, n, "cannot open %s: %s", path, d->h ? sqlite3_errmsg(d->h) : "no memory");
	if (rc == SQLITE_OK && !st)
		rc = SAID;
	if (sqlite3_finalize(st) != SQLITE_OK && rc == SQLITE_OK) {
		lib_fail(err, n, "%s: %s", path, sqlite3_errmsg(d->h));
		rc = SAID;
	}
	if (rc != SQLITE_OK) {
		fdtune_close(d);
		return FDT_FAIL;
	}
	*db = d;
	return FDT_OK;
}

void fdtune_close(fdtune_db *db)
{
	if (!db)
		return;
	fdtune_close(db->online);
	if (sqlite3_close(db->h) != SQLITE_OK)
		fprintf(stderr, "fdtune: closing the database: %s\n", sqlite3_errmsg(db->h));
	free(db);
}

/* The default of family for radius (1..8, else the nearest) and precision
 * (fp64, else fp32). */
static int fallback(const char *family, int radius, const char *precision, int nx, int ny,
		    int nz, struct fdtune_config *cfg, char *err, size_t n)
{
	const int r = radius < 1 ? 1 : radius > 8 ? 8 : radius;
	const char *prec = strcmp(precision, "fp64") ? "fp32" : "fp64";
	for (size_t i = 0; i < sizeof fdt_defaults / sizeof fdt_defaults[0]; i++) {
		const struct fdt_default *d = &fdt_defaults[i];
		size_t o = 0;
		if (strcmp(d->family, family) || strcmp(d->precision, prec) || d->radius != r)
			continue;
		cfg->source = FDTUNE_DEFAULT;
		snprintf(cfg->family, sizeof cfg->family, "%s", family);
		snprintf(cfg->device, sizeof cfg->device, "any");
		cfg->radius = radius;
		cfg->nx = nx;
		cfg->ny = ny;
		cfg->nz = nz;
		cfg->np = d->np;
		o += (size_t)snprintf(cfg->params, sizeof cfg->params, "{");
		for (int k = 0; k < cfg->np; k++) {
			snprintf(cfg->name[k], sizeof cfg->name[k], "%s", d->name[k]);
			cfg->value[k] = d->value[k];
			o += (size_t)snprintf(cfg->params + o, sizeof cfg->params - o, "%s\"%s\":%d",
					      k ? "," : "", cfg->name[k], cfg->value[k]);
		}
		snprintf(cfg->params + o, sizeof cfg->params - o, "}");
		return FDT_OK;
	}
	lib_fail(err, n, "fdtune_lookup: unknown family '%s'", family);
	return FDT_FAIL;
}

/* Splits cfg->params into name/value pairs with json_each. */
static int split(sqlite3 *h, struct fdtune_config *cfg, char *err, size_t n)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(h, "SELECT key, value FROM json_each(?1) WHERE type = 'integer'",
				    -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, 1, cfg->params, -1, SQLITE_STATIC);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *k = sqlite3_column_text(st, 0);
		rc = SQLITE_OK;
		if (cfg->np == FDTUNE_MAXP)
			continue;
		snprintf(cfg->name[cfg->np], sizeof cfg->name[0], "%s", k ? (const char *)k : "");
		cfg->value[cfg->np++] = sqlite3_column_int(st, 1);
	}
	if (rc == SQLITE_DONE)
		rc = SQLITE_OK;
	if (rc != SQLITE_OK)
		lib_fail(err, n, "fdtune_lookup: parameters: %s", sqlite3_errmsg(h));
	if (sqlite3_finalize(st) != SQLITE_OK && rc == SQLITE_OK) {
		lib_fail(err, n, "fdtune_lookup: %s", sqlite3_errmsg(h));
		rc = SQLITE_ERROR;
	}
	return rc != SQLITE_OK;
}

/* The recorded sizes of one device (the first matching by name) for the
 * problem, each with its best record (a storing one, acc 0, before any that
 * accumulates, as fdtune export picks), in fdt_rule.h's order. */
static const char sizes_sql[] =
	"SELECT family, device, params, radius, nx, ny, nz, median_ms, gbs FROM"
	" (SELECT *, ROW_NUMBER() OVER (PARTITION BY device, nx, ny, nz"
	"  ORDER BY coalesce(json_extract(params, '$.acc'), 0), median_ms, run_id)"
	"  AS rk FROM (" DB_CURRENT ") WHERE problem_id IN (SELECT id FROM problems"
	"  WHERE family = ?2 AND radius = ?3 AND precision = ?4) AND family = ?2"
	"  AND radius = ?3 AND precision = ?4"
	"  AND" DB_DEVICE_HAS("device", "arch", "?1") ")"
	" WHERE rk = 1 ORDER BY device, nx * ny * nz, nx, ny, nz";

/* The same by an energy objective (schema 8): among each size's records
 * those with energy measured first, by their configuration's mean joules a
 * point (or its product with the time), then the others by time. */
#define SIZES_BY(key) \
	"SELECT family, device, params, radius, nx, ny, nz, median_ms, gbs FROM" \
	" (SELECT c.*, ROW_NUMBER() OVER (PARTITION BY c.device, c.nx, c.ny, c.nz" \
	"  ORDER BY coalesce(json_extract(c.params, '$.acc'), 0), m.j IS NULL, " key "," \
	"  c.median_ms, c.run_id) AS rk FROM (" DB_CURRENT ") c LEFT JOIN" \
	"  (SELECT d.name, d.arch, r.problem_id, r.config_id, avg(e.j_per_gpt) AS j" \
	"   FROM energy e JOIN runs r ON r.id = e.run_id JOIN devices d ON d.id = r.device_id" \
	"   GROUP BY 1, 2, 3, 4) m ON m.name = c.device AND m.arch = c.arch" \
	"  AND m.problem_id = c.problem_id AND m.config_id = c.config_id" \
	"  WHERE c.problem_id IN (SELECT id FROM problems WHERE family = ?2 AND radius = ?3" \
	"  AND precision = ?4) AND c.family = ?2 AND c.radius = ?3 AND c.precision = ?4" \
	"  AND" DB_DEVICE_HAS("c.device", "c.arch", "?1") ")" \
	" WHERE rk = 1 ORDER BY device, nx * ny * nz, nx, ny, nz"
static const char *const sizes_by[] = { sizes_sql, SIZES_BY("m.j"), SIZES_BY("m.j * c.median_ms") };

/* Row st into cfg, its parameters split and its fit for the rule. */
static int row(sqlite3 *h, sqlite3_stmt *st, struct fdtune_config *cfg, struct fdt_rule_fit *fit,
	       char *err, size_t n)
{
	const char *t[3], *names[FDTUNE_MAXP];
	memset(cfg, 0, sizeof *cfg);
	for (int i = 0; i < 3; i++)
		t[i] = (const char *)sqlite3_column_text(st, i);
	snprintf(cfg->family, sizeof cfg->family, "%s", t[0] ? t[0] : "");
	snprintf(cfg->device, sizeof cfg->device, "%s", t[1] ? t[1] : "");
	snprintf(cfg->params, sizeof cfg->params, "%s", t[2] ? t[2] : "{}");
	cfg->radius = sqlite3_column_int(st, 3);
	cfg->nx = sqlite3_column_int(st, 4);
	cfg->ny = sqlite3_column_int(st, 5);
	cfg->nz = sqlite3_column_int(st, 6);
	cfg->median_ms = sqlite3_column_double(st, 7);
	cfg->gbs = sqlite3_column_double(st, 8);
	if (split(h, cfg, err, n))
		return FDT_FAIL;
	for (int i = 0; i < cfg->np; i++)
		names[i] = cfg->name[i];
	fdt_rule_fit_of(names, cfg->value, cfg->np, fit);
	return FDT_OK;
}

int fdtune_lookup(fdtune_db *db, const char *device, const char *family, int radius,
		  int nx, int ny, int nz, const char *precision, struct fdtune_config *cfg,
		  char *err, size_t n)
{
	return fdtune_lookup_by(db, FDTUNE_TIME, device, family, radius, nx, ny, nz, precision,
				cfg, err, n);
}

int fdtune_lookup_by(fdtune_db *db, enum fdtune_objective obj, const char *device,
		     const char *family, int radius, int nx, int ny, int nz, const char *precision,
		     struct fdtune_config *cfg, char *err, size_t n)
{
	struct fdtune_config *c = NULL, *m;
	struct fdt_rule_size *t = NULL, *mt;
	struct fdt_rule_fit *fit = NULL, *mf;
	sqlite3_stmt *st = NULL;
	int rc, nr = 0, cap = 0, pick = -1, failed = 0;

	if (!cfg)
		return lib_fail(err, n, "fdtune_lookup: cfg (where the answer goes) is required");
	memset(cfg, 0, sizeof *cfg);
	if (!family || !precision || !device) {
		lib_fail(err, n, "fdtune_lookup: device, family and precision are required");
		return FDT_FAIL;
	}
	/* a default labelled with a problem fdtune cannot tune would pass for an answer */
	if (radius < 1 || radius > FDTUNE_RMAX) {
		lib_fail(err, n, "fdtune_lookup: radius %d: fdtune tunes radii 1..%d", radius,
			 FDTUNE_RMAX);
		return FDT_FAIL;
	}
	if (nx < 1 || ny < 1 || nz < 1) {
		lib_fail(err, n, "fdtune_lookup: size %dx%dx%d: every extent must be at least 1",
			 nx, ny, nz);
		return FDT_FAIL;
	}
	if (strcmp(precision, "fp32") && strcmp(precision, "fp64")) {
		lib_fail(err, n, "fdtune_lookup: precision '%.40s': fp32 or fp64", precision);
		return FDT_FAIL;
	}
	if (obj != FDTUNE_TIME && obj != FDTUNE_ENERGY && obj != FDTUNE_EDP) {
		lib_fail(err, n, "fdtune_lookup_by: objective %d: FDTUNE_TIME, FDTUNE_ENERGY or "
			 "FDTUNE_EDP", (int)obj);
		return FDT_FAIL;
	}
	if (!db)
		return fallback(family, radius, precision, nx, ny, nz, cfg, err, n);
	/* what online tuning learned for this very problem comes first */
	if (db->online && !fdtune_lookup_by(db->online, obj, device, family, radius, nx, ny, nz,
					    precision, cfg, NULL, 0) && cfg->source == FDTUNE_EXACT) {
		cfg->source = FDTUNE_ONLINE;
		return FDT_OK;
	}
	memset(cfg, 0, sizeof *cfg);
	/* a database from before energy was recorded has none: by time */
	rc = sqlite3_prepare_v2(db->h, sizes_by[db->schema >= 8 ? obj : FDTUNE_TIME], -1, &st,
				NULL);
	if (rc == SQLITE_OK && (rc = sqlite3_bind_text(st, 1, device, -1, SQLITE_STATIC)) == SQLITE_OK &&
	    (rc = sqlite3_bind_text(st, 2, family, -1, SQLITE_STATIC)) == SQLITE_OK &&
	    (rc = sqlite3_bind_int(st, 3, radius)) == SQLITE_OK)
		rc = sqlite3_bind_text(st, 4, precision, -1, SQLITE_STATIC);
	while (rc == SQLITE_OK && !failed && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		rc = SQLITE_OK;
		if (nr && strcmp((const char *)sqlite3_column_text(st, 1), c[0].device))
			break;          /* the first device's sizes only */
		if (nr == cap) {
			cap = cap ? 2 * cap : 8;
			m = realloc(c, (size_t)cap * sizeof *c);
			c = m ? m : c;
			mt = realloc(t, (size_t)cap * sizeof *t);
			t = mt ? mt : t;
			mf = realloc(fit, (size_t)cap * sizeof *fit);
			fit = mf ? mf : fit;
			if (!m || !mt || !mf) {
				lib_fail(err, n, "fdtune_lookup: out of memory");
				failed = 1;
				break;
			}
		}
		if (row(db->h, st, &c[nr], &fit[nr], err, n)) {
			failed = 1;
			break;
		}
		t[nr] = (struct fdt_rule_size){ c[nr].nx, c[nr].ny, c[nr].nz, nr };
		nr++;
	}
	if (rc == SQLITE_DONE)
		rc = SQLITE_OK;
	if (rc != SQLITE_OK && !failed) {
		lib_fail(err, n, "fdtune_lookup: %s", sqlite3_errmsg(db->h));
		failed = 1;
	}
	if (sqlite3_finalize(st) != SQLITE_OK && !failed) {
		lib_fail(err, n, "fdtune_lookup: %s", sqlite3_errmsg(db->h));
		failed = 1;
	}
	if (!failed && nr)
		pick = fdt_rule_pick(t, nr, fit, nx, ny, nz);
	if (pick >= 0) {
		*cfg = c[pick];
		cfg->source = cfg->nx == nx && cfg->ny == ny && cfg->nz == nz ? FDTUNE_EXACT
									 : FDTUNE_NEAREST;
	}
	free(c);
	free(t);
	free(fit);
	if (failed)
		return FDT_FAIL;
	return pick >= 0 ? 0 : fallback(family, radius, precision, nx, ny, nz, cfg, err, n);
}

int fdtune_param(const struct fdtune_config *cfg, const char *name, int def)
{
	if (!cfg || !name)
		return def;
	for (int i = 0; i < cfg->np; i++)
		if (!strcmp(cfg->name[i], name))
			return cfg->value[i];
	return def;
}
