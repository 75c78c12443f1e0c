m4_dnl dmix2.m4: the lds=2 kernels of templates/dmix.m4 (xz and yz), which includes
m4_dnl this file after its macros (FDT_DX FDT_OUT FDT_SUB FDT_ZERO FDT_ZLOOP FDT_ZOUT)
m4_dnl and the enum of R VL BX BY YP TH NW XV. Every plane of the block tile (xz:
m4_dnl its rows, BX + 2 XV vectors wide; yz: its rows and R halo rows each side, BX
m4_dnl vectors wide) is copied from memory straight into a ring of PF + 3 tiles in
m4_dnl dynamic LDS, PF + 1 planes ahead of the plane being computed (FDT_ISSUE of
m4_dnl lib.m4: cp.async on NVIDIA), with one barrier a plane, as the lds=2 ring of
m4_dnl xyz.m4. No register holds an input plane: each thread takes the fast-axis
m4_dnl derivative of its rows from the tile into its z queue, and Dz of the queue,
m4_dnl as with lds=0. Every thread reaches every barrier: loads are clamped into
m4_dnl the allocated field, and only outputs inside the grid are stored. Launches
m4_dnl give NS TR XW vectors of dynamic LDS (tuner/fam/fam_dmix.c: dyn_lds).
enum { NS = FDT_PF + 3, AH = NS - 2,    /* ring stages, planes in flight ahead */
       RY = m4_ifelse(FDT_AXES, `yz', `R', 0), XH = m4_ifelse(FDT_AXES, `xz', `XV', 0),
       TR = TH + 2 * RY,                /* tile rows: the block rows and the y halo */
       XW = BX + 2 * XH,                /* tile row in vectors: the block and the x halo */
       NTH = BX * BY, NC = (TR * XW + NTH - 1) / NTH };

/* lds=2. Block (bx, by, bz): x from x0 = bx BX VL, rows y0 = by TH .. + TH - 1,
 * output planes kb = bz NW .. ke - 1 = min(kb + NW, nz) - 1; thread (tx, ty)
 * owns the vector at x = x0 + tx VL of rows yt .. yt + YP - 1, yt = y0 + ty YP. */
extern "C" __global__ void __launch_bounds__(BX * BY)
FDT_KERNEL`'(fd_real *__restrict__ out, const fd_real *__restrict__ in, fd_grid g, fd_coef c)
{
	const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * BX + tx;
	const int x0 = blockIdx.x * BX * VL, x = x0 + tx * VL;
	const int xlast = (g.nx - 1) / VL * VL + XV * VL;   /* last vector start of the x halo */
	const int y0 = blockIdx.y * TH, yt = y0 + ty * YP;
	const int kb = blockIdx.z * NW, ke = min(kb + NW, g.nz);
	extern __shared__ __align__(16) unsigned char fdt_dyn[];
	vt (*const ring)[TR][XW] = reinterpret_cast<vt (*)[TR][XW]>(fdt_dyn);
	int coff[NC];               /* source of copy i within a plane: tile unit tid + i NTH */
	const bool clast = tid + (NC - 1) * NTH < TR * XW;  /* the last copy exists */
#pragma unroll
	for (int i = 0; i < NC; i++) {
		const int u = min(tid + i * NTH, TR * XW - 1), r = u / XW, cx = u - r * XW;
		coff[i] = min(y0 - RY + r, g.ny + R - 1) * g.ld + min(x0 + (cx - XH) * VL, xlast);
	}
	vt q[YP][2 * R + 1];        /* q[p][j]: the derivative at row yt + p of plane kk - 2R + j */
#pragma unroll
	for (int p = 0; p < YP; p++)
#pragma unroll
		for (int j = 0; j <= 2 * R; j++)
			q[p][j] = FDT_ZERO;
	const fd_real *src = in + (long long)(kb - R) * g.slice;    /* next plane to copy */
	const long long step = g.slice;
#pragma unroll
	for (int i = 0; i < AH; i++)
		FDT_ISSUE(`kb - R + i < ke + R', `i')
	int sr = 0;                 /* stage of plane kk */
FDT_ZLOOP`'	for (int kk = kb - R; kk < ke + R; kk++) {
		/* the stage of plane kk - 2 is free: every thread passed the barrier of
		 * plane kk - 1, so none still reads plane kk - 2 */
		FDT_ISSUE(`kk + AH < ke + R', `sr + AH < NS ? sr + AH : sr + AH - NS')
		fd_wait<AH>();          /* plane kk has landed, for the copies of this thread */
		__syncthreads();        /* and for those of every thread */
		vt (*t)[XW] = ring[sr];
		sr = sr == NS - 1 ? 0 : sr + 1;
#pragma unroll
		for (int p = 0; p < YP; p++) {
#pragma unroll
			for (int j = 0; j < 2 * R; j++)
				q[p][j] = q[p][j + 1];m4_ifelse(FDT_AXES, `xz', `
			vt w[2 * XV + 1];       /* the x window of row yt + p */
#pragma unroll
			for (int i = 0; i <= 2 * XV; i++)
				w[i] = t[ty * YP + p][tx + i];FDT_DX(`q[p][2 * R]', `w')', `
			q[p][2 * R] = FDT_ZERO;
#pragma unroll
			for (int r = 1; r <= R; r++)
				q[p][2 * R] = fd_fma(c.y[r], FDT_SUB(t[R + ty * YP + p + r][tx],
								     t[R + ty * YP + p - r][tx]), q[p][2 * R]);')
		}FDT_ZOUT(`k < kb || x >= g.nx')
	}
	fd_wait<0>();               /* no copy may land after the block is gone */
}
