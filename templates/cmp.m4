m4_dnl cmp.m4: online tuning's validation on the GPU (tuner/online/tn_online_run.c):
m4_dnl a candidate's output b against the program's own kernel's a, two fields of one
m4_dnl layout, next to the data. One thread per element of a span of planes, launched
m4_dnl as a grid of (ceil(ld / BS), rows per plane, planes) blocks of BS threads from
m4_dnl the span's first element, so that no thread divides 64-bit indices.
m4_dnl Mode 0 finds the largest |a| over the interior (res[2], float bits); mode 1
m4_dnl counts the bad elements: an interior point whose |b - a| is over tol x that
m4_dnl largest |a| (or NaN), an element outside the interior that is not as it was
m4_dnl (poisoned: every bit one; else a's bits, which the program's kernel left).
m4_dnl Parameters: FDT_BS (threads per block), FDT_DBL (1: fp64 fields).
m4_dnl Kernel ABI: (const fd_real *a, const fd_real *b, fd_cmp q, unsigned long long *res)
m4_dnl with a and b at the span's first element; res[0] counts bad elements, res[1] is
m4_dnl the smallest bad index in the span (start it at ~0), res[2] the largest |a|
m4_dnl and res[3] the largest interior |b - a| (float bits; start them at 0).
m4_include(`lib.m4')m4_dnl
FDT_REQUIRE(`FDT_BS >= 2 && FDT_BS <= 1024 && (FDT_BS & (FDT_BS - 1)) == 0', `bs must be a power of two 2..1024')m4_dnl
FDT_REQUIRE(`FDT_DBL == 0 || FDT_DBL == 1', `dbl must be 0 or 1')m4_dnl
FDT_BANNER(`cmp.m4')
`
typedef 'FDT_REAL` fd_real;
typedef 'm4_ifelse(FDT_DBL, 1, `unsigned long long', `unsigned')` fd_bits;    /* the bits of one fd_real */

/* len: elements of the span; lead: of them before interior point (0,0,0),
 * so that interior point (i,j,k) is element lead + i + j ld + k slice; the
 * launch covers the span in rows of ld elements; tol as mode 1 uses it */
struct fd_cmp { long long len, lead, slice; int ld, nx, ny, nz, mode, poisoned; float tol; };

extern "C" __global__ void __launch_bounds__('FDT_BS`)
'FDT_KERNEL`(const fd_real *__restrict__ a, const fd_real *__restrict__ b, fd_cmp q,
	    unsigned long long *res)
{
	__shared__ unsigned sm['FDT_BS`];
	const long long t = ((long long)blockIdx.z * gridDim.y + blockIdx.y) * q.ld +
			    (long long)blockIdx.x * 'FDT_BS` + threadIdx.x;
	const long long rel = t - q.lead;
	sm[threadIdx.x] = 0;
	if ((long long)blockIdx.x * 'FDT_BS` + threadIdx.x < q.ld && t < q.len) {
		/* the element rel from point (0,0,0): its plane, row and column */
		const long long k = rel >= 0 ? rel / q.slice : -((-rel + q.slice - 1) / q.slice);
		const long long rz = rel - k * q.slice, j = rz / q.ld, i = rz - j * q.ld;
		const bool in = k >= 0 && k < q.nz && j < q.ny && i < q.nx;
		const fd_real va = a[t], vb = b[t];
		bool bad = false;
		if (in && q.mode == 0) {
			const float m = (float)fabs((double)va);
			sm[threadIdx.x] = isnan(m) ? 0x7f800000u : __float_as_uint(m);
		} else if (in) {
			const double e = fabs((double)vb - (double)va);
			const double big = (double)__uint_as_float((unsigned)res[2]);
			bad = !(e <= (double)q.tol * big + 1e-30);
			sm[threadIdx.x] = isnan(e) ? 0x7f800000u : __float_as_uint((float)e);
		} else if (q.mode == 1) {
			bad = *(const fd_bits *)&vb != (q.poisoned ? ~(fd_bits)0 : *(const fd_bits *)&va);
		}
		if (bad) {
			atomicAdd(&res[0], 1ULL);
			atomicMin(&res[1], (unsigned long long)t);
		}
	}
	__syncthreads();
	for (int h = 'FDT_BS` / 2; h > 0; h /= 2) {
		if ((int)threadIdx.x < h)
			sm[threadIdx.x] = max(sm[threadIdx.x], sm[threadIdx.x + h]);
		__syncthreads();
	}
	if (threadIdx.x == 0)           /* one atomic per block */
		atomicMax((unsigned *)&res[q.mode ? 3 : 2], sm[0]);
}
'
