m4_dnl check.m4: the output check of tn_field.c, run on the GPU next to the data.
m4_dnl One thread per element of the whole output allocation, launched as a grid of
m4_dnl (ceil(ld / BS), rows per plane, planes) blocks of BS threads, so that no thread
m4_dnl divides 64-bit indices: an interior point
m4_dnl must lie within its error bound of the CPU reference (computed on the CPU,
m4_dnl uploaded once), every other element must still hold the poison bits.
m4_dnl Parameters: FDT_BS (threads per block), FDT_DBL (1: the output is fp64).
m4_dnl Kernel ABI: (const fd_real *out, const double *ref, const float *mag,
m4_dnl const fd_real *base, const fd_real *halo, fd_chk geometry, unsigned long long *res).
m4_dnl base is NULL, or for an accumulating kernel the output before it ran (same
m4_dnl layout as out): then an interior point must hold base + ref within the bound
m4_dnl of terms + 1 and mag + |base|. halo is NULL, or what every element outside
m4_dnl the interior must still hold bit for bit (else the poison bits, all ones).
m4_dnl The bound uses u = 2^-24 (fp32) or 2^-52 (fp64), as tn_field.c. res[0] counts bad points, res[1] is
m4_dnl the smallest bad index (start it at ~0), res[2] and res[3] hold the largest
m4_dnl |out - ref| and the largest bound as float bits (start them at 0).
m4_include(`lib.m4')m4_dnl
FDT_REQUIRE(`FDT_BS >= 2 && FDT_BS <= 1024 && (FDT_BS & (FDT_BS - 1)) == 0', `bs must be a power of two 2..1024')m4_dnl
FDT_REQUIRE(`FDT_DBL == 0 || FDT_DBL == 1', `dbl must be 0 or 1')m4_dnl
FDT_BANNER(`check.m4')
`
typedef 'FDT_REAL` fd_real;
typedef 'm4_ifelse(FDT_DBL, 1, `unsigned long long', `unsigned')` fd_bits;    /* the bits of one fd_real */

struct fd_chk { long long total, slice; int ld, xoff, r, nx, ny, nz, terms; };

extern "C" __global__ void __launch_bounds__('FDT_BS`)
'FDT_KERNEL`(const fd_real *__restrict__ out, const double *__restrict__ ref,
	   const float *__restrict__ mag, const fd_real *__restrict__ base,
	   const fd_real *__restrict__ halo, fd_chk q, unsigned long long *res)
{
	__shared__ unsigned se['FDT_BS`], sb['FDT_BS`];   /* error and bound bits, reduced per block */
	const int ia = blockIdx.x * 'FDT_BS` + threadIdx.x;
	se[threadIdx.x] = sb[threadIdx.x] = 0;
	if (ia < q.ld) {
	const long long a = (long long)blockIdx.z * q.slice + (long long)blockIdx.y * q.ld + ia;
	const int k = (int)blockIdx.z - q.r, j = (int)blockIdx.y - q.r, i = ia - q.xoff;
	const fd_real v = out[a];
	bool bad;
	if (i >= 0 && i < q.nx && j >= 0 && j < q.ny && k >= 0 && k < q.nz) {
		const long long c = i + (long long)q.nx * (j + (long long)q.ny * k);
		/* the bound of tn_field.c: 2 (terms + 1) u mag + 1e-30 */
		const double o = base ? (double)base[a] : 0.0;
		const float m = base ? mag[c] + fabsf((float)base[a]) : mag[c];
		const double e = fabs((double)v - ref[c] - o);
		const double b = 2.0 * (q.terms + 1 + (base != 0)) * 'm4_ifelse(FDT_DBL, 1, `0x1.0p-52', `0x1.0p-24')` * m + 1e-30;
		bad = !(e <= b);
		const float ef = (float)e, bf = (float)b;
		/* nonnegative floats order as their bits; a NaN error counts as infinite */
		se[threadIdx.x] = isnan(ef) ? 0x7f800000u : __float_as_uint(ef);
		if (!bad)
			sb[threadIdx.x] = __float_as_uint(bf);
	} else {
		const fd_real h = halo ? halo[a] : v;
		bad = *(const fd_bits *)&v != (halo ? *(const fd_bits *)&h : ~(fd_bits)0);
	}
	if (bad) {
		atomicAdd(&res[0], 1ULL);
		atomicMin(&res[1], (unsigned long long)a);
	}
	}
	__syncthreads();
	for (int h = 'FDT_BS` / 2; h > 0; h /= 2) {
		if ((int)threadIdx.x < h) {
			se[threadIdx.x] = max(se[threadIdx.x], se[threadIdx.x + h]);
			sb[threadIdx.x] = max(sb[threadIdx.x], sb[threadIdx.x + h]);
		}
		__syncthreads();
	}
	if (threadIdx.x == 0) {         /* one atomic per block, not per point */
		atomicMax((unsigned *)&res[2], se[0]);
		atomicMax((unsigned *)&res[3], sb[0]);
	}
}
'
