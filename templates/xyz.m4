m4_dnl xyz.m4: the fused single-pass xyz stencil, out = (Dxx + Dyy + Dzz) in,
m4_dnl central differences of order 2R. Idea from AMD's fused LDS/window kernel,
m4_dnl generalized: any R in 1..8, any BX x BY, YPT rows per thread, y through LDS
m4_dnl or registers, any window nw >= 1, a z queue that scatters each plane
m4_dnl forward into 2R+1 accumulators instead of keeping input planes, and
m4_dnl optional prefetch of the next plane into registers.
m4_dnl Parameters (m4 -D): FDT_R FDT_VEC FDT_BX FDT_BY FDT_YPT FDT_LDS FDT_NW FDT_NT
m4_dnl FDT_PF FDT_MB FDT_KU FDT_ZU FDT_ZD FDT_TMA FDT_KERNEL FDT_PARAMS. Kernel ABI: (fd_real *out, const fd_real *in,
m4_dnl fd_grid, fd_coef); in and out point at interior point (0,0,0), with R halo
m4_dnl points on every side; ld % VEC == 0 and the interior origin is 16-byte
m4_dnl aligned. Launch: block (BX, BY), grid (ceil(nx/(VEC*BX)), ceil(ny/(BY*YPT)),
m4_dnl ceil(nz/NW)); with zd=1 the z chunks come first: (ceil(nz/NW), x tiles, y tiles).
m4_dnl FDT_NW undefined (xyz, whose nw is a launch parameter): the kernel takes its
m4_dnl window from the launch, ceil(nz / z chunks), so that one build serves every
m4_dnl nw; defined (iso3dfd.m4), the window is that constant.
m4_dnl lds=2 launches give (PF+3)(BY YPT+2R)(BX+2 ceil(R/VEC)) vectors of dynamic LDS.
m4_dnl With FDT_WAVE defined as 1 (iso3dfd.m4, lds 2) the kernel is one wave-equation
m4_dnl step instead: ABI (fd_real *next, const fd_real *prev, const fd_real *vel,
m4_dnl fd_grid, fd_coef) with out = next and in = prev, and each finished point stores
m4_dnl next = 2 prev - next + vel s, s the sum above (prev read again, from L2; the
m4_dnl three loads issued at the top of the plane whose end stores the point). With
m4_dnl FDT_WR 1 as well, prev is not read again: each thread keeps the centre of
m4_dnl its own points of the last R planes in a ring of R planes in dynamic LDS
m4_dnl after the tile ring (R TH BX more vectors), written and read by that thread
m4_dnl alone, so no barrier orders it.
m4_dnl With FDT_TMA 1 (lds 2, 16-byte vectors, NVIDIA sm_90 and later) the computing
m4_dnl threads issue no copies: the lanes of warp 0 copy the tile rows of a plane with
m4_dnl the bulk copy engine (cp.async.bulk), one row each, and the plane lands on an
m4_dnl mbarrier per ring stage that counts its bytes (NS more 8-byte words of dynamic
m4_dnl LDS after the rings). A row is copied up to the last vector start of the x halo
m4_dnl (what lds 2 reads), so the rest of the last tile row holds stale vectors, which
m4_dnl only points past nx read. Undefined (iso3dfd.m4 before it had tma): 0.
m4_include(`lib.m4')m4_dnl
m4_ifdef(`FDT_WAVE', `', `m4_define(`FDT_WAVE', 0)')m4_dnl
m4_ifdef(`FDT_WR', `', `m4_define(`FDT_WR', 0)')m4_dnl
m4_ifdef(`FDT_TMA', `', `m4_define(`FDT_TMA', 0)')m4_dnl
m4_ifdef(`FDT_NW', `', `m4_define(`FDT_NW', 0)')m4_dnl
m4_dnl FDT_ES: bytes of an element.
m4_define(`FDT_ES', `m4_ifelse(FDT_REAL, `double', 8, 4)')m4_dnl
m4_dnl FDT_KLOOP: with ku=1, unroll the plane loop 2R+1 times: the z queue then shifts by
m4_dnl renaming registers instead of moving them; with zu > 1, zu times: the queue moves
m4_dnl once every zu planes, 2R+1-zu moves for zu planes instead of 2R+1 for each.
m4_define(`FDT_KLOOP', `m4_ifelse(FDT_KU, 1, `#pragma unroll 'm4_eval(2 * FDT_R + 1)`
', FDT_ZU, 1, `', `#pragma unroll 'FDT_ZU`
')')m4_dnl
m4_dnl FDT_XV: vectors of x halo on each side of a thread.
m4_define(`FDT_XV', m4_eval((FDT_R + FDT_VEC - 1) / FDT_VEC))m4_dnl
m4_dnl FDT_X(buf, row, f): input float at x offset f (-R..VEC-1+R) of the thread, from x window buf.
m4_define(`FDT_X', `xr$1[$2][m4_eval(($3 + FDT_XV * FDT_VEC) / FDT_VEC)]`'FDT_COMP(m4_eval(($3 + FDT_XV * FDT_VEC) % FDT_VEC))')m4_dnl
m4_dnl FDT_XTERMS(buf, row): add the off-centre x terms of that row to s, lane by lane.
m4_define(`FDT_XTERMS', `FDT_FOR(`FDT_l', 0, m4_eval(FDT_VEC - 1), `FDT_FOR(`FDT_k', 1, FDT_R, `
				s`'FDT_COMP(FDT_l) = fd_fma(c.x[FDT_k], FDT_X($1, $2, FDT_l - FDT_k) + FDT_X($1, $2, FDT_l + FDT_k), s`'FDT_COMP(FDT_l));')')')m4_dnl
m4_dnl FDT_STORE(ptr, value): the vector store, nontemporal when FDT_NT.
m4_define(`FDT_STORE', `m4_ifelse(FDT_NT, 1, `fd_store_nt(($1), $2)', `*($1) = $2')')m4_dnl
m4_dnl FDT_LOAD(buf, plane): load what plane needs into buffer buf: the x window
m4_dnl of each own row, and the y halo rows (LDS: this thread share of the tile
m4_dnl halo; registers: the R rows above and below its own).
m4_define(`FDT_LOAD', `		{
			const fd_real *pl = col + (long long)($2) * g.slice;
#pragma unroll
			for (int p = 0; p < YP; p++) {
				const fd_real *q = pl + (long long)min(yt + p, g.ny + R - 1) * g.ld;
#pragma unroll
				for (int i = 0; i <= 2 * XV; i++)
					xr$1[p][i] = *(const vt *)(q + (i - XV) * VL);
			}m4_ifelse(FDT_LDS, 1, `
#pragma unroll
			for (int i = 0; i < NH; i++) {
				const int r = ty + i * BY, tr = r < R ? r : TH + r;
				if (r < 2 * R)
					h$1[i] = *(const vt *)(pl + (long long)min(y0 - R + tr, g.ny + R - 1) * g.ld);
			}', `
#pragma unroll
			for (int i = 0; i < R; i++) {
				h$1[i] = *(const vt *)(pl + (long long)min(yt - R + i, g.ny + R - 1) * g.ld);
				h$1[R + i] = *(const vt *)(pl + (long long)min(yt + YP + i, g.ny + R - 1) * g.ld);
			}')
		}
')m4_dnl
m4_dnl FDT_COPY(dst, src): buffer src becomes buffer dst (register moves).
m4_define(`FDT_COPY', `#pragma unroll
		for (int p = 0; p < YP; p++)
#pragma unroll
			for (int i = 0; i <= 2 * XV; i++)
				xr$1[p][i] = xr$2[p][i];
#pragma unroll
		for (int i = 0; i < NH; i++)
			h$1[i] = h$2[i];
')m4_dnl
m4_dnl FDT_WAVE_LOAD: with FDT_WAVE, load prev, next and vel of output plane k - R into
m4_dnl wp, wn, wv at the top of the plane, so that their latency overlaps its compute
m4_dnl (with FDT_WR, prev from the ring of centres, written by this thread R planes ago).
m4_dnl Rows and columns are clamped into the interior: threads that store nothing load too.
m4_define(`FDT_WAVE_LOAD', `m4_ifelse(FDT_WAVE, 1, `		vt wp[YP], wn[YP], wv[YP];
		if (k - R >= kb) {
#pragma unroll
			for (int p = 0; p < YP; p++) {
				const long long oo = (long long)(zdn ? kb + ke + R - 1 - k : k - R) * g.slice +
						     (long long)min(yt + p, g.ny - 1) * g.ld +
						     min(x, (g.nx - 1) / VL * VL);'m4_ifelse(FDT_WR, 1, `
				wp[p] = cring[cs][ty * YP + p][tx];     /* written R planes ago */', `
				wp[p] = *(const vt *)(in + oo);')`
				wn[p] = *(const vt *)(out + oo);
				wv[p] = *(const vt *)(vel + oo);
			}
		}
')')m4_dnl
m4_dnl FDT_STORE_SHIFT: store the completed output plane k - R (slot 0) of every own
m4_dnl row, then shift the queue by one plane.
m4_define(`FDT_STORE_SHIFT', `		if (k - R >= kb) {              /* output plane k - R is complete */
#pragma unroll
			for (int p = 0; p < YP; p++) {
				const long long oo = (long long)(zdn ? kb + ke + R - 1 - k : k - R) * g.slice +
						     (long long)(yt + p) * g.ld + x;
				fd_real *o = out + oo;
				if (yt + p >= g.ny || x >= g.nx)
					continue;m4_ifelse(FDT_WAVE, 1, `
				/* next = 2 prev - next + vel s, from the loads at the top of the plane */
				acc[p][0] = fd_fmav(wv[p], acc[p][0], fd_sub(fd_add(wp[p], wp[p]), wn[p]));')
				if (x + VL <= g.nx) {
					FDT_STORE(`(vt *)o', `acc[p][0]');
				} else {FDT_FOR(`FDT_l', 0, m4_eval(FDT_VEC - 2), `
					if (FDT_l < g.nx - x)
						o[FDT_l] = acc[p][0]`'FDT_COMP(FDT_l);')
				}
			}
		}
#pragma unroll
		for (int p = 0; p < YP; p++) {
#pragma unroll
			for (int j = 0; j < 2 * R; j++)
				acc[p][j] = acc[p][j + 1];
			acc[p][2 * R] = fd_zero<vt>();
		}
')m4_dnl
m4_dnl FDT_TMA_LIB: with FDT_TMA, the mbarrier and bulk copy helpers (sm_90 PTX).
m4_define(`FDT_TMA_LIB', `m4_ifelse(FDT_TMA, 1, `
/* The mbarrier helpers of tma=1: a barrier per ring stage, one arrival (the
 * lane that announces the bytes of a plane) and the bytes of its copies. AMD
 * has no bulk copy engine, and fdtune tunes no tma=1 there; the source of one
 * tuned on NVIDIA (an export) still builds: the lanes copy their rows
 * themselves, and the barrier of every plane orders the copies. */
#ifdef FD_AMD
static __device__ __forceinline__ void fd_bar_init(unsigned long long *b) { *b = 0; }
static __device__ __forceinline__ void fd_bar_fence(void) { }
static __device__ __forceinline__ void fd_bar_expect(unsigned long long *, unsigned) { }
static __device__ __forceinline__ void fd_lanes_sync(void) { }
static __device__ __forceinline__ void fd_bulk(void *dst, const void *src, unsigned bytes,
					       unsigned long long *)
{
	for (unsigned i = 0; i < bytes / 16; i++)
		static_cast<float4 *>(dst)[i] = static_cast<const float4 *>(src)[i];
}
static __device__ __forceinline__ void fd_bar_wait(unsigned long long *, unsigned) { }
#else
static __device__ __forceinline__ unsigned fd_sa(const void *p)
{
	return (unsigned)__cvta_generic_to_shared(p);
}
static __device__ __forceinline__ void fd_bar_init(unsigned long long *b)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" :: "r"(fd_sa(b)) : "memory");
}
/* the barriers initialized are seen by the bulk copies */
static __device__ __forceinline__ void fd_bar_fence(void)
{
	asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}
static __device__ __forceinline__ void fd_lanes_sync(void) { __syncwarp(); }
/* the one arrival of the phase, which then also waits for bytes more */
static __device__ __forceinline__ void fd_bar_expect(unsigned long long *b, unsigned bytes)
{
	asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n"
		     :: "r"(fd_sa(b)), "r"(bytes) : "memory");
}
/* copy bytes (a multiple of 16, both ends 16-byte aligned) from global src to
 * LDS dst; their arrival counts against barrier b */
static __device__ __forceinline__ void fd_bulk(void *dst, const void *src, unsigned bytes,
					       unsigned long long *b)
{
	asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n"
		     :: "r"(fd_sa(dst)), "l"(__cvta_generic_to_global(src)), "r"(bytes), "r"(fd_sa(b))
		     : "memory");
}
/* returns once the phase of b with parity par has completed */
static __device__ __forceinline__ void fd_bar_wait(unsigned long long *b, unsigned par)
{
	unsigned done;
	do
		asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
			     "\tselp.u32 %0, 1, 0, p;\n}\n" : "=r"(done) : "r"(fd_sa(b)), "r"(par) : "memory");
	while (!done);
}
#endif
')')m4_dnl
m4_dnl FDT_TISSUE(cond, stage): FDT_ISSUE of tma=1: when cond, the lanes of warp 0 start
m4_dnl the bulk copies of the rows of the plane at src into ring[stage], lane 0 having
m4_dnl announced their bytes to bar[stage]; src moves on by step. roff[] holds the
m4_dnl offsets within a plane of the rows of this lane, rb the bytes of a row.
m4_define(`FDT_TISSUE', `{
			if (tid < 32 && ($1)) {
				const int st = $2;
				if (tid == 0)
					fd_bar_expect(&bar[st], TR * rb);
				fd_lanes_sync();
#pragma unroll
				for (int i = 0; i < NRL; i++)
					if (tid + 32 * i < TR)
						fd_bulk(&ring[st][tid + 32 * i][0], src + roff[i], rb, &bar[st]);
			}
			src += step;
		}')m4_dnl
m4_dnl FDT_ISSUE_ANY(cond, stage): the copies of a plane, by either path.
m4_define(`FDT_ISSUE_ANY', `m4_ifelse(FDT_TMA, 1, `FDT_TISSUE(`$1', `$2')', `FDT_ISSUE(`$1', `$2')')')m4_dnl
FDT_BANNER(`xyz.m4')
m4_include(`prelude.m4')m4_dnl
m4_ifelse(FDT_LDS, 2, ``
enum { R = 'FDT_R`, VL = 'FDT_VEC`, BX = 'FDT_BX`, BY = 'FDT_BY`, YP = 'FDT_YPT`, TH = BY * YP,
       NW = 'FDT_NW`, XV = 'FDT_XV`, NS = 'FDT_PF` + 3, AH = NS - 2,
       XW = BX + 2 * XV,        /* tile row in vectors: the block and its x halo */
       TR = TH + 2 * R,         /* tile rows: the block and its y halo */
       NTH = BX * BY, NC = (TR * XW + NTH - 1) / NTH'm4_ifelse(FDT_TMA, 1, `, NRL = (TR + 31) / 32')` };
typedef 'FDT_VTYPE` vt;'FDT_TMA_LIB`

/* lds=2: every plane of the block tile, halos included, is copied from memory
 * straight into a ring of NS tiles in LDS, AH = NS - 2 planes ahead of the
 * plane being computed; no register holds an input plane, and one barrier a
 * plane suffices because the stage refilled is two planes old. */
extern "C" __global__ void __launch_bounds__(BX * BY'm4_ifelse(FDT_MB, 0, `', `, 'FDT_MB)`)
'FDT_KERNEL`(fd_real *__restrict__ out, const fd_real *__restrict__ in,'m4_ifelse(FDT_WAVE, 1, ` const fd_real *__restrict__ vel,')` fd_grid g, fd_coef c)
{
	const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * BX + tx;
'm4_ifelse(FDT_ZD, 1, `	/* z chunks vary fastest, so that each pair of chunks starts together */
	const int zc = blockIdx.x, bxi = blockIdx.y, byi = blockIdx.z, nzc = gridDim.x;
	const bool zdn = zc & 1;    /* odd chunks march downwards and meet their neighbours */',
`	const int zc = blockIdx.z, bxi = blockIdx.x, byi = blockIdx.y, nzc = gridDim.z;
	const bool zdn = false;')`
	const int x0 = bxi * BX * VL;                       /* first x of the block */
	const int x = x0 + tx * VL;                         /* first x of this thread */
	const int xlast = (g.nx - 1) / VL * VL + XV * VL;   /* last vector start of the x halo */
	const int y0 = byi * TH;                            /* first row of the block */
	const int yt = y0 + ty * YP;                        /* first row of this thread */
	const int nwr = NW ? NW : (g.nz + nzc - 1) / nzc;  /* planes a chunk (0: from the launch) */
	const int kb = zc * nwr, ke = min(kb + nwr, g.nz);
	/* the ring lives in dynamic LDS: the launch gives NS TR XW vectors (more
	 * than 48 KiB needs the opt-in on NVIDIA; the exported launch sets it) */
	extern __shared__ __align__(16) unsigned char fdt_dyn[];
	vt (*const ring)[TR][XW] = reinterpret_cast<vt (*)[TR][XW]>(fdt_dyn);'m4_ifelse(FDT_WR, 1, `
	/* the centres of the last R planes, each thread its own points */
	vt (*const cring)[TH][BX] = reinterpret_cast<vt (*)[TH][BX]>(fdt_dyn + sizeof(vt) * NS * TR * XW);
	int cs = 0;                 /* slot of plane k, which held plane k - R */')`
	vt acc[YP][2 * R + 1];      /* acc[p][j]: output plane k - R + j of row p */
'm4_ifelse(FDT_TMA, 1, `	/* bar[s]: the barrier of ring stage s, after the rings */
	unsigned long long *const bar = reinterpret_cast<unsigned long long *>(fdt_dyn + sizeof(vt) *
		(NS * TR * XW'm4_ifelse(FDT_WR, 1, ` + R * TH * BX')`));
	/* bytes of a tile row: from x0 - XV VL up to the last vector start of the x halo */
	const unsigned rb = (unsigned)((min(x0 + (XW - XV - 1) * VL, xlast) - x0 + (XV + 1) * VL) *
				       sizeof(fd_real));
	int roff[NRL];              /* rows tid + 32 i of a plane, from x0 - XV VL */
#pragma unroll
	for (int i = 0; i < NRL; i++)
		roff[i] = min(y0 - R + tid + 32 * i, g.ny + R - 1) * g.ld + x0 - XV * VL;
	if (tid == 0) {
		for (int s = 0; s < NS; s++)
			fd_bar_init(&bar[s]);
		fd_bar_fence();
	}
	__syncthreads();            /* the barriers exist before a copy counts on them */
	unsigned ph = 0;            /* bit s: the parity of the phase of bar[s] awaited next */
', `	int coff[NC];               /* source of copy i within a plane: tile unit tid + i * NTH */
	const bool clast = tid + (NC - 1) * NTH < TR * XW;  /* the last copy exists */
#pragma unroll
	for (int i = 0; i < NC; i++) {
		const int u = min(tid + i * NTH, TR * XW - 1), r = u / XW, cx = u - r * XW;
		coff[i] = min(y0 - R + r, g.ny + R - 1) * g.ld + min(x0 + (cx - XV) * VL, xlast);
	}
')`
#pragma unroll
	for (int p = 0; p < YP; p++)
#pragma unroll
		for (int j = 0; j <= 2 * R; j++)
			acc[p][j] = fd_zero<vt>();
	/* next plane to copy, and the step to the one after */
	const fd_real *src = in + (long long)(zdn ? ke + R - 1 : kb - R) * g.slice;
	const long long step = zdn ? -g.slice : g.slice;
#pragma unroll
	for (int i = 0; i < AH; i++)
		'FDT_ISSUE_ANY(`kb - R + i < ke + R', `i')`
	int sr = 0;                 /* stage of plane k */
'FDT_KLOOP`	for (int k = kb - R; k < ke + R; k++) {
		/* the stage of plane k - 2 is free: every thread passed the barrier of
		 * plane k - 1, so none still reads plane k - 2 */
		'FDT_ISSUE_ANY(`k + AH < ke + R', `sr + AH < NS ? sr + AH : sr + AH - NS')`
'FDT_WAVE_LOAD`'m4_ifelse(FDT_TMA, 1, `		fd_bar_wait(&bar[sr], ph >> sr & 1u);  /* plane k has landed */
		ph ^= 1u << sr;
		__syncthreads();        /* every thread is past plane k - 1: its stage may be refilled */
', `		fd_wait<AH>();          /* plane k has landed, for the copies of this thread */
		__syncthreads();        /* and for those of every thread */
')`		vt (*t)[XW] = ring[sr];
		if (k >= kb && k < ke) {        /* in the window: x and y terms too */
#pragma unroll
			for (int p = 0; p < YP; p++) {
				vt xrA[1][2 * XV + 1];
#pragma unroll
				for (int i = 0; i <= 2 * XV; i++)
					xrA[0][i] = t[R + ty * YP + p][tx + i];
				vt s = fd_mul(c.c0, xrA[0][XV]);'FDT_XTERMS(`A', 0)`
#pragma unroll
				for (int r = 1; r <= R; r++)
					s = fd_fma(c.y[r], fd_add(t[R + ty * YP + p - r][XV + tx], t[R + ty * YP + p + r][XV + tx]), s);
				acc[p][R] = fd_add(acc[p][R], s);
			}
		}
#pragma unroll
		for (int p = 0; p < YP; p++) {
			const vt v = t[R + ty * YP + p][XV + tx];'m4_ifelse(FDT_WR, 1, `
			cring[cs][ty * YP + p][tx] = v;   /* plane k - R was read from there above */')`
#pragma unroll
			for (int r = 1; r <= R; r++) {
				acc[p][R - r] = fd_fma(c.z[r], v, acc[p][R - r]);
				acc[p][R + r] = fd_fma(c.z[r], v, acc[p][R + r]);
			}
		}
'FDT_STORE_SHIFT`		sr = sr == NS - 1 ? 0 : sr + 1;'m4_ifelse(FDT_WR, 1, `
		cs = cs == R - 1 ? 0 : cs + 1;')`
	}
'm4_ifelse(FDT_TMA, 1, `	/* every plane copied was awaited: no copy lands after the block is gone */
', `	fd_wait<0>();               /* no copy may land after the block is gone */
')`}
'', ``
enum { R = 'FDT_R`, VL = 'FDT_VEC`, BX = 'FDT_BX`, BY = 'FDT_BY`, YP = 'FDT_YPT`, TH = BY * YP,
       NW = 'FDT_NW`, XV = 'FDT_XV`, NH = 'm4_ifelse(FDT_LDS, 1, `(2 * R + BY - 1) / BY', `2 * R')` };
typedef 'FDT_VTYPE` vt;

extern "C" __global__ void __launch_bounds__(BX * BY'm4_ifelse(FDT_MB, 0, `', `, 'FDT_MB)`)
'FDT_KERNEL`(fd_real *__restrict__ out, const fd_real *__restrict__ in,'m4_ifelse(FDT_WAVE, 1, ` const fd_real *__restrict__ vel,')` fd_grid g, fd_coef c)
{
	const int tx = threadIdx.x, ty = threadIdx.y;
	const int x = (blockIdx.x * BX + tx) * VL;          /* first x of this thread */
	const int xc = min(x, (g.nx - 1) / VL * VL);        /* clamped: loads stay allocated */
	const int y0 = blockIdx.y * TH;                     /* first row of the block */
	const int yt = y0 + ty * YP;                        /* first row of this thread */
	const int nwr = NW ? NW : (g.nz + (int)gridDim.z - 1) / (int)gridDim.z;  /* 0: from the launch */
	const int kb = blockIdx.z * nwr, ke = min(kb + nwr, g.nz);
	const bool zdn = false;     /* zd is for lds=2 */
	const fd_real *col = in + xc;
	vt acc[YP][2 * R + 1];      /* acc[p][j]: output plane k - R + j of row p */
	vt xr0[YP][2 * XV + 1];     /* x window of each own row, centre at XV */
	vt h0[NH];                  /* y halo rows */'m4_ifelse(FDT_PF, 1, `
	vt xr1[YP][2 * XV + 1], h1[NH];     /* the next plane, prefetched */')m4_ifelse(FDT_LDS, 1, `
	__shared__ vt tile[TH + 2 * R][BX];     /* rows y0 - R .. y0 + TH + R - 1 */', `
	vt ycol[YP + 2 * R];        /* y column, rows yt - R .. yt + YP + R - 1 */')`

#pragma unroll
	for (int p = 0; p < YP; p++)
#pragma unroll
		for (int j = 0; j <= 2 * R; j++)
			acc[p][j] = fd_zero<vt>();
'm4_ifelse(FDT_PF, 1, `FDT_LOAD(0, kb - R)')`
'FDT_KLOOP`	for (int k = kb - R; k < ke + R; k++) {
'm4_ifelse(FDT_PF, 1, `FDT_LOAD(1, min(k + 1, ke + R - 1))', `FDT_LOAD(0, k)')m4_ifelse(FDT_LDS, 1, `
		__syncthreads();                /* the previous plane is no longer read */
#pragma unroll
		for (int p = 0; p < YP; p++)
			tile[R + ty * YP + p][tx] = xr0[p][XV];
#pragma unroll
		for (int i = 0; i < NH; i++) {
			const int r = ty + i * BY;
			if (r < 2 * R)
				tile[r < R ? r : TH + r][tx] = h0[i];
		}
		__syncthreads();', `
#pragma unroll
		for (int i = 0; i < R; i++) {
			ycol[i] = h0[i];
			ycol[YP + R + i] = h0[R + i];
		}
#pragma unroll
		for (int p = 0; p < YP; p++)
			ycol[R + p] = xr0[p][XV];')`
		if (k >= kb && k < ke) {        /* in the window: x and y terms too */
#pragma unroll
			for (int p = 0; p < YP; p++) {
				vt s = fd_mul(c.c0, xr0[p][XV]);'FDT_XTERMS(0, `p')`
#pragma unroll
				for (int r = 1; r <= R; r++)
					s = fd_fma(c.y[r], fd_add('m4_ifelse(FDT_LDS, 1,
	`tile[R + ty * YP + p - r][tx], tile[R + ty * YP + p + r][tx]',
	`ycol[R + p - r], ycol[R + p + r]')`), s);
				acc[p][R] = fd_add(acc[p][R], s);
			}
		}
#pragma unroll
		for (int p = 0; p < YP; p++) {
			const vt v = xr0[p][XV];
#pragma unroll
			for (int r = 1; r <= R; r++) {
				acc[p][R - r] = fd_fma(c.z[r], v, acc[p][R - r]);
				acc[p][R + r] = fd_fma(c.z[r], v, acc[p][R + r]);
			}
		}
'FDT_STORE_SHIFT`'m4_ifelse(FDT_PF, 1, `FDT_COPY(0, 1)')`	}
}
'
')