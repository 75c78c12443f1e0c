m4_dnl spin.m4: a kernel that holds the GPU for a while and does nothing else.
m4_dnl fdtune times kernels of microseconds (tuner/sweep/tn_time.c) as a group
m4_dnl of launches queued behind it: while it spins, the host queues the whole
m4_dnl group, so the group then runs back to back at the GPU own pace, not at
m4_dnl the pace of the host issuing launches.
m4_dnl Parameters: FDT_BS (threads per block; one thread spins).
m4_dnl Kernel ABI: (long long cycles); grid 1: returns after at least cycles clock ticks.
m4_include(`lib.m4')m4_dnl
FDT_REQUIRE(`FDT_BS >= 1', `bs must be positive')m4_dnl
FDT_BANNER(`spin.m4')
`
extern "C" __global__ void __launch_bounds__('FDT_BS`)
'FDT_KERNEL`(long long cycles)
{
	if (threadIdx.x == 0) {
		const long long t0 = clock64();
		while (clock64() - t0 < cycles)
			;
	}
}
'
