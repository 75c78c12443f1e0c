m4_dnl zm.m4: the z second derivative alone, out = c0 u + sum_k z[k] (u(z-k) + u(z+k)),
m4_dnl central differences of order 2R along the plane stride g.slice, by marching (idea
m4_dnl from Micikevicius, derivative discretization on GPUs: stencils along a slow
m4_dnl dimension): each thread owns a pencil along z, VEC elements wide at one (x, y),
m4_dnl and marches over NM planes with a queue of 2R+1 planes in registers, loading one
m4_dnl new plane per output. The march loop is unrolled UN steps by hand: step s of
m4_dnl an iteration reads the queue rotated by s (renaming, no moves), and the
m4_dnl iteration ends with one rotation by UN mod (2R+1) in register moves, none when
m4_dnl UN is a multiple of 2R+1 (un=0 asks for UN = 2R+1). The planes left over (fewer
m4_dnl than UN) march one at a time, the queue shifting by moves.
m4_dnl Parameters (m4 -D): FDT_R FDT_VEC FDT_BX FDT_BY FDT_NM FDT_UN FDT_ACC FDT_KERNEL
m4_dnl FDT_PARAMS. Kernel ABI: (fd_real *out, const fd_real *in, fd_grid, fd_coef); in and
m4_dnl out point at interior point (0,0,0) of fields of the same layout, with R halo
m4_dnl points on every side; ld % VEC == 0 and the interior origin is 16-byte aligned,
m4_dnl and a row may be read up to its last vector that starts below nx (the padding).
m4_dnl With acc=1 the kernel adds its result to out instead of storing it.
m4_dnl Launch: block (BX, BY), grid (ceil(nx/(VEC*BX)), ceil(ny/BY), ceil(nz/NM)).
m4_include(`lib.m4')m4_dnl
m4_dnl FDT_UNE: the steps of one march iteration (un=0: the queue length 2R+1).
m4_define(`FDT_UNE', m4_ifelse(FDT_UN, 0, m4_eval(2 * FDT_R + 1), FDT_UN))m4_dnl
m4_dnl FDT_OUT(o, v, tab): write result vector v (a variable) at float pointer o, the
m4_dnl output of the first lane, whose x is x < nx; lanes at nx and beyond are not
m4_dnl written. With FDT_ACC the output is read and v added to it. tab: the indent.
m4_define(`FDT_OUT', `if (x + VL <= g.nx) {m4_ifelse(FDT_ACC, 1, `
$3	$2 = fd_add(*(const vt *)($1), $2);')
$3	*(vt *)($1) = $2;
$3}m4_ifelse(FDT_VEC, 1, `', ` else {         /* the x tail: lanes below nx only */FDT_FOR(`FDT_l', 0, m4_eval(FDT_VEC - 2), `
$3	if (FDT_l < g.nx - x)
$3		($1)[FDT_l] = m4_ifelse(FDT_ACC, 1, `($1)[FDT_l] + ')$2`'FDT_COMP(FDT_l);')
$3}')')m4_dnl
m4_dnl FDT_STEP(s): step s (0..UN-1) of an unrolled iteration at output plane k + s: the
m4_dnl queue is rotated by s, queue slot (j + s) mod D holding plane k + s - R + j.
m4_define(`FDT_STEP', `
		{                       /* step $1: output plane k + $1 */
			q[(2 * R + $1) % D] = *(const vt *)p;   /* plane k + $1 + R */
			p += st;
			vt v = fd_mul(c.c0, q[(R + $1) % D]);
#pragma unroll
			for (int r = 1; r <= R; r++)
				v = fd_fma(c.z[r], fd_add(q[(R + $1 - r + D) % D], q[(R + $1 + r) % D]), v);
			FDT_OUT(`o', `v', `			')
			o += st;
		}')m4_dnl
FDT_BANNER(`zm.m4')
m4_include(`prelude.m4')m4_dnl

enum { R = FDT_R, VL = FDT_VEC, BX = FDT_BX, BY = FDT_BY, NM = FDT_NM,
       UN = FDT_UNE,                    /* march steps per iteration */
       D = 2 * R + 1 };                 /* queue planes */
typedef FDT_VTYPE vt;

/* Thread (tx, ty) of block (bx, by, bz) computes the vectors of VL elements at
 * x = (bx BX + tx) VL, row y = by BY + ty, planes kb .. ke - 1, kb = bz NM,
 * ke = min(kb + NM, nz). Threads past nx or ny return: there is no barrier. */
extern "C" __global__ void __launch_bounds__(BX * BY)
FDT_KERNEL`'(fd_real *__restrict__ out, const fd_real *__restrict__ in, fd_grid g, fd_coef c)
{
	const int x = (blockIdx.x * BX + threadIdx.x) * VL;     /* first x of this thread */
	const int y = blockIdx.y * BY + threadIdx.y;
	const int kb = blockIdx.z * NM, ke = min(kb + NM, g.nz); /* output planes kb..ke-1 */
	if (x >= g.nx || y >= g.ny)
		return;
	const long long st = g.slice, col = (long long)y * g.ld + x;
	const fd_real *p = in + col + (long long)(kb - R) * st;   /* next plane to load */
	fd_real *o = out + col + (long long)kb * st;              /* output plane k */
	vt q[D];
#pragma unroll
	for (int j = 0; j < 2 * R; j++)         /* planes kb - R .. kb + R - 1 */
		q[j] = *(const vt *)(p + j * st);
	p += 2 * R * st;                        /* plane kb + R */
	int k = kb;
	/* loads reach plane ke - 1 + R <= nz + R - 1, the last halo plane */
	for (; k + UN <= ke; k += UN) {FDT_FOR(`FDT_s', 0, m4_eval(FDT_UNE - 1), `FDT_STEP(FDT_s)')
m4_ifelse(m4_eval(FDT_UNE % (2 * FDT_R + 1)), 0, `		/* UN is a multiple of D: the queue is back in place */
', `		/* rotate by UN: slot j takes plane k + UN - R + j, j < 2R */
		vt t[2 * R];
#pragma unroll
		for (int j = 0; j < 2 * R; j++)
			t[j] = q[(j + UN) % D];
#pragma unroll
		for (int j = 0; j < 2 * R; j++)
			q[j] = t[j];
')m4_dnl
	}
m4_ifelse(FDT_UNE, 1, `', `	for (; k < ke; k++) {                   /* the planes left over, one at a time */
		q[2 * R] = *(const vt *)p;      /* plane k + R */
		p += st;
		vt v = fd_mul(c.c0, q[R]);
#pragma unroll
		for (int r = 1; r <= R; r++)
			v = fd_fma(c.z[r], fd_add(q[R - r], q[R + r]), v);
		FDT_OUT(`o', `v', `		')
		o += st;
#pragma unroll
		for (int j = 0; j < 2 * R; j++)
			q[j] = q[j + 1];
	}
')m4_dnl
}
