/*
 * fam_xyz.c: descriptor of the fused xyz family (templates/xyz.m4): the sum
 * of the three second derivatives in one pass. Parameters:
 *   vec  floats per thread in x (1, 2, 4: float, float2, float4)
 *   bx   threads of a block in x;  by  threads in y
 *   ypt  rows per thread (fdtune's knob: taller tiles, fewer halo rows)
 *   lds  0: y neighbours straight from memory (through L1) into registers
 *        1: y neighbours through an LDS tile written from registers (the seed)
 *        2: the whole tile, x and y halos included, copied asynchronously from
 *           memory into a ring of pf + 3 LDS tiles (cp.async on NVIDIA), in
 *           dynamic LDS: over 48 KiB a block with the opt-in (dyn_lds)
 *   nw   z planes per block, the sliding-window length (>= nz: one block)
 *   nt   nontemporal (streaming) stores
 *   pf   planes loaded ahead: with lds 0 or 1, 1 loads plane k+1 into
 *        registers before computing plane k; with lds 2, the ring holds pf + 3
 *        planes and pf + 1 are in flight ahead of the one computed (pf up to 2)
 *   mb   the second argument of __launch_bounds__ (0: none): on NVIDIA the
 *        minimum resident blocks per SM, which caps registers per thread; on
 *        AMD, HIP reads it as the minimum waves per execution unit
 *   ku   unroll the plane loop 2R+1 times, so that the z queue shifts by
 *        register renaming instead of moves
 *   zu   unroll the plane loop zu times (1: not at all; ku=1 takes zu=1): the
 *        queue moves once every zu planes (what it gains: results/NOTES.md v10)
 *   zd   (lds 2) odd z chunks march downwards and chunks vary fastest in the
 *        grid, so that neighbouring chunks read their shared halo planes at
 *        the same time, from L2
 *   tma  (lds 2, 16-byte vectors, sm_90) the lanes of warp 0 copy the tile rows
 *        of a plane with the bulk copy engine onto an mbarrier a stage; the
 *        computing threads issue no copies (tn_fam_tma_check)
 */
#include "fam.h"

#include <stdio.h>

int tn_fam_common_check(const struct tn_problem *pb, int vec, int bx, int by,
		     long long rows, long long lds_bytes, const struct tn_limits *lim,
		     char *why, size_t n)
{
	const int es = tn_elem_size(pb);
	if (vec != 1 && vec != 2 && vec != 4)
		return snprintf(why, n, "vec=%d: must be 1, 2 or 4", vec), 1;
	if (es == 8 && vec == 4)
		return snprintf(why, n, "vec=4: fp64 takes vec 1 or 2 (double, double2)"), 1;
	lds_bytes = lds_bytes / 4 * es;         /* given for fp32 elements */
	if ((long long)bx * by > lim->max_threads)
		return snprintf(why, n, "bx*by = %lld threads exceeds the limit of %d per block",
				(long long)bx * by, lim->max_threads), 1;
	if (lds_bytes > lim->lds_block)
		return snprintf(why, n, "needs %lld bytes of LDS, over the limit of %d per block",
				lds_bytes, lim->lds_block), 1;
	if ((pb->ny + rows - 1) / rows > 65535)
		return snprintf(why, n, "grid y = %lld blocks exceeds 65535", (pb->ny + rows - 1) / rows), 1;
	return 0;
}

int tn_fam_ring_check(const struct tn_problem *pb, int lds, int mb, int threads, char *why,
		      size_t n)
{
	if (lds == 2) {
		struct tn_layout l;
		tn_layout_of(pb, &l);
		if (l.slice > 0x7fffffffLL)
			return snprintf(why, n, "lds=2 indexes a plane with 32-bit offsets; a plane of "
					"%lld elements is too large", l.slice), 1;
	}
	if (mb < 0 || mb > 32)
		return snprintf(why, n, "mb=%d: must be 0..32", mb), 1;
	if (mb && (long long)mb * threads > 2048)
		return snprintf(why, n, "mb=%d blocks of %d threads exceed 2048 threads per SM "
				"(the limit of sm_90 and of gfx90a CUs)", mb, threads), 1;
	return 0;
}

int tn_fam_flag(int v, const char *name, char *why, size_t n)
{
	if (v == 0 || v == 1)
		return 0;
	snprintf(why, n, "%s=%d: must be 0 or 1", name, v);
	return 1;
}

enum { P_vec, P_bx, P_by, P_ypt, P_lds, P_nw, P_nt, P_pf, P_mb, P_ku, P_zd, P_zu, P_tma, NP };

/* lds 2: the ring of pf + 3 tiles of BY YPT + 2R rows of BX + 2 XV vectors, in
 * dynamic LDS (over 48 KiB with the opt-in). With tma, the ring's pf + 3 barriers
 * of 8 bytes after it. Domains are bounded
 * (tn_space_set), so the product fits. */
static long long dyn_lds(const struct tn_problem *pb, const int *v)
{
	const long long r = pb->r, xv = (r + v[P_vec] - 1) / v[P_vec];
	return v[P_lds] != 2 ? 0 : (v[P_pf] + 3) * ((long long)v[P_by] * v[P_ypt] + 2 * r) *
		(v[P_bx] + 2 * xv) * v[P_vec] * tn_elem_size(pb) + tn_fam_tma_lds(v[P_tma], v[P_pf]);
}

long long tn_fam_tma_lds(int tma, int pf)
{
	return tma ? (pf + 3) * 8LL : 0;
}

int tn_fam_tma_check(const struct tn_problem *pb, int tma, int lds, int vec,
		      const struct tn_limits *lim, char *why, size_t n)
{
	if (tn_fam_flag(tma, "tma", why, n))
		return 1;
	if (!tma)
		return 0;
	if (lds != 2)
		return snprintf(why, n, "tma=1 copies the ring of lds=2 by the bulk copy engine; it "
				"needs lds=2"), 1;
	if (!lim->bulk)
		return snprintf(why, n, "tma=1 needs the bulk copy engine of NVIDIA sm_90 and later; "
				"this target has none"), 1;
	if (vec * tn_elem_size(pb) != 16)
		return snprintf(why, n, "tma=1 copies 16-byte vectors: vec=4 in fp32, vec=2 in fp64"), 1;
	return 0;
}

int tn_fam_dyn_check(long long bytes, const struct tn_limits *lim, char *why, size_t n)
{
	if (bytes > lim->lds_optin)
		return snprintf(why, n, "needs %lld bytes of dynamic LDS, over the limit of %d per "
				"block", bytes, lim->lds_optin), 1;
	return 0;
}

static int check(const struct tn_problem *pb, const int *v,
		 const struct tn_limits *lim, char *why, size_t n)
{
	/* domains are bounded (tn_space_set), so these products fit */
	long long rows = (long long)v[P_by] * v[P_ypt], r = pb->r;
	long long lds = v[P_lds] == 1 ? (rows + 2 * r) * v[P_bx] * v[P_vec] * 4 : 0;   /* static */
	if (v[P_lds] < 0 || v[P_lds] > 2)
		return snprintf(why, n, "lds=%d: must be 0, 1 or 2", v[P_lds]), 1;
	if (v[P_pf] < 0 || v[P_pf] > (v[P_lds] == 2 ? 2 : 1))
		return snprintf(why, n, "pf=%d: must be 0 or 1, or up to 2 with lds=2", v[P_pf]), 1;
	if (tn_fam_flag(v[P_nt], "nt", why, n) || tn_fam_flag(v[P_ku], "ku", why, n) ||
	    tn_fam_flag(v[P_zd], "zd", why, n))
		return 1;
	if (v[P_zu] < 1 || v[P_zu] > 8)
		return snprintf(why, n, "zu=%d: must be 1..8", v[P_zu]), 1;
	if (v[P_zu] > 1 && v[P_ku])
		return snprintf(why, n, "zu=%d with ku=1: ku unrolls the loop fully; take zu=1", v[P_zu]), 1;
	if (v[P_zd] && v[P_lds] != 2)
		return snprintf(why, n, "zd=1 needs lds=2"), 1;
	if (v[P_zd] && (pb->nx + v[P_vec] * v[P_bx] - 1) / (v[P_vec] * v[P_bx]) > 65535)
		return snprintf(why, n, "zd=1: grid y (x tiles) exceeds 65535 blocks"), 1;
	if (tn_fam_ring_check(pb, v[P_lds], v[P_mb], v[P_bx] * v[P_by], why, n))
		return 1;
	if (tn_fam_tma_check(pb, v[P_tma], v[P_lds], v[P_vec], lim, why, n))
		return 1;
	if (!v[P_zd] && (pb->nz + v[P_nw] - 1) / v[P_nw] > 65535)
		return snprintf(why, n, "nw=%d: grid z exceeds 65535 blocks", v[P_nw]), 1;
	if (tn_fam_dyn_check(dyn_lds(pb, v), lim, why, n))
		return 1;
	return tn_fam_common_check(pb, v[P_vec], v[P_bx], v[P_by], rows, lds, lim, why, n);
}

static void geom(const struct tn_problem *pb, const int *v, unsigned g[3], unsigned b[3])
{
	tn_fam_tile_geom(pb, (const int[3]){ v[P_vec] * v[P_bx], v[P_by] * v[P_ypt], v[P_nw] }, v[P_bx],
			 v[P_by], g, b);
	if (v[P_zd]) {                    /* z chunks first */
		unsigned z = g[2];
		g[2] = g[1];
		g[1] = g[0];
		g[0] = z;
	}
}

static void geom_src(const struct tn_problem *pb, const int *v, char grid[3][96],
		     unsigned b[3])
{
	(void)pb;               /* the same grid at every radius */
	int wx = v[P_vec] * v[P_bx], wy = v[P_by] * v[P_ypt], z = v[P_zd] ? 0 : 2;
	snprintf(grid[v[P_zd] ? 1 : 0], 96, "(nx + %d) / %d", wx - 1, wx);
	snprintf(grid[v[P_zd] ? 2 : 1], 96, "(ny + %d) / %d", wy - 1, wy);
	snprintf(grid[z], 96, "(nz + %d) / %d", v[P_nw] - 1, v[P_nw]);
	b[0] = (unsigned)v[P_bx];
	b[1] = (unsigned)v[P_by];
	b[2] = 1;
}

static int terms(int r) { return 6 * r + 1; }

const struct tn_family tn_fam_xyz = {
	.name = "xyz", .tmpl = "xyz.m4",
	.help = "fused Dxx+Dyy+Dzz in one pass: xy tile in registers or LDS, z register queue",
	.np = NP,
	.p = {
		FAM_P(vec, VEC, "floats per thread in x", 1, 4, (1, 2, 4), 0),
		FAM_P(bx, BX, "threads per block in x", 1, 1024, (32, 64), 0),
		FAM_P(by, BY, "threads per block in y", 1, 1024, (2, 4, 8), 0),
		FAM_P(ypt, YPT, "rows per thread", 1, 64, (2, 4), 0),
		FAM_P(lds, NONE, "LDS: 0 none, 1 y tile, 2 async xy tile ring", 0, 2, (1, 2), 0),
		/* the kernel takes its window from the launch: ceil(nz / the grid's
		 * z chunks), so the five nw share one build */
		FAM_P(nw, Z, "z planes per block (window length)", 1, 65536, (48, 64, 96, 192, 512), FAM_LAUNCH),
		FAM_P(nt, NONE, "nontemporal stores", 0, 1, (0, 1), 0),
		FAM_P(pf, NONE, "planes loaded ahead (prefetch depth)", 0, 2, (0, 1, 2), 0),
		FAM_P(mb, NONE, "min blocks per SM for __launch_bounds__ (0: none)", 0, 32, (0), 0),
		FAM_P(ku, NONE, "unroll the plane loop 2R+1 times", 0, 1, (0), 0),
		FAM_P(zd, NONE, "lds 2: chunks meet at their shared z halo", 0, 1, (0), 0),
		FAM_P(zu, NONE, "unroll the plane loop zu times", 1, 8, (1, 2, 4), 0),
		FAM_P(tma, NONE, "lds 2: rows copied by the bulk copy engine (sm_90)", 0, 1, (0), FAM_LATE),
	},

	.check = check, .geom = geom, .geom_src = geom_src, .dyn_lds = dyn_lds, .bytes = tn_fam_bytes,
	.coef = tn_fam_coef,
	.ref = tn_fam_ref, .terms = terms, .axes = TN_X | TN_Y | TN_Z,
	/* near the top of the H100 sweep; libfdtune's default too */
	.dflt = "{\"vec\":2,\"bx\":64,\"by\":4,\"ypt\":2,\"lds\":2,\"nw\":192,\"nt\":0,\"pf\":1}",
};
