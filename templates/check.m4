m4_dnl check.m4: the output check of tn_field.c, run on the GPU next to the data.
m4_dnl One thread per element of the whole output allocation, launched as a grid of
m4_dnl (ceil(ld / BS), rows per plane, planes) blocks of BS threads, so that no thread
m4_dnl divides 64-bit indices: an interior point
m4_dnl must lie within its error bound of the CPU reference (computed on the CPU,
m4_dnl uploaded once), every other element must still hold the poison bits.
m4_dnl Parameters: FDT_BS (threads per block).
m4_dnl Kernel ABI: (const float *out, const double *ref, const float *mag,
m4_dnl const float *base, fd_chk geometry, unsigned long long *res). base is NULL,
m4_dnl or for an accumulating kernel the output before it ran (same layout as out):
m4_dnl then an interior point must hold base + ref within the bound of terms + 1
m4_dnl and mag + |base|. res[0] counts bad points, res[1] is
m4_dnl the smallest bad index (start it at ~0), res[2] and res[3] hold the largest
m4_dnl |out - ref| and the largest bound as float bits (start them at 0).
m4_include(`lib.m4')m4_dnl
FDT_REQUIRE(`FDT_BS >= 2 && FDT_BS <= 1024 && (FDT_BS & (FDT_BS - 1)) == 0', `bs must be a power of two 2..1024')m4_dnl
FDT_BANNER(`check.m4')
`
struct fd_chk { long long total, slice; int ld, xoff, r, nx, ny, nz, terms; };

extern "C" __global__ void __launch_bounds__('FDT_BS`)
'FDT_KERNEL`(const float *__restrict__ out, const double *__restrict__ ref,
	   const float *__restrict__ mag, const float *__restrict__ base, fd_chk q,
	   unsigned long long *res)
{
	__shared__ unsigned se['FDT_BS`], sb['FDT_BS`];   /* error and bound bits, reduced per block */
	const int ia = blockIdx.x * 'FDT_BS` + threadIdx.x;
	se[threadIdx.x] = sb[threadIdx.x] = 0;
	if (ia < q.ld) {
	const long long a = (long long)blockIdx.z * q.slice + (long long)blockIdx.y * q.ld + ia;
	const int k = (int)blockIdx.z - q.r, j = (int)blockIdx.y - q.r, i = ia - q.xoff;
	const float v = out[a];
	bool bad;
	if (i >= 0 && i < q.nx && j >= 0 && j < q.ny && k >= 0 && k < q.nz) {
		const long long c = i + (long long)q.nx * (j + (long long)q.ny * k);
		/* the bound of tn_err_bound: 2 (terms + 1) 2^-24 mag + 1e-30 */
		const double o = base ? (double)base[a] : 0.0;
		const float m = base ? mag[c] + fabsf(base[a]) : mag[c];
		const double e = fabs((double)v - ref[c] - o);
		const double b = 2.0 * (q.terms + 1 + (base != 0)) * 5.9604644775390625e-8 * m + 1e-30;
		bad = !(e <= b);
		const float ef = (float)e, bf = (float)b;
		/* nonnegative floats order as their bits; a NaN error counts as infinite */
		se[threadIdx.x] = isnan(ef) ? 0x7f800000u : __float_as_uint(ef);
		if (!bad)
			sb[threadIdx.x] = __float_as_uint(bf);
	} else {
		bad = __float_as_uint(v) != 0xffffffffu;
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
