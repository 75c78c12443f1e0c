m4_dnl dmix.m4: single-pass mixed second derivatives of order 2R,
m4_dnl   out = sum_{p,q} ws[p] wt[q] (u(+p,+q) - u(+p,-q) - u(-p,+q) + u(-p,-q)),
m4_dnl taken as one first derivative of the other with the first-derivative
m4_dnl weights of fd_coef (a_k / h, fam_dmix.c): along x in c.x, y in c.y, z in c.z;
m4_dnl c0 is unused. Idea from Micikevicius, Derivative Discretization on GPUs
m4_dnl (single pass): the slow-axis derivative from registers into shared memory,
m4_dnl then the fast one from there; generalized to any R in 1..8, vectors, any
m4_dnl block and any tail. Included by dxy.m4, dxz.m4 and dyz.m4, which define
m4_dnl FDT_AXES (xy, xz or yz) and FDT_TMPL (their own name, for the banner):
m4_dnl   xy: per plane, each thread loads a register column of YPT + 2R rows at each
m4_dnl       of its tile columns and stores Dy into an LDS tile of the block rows
m4_dnl       and BX + 2 XV vectors (the x halo); Dx of that tile gives the output
m4_dnl   xz: each thread marches its row along z with a register queue of 2R + 1
m4_dnl       planes at each of its tile columns, stores Dz into an LDS tile of BY
m4_dnl       rows and BX + 2 XV vectors; Dx of that tile gives the output (YPT is 1)
m4_dnl   yz: the block marches along z; each input plane (block rows and R halo
m4_dnl       rows each side) goes through an LDS tile, each thread takes Dy of its
m4_dnl       rows from it into a register queue of 2R + 1 planes, Dz of the queue
m4_dnl       gives the output
m4_dnl With lds=0 no LDS and no barrier: each thread loads the neighbours it needs
m4_dnl from memory (its neighbours' loads put them in L1), takes the fast-axis
m4_dnl derivative first and the slow one from registers:
m4_dnl   xy: per plane, Dx at each of its rows and R rows each side, Dy of them
m4_dnl   xz: Dx of its rows into a register queue of 2R + 1 planes, Dz of it
m4_dnl   yz: a column of its rows and R rows each side, Dy into a register queue
m4_dnl       of 2R + 1 planes, Dz of it
m4_dnl and pf=1 or 2 (xz, yz) loads one or two planes ahead, zu unrolls the march
m4_dnl (dmix0.m4). With lds=2 (xz, yz) the same, but the planes are copied ahead
m4_dnl into a ring of pf + 3 tiles in dynamic LDS (dmix2.m4). nt=1: the output
m4_dnl vectors are stored nontemporally (streaming).
m4_dnl Every block walks NW output planes. Parameters (m4 -D): FDT_R FDT_VEC FDT_BX
m4_dnl FDT_BY FDT_YPT FDT_NW FDT_LDS FDT_PF FDT_ZU FDT_NT FDT_ACC FDT_KERNEL
m4_dnl FDT_PARAMS. Kernel ABI: (float *out,
m4_dnl const fd_real *in, fd_grid, fd_coef); in and out point at interior point (0,0,0)
m4_dnl of fields of the same layout, R halo points on every side, ld a multiple of
m4_dnl 32 elements, the interior origin 128-byte aligned, at least 12 elements of row
m4_dnl before x = 0 and ceil4(nx) + ceil4(R) elements of row from x = 0 (tn_field.c
m4_dnl gives 32 and more). Loads never leave rows -R..ny+R-1 and planes -R..nz+R-1;
m4_dnl outputs past nx, ny or nz are never written. acc=1 adds to the output.
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
m4_dnl FDT_STORE(ptr, value): the vector store, nontemporal (streaming) when FDT_NT.
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
m4_dnl FDT_XOUT(tr, row, k): from LDS tile row tr, the output at x of this thread in
m4_dnl row row of plane k: window of 2 XV + 1 tile vectors, Dx, stored when inside.
m4_dnl The body of a block at two tabs (it declares w and s).
m4_define(`FDT_XOUT', `
			vt w[2 * XV + 1], s;
#pragma unroll
			for (int i = 0; i <= 2 * XV; i++)
				w[i] = tile[$1][tx + i];FDT_DX(`s', `w')
			if (x < g.nx && ($2) < g.ny) {
				fd_real *o = out + (long long)($3) * g.slice + (long long)($2) * g.ld + x;
				FDT_OUT(`o', `x', `s', `				')
			}')m4_dnl
m4_dnl FDT_ZLOOP: with zu > 1 the march is unrolled zu times: the queue and the
m4_dnl planes ahead then move 2R + 1 - zu times (and pf times) per zu planes instead
m4_dnl of each plane; zu = 2R + 1 turns every move into a renaming.
m4_define(`FDT_ZLOOP', `m4_ifelse(FDT_ZU, 1, `', `#pragma unroll 'FDT_ZU`
')')m4_dnl
m4_dnl FDT_ZOUT(skip): the march step kk is done with output plane k = kk - R unless
m4_dnl skip (an expression in k); else, for each own row p below ny, Dz of queue
m4_dnl q[p] is stored at plane k (lds 0 and 2).
m4_define(`FDT_ZOUT', `
		const int k = kk - R;   /* the output plane whose queue is now full */
		if ($1)
			continue;
#pragma unroll
		for (int p = 0; p < YP; p++) {
			if (yt + p >= g.ny)
				break;
			vt s = FDT_ZERO;
#pragma unroll
			for (int r = 1; r <= R; r++)
				s = fd_fma(c.z[r], FDT_SUB(q[p][R + r], q[p][R - r]), s);
			fd_real *o = out + (long long)k * g.slice + (long long)(yt + p) * g.ld + x;
			FDT_OUT(`o', `x', `s', `			')
		}')m4_dnl
FDT_BANNER(FDT_TMPL` (dmix.m4)')
m4_include(`prelude.m4')m4_dnl

enum { R = FDT_R, VL = FDT_VEC, BX = FDT_BX, BY = FDT_BY, YP = FDT_YPT, TH = BY * YP,
       NW = FDT_NW, XV = FDT_XV`'m4_ifelse(FDT_LDS, 2, `', FDT_AXES, `yz', `,
       TR = TH + 2 * R,                /* tile rows: the block rows and R halo rows each side */
       NL = (TR + BY - 1) / BY         /* tile rows a thread loads */', `,
       W = BX + 2 * XV,                /* tile row in vectors: the block and its x halo */
       NCX = (W + BX - 1) / BX         /* tile columns of a thread: tx, tx + BX, ... below W */') };
typedef FDT_VTYPE vt;

m4_ifelse(FDT_LDS, 0, `m4_include(`dmix0.m4')', FDT_LDS, 2, `m4_include(`dmix2.m4')', FDT_AXES, `xy', `m4_dnl
/* Block (bx, by, bz): x from x0 = bx BX VL, rows y0 = by TH .. y0 + TH - 1, planes
 * bz NW .. min(bz NW + NW, nz) - 1. Thread (tx, ty) computes Dy at tile columns
 * tx + i BX (x = x0 + (tx + i BX - XV) VL) of rows y0 + ty YP .. + YP - 1, then
 * the output vector at x = x0 + tx VL of those rows. */
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
	const int xlast = (g.nx - 1) / VL * VL + XV * VL;   /* last vector start of the x halo */
	/* Rows past ylast and vectors past xlast only feed outputs past ny or nx:
	 * loads clamp to them, so they stay allocated, and every thread computes
	 * and reaches every barrier, whether it stores or not. */
	__shared__ vt tile[TH][W];      /* tile[r][v]: Dy at row y0 + r, x0 + (v - XV) VL */
	for (int k = kb; k < ke; k++) {
		const fd_real *pl = in + (long long)k * g.slice;
		vt d[NCX][YP];          /* Dy of own tile columns and rows */
#pragma unroll
		for (int i = 0; i < NCX; i++) {
			const int v = tx + i * BX;
			if (v < W) {
				const fd_real *col = pl + min(x0 + (v - XV) * VL, xlast);
				vt u[YP + 2 * R];       /* u[j]: row yt - R + j, clamped to ylast */
#pragma unroll
				for (int j = 0; j < YP + 2 * R; j++)
					u[j] = *(const vt *)(col + (long long)min(yt - R + j, ylast) * g.ld);
#pragma unroll
				for (int p = 0; p < YP; p++) {
					d[i][p] = FDT_ZERO;
#pragma unroll
					for (int r = 1; r <= R; r++)
						d[i][p] = fd_fma(c.y[r], FDT_SUB(u[R + p + r], u[R + p - r]), d[i][p]);
				}
			}
		}
		__syncthreads();        /* no thread reads the tile of the previous plane any more */
#pragma unroll
		for (int i = 0; i < NCX; i++) {
			const int v = tx + i * BX;
			if (v < W) {
#pragma unroll
				for (int p = 0; p < YP; p++)
					tile[ty * YP + p][v] = d[i][p];
			}
		}
		__syncthreads();        /* the Dy tile of plane k is complete */
#pragma unroll
		for (int p = 0; p < YP; p++) {FDT_XOUT(`ty * YP + p', `yt + p', `k')
		}
	}
}
', FDT_AXES, `xz', `m4_dnl
/* Block (bx, by, bz): x from x0 = bx BX VL, rows by BY .. by BY + BY - 1, planes
 * bz NW .. min(bz NW + NW, nz) - 1. Thread (tx, ty) marches row y = by BY + ty
 * along z with a queue of 2R + 1 planes at each of its tile columns tx + i BX
 * (x = x0 + (tx + i BX - XV) VL), and computes the output vector at
 * x = x0 + tx VL of its row. */
extern "C" __global__ void __launch_bounds__(BX * BY)
FDT_KERNEL`'(fd_real *__restrict__ out, const fd_real *__restrict__ in, fd_grid g, fd_coef c)
{
	const int tx = threadIdx.x, ty = threadIdx.y;
	const int x0 = blockIdx.x * BX * VL;                /* first x of the block */
	const int x = x0 + tx * VL;                         /* first x of this thread */
	const int y = blockIdx.y * BY + ty;                 /* row of this thread */
	const int kb = blockIdx.z * NW, ke = min(kb + NW, g.nz);  /* planes kb..ke-1 */
	const int xlast = (g.nx - 1) / VL * VL + XV * VL;   /* last vector start of the x halo */
	const long long sl = g.slice;   /* plane stride */
	/* Rows past ny load row ny - 1 and vectors past xlast load xlast: both
	 * only feed outputs that are not stored, and every thread computes and
	 * reaches every barrier. Planes kb - R .. ke + R - 1 are allocated. */
	const fd_real *row = in + (long long)min(y, g.ny - 1) * g.ld;
	__shared__ vt tile[BY][W];      /* tile[ty][v]: Dz at row of ty, x0 + (v - XV) VL */
	vt q[NCX][2 * R + 1];           /* q[i][j]: plane k - R + j at tile column i */
#pragma unroll
	for (int i = 0; i < NCX; i++) {
		const int v = tx + i * BX;
		if (v < W) {
			const fd_real *col = row + min(x0 + (v - XV) * VL, xlast) + (long long)(kb - R) * sl;
#pragma unroll
			for (int j = 0; j < 2 * R; j++)         /* planes kb - R .. kb + R - 1 */
				q[i][j] = *(const vt *)(col + j * sl);
		}
	}
	for (int k = kb; k < ke; k++) {
		vt d[NCX];              /* Dz of own tile columns */
#pragma unroll
		for (int i = 0; i < NCX; i++) {
			const int v = tx + i * BX;
			if (v < W) {
				q[i][2 * R] = *(const vt *)(row + min(x0 + (v - XV) * VL, xlast) +
							    (long long)(k + R) * sl);
				d[i] = FDT_ZERO;
#pragma unroll
				for (int r = 1; r <= R; r++)
					d[i] = fd_fma(c.z[r], FDT_SUB(q[i][R + r], q[i][R - r]), d[i]);
#pragma unroll
				for (int j = 0; j < 2 * R; j++)
					q[i][j] = q[i][j + 1];
			}
		}
		__syncthreads();        /* no thread reads the tile of the previous plane any more */
#pragma unroll
		for (int i = 0; i < NCX; i++) {
			const int v = tx + i * BX;
			if (v < W)
				tile[ty][v] = d[i];
		}
		__syncthreads();        /* the Dz tile of plane k is complete */
		{                       /* Dx of the tile: the output */FDT_XOUT(`ty', `y', `k')
		}
	}
}
', `m4_dnl
/* Block (bx, by, bz): x = (bx BX + tx) VL for thread tx, rows y0 = by TH ..
 * y0 + TH - 1, output planes kb = bz NW .. ke - 1 = min(kb + NW, nz) - 1. The
 * block walks input planes kb - R .. ke + R - 1; thread (tx, ty) takes Dy of its
 * rows yt .. yt + YP - 1, yt = y0 + ty YP, from the LDS tile of each plane into
 * its queue and, once the queue holds planes k - R .. k + R, Dz of it. */
extern "C" __global__ void __launch_bounds__(BX * BY)
FDT_KERNEL`'(fd_real *__restrict__ out, const fd_real *__restrict__ in, fd_grid g, fd_coef c)
{
	const int tx = threadIdx.x, ty = threadIdx.y;
	const int x = (blockIdx.x * BX + tx) * VL;          /* first x of this thread */
	const int y0 = blockIdx.y * TH;                     /* first row of the block */
	const int yt = y0 + ty * YP;                        /* first row of this thread */
	const int kb = blockIdx.z * NW, ke = min(kb + NW, g.nz);  /* output planes kb..ke-1 */
	const int ylast = g.ny + R - 1;                     /* last row of the y halo */
	/* Every thread loads and passes the barriers, its own outputs or not: x is
	 * clamped to the last vector start below nx, rows to the last halo row. */
	const fd_real *col = in + min(x, (g.nx - 1) / VL * VL);
	__shared__ vt tile[TR][BX];     /* tile[r][tx]: row y0 - R + r of the plane, x of tx */
	vt q[YP][2 * R + 1];            /* q[p][j]: Dy at row yt + p of plane kk - 2R + j */
#pragma unroll
	for (int p = 0; p < YP; p++)
#pragma unroll
		for (int j = 0; j <= 2 * R; j++)
			q[p][j] = FDT_ZERO;
	for (int kk = kb - R; kk < ke + R; kk++) {
		const fd_real *pl = col + (long long)kk * g.slice;
		vt h[NL];               /* tile rows ty, ty + BY, ... below TR: loaded before the barrier */
#pragma unroll
		for (int i = 0; i < NL; i++) {
			const int r = ty + i * BY;
			if (r < TR)
				h[i] = *(const vt *)(pl + (long long)min(y0 - R + r, ylast) * g.ld);
		}
		__syncthreads();        /* no thread reads the tile of the previous plane any more */
#pragma unroll
		for (int i = 0; i < NL; i++) {
			const int r = ty + i * BY;
			if (r < TR)
				tile[r][tx] = h[i];
		}
		__syncthreads();        /* the tile of plane kk is complete */
#pragma unroll
		for (int p = 0; p < YP; p++) {
			const int t = R + ty * YP + p;          /* tile row of row yt + p */
#pragma unroll
			for (int j = 0; j < 2 * R; j++)
				q[p][j] = q[p][j + 1];
			q[p][2 * R] = FDT_ZERO;
#pragma unroll
			for (int r = 1; r <= R; r++)
				q[p][2 * R] = fd_fma(c.y[r], FDT_SUB(tile[t + r][tx], tile[t - r][tx]), q[p][2 * R]);
		}
		const int k = kk - R;   /* the output plane whose queue is now full */
		if (k < kb || x >= g.nx)
			continue;
#pragma unroll
		for (int p = 0; p < YP; p++) {
			if (yt + p >= g.ny)
				break;
			vt s = FDT_ZERO;
#pragma unroll
			for (int r = 1; r <= R; r++)
				s = fd_fma(c.z[r], FDT_SUB(q[p][R + r], q[p][R - r]), s);
			fd_real *o = out + (long long)k * g.slice + (long long)(yt + p) * g.ld + x;
			FDT_OUT(`o', `x', `s', `			')
		}
	}
}
')m4_dnl
