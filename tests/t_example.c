/*
 * t_example.c: examples/wave, the wave propagator on the exported iso3dfd
 * kernel, is physically right.
 * - The analysis (wave_host.c) on synthetic traces: the arrival pick finds a
 *   Ricker peak between samples, the 1/r fit accepts 1/r and refuses
 *   1/r^1.5, the correlation tells a pulse from a wider one.
 * - The stability bound: the CPU stepper (wave_cpu.c) stays bounded just
 *   under wv_dt_max and blows up just over it.
 * - The propagator (wave_run.c) on the CPU stepper, homogeneous, on a small
 *   grid; and the example itself on the GPU (skipped without one) on a
 *   larger grid: at receivers at several distances d the first arrival (the
 *   Ricker peak) is at t0 + d / v within one sample, the amplitude is a / d
 *   within 10% (and a within 10% of 1 / (4 pi), the continuum's), and the
 *   pulse at the farthest receiver correlates above 0.95 with the nearest
 *   once the delay is removed. Reflections from the faces arrive after the
 *   windows used.
 * - At 512^3 on the GPU the time loop loses under 5% to what is not the
 *   exported kernel.
 * - The Fortran driver (wave.f90) writes the C driver's seismogram and
 *   slice byte for byte: both on the CPU stepper (where gfortran is), and
 *   on the GPU (where there is one).
 * - --model FILE gives the seismogram of the same layers given by --vel
 *   (on the CPU), and files of the wrong size are refused.
 * - examples/wave/CMakeLists.txt builds against `make install` into a
 *   temporary prefix (find_package(fdtune), fdtune_add_kernels; nvcc for
 *   sm_90, where nvcc and cmake are), and on a GPU passes the physics.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "t_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wave_run.h"

static const double pi = 3.14159265358979323846;
static char dir[] = "/tmp/fdt_exampleXXXXXX";

/* A homogeneous run: velocity v, spacing h, dt, Ricker f0 (delay 1.5 /
 * f0), source at x = sx on a line of nx receivers; offsets d[0..m) in
 * points from the source along x, nearest first. */
struct setup {
	double v, h, dt, f0;
	int nx, nt, sx, m, d[8];
};

/* The three checks of the header on seismogram seis (nt x nx). */
static void physics(const struct setup *u, const float *seis)
{
	double r[8], amp[8], tp[8], dev, a;
	float *tr[8];
	const double t0 = 1.5 / u->f0;
	for (int i = 0; i < u->m; i++) {
		const double ta = t0 + u->d[i] * u->h / u->v;
		const int s0 = (int)((ta - 0.5 / u->f0) / u->dt), s1 = (int)((ta + 0.5 / u->f0) / u->dt);
		assert_non_null(tr[i] = malloc((size_t)u->nt * sizeof **tr));
		for (int s = 0; s < u->nt; s++)
			tr[i][s] = seis[(long long)s * u->nx + u->sx + u->d[i]];
		r[i] = u->d[i] * u->h;
		tp[i] = wv_pick(tr[i], u->nt, s0, s1, u->dt, &amp[i]);
		print_message("d = %4.0f m: arrival %.5f s, expected %.5f s (%+.2f samples), "
			      "amplitude x 4 pi r = %.4f\n", r[i], tp[i], ta, (tp[i] - ta) / u->dt,
			      amp[i] * 4 * pi * r[i]);
		assert_true(s1 < u->nt);
		assert_true(fabs(tp[i] - ta) <= u->dt);
	}
	a = wv_fit_inv_r(r, amp, u->m, &dev);
	print_message("a / r fit: a x 4 pi = %.4f, largest misfit %.2f%%\n", a * 4 * pi, 100 * dev);
	assert_true(dev < 0.10);
	assert_true(fabs(a * 4 * pi - 1) < 0.10);
	a = wv_corr(tr[0], tp[0], tr[u->m - 1], tp[u->m - 1], u->nt, u->dt, 1 / u->f0);
	print_message("correlation of the pulses at %d and %d points: %.4f\n", u->d[0],
		      u->d[u->m - 1], a);
	assert_true(a > 0.95);
	for (int i = 0; i < u->m; i++)
		free(tr[i]);
}

static void analysis(void **st)
{
	enum { N = 400 };
	const double dt = 1e-3, f = 20;
	float a[N], b[N], c[N];
	double r[4] = { 100, 200, 400, 800 }, amp[4], dev, x, t;
	(void)st;
	/* a Ricker peaking between samples 149 and 150 (sample s at (s + 1) dt) */
	for (int s = 0; s < N; s++) {
		a[s] = (float)(3 * wv_ricker(f, (s + 1) * dt - 0.1503));
		b[s] = (float)wv_ricker(f, (s + 1) * dt - 0.2503);
		c[s] = (float)wv_ricker(f / 2, (s + 1) * dt - 0.2503);
	}
	t = wv_pick(a, N, 100, 200, dt, &x);
	assert_true(fabs(t - 0.1503) < 0.1 * dt);
	assert_true(fabs(x - 3) < 0.01);
	/* the window limits the search: outside the pulse, a small side lobe */
	t = wv_pick(a, N, 0, 100, dt, &x);
	assert_true(t < 0.101 && x < 0.01);
	assert_true(wv_pick(a, N, 50, 50, dt, &x) < 0);
	for (int i = 0; i < 4; i++)
		amp[i] = 2.5 / r[i];
	assert_true(fabs(wv_fit_inv_r(r, amp, 4, &dev) - 2.5) < 1e-12 && dev < 1e-12);
	for (int i = 0; i < 4; i++)
		amp[i] = 2.5 / pow(r[i], 1.5);
	wv_fit_inv_r(r, amp, 4, &dev);
	assert_true(dev > 0.10);
	/* the same pulse 0.1 s later correlates fully; a pulse twice as wide does not */
	assert_true(wv_corr(a, 0.1503, b, 0.2503, N, dt, 1 / f) > 0.9999);
	assert_true(wv_corr(a, 0.1503, c, 0.2503, N, dt, 1 / f) < 0.9);
}

/* max |u| after steps of the CPU stepper at dt = q dt_max, from a field of
 * +-1 alternating in x, y and z (the mode of the largest eigenvalue). */
static double blowup(double q, int steps)
{
	struct wv_layout l;
	struct fd_coef c;
	struct fd_grid g;
	float *f[2], *vel, *t;
	double dtm, m = 0;
	wv_layout_of(24, 24, 24, wave_k_RADIUS, &l);
	g = (struct fd_grid){ l.nx, l.ny, l.nz, l.ld, l.slice };
	wave_k_coef(&c, 10, 10, 10);
	dtm = wv_dt_max(c.c0, c.x, c.y, c.z, wave_k_RADIUS, 2000);
	assert_non_null(f[0] = calloc((size_t)l.total, sizeof(float)));
	assert_non_null(f[1] = calloc((size_t)l.total, sizeof(float)));
	assert_non_null(vel = calloc((size_t)l.total, sizeof(float)));
	wv_model_layers(&l, vel, 2000, 2000, 0, q * dtm);
	for (int k = 0; k < l.nz; k++)
		for (int j = 0; j < l.ny; j++)
			for (int i = 0; i < l.nx; i++)
				f[0][l.origin + i + j * l.ld + k * l.slice] =
				f[1][l.origin + i + j * l.ld + k * l.slice] = (i + j + k) % 2 ? 1.0f : -1.0f;
	for (int s = 0; s < steps; s++) {
		wave_k_launch(f[1] + l.origin, f[0] + l.origin, vel + l.origin, g, &c, NULL);
		t = f[0];
		f[0] = f[1];
		f[1] = t;
	}
	for (long long i = 0; i < l.total; i++)
		m = isnan(f[0][i]) || isinf(m) ? INFINITY : fabs(f[0][i]) > m ? fabs(f[0][i]) : m;
	free(f[0]);
	free(f[1]);
	free(vel);
	return m;
}

static void stability(void **st)
{
	struct fd_coef c;
	double lo, hi;
	(void)st;
	wave_k_coef(&c, 10, 10, 10);
	/* R = 8, h = 10 m, v = 2000 m/s: v dt / h at the bound, about 0.424 */
	print_message("bound: v dt / h = %.4f\n", wv_dt_max(c.c0, c.x, c.y, c.z, wave_k_RADIUS, 2000) * 200);
	lo = blowup(0.97, 300);
	hi = blowup(1.03, 300);
	print_message("max |u| after 300 steps: %.3g at 0.97 of the bound, %.3g at 1.03\n", lo, hi);
	assert_true(lo < 10);
	assert_true(hi > 1e3);
}

/* The propagator of wave_run.c on the CPU stepper, homogeneous 2000 m/s. */
static void propagate_cpu(void **st)
{
	const struct setup u = { 2000, 10, 1.25e-3, 15, 48, 240, 14, 3, { 8, 14, 20 } };
	struct wv_run w = { 0 };
	float *vel;
	char err[512];
	(void)st;
	wv_layout_of(48, 48, 48, wave_k_RADIUS, &w.l);
	assert_non_null(vel = calloc((size_t)w.l.total, sizeof *vel));
	wv_model_layers(&w.l, vel, u.v, u.v, 0, u.dt);
	wave_k_coef(&w.c, u.h, u.h, u.h);
	w.vel = vel;
	w.h[0] = w.h[1] = w.h[2] = u.h;
	w.dt = u.dt;
	w.f0 = u.f0;
	w.t0 = 1.5 / u.f0;
	w.nt = u.nt;
	w.src[0] = u.sx;
	w.src[1] = w.src[2] = w.rec[0] = w.rec[1] = 24;
	assert_non_null(w.seis = malloc((size_t)u.nt * u.nx * sizeof *w.seis));
	assert_non_null(w.slice = malloc((size_t)48 * 48 * sizeof *w.slice));
	if (wv_run(&w, err, sizeof err))
		fail_msg("%s", err);
	physics(&u, w.seis);
	free(vel);
	free(w.seis);
	free(w.slice);
}


/* --model FILE: a raw float32 file of two layers gives the seismogram of
 * --vel with --interface (to rounding: (v dt)^2 is formed in another
 * order); a file of the wrong size is refused, saying so. On the CPU. */
static void model_file(void **st)
{
	enum { NX = 24, NY = 20, NZ = 16, NT = 40 };
	const char *root = getenv("ROOT");
	char cmd[4096], path[600];
	static float v[NZ][NY][NX], a[NT * NX], b[NT * NX];
	FILE *f;
	(void)st;
	if (!root)
		skip();
	for (int k = 0; k < NZ; k++)
		for (int j = 0; j < NY; j++)
			for (int i = 0; i < NX; i++)
				v[k][j][i] = k < 9 ? 1500 : 2500;
	snprintf(path, sizeof path, "%s/model.bin", dir);
	assert_non_null(f = fopen(path, "wb"));
	assert_int_equal(fwrite(v, sizeof v, 1, f), 1);
	assert_int_equal(fclose(f), 0);
	snprintf(cmd, sizeof cmd, "cd %s && B='%s/build/example/wave-cpu -n 24x20x16 -t 40 --dt 1e-3 "
		 "--src 12,10,6 --no-plot' && $B --model model.bin --out m >/dev/null && "
		 "$B --vel 1500,2500 --interface 9 --out l >/dev/null && "
		 "! $B --model model.bin -n 24x20x15 --out e 2>e.txt && grep -q 'more than' e.txt && "
		 "! $B --model model.bin -n 24x20x17 --out e 2>e.txt && grep -q 'fewer than' e.txt",
		 dir, root);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof path, "%s/m/seismogram.bin", dir);
	assert_non_null(f = fopen(path, "rb"));
	assert_int_equal(fread(a, sizeof a, 1, f), 1);
	fclose(f);
	snprintf(path, sizeof path, "%s/l/seismogram.bin", dir);
	assert_non_null(f = fopen(path, "rb"));
	assert_int_equal(fread(b, sizeof b, 1, f), 1);
	fclose(f);
	{
		double m = 0, e = 0;
		for (int i = 0; i < NT * NX; i++) {
			m = fabs(b[i]) > m ? fabs(b[i]) : m;
			e = fabs(a[i] - b[i]) > e ? fabs(a[i] - b[i]) : e;
		}
		assert_true(m > 0);
		assert_true(e <= 1e-5 * m);
	}
}
/* 0 when a GPU of either vendor answers. */
static int no_gpu(void)
{
	return system("nvidia-smi -L >/dev/null 2>&1 || test -e /dev/kfd");
}


/* 0 when gfortran is here. */
static int have_fortran(void)
{
	return !system("{ command -v gfortran || command -v gfortran-12; } >/dev/null 2>&1");
}

/* The C and the Fortran drivers (dir/c and dir/f) write the same
 * seismogram and slice, byte for byte, with options opt. */
static void same_output(const char *c, const char *f, const char *opt)
{
	char cmd[4096], path[600];
	float x, m = 0;
	FILE *in;
	snprintf(cmd, sizeof cmd, "'%s' %s --out %s/c --no-plot >/dev/null && "
		 "'%s' %s --out %s/f >/dev/null && cmp %s/c/seismogram.bin %s/f/seismogram.bin "
		 "&& cmp %s/c/slice.bin %s/f/slice.bin",
		 c, opt, dir, f, opt, dir, dir, dir, dir, dir);
	assert_int_equal(system(cmd), 0);
	/* and a wave went past the receivers */
	snprintf(path, sizeof path, "%s/c/seismogram.bin", dir);
	assert_non_null(in = fopen(path, "rb"));
	while (fread(&x, sizeof x, 1, in) == 1)
		m = fabsf(x) > m ? fabsf(x) : m;
	fclose(in);
	assert_true(m > 0);
}

/* wave.f90 against wave.c, both on the CPU stepper: a two-layer model. */
static void fortran_cpu(void **st)
{
	const char *root = getenv("ROOT");
	char cmd[4096], c[600], f[600];
	(void)st;
	if (!root || !have_fortran())
		skip();
	snprintf(cmd, sizeof cmd, "make --no-print-directory -C '%s' build/example/wave-cpu "
		 "build/example/wave_f-cpu >&2", root);
	assert_int_equal(system(cmd), 0);
	snprintf(c, sizeof c, "%s/build/example/wave-cpu", root);
	snprintf(f, sizeof f, "%s/build/example/wave_f-cpu", root);
	same_output(c, f, "-n 40x36x32 -t 80 --vel 1800,2600 --interface 20 --src 18,17,12 "
		    "-f 18 --dx 12");
}

/* wave.f90 against wave.c on the GPU, both linked with the same kernel
 * objects. Where gfortran is, make builds them; where it is not, a pair
 * built elsewhere and carried here (build/example/wave and wave_f) is used
 * as it is: make would rebuild wave alone. Runs before the other GPU cases,
 * which run make. */
static void fortran_gpu(void **st)
{
	const char *root = getenv("ROOT");
	char cmd[4096], c[600], f[600];
	(void)st;
	if (!root || no_gpu())
		skip();
	snprintf(c, sizeof c, "%s/build/example/wave", root);
	snprintf(f, sizeof f, "%s/build/example/wave_f", root);
	if (have_fortran()) {
		snprintf(cmd, sizeof cmd, "make --no-print-directory -C '%s' build/example/wave "
			 "build/example/wave_f >&2", root);
		assert_int_equal(system(cmd), 0);
	} else if (access(f, X_OK) || access(c, X_OK)) {
		print_message("no gfortran, and no %s and %s built elsewhere: run `make "
			      "build/example/wave build/example/wave_f` where gfortran is and "
			      "carry build/example/\n", c, f);
		skip();
	}
	same_output(c, f, "-n 200x180x160 -t 300 --src 90,90,60 --interface 80");
}
/* The GPU case, homogeneous on 256^3 (reflections after the windows). */
static const struct setup gpu_case = { 2000, 10, 1.25e-3, 15, 256, 800, 40, 5,
				       { 20, 40, 80, 120, 160 } };
static const char gpu_opts[] = "-n 256 --dx 10 --vel 2000 --dt 0.00125 -f 15 -t 800 "
			       "--src 40,128,128 --no-plot";

/* Runs the example exe with gpu_opts into dir/sub and checks the physics
 * of its seismogram. */
static void run_gpu_case(const char *exe, const char *sub)
{
	const struct setup *u = &gpu_case;
	char cmd[4096], path[600];
	float *seis;
	FILE *f;
	snprintf(cmd, sizeof cmd, "'%s' %s --out %s/%s", exe, gpu_opts, dir, sub);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof path, "%s/%s/seismogram.bin", dir, sub);
	assert_non_null(f = fopen(path, "rb"));
	assert_non_null(seis = malloc((size_t)u->nt * u->nx * sizeof *seis));
	assert_int_equal(fread(seis, sizeof *seis, (size_t)u->nt * u->nx, f), (size_t)u->nt * u->nx);
	fclose(f);
	physics(u, seis);
	free(seis);
}

/* The example on the GPU: built by make, run homogeneous on 256^3. */
static void propagate_gpu(void **st)
{
	const char *root = getenv("ROOT");
	char cmd[4096], exe[600];
	(void)st;
	if (!root || no_gpu())
		skip();
	snprintf(cmd, sizeof cmd, "make --no-print-directory -C '%s' build/example/wave >&2", root);
	assert_int_equal(system(cmd), 0);
	snprintf(exe, sizeof exe, "%s/build/example/wave", root);
	run_gpu_case(exe, "gpu");
}

/* The example at 512^3 on the GPU loses under 5% of its time loop to what
 * is not the exported kernel (injection, receivers, launches). */
static void speed_gpu(void **st)
{
	const char *root = getenv("ROOT");
	char cmd[4096], line[512];
	double lost = 100;      /* unless printed */
	FILE *p;
	(void)st;
	if (!root || no_gpu())
		skip();
	snprintf(cmd, sizeof cmd, "make --no-print-directory -C '%s' build/example/wave >&2 && "
		 "'%s/build/example/wave' -n 512 -t 300 --out %s/speed --no-plot", root, root, dir);
	assert_non_null(p = popen(cmd, "r"));
	while (fgets(line, sizeof line, p)) {
		const char *s = strstr(line, "the loop loses ");
		print_message("%s", line);
		if (s)
			sscanf(s, "the loop loses %lf%%", &lost);
	}
	assert_int_equal(pclose(p), 0);
	assert_true(lost >= -5 && lost < 5);
}

/* The database the online cases take their candidates from. */
static const char *online_db(void)
{
	static char p[1024];
	if (getenv("RESULTS_DB") && *getenv("RESULTS_DB") == '/')
		return getenv("RESULTS_DB");
	if (!getcwd(p, sizeof p - 64))
		return "";
	strcat(p, "/");
	strcat(p, getenv("RESULTS_DB") ? getenv("RESULTS_DB") : "results/h100/fdtune.db");
	return p;
}

/* --online on the CPU stepper: the candidates are taken and dropped
 * untried (no GPU here; on a GPU host, fields in host memory), said in the
 * report, the seismogram is wave_k's, bit for bit, and nothing is recorded
 * in the database (a copy, byte for byte as before). */
static void online_cpu(void **st)
{
	const char *root = getenv("ROOT");
	char cmd[4096], out[600];
	FILE *f;
	(void)st;
	if (!root || access(online_db(), R_OK))
		skip();
	snprintf(out, sizeof out, "%s/online.txt", dir);
	snprintf(cmd, sizeof cmd, "cd %s && cp '%s' o.db && B='%s/build/example/wave-cpu -n "
		 "40x36x32 -t 30 --no-plot' && $B --out plain >/dev/null && $B --out online "
		 "--online o.db >%s 2>&1 && cmp plain/seismogram.bin online/seismogram.bin && "
		 "grep -q 'online tuning of iso3dfd R=8 40x36x32 fp32' %s && "
		 "grep -q 'dropped' %s && grep -q 'online: settled after 0 steps (0 waiting for the compiles, 0 trying) on wave_k' %s && "
		 "grep -Eq 'fdtune online: (no GPU 0 here|field 0 of the step is not in the memory of GPU 0)' %s && "
		 "cmp o.db '%s' && ! test -e o.db-wal && "
		 "! $B --out e --online %s/none.db 2>e.txt && grep -q 'no database' e.txt",
		 dir, online_db(), root, out, out, out, out, out, online_db(), dir);
	if (system(cmd)) {
		char line[512];
		if ((f = fopen(out, "r"))) {
			while (fgets(line, sizeof line, f))
				print_message("%s", line);
			fclose(f);
		}
		fail_msg("%s", cmd);
	}
}

/* examples/wave/CMakeLists.txt against `make install` into a temporary
 * prefix: find_package(fdtune) and fdtune_add_kernels export the kernel at
 * build time, and nvcc compiles it for sm_90 (gfortran the Fortran driver,
 * where it is). On a GPU the CMake build then runs the homogeneous case of
 * propagate_gpu and must pass the same physics checks. */
static void cmake_build(void **st)
{
	const char *root = getenv("ROOT");
	char cmd[8192], path[600];
	(void)st;
	if (!root || system("command -v cmake >/dev/null 2>&1") ||
	    system("command -v nvcc >/dev/null 2>&1 || test -x /usr/local/cuda/bin/nvcc"))
		skip();
	snprintf(cmd, sizeof cmd, "make --no-print-directory -C '%s' install PREFIX=%s/prefix "
		 "INST=%s/inst >&2 && cmake -S '%s/examples/wave' -B %s/cmake -DCMAKE_PREFIX_PATH=%s/prefix "
		 "-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_COMPILER=$(command -v nvcc || echo "
		 "/usr/local/cuda/bin/nvcc) >&2 && cmake --build %s/cmake -j2 >&2 && test -x %s/cmake/wave",
		 root, dir, dir, root, dir, dir, dir, dir);
	assert_int_equal(system(cmd), 0);
	if (have_fortran()) {
		snprintf(path, sizeof path, "%s/cmake/wave_f", dir);
		assert_int_equal(access(path, X_OK), 0);
	}
	if (no_gpu())
		return;
	snprintf(path, sizeof path, "%s/cmake/wave", dir);
	run_gpu_case(path, "cmake-out");
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(analysis),
		cmocka_unit_test(stability),
		cmocka_unit_test(propagate_cpu),
		cmocka_unit_test(model_file),
		cmocka_unit_test(fortran_cpu),
		cmocka_unit_test(fortran_gpu),
		cmocka_unit_test(propagate_gpu),
		cmocka_unit_test(speed_gpu),
		cmocka_unit_test(online_cpu),
		cmocka_unit_test(cmake_build) };
	int rc;
	if (!mkdtemp(dir))
		return 1;
	rc = cmocka_run_group_tests_name("example", t, NULL, NULL);
	t_rmtree(dir);
	return rc;
}
