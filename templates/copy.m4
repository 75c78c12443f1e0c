m4_dnl copy.m4: the plain copy whose bandwidth is fdtune's roof. Each thread
m4_dnl moves FDT_CPT float4 values, all loads issued before the stores.
m4_dnl Parameters: FDT_CPT (float4 per thread), FDT_BS (threads per block).
m4_dnl Kernel ABI: (float4 *out, const float4 *in, long long n4); grid ceil(n4 / (BS*CPT)).
m4_include(`lib.m4')m4_dnl
FDT_REQUIRE(`FDT_CPT >= 1 && FDT_BS >= 1', `cpt and bs must be positive')m4_dnl
FDT_BANNER(`copy.m4')
`
extern "C" __global__ void __launch_bounds__('FDT_BS`)
'FDT_KERNEL`(float4 *__restrict__ out, const float4 *__restrict__ in, long long n4)
{
	const long long i0 = (long long)blockIdx.x * ('FDT_BS` * 'FDT_CPT`) + threadIdx.x;
	float4 v['FDT_CPT`];
#pragma unroll
	for (int c = 0; c < 'FDT_CPT`; c++)
		if (i0 + c * 'FDT_BS` < n4)
			v[c] = in[i0 + c * 'FDT_BS`];
#pragma unroll
	for (int c = 0; c < 'FDT_CPT`; c++)
		if (i0 + c * 'FDT_BS` < n4)
			out[i0 + c * 'FDT_BS`] = v[c];
}
'
