m4_dnl y.m4: the y pass of a multi-pass stencil, out = c0 u + sum_k w_k (u(y-k) + u(y+k))
m4_dnl with the y weights, central differences of order 2R (c0 holds the y centre
m4_dnl weight only). Idea from the y kernels of AMD seismic stencils part 3: VEC
m4_dnl elements in x per thread, taps along y either from memory (through L1) or from
m4_dnl an LDS tile of the block rows and their halo; generalized to any R in 1..8,
m4_dnl any BX x BY (the tile is filled by a strided loop over its rows, so BY may be
m4_dnl smaller than R or not divide 2R), YPT rows per thread (from memory: a register
m4_dnl column of YPT + 2R rows loaded once), NW z planes per block, and any tail in
m4_dnl x, y and z.
m4_dnl Parameters (m4 -D): FDT_R FDT_VEC FDT_BX FDT_BY FDT_YPT FDT_LDS FDT_NW FDT_NT
m4_dnl FDT_ACC FDT_KERNEL FDT_PARAMS. Kernel ABI: (fd_real *out, const fd_real *in, fd_grid,
m4_dnl fd_coef); in and out point at interior point (0,0,0) of fields of the same
m4_dnl layout, with R halo points on every side, ld a multiple of 32 elements, the
m4_dnl interior origin 128-byte aligned and ceil4(nx) elements of row from x = 0.
m4_dnl With acc=1 the kernel adds its result to out instead of storing it.
m4_dnl Launch: block (BX, BY), grid (ceil(nx/(VEC*BX)), ceil(ny/(BY*YPT)), ceil(nz/NW)).
m4_include(`lib.m4')m4_dnl
m4_dnl FDT_STORE(ptr, value): the vector store, nontemporal when FDT_NT.
m4_define(`FDT_STORE', `m4_ifelse(FDT_NT, 1, `fd_store_nt(($1), $2)', `*($1) = $2')')m4_dnl
m4_dnl FDT_PUT(ptr, value): value becomes the output at ptr: stored, or with acc=1
m4_dnl added to what ptr holds (read first).
m4_define(`FDT_PUT', `m4_ifelse(FDT_ACC, 1, `FDT_STORE(`$1', `fd_add(*($1), $2)')', `FDT_STORE(`$1', `$2')')')m4_dnl
m4_dnl FDT_OUT(o, value): output vector value at float pointer o, x = x of this thread:
m4_dnl the whole vector when it ends at or before nx, else its lanes below nx one
m4_dnl float at a time.
m4_define(`FDT_OUT', `m4_ifelse(FDT_VEC, 1, `FDT_PUT(`(vt *)($1)', `$2');', `if (x + VL <= g.nx) {
				FDT_PUT(`(vt *)($1)', `$2');
			} else {        /* the last vector crosses nx */FDT_FOR(`FDT_l', 0, m4_eval(FDT_VEC - 2), `
				if (FDT_l < g.nx - x)
					($1)[FDT_l] = m4_ifelse(FDT_ACC, 1, `($1)[FDT_l] + ')($2)`'FDT_COMP(FDT_l);')
			}')')m4_dnl
FDT_BANNER(`y.m4')
m4_include(`prelude.m4')m4_dnl
`
enum { R = 'FDT_R`, VL = 'FDT_VEC`, BX = 'FDT_BX`, BY = 'FDT_BY`, YP = 'FDT_YPT`, NW = 'FDT_NW`,
       TH = BY * YP,            /* rows of the block */
       TR = TH + 2 * R,         /* tile rows: the block rows and R halo rows each side */
       NL = (TR + BY - 1) / BY };       /* tile rows a thread loads (lds=1) */
typedef 'FDT_VTYPE` vt;

/* Thread (tx, ty) of block (bx, by, bz) computes the vector of VL elements at
 * x = (bx BX + tx) VL in each of the rows yt .. yt + YP - 1, yt = by TH + ty YP,
 * of the planes bz NW .. min(bz NW + NW, nz) - 1. Outputs past nx or ny are
 * never written. */
extern "C" __global__ void __launch_bounds__(BX * BY)
'FDT_KERNEL`(fd_real *__restrict__ out, const fd_real *__restrict__ in, fd_grid g, fd_coef c)
{
	const int tx = threadIdx.x, ty = threadIdx.y;
	const int x = (blockIdx.x * BX + tx) * VL;          /* first x of this thread */
	const int y0 = blockIdx.y * TH;                     /* first row of the block */
	const int yt = y0 + ty * YP;                        /* first row of this thread */
	const int kb = blockIdx.z * NW, ke = min(kb + NW, g.nz);'m4_ifelse(FDT_LDS, 1, `
	/* every thread loads and passes the barriers, its own outputs or not: x is
	 * clamped to the last vector start below nx, rows to the last halo row */
	const int xc = min(x, (g.nx - 1) / VL * VL);
	const fd_real *col = in + xc;
	__shared__ vt tile[TR][BX];     /* tile[r][tx]: row y0 - R + r at the x of thread tx */
	for (int k = kb; k < ke; k++) {
		const fd_real *pl = col + (long long)k * g.slice;
		vt h[NL];               /* tile rows ty, ty + BY, ... below TR: loaded before the barrier */
#pragma unroll
		for (int i = 0; i < NL; i++) {
			const int r = ty + i * BY;
			if (r < TR)
				h[i] = *(const vt *)(pl + (long long)min(y0 - R + r, g.ny + R - 1) * g.ld);
		}
		__syncthreads();        /* no thread reads the tile of the previous plane any more */
#pragma unroll
		for (int i = 0; i < NL; i++) {
			const int r = ty + i * BY;
			if (r < TR)
				tile[r][tx] = h[i];
		}
		__syncthreads();        /* the tile of plane k is complete */
		if (x >= g.nx)
			continue;
		fd_real *ocol = out + (long long)k * g.slice + x;
#pragma unroll
		for (int p = 0; p < YP; p++) {
			if (yt + p >= g.ny)
				break;
			const int t = R + ty * YP + p;          /* tile row of output row yt + p */
			vt s = fd_mul(c.c0, tile[t][tx]);
#pragma unroll
			for (int r = 1; r <= R; r++)
				s = fd_fma(c.y[r], fd_add(tile[t - r][tx], tile[t + r][tx]), s);
			fd_real *o = ocol + (long long)(yt + p) * g.ld;
			'FDT_OUT(`o', `s')`
		}
	}', `
	if (x >= g.nx || yt >= g.ny)
		return;                 /* nothing to store, and no barrier follows */
	const fd_real *col = in + x;
	for (int k = kb; k < ke; k++) {
		const fd_real *pl = col + (long long)k * g.slice;
		fd_real *ocol = out + (long long)k * g.slice + x;
		/* u[i]: row yt - R + i; rows past the last halo row ny + R - 1 are
		 * clamped to it (only outputs past ny would use them) */
		vt u[YP + 2 * R];
#pragma unroll
		for (int i = 0; i < YP + 2 * R; i++)
			u[i] = *(const vt *)(pl + (long long)min(yt - R + i, g.ny + R - 1) * g.ld);
#pragma unroll
		for (int p = 0; p < YP; p++) {
			if (yt + p >= g.ny)
				break;
			vt s = fd_mul(c.c0, u[R + p]);
#pragma unroll
			for (int r = 1; r <= R; r++)
				s = fd_fma(c.y[r], fd_add(u[R + p - r], u[R + p + r]), s);
			fd_real *o = ocol + (long long)(yt + p) * g.ld;
			'FDT_OUT(`o', `s')`
		}
	}')`
}
'
