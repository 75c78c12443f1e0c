m4_dnl ym.m4: the y second derivative alone, out = c0 u + sum_k y[k] (u(y-k) + u(y+k)),
m4_dnl central differences of order 2R along the row stride g.ld, by marching (idea
m4_dnl from Micikevicius, derivative discretization on GPUs: stencils along a slow
m4_dnl dimension): each thread owns a pencil along y, VEC elements wide at one (x, z),
m4_dnl and marches over NM rows with a queue of 2R+1 rows in registers, loading one
m4_dnl new row per output. The march loop is unrolled UN steps by hand: step s of
m4_dnl an iteration reads the queue rotated by s (renaming, no moves), and the
m4_dnl iteration ends with one rotation by UN mod (2R+1) in register moves, none when
m4_dnl UN is a multiple of 2R+1 (un=0 asks for UN = 2R+1). The rows left over (fewer
m4_dnl than UN) march one at a time, the queue shifting by moves.
m4_dnl Parameters (m4 -D): FDT_R FDT_VEC FDT_BX FDT_BZ FDT_NM FDT_UN FDT_ACC FDT_KERNEL
m4_dnl FDT_PARAMS. Kernel ABI: (fd_real *out, const fd_real *in, fd_grid, fd_coef); in and
m4_dnl out point at interior point (0,0,0) of fields of the same layout, with R halo
m4_dnl points on every side; ld % VEC == 0 and the interior origin is 16-byte aligned,
m4_dnl and a row may be read up to its last vector that starts below nx (the padding).
m4_dnl With acc=1 the kernel adds its result to out instead of storing it.
m4_dnl Launch: block (BX, BZ), grid (ceil(nx/(VEC*BX)), ceil(nz/BZ), ceil(ny/NM)).
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
m4_dnl FDT_STEP(s): step s (0..UN-1) of an unrolled iteration at output row y + s: the
m4_dnl queue is rotated by s, queue slot (j + s) mod D holding row y + s - R + j.
m4_define(`FDT_STEP', `
		{                       /* step $1: output row y + $1 */
			q[(2 * R + $1) % D] = *(const vt *)p;   /* row y + $1 + R */
			p += st;
			vt v = fd_mul(c.c0, q[(R + $1) % D]);
#pragma unroll
			for (int r = 1; r <= R; r++)
				v = fd_fma(c.y[r], fd_add(q[(R + $1 - r + D) % D], q[(R + $1 + r) % D]), v);
			FDT_OUT(`o', `v', `			')
			o += st;
		}')m4_dnl
FDT_BANNER(`ym.m4')
m4_include(`prelude.m4')m4_dnl

enum { R = FDT_R, VL = FDT_VEC, BX = FDT_BX, BZ = FDT_BZ, NM = FDT_NM,
       UN = FDT_UNE,                    /* march steps per iteration */
       D = 2 * R + 1 };                 /* queue rows */
typedef FDT_VTYPE vt;

/* Thread (tx, tz) of block (bx, bz, by) computes the vectors of VL elements at
 * x = (bx BX + tx) VL, plane z = bz BZ + tz, rows yb .. ye - 1, yb = by NM,
 * ye = min(yb + NM, ny). Threads past nx or nz return: there is no barrier. */
extern "C" __global__ void __launch_bounds__(BX * BZ)
FDT_KERNEL`'(fd_real *__restrict__ out, const fd_real *__restrict__ in, fd_grid g, fd_coef c)
{
	const int x = (blockIdx.x * BX + threadIdx.x) * VL;     /* first x of this thread */
	const int z = blockIdx.y * BZ + threadIdx.y;
	const int yb = blockIdx.z * NM, ye = min(yb + NM, g.ny); /* output rows yb..ye-1 */
	if (x >= g.nx || z >= g.nz)
		return;
	const long long st = g.ld, col = (long long)z * g.slice + x;
	const fd_real *p = in + col + (long long)(yb - R) * st;   /* next row to load */
	fd_real *o = out + col + (long long)yb * st;              /* output row y */
	vt q[D];
#pragma unroll
	for (int j = 0; j < 2 * R; j++)         /* rows yb - R .. yb + R - 1 */
		q[j] = *(const vt *)(p + j * st);
	p += 2 * R * st;                        /* row yb + R */
	int y = yb;
	/* loads reach row ye - 1 + R <= ny + R - 1, the last halo row */
	for (; y + UN <= ye; y += UN) {FDT_FOR(`FDT_s', 0, m4_eval(FDT_UNE - 1), `FDT_STEP(FDT_s)')
m4_ifelse(m4_eval(FDT_UNE % (2 * FDT_R + 1)), 0, `		/* UN is a multiple of D: the queue is back in place */
', `		/* rotate by UN: slot j takes row y + UN - R + j, j < 2R */
		vt t[2 * R];
#pragma unroll
		for (int j = 0; j < 2 * R; j++)
			t[j] = q[(j + UN) % D];
#pragma unroll
		for (int j = 0; j < 2 * R; j++)
			q[j] = t[j];
')m4_dnl
	}
m4_ifelse(FDT_UNE, 1, `', `	for (; y < ye; y++) {                   /* the rows left over, one at a time */
		q[2 * R] = *(const vt *)p;      /* row y + R */
		p += st;
		vt v = fd_mul(c.c0, q[R]);
#pragma unroll
		for (int r = 1; r <= R; r++)
			v = fd_fma(c.y[r], fd_add(q[R - r], q[R + r]), v);
		FDT_OUT(`o', `v', `		')
		o += st;
#pragma unroll
		for (int j = 0; j < 2 * R; j++)
			q[j] = q[j + 1];
	}
')m4_dnl
}
