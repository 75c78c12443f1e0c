! f90_layout.f90: the Fortran half of the check that NAME.f90 of fdtune
! export --fortran matches NAME.h (tests/f90_layout.c has the C half). It
! uses module k_fdtune of an export named k, measures the offsets and sizes
! the Fortran compiler gave fd_grid and fd_coef, passes a grid by value as
! k_launch does and compares k_coef's weights with C's for a few spacings.
! Prints "layout ok" and exits 0, or says what differs and stops with 1.
program f90_layout
  use, intrinsic :: iso_c_binding
  use k_fdtune
  implicit none
  interface
    function check_layout(off, gsize, csize) result(bad) bind(C, name="fd_check_layout")
      import :: c_int, c_long_long, c_size_t
      integer(c_long_long), intent(in) :: off(9)
      integer(c_size_t), value :: gsize, csize
      integer(c_int) :: bad
    end function check_layout
    function check_grid(g) result(bad) bind(C, name="fd_check_grid")
      import :: c_int, fd_grid
      type(fd_grid), value :: g
      integer(c_int) :: bad
    end function check_grid
    function check_coef(c, hx, hy, hz) result(bad) bind(C, name="fd_check_coef")
      import :: c_int, c_double, fd_coef
      type(fd_coef), intent(in) :: c
      real(c_double), value :: hx, hy, hz
      integer(c_int) :: bad
    end function check_coef
  end interface
  type(fd_grid), target :: g
  type(fd_coef), target :: c
  integer(c_long_long) :: off(9)
  real(c_double), parameter :: h(3, 4) = reshape([ 1d0, 1d0, 1d0, 10d0, 12.5d0, 7d0, &
    0.3d0, 3d-3, 17d0, 1d-1, 1d-1, 2d-1 ], [3, 4])
  integer :: bad, i

  off(1) = at(c_loc(g%nx)) - at(c_loc(g))
  off(2) = at(c_loc(g%ny)) - at(c_loc(g))
  off(3) = at(c_loc(g%nz)) - at(c_loc(g))
  off(4) = at(c_loc(g%ld)) - at(c_loc(g))
  off(5) = at(c_loc(g%slice)) - at(c_loc(g))
  off(6) = at(c_loc(c%c0)) - at(c_loc(c))
  off(7) = at(c_loc(c%x)) - at(c_loc(c))
  off(8) = at(c_loc(c%y)) - at(c_loc(c))
  off(9) = at(c_loc(c%z)) - at(c_loc(c))
  bad = check_layout(off, c_sizeof(g), c_sizeof(c))
  g = fd_grid(61, -37, 29, 128, 5000000007_c_long_long)
  bad = bad + check_grid(g)
  do i = 1, size(h, 2)
    call k_coef(c, h(1, i), h(2, i), h(3, i))
    bad = bad + check_coef(c, h(1, i), h(2, i), h(3, i))
  end do
  if (k_radius < 1 .or. k_radius > 8) bad = bad + 1
  if (bad /= 0) then
    print '(i0, a)', bad, " differences between k.f90 and k.h"
    error stop 1
  end if
  print '(a, i0, a, i0)', "layout ok: radius ", k_radius, ", element bytes ", &
    c_sizeof(c%c0)

contains

  function at(p) result(a)
    type(c_ptr), intent(in) :: p
    integer(c_long_long) :: a
    a = transfer(p, a)
  end function at

end program f90_layout
