! f90_online.f90: libfdtune's online tuning through module fdtune_tuning, as a
! Fortran program calls it (tests/t_fortran.c runs it where no GPU is
! visible): the candidates of iso3dfd R = 8 at 800x240x160 from the
! database in the first argument, then steps whose own kernel is a bind(C)
! function that counts its calls. Prints "open ST", "calls N", "settled L
! SOURCE" and the report, then the error of a database that is not there.
module f90_online_kernel
  use, intrinsic :: iso_c_binding
  implicit none
  integer :: calls = 0
contains
  function own(ctx, fields) result(st) bind(C)
    type(c_ptr), value :: ctx
    type(c_ptr), intent(in) :: fields(*)
    integer(c_int) :: st
    if (c_associated(ctx) .or. c_associated(fields(1))) calls = calls - 1000
    calls = calls + 1
    st = 0
  end function own
end module f90_online_kernel

program f90_online
  use fdtune
  use fdtune_tuning
  use f90_online_kernel
  use, intrinsic :: iso_c_binding
  implicit none
  type(fdtune_online_t) :: ot
  type(fdtune_online_opts) :: o
  type(fdtune_config) :: cfg
  type(c_ptr) :: fields(3)
  type(c_funptr) :: kernel
  integer(c_int), target :: grid(6), coef(40)       ! stand-ins: the kernel gets them
  integer(c_long_long) :: steps, waited
  character(len=1024) :: path, err
  integer :: st, s
  logical :: done

  call get_command_argument(1, path)
  o%candidates = 2
  st = fdtune_online_open(path, 'iso3dfd', 8, 800, 240, 160, 'fp32', ot, err, o)
  print '(a, i0)', 'open ', st
  fields = c_null_ptr
  grid = 0
  coef = 0
  kernel = c_funloc(own)
  do s = 1, 5
    st = fdtune_online_step(ot, fields, c_loc(grid), c_loc(coef), kernel, c_null_ptr, err)
    if (st /= 0) print '(a)', trim(err)
  end do
  print '(a, i0)', 'calls ', calls
  done = fdtune_online_settled(ot, cfg, steps, waited)
  print '(a, l1, 1x, i0)', 'settled ', done, cfg%source
  flush(6)
  call fdtune_online_report(ot)
  call fdtune_online_close(ot)
  st = fdtune_online_open('/nonexistent/x.db', 'iso3dfd', 8, 800, 240, 160, 'fp32', ot, err)
  print '(a, i0, 1x, a)', 'open ', st, trim(err)
end program f90_online
