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

enum { P_vec, P_bx, P_by, P_ypt, P_nw, P_lds, P_pf, P_zu, P_nt, P_acc, NP };

/* Floats of the register queues and columns a thread of config v keeps at
 * radius r, in the family of axes s (see templates/dmix.m4); at most QMAX
 * so that fp32 registers (255 on NVIDIA) hold them with room to compute. */
enum { QMAX = 144 };

static long long ncx(int r, const int *v)
{
	long long xv = (r + v[P_vec] - 1) / v[P_vec], w = v[P_bx] + 2 * xv;
	return (w + v[P_bx] - 1) / v[P_bx];
}

static long long lds_bytes(const char *axes, int r, const int *v)
{
	long long th = (long long)v[P_by] * v[P_ypt], xv = (r + v[P_vec] - 1) / v[P_vec];
	long long vb = 4LL * v[P_vec];
	return v[P_lds] != 1 ? 0 :
	       axes[1] == 'y' ? th * (v[P_bx] + 2 * xv) * vb :                /* xy */
	       axes[0] == 'x' ? v[P_by] * (v[P_bx] + 2 * xv) * vb :             /* xz */
			        (th + 2 * r) * v[P_bx] * vb;                   /* yz */
}

/* lds=2 (dmix2.m4, xz and yz only): the ring of pf + 3 tiles of the block
 * rows and the y halo (yz) by BX vectors and the x halo (xz), in dynamic LDS;
 * 0 for the other modes. Domains are bounded (tn_space_set): it fits. */
static long long dyn_lds(const struct tn_problem *pb, const int *v)
{
	const struct tn_family *f = pb->fam;
	long long r = pb->r, xv = (r + v[P_vec] - 1) / v[P_vec];
	long long rows = (long long)v[P_by] * v[P_ypt] + (f->axes & TN_Y ? 2 * r : 0);
	long long w = v[P_bx] + (f->axes & TN_X ? 2 * xv : 0);
	return v[P_lds] != 2 ? 0 : (v[P_pf] + 3) * rows * w * v[P_vec] * tn_elem_size(pb);
}

/* lds=1: the queues and columns of dmix.m4; lds=0 (dmix0.m4): the column of
 * Dx and one window (xy), or the queue and the windows or the column of the
 * own rows, 1 + pf times (xz, yz); lds=2: the queue and one window (xz). */
static long long queue_floats(const char *axes, int r, const int *v)
{
	long long xv = (r + v[P_vec] - 1) / v[P_vec], yp = v[P_ypt], q = yp * (2 * r + 1);
	if (v[P_lds] == 2)
		return (q + (axes[0] == 'x' ? 2 * xv + 1 : 0)) * v[P_vec];
	if (v[P_lds])
		return axes[1] == 'y' ? (ncx(r, v) * yp + yp + 2 * r) * v[P_vec] :
		       axes[0] == 'x' ? ncx(r, v) * (2 * r + 1) * v[P_vec] : q * v[P_vec];
	return axes[1] == 'y' ? (yp + 2 * r + 2 * xv + 1) * v[P_vec] :
	       axes[0] == 'x' ? (q + (1 + v[P_pf]) * yp * (2 * xv + 1)) * v[P_vec] :
			        (q + (1 + v[P_pf]) * (yp + 2 * r)) * v[P_vec];
}

static int check_axes(const char *axes, const struct tn_problem *pb, const int *v,
		      const struct tn_limits *lim, char *why, size_t n)
{
	/* domains are bounded (tn_space_set), so these products fit */
	long long rows = (long long)v[P_by] * v[P_ypt];
	if (tn_fam_flag(v[P_nt], "nt", why, n) || tn_fam_flag(v[P_acc], "acc", why, n))
		return 1;
	if (v[P_lds] < 0 || v[P_lds] > 2)
		return snprintf(why, n, "lds=%d: must be 0, 1 or 2", v[P_lds]), 1;
	if (v[P_lds] == 2 && axes[1] == 'y')
		return snprintf(why, n, "lds=2 (the ring of planes) needs a march along z (dxz, dyz)"), 1;
	if (v[P_pf] < 0 || v[P_pf] > 2)
		return snprintf(why, n, "pf=%d: must be 0, 1 or 2", v[P_pf]), 1;
	if (v[P_nw] < 1 || v[P_ypt] < 1)
		return snprintf(why, n, "nw=%d ypt=%d: both must be at least 1", v[P_nw], v[P_ypt]), 1;
	if (axes[0] == 'x' && axes[1] == 'z' && v[P_lds] == 1 && v[P_ypt] != 1)
		return snprintf(why, n, "ypt=%d: dxz with lds=1 marches one row per thread "
				"(ypt=1; lds=0 and 2 take more)", v[P_ypt]), 1;
	if (v[P_pf] && (v[P_lds] == 1 || axes[1] == 'y'))
		return snprintf(why, n, "pf=%d needs lds=0 or 2 and a march along z (dxz, dyz)", v[P_pf]), 1;
	if (v[P_zu] < 1 || v[P_zu] > 17)
		return snprintf(why, n, "zu=%d: must be 1..17", v[P_zu]), 1;
	if (v[P_zu] > 1 && (v[P_lds] == 1 || axes[1] == 'y'))
		return snprintf(why, n, "zu=%d needs lds=0 or 2 and a march along z (dxz, dyz)", v[P_zu]), 1;
	if (tn_fam_ring_check(pb, v[P_lds], 0, v[P_bx] * v[P_by], why, n) ||
	    tn_fam_dyn_check(dyn_lds(pb, v), lim, why, n))
		return 1;
	if ((pb->nz + (long long)v[P_nw] - 1) / v[P_nw] > 65535)
		return snprintf(why, n, "nw=%d: grid z exceeds 65535 blocks", v[P_nw]), 1;
	if (v[P_vec] == 1 || v[P_vec] == 2 || v[P_vec] == 4) {
		long long q = queue_floats(axes, pb->r, v);
		if (q > QMAX)
			return snprintf(why, n, "%lld floats of register queue per thread, over %d",
					q, (int)QMAX), 1;
	}
	return tn_fam_common_check(pb, v[P_vec], v[P_bx], v[P_by], rows, lds_bytes(axes, pb->r, v),
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
#define LDS_P FAM_P(lds, NONE, "1: an LDS tile; 0: neighbours from memory (L1), no barrier; " \
		"2: as 0 from an async ring of planes in LDS", 0, 2, (1, 0, 2), 0)
#define PF_P FAM_P(pf, NONE, "planes ahead: lds 0 in registers, lds 2 in flight to the ring", \
		   0, 2, (0, 1, 2), 0)
#define ZU_P FAM_P(zu, NONE, "lds 0 and 2: unroll the march zu times", 1, 17, (1), 0)
#define NT_P FAM_P(nt, NONE, "nontemporal stores", 0, 1, (0), 0)
const struct tn_family tn_fam_dxy = {
	.name = "dxy", .tmpl = "dxy.m4",
	.help = "mixed d2/dxdy in one pass: Dy into an LDS tile, Dx from it (lds=1), or Dx then Dy from memory (lds=0)",
	.np = NP,
	.p = {
		FAM_P(vec, VEC, "floats per thread in x", 1, 4, (1, 2, 4), 0),
		FAM_P(bx, BX, "threads per block in x", 1, 1024, (32, 64, 128), 0),
		FAM_P(by, BY, "threads per block in y", 1, 1024, (2, 8), 0),
		FAM_P(ypt, YPT, "rows per thread", 1, 64, (1, 4, 8), 0),
		FAM_P(nw, Z, "z planes per block", 1, 65536, (1, 8), 0),
		FAM_P(lds, NONE, "1: an LDS tile; 0: neighbours from memory (L1), no barrier", 0, 1, (1, 0), 0),
		FAM_P(pf, NONE, "no effect in dxy (no march): 0", 0, 0, (0), 0),
		FAM_P(zu, NONE, "no effect in dxy (no march): 1", 1, 1, (1), 0),
		NT_P,
		FAM_P(acc, ACC, "add to the output (out += Dxy u)", 0, 1, (0, 1), 0),
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
	.np = NP,
	.p = {
		FAM_P(vec, VEC, "floats per thread in x", 1, 4, (1, 2, 4), 0),
		FAM_P(bx, BX, "threads per block in x", 1, 1024, (32, 64, 128), 0),
		FAM_P(by, BY, "threads per block in y", 1, 1024, (1, 2, 4, 8), 0),
		FAM_P(ypt, YPT, "rows per thread (lds=1: 1, one row marches)", 1, 64, (1, 4), 0),
		FAM_P(nw, Z, "z planes per block (the march)", 1, 65536, (32, 128, 512), 0),
		LDS_P, PF_P, ZU_P, NT_P,
		FAM_P(acc, ACC, "add to the output (out += Dxz u)", 0, 1, (0, 1), 0),
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
	.np = NP,
	.p = {
		FAM_P(vec, VEC, "floats per thread in x", 1, 4, (1, 2, 4), 0),
		FAM_P(bx, BX, "threads per block in x", 1, 1024, (32, 64, 128), 0),
		FAM_P(by, BY, "threads per block in y", 1, 1024, (4, 8), 0),
		FAM_P(ypt, YPT, "rows per thread", 1, 64, (1, 2, 4, 8), 0),
		FAM_P(nw, Z, "z planes per block (the march)", 1, 65536, (32, 128, 512), 0),
		LDS_P, PF_P, ZU_P, NT_P,
		FAM_P(acc, ACC, "add to the output (out += Dyz u)", 0, 1, (0, 1), 0),
	},
	.check = check, .geom = tn_fam_geom, .geom_src = tn_fam_geom_src, .dyn_lds = dyn_lds,
	.bytes = tn_fam_bytes,
	.coef = tn_fam_coef_d1, .ref = tn_fam_ref_mixed, .terms = terms, .d1 = 1,
	.axes = TN_Y | TN_Z,
	/* an H100 best at R=4 (89.6% of copy); 136 queue floats and a ring of
	 * 3 tiles of 32 x 32 float2 (24 KiB) at R=8 */
	.dflt = "{\"vec\":2,\"bx\":32,\"by\":4,\"ypt\":4,\"nw\":256,\"lds\":2,\"pf\":0,\"zu\":1,\"nt\":0,\"acc\":0}",
};
