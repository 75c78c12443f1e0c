/*
 * wave_dev.cu: the device side of the wave propagator (wave.h) for nvcc
 * or hipcc: memory, the source injection and the receiver gather (one tiny
 * kernel each, on the default stream, so that the exported kernel, these
 * and the drivers' copies run in one order), and event timers. The C and
 * the Fortran drivers call exactly these, in the same order, and so write
 * the same seismogram bit for bit.
 */
#if defined(__HIPCC__)
#include <hip/hip_runtime.h>
#define RT(x) hip##x
#define PROP hipDeviceProp_t
#else
#include <cuda_runtime.h>
#define RT(x) cuda##x
#define PROP cudaDeviceProp
#endif
#include <stdio.h>

#include "wave.h"

static RT(Error_t) last = RT(Success);
static RT(Event_t) ev[2];

/* Keeps the first error; 0 when e is success. */
static int ok(RT(Error_t) e)
{
	if (e != RT(Success) && last == RT(Success))
		last = e;
	return e != RT(Success);
}

extern "C" const char *wd_error(void)
{
	return RT(GetErrorString)(last);
}

extern "C" int wd_init(char *name, size_t n)
{
	int count = 0;
	PROP p;
	RT(Error_t) e = RT(GetDeviceCount)(&count);
	if (e != RT(Success) || count < 1) {
		snprintf(name, n, "%s", e != RT(Success) ? RT(GetErrorString)(e) : "no device");
		return 1;
	}
	if (ok(RT(GetDeviceProperties)(&p, 0)) || ok(RT(SetDevice)(0)) ||
	    ok(RT(EventCreate)(&ev[0])) || ok(RT(EventCreate)(&ev[1]))) {
		snprintf(name, n, "%s", wd_error());
		return 1;
	}
	snprintf(name, n, "%s", p.name);
	return 0;
}

extern "C" float *wd_alloc(long long count)
{
	void *p = NULL;
	if (ok(RT(Malloc)(&p, (size_t)count * sizeof(float))))
		return NULL;
	if (ok(RT(Memset)(p, 0, (size_t)count * sizeof(float)))) {
		RT(Free)(p);
		return NULL;
	}
	return (float *)p;
}

extern "C" void wd_free(float *p)
{
	if (p)
		ok(RT(Free)(p));
}

extern "C" int wd_put(float *dst, const float *src, long long count)
{
	return ok(RT(Memcpy)(dst, src, (size_t)count * sizeof(float), RT(MemcpyHostToDevice)));
}

extern "C" int wd_get(float *dst, const float *src, long long count)
{
	return ok(RT(Memcpy)(dst, src, (size_t)count * sizeof(float), RT(MemcpyDeviceToHost)));
}

static __global__ void inject(float *next, long long off, const float *src, int s)
{
	next[off] += src[s];
}

extern "C" int wd_inject(float *next, long long off, const float *src, int s)
{
	inject<<<1, 1>>>(next, off, src, s);
	return ok(RT(GetLastError)());
}

static __global__ void record(float *seis, const float *f, long long off, int nr, int s)
{
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < nr)
		seis[(long long)s * nr + i] = f[off + i];
}

extern "C" int wd_record(float *seis, const float *f, long long off, int nr, int s)
{
	record<<<(nr + 255) / 256, 256>>>(seis, f, off, nr, s);
	return ok(RT(GetLastError)());
}

extern "C" int wd_sync(void)
{
	return ok(RT(DeviceSynchronize)());
}

extern "C" int wd_mark(int which)
{
	return ok(RT(EventRecord)(ev[which != 0], 0));
}

extern "C" double wd_elapsed(void)
{
	float ms = -1;
	if (ok(RT(EventSynchronize)(ev[1])) || ok(RT(EventElapsedTime)(&ms, ev[0], ev[1])))
		return -1;
	return ms;
}
