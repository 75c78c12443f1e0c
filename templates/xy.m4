m4_dnl xy.m4: the fused in-plane stencil out = c0 u + sum_k x[k] (x neighbours) +
m4_dnl y[k] (y neighbours), central differences of order 2R, Dxx + Dyy in one pass;
m4_dnl the first pass of the two-pass strategy xy then z (acc=1 adds to the output).
m4_dnl Idea from AMD seismic part 3 (xy kernel with vectors and LDS), generalized to
m4_dnl any R in 1..8, any BX x BY, YPT rows per thread and three ways to the data:
m4_dnl   lds 0: x window and y column of each thread straight from memory (L1)
m4_dnl   lds 1: x window from memory into registers; y through an LDS tile of the
m4_dnl          block columns (BY*YPT + 2R rows), own rows written from registers,
m4_dnl          y halo rows loaded by the threads in turn
m4_dnl   lds 2: the whole tile, x and y halos included ((BY*YPT + 2R) rows of
m4_dnl          BX + 2 XV vectors), loaded by all threads in a strided loop; x and y
m4_dnl          both from LDS
m4_dnl Each block walks NW z planes, one after the other, to amortize its setup.
m4_dnl Parameters (m4 -D): FDT_R FDT_VEC FDT_BX FDT_BY FDT_YPT FDT_LDS FDT_NW FDT_NT
m4_dnl FDT_ACC FDT_KERNEL FDT_PARAMS. Kernel ABI: (fd_real *out, const fd_real *in,
m4_dnl fd_grid, fd_coef); in and out point at interior point (0,0,0), with R halo
m4_dnl points on every side; ld % VEC == 0 and the interior origin is 16-byte
m4_dnl aligned, and a row may be read from x = -R rounded down to a vector up to
m4_dnl the last vector that starts below nx + R (the padding).
m4_dnl Launch: block (BX, BY), grid (ceil(nx/(VEC*BX)), ceil(ny/(BY*YPT)), ceil(nz/NW)).
m4_include(`lib.m4')m4_dnl
m4_dnl FDT_XV: vectors of x halo on each side of a thread.
m4_define(`FDT_XV', m4_eval((FDT_R + FDT_VEC - 1) / FDT_VEC))m4_dnl
m4_dnl FDT_X(w, f): the input float at x offset f (-R..VEC-1+R) of the thread, from the
m4_dnl x window w (2 XV + 1 vectors, the own vector at XV).
m4_define(`FDT_X', `$1[m4_eval(($2 + FDT_XV * FDT_VEC) / FDT_VEC)]`'FDT_COMP(m4_eval(($2 + FDT_XV * FDT_VEC) % FDT_VEC))')m4_dnl
m4_dnl FDT_XTERMS(w): add the off-centre x terms of x window w to s, lane by lane.
m4_define(`FDT_XTERMS', `FDT_FOR(`FDT_l', 0, m4_eval(FDT_VEC - 1), `FDT_FOR(`FDT_k', 1, FDT_R, `
			s`'FDT_COMP(FDT_l) = fd_fma(c.x[FDT_k], FDT_X(`$1', FDT_l - FDT_k) + FDT_X(`$1', FDT_l + FDT_k), s`'FDT_COMP(FDT_l));')')')m4_dnl
m4_dnl FDT_STORE(ptr, value): the vector store, nontemporal when FDT_NT.
m4_define(`FDT_STORE', `m4_ifelse(FDT_NT, 1, `fd_store_nt(($1), $2)', `*($1) = $2')')m4_dnl
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
m4_dnl FDT_POINT(w, up, dn): the output of own row p from x window w, with up(r) and
m4_dnl dn(r) the y neighbours r rows above and below (r a C expression); stored
m4_dnl when the point is in the interior.
m4_define(`FDT_POINT', `			vt s = fd_mul(c.c0, $1[XV]);FDT_XTERMS(`$1')
#pragma unroll
			for (int r = 1; r <= R; r++)
				s = fd_fma(c.y[r], fd_add($2, $3), s);
			if (x < g.nx && yt + p < g.ny) {
				fd_real *o = out + (long long)k * g.slice + (long long)(yt + p) * g.ld + x;
				FDT_OUT(`o', `x', `s', `				')
			}')m4_dnl
FDT_BANNER(`xy.m4')
m4_include(`prelude.m4')m4_dnl

enum { R = FDT_R, VL = FDT_VEC, BX = FDT_BX, BY = FDT_BY, YP = FDT_YPT, TH = BY * YP,
       NW = FDT_NW, XV = FDT_XV`'m4_ifelse(FDT_LDS, 1, `,
       NH = (2 * R + BY - 1) / BY      /* y halo rows per thread, the last partly */', FDT_LDS, 2, `,
       XW = BX + 2 * XV,               /* tile row in vectors: the block and its x halo */
       TR = TH + 2 * R,                /* tile rows: the block and its y halo */
       NTH = BX * BY, NC = (TR * XW + NTH - 1) / NTH       /* tile vectors per thread */') };
typedef FDT_VTYPE vt;

extern "C" __global__ void __launch_bounds__(BX * BY)
FDT_KERNEL`'(fd_real *__restrict__ out, const fd_real *__restrict__ in, fd_grid g, fd_coef c)
{
	const int tx = threadIdx.x, ty = threadIdx.y;
	const int x0 = blockIdx.x * BX * VL;                /* first x of the block */
	const int x = x0 + tx * VL;                         /* first x of this thread */
	const int y0 = blockIdx.y * TH;                     /* first row of the block */
	const int yt = y0 + ty * YP;                        /* first row of this thread */
	const int kb = blockIdx.z * NW, ke = min(kb + NW, g.nz);  /* planes kb..ke-1 */
	const int ylast = g.ny + R - 1;                     /* last row of the y halo */
	/* Rows past ylast and vectors past the x halo are never needed by a point of
	 * the interior; loads clamp to them so that they stay allocated, and threads
	 * whose points lie outside compute from those values but store nothing.
	 * Every thread reaches every barrier. */
m4_ifelse(FDT_LDS, 2, `m4_dnl
	const int tid = ty * BX + tx;
	const int xlast = (g.nx - 1) / VL * VL + XV * VL;   /* last vector start of the x halo */
	__shared__ vt tile[TR][XW];     /* tile[r][v]: row y0 - R + r, x x0 + (v - XV) * VL */
	for (int k = kb; k < ke; k++) {
		const fd_real *pl = in + (long long)k * g.slice;
		__syncthreads();                /* every thread is done with the previous plane */
#pragma unroll
		for (int i = 0; i < NC; i++) {
			const int u = tid + i * NTH;            /* tile vector u, row-major */
			if (u < TR * XW) {
				const int r = u / XW, v = u - r * XW;
				tile[r][v] = *(const vt *)(pl + (long long)min(y0 - R + r, ylast) * g.ld +
							   min(x0 + (v - XV) * VL, xlast));
			}
		}
		__syncthreads();
#pragma unroll
		for (int p = 0; p < YP; p++) {
			const int tr = R + ty * YP + p;         /* tile row of own row p */
			vt w[2 * XV + 1];                       /* x window, own vector at XV */
#pragma unroll
			for (int i = 0; i <= 2 * XV; i++)
				w[i] = tile[tr][tx + i];
FDT_POINT(`w', `tile[tr - r][tx + XV]', `tile[tr + r][tx + XV]')
		}
	}
', `m4_dnl
	const int xc = min(x, (g.nx - 1) / VL * VL);        /* clamped: loads stay allocated */
	vt xr[YP][2 * XV + 1];          /* x window of each own row, own vector at XV */
m4_ifelse(FDT_LDS, 1, `m4_dnl
	__shared__ vt tile[TH + 2 * R][BX];     /* own x, rows y0 - R .. y0 + TH + R - 1 */
', `m4_dnl
	vt yc[YP + 2 * R];              /* own x, rows yt - R .. yt + YP + R - 1 */
')m4_dnl
	for (int k = kb; k < ke; k++) {
		const fd_real *pl = in + (long long)k * g.slice + xc;
#pragma unroll
		for (int p = 0; p < YP; p++) {
			const fd_real *q = pl + (long long)min(yt + p, ylast) * g.ld;
#pragma unroll
			for (int i = 0; i <= 2 * XV; i++)
				xr[p][i] = *(const vt *)(q + (i - XV) * VL);
		}
m4_ifelse(FDT_LDS, 1, `m4_dnl
		__syncthreads();                /* every thread is done with the previous plane */
#pragma unroll
		for (int p = 0; p < YP; p++)
			tile[R + ty * YP + p][tx] = xr[p][XV];
#pragma unroll
		for (int i = 0; i < NH; i++) {
			/* y halo row h: h < R above the block (tile row h), else below it */
			const int h = ty + i * BY, tr = h < R ? h : TH + h;
			if (h < 2 * R)
				tile[tr][tx] = *(const vt *)(pl + (long long)min(y0 - R + tr, ylast) * g.ld);
		}
		__syncthreads();
#pragma unroll
		for (int p = 0; p < YP; p++) {
FDT_POINT(`xr[p]', `tile[R + ty * YP + p - r][tx]', `tile[R + ty * YP + p + r][tx]')
		}
', `m4_dnl
#pragma unroll
		for (int i = 0; i < R; i++) {
			yc[i] = *(const vt *)(pl + (long long)min(yt - R + i, ylast) * g.ld);
			yc[YP + R + i] = *(const vt *)(pl + (long long)min(yt + YP + i, ylast) * g.ld);
		}
#pragma unroll
		for (int p = 0; p < YP; p++)
			yc[R + p] = xr[p][XV];
#pragma unroll
		for (int p = 0; p < YP; p++) {
FDT_POINT(`xr[p]', `yc[R + p - r]', `yc[R + p + r]')
		}
')m4_dnl
	}
')m4_dnl
}
