m4_dnl bugs.m4: a test-only family (FDTUNE_TEST_BUGS=1) for the fault and hang
m4_dnl handling of a sweep: a plain x stencil, one thread per output, that with
m4_dnl FDT_BUG = 1 also writes far outside any allocation (an illegal address)
m4_dnl and with FDT_BUG = 2 never returns.
m4_dnl Parameters (m4 -D): FDT_R FDT_BX FDT_BUG FDT_KERNEL FDT_PARAMS. Kernel ABI:
m4_dnl (fd_real *out, const fd_real *in, fd_grid, fd_coef) as in xyz.m4.
m4_dnl Launch: block (BX), grid (ceil(nx/BX), ny, nz).
m4_include(`lib.m4')m4_dnl
FDT_BANNER(`bugs.m4')
m4_include(`prelude.m4')m4_dnl
`
extern "C" __global__ void __launch_bounds__('FDT_BX`)
'FDT_KERNEL`(fd_real *__restrict__ out, const fd_real *__restrict__ in, fd_grid g, fd_coef c)
{
	const int i = blockIdx.x * 'FDT_BX` + threadIdx.x;
	const long long o = i + (long long)blockIdx.y * g.ld + (long long)blockIdx.z * g.slice;
	if (i >= g.nx)
		return;
	fd_real s = c.c0 * in[o];
#pragma unroll
	for (int k = 1; k <= 'FDT_R`; k++)
		s = fd_fma(c.x[k], in[o - k] + in[o + k], s);
	out[o] = s;'m4_ifelse(FDT_BUG, 1, `
	out[o + (1LL << 40)] = s;          /* deliberate: an illegal address */', FDT_BUG, 2, `
	/* deliberate: spins as long as the input equals itself (never a NaN here) */
	while (*(volatile const fd_real *)&in[o] == *(volatile const fd_real *)&in[o])
		;')`
}
'
