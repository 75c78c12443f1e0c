m4_dnl xs.m4: the x second derivative alone, out = c0 u + sum_k x[k] (u(x-k) + u(x+k)),
m4_dnl central differences of order 2R, with the row staged through shared memory
m4_dnl (idea from Micikevicius, derivative discretization on GPUs: x-stencils need
m4_dnl overlapping contiguous regions, so a block loads its row once into LDS).
m4_dnl Two ways to cover the halo (MODE):
m4_dnl   0: one thread per output vector; the first 2 XV threads of a block row (a
m4_dnl      strided loop when BX is narrower) also fetch the XV halo vectors each side;
m4_dnl   1: one thread per input vector; a block row of BX threads loads BX vectors
m4_dnl      and produces BX - 2 XV of them: the XV halo threads each side load only.
m4_dnl XV = ceil(R / VEC) halo vectors per side (R elements for VEC = 1), so every load
m4_dnl and store of a vector is aligned. BY rows per block, one tile row each.
m4_dnl Parameters (m4 -D): FDT_R FDT_VEC FDT_BX FDT_BY FDT_MODE FDT_ACC FDT_KERNEL
m4_dnl FDT_PARAMS. Kernel ABI: (fd_real *out, const fd_real *in, fd_grid, fd_coef); in and
m4_dnl out point at interior point (0,0,0) of fields of the same layout, with R halo
m4_dnl points on every side, ld a multiple of 32 elements, the interior origin 128-byte
m4_dnl aligned and at least 8 elements of row before x = 0 and ceil4(nx) + ceil4(R)
m4_dnl elements of row from x = 0 (tn_field.c gives 32 and more).
m4_dnl With acc=1 the kernel adds its result to out instead of storing it.
m4_dnl Launch: block (BX, BY), grid (ceil(nx / (VEC OW)), ceil(ny / BY), nz) with OW =
m4_dnl BX (mode 0) or BX - 2 XV (mode 1) output vectors per block row; a larger grid x
m4_dnl is allowed (its extra blocks return at once).
m4_include(`lib.m4')m4_dnl
m4_dnl FDT_XV: halo vectors on each side of the outputs of a block row.
m4_define(`FDT_XV', m4_eval((FDT_R + FDT_VEC - 1) / FDT_VEC))m4_dnl
m4_dnl FDT_PUT(ptr, value): value becomes the output vector at ptr: stored, or with
m4_dnl acc=1 added to what ptr holds (read first).
m4_define(`FDT_PUT', `m4_ifelse(FDT_ACC, 1, `*($1) = fd_add(*($1), $2)', `*($1) = $2')')m4_dnl
m4_dnl FDT_OUT(o, value): output vector value at float pointer o, x = x of this thread
m4_dnl (x < nx): the whole vector when it ends at or before nx, else its lanes below
m4_dnl nx one float at a time.
m4_define(`FDT_OUT', `m4_ifelse(FDT_VEC, 1, `FDT_PUT(`(vt *)($1)', `$2');', `if (x + VL <= g.nx) {
		FDT_PUT(`(vt *)($1)', `$2');
	} else {        /* the last vector crosses nx */FDT_FOR(`FDT_l', 0, m4_eval(FDT_VEC - 2), `
		if (FDT_l < g.nx - x)
			($1)[FDT_l] = m4_ifelse(FDT_ACC, 1, `($1)[FDT_l] + ')($2)`'FDT_COMP(FDT_l);')
	}')')m4_dnl
m4_dnl FDT_LANES: s = the stencil of the VEC elements at t[0 .. VEC-1], lane by lane,
m4_dnl every tap a float of the tile row.
m4_define(`FDT_LANES', `FDT_FOR(`FDT_l', 0, m4_eval(FDT_VEC - 1), `
	s`'FDT_COMP(FDT_l) = c.c0 * t[FDT_l];
#pragma unroll
	for (int r = 1; r <= R; r++)
		s`'FDT_COMP(FDT_l) = fd_fma(c.x[r], t[FDT_l - r] + t[FDT_l + r], s`'FDT_COMP(FDT_l));')')m4_dnl
FDT_BANNER(`xs.m4')
m4_include(`prelude.m4')m4_dnl
`
enum { R = 'FDT_R`, VL = 'FDT_VEC`, BX = 'FDT_BX`, BY = 'FDT_BY`, MODE = 'FDT_MODE`,
       XV = 'FDT_XV`,                           /* halo vectors each side */
       TW = MODE ? BX : BX + 2 * XV,            /* tile vectors of a row */
       OW = MODE ? BX - 2 * XV : BX };          /* output vectors of a block row */
typedef 'FDT_VTYPE` vt;

/* Block (bx, by, k) computes the OW VL elements from xb = bx OW VL in row
 * y = by BY + ty of plane k, thread row ty; tile[ty][i] holds the input vector
 * at xb + (i - XV) VL, clamped to xlast. Outputs past nx or ny are never written. */
extern "C" __global__ void __launch_bounds__(BX * BY)
'FDT_KERNEL`(fd_real *__restrict__ out, const fd_real *__restrict__ in, fd_grid g, fd_coef c)
{
	const int tx = threadIdx.x, ty = threadIdx.y;
	const int xb = blockIdx.x * (OW * VL);          /* first output x of the block */
	if (xb >= g.nx)
		return;                 /* the whole block (uniform), before the barrier */
	const int y = blockIdx.y * BY + ty;
	/* every thread loads and passes the barrier: rows past ny load row ny - 1,
	 * and vectors past the last one a stored output needs load that one, so
	 * every load stays within ceil4(nx) + ceil4(R) elements of an interior row */
	const int xlast = (g.nx - 1) / VL * VL + XV * VL;
	const long long ro = (long long)blockIdx.z * g.slice + (long long)min(y, g.ny - 1) * g.ld;
	const fd_real *row = in + ro;
	__shared__ vt tile[BY][TW];'m4_ifelse(FDT_MODE, 0, `
	tile[ty][XV + tx] = *(const vt *)(row + min(xb + tx * VL, xlast));
	for (int h = tx; h < 2 * XV; h += BX) {         /* the halo: XV vectors each side */
		const int i = h < XV ? h : BX + h;      /* tile vector */
		tile[ty][i] = *(const vt *)(row + min(xb + (i - XV) * VL, xlast));
	}
	__syncthreads();                /* the tile is complete; the only barrier */
	const int x = xb + tx * VL;                     /* first output x of this thread */
	const fd_real *t = (const fd_real *)&tile[ty][XV + tx];', `
	tile[ty][tx] = *(const vt *)(row + min(xb + (tx - XV) * VL, xlast));
	__syncthreads();                /* the tile is complete; the only barrier */
	if (tx < XV || tx >= BX - XV)
		return;                 /* halo threads: load only */
	const int x = xb + (tx - XV) * VL;              /* first output x of this thread */
	const fd_real *t = (const fd_real *)&tile[ty][tx];')`
	if (y >= g.ny || x >= g.nx)
		return;
	vt s;'FDT_LANES`
	fd_real *o = out + ro + x;
	'FDT_OUT(`o', `s')`
}
'
