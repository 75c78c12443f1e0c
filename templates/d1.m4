m4_dnl d1.m4: the central first derivative of order 2R along one axis,
m4_dnl   out = sum_k w[k] (u(+k) - u(-k)),
m4_dnl with the weights of fd_coef for that axis (a_k / h, fam_d1.c: c.x, c.y or
m4_dnl c.z; c0 unused): one pass of the two-pass mixed derivative of Micikevicius,
m4_dnl Derivative Discretization on GPUs (the second pass reads the output of the
m4_dnl first). Included by d1x.m4, d1y.m4 and d1z.m4, which define FDT_AXIS (x, y or
m4_dnl z) and FDT_TMPL (their own name, for the banner):
m4_dnl   x: each thread loads the 2 XV + 1 aligned vectors around its own vector of
m4_dnl      each of its rows into a register window and takes Dx from it
m4_dnl   y: each thread loads a register column of YPT + 2R rows per plane
m4_dnl   z: each thread marches its rows along z with a register queue of 2R + 1
m4_dnl      planes per row, one new plane per output (NW = 1: the baseline, every
m4_dnl      tap loaded once per output)
m4_dnl No LDS and no barrier: threads are independent and may leave early.
m4_dnl Reads stay on the lines of the derivative axis through the points of the
m4_dnl interior, plus at most 3 elements of padding past nx: the halo of the other
m4_dnl axes is never read, so a first pass may run over a domain extended by R
m4_dnl along another axis (in and out moved back by R rows or planes) to give
m4_dnl the second pass its halo.
m4_dnl Parameters (m4 -D): FDT_R FDT_VEC FDT_BX FDT_BY FDT_YPT FDT_NW FDT_ACC FDT_KERNEL
m4_dnl FDT_PARAMS. Kernel ABI: (fd_real *out, const fd_real *in, fd_grid, fd_coef); in
m4_dnl and out point at interior point (0,0,0) of fields of the same layout, with R
m4_dnl halo points along the axis, ld a multiple of VEC, in and out aligned to VEC
m4_dnl elements, at least XV VEC elements of row before x = 0 and ceil4(nx) + ceil4(R)
m4_dnl after (x; tn_field.c gives 32 and more) or ceil4(nx) (y and z). acc=1 adds
m4_dnl its result to out instead of storing it.
m4_dnl Launch: block (BX, BY), grid (ceil(nx/(VEC*BX)), ceil(ny/(BY*YPT)), ceil(nz/NW)).
m4_include(`lib.m4')m4_dnl
m4_dnl FDT_XV: vectors of x halo on each side of a vector.
m4_define(`FDT_XV', m4_eval((FDT_R + FDT_VEC - 1) / FDT_VEC))m4_dnl
m4_dnl FDT_ZERO: the zero vector.
m4_define(`FDT_ZERO', `fd_zero<vt>()')m4_dnl
m4_dnl FDT_SUB(a, b): a - b, per component.
m4_define(`FDT_SUB', `fd_sub($1, $2)')m4_dnl
m4_dnl FDT_X(w, f): the float at x offset f (-R..VEC-1+R) of the thread, from the
m4_dnl window w (2 XV + 1 vectors, the own vector at XV).
m4_define(`FDT_X', `$1[m4_eval(($2 + FDT_XV * FDT_VEC) / FDT_VEC)]`'FDT_COMP(m4_eval(($2 + FDT_XV * FDT_VEC) % FDT_VEC))')m4_dnl
m4_dnl FDT_DX(s, w): s = the x first derivative of window w, lane by lane.
m4_define(`FDT_DX', `FDT_FOR(`FDT_l', 0, m4_eval(FDT_VEC - 1), `
			$1`'FDT_COMP(FDT_l) = 0.0f;FDT_FOR(`FDT_k', 1, FDT_R, `
			$1`'FDT_COMP(FDT_l) = fd_fma(c.x[FDT_k], FDT_X(`$2', FDT_l + FDT_k) - FDT_X(`$2', FDT_l - FDT_k), $1`'FDT_COMP(FDT_l));')')')m4_dnl
m4_dnl FDT_STORE(ptr, value): the vector store.
m4_define(`FDT_STORE', `*($1) = $2')m4_dnl
m4_dnl FDT_OUT(o, x, s, tab): write result vector s (a variable) at o, the output element
m4_dnl of the first lane, whose x is x < nx; lanes at nx and beyond are not written.
m4_dnl With FDT_ACC the output is read and s added to it (out += s). tab: the indent.
m4_define(`FDT_OUT', `if ($2 + VL <= g.nx) {m4_ifelse(FDT_ACC, 1, `
$4	$3 = fd_add(*(const vt *)($1), $3);')
$4	FDT_STORE(`(vt *)($1)', `$3');
$4}m4_ifelse(FDT_VEC, 1, `', ` else {         /* the x tail: lanes below nx only */FDT_FOR(`FDT_l', 0, m4_eval(FDT_VEC - 2), `
$4	if (FDT_l < g.nx - $2)
$4		($1)[FDT_l] = m4_ifelse(FDT_ACC, 1, `($1)[FDT_l] + ')$3`'FDT_COMP(FDT_l);')
$4}')')m4_dnl
FDT_BANNER(FDT_TMPL` (d1.m4)')
m4_include(`prelude.m4')m4_dnl

enum { R = FDT_R, VL = FDT_VEC, BX = FDT_BX, BY = FDT_BY, YP = FDT_YPT, NW = FDT_NW,
       XV = FDT_XV };
typedef FDT_VTYPE vt;

/* Thread (tx, ty) of block (bx, by, bz) computes the vector of VL elements at
 * x = (bx BX + tx) VL in each of the rows yt .. yt + YP - 1, yt = (by BY + ty) YP,
 * of the planes bz NW .. min(bz NW + NW, nz) - 1. Outputs past nx or ny are
 * never written. */
extern "C" __global__ void __launch_bounds__(BX * BY)
FDT_KERNEL`'(fd_real *__restrict__ out, const fd_real *__restrict__ in, fd_grid g, fd_coef c)
{
	const int x = (blockIdx.x * BX + threadIdx.x) * VL;     /* first x of this thread */
	const int yt = (blockIdx.y * BY + threadIdx.y) * YP;    /* first row of this thread */
	const int kb = blockIdx.z * NW, ke = min(kb + NW, g.nz);  /* planes kb..ke-1 */
	if (x >= g.nx || yt >= g.ny)
		return;                 /* nothing to store, and no barrier follows */
m4_ifelse(FDT_AXIS, `x', `m4_dnl
	/* x < nx is a multiple of VL, so the window x - XV VL .. x + XV VL + VL - 1
	 * ends within ceil(nx) + ceil(R) elements of the row */
	for (int k = kb; k < ke; k++) {
#pragma unroll
		for (int p = 0; p < YP; p++) {
			if (yt + p >= g.ny)
				break;
			const long long ro = (long long)k * g.slice + (long long)(yt + p) * g.ld + x;
			const fd_real *row = in + ro;
			vt w[2 * XV + 1], s;    /* w[i]: the vector at x + (i - XV) VL */
#pragma unroll
			for (int i = 0; i <= 2 * XV; i++)
				w[i] = *(const vt *)(row + (i - XV) * VL);FDT_DX(`s', `w')
			FDT_OUT(`out + ro', `x', `s', `			')
		}
	}
', FDT_AXIS, `y', `m4_dnl
	const int ylast = g.ny + R - 1;                     /* last row of the y halo */
	for (int k = kb; k < ke; k++) {
		const fd_real *pl = in + (long long)k * g.slice + x;
		/* u[j]: row yt - R + j; rows past the last halo row are clamped to it
		 * (only outputs past ny would use them) */
		vt u[YP + 2 * R];
#pragma unroll
		for (int j = 0; j < YP + 2 * R; j++)
			u[j] = *(const vt *)(pl + (long long)min(yt - R + j, ylast) * g.ld);
#pragma unroll
		for (int p = 0; p < YP; p++) {
			if (yt + p >= g.ny)
				break;
			vt s = FDT_ZERO;
#pragma unroll
			for (int r = 1; r <= R; r++)
				s = fd_fma(c.y[r], FDT_SUB(u[R + p + r], u[R + p - r]), s);
			fd_real *o = out + (long long)k * g.slice + (long long)(yt + p) * g.ld + x;
			FDT_OUT(`o', `x', `s', `			')
		}
	}
', `m4_dnl
	const long long s = g.slice;
	/* rows past ny march row ny - 1 and store nothing; planes kb - R ..
	 * ke + R - 1 are allocated */
	const fd_real *col[YP];           /* col[p]: row yt + p at x, plane 0 */
	vt q[YP][2 * R + 1];            /* q[p][j]: plane k - R + j of row yt + p */
#pragma unroll
	for (int p = 0; p < YP; p++) {
		col[p] = in + (long long)min(yt + p, g.ny - 1) * g.ld + x;
#pragma unroll
		for (int j = 0; j < 2 * R; j++)         /* planes kb - R .. kb + R - 1 */
			q[p][j] = *(const vt *)(col[p] + (long long)(kb - R + j) * s);
	}
	for (int k = kb; k < ke; k++) {
#pragma unroll
		for (int p = 0; p < YP; p++) {
			q[p][2 * R] = *(const vt *)(col[p] + (long long)(k + R) * s);
			vt d = FDT_ZERO;
#pragma unroll
			for (int r = 1; r <= R; r++)
				d = fd_fma(c.z[r], FDT_SUB(q[p][R + r], q[p][R - r]), d);
#pragma unroll
			for (int j = 0; j < 2 * R; j++)
				q[p][j] = q[p][j + 1];
			if (yt + p < g.ny) {
				fd_real *o = out + (long long)k * s + (long long)(yt + p) * g.ld + x;
				FDT_OUT(`o', `x', `d', `				')
			}
		}
	}
')m4_dnl
}
