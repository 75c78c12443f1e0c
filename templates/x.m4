m4_dnl x.m4: the x pass of a multi-pass stencil, out = c0 u + sum_k w_k (u(x-k) + u(x+k))
m4_dnl with the x weights, central differences of order 2R (c0 holds the x centre
m4_dnl weight only). Idea from the x kernels of AMD seismic stencils part 3: a
m4_dnl baseline with every tap loaded from memory, and a vectorized kernel whose
m4_dnl thread loads the aligned vectors around its outputs once into a register
m4_dnl window and computes from it; generalized to any R in 1..8, XPT consecutive
m4_dnl vectors per thread (a wider window, less halo per output), YPT rows per
m4_dnl thread and any tail in x, y and z.
m4_dnl Parameters (m4 -D): FDT_R FDT_VEC FDT_BX FDT_BY FDT_YPT FDT_XPT FDT_WIN FDT_NT
m4_dnl FDT_ACC FDT_KERNEL FDT_PARAMS. Kernel ABI: (fd_real *out, const fd_real *in, fd_grid,
m4_dnl fd_coef); in and out point at interior point (0,0,0) of fields of the same
m4_dnl layout, with R halo points on every side, ld a multiple of 32 elements, the
m4_dnl interior origin 128-byte aligned and at least 8 elements of row before x = 0 and
m4_dnl ceil4(nx) + ceil4(R) elements of row from x = 0 (tn_field.c gives 32 and more).
m4_dnl With acc=1 the kernel adds its result to out instead of storing it.
m4_dnl Launch: block (BX, BY), grid (ceil(nx/(VEC*XPT*BX)), ceil(ny/(BY*YPT)), nz).
m4_include(`lib.m4')m4_dnl
m4_dnl FDT_XV: vectors of x halo on each side of the outputs of a thread.
m4_define(`FDT_XV', m4_eval((FDT_R + FDT_VEC - 1) / FDT_VEC))m4_dnl
m4_dnl FDT_W(q, f): the input float at x offset f (-R..VEC-1+R) from the first x of
m4_dnl vector q (0..XPT-1) of the thread, as an element of the register window w.
m4_define(`FDT_W', `w[m4_eval((FDT_VEC * ($1) + ($2) + FDT_XV * FDT_VEC) / FDT_VEC)]`'FDT_COMP(m4_eval((FDT_VEC * ($1) + ($2) + FDT_XV * FDT_VEC) % FDT_VEC))')m4_dnl
m4_dnl FDT_WTERMS(q): s[q] = the stencil of vector q from the window, lane by lane.
m4_define(`FDT_WTERMS', `FDT_FOR(`FDT_l', 0, m4_eval(FDT_VEC - 1), `
		s[$1]`'FDT_COMP(FDT_l) = c.c0 * FDT_W($1, FDT_l);FDT_FOR(`FDT_k', 1, FDT_R, `
		s[$1]`'FDT_COMP(FDT_l) = fd_fma(c.x[FDT_k], FDT_W($1, FDT_l - FDT_k) + FDT_W($1, FDT_l + FDT_k), s[$1]`'FDT_COMP(FDT_l));')')')m4_dnl
m4_dnl FDT_ALLW: FDT_WTERMS of every vector 0..XPT-1 of the thread.
m4_define(`FDT_ALLW', `FDT_FOR(`FDT_q', 0, m4_eval(FDT_XPT - 1), `FDT_WTERMS(FDT_q)')')m4_dnl
m4_dnl FDT_STORE(ptr, value): the vector store, nontemporal when FDT_NT.
m4_define(`FDT_STORE', `m4_ifelse(FDT_NT, 1, `fd_store_nt(($1), $2)', `*($1) = $2')')m4_dnl
m4_dnl FDT_PUT(ptr, value): value becomes the output at ptr: stored, or with acc=1
m4_dnl added to what ptr holds (read first).
m4_define(`FDT_PUT', `m4_ifelse(FDT_ACC, 1, `FDT_STORE(`$1', `fd_add(*($1), $2)')', `FDT_STORE(`$1', `$2')')')m4_dnl
m4_dnl FDT_TAIL(row, xq, value): the lanes below nx of a vector that crosses nx,
m4_dnl one float at a time (at most VEC - 1 lanes: a whole vector takes FDT_PUT).
m4_define(`FDT_TAIL', `FDT_FOR(`FDT_l', 0, m4_eval(FDT_VEC - 2), `
				if (FDT_l < g.nx - ($2))
					($1)[($2) + FDT_l] = m4_ifelse(FDT_ACC, 1, `($1)[($2) + FDT_l] + ')($3)`'FDT_COMP(FDT_l);')')m4_dnl
FDT_BANNER(`x.m4')
m4_include(`prelude.m4')m4_dnl
`
enum { R = 'FDT_R`, VL = 'FDT_VEC`, BX = 'FDT_BX`, BY = 'FDT_BY`, YP = 'FDT_YPT`, XP = 'FDT_XPT`,
       XV = 'FDT_XV`,               /* vectors of x halo on each side */
       NWIN = XP + 2 * XV };        /* window vectors of a row */
typedef 'FDT_VTYPE` vt;

/* Thread (tx, ty) of block (bx, by, k) computes XP consecutive vectors of VL
 * elements from x0 = (bx BX + tx) XP VL in each of the rows yt .. yt + YP - 1,
 * yt = (by BY + ty) YP, of plane k. Outputs past nx or ny are never written. */
extern "C" __global__ void __launch_bounds__(BX * BY)
'FDT_KERNEL`(fd_real *__restrict__ out, const fd_real *__restrict__ in, fd_grid g, fd_coef c)
{
	const int x0 = (blockIdx.x * BX + threadIdx.x) * (XP * VL);    /* first x of this thread */
	const int yt = (blockIdx.y * BY + threadIdx.y) * YP;            /* first row of this thread */
	if (x0 >= g.nx || yt >= g.ny)
		return;                 /* nothing to store, and no barrier follows */
	const long long plane = (long long)blockIdx.z * g.slice;'m4_ifelse(FDT_WIN, 1, `
	/* the last vector start whose elements a stored output can need: window
	 * vectors past it are clamped to it (only lanes at or past nx use them),
	 * so every load stays within ceil4(nx) + ceil4(R) elements of the row */
	const int xlast = (g.nx - 1) / VL * VL + XV * VL;')`
#pragma unroll
	for (int p = 0; p < YP; p++) {
		if (yt + p >= g.ny)
			break;
		const long long ro = plane + (long long)(yt + p) * g.ld;
		const fd_real *row = in + ro;
		fd_real *orow = out + ro;
		vt s[XP];               /* s[q]: the outputs at x0 + q VL .. x0 + q VL + VL - 1 */'m4_ifelse(FDT_WIN, 1, `
		vt w[NWIN];             /* w[i]: the vector at x0 + (i - XV) VL, clamped to xlast */
#pragma unroll
		for (int i = 0; i < NWIN; i++)
			w[i] = *(const vt *)(row + min(x0 + (i - XV) * VL, xlast));'FDT_ALLW, `
		/* baseline: every tap straight from memory */
		s[0] = c.c0 * row[x0];
#pragma unroll
		for (int r = 1; r <= R; r++)
			s[0] = fd_fma(c.x[r], row[x0 - r] + row[x0 + r], s[0]);')`
#pragma unroll
		for (int q = 0; q < XP; q++) {
			const int xq = x0 + q * VL;
			if (xq >= g.nx)
				break;'m4_ifelse(FDT_VEC, 1, `
			'FDT_PUT(`(vt *)(orow + xq)', `s[q]')`;', `
			if (xq + VL <= g.nx) {
				'FDT_PUT(`(vt *)(orow + xq)', `s[q]')`;
			} else {                /* the last vector crosses nx */'FDT_TAIL(`orow', `xq', `s[q]')`
			}')`
		}
	}
}
'
