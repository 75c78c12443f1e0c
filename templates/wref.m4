m4_dnl wref.m4: the reference of the time-stepping families (iso3dfd) made on the GPU,
m4_dnl in double precision, with the error bound of tuner/ref/tn_ref_wave.c carried
m4_dnl along: the same steps and the same bound, term for term in the same order (not
m4_dnl the same bits: NVRTC fuses multiply-adds, which the bound allows), so that the GPU check
m4_dnl (check.m4) takes it in place of the CPU one, and the host neither computes it
m4_dnl (seconds of every core at 512^3) nor holds it (24 bytes a point).
m4_dnl One step is next = 2 prev - next + vel L(prev), L(u) = c0 u + sum over x, y,
m4_dnl z of w_a[k] (u(-k) + u(+k)), with the bound E (in units of u): a step errs by
m4_dnl (terms + 1) m, m = 2|prev| + |next| + |vel| sum|term of L|, and inherits
m4_dnl 2 E(prev) + E(next) + |vel| (|c0| E(prev) + sum |w| (E(-k) + E(+k))).
m4_dnl The two fields are kept on the interior only, compact x-fastest, in ref itself
m4_dnl (field 0 at ref, field 1 at ref + nx ny nz): a step never writes a halo, so a
m4_dnl neighbour in the halo is read from a or b as given, with a bound of 0.
m4_dnl Contract: a thread per interior point, a grid of (ceil(nx / BS), ny, nz) blocks of
m4_dnl BS threads; the caller orders the launches (one stream):
m4_dnl mode 0: ref = a then b on the interior, eb = 0 (2 nx ny nz doubles);
m4_dnl mode 1: step s, from field s & 1 into field !(s & 1), bounds likewise in eb;
m4_dnl mode 2: mag = eb scaled as tn_ref_wave.c scales it: E / (terms + 1) (1 + 2^-20).
m4_dnl Parameters: FDT_BS (threads per block), FDT_DBL (1: the device fields a, b, vel are fp64).
m4_dnl Kernel ABI: (const fd_real *a, const fd_real *b, const fd_real *vel, double *ref,
m4_dnl double *eb, float *mag, fd_wl geometry, fd_wc weights, int mode, int s).
m4_include(`lib.m4')m4_dnl
FDT_REQUIRE(`FDT_BS >= 2 && FDT_BS <= 1024 && (FDT_BS & (FDT_BS - 1)) == 0', `bs must be a power of two 2..1024')m4_dnl
FDT_REQUIRE(`FDT_DBL == 0 || FDT_DBL == 1', `dbl must be 0 or 1')m4_dnl
FDT_BANNER(`wref.m4')
`
typedef 'FDT_REAL` fd_real;

/* the layout (tn_layout): a point (i, j, k) of the interior lies at
 * origin + i + j ld + k slice of a, b and vel */
struct fd_wl { long long slice, origin; int ld, r, nx, ny, nz, terms; };
/* the validation weights (tn_coef): offsets 1..8 */
struct fd_wc { float c0, x[9], y[9], z[9]; };

extern "C" __global__ void __launch_bounds__('FDT_BS`)
'FDT_KERNEL`(const fd_real *__restrict__ a, const fd_real *__restrict__ b,
	   const fd_real *__restrict__ vel, double *ref, double *eb, float *__restrict__ mag,
	   fd_wl q, fd_wc c, int mode, int s)
{
	const int i = blockIdx.x * 'FDT_BS` + threadIdx.x, j = blockIdx.y, k = blockIdx.z;
	if (i >= q.nx)
		return;
	const long long pts = (long long)q.nx * q.ny * q.nz;
	const long long t = i + (long long)q.nx * (j + (long long)q.ny * k);
	const long long o = q.origin + i + (long long)j * q.ld + (long long)k * q.slice;
	if (mode == 0) {
		ref[t] = (double)a[o];
		ref[pts + t] = (double)b[o];
		eb[t] = eb[pts + t] = 0.0;
		return;
	}
	if (mode == 2) {
		mag[t] = (float)(eb[t] / (q.terms + 1) * (1.0 + 0x1.0p-20));
		mag[pts + t] = (float)(eb[pts + t] / (q.terms + 1) * (1.0 + 0x1.0p-20));
		return;
	}
	const int f = s & 1;
	const double *p = ref + f * pts, *ep = eb + f * pts;
	const fd_real *ph = f ? b : a;          /* field f outside the interior */
	double *nx = ref + (1 - f) * pts, *en = eb + (1 - f) * pts;
	const int n[3] = { q.nx, q.ny, q.nz }, at[3] = { i, j, k };
	const long long sc[3] = { 1, q.nx, (long long)q.nx * q.ny };   /* compact strides */
	const long long sl[3] = { 1, q.ld, q.slice };                  /* layout strides */
	const float *w[3] = { c.x, c.y, c.z };
	double sum = (double)c.c0 * p[t];
	double m = fabs(sum);
	double e = fabs((double)c.c0) * ep[t];
	for (int d = 0; d < 3; d++)
		for (int h = 1; h <= q.r; h++) {
			const double wq = w[d][h], aw = fabs(wq);
			const bool lin = at[d] - h >= 0, hin = at[d] + h < n[d];
			const double lo = lin ? p[t - h * sc[d]] : (double)ph[o - h * sl[d]];
			const double hi = hin ? p[t + h * sc[d]] : (double)ph[o + h * sl[d]];
			sum += wq * (lo + hi);
			m += aw * (fabs(lo) + fabs(hi));
			e += aw * ((lin ? ep[t - h * sc[d]] : 0.0) + (hin ? ep[t + h * sc[d]] : 0.0));
		}
	const double v = (double)vel[o];
	const double mm = 2 * fabs(p[t]) + fabs(nx[t]) + fabs(v) * m;
	en[t] = 2 * ep[t] + en[t] + fabs(v) * e + (q.terms + 1) * mm;
	nx[t] = 2 * p[t] - nx[t] + v * sum;
}
'
