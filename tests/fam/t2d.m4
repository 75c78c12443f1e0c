m4_dnl t2d.m4: a family that exists only in the tests (t_compile's
m4_dnl family_in_a_test, docs/contributing.md's worked example): Dxx + Dyy,
m4_dnl one thread per output point, blocks of BX x BY threads. Parameters (m4
m4_dnl -D): FDT_R FDT_BX FDT_BY FDT_KERNEL FDT_PARAMS. Kernel ABI:
m4_dnl (fd_real *out, const fd_real *in, fd_grid, fd_coef) as in xyz.m4.
m4_dnl Launch: block (BX, BY), grid (ceil(nx/BX), ceil(ny/BY), nz).
m4_include(`lib.m4')m4_dnl
FDT_BANNER(`t2d.m4')
m4_include(`prelude.m4')m4_dnl
`
extern "C" __global__ void __launch_bounds__('m4_eval(FDT_BX * FDT_BY)`)
'FDT_KERNEL`(fd_real *__restrict__ out, const fd_real *__restrict__ in, fd_grid g, fd_coef c)
{
	const int i = blockIdx.x * 'FDT_BX` + threadIdx.x;
	const int j = blockIdx.y * 'FDT_BY` + threadIdx.y;
	const long long o = i + (long long)j * g.ld + (long long)blockIdx.z * g.slice;
	if (i >= g.nx || j >= g.ny)
		return;
	fd_real s = c.c0 * in[o];
#pragma unroll
	for (int k = 1; k <= 'FDT_R`; k++) {
		s = fd_fma(c.x[k], in[o - k] + in[o + k], s);
		s = fd_fma(c.y[k], in[o - k * g.ld] + in[o + k * g.ld], s);
	}
	out[o] = s;
}
'
