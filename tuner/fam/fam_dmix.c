/*
 * fam_dmix.c: descriptors of the single-pass mixed-derivative families dxy,
 * dxz and dyz (templates/dxy.m4, dxz.m4, dyz.m4, all three templates/dmix.m4):
 *   out = d2u/(ds dt) = sum_{p,q} a_p a_q / (h_s h_t)
 *         (u(+p,+q) - u(+p,-q) - u(-p,+q) + u(-p,-q)),
 * central first-derivative weights a_k of order 2R along both axes, one
 * derivative taken of the other inside one kernel (Micikevicius): dxy and dxz
 * put the slow-axis derivative of the block and its x halo into an LDS tile and
 * take the x derivative from it; dyz takes the y derivative from an LDS tile of
 * each input plane into a register queue along z and the z derivative from it.
 * Coefficient contract (coef): c.x[k], c.y[k], c.z[k] = a_k / h of that axis
 * for k = 1..R on the two axes of the family, zero elsewhere; c0 = 0.
 * Parameters:
 *   vec  floats per thread in x (1, 2, 4: float, float2, float4)
 *   bx   threads of a block in x;  by  threads in y
 *   ypt  rows per thread (dxz with lds=1: 1, each thread marches one row)
 *   nw   z planes per block (dxy: walked one after the other; dxz and dyz: the
 *        march, whose first 2R input planes are the warm-up of the queue)
 *   lds  1: through an LDS tile as above; 0: no LDS and no barrier, every
 *        thread loads its neighbours from memory (L1) and takes the fast-axis
 *        derivative first (templates/dmix0.m4); 2 (dxz, dyz): as 0, from a
 *        ring of planes copied asynchronously into dynamic LDS (dmix2.m4)
 *   pf   (dxz and dyz) lds=0: load 1 or 2 planes ahead of the compute;
 *        lds=2: the ring holds pf + 3 planes, pf + 1 in flight
 *   zu   (lds=0, dxz and dyz) unroll the march zu times (2R + 1: no queue moves)
 *   nt   nontemporal (streaming) stores of the output
 *   acc  1: add the result to the output (tn.h)
 * Records made before lds, pf, zu and nt existed read as lds=1, pf=0, zu=1, nt=0: the first value
 * of each domain is the kernel they ran.
 */
#include "fam.h"

#include <stdio.h>

enum { VEC, BX, BY, YPT, NW, LDS, PF, ZU, NT, ACC };

/* Floats of the register queues and columns a thread of config v keeps at
 * radius r, in the family of axes s (see templates/dmix.m4); at most QMAX
 * so that fp32 registers (255 on NVIDIA) hold them with room to compute. */
enum { QMAX = 144 };

static long long ncx(int r, const int *v)
{
	long long xv = (r + v[VEC] - 1) / v[VEC], w = v[BX] + 2 * xv;
	return (w + v[BX] - 1) / v[BX];
}

static long long lds_bytes(const char *axes, int r, const int *v)
{
	long long th = (long long)v[BY] * v[YPT], xv = (r + v[VEC] - 1) / v[VEC];
	long long vb = 4LL * v[VEC];
	return v[LDS] != 1 ? 0 :
	       axes[1] == 'y' ? th * (v[BX] + 2 * xv) * vb :                /* xy */
	       axes[0] == 'x' ? v[BY] * (v[BX] + 2 * xv) * vb :             /* xz */
			        (th + 2 * r) * v[BX] * vb;                   /* yz */
}

/* lds=2 (dmix2.m4, xz and yz only): the ring of pf + 3 tiles of the block
 * rows and the y halo (yz) by BX vectors and the x halo (xz), in dynamic LDS;
 * 0 for the other modes. Domains are bounded (tn_space_set): it fits. */
static long long dyn_lds(const struct tn_problem *pb, const int *v)
{
	const struct tn_family *f = pb->fam;
	long long r = pb->r, xv = (r + v[VEC] - 1) / v[VEC];
	long long rows = (long long)v[BY] * v[YPT] + (f->axes & TN_Y ? 2 * r : 0);
	long long w = v[BX] + (f->axes & TN_X ? 2 * xv : 0);
	return v[LDS] != 2 ? 0 : (v[PF] + 3) * rows * w * v[VEC] * tn_elem_size(pb);
}

/* lds=1: the queues and columns of dmix.m4; lds=0 (dmix0.m4): the column of
 * Dx and one window (xy), or the queue and the windows or the column of the
 * own rows, 1 + pf times (xz, yz); lds=2: the queue and one window (xz). */
static long long queue_floats(const char *axes, int r, const int *v)
{
	long long xv = (r + v[VEC] - 1) / v[VEC], yp = v[YPT], q = yp * (2 * r + 1);
	if (v[LDS] == 2)
		return (q + (axes[0] == 'x' ? 2 * xv + 1 : 0)) * v[VEC];
	if (v[LDS])
		return axes[1] == 'y' ? (ncx(r, v) * yp + yp + 2 * r) * v[VEC] :
		       axes[0] == 'x' ? ncx(r, v) * (2 * r + 1) * v[VEC] : q * v[VEC];
	return axes[1] == 'y' ? (yp + 2 * r + 2 * xv + 1) * v[VEC] :
	       axes[0] == 'x' ? (q + (1 + v[PF]) * yp * (2 * xv + 1)) * v[VEC] :
			        (q + (1 + v[PF]) * (yp + 2 * r)) * v[VEC];
}

static int check_axes(const char *axes, const struct tn_problem *pb, const int *v,
		      const struct tn_limits *lim, char *why, size_t n)
{
	/* domains are bounded (tn_space_set), so these products fit */
	long long rows = (long long)v[BY] * v[YPT];
	if (tn_fam_flag(v[NT], "nt", why, n) || tn_fam_flag(v[ACC], "acc", why, n))
		return 1;
	if (v[LDS] < 0 || v[LDS] > 2)
		return snprintf(why, n, "lds=%d: must be 0, 1 or 2", v[LDS]), 1;
	if (v[LDS] == 2 && axes[1] == 'y')
		return snprintf(why, n, "lds=2 (the ring of planes) needs a march along z (dxz, dyz)"), 1;
	if (v[PF] < 0 || v[PF] > 2)
		return snprintf(why, n, "pf=%d: must be 0, 1 or 2", v[PF]), 1;
	if (v[NW] < 1 || v[YPT] < 1)
		return snprintf(why, n, "nw=%d ypt=%d: both must be at least 1", v[NW], v[YPT]), 1;
	if (axes[0] == 'x' && axes[1] == 'z' && v[LDS] == 1 && v[YPT] != 1)
		return snprintf(why, n, "ypt=%d: dxz with lds=1 marches one row per thread "
				"(ypt=1; lds=0 and 2 take more)", v[YPT]), 1;
	if (v[PF] && (v[LDS] == 1 || axes[1] == 'y'))
		return snprintf(why, n, "pf=%d needs lds=0 or 2 and a march along z (dxz, dyz)", v[PF]), 1;
	if (v[ZU] < 1 || v[ZU] > 17)
		return snprintf(why, n, "zu=%d: must be 1..17", v[ZU]), 1;
	if (v[ZU] > 1 && (v[LDS] == 1 || axes[1] == 'y'))
		return snprintf(why, n, "zu=%d needs lds=0 or 2 and a march along z (dxz, dyz)", v[ZU]), 1;
	if (tn_fam_ring_check(pb, v[LDS], 0, v[BX] * v[BY], why, n) ||
	    tn_fam_dyn_check(dyn_lds(pb, v), lim, why, n))
		return 1;
	if ((pb->nz + (long long)v[NW] - 1) / v[NW] > 65535)
		return snprintf(why, n, "nw=%d: grid z exceeds 65535 blocks", v[NW]), 1;
	if (v[VEC] == 1 || v[VEC] == 2 || v[VEC] == 4) {
		long long q = queue_floats(axes, pb->r, v);
		if (q > QMAX)
			return snprintf(why, n, "%lld floats of register queue per thread, over %d",
					q, (int)QMAX), 1;
	}
	return tn_fam_common_check(pb, v[VEC], v[BX], v[BY], rows, lds_bytes(axes, pb->r, v),
				   lim, why, n);
}

static int terms(int r) { return 4 * r * r; }

/* One check for the three families: the axes are the family's. */
static int check(const struct tn_problem *pb, const int *v, const struct tn_limits *lim,
		 char *why, size_t n)
{
	int m = pb->fam->axes;
	return check_axes(m == (TN_X | TN_Y) ? "xy" : m == (TN_X | TN_Z) ? "xz" : "yz", pb, v,
			  lim, why, n);
}

/* Default spaces at R=4, before the LDS and queue limits (lds=1 with pf=0
 * only; dxz with lds=1 with ypt=1 only):
 * dxy 3 vec x 3 bx x 2 by x 3 ypt x 2 nw x 2 lds x 2 acc = 432;
 * dxz 3 vec x 3 bx x 4 by x (1 + 2 x 2 x 3) (ypt, lds, pf) x 3 nw x 2 acc = 2808;
 * dyz 3 vec x 3 bx x 2 by x 4 ypt x (1 + 2 x 3) (lds, pf) x 3 nw x 2 acc = 3024;
 * zu and nt stay 1 and 0 (results/h100/highorder.sh passes them). */
#define LDS_P { "lds", "1: an LDS tile; 0: neighbours from memory (L1), no barrier; " \
		"2: as 0 from an async ring of planes in LDS", 0, 2, 3, { 1, 0, 2 } }
#define PF_P { "pf", "planes ahead: lds 0 in registers, lds 2 in flight to the ring", 0, 2, 3, \
		{ 0, 1, 2 } }
#define ZU_P { "zu", "lds 0 and 2: unroll the march zu times", 1, 17, 1, { 1 } }
#define NT_P { "nt", "nontemporal stores", 0, 1, 1, { 0 } }
const struct tn_family tn_fam_dxy = {
	.name = "dxy", .tmpl = "dxy.m4",
	.help = "mixed d2/dxdy in one pass: Dy into an LDS tile, Dx from it (lds=1), or Dx then Dy from memory (lds=0)",
	.np = 10,
	.p = {
		{ "vec", "floats per thread in x", 1, 4, 3, { 1, 2, 4 } },
		{ "bx", "threads per block in x", 1, 1024, 3, { 32, 64, 128 } },
		{ "by", "threads per block in y", 1, 1024, 2, { 2, 8 } },
		{ "ypt", "rows per thread", 1, 64, 3, { 1, 4, 8 } },
		{ "nw", "z planes per block", 1, 65536, 2, { 1, 8 } },
		{ "lds", "1: an LDS tile; 0: neighbours from memory (L1), no barrier", 0, 1, 2, { 1, 0 } },
		{ "pf", "no effect in dxy (no march): 0", 0, 0, 1, { 0 } },
		{ "zu", "no effect in dxy (no march): 1", 1, 1, 1, { 1 } },
		NT_P,
		{ "acc", "add to the output (out += Dxy u)", 0, 1, 2, { 0, 1 } },
	},
	.check = check, .geom = tn_fam_geom, .geom_src = tn_fam_geom_src, .dyn_lds = dyn_lds,
	.bytes = tn_fam_bytes,
	.coef = tn_fam_coef_d1, .ref = tn_fam_ref_mixed, .terms = terms, .d1 = 1,
	.axes = TN_X | TN_Y,
	/* the H100 best at R=4 (90.3% of copy); 116 queue floats at R=8 */
	.dflt = "{\"vec\":4,\"bx\":64,\"by\":8,\"ypt\":8,\"nw\":1,\"lds\":0,\"pf\":0,\"zu\":1,\"nt\":0,\"acc\":0}",
};

const struct tn_family tn_fam_dxz = {
	.name = "dxz", .tmpl = "dxz.m4",
	.help = "mixed d2/dxdz in one pass: Dx of each plane (from memory, lds=0, or an LDS ring, lds=2) into a z queue, Dz of it; or Dz into an LDS tile, Dx of it (lds=1)",
	.np = 10,
	.p = {
		{ "vec", "floats per thread in x", 1, 4, 3, { 1, 2, 4 } },
		{ "bx", "threads per block in x", 1, 1024, 3, { 32, 64, 128 } },
		{ "by", "threads per block in y", 1, 1024, 4, { 1, 2, 4, 8 } },
		{ "ypt", "rows per thread (lds=1: 1, one row marches)", 1, 64, 2, { 1, 4 } },
		{ "nw", "z planes per block (the march)", 1, 65536, 3, { 32, 128, 512 } },
		LDS_P, PF_P, ZU_P, NT_P,
		{ "acc", "add to the output (out += Dxz u)", 0, 1, 2, { 0, 1 } },
	},
	.check = check, .geom = tn_fam_geom, .geom_src = tn_fam_geom_src, .dyn_lds = dyn_lds,
	.bytes = tn_fam_bytes,
	.coef = tn_fam_coef_d1, .ref = tn_fam_ref_mixed, .terms = terms, .d1 = 1,
	.axes = TN_X | TN_Z,
	/* near the H100 best at R=4 (zu 1, not 9: 88.2% against 88.9% of copy);
	 * a ring of 3 tiles of 4 x 136 float2, 88 queue floats at R=8 */
	.dflt = "{\"vec\":2,\"bx\":128,\"by\":2,\"ypt\":2,\"nw\":256,\"lds\":2,\"pf\":0,\"zu\":1,\"nt\":0,\"acc\":0}",
};

const struct tn_family tn_fam_dyz = {
	.name = "dyz", .tmpl = "dyz.m4",
	.help = "mixed d2/dydz in one pass: Dy of each plane (an LDS tile, lds=1, memory, lds=0, or an LDS ring, lds=2) into a z queue, Dz of it",
	.np = 10,
	.p = {
		{ "vec", "floats per thread in x", 1, 4, 3, { 1, 2, 4 } },
		{ "bx", "threads per block in x", 1, 1024, 3, { 32, 64, 128 } },
		{ "by", "threads per block in y", 1, 1024, 2, { 4, 8 } },
		{ "ypt", "rows per thread", 1, 64, 4, { 1, 2, 4, 8 } },
		{ "nw", "z planes per block (the march)", 1, 65536, 3, { 32, 128, 512 } },
		LDS_P, PF_P, ZU_P, NT_P,
		{ "acc", "add to the output (out += Dyz u)", 0, 1, 2, { 0, 1 } },
	},
	.check = check, .geom = tn_fam_geom, .geom_src = tn_fam_geom_src, .dyn_lds = dyn_lds,
	.bytes = tn_fam_bytes,
	.coef = tn_fam_coef_d1, .ref = tn_fam_ref_mixed, .terms = terms, .d1 = 1,
	.axes = TN_Y | TN_Z,
	/* an H100 best at R=4 (89.6% of copy); 136 queue floats and a ring of
	 * 3 tiles of 32 x 32 float2 (24 KiB) at R=8 */
	.dflt = "{\"vec\":2,\"bx\":32,\"by\":4,\"ypt\":4,\"nw\":256,\"lds\":2,\"pf\":0,\"zu\":1,\"nt\":0,\"acc\":0}",
};
