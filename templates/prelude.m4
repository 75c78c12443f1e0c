m4_dnl prelude.m4: the one place where kernels differ between AMD (hiprtc) and
m4_dnl NVIDIA (NVRTC): the nontemporal store and asynchronous copies to LDS. Vector arithmetic is done through
m4_dnl the overloads below, never through operators that only HIP defines.
m4_dnl The element type fd_real is float, or double when FDT_DBL is 1; a file holds
m4_dnl kernels of one precision (the typedef may repeat, C++ allows it, but not change).
m4_dnl The kernel ABI, fd_grid and fd_coef: templates/fdt_abi.h defines it for fdtune,
m4_dnl exports and users; the lines below must keep their text byte for byte (every
m4_dnl recorded build's source hash covers them, and an export embeds a measured
m4_dnl build only when today's source hashes alike), and t_export holds them to
m4_dnl fdt_abi.h's definition.
m4_ifdef(`FDT_REAL', `', `m4_include(`lib.m4')')m4_dnl   (expanded alone by fdtune export)
`/* prelude: platform differences and vector helpers */
typedef 'FDT_REAL` fd_real;
#ifndef FD_PRELUDE              /* once per file: exports hold several kernels */
#define FD_PRELUDE
#if defined(__HIPCC_RTC__) || defined(__HIP_PLATFORM_AMD__)
#define FD_AMD 1
#endif

#ifndef FD_TYPES                /* also defined by the header of an exported kernel */
#define FD_TYPES
struct fd_grid { int nx, ny, nz, ld; long long slice; };
struct fd_coef { fd_real c0, x[9], y[9], z[9]; };   /* weights for offsets 1..8; c0: sum of centre weights */
#endif

template <class T> __device__ __forceinline__ T fd_zero(void);
template <> __device__ __forceinline__ float   fd_zero<float>(void) { return 0.0f; }
template <> __device__ __forceinline__ float2  fd_zero<float2>(void) { return make_float2(0.0f, 0.0f); }
template <> __device__ __forceinline__ float4  fd_zero<float4>(void) { return make_float4(0.0f, 0.0f, 0.0f, 0.0f); }
template <> __device__ __forceinline__ double  fd_zero<double>(void) { return 0.0; }
template <> __device__ __forceinline__ double2 fd_zero<double2>(void) { return make_double2(0.0, 0.0); }
__device__ __forceinline__ float   fd_mul(float c, float a) { return c * a; }
__device__ __forceinline__ float2  fd_mul(float c, float2 a) { return make_float2(c * a.x, c * a.y); }
__device__ __forceinline__ float4  fd_mul(float c, float4 a) { return make_float4(c * a.x, c * a.y, c * a.z, c * a.w); }
__device__ __forceinline__ double  fd_mul(double c, double a) { return c * a; }
__device__ __forceinline__ double2 fd_mul(double c, double2 a) { return make_double2(c * a.x, c * a.y); }
__device__ __forceinline__ float   fd_add(float a, float b) { return a + b; }
__device__ __forceinline__ float2  fd_add(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
__device__ __forceinline__ float4  fd_add(float4 a, float4 b) { return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w); }
__device__ __forceinline__ double  fd_add(double a, double b) { return a + b; }
__device__ __forceinline__ double2 fd_add(double2 a, double2 b) { return make_double2(a.x + b.x, a.y + b.y); }
__device__ __forceinline__ float   fd_sub(float a, float b) { return a - b; }
__device__ __forceinline__ float2  fd_sub(float2 a, float2 b) { return make_float2(a.x - b.x, a.y - b.y); }
__device__ __forceinline__ float4  fd_sub(float4 a, float4 b) { return make_float4(a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w); }
__device__ __forceinline__ double  fd_sub(double a, double b) { return a - b; }
__device__ __forceinline__ double2 fd_sub(double2 a, double2 b) { return make_double2(a.x - b.x, a.y - b.y); }
/* fd_fma(c, a, s) = s + c * a, per component */
__device__ __forceinline__ float   fd_fma(float c, float a, float s) { return fmaf(c, a, s); }
__device__ __forceinline__ float2  fd_fma(float c, float2 a, float2 s) { return make_float2(fmaf(c, a.x, s.x), fmaf(c, a.y, s.y)); }
__device__ __forceinline__ float4  fd_fma(float c, float4 a, float4 s) { return make_float4(fmaf(c, a.x, s.x), fmaf(c, a.y, s.y), fmaf(c, a.z, s.z), fmaf(c, a.w, s.w)); }
__device__ __forceinline__ double  fd_fma(double c, double a, double s) { return fma(c, a, s); }
__device__ __forceinline__ double2 fd_fma(double c, double2 a, double2 s) { return make_double2(fma(c, a.x, s.x), fma(c, a.y, s.y)); }
/* fd_fmav(a, b, s) = s + a * b, per component of vectors a and b */
__device__ __forceinline__ float   fd_fmav(float a, float b, float s) { return fmaf(a, b, s); }
__device__ __forceinline__ float2  fd_fmav(float2 a, float2 b, float2 s) { return make_float2(fmaf(a.x, b.x, s.x), fmaf(a.y, b.y, s.y)); }
__device__ __forceinline__ float4  fd_fmav(float4 a, float4 b, float4 s) { return make_float4(fmaf(a.x, b.x, s.x), fmaf(a.y, b.y, s.y), fmaf(a.z, b.z, s.z), fmaf(a.w, b.w, s.w)); }
__device__ __forceinline__ double  fd_fmav(double a, double b, double s) { return fma(a, b, s); }
__device__ __forceinline__ double2 fd_fmav(double2 a, double2 b, double2 s) { return make_double2(fma(a.x, b.x, s.x), fma(a.y, b.y, s.y)); }

/* fd_store_nt(p, v): store that bypasses (AMD) or streams through (NVIDIA) the caches */
#ifdef FD_AMD
__device__ __forceinline__ void fd_store_nt(float *p, float v) { __builtin_nontemporal_store(v, p); }
__device__ __forceinline__ void fd_store_nt(float2 *p, float2 v) { __builtin_nontemporal_store(v.data, &p->data); }
__device__ __forceinline__ void fd_store_nt(float4 *p, float4 v) { __builtin_nontemporal_store(v.data, &p->data); }
__device__ __forceinline__ void fd_store_nt(double *p, double v) { __builtin_nontemporal_store(v, p); }
__device__ __forceinline__ void fd_store_nt(double2 *p, double2 v) { __builtin_nontemporal_store(v.data, &p->data); }
#else
__device__ __forceinline__ void fd_store_nt(float *p, float v) { __stcs(p, v); }
__device__ __forceinline__ void fd_store_nt(float2 *p, float2 v) { __stcs(p, v); }
__device__ __forceinline__ void fd_store_nt(float4 *p, float4 v) { __stcs(p, v); }
__device__ __forceinline__ void fd_store_nt(double *p, double v) { __stcs(p, v); }
__device__ __forceinline__ void fd_store_nt(double2 *p, double2 v) { __stcs(p, v); }
#endif

/* fd_cp(dst, src): copy one vector from global to shared memory, asynchronously
 * where the target can (NVIDIA cp.async); fd_commit() closes a group of copies;
 * fd_wait<N>() returns once at most N groups of this thread are in flight.
 * On AMD the copy is an ordinary load and store, and commit and wait do nothing. */
#ifdef FD_AMD
template <class T> __device__ __forceinline__ void fd_cp(T *dst, const T *src) { *dst = *src; }
__device__ __forceinline__ void fd_commit(void) { }
template <int N> __device__ __forceinline__ void fd_wait(void) { }
#else
template <class T> __device__ __forceinline__ void fd_cp(T *dst, const T *src)
{
	const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
	if (sizeof(T) == 16)
		asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(s), "l"(src) : "memory");
	else
		asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" :: "r"(s), "l"(src), "n"((int)sizeof(T)) : "memory");
}
__device__ __forceinline__ void fd_commit(void) { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N> __device__ __forceinline__ void fd_wait(void) { asm volatile("cp.async.wait_group %0;\n" :: "n"(N) : "memory"); }
#endif
#endif /* FD_PRELUDE */
'
