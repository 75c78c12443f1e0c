/*
 * hip_nv.h: the HIP subset that rt.c uses, mapped onto the CUDA driver API
 * and NVRTC. Included by rt.c alone, and only for NVIDIA builds.
 *
 * Debian's HIP NVIDIA headers do not build against CUDA 13, so this file is
 * the whole NVIDIA port: each HIP name below has the HIP signature and
 * behaviour that rt.c relies on, nothing more. The driver is opened with
 * dlopen so that a machine without one (CI, a login node) still runs fdtune
 * and compiles with NVRTC; hipInit then reports hipErrorNoDevice.
 */
#ifndef HIP_NV_H
#define HIP_NV_H

#include <cuda.h>
#include <nvrtc.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef CUresult hipError_t;
typedef CUmodule hipModule_t;
typedef CUfunction hipFunction_t;
typedef CUevent hipEvent_t;
typedef CUstream hipStream_t;
typedef CUdevice hipDevice_t;
typedef CUuuid hipUUID;
#define hipSuccess CUDA_SUCCESS
#define hipErrorNoDevice CUDA_ERROR_NO_DEVICE
#define hipErrorInvalidValue CUDA_ERROR_INVALID_VALUE

typedef enum { hipMemcpyHostToDevice, hipMemcpyDeviceToHost,
	       hipMemcpyDeviceToDevice } hipMemcpyKind;

#define HIP_FUNC_ATTRIBUTE_NUM_REGS CU_FUNC_ATTRIBUTE_NUM_REGS
#define HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES
#define HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES
#define HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK \
	CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK

/* The fields of hipDeviceProp_t that rt.c reads. */
typedef struct {
	char name[256];
	char gcnArchName[256];
	size_t totalGlobalMem, sharedMemPerBlock;
	int regsPerBlock, warpSize, maxThreadsPerBlock, multiProcessorCount;
	int l2CacheSize, major, minor, pciBusID, pciDeviceID, pciDomainID;
} hipDeviceProp_t;

/* Driver entry points, resolved by name; the names come from cuda.h's
 * versioning macros (cuMemAlloc is cuMemAlloc_v2, and so on). */
#define NV_FUNCS(X) X(cuInit) X(cuDeviceGetCount) X(cuDeviceGet) \
	X(cuDeviceGetUuid) X(cuDeviceGetName) X(cuDeviceGetAttribute) X(cuDeviceTotalMem) \
	X(cuDevicePrimaryCtxRetain) X(cuCtxSetCurrent) X(cuCtxGetDevice) X(cuCtxSynchronize) \
	X(cuGetErrorString) X(cuMemAlloc) X(cuMemFree) X(cuMemAllocHost) \
	X(cuMemFreeHost) X(cuMemcpyHtoD) X(cuMemcpyHtoDAsync) X(cuMemcpyDtoH) X(cuMemcpyDtoD) \
	X(cuMemsetD8) X(cuModuleLoadData) X(cuModuleGetFunction) \
	X(cuModuleUnload) X(cuLaunchKernel) X(cuFuncGetAttribute) X(cuFuncSetAttribute) X(cuEventCreate) \
	X(cuEventRecord) X(cuEventSynchronize) X(cuEventElapsedTime) \
	X(cuEventDestroy) X(cuPointerGetAttribute)
#define NV_STR_(s) #s
#define NV_STR(s) NV_STR_(s)
#define NV_PTR(f) static __typeof__(&f) nv_##f;
NV_FUNCS(NV_PTR)
static int nv_loaded;

static inline hipError_t hipInit(unsigned flags)
{
	void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return hipErrorNoDevice;
#define NV_SYM(f) if (!(*(void **)&nv_##f = dlsym(h, NV_STR(f)))) \
		return CUDA_ERROR_NOT_FOUND;
	NV_FUNCS(NV_SYM)
#undef NV_SYM
	nv_loaded = 1;
	return nv_cuInit(flags);
}

static inline const char *hipGetErrorString(hipError_t e)
{
	const char *s = NULL;
	if (e == CUDA_ERROR_NOT_FOUND && !nv_loaded)
		return "libcuda.so.1 lacks a required entry point";
	if (nv_loaded && nv_cuGetErrorString(e, &s) == CUDA_SUCCESS && s)
		return s;
	return e == hipErrorNoDevice ? "no NVIDIA driver or device"
				     : "unknown CUDA error";
}

static inline hipError_t hipGetDeviceCount(int *n) { return nv_cuDeviceGetCount(n); }
static inline hipError_t hipDeviceGet(hipDevice_t *d, int i) { return nv_cuDeviceGet(d, i); }
static inline hipError_t hipDeviceGetUuid(hipUUID *u, hipDevice_t d) { return nv_cuDeviceGetUuid(u, d); }

static inline hipError_t hipSetDevice(int i)
{
	CUdevice d;
	CUcontext c;
	hipError_t e = nv_cuDeviceGet(&d, i);
	if (e == hipSuccess)
		e = nv_cuDevicePrimaryCtxRetain(&c, d);
	return e == hipSuccess ? nv_cuCtxSetCurrent(c) : e;
}

static inline hipError_t hipGetDevice(int *i)
{
	CUdevice d;
	hipError_t e = nv_cuCtxGetDevice(&d);
	if (e == hipSuccess)
		*i = (int)d;
	return e;
}

/* The fields of hipPointerAttribute_t that rt.c reads; hipErrorInvalidValue
 * for memory the driver does not know (pageable host memory), as HIP. */
typedef enum { hipMemoryTypeHost, hipMemoryTypeDevice } hipMemoryType;
typedef struct {
	hipMemoryType memoryType;
	int device, isManaged;
} hipPointerAttribute_t;

static inline hipError_t hipPointerGetAttributes(hipPointerAttribute_t *a, const void *p)
{
	/* the type first: CUDA_ERROR_INVALID_VALUE for a pointer the driver
	 * does not know; the pointer known, the other two answer */
	unsigned t = 0;
	int o = -1, m = 0;
	CUdeviceptr q = (CUdeviceptr)p;
	hipError_t e = nv_cuPointerGetAttribute(&t, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, q);
	if (e == hipSuccess)
		e = nv_cuPointerGetAttribute(&o, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, q);
	if (e == hipSuccess)
		e = nv_cuPointerGetAttribute(&m, CU_POINTER_ATTRIBUTE_IS_MANAGED, q);
	a->memoryType = t == CU_MEMORYTYPE_DEVICE ? hipMemoryTypeDevice : hipMemoryTypeHost;
	a->device = o;
	a->isManaged = m;
	return e;
}

/* The driver API keeps no last error: nothing to clear. */
static inline hipError_t hipGetLastError(void) { return hipSuccess; }

static inline hipError_t hipGetDeviceProperties(hipDeviceProp_t *p, int i)
{
	static const struct { CUdevice_attribute a; size_t off; } at[] = {
#define A(attr, f) { CU_DEVICE_ATTRIBUTE_##attr, offsetof(hipDeviceProp_t, f) }
		A(MAX_REGISTERS_PER_BLOCK, regsPerBlock),
		A(WARP_SIZE, warpSize),
		A(MAX_THREADS_PER_BLOCK, maxThreadsPerBlock),
		A(MULTIPROCESSOR_COUNT, multiProcessorCount),
		A(L2_CACHE_SIZE, l2CacheSize),
		A(COMPUTE_CAPABILITY_MAJOR, major),
		A(COMPUTE_CAPABILITY_MINOR, minor),
		A(PCI_BUS_ID, pciBusID), A(PCI_DEVICE_ID, pciDeviceID),
		A(PCI_DOMAIN_ID, pciDomainID),
#undef A
	};
	CUdevice d;
	int v = 0;
	hipError_t e = nv_cuDeviceGet(&d, i);
	memset(p, 0, sizeof *p);
	if (e == hipSuccess)
		e = nv_cuDeviceGetName(p->name, sizeof p->name, d);
	if (e == hipSuccess)
		e = nv_cuDeviceTotalMem(&p->totalGlobalMem, d);
	if (e == hipSuccess)
		e = nv_cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, d);
	p->sharedMemPerBlock = (size_t)v;
	for (size_t k = 0; e == hipSuccess && k < sizeof at / sizeof at[0]; k++)
		e = nv_cuDeviceGetAttribute((int *)((char *)p + at[k].off), at[k].a, d);
	snprintf(p->gcnArchName, sizeof p->gcnArchName, "sm_%d%d", p->major, p->minor);
	return e;
}

static inline hipError_t hipMalloc(void **p, size_t n) { return nv_cuMemAlloc((CUdeviceptr *)p, n); }
static inline hipError_t hipFree(void *p) { return nv_cuMemFree((CUdeviceptr)p); }
static inline hipError_t hipHostMalloc(void **p, size_t n, unsigned f) { (void)f; return nv_cuMemAllocHost(p, n); }
static inline hipError_t hipHostFree(void *p) { return nv_cuMemFreeHost(p); }
static inline hipError_t hipMemset(void *p, int v, size_t n) { return nv_cuMemsetD8((CUdeviceptr)p, (unsigned char)v, n); }
static inline hipError_t hipDeviceSynchronize(void) { return nv_cuCtxSynchronize(); }
static inline hipError_t hipMemcpyHtoDAsync(void *d, void *s, size_t n, hipStream_t st) { return nv_cuMemcpyHtoDAsync((CUdeviceptr)d, s, n, st); }

static inline hipError_t hipMemcpy(void *d, const void *s, size_t n, hipMemcpyKind k)
{
	if (k == hipMemcpyHostToDevice)
		return nv_cuMemcpyHtoD((CUdeviceptr)d, s, n);
	if (k == hipMemcpyDeviceToHost)
		return nv_cuMemcpyDtoH(d, (CUdeviceptr)s, n);
	return nv_cuMemcpyDtoD((CUdeviceptr)d, (CUdeviceptr)s, n);
}

static inline hipError_t hipModuleLoadData(hipModule_t *m, const void *img) { return nv_cuModuleLoadData(m, img); }
static inline hipError_t hipModuleGetFunction(hipFunction_t *f, hipModule_t m, const char *s) { return nv_cuModuleGetFunction(f, m, s); }
static inline hipError_t hipModuleUnload(hipModule_t m) { return nv_cuModuleUnload(m); }
static inline hipError_t hipFuncGetAttribute(int *v, CUfunction_attribute a, hipFunction_t f) { return nv_cuFuncGetAttribute(v, a, f); }
/* HIP's takes the kernel's host handle; fdtune's kernels are module functions */
#define hipFuncAttributeMaxDynamicSharedMemorySize CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
static inline hipError_t hipFuncSetAttribute(hipFunction_t f, CUfunction_attribute a, int v) { return nv_cuFuncSetAttribute(f, a, v); }

static inline hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned gx,
	unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
	unsigned shmem, hipStream_t s, void **args, void **extra)
{
	return nv_cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shmem, s, args, extra);
}

static inline hipError_t hipEventCreate(hipEvent_t *e) { return nv_cuEventCreate(e, CU_EVENT_DEFAULT); }
static inline hipError_t hipEventRecord(hipEvent_t e, hipStream_t s) { return nv_cuEventRecord(e, s); }
static inline hipError_t hipEventSynchronize(hipEvent_t e) { return nv_cuEventSynchronize(e); }
static inline hipError_t hipEventElapsedTime(float *ms, hipEvent_t a, hipEvent_t b) { return nv_cuEventElapsedTime(ms, a, b); }
static inline hipError_t hipEventDestroy(hipEvent_t e) { return nv_cuEventDestroy(e); }

/* hiprtc is NVRTC under its HIP names; code is a CUBIN for a real sm_XY. */
typedef nvrtcProgram hiprtcProgram;
typedef nvrtcResult hiprtcResult;
#define HIPRTC_SUCCESS NVRTC_SUCCESS
#define hiprtcCreateProgram nvrtcCreateProgram
#define hiprtcCompileProgram nvrtcCompileProgram
#define hiprtcGetProgramLogSize nvrtcGetProgramLogSize
#define hiprtcGetProgramLog nvrtcGetProgramLog
#define hiprtcGetCodeSize nvrtcGetCUBINSize
#define hiprtcGetCode nvrtcGetCUBIN
#define hiprtcDestroyProgram nvrtcDestroyProgram
#define hiprtcGetErrorString nvrtcGetErrorString
#define hiprtcVersion nvrtcVersion

#endif
