/*
 * tn_choose.c: the search strategy of a sweep's job (tn_run.h). -s decides;
 * without it, the transfer search where the database holds results of the
 * problem's relatives (tn_transfer.h: on this GPU at other sizes or radii,
 * on the database's other GPUs at any size) or --seeds-from's database
 * holds results of its radius (any size, any GPU, only read; ranked with
 * them), else every configuration. A
 * transfer job loads its seeds here, widens its space by those outside its
 * domains, and the sweep says where they came from; a plan's guided first
 * pass loads its own when it comes (tn_first_seeds). --recheck replaces a
 * job's configurations by its fastest records, to be timed again.
 */
#include "fdt_rc.h"
#include "tn_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A transfer job's space widened by the seeds outside its domains
 * (tn_transfer_widen); not with --shard, whose shares are numbered over the
 * space. */
static int widen(struct tn_run *c, struct tn_job *j, char *err, size_t n)
{
	long long added = 0;
	if (c->o->shards > 1)
		return FDT_OK;
	if (tn_transfer_widen(j->pb, j->sp, &c->lim, &j->sd, &j->cfgs, &j->nv, &added, err, n))
		return FDT_FAIL;
	j->runnable += added;
	j->widened += added;
	return FDT_OK;
}

int tn_seeds_read(const char *path, struct db **out, char *err, size_t n)
{
	char e[512];
	if (!db_read_checked(path, out, e, sizeof e))     /* once or twice a sweep */
		return FDT_OK;
	snprintf(err, n, "--seeds-from %s: %s", path, e);
	return FDT_FAIL;
}

int tn_seeds_open(struct tn_run *c, char *err, size_t n)
{
	const char *p = c->o->seeds_path;
	if (!p)
		return FDT_OK;
	if (!c->gpu) {
		fprintf(stderr, "fdtune: --seeds-from %s is not read: without a GPU the sweep "
			"compiles every configuration, and no search runs\n", p);
		return FDT_OK;
	}
	return tn_seeds_read(p, &c->seeds, err, n);
}

/* With --seeds-from, on a GPU (a compile-only sweep builds every
 * configuration): the seeds of that database's kin of j's problem (every
 * size of its family, radius and precision, on every GPU it records) added
 * to j->sd's, ranked with them; j->sd_from counts its relatives there. */
static int seeds_from(struct tn_run *c, struct tn_job *j, char *err, size_t n)
{
	const struct tn_problem *pb = j->pb;
	struct db_kin q = { pb->fam->name, pb->prec, c->gpu ? c->wk[0].dev.name : "",
			    c->arch, pb->r, 0, 1 };
	struct tn_seeds more;
	char e[512];
	int rc;
	j->sd_from = 0;
	if (!c->seeds || !c->gpu)
		return FDT_OK;
	if (tn_transfer_seeds_kin(c->seeds, &q, pb, &more, e, sizeof e)) {
		snprintf(err, n, "--seeds-from %s: %s", c->o->seeds_path, e);
		return FDT_FAIL;
	}
	j->sd_from = more.nprob;
	if ((rc = tn_seeds_merge(&j->sd, &more, e, sizeof e)))
		snprintf(err, n, "--seeds-from %s: %s", c->o->seeds_path, e);
	tn_seeds_free(&more);
	return rc;
}

/* The strategy of job j: -s, else transfer where the database holds ok runs
 * of the problem's relatives (the same family and precision at other sizes
 * or radii on this GPU, or any size, this one included, on the database's
 * other GPUs; compile-only, on a GPU of this arch), else exhaustive; loads
 * the seeds of a transfer search into j->sd and sets its default budget. A
 * compile-only sweep compiles every configuration, and says what a GPU
 * sweep would choose. */
int tn_choose(struct tn_run *c, struct tn_job *j, enum tn_strategy *st, int *evals,
	      char *err, size_t n)
{
	const struct tn_sweep_opts *o = c->o;
	const struct tn_problem *pb = j->pb;
	struct db_related q = { c->gpu ? c->dev_id[0] : 0, j->prob_id, 0, c->arch, 0, 0, 0,
				c->gpu ? DB_REL_ALL : DB_REL_OWN, 0 };
	char from[480];
	int own;

	*st = o->strategy_set ? o->strategy : TN_EXHAUSTIVE;
	if (o->strategy_set && o->strategy != TN_TRANSFER)
		return FDT_OK;
	if (tn_transfer_seeds(c->db, &q, pb, &j->sd, err, n))
		return FDT_FAIL;
	if (!o->evals_set)
		*evals = TN_TRANSFER_EVALS;
	if (!(own = j->sd.nprob))       /* the sweep's own relatives, said first */
		*from = 0;
	else if (j->sd.nother == own)
		snprintf(from, sizeof from, "%d size%s or radi%s on other GPUs (none on this one "
			 "yet)", own, own == 1 ? "" : "s", own == 1 ? "us" : "i");
	else if (j->sd.nother)
		snprintf(from, sizeof from, "%d other sizes or radii on this GPU and %d on "
			 "other GPUs", own - j->sd.nother, j->sd.nother);
	else
		snprintf(from, sizeof from, "%d other sizes or radii %s", own,
			 c->gpu ? "on this GPU" : "on a GPU of this arch");
	if (seeds_from(c, j, err, n))
		return FDT_FAIL;
	if (j->sd_from)         /* "DB holds ... at A, and N relatives of its radius in S" */
		snprintf(from + strlen(from), sizeof from - strlen(from), "%s%d relative%s of its "
			 "radius (a size on a GPU)%s%s", own ? ", and " : "", j->sd_from,
			 j->sd_from == 1 ? "" : "s", own ? " in " : "", own ? o->seeds_path : "");
	if (!o->strategy_set && j->sd.nprob > 0)
		*st = TN_TRANSFER;
	if (c->gpu && *st == TN_TRANSFER && widen(c, j, err, n))
		return FDT_FAIL;
	if (!o->strategy_set && j->sd.nprob > 0) {
		if (c->gpu)
			fprintf(stderr, "fdtune: %s holds %s %s results at %s: a transfer search "
				"(-s transfer) starts from their bests and runs %d%% of the space "
				"(--evals); -s exhaustive runs every configuration\n",
				own ? o->db_path : o->seeds_path, pb->fam->name,
				pb->prec, from, *evals);
		else
			fprintf(stderr, "fdtune: %s holds %s %s results at %d other sizes or radii "
				"on %s: a GPU sweep would run a transfer search (-s transfer) from "
				"their bests; a compile-only sweep compiles every configuration\n",
				o->db_path, pb->fam->name, pb->prec, j->sd.nprob, c->arch);
	} else if (o->strategy_set && c->gpu && !j->sd.nprob) {
		fprintf(stderr, "fdtune: %s holds no %s %s results at other sizes or radii on this "
			"GPU, nor any on another%s: the transfer search starts at random\n",
			o->db_path, pb->fam->name, pb->prec, c->seeds ? ", nor does --seeds-from's "
			"database at its radius" : "");
	}
	return FDT_OK;
}

int tn_first_seeds(struct tn_run *c, struct tn_job *j, char *err, size_t n)
{
	struct db_related q = { c->dev_id[0], j->prob_id, 0, c->arch, 0, 0, 0, DB_REL_ALL, 0 };
	long long left, use;
	char in[360] = "";
	if (!j->seeding)
		return FDT_OK;
	tn_seeds_free(&j->sd);
	if (tn_transfer_seeds_radius(c->db, &q, j->pb, &j->sd, err, n) ||
	    seeds_from(c, j, err, n))
		return FDT_FAIL;
	j->seeding = 0;
	if (!j->sd.nprob) {
		if (c->seeds)
			fprintf(stderr, "fdtune: %s: its first pass starts at random: neither "
				"database holds bests of its radius\n", j->name);
		else
			fprintf(stderr, "fdtune: %s: its first pass starts at random: the database "
				"holds no bests of its radius at other sizes or on other GPUs "
				"(another GPU's records would seed it: --seeds-from "
				"results/h100/fdtune.db, docs/sweeps.md)\n", j->name);
		return FDT_OK;
	}
	tn_search_seed(j->search, j->sd.v, TN_MAXP, j->sd.n);
	if ((left = tn_search_start_left(j->search, &use)) <= 0 || use <= 0)
		return FDT_OK;
	if (j->sd_from)
		snprintf(in, sizeof in, ", %d of them in %s", j->sd_from, c->o->seeds_path);
	fprintf(stderr, "fdtune: %s: its first pass starts from %lld of the bests recorded for "
		"%d relative%s of its radius (%d of them on other GPUs%s)%s\n", j->name, use,
		j->sd.nprob, j->sd.nprob == 1 ? "" : "s", j->sd.nother, in,
		use < left ? ", then at random" : "");
	return FDT_OK;
}

/* Recheck: the state of the walk over job j's records. */
struct rk {
	struct tn_run *c;
	struct tn_job *j;
	long long older, pruned, twins;
	int k, distinct;        /* k distinct kernels wanted; taken so far */
	char err[512];
};

static int take(void *p, const char *params, double ms)
{
	struct rk *a = p;
	struct tn_job *j = a->j;
	const struct tn_family *f = j->pb->fam;
	int v[TN_MAXP] = { 0 }, twin = 0;
	char json[512], why[256];
	(void)ms;
	if (tn_config_parse(a->c->db, f, params, v, NULL, a->err, sizeof a->err))
		return FDT_FAIL;
	/* a twin of one taken (a record of older templates and today's of the same
	 * kernel) is timed again too, under its own configuration, and does not
	 * count among the k */
	for (long long i = 0; i < j->nv && !twin; i++)
		twin = !memcmp(j->cfgs + i * TN_MAXP, v, sizeof v);
	if (!twin && a->distinct == a->k)
		return 0;
	if (f->check(j->pb, v, &a->c->lim, why, sizeof why)) {
		if (!a->pruned++)
			snprintf(j->first_why, sizeof j->first_why, "%s", why);
		return 0;
	}
	/* one recorded by templates since changed (a parameter since added) is
	 * run as today's templates take it, and recorded under the same
	 * configuration: its new run replaces the old record */
	tn_config_json(f, v, json, sizeof json);
	a->older += strcmp(json, params) != 0;
	a->twins += twin;
	a->distinct += !twin;
	snprintf(j->rjson[j->nv], sizeof j->rjson[0], "%s", params);
	memcpy(j->cfgs + j->nv++ * TN_MAXP, v, sizeof v);
	return 0;
}

int tn_recheck(struct tn_run *c, struct tn_job *j, char *err, size_t n)
{
	const int k = c->o->recheck, most = 4 * k;     /* records walked: twins among them */
	struct rk a = { c, j, 0, 0, 0, k, 0, "" };
	int *cf = realloc(j->cfgs, (size_t)most * TN_MAXP * sizeof *cf);
	char (*rj)[512] = cf ? realloc(j->rjson, (size_t)most * sizeof *rj) : NULL;
	if (cf)
		j->cfgs = cf;
	if (rj)
		j->rjson = rj;
	if (!cf || !rj) {
		snprintf(err, n, "out of memory");
		return FDT_FAIL;
	}
	j->nv = 0;
	*j->first_why = 0;
	if (db_each_record(c->db, c->dev_id[0], j->prob_id, most, take, &a, err, n)) {
		if (*a.err)
			snprintf(err, n, "recheck: %s", a.err);
		return FDT_FAIL;
	}
	j->pruned = a.pruned;
	j->total = j->nv + a.pruned;    /* the sweep's space: the records it took */
	if (!j->nv && !a.pruned) {
		fprintf(stderr, "fdtune: sweep %lld: %s: nothing recorded on %s, nothing to "
			"recheck\n", j->sweep_id, j->name, c->wk[0].dev.name);
		return FDT_OK;
	}
	fprintf(stderr, "fdtune: sweep %lld: %s: rechecking the %d fastest kernels recorded on "
		"%s, %lld records", j->sweep_id, j->name, a.distinct, c->wk[0].dev.name, j->nv);
	if (a.twins)
		fprintf(stderr, " (%lld of them twins: one kernel recorded under two "
			"configurations, today's and older templates')", a.twins);
	if (a.older)
		fprintf(stderr, "; %lld recorded by older templates, timed as today's take them, "
			"under the same configuration", a.older);
	if (a.pruned)
		fprintf(stderr, "; %lld that cannot run here left (e.g. %s)", a.pruned,
			j->first_why);
	fputc('\n', stderr);
	return FDT_OK;
}
