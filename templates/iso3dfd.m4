m4_dnl iso3dfd.m4: one time step of the 3D acoustic isotropic wave equation (idea
m4_dnl from Intel iso3dfd): next = 2 prev - next + vel L(prev), L the Laplacian of
m4_dnl order 2R with weights scaled by 1/h^2 and the centre weight summed over the
m4_dnl three axes (c.c0). next and prev swap roles every step (the caller ping-pongs).
m4_dnl Each thread owns VEC elements in x in YPT rows and marches over NW planes in
m4_dnl z with a register queue per row of the 2R+1 planes k-R..k+R of its column: the
m4_dnl back R planes, the centre and the front R (one new plane loaded per step). The x
m4_dnl and y neighbours of plane k come from the queues of the own rows or from memory
m4_dnl through L1 (lds=0), or from an
m4_dnl LDS tile of the block plane whose interior the threads write from their
m4_dnl queues and whose x and y halos they load once per plane (lds=1); lds=2 below.
m4_dnl Parameters (m4 -D): FDT_R FDT_VEC FDT_BX FDT_BY FDT_YPT FDT_LDS FDT_NW FDT_PAD FDT_KU
m4_dnl FDT_ZU FDT_NT FDT_PF FDT_MB FDT_WR FDT_TMA FDT_DBL FDT_KERNEL FDT_PARAMS. wr, tma: lds 2 only (xyz.m4). pad: vectors added to each LDS
m4_dnl row against bank conflicts; ku: unroll the march 2R+1 times so that the queue
m4_dnl shifts by renaming; zu: unroll it zu times (the queue moves once every zu planes); nt: streaming stores of next; pf: load the memory streams
m4_dnl (queue fronts, next, vel) of plane k + 1 while computing plane k; mb: the second
m4_dnl argument of __launch_bounds__ (0: none), minimum resident blocks on NVIDIA.
m4_dnl Kernel ABI: (fd_real *next, const fd_real *prev, const fd_real *vel, fd_grid,
m4_dnl fd_coef); the three point at interior point (0,0,0) of fields of one layout
m4_dnl with R halo points on every side (prev is read there, next and vel only on the
m4_dnl interior); ld % VEC == 0, the interior origin 16-byte aligned, and a row may
m4_dnl be read up to ceil(nx / VEC) VEC + ceil(R / VEC) VEC elements (the padding).
m4_dnl Launch: block (BX, BY), grid (ceil(nx/(VEC*BX)), ceil(ny/(BY*YPT)), ceil(nz/NW)).
m4_dnl FDT_NW undefined (zu = 1 and ku = 0: nw is then a launch parameter, fam_iso3dfd.c):
m4_dnl a block takes its window from the launch, ceil(nz / z chunks), so that one build
m4_dnl serves every nw; defined (an unrolled march, which loses with a window unknown at
m4_dnl compile time: results/NOTES.md v35, v54), the window is that constant.
m4_include(`lib.m4')m4_dnl
m4_ifdef(`FDT_NW', `', `m4_define(`FDT_NW', 0)')m4_dnl
m4_dnl lds=2: the fused xyz kernel of xyz.m4 with lds 2 (the whole tile, halos included,
m4_dnl copied asynchronously into a ring of pf + 3 planes; z by a queue of 2R+1 partial
m4_dnl sums) and the wave-equation store (FDT_WAVE); its banner names xyz.m4.
m4_ifelse(FDT_LDS, 2, `m4_define(`FDT_WAVE', 1)m4_define(`FDT_ZD', 0)m4_include(`xyz.m4')m4_m4exit(0)')m4_dnl
m4_dnl FDT_XV: vectors of x halo on each side of a thread.
m4_define(`FDT_XV', m4_eval((FDT_R + FDT_VEC - 1) / FDT_VEC))m4_dnl
m4_dnl FDT_X(f): the prev element at x offset f (-R..VEC-1+R) of the thread, plane k, from window w.
m4_define(`FDT_X', `w[m4_eval(($1 + FDT_XV * FDT_VEC) / FDT_VEC)]`'FDT_COMP(m4_eval(($1 + FDT_XV * FDT_VEC) % FDT_VEC))')m4_dnl
m4_dnl FDT_XTERMS: add the x terms of every lane to the Laplacian lap, unrolled by m4.
m4_define(`FDT_XTERMS', `FDT_FOR(`FDT_l', 0, m4_eval(FDT_VEC - 1), `FDT_FOR(`FDT_k', 1, FDT_R, `
		lap`'FDT_COMP(FDT_l) = fd_fma(c.x[FDT_k], FDT_X(FDT_l - FDT_k) + FDT_X(FDT_l + FDT_k), lap`'FDT_COMP(FDT_l));')')')m4_dnl
m4_dnl FDT_STORE(ptr, value): the vector store, streaming when FDT_NT.
m4_define(`FDT_STORE', `m4_ifelse(FDT_NT, 1, `fd_store_nt(($1), $2)', `*($1) = $2')')m4_dnl
FDT_BANNER(`iso3dfd.m4')
m4_include(`prelude.m4')m4_dnl
`
enum { R = 'FDT_R`, VL = 'FDT_VEC`, BX = 'FDT_BX`, BY = 'FDT_BY`, YP = 'FDT_YPT`, TH = BY * YP,
       NW = 'FDT_NW`, XV = 'FDT_XV`,
       TR = TH + 2 * R,                 /* tile rows: the block and its y halo */
       XW = BX + 2 * XV,                /* tile row in vectors: the block and its x halo */
       PAD = 'FDT_PAD`, D = 2 * R + 1 };     /* D: queue planes */
typedef 'FDT_VTYPE` vt;

/* Thread (tx, ty) of block (bx, by, bz) updates the VL elements at x = (bx BX
 * + tx) VL in the YP rows from yt = by TH + ty YP, planes kb .. ke - 1, kb =
 * bz W, ke = min(kb + W, nz), W = NW, or with NW 0 ceil(nz / gridDim.z).
 * Rows and columns past nx or ny are loaded (clamped into the allocation:
 * the halo their neighbours need) but not stored. */
extern "C" __global__ void __launch_bounds__(BX * BY'm4_ifelse(FDT_MB, 0, `', `, 'FDT_MB)`)
'FDT_KERNEL`(fd_real *__restrict__ next, const fd_real *__restrict__ prev,
	   const fd_real *__restrict__ vel, fd_grid g, fd_coef c)
{
	const int tx = threadIdx.x, ty = threadIdx.y;
	const int x0 = blockIdx.x * BX * VL, y0 = blockIdx.y * TH;
	const int x = x0 + tx * VL, yt = y0 + ty * YP;
	const int xlast = (g.nx - 1) / VL * VL + XV * VL;   /* last vector start of the x halo */
	const int xc = min(x, xlast);
	const int nwr = NW ? NW : (g.nz + (int)gridDim.z - 1) / (int)gridDim.z;  /* 0: from the launch */
	const int kb = blockIdx.z * nwr, ke = min(kb + nwr, g.nz);
	const long long st = g.slice;'m4_ifelse(FDT_LDS, 0, `
	if (x >= g.nx || yt >= g.ny)
		return;                 /* no barrier below */', `
	__shared__ vt tile[TR][XW + PAD];       /* tile[r][v]: row y0 - R + r, x x0 + (v - XV) VL */')`
	long long col[YP];          /* own rows, clamped */
	vt q[YP][D];                /* q[p][j]: plane k - R + j of row p */
#pragma unroll
	for (int p = 0; p < YP; p++) {
		col[p] = (long long)min(yt + p, g.ny + R - 1) * g.ld + xc;
#pragma unroll
		for (int j = 0; j < 2 * R; j++)
			q[p][j] = *(const vt *)(prev + col[p] + (long long)(kb - R + j) * st);
	}'m4_ifelse(FDT_PF, 1, `
	vt fq[YP], fn[YP], fv[YP];  /* plane k + 1: front of the queues, next and vel */
#pragma unroll
	for (int p = 0; p < YP; p++) {
		const long long o = col[p] + (long long)kb * st;
		fq[p] = *(const vt *)(prev + o + R * st);
		fn[p] = *(const vt *)(next + o);
		fv[p] = *(const vt *)(vel + o);
	}')`
'm4_ifelse(FDT_KU, 1, `#pragma unroll 'm4_eval(2 * FDT_R + 1)`
', FDT_ZU, 1, `', `#pragma unroll 'FDT_ZU`
')`	for (int k = kb; k < ke; k++) {
		const fd_real *pl = prev + (long long)k * st;
		vt nv[YP], vv[YP];          /* next and vel of plane k */'m4_ifelse(FDT_PF, 1, `
#pragma unroll
		for (int p = 0; p < YP; p++) {
			q[p][2 * R] = fq[p];
			nv[p] = fn[p];
			vv[p] = fv[p];
			/* issue the loads of plane k + 1 (the last plane loads itself again) */
			const long long o = col[p] + (long long)min(k + 1, ke - 1) * st;
			fq[p] = *(const vt *)(prev + o + R * st);
			fn[p] = *(const vt *)(next + o);
			fv[p] = *(const vt *)(vel + o);
		}', `
#pragma unroll
		for (int p = 0; p < YP; p++) {      /* plane k + R: the front of the queues */
			const long long o = col[p] + (long long)k * st;
			q[p][2 * R] = *(const vt *)(pl + R * st + col[p]);
			nv[p] = *(const vt *)(next + o);
			vv[p] = *(const vt *)(vel + o);
		}')`'m4_ifelse(FDT_LDS, 1, `
		__syncthreads();            /* every thread is done with the previous plane */
#pragma unroll
		for (int p = 0; p < YP; p++)
			tile[R + ty * YP + p][XV + tx] = q[p][R];
		/* the halos: 2R rows of BX vectors, then TH rows of 2 XV vectors */
		for (int u = ty * BX + tx; u < 2 * R * BX + 2 * XV * TH; u += BX * BY) {
			int r, v;
			if (u < 2 * R * BX) {
				r = u / BX;
				v = XV + u % BX;
				r = r < R ? r : TH + r;
			} else {
				const int h = u - 2 * R * BX;
				r = R + h / (2 * XV);
				v = h % (2 * XV);
				v = v < XV ? v : BX + v;
			}
			tile[r][v] = *(const vt *)(pl + (long long)min(y0 - R + r, g.ny + R - 1) * g.ld +
						   min(x0 + (v - XV) * VL, xlast));
		}
		__syncthreads();')`
#pragma unroll
		for (int p = 0; p < YP; p++) {
			const long long o = col[p] + (long long)k * st;
			vt w[2 * XV + 1];           /* x window of row p, centre at XV */
#pragma unroll
			for (int i = 0; i <= 2 * XV; i++)
				w[i] = 'm4_ifelse(FDT_LDS, 1, `tile[R + ty * YP + p][tx + i]',
					`i == XV ? q[p][R] : *(const vt *)(pl + col[p] + (i - XV) * VL)')`;
			vt lap = fd_mul(c.c0, q[p][R]);'FDT_XTERMS`
#pragma unroll
			for (int r = 1; r <= R; r++) {
				lap = fd_fma(c.z[r], fd_add(q[p][R - r], q[p][R + r]), lap);
				lap = fd_fma(c.y[r], 'm4_ifelse(FDT_LDS, 1,
	`fd_add(tile[R + ty * YP + p - r][XV + tx], tile[R + ty * YP + p + r][XV + tx])',
	`fd_add(p - r >= 0 ? q[p - r][R] : *(const vt *)(pl + (long long)(yt + p - r) * g.ld + xc),
					       p + r < YP ? q[p + r][R] :
					       *(const vt *)(pl + (long long)min(yt + p + r, g.ny + R - 1) * g.ld + xc))')`, lap);
			}
			/* next = 2 prev - next + vel lap */
			const vt u = fd_fmav(vv[p], lap, fd_sub(fd_add(q[p][R], q[p][R]), nv[p]));
			if (x < g.nx && yt + p < g.ny) {
				if (x + VL <= g.nx) {
					'FDT_STORE(`(vt *)(next + o)', `u')`;
				}'m4_ifelse(FDT_VEC, 1, `', ` else {         /* the x tail: lanes below nx only */FDT_FOR(`FDT_l', 0, m4_eval(FDT_VEC - 2), `
					if (FDT_l < g.nx - x)
						next[o + FDT_l] = u`'FDT_COMP(FDT_l);')
				}')`
			}
		}
		/* after every row: rows read the centres of the others (lds=0) */
#pragma unroll
		for (int p = 0; p < YP; p++)
#pragma unroll
			for (int j = 0; j < 2 * R; j++)
				q[p][j] = q[p][j + 1];
	}
}
'
