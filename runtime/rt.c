/*
 * rt.c: fdtune's GPU runtime, one source written against the HIP runtime API
 * and hiprtc. On NVIDIA (RT_NVIDIA) the HIP names come from hip_nv.h; on AMD
 * from ROCm. The only platform-specific choice left here is where a
 * compiler reports a kernel's resources: ptxas prints them in the NVRTC log,
 * AMD code objects carry them in their msgpack metadata note (rt_res.c reads
 * both).
 */
#define _POSIX_C_SOURCE 200809L
#include "fdt_rc.h"
#include "rt.h"

#ifdef _OPENMP
#include <omp.h>
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef RT_NVIDIA
#include "hip_nv.h"
#define PLATFORM "nvidia"
#define COMPILER "nvrtc"
#define DEF_ARCH "sm_90"
#define RT_PTR_TYPE(a) ((a).memoryType)
#else
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__
#endif
#include <hip/hip_runtime_api.h>
#include <hip/hiprtc.h>
#define PLATFORM "amd"
#if HIP_VERSION_MAJOR >= 6
#define RT_PTR_TYPE(a) ((a).type)       /* ROCm 6 renamed it */
#else
#define RT_PTR_TYPE(a) ((a).memoryType)
#endif
#define COMPILER "hiprtc"
#define DEF_ARCH "gfx90a"
#endif

struct rt_kernel { hipModule_t mod; hipFunction_t fn; unsigned lds; /* dynamic bytes */ };
struct rt_timer { hipEvent_t a, b; };

/* HIP(call): on failure write "what: HIP's message" and return 1. */
#define HIP(call, what) do { hipError_t e_ = (call); if (e_ != hipSuccess) { \
	snprintf(err, n, "%s: %s (%d)", what, hipGetErrorString(e_), (int)e_); \
	return 1; } } while (0)

/* Releases that cannot fail the caller report a failure on stderr, the
 * first one only: after a kernel fault every release fails the same way. */
static void warn(hipError_t e, const char *what)
{
	static int said;
	if (e != hipSuccess && !said++)
		fprintf(stderr, "fdtune: %s failed: %s (further failures to release "
			"GPU resources are not reported)\n", what, hipGetErrorString(e));
}

const char *rt_platform(void) { return PLATFORM; }
const char *rt_default_arch(void) { return DEF_ARCH; }

void rt_compiler(char *buf, size_t n)
{
	int ma = 0, mi = 0;
	if (hiprtcVersion(&ma, &mi) != HIPRTC_SUCCESS)
		ma = mi = -1;
	snprintf(buf, n, "%s %d.%d", COMPILER, ma, mi);
}

int rt_init(int *ndev, char *err, size_t n)
{
	hipError_t e = hipInit(0);
	*ndev = 0;
	if (e == hipErrorNoDevice)
		return FDT_OK;
	HIP(e, "hipInit");
	e = hipGetDeviceCount(ndev);
	if (e == hipErrorNoDevice) {
		*ndev = 0;
		return FDT_OK;
	}
	HIP(e, "hipGetDeviceCount");
	return FDT_OK;
}

int rt_device(int i, struct rt_dev *d, char *err, size_t n)
{
	hipDeviceProp_t p;
	hipDevice_t hd;
	hipUUID u;
	unsigned char b[16];
	char *colon;
	HIP(hipSetDevice(i), "hipSetDevice");
	HIP(hipGetDeviceProperties(&p, i), "hipGetDeviceProperties");
	memset(d, 0, sizeof *d);
	d->id = i;
	snprintf(d->vendor, sizeof d->vendor, "%s", PLATFORM);
	snprintf(d->name, sizeof d->name, "%s", p.name);
	snprintf(d->arch, sizeof d->arch, "%.63s", p.gcnArchName);
	if ((colon = strchr(d->arch, ':')))     /* "gfx90a:sramecc+:xnack-" */
		*colon = 0;
	HIP(hipDeviceGet(&hd, i), "hipDeviceGet");
	HIP(hipDeviceGetUuid(&u, hd), "hipDeviceGetUuid");
	for (int k = 0; k < 16; k++)
		b[k] = (unsigned char)u.bytes[k];
	snprintf(d->uuid, sizeof d->uuid, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		 "%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
		 b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
	snprintf(d->pci, sizeof d->pci, "pci:%04x:%02x:%02x", p.pciDomainID, p.pciBusID,
		 p.pciDeviceID);
	d->sms = p.multiProcessorCount;
	d->mem = (long long)p.totalGlobalMem;
	d->l2 = p.l2CacheSize;
	d->lds_block = (int)p.sharedMemPerBlock;
	d->max_threads = p.maxThreadsPerBlock;
	d->regs_block = p.regsPerBlock;
	d->warp = p.warpSize;
	return FDT_OK;
}

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

#ifdef RT_NVIDIA
static const char *arch_opt(const char *arch, char *b, size_t n)
{
	snprintf(b, n, "-arch=%s", arch);
	return b;
}
/* --no-cache last: NVRTC 12.9 and later keep a cache of their own, and a
 * compile served from it has no ptxas report (no registers, LDS, spills);
 * older NVRTCs do not know the option (nbase). */
static const char *const base_opts[] = { "--std=c++17", "-Xptxas=-v", "--no-cache" };

static int nbase(void)
{
	int ma = 0, mi = 0;
	if (hiprtcVersion(&ma, &mi) != HIPRTC_SUCCESS)
		return 2;
	return ma > 12 || (ma == 12 && mi >= 9) ? 3 : 2;
}
#else
static const char *arch_opt(const char *arch, char *b, size_t n)
{
	snprintf(b, n, "--offload-arch=%s", arch);
	return b;
}
static const char *const base_opts[] = { "-O3" };

static int nbase(void)
{
	return (int)(sizeof base_opts / sizeof base_opts[0]);
}
#endif

void rt_compile_options(const char *arch, char *buf, size_t n)
{
	char ab[80];
	size_t off = (size_t)snprintf(buf, n, "%s", arch_opt(arch, ab, sizeof ab));
	for (int i = 0; i < nbase() && off < n; i++)
		off += (size_t)snprintf(buf + off, n - off, " %s", base_opts[i]);
}

int rt_compile(const char *src, const char *name, const char *arch,
	       const char *const *opts, int nopt, struct rt_prog *p,
	       char *err, size_t n)
{
	hiprtcProgram prog = NULL;
	hiprtcResult r;
	const char *all[64];
	char ab[80];
	size_t len = 0, off = 0;
	int na = 0, status = 1;
	double t0 = now_ms();

	memset(p, 0, sizeof *p);
	p->regs = p->lds = p->spill = -1;
	const int nb = nbase();

	if (nopt + nb + 1 > (int)(sizeof all / sizeof all[0])) {
		snprintf(err, n, "rt_compile: too many options (%d)", nopt);
		return FDT_FAIL;
	}
	all[na++] = arch_opt(arch, ab, sizeof ab);
	for (int i = 0; i < nb; i++)
		all[na++] = base_opts[i];
	for (int i = 0; i < nopt; i++)
		all[na++] = opts[i];
	for (int i = 0; i < na; i++)
		off += (size_t)snprintf(p->options + off, off < sizeof p->options ?
			sizeof p->options - off : 0, "%s%s", i ? " " : "", all[i]);

	if ((r = hiprtcCreateProgram(&prog, src, name, 0, NULL, NULL)) != HIPRTC_SUCCESS) {
		snprintf(err, n, "hiprtcCreateProgram: %s", hiprtcGetErrorString(r));
		goto done;
	}
	r = hiprtcCompileProgram(prog, na, all);
	p->ms = now_ms() - t0;
	if (hiprtcGetProgramLogSize(prog, &len) != HIPRTC_SUCCESS)
		len = 0;
	if (!(p->log = calloc(1, len + 1))) {
		snprintf(err, n, "out of memory for the compile log");
		goto done;
	}
	if (len > 1 && hiprtcGetProgramLog(prog, p->log) != HIPRTC_SUCCESS)
		p->log[0] = 0;
	if (r != HIPRTC_SUCCESS) {
		snprintf(err, n, "%s failed for %s: %s (see the build log)", COMPILER,
			 name, hiprtcGetErrorString(r));
		goto done;
	}
	if ((r = hiprtcGetCodeSize(prog, &p->size)) != HIPRTC_SUCCESS ||
	    !(p->code = malloc(p->size)) ||
	    (r = hiprtcGetCode(prog, p->code)) != HIPRTC_SUCCESS) {
		snprintf(err, n, "%s: cannot fetch the code of %s", COMPILER, name);
		goto done;
	}
	rt_prog_kernel(p, NULL, &p->regs, &p->lds, &p->spill);     /* the only kernel */
	status = 0;
done:
	if (prog && hiprtcDestroyProgram(&prog) != HIPRTC_SUCCESS && !status) {
		snprintf(err, n, "hiprtcDestroyProgram failed");
		status = 1;
	}
	if (status) {
		free(p->code);
		p->code = NULL;
		if (!p->log)
			p->log = calloc(1, 1);
	}
	return status;
}

int rt_prog_kernel(const struct rt_prog *p, const char *name, int *regs, int *lds, int *spill)
{
#ifdef RT_NVIDIA
	return rt_res_ptxas(p->log, name, regs, lds, spill);
#else
	return rt_res_amdgpu(p->code, p->size, name, regs, lds, spill);
#endif
}

void rt_prog_free(struct rt_prog *p)
{
	free(p->code);
	free(p->log);
	p->code = NULL;
	p->log = NULL;
}

int rt_load(const struct rt_prog *p, const char *fn, struct rt_kernel **k,
	    char *err, size_t n)
{
	struct rt_kernel *x = calloc(1, sizeof *x);
	hipError_t e;
	if (!x) {
		snprintf(err, n, "out of memory");
		return FDT_FAIL;
	}
	if ((e = hipModuleLoadData(&x->mod, p->code)) != hipSuccess) {
		snprintf(err, n, "hipModuleLoadData: %s", hipGetErrorString(e));
		free(x);
		return FDT_FAIL;
	}
	if ((e = hipModuleGetFunction(&x->fn, x->mod, fn)) != hipSuccess) {
		snprintf(err, n, "hipModuleGetFunction(%s): %s", fn, hipGetErrorString(e));
		warn(hipModuleUnload(x->mod), "hipModuleUnload");
		free(x);
		return FDT_FAIL;
	}
	*k = x;
	return FDT_OK;
}

int rt_attrs(struct rt_kernel *k, int *regs, int *lds, int *local,
	     int *max_threads, char *err, size_t n)
{
	HIP(hipFuncGetAttribute(regs, HIP_FUNC_ATTRIBUTE_NUM_REGS, k->fn), "registers");
	HIP(hipFuncGetAttribute(lds, HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, k->fn), "LDS");
	HIP(hipFuncGetAttribute(local, HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, k->fn), "local");
	HIP(hipFuncGetAttribute(max_threads, HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
				k->fn), "max threads");
	return FDT_OK;
}

int rt_set_lds(struct rt_kernel *k, unsigned bytes, char *err, size_t n)
{
#ifdef RT_NVIDIA
	/* over 48 KiB a block needs the opt-in; AMD gives its 64 KiB without */
	if (bytes > 48 * 1024) {
		char what[96];
		snprintf(what, sizeof what, "allowing %u bytes of dynamic shared memory", bytes);
		HIP(hipFuncSetAttribute(k->fn, hipFuncAttributeMaxDynamicSharedMemorySize,
					(int)bytes), what);
	}
#else
	(void)err;
	(void)n;
#endif
	k->lds = bytes;
	return FDT_OK;
}

int rt_launch(struct rt_kernel *k, const unsigned g[3], const unsigned b[3],
	      void **args, char *err, size_t n)
{
	HIP(hipModuleLaunchKernel(k->fn, g[0], g[1], g[2], b[0], b[1], b[2], k->lds, 0,
				  args, NULL), "launch");
	return FDT_OK;
}

void rt_unload(struct rt_kernel *k)
{
	if (k) {
		warn(hipModuleUnload(k->mod), "hipModuleUnload");
		free(k);
	}
}

int rt_alloc(void **p, size_t bytes, char *err, size_t n)
{
	char what[64];
	snprintf(what, sizeof what, "hipMalloc(%zu MiB)", bytes >> 20);
	HIP(hipMalloc(p, bytes), what);
	return FDT_OK;
}

void rt_free(void *p) { if (p) warn(hipFree(p), "hipFree"); }

int rt_host_alloc(void **p, size_t bytes, char *err, size_t n)
{
	HIP(hipHostMalloc(p, bytes, 0), "hipHostMalloc");
	return FDT_OK;
}

void rt_host_free(void *p) { if (p) warn(hipHostFree(p), "hipHostFree"); }

/* Uploads of RT_STAGE_MIN bytes or more go through two pinned buffers of
 * RT_STAGE bytes, each device's own (made in its context at the first such
 * upload to it, kept; devices from RT_NSTAGE on copy pageable): the host
 * copies a chunk into one while the DMA engine sends the other, at the
 * pinned rate. A pageable hipMemcpy moved a plan's fields at 3.6 GB/s
 * (NOTES v49). Without the buffers (no pinned memory) it is that copy. One
 * process may upload to several devices (fdtune devices --calibrate): a
 * device's buffers and events are used only with its context current. */
#define RT_STAGE (32u << 20)
#define RT_STAGE_MIN (2 * (size_t)RT_STAGE)
#define RT_NSTAGE 16
struct stage { char *buf[2]; hipEvent_t ev[2]; int ok; pthread_mutex_t mu; };
static struct stage stages[RT_NSTAGE];
static pthread_once_t stage_once = PTHREAD_ONCE_INIT;

/* each device's lock: uploads to two devices do not wait for each other */
static void stage_init(void)
{
	for (int i = 0; i < RT_NSTAGE; i++)
		pthread_mutex_init(&stages[i].mu, NULL);
}

static int stage_up(struct stage *st)
{
	if (st->ok)
		return st->ok > 0;
	st->ok = -1;
	for (int i = 0; i < 2; i++)
		if (hipHostMalloc((void **)&st->buf[i], RT_STAGE, 0) != hipSuccess ||
		    hipEventCreate(&st->ev[i]) != hipSuccess) {
			for (int j = 0; j < 2; j++) {      /* what was made, freed */
				if (st->buf[j])
					warn(hipHostFree(st->buf[j]), "hipHostFree");
				if (st->ev[j])
					warn(hipEventDestroy(st->ev[j]), "hipEventDestroy");
				st->buf[j] = NULL;
				st->ev[j] = NULL;
			}
			return 0;
		}
	st->ok = 1;
	return 1;
}

/* The host's copy of a chunk into a pinned buffer, on up to RT_COPY_THREADS
 * OpenMP threads in pieces of 2 MB: one core's memcpy from the shared host
 * data ran at 4.5-5.4 GB/s, under the DMA engine's rate (NOTES v50). */
#define RT_COPY_THREADS 8
static void pcopy(char *d, const char *s, size_t b)
{
	const size_t piece = (size_t)2 << 20;
	const long np = (long)((b + piece - 1) / piece);
#ifdef _OPENMP
	int t = omp_get_max_threads();
#else
	int t = 1;              /* a build without OpenMP (make fuzz): one copy */
#endif
	t = t < RT_COPY_THREADS ? t : RT_COPY_THREADS;
	t = (long)t < np ? t : (int)np;
	if (t <= 1) {
		memcpy(d, s, b);
		return;
	}
#pragma omp parallel for num_threads(t) schedule(static)
	for (long i = 0; i < np; i++) {
		size_t off = (size_t)i * piece;
		memcpy(d + off, s + off, b - off < piece ? b - off : piece);
	}
}

static int staged(struct stage *st, char *d, const char *s, size_t b, char *err, size_t n)
{
	size_t k = 0;
	hipError_t e = hipSuccess;
	for (size_t off = 0; off < b && e == hipSuccess; off += RT_STAGE, k++) {
		size_t len = b - off < RT_STAGE ? b - off : RT_STAGE;
		char *p = st->buf[k % 2];
		if (k >= 2 && (e = hipEventSynchronize(st->ev[k % 2])) != hipSuccess)
			break;
		pcopy(p, s + off, len);
		if ((e = hipMemcpyHtoDAsync(d + off, p, len, 0)) == hipSuccess)
			e = hipEventRecord(st->ev[k % 2], 0);
	}
	/* both buffers free again before they are reused, even after a failure */
	for (int i = 0; i < 2; i++) {
		hipError_t w = hipEventSynchronize(st->ev[i]);
		if (e == hipSuccess)
			e = w;
	}
	HIP(e, "copy to device");
	return FDT_OK;
}

int rt_upload(void *d, const void *s, size_t b, char *err, size_t n)
{
	int rc, dev;
	if (b >= RT_STAGE_MIN && hipGetDevice(&dev) == hipSuccess && dev >= 0 && dev < RT_NSTAGE &&
	    !pthread_once(&stage_once, stage_init)) {
		struct stage *st = &stages[dev];
		pthread_mutex_lock(&st->mu);
		rc = stage_up(st) ? staged(st, d, s, b, err, n) : -1;
		pthread_mutex_unlock(&st->mu);
		if (rc >= 0)
			return rc;
	}
	HIP(hipMemcpy(d, s, b, hipMemcpyHostToDevice), "copy to device");
	return FDT_OK;
}

int rt_download(void *d, const void *s, size_t b, char *err, size_t n)
{
	HIP(hipMemcpy(d, s, b, hipMemcpyDeviceToHost), "copy from device");
	return FDT_OK;
}

int rt_copy(void *d, const void *s, size_t b, char *err, size_t n)
{
	HIP(hipMemcpy(d, s, b, hipMemcpyDeviceToDevice), "device copy");
	return FDT_OK;
}

int rt_device_mem(const void *p, int *yes, char *err, size_t n)
{
	hipPointerAttribute_t a;
	hipError_t e;
	int cur;
	*yes = 0;
	HIP(hipGetDevice(&cur), "the current GPU");
	memset(&a, 0, sizeof a);
	if ((e = hipPointerGetAttributes(&a, p)) == hipErrorInvalidValue) {
		(void)hipGetLastError();        /* not the program's error to see */
		return FDT_OK;  /* memory the runtime does not know: pageable host memory */
	}
	HIP(e, "pointer attributes");
	*yes = (RT_PTR_TYPE(a) == hipMemoryTypeDevice || a.isManaged) && a.device == cur;
	return FDT_OK;
}

int rt_fill(void *d, int v, size_t b, char *err, size_t n)
{
	HIP(hipMemset(d, v, b), "hipMemset");
	return FDT_OK;
}

int rt_sync(char *err, size_t n)
{
	HIP(hipDeviceSynchronize(), "kernel execution");
	return FDT_OK;
}

int rt_timer_new(struct rt_timer **t, char *err, size_t n)
{
	struct rt_timer *x = calloc(1, sizeof *x);
	hipError_t e;
	if (!x) {
		snprintf(err, n, "out of memory");
		return FDT_FAIL;
	}
	if ((e = hipEventCreate(&x->a)) != hipSuccess ||
	    (e = hipEventCreate(&x->b)) != hipSuccess) {
		snprintf(err, n, "hipEventCreate: %s", hipGetErrorString(e));
		rt_timer_free(x);
		return FDT_FAIL;
	}
	*t = x;
	return FDT_OK;
}

int rt_timer_start(struct rt_timer *t, char *err, size_t n)
{
	HIP(hipEventRecord(t->a, 0), "hipEventRecord");
	return FDT_OK;
}

int rt_timer_stop(struct rt_timer *t, float *ms, char *err, size_t n)
{
	HIP(hipEventRecord(t->b, 0), "hipEventRecord");
	HIP(hipEventSynchronize(t->b), "kernel execution");
	HIP(hipEventElapsedTime(ms, t->a, t->b), "hipEventElapsedTime");
	return FDT_OK;
}

void rt_timer_free(struct rt_timer *t)
{
	if (!t)
		return;
	if (t->a)
		warn(hipEventDestroy(t->a), "hipEventDestroy");
	if (t->b)
		warn(hipEventDestroy(t->b), "hipEventDestroy");
	free(t);
}
