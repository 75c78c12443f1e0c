m4_dnl dmix0.m4: the lds=0 kernels of templates/dmix.m4, which includes this file
m4_dnl after its enum and its macros (R VL BX BY YP TH NW XV, vt, FDT_DX FDT_OUT
m4_dnl FDT_SUB FDT_ZERO FDT_ZLOOP FDT_ZOUT). No LDS and no barrier: every thread loads the neighbours
m4_dnl it needs straight from memory (the loads of the threads beside it put them
m4_dnl in L1) and returns when it owns no output. The fast-axis derivative comes
m4_dnl first, the slow one is taken of it in registers:
m4_dnl   xy: per plane, Dx at its rows and R rows each side, Dy of those
m4_dnl   xz: Dx of its rows pushed into a queue of 2R + 1 planes, Dz of the queue
m4_dnl   yz: a column of its rows and R rows each side, Dy of it pushed into a
m4_dnl       queue of 2R + 1 planes, Dz of the queue
m4_dnl pf=1 or 2 (xz, yz): the loads run one or two planes ahead of the compute;
m4_dnl zu (xz, yz): the march unrolled zu times.
m4_dnl Same ABI and launch as dmix.m4; a window reaches x offsets -XV VL ..
m4_dnl (XV + 1) VL - 1 of the thread, which the row padding of the ABI covers.
m4_dnl
m4_dnl FDT_WLOAD(buf, plane): buf[p][i] = the x window of own row p (rows past ny
m4_dnl clamped to ny - 1) at plane, vectors XV VL before to XV VL after x.
m4_define(`FDT_WLOAD', `
#pragma unroll
		for (int p = 0; p < YP; p++) {
			const fd_real *rw = col + (long long)($2) * g.slice + (long long)min(yt + p, g.ny - 1) * g.ld;
#pragma unroll
			for (int i = 0; i <= 2 * XV; i++)
				$1[p][i] = *(const vt *)(rw + (i - XV) * VL);
		}')m4_dnl
m4_dnl FDT_CLOAD(buf, plane): buf[j] = row yt - R + j (clamped to the last halo row
m4_dnl ny + R - 1) at plane, j = 0 .. YP + 2R - 1: the y column of the own rows.
m4_define(`FDT_CLOAD', `
#pragma unroll
		for (int j = 0; j < YP + 2 * R; j++)
			$1[j] = *(const vt *)(col + (long long)($2) * g.slice +
					      (long long)min(yt - R + j, g.ny + R - 1) * g.ld);')m4_dnl
m4_dnl FDT_NEXT(load, copy, buf, kk): the buffer buf of plane kk for this step,
m4_dnl loaded by load (FDT_WLOAD or FDT_CLOAD); with pf > 0 it comes through
m4_dnl copy (FDT_WCOPY or FDT_CCOPY) from buf1 (pf=1: then buf1 loads plane kk + 1;
m4_dnl pf=2: buf1 from buf2, which loads plane kk + 2), when one is left.
m4_define(`FDT_NEXT', `m4_ifelse(FDT_PF, 0, `$1(`$3', `$4')', `$2(`$3', `$3'1)m4_ifelse(FDT_PF, 2, `$2(`$3'1, `$3'2)')
		if ($4 + FDT_PF < ke + R) {$1(`$3'FDT_PF, `$4 + FDT_PF')
		}')')m4_dnl
m4_dnl FDT_AHEAD(decl, load, buf): with pf > 0, declare buf1 (and buf2) with decl,
m4_dnl the declarator after the name, and load planes kb - R (and kb - R + 1).
m4_define(`FDT_AHEAD', `m4_ifelse(FDT_PF, 0, `', `
	vt $3`'1$1`'m4_ifelse(FDT_PF, 2, `, $3`'2$1');  /* the planes ahead */$2(`$3'1, `kb - R')m4_ifelse(FDT_PF, 2, `$2(`$3'2, `kb - R + 1')')')')m4_dnl
m4_dnl FDT_WCOPY(dst, src): the x windows src become dst (register moves).
m4_define(`FDT_WCOPY', `
#pragma unroll
		for (int p = 0; p < YP; p++)
#pragma unroll
			for (int i = 0; i <= 2 * XV; i++)
				$1[p][i] = $2[p][i];')m4_dnl
m4_dnl FDT_CCOPY(dst, src): the y column src becomes dst (register moves).
m4_define(`FDT_CCOPY', `
#pragma unroll
		for (int j = 0; j < YP + 2 * R; j++)
			$1[j] = $2[j];')m4_dnl
/* lds=0. Thread (tx, ty) of block (bx, by, bz) owns the vector at
 * x = (bx BX + tx) VL of rows yt .. yt + YP - 1, yt = by TH + ty YP, and output
 * planes kb = bz NW .. ke - 1 = min(kb + NW, nz) - 1. */
extern "C" __global__ void __launch_bounds__(BX * BY)
FDT_KERNEL`'(fd_real *__restrict__ out, const fd_real *__restrict__ in, fd_grid g, fd_coef c)
{
	const int x = (blockIdx.x * BX + threadIdx.x) * VL;     /* first x of this thread */
	const int yt = blockIdx.y * TH + threadIdx.y * YP;      /* first row of this thread */
	const int kb = blockIdx.z * NW, ke = min(kb + NW, g.nz);  /* output planes kb..ke-1 */
	if (x >= g.nx || yt >= g.ny)
		return;                 /* no barrier below: a thread without outputs may leave */
	const fd_real *col = in + x;
m4_ifelse(FDT_AXES, `xy', `m4_dnl
	for (int k = kb; k < ke; k++) {
		vt d[YP + 2 * R];       /* d[j]: Dx at row yt - R + j (clamped to ny + R - 1) */
#pragma unroll
		for (int j = 0; j < YP + 2 * R; j++) {
			const fd_real *rw = col + (long long)k * g.slice +
					    (long long)min(yt - R + j, g.ny + R - 1) * g.ld;
			vt w[2 * XV + 1];
#pragma unroll
			for (int i = 0; i <= 2 * XV; i++)
				w[i] = *(const vt *)(rw + (i - XV) * VL);FDT_DX(`d[j]', `w')
		}
#pragma unroll
		for (int p = 0; p < YP; p++) {
			if (yt + p >= g.ny)
				break;
			vt s = FDT_ZERO;
#pragma unroll
			for (int r = 1; r <= R; r++)
				s = fd_fma(c.y[r], FDT_SUB(d[R + p + r], d[R + p - r]), s);
			fd_real *o = out + (long long)k * g.slice + (long long)(yt + p) * g.ld + x;
			FDT_OUT(`o', `x', `s', `			')
		}
	}
', FDT_AXES, `xz', `m4_dnl
	vt q[YP][2 * R + 1];    /* q[p][j]: Dx at row yt + p of plane kk - 2R + j */
	vt w[YP][2 * XV + 1];   /* the x windows of the own rows at plane kk */FDT_AHEAD(`[YP][2 * XV + 1]', `FDT_WLOAD', `w')
#pragma unroll
	for (int p = 0; p < YP; p++)
#pragma unroll
		for (int j = 0; j <= 2 * R; j++)
			q[p][j] = FDT_ZERO;
FDT_ZLOOP`'	for (int kk = kb - R; kk < ke + R; kk++) {FDT_NEXT(`FDT_WLOAD', `FDT_WCOPY', `w', `kk')
#pragma unroll
		for (int p = 0; p < YP; p++) {
#pragma unroll
			for (int j = 0; j < 2 * R; j++)
				q[p][j] = q[p][j + 1];FDT_DX(`q[p][2 * R]', `w[p]')
		}FDT_ZOUT(`k < kb')
	}
', `m4_dnl
	vt q[YP][2 * R + 1];    /* q[p][j]: Dy at row yt + p of plane kk - 2R + j */
	vt u[YP + 2 * R];       /* the y column of the own rows at plane kk */FDT_AHEAD(`[YP + 2 * R]', `FDT_CLOAD', `u')
#pragma unroll
	for (int p = 0; p < YP; p++)
#pragma unroll
		for (int j = 0; j <= 2 * R; j++)
			q[p][j] = FDT_ZERO;
FDT_ZLOOP`'	for (int kk = kb - R; kk < ke + R; kk++) {FDT_NEXT(`FDT_CLOAD', `FDT_CCOPY', `u', `kk')
#pragma unroll
		for (int p = 0; p < YP; p++) {
#pragma unroll
			for (int j = 0; j < 2 * R; j++)
				q[p][j] = q[p][j + 1];
			q[p][2 * R] = FDT_ZERO;
#pragma unroll
			for (int r = 1; r <= R; r++)
				q[p][2 * R] = fd_fma(c.y[r], FDT_SUB(u[R + p + r], u[R + p - r]), q[p][2 * R]);
		}FDT_ZOUT(`k < kb')
	}
')m4_dnl
}
