m4_dnl z.m4: the z second derivative alone, out = c0 u + sum_k z[k] (u(k-q) + u(k+q)),
m4_dnl central differences of order 2R along the plane stride g.slice; the z pass
m4_dnl of a multi-pass strategy (acc=1 adds to the output of the passes before).
m4_dnl Two kernels: nw=1 is the baseline, one thread per output vector, all 2R+1
m4_dnl taps loaded from memory; nw>1 is the register sliding window (idea from
m4_dnl AMD seismic part 2): each thread owns an (x, y) column VEC elements wide and
m4_dnl marches along z over nw planes with a queue of 2R+1 planes in registers,
m4_dnl loading one new plane per output, optionally one plane ahead (pf=1).
m4_dnl Parameters (m4 -D): FDT_R FDT_VEC FDT_BX FDT_BY FDT_NW FDT_PF FDT_NT FDT_ACC
m4_dnl FDT_KERNEL FDT_PARAMS. Kernel ABI: (fd_real *out, const fd_real *in, fd_grid,
m4_dnl fd_coef); in and out point at interior point (0,0,0), with R halo points on
m4_dnl every side; ld % VEC == 0 and the interior origin is 16-byte aligned, and a
m4_dnl row may be read up to its last vector that starts below nx (the padding).
m4_dnl Launch: block (BX, BY), grid (ceil(nx/(VEC*BX)), ceil(ny/BY), ceil(nz/NW)).
m4_include(`lib.m4')m4_dnl
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
FDT_BANNER(`z.m4')
m4_include(`prelude.m4')m4_dnl

enum { R = FDT_R, VL = FDT_VEC, BX = FDT_BX, BY = FDT_BY, NW = FDT_NW };
typedef FDT_VTYPE vt;

m4_ifelse(FDT_NW, 1, `/* nw=1, the baseline: one thread per output vector, every tap from memory */
extern "C" __global__ void __launch_bounds__(BX * BY)
FDT_KERNEL`'(fd_real *__restrict__ out, const fd_real *__restrict__ in, fd_grid g, fd_coef c)
{
	const int x = (blockIdx.x * BX + threadIdx.x) * VL;     /* first x of this thread */
	const int y = blockIdx.y * BY + threadIdx.y;
	const int k = blockIdx.z;
	if (x >= g.nx || y >= g.ny)
		return;                 /* no barrier below: idle threads may leave */
	const long long s = g.slice, o = (long long)k * s + (long long)y * g.ld + x;
	const fd_real *p = in + o;
	vt v = fd_mul(c.c0, *(const vt *)p);
#pragma unroll
	for (int r = 1; r <= R; r++)
		v = fd_fma(c.z[r], fd_add(*(const vt *)(p - r * s), *(const vt *)(p + r * s)), v);
	FDT_OUT(`out + o', `x', `v', `	')
}
', `/* nw>1: register sliding window; q[j] holds input plane k - R + j of the column */
extern "C" __global__ void __launch_bounds__(BX * BY)
FDT_KERNEL`'(fd_real *__restrict__ out, const fd_real *__restrict__ in, fd_grid g, fd_coef c)
{
	const int x = (blockIdx.x * BX + threadIdx.x) * VL;     /* first x of this thread */
	const int y = blockIdx.y * BY + threadIdx.y;
	const int kb = blockIdx.z * NW, ke = min(kb + NW, g.nz);  /* output planes kb..ke-1 */
	if (x >= g.nx || y >= g.ny)
		return;                 /* no barrier below: idle threads may leave */
	const long long s = g.slice, col = (long long)y * g.ld + x;
	const fd_real *p = in + col + (long long)(kb - R) * s;    /* next plane to load */
	fd_real *o = out + col + (long long)kb * s;
	vt q[2 * R + 1];
#pragma unroll
	for (int j = 0; j < 2 * R; j++)         /* planes kb - R .. kb + R - 1 */
		q[j] = *(const vt *)(p + j * s);
	p += 2 * R * s;                         /* plane kb + R */m4_ifelse(FDT_PF, 1, `
	vt nq = *(const vt *)p;                 /* the plane loaded ahead */')
	for (int k = kb; k < ke; k++) {
m4_ifelse(FDT_PF, 1, `		q[2 * R] = nq;                  /* plane k + R */
		if (k + 1 < ke)                 /* plane k + R + 1 <= nz + R - 1: allocated */
			nq = *(const vt *)(p + s);
', `		q[2 * R] = *(const vt *)p;      /* plane k + R */
')m4_dnl
		p += s;
		vt v = fd_mul(c.c0, q[R]);
#pragma unroll
		for (int r = 1; r <= R; r++)
			v = fd_fma(c.z[r], fd_add(q[R - r], q[R + r]), v);
		FDT_OUT(`o', `x', `v', `		')
		o += s;
#pragma unroll
		for (int j = 0; j < 2 * R; j++)
			q[j] = q[j + 1];
	}
}
')m4_dnl
