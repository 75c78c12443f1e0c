/*
 * wave.c: the C driver of the acoustic wave propagator of examples/wave,
 * a worked example of a kernel exported by fdtune (`fdtune export -f
 * iso3dfd`, here named wave_k). It builds a velocity model (two layers by
 * default, one velocity, or a raw float32 file), injects a Ricker wavelet
 * at a source point, runs the time loop of wave_run.c on the GPU, records a
 * receiver line, and writes a seismogram and a wavefield slice (raw float32)
 * with a gnuplot script that draws both as PNGs. It prints the grid, dt,
 * the CFL number against the stencil's bound, and Gpts/s over the time loop
 * beside the kernel's own figure.
 */
#include "wave_run.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char usage[] =
"usage: wave [options]\n"
"Acoustic wave propagation with the iso3dfd kernel fdtune exported (wave_k.h):\n"
"a Ricker source, a receiver line along x, reflecting (pressure-release) faces.\n"
"  -n, --size N|XxYxZ  grid points (default 256)\n"
"      --dx H          grid spacing in m, every axis (default 10)\n"
"  -t, --steps N       time steps (default 600)\n"
"      --dt S          time step in s (default: from --cfl)\n"
"      --cfl C         vmax dt / dx when --dt is not given (default 0.25)\n"
"      --vel V1[,V2]   velocities in m/s: V1 above the interface, V2 below\n"
"                      (default 2000,3000); one value: a homogeneous model\n"
"      --interface Z   depth of the interface in grid points (default nz/2)\n"
"      --model FILE    velocities from a raw float32 file in m/s, x fastest,\n"
"                      of the dimensions given with -n\n"
"  -f, --freq F        peak frequency of the Ricker wavelet in Hz (default 15);\n"
"                      it peaks 1.5 / F s after the start\n"
"      --src X,Y,Z     source point (default nx/2, ny/2, 9 nz / 20)\n"
"      --rec-z Z       depth of the receiver line (default the source's); the\n"
"                      line runs along x at the source's y, one receiver a point\n"
"  -o, --out DIR       output directory (default wave_out): seismogram.bin\n"
"                      (steps x nx float32), slice.bin (nz x nx, the last field\n"
"                      at the source's y), wave.gp, and with gnuplot\n"
"                      seismogram.png and wavefield.png\n"
"      --no-plot       do not run gnuplot\n"
"      --online DB     tune the kernel in this run (libfdtune's online tuning):\n"
"                      the best kernels of fdtune database DB for this problem's\n"
"                      kin (other sizes, other GPUs), compiled in the background\n"
"                      from the sources DB keeps, each validated against wave_k,\n"
"                      then timed in turn in the time loop's steps; the fastest,\n"
"                      wave_k included, runs the rest; a report says what won\n"
"                      and what the tuning cost\n"
"      --tries N       online: timings of each kernel before the choice (5)\n"
"  -h, --help          this text\n"
"Exit status: 0 done (or no GPU here: built, nothing run), 1 failure, 2 usage.\n";

struct opts {
	int n[3], nt, zi, src[3], recz, plot;
	double dx, dt, cfl, v[2], f0;
	int nv;
	const char *model, *out;
	const char *online;     /* --online DB: tune the kernel in the run, from DB */
	int tries;
};

static int num(const char *s, const char *what, double lo, double hi, double *v, char *err, size_t n)
{
	char *end;
	errno = 0;
	*v = strtod(s, &end);
	if (errno || end == s || *end || !(*v >= lo && *v <= hi)) {
		snprintf(err, n, "%s '%s': a number from %g to %g", what, s, lo, hi);
		return 1;
	}
	return 0;
}

/* Up to m numbers separated by sep into v; their count in *k. */
static int list(const char *s, int sep, const char *what, double lo, double hi, double *v, int m,
		int *k, char *err, size_t n)
{
	char buf[256], *p = buf, *q;
	snprintf(buf, sizeof buf, "%s", s);
	for (*k = 0; p; p = q) {
		if ((q = strchr(p, sep)))
			*q++ = 0;
		if (*k == m) {
			snprintf(err, n, "%s '%s': at most %d values", what, s, m);
			return 1;
		}
		if (num(p, what, lo, hi, &v[(*k)++], err, n))
			return 1;
	}
	return 0;
}

static int parse(int argc, char **argv, struct opts *o, char *err, size_t n)
{
	static const struct option lo[] = {
		{ "size", 1, 0, 'n' }, { "dx", 1, 0, 0x100 }, { "steps", 1, 0, 't' },
		{ "dt", 1, 0, 0x101 }, { "cfl", 1, 0, 0x102 }, { "vel", 1, 0, 0x103 },
		{ "interface", 1, 0, 0x104 }, { "model", 1, 0, 0x105 }, { "freq", 1, 0, 'f' },
		{ "src", 1, 0, 0x106 }, { "rec-z", 1, 0, 0x107 }, { "out", 1, 0, 'o' },
		{ "no-plot", 0, 0, 0x108 }, { "online", 1, 0, 0x109 }, { "tries", 1, 0, 0x10a },
		{ "help", 0, 0, 'h' }, { 0, 0, 0, 0 }
	};
	double d[3];
	int c, k;
	*o = (struct opts){ { 256, 256, 256 }, 600, -1, { -1, -1, -1 }, -1, 1, 10, 0, 0.25,
			    { 2000, 3000 }, 15, 2, NULL, "wave_out", NULL, 0 };
	while ((c = getopt_long(argc, argv, "n:t:f:o:h", lo, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (list(optarg, 'x', "--size", 1, 4096, d, 3, &k, err, n))
				return 1;
			for (int i = 0; i < 3; i++)
				o->n[i] = (int)d[k == 3 ? i : 0];
			if (k == 2) {
				snprintf(err, n, "--size '%s': N or XxYxZ", optarg);
				return 1;
			}
			break;
		case 0x100: if (num(optarg, "--dx", 1e-6, 1e6, &o->dx, err, n)) return 1; break;
		case 't':
			if (num(optarg, "--steps", 1, 1e7, &d[0], err, n))
				return 1;
			o->nt = (int)d[0];
			break;
		case 0x101: if (num(optarg, "--dt", 1e-9, 10, &o->dt, err, n)) return 1; break;
		case 0x102: if (num(optarg, "--cfl", 1e-3, 1, &o->cfl, err, n)) return 1; break;
		case 0x103:
			if (list(optarg, ',', "--vel", 1, 1e5, o->v, 2, &o->nv, err, n))
				return 1;
			break;
		case 0x104:
			if (num(optarg, "--interface", 0, 4096, &d[0], err, n))
				return 1;
			o->zi = (int)d[0];
			break;
		case 0x105: o->model = optarg; break;
		case 'f': if (num(optarg, "--freq", 1e-3, 1e6, &o->f0, err, n)) return 1; break;
		case 0x106:
			if (list(optarg, ',', "--src", 0, 4095, d, 3, &k, err, n))
				return 1;
			if (k != 3) {
				snprintf(err, n, "--src '%s': X,Y,Z", optarg);
				return 1;
			}
			for (int i = 0; i < 3; i++)
				o->src[i] = (int)d[i];
			break;
		case 0x107:
			if (num(optarg, "--rec-z", 0, 4095, &d[0], err, n))
				return 1;
			o->recz = (int)d[0];
			break;
		case 'o': o->out = optarg; break;
		case 0x108: o->plot = 0; break;
		case 0x109: o->online = optarg; break;
		case 0x10a:
			if (num(optarg, "--tries", 1, 32, &d[0], err, n))
				return 1;
			o->tries = (int)d[0];
			break;
		case 'h': fputs(usage, stdout); exit(0);
		default: snprintf(err, n, "see --help"); return 1;
		}
	}
	if (optind < argc) {
		snprintf(err, n, "unexpected argument '%s'", argv[optind]);
		return 1;
	}
	if (o->src[0] < 0)
		for (int i = 0; i < 3; i++)
			o->src[i] = i < 2 ? o->n[i] / 2 : 9 * o->n[2] / 20;
	if (o->recz < 0)
		o->recz = o->src[2];
	if (o->zi < 0)
		o->zi = o->n[2] / 2;
	if (o->nv == 1)
		o->v[1] = o->v[0];
	for (int i = 0; i < 3; i++)
		if (o->src[i] >= o->n[i]) {
			snprintf(err, n, "--src %d,%d,%d: outside the grid %dx%dx%d", o->src[0], o->src[1],
				 o->src[2], o->n[0], o->n[1], o->n[2]);
			return 1;
		}
	if (o->recz >= o->n[2]) {
		snprintf(err, n, "--rec-z %d: below the grid (nz = %d)", o->recz, o->n[2]);
		return 1;
	}
	if (strchr(o->out, '\'')) {
		snprintf(err, n, "--out: a directory name without quotes, please");
		return 1;
	}
	return 0;
}

/* The magnitude that q of the n values of a stay within: the colour range. */
static float clip(const float *a, long long n, double q)
{
	float *b = malloc((size_t)n * sizeof *b), c;
	long long k = 0;
	if (!b)
		return 1;
	for (long long i = 0; i < n; i++)
		if (a[i])
			b[k++] = fabsf(a[i]);
	c = 0;
	for (long long i = 0; i < k; i++)
		c = b[i] > c ? b[i] : c;
	if (k) {
		float lo = 0, hi = c;
		for (int it = 0; it < 40; it++) {       /* bisect for the q quantile */
			const float mid = 0.5f * (lo + hi);
			long long below = 0;
			for (long long i = 0; i < k; i++)
				below += b[i] <= mid;
			if (below >= q * k)
				hi = mid;
			else
				lo = mid;
		}
		c = hi;
	}
	free(b);
	return c > 0 ? c : 1;
}

static int save(const char *dir, const char *name, const float *a, long long count, char *err,
		size_t n)
{
	char path[4096];
	FILE *f;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (!(f = fopen(path, "wb")) || fwrite(a, sizeof *a, (size_t)count, f) != (size_t)count ||
	    fclose(f)) {
		snprintf(err, n, "cannot write %.900s: %s", path, strerror(errno));
		return 1;
	}
	return 0;
}

/* wave.gp: the two PNGs from the raw files. */
static int script(const struct opts *o, const struct wv_run *w, char *err, size_t n)
{
	char path[4096];
	FILE *f;
	const int nx = o->n[0], nz = o->n[2];
	const double h = o->dx, cs = clip(w->slice, (long long)nx * nz, 0.995),
		     cr = clip(w->seis, (long long)w->nt * nx, 0.99);
	snprintf(path, sizeof path, "%s/wave.gp", o->out);
	if (!(f = fopen(path, "w"))) {
		snprintf(err, n, "cannot write %.900s: %s", path, strerror(errno));
		return 1;
	}
	fprintf(f, "# wave.gp: written by examples/wave; run `gnuplot wave.gp` in this directory.\n"
		"set terminal pngcairo size 900,760 noenhanced font 'sans,11'\n"
		"set palette defined (-1 '#2040a0', 0 'white', 1 '#b02020')\n"
		"set xlabel 'x (m)'\nset xrange [%g:%g]\nset yrange [%g:%g]\nset size ratio -1\n"
		"set output 'wavefield.png'\n"
		"set title 'pressure at t = %.3f s, plane y = %d; source at (%d,%d,%d)'\n"
		"set ylabel 'depth (m)'\nset cbrange [%g:%g]\n",
		-0.5 * h, (nx - 0.5) * h, (nz - 0.5) * h, -0.5 * h,
		w->nt * w->dt, o->src[1], o->src[0], o->src[1], o->src[2],
		-cs, cs);
	if (!o->model && o->v[0] != o->v[1])
		fprintf(f, "set arrow from 0,%g to %g,%g nohead front dashtype 2 lc 'black'\n"
			"set label '%g m/s' at %g,%g front\nset label '%g m/s' at %g,%g front\n",
			(o->zi - 0.5) * h, (nx - 1) * h, (o->zi - 0.5) * h, o->v[0], 0.02 * nx * h,
			(o->zi - 0.04 * nz) * h, o->v[1], 0.02 * nx * h, (o->zi + 0.06 * nz) * h);
	fprintf(f, "plot 'slice.bin' binary array=(%d,%d) format='%%float' dx=%g dy=%g with image "
		"notitle\nunset arrow\nunset label\nset size noratio\n"
		"set output 'seismogram.png'\n"
		"set title 'seismogram: %d receivers along x at y = %d, depth %d'\n"
		"set ylabel 'time (s)'\nset yrange [%g:%g]\nset cbrange [%g:%g]\n"
		"plot 'seismogram.bin' binary array=(%d,%d) format='%%float' dx=%g dy=%g "
		"origin=(0,%g) with image notitle\n",
		nx, nz, h, h, nx, o->src[1], o->recz, (w->nt + 0.5) * w->dt, 0.5 * w->dt, -cr, cr,
		nx, w->nt, h, w->dt, w->dt);
	if (ferror(f) | fclose(f)) {
		snprintf(err, n, "cannot write %.900s", path);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o;
	struct wv_run w = { 0 };
	struct wv_layout *l = &w.l;
	char err[1024], dev[256];
	float *vel = NULL;
	double vmin, vmax, dtmax, pts;
	int rc = 1;

	if (parse(argc, argv, &o, err, sizeof err)) {
		fprintf(stderr, "wave: %s\n", err);
		return 2;
	}
	if (wd_init(dev, sizeof dev)) {
		printf("wave: no GPU here (%s): built, nothing run\n", dev);
		return 0;
	}
	wv_layout_of(o.n[0], o.n[1], o.n[2], wave_k_RADIUS, l);
	wave_k_coef(&w.c, o.dx, o.dx, o.dx);
	vmin = o.v[0] < o.v[1] ? o.v[0] : o.v[1];
	vmax = o.v[0] < o.v[1] ? o.v[1] : o.v[0];
	w.nt = o.nt;
	w.h[0] = w.h[1] = w.h[2] = o.dx;
	w.f0 = o.f0;
	w.t0 = 1.5 / o.f0;
	memcpy(w.src, o.src, sizeof w.src);
	w.rec[0] = o.src[1];
	w.rec[1] = o.recz;
	if (!(vel = calloc((size_t)l->total, sizeof *vel)) ||
	    !(w.seis = malloc((size_t)o.nt * o.n[0] * sizeof *w.seis)) ||
	    !(w.slice = malloc((size_t)o.n[0] * o.n[2] * sizeof *w.slice))) {
		fprintf(stderr, "wave: out of host memory for %lld-point fields; choose a smaller grid\n",
			l->total);
		goto done;
	}
	if (o.model) {          /* the file's range sets dt: read it once at dt = 1 */
		if (wv_model_file(l, vel, o.model, 1, &vmin, &vmax, err, sizeof err))
			goto fail;
	}
	w.dt = o.dt > 0 ? o.dt : o.cfl * o.dx / vmax;
	dtmax = wv_dt_max(w.c.c0, w.c.x, w.c.y, w.c.z, wave_k_RADIUS, vmax);
	if (w.dt > dtmax) {
		fprintf(stderr, "wave: dt = %g s is unstable: CFL vmax dt / dx = %.3f is over the "
			"bound %.3f of this stencil; choose a smaller --dt\n", w.dt, vmax * w.dt / o.dx,
			vmax * dtmax / o.dx);
		rc = 2;
		goto done;
	}
	if (o.model) {
		for (long long i = 0; i < l->total; i++)
			vel[i] = (float)(vel[i] * w.dt * w.dt);
	} else {
		wv_model_layers(l, vel, o.v[0], o.v[1], o.zi, w.dt);
	}
	w.vel = vel;
	pts = (double)o.n[0] * o.n[1] * o.n[2];
	printf("wave: %s; kernel wave_k, iso3dfd R = %d (order %d) exported by fdtune\n"
	       "grid %dx%dx%d, dx = %g m; dt = %.4g ms, %d steps (%.3f s)\n",
	       dev, wave_k_RADIUS, 2 * wave_k_RADIUS, o.n[0], o.n[1], o.n[2], o.dx, w.dt * 1e3,
	       o.nt, o.nt * w.dt);
	{
		const char *why = "";
		wave_k_measured(o.n[0], o.n[1], o.n[2], &why);
		printf("kernel build: %s\n", why);
	}
	if (o.model)
		printf("model %s: %g to %g m/s\n", o.model, vmin, vmax);
	else if (o.v[0] == o.v[1])
		printf("model: homogeneous, %g m/s\n", o.v[0]);
	else
		printf("model: %g m/s above depth %d, %g m/s below\n", o.v[0], o.zi, o.v[1]);
	printf("CFL vmax dt / dx = %.3f (stable up to %.3f with these weights)\n"
	       "source: Ricker %g Hz at (%d,%d,%d), peak at %.4g s; %.1f points per wavelength "
	       "at 2.5 x %g Hz\nreceivers: %d along x at y = %d, depth %d\n",
	       vmax * w.dt / o.dx, vmax * dtmax / o.dx, o.f0, o.src[0], o.src[1], o.src[2], w.t0,
	       vmin / (2.5 * o.f0 * o.dx), o.f0, o.n[0], o.src[1], o.recz);
	if (o.online) {
		struct fdtune_online_opts oo = { 0, 0, o.tries, NULL };
		if (fdtune_online_open(o.online, "iso3dfd", wave_k_RADIUS, o.n[0], o.n[1], o.n[2],
				       "fp32", &oo, &w.ot, err, sizeof err))
			goto fail;
		printf("online tuning from %s: candidates compiling in the background\n", o.online);
	}
	fflush(stdout);
	if (wv_run(&w, err, sizeof err))
		goto fail;
	if (w.ot) {
		struct fdtune_config cfg;
		long long steps = 0, waited = 0;
		fdtune_online_report(w.ot, stdout);
		if (fdtune_online_settled(w.ot, &cfg, &steps, &waited))
			printf("online: settled after %lld steps (%lld waiting for the compiles, %lld "
			       "trying) on %s\n", steps, waited, steps - waited,
			       cfg.source == FDTUNE_ONLINE ? cfg.params : "wave_k");
		else
			printf("online: not settled within %d steps\n", o.nt);
	}
	{
		const double loop = w.loop_ms / o.nt, kern = w.kern_ms / w.kern_steps;
		printf("time loop: %.1f ms, %.3f ms a step, %.3g Gpts/s\n"
		       "kernel alone (%d steps): %.3f ms a step, %.3g Gpts/s; the loop loses %.1f%% "
		       "to everything else\n", w.loop_ms, loop, pts / loop * 1e-6, w.kern_steps, kern,
		       pts / kern * 1e-6, 100 * (loop - kern) / loop);
	}
	if (mkdir(o.out, 0777) && errno != EEXIST) {
		snprintf(err, sizeof err, "--out %s: %s", o.out, strerror(errno));
		goto fail;
	}
	if (save(o.out, "seismogram.bin", w.seis, (long long)o.nt * o.n[0], err, sizeof err) ||
	    save(o.out, "slice.bin", w.slice, (long long)o.n[0] * o.n[2], err, sizeof err) ||
	    script(&o, &w, err, sizeof err))
		goto fail;
	printf("wrote %s/seismogram.bin (%d x %d float32), slice.bin (%d x %d), wave.gp\n",
	       o.out, o.nt, o.n[0], o.n[2], o.n[0]);
	if (o.plot) {
		char cmd[4200];
		if (system("command -v gnuplot >/dev/null 2>&1")) {
			printf("no gnuplot here: run `gnuplot wave.gp` in %s for the PNGs\n", o.out);
		} else {
			snprintf(cmd, sizeof cmd, "cd '%s' && gnuplot wave.gp", o.out);
			if (system(cmd)) {
				snprintf(err, sizeof err, "gnuplot failed on %s/wave.gp", o.out);
				goto fail;
			}
			printf("drew %s/wavefield.png and %s/seismogram.png\n", o.out, o.out);
		}
	}
	rc = 0;
	goto done;
fail:
	fprintf(stderr, "wave: %s\n", err);
done:
	fdtune_online_close(w.ot);
	free(vel);
	free(w.seis);
	free(w.slice);
	return rc;
}
