/*
 * tn_exp_f90.c: NAME.f90, the Fortran side of an exported kernel
 * (fdtune export --fortran). It writes module NAME_fdtune with
 *   fd_real            the kind of the fields' elements (c_float or c_double);
 *   fd_grid, fd_coef   bind(C) types laid out exactly as struct fd_grid and
 *                      struct fd_coef of NAME.h (x(0:8): C's indices),
 *                      written from a table of templates/fdt_abi.h's fields
 *                      that static assertions hold to the C structs;
 *   NAME_launch        a bind(C) interface to the launch function of NAME.cu,
 *                      device pointers and the stream as type(c_ptr), value;
 *   NAME_coef          NAME.h's static inline weights function, which has no
 *                      symbol to bind to, written again in Fortran with the
 *                      same double-precision operations in the same order, so
 *                      that it gives the same bits;
 *   NAME_radius        the stencil radius;
 * and a comment block with where the configuration came from, as NAME.h has.
 * Fortran names are at most 63 characters and start with a letter, so NAME
 * is at most 56 characters and starts with a letter (tn_exp_name).
 */
#include "fdt_rc.h"
#include "tn_export.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* templates/fdt_abi.h's structs field by field, in order: the struct, the
 * field, its C type, its Fortran type, its elements (1: a scalar). */
#define ABI_FIELDS(F) \
	F(fd_grid, nx, int, "integer(c_int)", 1) F(fd_grid, ny, int, "integer(c_int)", 1) \
	F(fd_grid, nz, int, "integer(c_int)", 1) F(fd_grid, ld, int, "integer(c_int)", 1) \
	F(fd_grid, slice, long long, "integer(c_long_long)", 1) \
	F(fd_coef, c0, fd_real, "real(fd_real)", 1) F(fd_coef, x, fd_real, "real(fd_real)", 9) \
	F(fd_coef, y, fd_real, "real(fd_real)", 9) F(fd_coef, z, fd_real, "real(fd_real)", 9)

/* Each field of the table is in the C struct with its type and elements... */
#define ABI_FIELD_IS(s, f, t, ft, c) \
	_Static_assert(sizeof ((struct s *)0)->f == (c) * sizeof(t) && \
		       _Generic(((struct s *)0)->f, t: (c) == 1, t *: (c) > 1, default: 0), \
		       "fdt_abi.h: " #s "." #f " is not as tn_exp_f90.c's table says");
ABI_FIELDS(ABI_FIELD_IS)
/* ...and the table's fields of a struct fill it; their order is checked
 * where the types are written (abi_types). */
#define ABI_GRID_BYTES(s, f, t, ft, c) + _Generic((struct s *)0, struct fd_grid *: (c) * sizeof(t), \
						  default: 0)
#define ABI_COEF_BYTES(s, f, t, ft, c) + _Generic((struct s *)0, struct fd_coef *: (c) * sizeof(t), \
						  default: 0)
_Static_assert(0 ABI_FIELDS(ABI_GRID_BYTES) == sizeof(struct fd_grid),
	       "fdt_abi.h: struct fd_grid has fields tn_exp_f90.c's table lacks");
_Static_assert(0 ABI_FIELDS(ABI_COEF_BYTES) == sizeof(struct fd_coef),
	       "fdt_abi.h: struct fd_coef has fields tn_exp_f90.c's table lacks");

#define ABI_ROW(s, f, t, ft, c) { #s, #f, ft, c, offsetof(struct s, f) },
static const struct abi_field {
	const char *s, *f, *ft;
	int c;
	size_t off;
} abi_fields[] = { ABI_FIELDS(ABI_ROW) };

/* The bind(C) types of the table, consecutive fields of one type and
 * length on one line; fails when the table's order is not C's. */
static int abi_types(FILE *o, char *err, size_t n)
{
	static const struct { const char *s, *doc; } doc[] = {
		{ "fd_grid", "interior points, and the lengths of a row and of a plane\n  ! in elements" },
		{ "fd_coef", "the centre weight and the weights k = 1..radius of each\n"
			     "  ! axis, indexed from 0 as in C" },
	};
	const int nf = (int)(sizeof abi_fields / sizeof abi_fields[0]);
	for (size_t d = 0; d < sizeof doc / sizeof doc[0]; d++) {
		const struct abi_field *prev = NULL;
		fprintf(o, "  ! struct %s: %s\n  type, bind(C) :: %s\n", doc[d].s, doc[d].doc, doc[d].s);
		for (int i = 0; i < nf; i++) {
			const struct abi_field *a = &abi_fields[i];
			if (strcmp(a->s, doc[d].s))
				continue;
			if (prev && a->off <= prev->off)
				return snprintf(err, n, "templates/fdt_abi.h: %s.%s is not after %s in C, as "
						"tn_exp_f90.c's table has it", a->s, a->f, prev->f), FDT_FAIL;
			if (!prev || strcmp(a->ft, prev->ft) || a->c != prev->c)
				fprintf(o, "%s    %s :: ", prev ? "\n" : "", a->ft);
			else
				fprintf(o, ", ");
			fprintf(o, a->c > 1 ? "%s(0:%d)" : "%s", a->f, a->c - 1);
			prev = a;
		}
		fprintf(o, "\n  end type %s\n\n", doc[d].s);
	}
	return FDT_OK;
}

/* The comment block: the problem and, for each run, where it came from. */
static void provenance(FILE *o, const char *name, const struct db_pick *p, int np, char cfg[][512],
		       const char *db_path)
{
	struct tn_exp_said q;
	tn_exp_say(p, db_path, &q);
	fprintf(o, "! %s.f90: the Fortran interface of %s.cu (see %s.h), exported by fdtune\n"
		"! from the database\n!   %s\n! DO NOT EDIT; export again.\n"
		"! %s, R = %d, order %d, %s.\n", name, name, name, q.db, p->family, p->radius,
		2 * p->radius, q.precision);
	for (int i = 0; i < np; i++) {
		tn_exp_say(&p[i], db_path, &q);
		fprintf(o, "! %s on %s (%s), run %lld, for %dx%dx%d:\n"
			"!   %.4f ms, %.1f GB/s, %.1f%% of the copy bandwidth fdtune measured there\n"
			"!   (recorded %s); configuration:\n!   %s\n",
			np > 1 ? "Selected" : "Tuned", q.device, q.arch, p[i].run, p[i].nx,
			p[i].ny, p[i].nz, p[i].median_ms, p[i].gbs, p[i].pct_copy, q.created, cfg[i]);
	}
	if (np > 1)
		fprintf(o, "! On any other device: the family default,\n!   %s\n", cfg[np]);
}

int tn_exp_f90(FILE *o, const char *name, const struct tn_abi *abi, const struct db_pick *p,
	       int np, char cfg[][512], const char *db_path, char *err, size_t n)
{
	const char *real = strcmp(p->precision, "fp64") ? "c_float" : "c_double";
	const char *args = abi->args;
	const struct tn_family *f = tn_family(p->family);
	double w[TN_RMAX + 1];
	char s[3][32];
	const char *one = "1.0_c_double", *zero = "0.0_c_double";
	char prec[4 * sizeof p->precision];

	if (!f || tn_coef_unit(f, p->radius, w))
		return snprintf(err, n, "no weights for %s R=%d", p->family, p->radius), FDT_FAIL;
	for (int a = 0; a < 3; a++)     /* every h is used (-Wunused-dummy-argument) */
		tn_exp_scale(f, a, NULL, s[a], sizeof s[a]);
	provenance(o, name, p, np, cfg, db_path);
	fprintf(o, "!\n! Contract (as %s.h): %s are device pointers (type(c_ptr)) to interior\n"
		"! point (0,0,0) of fields with %d halo points on every side, rows of g%%ld\n"
		"! elements and planes of g%%slice elements; g%%ld a multiple of 4 and the\n"
		"! interior origin 16-byte aligned. Only the interior of %s is written.\n",
		name, args, p->radius, abi->out);
	if (abi->step)
		fprintf(o, "! One step: next = 2 prev - next + vel L(prev); swap next and prev between\n"
			"! steps.\n");
	fprintf(o, "!\n! Use:  use %s_fdtune\n"
		"!       call %s_coef(c, hx, hy, hz)          ! grid spacings, real(c_double)\n"
		"!       st = %s_launch(%s, g, c, stream)   ! 0, or the runtime's error\n"
		"! Compile this file with gfortran (or any Fortran 2008 compiler) and link\n"
		"! with %s.cu compiled by nvcc or hipcc and the CUDA or HIP runtime. A program\n"
		"! that uses several exports renames their types on use:\n"
		"!   use other_fdtune, other_grid => fd_grid, other_coef => fd_coef\n",
		name, name, name, args, name);
	fprintf(o, "module %s_fdtune\n  use, intrinsic :: iso_c_binding\n  implicit none\n"
		"  private\n  public :: fd_real, fd_grid, fd_coef, %s_radius, %s_launch, %s_coef\n\n"
		"  ! the kind of the fields' elements (%s)\n"
		"  integer, parameter :: fd_real = %s\n"
		"  integer, parameter :: %s_radius = %d\n\n",
		name, name, name, name, tn_exp_esc(p->precision, 0, prec, sizeof prec), real, name,
		p->radius);
	if (abi_types(o, err, n))
		return FDT_FAIL;
	fprintf(o, "  interface\n"
		"    ! Launches on stream (a cudaStream_t or hipStream_t; c_null_ptr for the\n"
		"    ! default stream); returns 0, or the runtime's error code for the launch.\n"
		"    function %s_launch(%s, g, c, stream) result(st) &\n"
		"        bind(C, name=\"%s_launch\")\n"
		"      import :: c_int, c_ptr, fd_grid, fd_coef\n"
		"      type(c_ptr), value :: %s\n      type(fd_grid), value :: g\n"
		"      type(fd_coef), intent(in) :: c\n      type(c_ptr), value :: stream\n"
		"      integer(c_int) :: st\n    end function %s_launch\n  end interface\n\n"
		"contains\n\n", name, args, name, args, name);
	fprintf(o, "  ! The weights of the %s derivatives of order %d along the axes of %s,\n"
		"  ! scaled by 1/h%s%s%s: %s_coef of %s.h, bit for bit.\n"
		"  subroutine %s_coef(c, hx, hy, hz)\n"
		"    type(fd_coef), intent(out) :: c\n"
		"    real(c_double), intent(in) :: hx, hy, hz\n"
		"    real(c_double), parameter :: w(0:%d) = [ &\n",
		f->d1 ? "first" : "second", 2 * p->radius, p->family, f->d1 ? "" : "**2",
		f->axes == 7 ? "" : ", zero on the others", f->d1 ? ", c0 = 0" : "", name, name,
		name, p->radius);
	for (int k = 0; k <= p->radius; k++)
		fprintf(o, "      %.17e_c_double%s\n", w[k], k < p->radius ? ", &" : " ]");
	fprintf(o, "    real(c_double) :: s(3)\n    integer :: k\n\n"
		"    s = [ %s, %s, %s ] * [ %s, %s, %s ]\n"
		"    c%%x = 0\n    c%%y = 0\n    c%%z = 0\n"
		"    do k = 1, %d\n"
		"      c%%x(k) = real(w(k) * s(1), fd_real)\n"
		"      c%%y(k) = real(w(k) * s(2), fd_real)\n"
		"      c%%z(k) = real(w(k) * s(3), fd_real)\n"
		"    end do\n"
		"    c%%c0 = real(w(0) * ((s(1) + s(2)) + s(3)), fd_real)\n"
		"  end subroutine %s_coef\n\nend module %s_fdtune\n", s[0], s[1], s[2],
		f->axes & 1 ? one : zero, f->axes & 2 ? one : zero, f->axes & 4 ? one : zero,
		p->radius, name, name);
	return FDT_OK;
}
