/*
 * fam_iso3dfd.c: descriptor of the iso3dfd family (templates/iso3dfd.m4):
 * one time step of the acoustic isotropic wave equation, next = 2 prev -
 * next + vel L(prev), L the Laplacian of order 2R (R = 8 is the sample's
 * 16th order) with weights scaled by 1/h^2 and the centre weight summed over
 * the three axes. A time-stepping family (tn.h): validated after several
 * steps, ping-pong, against tn_ref_wave. Parameters:
 *   vec  elements per thread in x (1, 2, 4; fp64 1, 2)
 *   bx   threads of a block in x (the sample's b1);  by  in y (b2)
 *   ypt  rows per thread, each with its own queue: the y neighbours of its
 *        rows are loaded once for all of them (fdtune's knob)
 *   lds  0: x and y neighbours from memory through L1; 1: an LDS xy tile
 *        per plane, interior from the register queues, halos loaded once;
 *        2: the fused xyz kernel with lds 2 (templates/xyz.m4: the tile,
 *        halos included, copied asynchronously into a ring of pf + 3
 *        planes, z by a queue of partial sums) ending in the wave update
 *   nw   planes a thread marches in z (b3), with a queue of 2R+1 planes
 *        (with zu 1 and ku 0 a launch parameter: the window from the grid)
 *   pad  lds 1: vectors added to each LDS row (bank conflicts)
 *   ku   unroll the march 2R+1 times: the queue shifts by renaming
 *   zu   unroll the march zu times (1: not at all; ku=1 takes zu=1): the
 *        queue moves once every zu planes, as in the xyz family
 *   nt   streaming stores of next
 *   pf   load the memory streams of plane k + 1 (queue fronts, next, vel)
 *        into registers while plane k is computed; lds 2: planes in flight
 *        beyond the next (up to 2)
 *   mb   the second argument of __launch_bounds__ (0: none): minimum
 *        resident blocks per SM on NVIDIA, which caps registers per thread
 *   wr   lds 2: the update reads prev at the output point from a ring of the
 *        last R planes' centres in LDS, each thread its own, instead of from
 *        memory a second time (R BY YPT BX vectors more of dynamic LDS)
 *   tma  lds 2: the tile rows copied by the bulk copy engine, as in the xyz
 *        family (16-byte vectors, sm_90)
 * Bytes: 16 a point in fp32 (read prev, next and vel; write next), the
 * sample's effective bandwidth; prev's halo reads are not counted.
 */
#include "fam.h"

#include <stdio.h>

enum { P_vec, P_bx, P_by, P_ypt, P_lds, P_nw, P_pad, P_ku, P_nt, P_pf, P_mb, P_zu, P_wr, P_tma, NP };

/* Static LDS bytes in fp32 elements (lds 1): BY YPT + 2R rows of BX + 2 XV
 * + pad vectors. */
static long long lds_bytes(int r, const int *v)
{
	const long long xv = (r + v[P_vec] - 1) / v[P_vec], rows = (long long)v[P_by] * v[P_ypt] + 2 * r;
	return v[P_lds] == 1 ? rows * (v[P_bx] + 2 * xv + v[P_pad]) * v[P_vec] * 4 : 0;
}

/* Dynamic LDS bytes (lds 2, xyz.m4's ring): pf + 3 tiles of BY YPT + 2R rows
 * of BX + 2 XV vectors, and with wr R planes of BY YPT rows of BX vectors. With tma,
 * the ring's pf + 3 barriers of 8 bytes after them. */
static long long dyn_lds(const struct tn_problem *pb, const int *v)
{
	const long long r = pb->r, xv = (r + v[P_vec] - 1) / v[P_vec], th = (long long)v[P_by] * v[P_ypt];
	return v[P_lds] != 2 ? 0 : ((v[P_pf] + 3) * (th + 2 * r) * (v[P_bx] + 2 * xv) +
				  (v[P_wr] ? r * th * v[P_bx] : 0)) * v[P_vec] * tn_elem_size(pb) +
		tn_fam_tma_lds(v[P_tma], v[P_pf]);
}

/* nw is a launch parameter where the march is not unrolled (zu 1, ku 0):
 * with zu > 1 a window known at compile time keeps three of the four
 * fastest kernels of R = 8 1.2-1.3x faster (results/NOTES.md v35); with
 * ku 1 the window from the launch costs lds 2's kernels up to 1.4% and lds
 * 0's with pf 1 2.1-2.4x (ptxas gives them 100 registers, not 150), though
 * it would halve ku 1's builds (NOTES v54). */
static int launch_if(const int *v, int i)
{
	return i != P_nw || (v[P_zu] == 1 && v[P_ku] == 0);
}

/* The default space leaves out ku 1 with lds 1 or 2. A ku 1 build takes
 * 2.0-2.7 s of NVRTC against 0.25-0.34 s for ku 0 (the H200's history: the
 * march unrolled 2R + 1 times), 82% of the compile time of the plan of
 * results/h100x2/scaling.sh, and with lds 1 or 2 it never paid: in every
 * size recorded on the H100 and the H200 (128x128x64 to 640x480x400) the
 * best kernel is lds 2 with ku 0 or, at 128x128x64 on the H100 alone, lds 0
 * with ku 1 (0.0261 ms against 0.0293 for ku 0); with lds 2, ku 1's best is
 * 1.2-1.7x slower than ku 0's but at 128x128x64 (0.99x), and lds 1's bests
 * trail lds 2's by 1.4-1.8x (results/NOTES.md v59). It leaves out ku 1
 * with lds 0 too on grids of more than KU_PTS points: its best was 1.23-1.85x
 * slower than ku 0's at every such size recorded (256^3, 1000x300x129,
 * 640x480x400 and 512^3 on the H100 and the H200) and 0.89x at 128x128x64
 * (2^20 points), the one size it won (NOTES v62); 2^23 is the halfway mark
 * in points, as nothing between was measured. -p ku=... brings them back. */
#define KU_PTS (1LL << 23)

static int dflt_out(const struct tn_problem *pb, const int *v, unsigned set, char *why, size_t n)
{
	long long pts = (long long)pb->nx * pb->ny * pb->nz;
	if (set & 1u << P_ku || !v[P_ku])
		return 0;
	if (v[P_lds])
		return snprintf(why, n, "ku=1 with lds=%d: builds 6-9x slower and never won; "
				"-p ku=0,1 sweeps it", v[P_lds]), 1;
	if (pts > KU_PTS)
		return snprintf(why, n, "ku=1 on a grid of more than 2^23 points: builds 6-9x "
				"slower and lost by 1.2-1.9x at every such size measured; "
				"-p ku=0,1 sweeps it"), 1;
	return 0;
}

static int check(const struct tn_problem *pb, const int *v,
		 const struct tn_limits *lim, char *why, size_t n)
{
	if (v[P_lds] < 0 || v[P_lds] > 2)
		return snprintf(why, n, "lds=%d: must be 0, 1 or 2", v[P_lds]), 1;
	if (tn_fam_ring_check(pb, v[P_lds], v[P_mb], v[P_bx] * v[P_by], why, n))
		return 1;
	if (tn_fam_tma_check(pb, v[P_tma], v[P_lds], v[P_vec], lim, why, n))
		return 1;
	if (tn_fam_flag(v[P_ku], "ku", why, n) || tn_fam_flag(v[P_nt], "nt", why, n) ||
	    tn_fam_flag(v[P_wr], "wr", why, n))
		return 1;
	if (v[P_wr] && v[P_lds] != 2)
		return snprintf(why, n, "wr=1 keeps prev in the LDS ring of lds=2; it needs lds=2"), 1;
	if (v[P_pf] < 0 || v[P_pf] > (v[P_lds] == 2 ? 2 : 1))
		return snprintf(why, n, "pf=%d: must be 0 or 1, or up to 2 with lds=2", v[P_pf]), 1;
	if (v[P_zu] < 1 || v[P_zu] > 8)
		return snprintf(why, n, "zu=%d: must be 1..8", v[P_zu]), 1;
	if (v[P_zu] > 1 && v[P_ku])
		return snprintf(why, n, "zu=%d with ku=1: ku unrolls the march fully; take zu=1", v[P_zu]), 1;
	if (v[P_bx] < 1 || v[P_by] < 1 || v[P_nw] < 1 || v[P_ypt] < 1 || v[P_ypt] > 8)
		return snprintf(why, n, "bx, by and nw must be positive, ypt 1..8"), 1;
	if (v[P_pad] < 0 || v[P_pad] > 4)
		return snprintf(why, n, "pad=%d: must be 0..4", v[P_pad]), 1;
	if (v[P_pad] && v[P_lds] != 1)
		return snprintf(why, n, "pad=%d pads LDS rows; it needs lds=1", v[P_pad]), 1;
	/* the queues alone: past 128 registers a thread spills on every target */
	if ((long long)v[P_ypt] * (2 * pb->r + 1) * v[P_vec] * tn_elem_size(pb) / 4 > 128)
		return snprintf(why, n, "ypt=%d, vec=%d: the queues of 2R+1 planes need %lld "
				"registers, over 128", v[P_ypt], v[P_vec], (long long)v[P_ypt] *
				(2 * pb->r + 1) * v[P_vec] * tn_elem_size(pb) / 4), 1;
	if ((pb->nz + (long long)v[P_nw] - 1) / v[P_nw] > 65535)
		return snprintf(why, n, "nw=%d: grid z = ceil(nz/nw) exceeds 65535 blocks", v[P_nw]), 1;
	if (tn_fam_dyn_check(dyn_lds(pb, v), lim, why, n))
		return 1;
	return tn_fam_common_check(pb, v[P_vec], v[P_bx], v[P_by], (long long)v[P_by] * v[P_ypt],
				   lds_bytes(pb->r, v), lim, why, n);
}

static double bytes(const struct tn_problem *pb, const int *v)
{
	(void)v;
	return 4.0 * pb->nx * pb->ny * pb->nz * tn_elem_size(pb);
}

/* Default space: 3 vec x 3 bx x 3 by x 2 ypt x 3 lds x 2 nw x 2 ku x 2 nt x
 * 2 pf x 2 mb x 2 wr = 10368 configurations, 5648 valid at R = 8 in fp32
 * (queues over 128 registers refused, and wr 1 without lds 2), of which
 * dflt_out leaves out ku 1 with lds 1 or 2, and on grids over 2^23 points.
 * wr's first value, 0, is what records made before it existed ran. pad (LDS row padding) is left at 0: the sweep of
 * results/h100/NOTES.md found no bank-conflict gain; -p pad=0,1. zu stays
 * 1 (-p zu=1,2,3,4: +5% at R = 8 with lds 2, results/NOTES.md v10). */
const struct tn_family tn_fam_iso3dfd = {
	.name = "iso3dfd", .tmpl = "iso3dfd.m4",
	.help = "one step of the acoustic wave equation (Intel iso3dfd): next = 2 prev - next + vel L(prev)",
	.np = NP,
	.p = {
		FAM_P(vec, VEC, "elements per thread in x", 1, 4, (1, 2, 4), 0),
		FAM_P(bx, BX, "threads per block in x (b1)", 1, 1024, (32, 64, 128), 0),
		FAM_P(by, BY, "threads per block in y (b2)", 1, 1024, (2, 4, 8), 0),
		FAM_P(ypt, YPT, "rows per thread", 1, 8, (1, 2), 0),
		FAM_P(lds, NONE, "0 neighbours through L1, 1 LDS xy tile, 2 async LDS ring", 0, 2, (0, 1, 2), 0),
		/* with zu 1 and ku 0 the kernel takes its window from the
		 * launch (launch_if), so the two nw share one build */
		FAM_P(nw, Z, "planes marched per thread (b3)", 1, 65536, (32, 128), FAM_LAUNCH),
		FAM_P(pad, NONE, "lds 1: vectors of padding per LDS row", 0, 4, (0), 0),
		FAM_P(ku, NONE, "unroll the march 2R+1 times", 0, 1, (0, 1), 0),
		FAM_P(nt, NONE, "streaming stores of next", 0, 1, (0, 1), 0),
		FAM_P(pf, NONE, "prefetch the streams of the next plane", 0, 2, (0, 1), 0),
		FAM_P(mb, NONE, "__launch_bounds__ minimum blocks per SM (0: none)", 0, 32, (0, 2), 0),
		FAM_P(zu, NONE, "unroll the march zu times", 1, 8, (1), 0),
		FAM_P(wr, NONE, "lds 2: prev at the output from an LDS ring, not read again", 0, 1, (0, 1), 0),
		FAM_P(tma, NONE, "lds 2: rows copied by the bulk copy engine (sm_90)", 0, 1, (0), FAM_LATE),
	},
	.check = check, .geom = tn_fam_geom, .geom_src = tn_fam_geom_src, .dyn_lds = dyn_lds,
	.launch_if = launch_if,
	.dflt_out = dflt_out,
	.dflt_out_help = "ku=1 only with lds=0 and on grids of at most 2^23 points (ku=1 "
			 "builds 6-9x slower and won only at 128x128x64; -p ku=0,1 sweeps it)",
	.bytes = bytes,
	.coef = tn_fam_coef, .ref = NULL, .terms = tn_wave_terms, .axes = TN_X | TN_Y | TN_Z,
	.steps = 4, .step_ref = tn_ref_wave, .step_gpu = "wref.m4",
	/* untuned: 256 threads, two elements each, LDS tile; fits every R */
	.dflt = "{\"vec\":2,\"bx\":32,\"by\":4,\"ypt\":1,\"lds\":0,\"nw\":32,\"pad\":0,\"ku\":0,\"nt\":1,\"pf\":0,\"mb\":0}",
};
