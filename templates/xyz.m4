m4_dnl xyz.m4: the fused single-pass xyz stencil, out = (Dxx + Dyy + Dzz) in,
m4_dnl central differences of order 2R. Idea from AMD's fused LDS/window kernel,
m4_dnl generalized: any R in 1..8, any BX x BY, YP rows per thread, y through LDS
m4_dnl or registers, any window nw >= 1, and a z queue that scatters each plane
m4_dnl forward into 2R+1 accumulators instead of keeping input planes.
m4_dnl Parameters (m4 -D): FDT_R FDT_VEC FDT_BX FDT_BY FDT_YPT FDT_LDS FDT_NW FDT_NT
m4_dnl FDT_KERNEL FDT_PARAMS. Kernel ABI: (float *out, const float *in, fd_grid, fd_coef),
m4_dnl in/out point at interior point (0,0,0), with R halo points on every side;
m4_dnl ld % VL == 0 and the interior origin is 16-byte aligned.
m4_dnl Launch: block (BX, BY), grid (ceil(nx/(VL*BX)), ceil(ny/(BY*YP)), ceil(nz/NW)).
m4_include(`lib.m4')m4_dnl
FDT_REQUIRE(`FDT_R >= 1 && FDT_R <= 8', `radius FDT_R outside 1..8')m4_dnl
FDT_REQUIRE(`FDT_VEC == 1 || FDT_VEC == 2 || FDT_VEC == 4', `vec FDT_VEC must be 1 or 2 or 4')m4_dnl
FDT_REQUIRE(`FDT_BX >= 1 && FDT_BY >= 1 && FDT_YPT >= 1 && FDT_NW >= 1', `bx and by and ypt and nw must be positive')m4_dnl
m4_dnl FDT_XV: vectors of x halo on each side of a thread.
m4_define(`FDT_XV', m4_eval((FDT_R + FDT_VEC - 1) / FDT_VEC))m4_dnl
m4_dnl FDT_X(row, f): the input float at x offset f (-R..VL-1+R) of the thread, from its x window.
m4_define(`FDT_X', `xr[$1][m4_eval(($2 + FDT_XV * FDT_VEC) / FDT_VEC)]`'FDT_COMP(m4_eval(($2 + FDT_XV * FDT_VEC) % FDT_VEC))')m4_dnl
m4_dnl FDT_XTERMS(row): add the x-derivative off-centre terms of that row to s, lane by lane.
m4_define(`FDT_XTERMS', `FDT_FOR(`FDT_l', 0, m4_eval(FDT_VEC - 1), `FDT_FOR(`FDT_k', 1, FDT_R, `
				s`'FDT_COMP(FDT_l) = fmaf(c.x[FDT_k], FDT_X($1, FDT_l - FDT_k) + FDT_X($1, FDT_l + FDT_k), s`'FDT_COMP(FDT_l));')')')m4_dnl
m4_dnl FDT_STORE(ptr, value): the vector store, nontemporal when FDT_NT.
m4_define(`FDT_STORE', `m4_ifelse(FDT_NT, 1, `fd_store_nt(($1), $2)', `*($1) = $2')')m4_dnl
FDT_BANNER(`xyz.m4')
m4_include(`prelude.m4')m4_dnl
`
enum { R = 'FDT_R`, VL = 'FDT_VEC`, BX = 'FDT_BX`, BY = 'FDT_BY`, YP = 'FDT_YPT`, TH = BY * YP,
       NW = 'FDT_NW`, XV = 'FDT_XV` };
typedef 'FDT_VTYPE` vt;

extern "C" __global__ void __launch_bounds__(BX * BY)
'FDT_KERNEL`(float *__restrict__ out, const float *__restrict__ in, fd_grid g, fd_coef c)
{
	const int tx = threadIdx.x, ty = threadIdx.y;
	const int x = (blockIdx.x * BX + tx) * VL;          /* first x of this thread */
	const int xc = min(x, (g.nx - 1) / VL * VL);        /* clamped: loads stay allocated */
	const int y0 = blockIdx.y * TH;                     /* first row of the block */
	const int yt = y0 + ty * YP;                        /* first row of this thread */
	const int kb = blockIdx.z * NW, ke = min(kb + NW, g.nz);
	const float *col = in + xc;
	vt acc[YP][2 * R + 1];      /* acc[p][j]: output plane k - R + j of row p */
	vt xr[YP][2 * XV + 1];      /* x window of each row, centre at XV */'
m4_ifelse(FDT_LDS, 1, `
	__shared__ vt tile[TH + 2 * R][BX];     /* rows y0 - R .. y0 + TH + R - 1 */', `
	vt yr[YP + 2 * R];          /* y column, rows yt - R .. yt + YP + R - 1 */')`

#pragma unroll
	for (int p = 0; p < YP; p++)
#pragma unroll
		for (int j = 0; j <= 2 * R; j++)
			acc[p][j] = fd_zero'FDT_VEC`();

	for (int k = kb - R; k < ke + R; k++) {
		const float *pl = col + (long long)k * g.slice;
		if (k < kb || k >= ke) {
			/* outside the window: the plane feeds only the z terms */
#pragma unroll
			for (int p = 0; p < YP; p++)
				xr[p][XV] = *(const vt *)(pl + (long long)min(yt + p, g.ny - 1) * g.ld);
		} else {
#pragma unroll
			for (int p = 0; p < YP; p++) {
				const float *q = pl + (long long)min(yt + p, g.ny - 1) * g.ld;
#pragma unroll
				for (int i = 0; i <= 2 * XV; i++)
					xr[p][i] = *(const vt *)(q + (i - XV) * VL);
			}'
m4_ifelse(FDT_LDS, 1, `
			__syncthreads();        /* the previous plane is no longer read */
#pragma unroll
			for (int p = 0; p < YP; p++)
				tile[R + ty * YP + p][tx] = xr[p][XV];
			for (int r = ty; r < 2 * R; r += BY) {
				const int tr = r < R ? r : TH + r;
				const int gy = min(y0 - R + tr, g.ny + R - 1);
				tile[tr][tx] = *(const vt *)(pl + (long long)gy * g.ld);
			}
			__syncthreads();', `
#pragma unroll
			for (int i = 0; i < R; i++) {
				yr[i] = *(const vt *)(pl + (long long)min(yt - R + i, g.ny + R - 1) * g.ld);
				yr[YP + R + i] = *(const vt *)(pl + (long long)min(yt + YP + i, g.ny + R - 1) * g.ld);
			}
#pragma unroll
			for (int p = 0; p < YP; p++)
				yr[R + p] = xr[p][XV];')`
#pragma unroll
			for (int p = 0; p < YP; p++) {
				vt s = fd_mul(c.c0, xr[p][XV]);'FDT_XTERMS(`p')`
#pragma unroll
				for (int r = 1; r <= R; r++)
					s = fd_fma(c.y[r], fd_add('m4_ifelse(FDT_LDS, 1,
	`tile[R + ty * YP + p - r][tx], tile[R + ty * YP + p + r][tx]',
	`yr[R + p - r], yr[R + p + r]')`), s);
				acc[p][R] = fd_add(acc[p][R], s);
			}
		}
#pragma unroll
		for (int p = 0; p < YP; p++) {
			const vt v = xr[p][XV];
#pragma unroll
			for (int r = 1; r <= R; r++) {
				acc[p][R - r] = fd_fma(c.z[r], v, acc[p][R - r]);
				acc[p][R + r] = fd_fma(c.z[r], v, acc[p][R + r]);
			}
		}
		if (k - R >= kb) {          /* output plane k - R is complete */
#pragma unroll
			for (int p = 0; p < YP; p++) {
				float *o = out + (long long)(k - R) * g.slice + (long long)(yt + p) * g.ld + x;
				if (yt + p >= g.ny || x >= g.nx)
					continue;
				if (x + VL <= g.nx) {
					'FDT_STORE(`(vt *)o', `acc[p][0]')`;
				} else {'FDT_FOR(`FDT_l', 0, m4_eval(FDT_VEC - 2), `
					if (FDT_l < g.nx - x)
						o[FDT_l] = acc[p][0]`'FDT_COMP(FDT_l);')`
				}
			}
		}
#pragma unroll
		for (int p = 0; p < YP; p++) {
#pragma unroll
			for (int j = 0; j < 2 * R; j++)
				acc[p][j] = acc[p][j + 1];
			acc[p][2 * R] = fd_zero'FDT_VEC`();
		}
	}
}
'
