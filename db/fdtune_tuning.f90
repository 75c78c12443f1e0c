! fdtune_tuning.f90: libfdtune's online tuning (fdtune.h's fdtune_online_*)
! for Fortran, module fdtune_tuning, beside module fdtune (fdtune.f90),
! whose fdtune_config and fdtune_string it uses. Apart from fdtune so that a
! program of lookups links only SQLite; this one links what `pkg-config
! --static --libs fdtune` says (the run-time compiler, zlib, OpenMP,
! threads). The program's own kernel is a bind(C) function
!   integer(c_int) function k(ctx, fields) bind(C)
! (ctx a type(c_ptr) by value, fields an array of type(c_ptr)), passed as
! c_funloc(k); grid and coef are c_loc of the export's fd_grid and fd_coef.
!   type(fdtune_online_t) :: ot
!   st = fdtune_online_open(path, family, radius, nx, ny, nz, precision, ot, err [, opts])
!   st = fdtune_online_step(ot, fields, grid, coef, c_funloc(k), ctx, err)
!   done = fdtune_online_settled(ot, cfg, steps, waited)
!   call fdtune_online_report(ot)    ! on standard output
!   call fdtune_online_close(ot)
! Compile it after fdtune.f90, with the program:
!   gfortran -I PREFIX/include PREFIX/include/fdtune.f90 PREFIX/include/fdtune_tuning.f90 \
!            prog.f90 $(pkg-config --static --libs fdtune)
module fdtune_tuning
  use, intrinsic :: iso_c_binding
  use fdtune, only: fdtune_config, fdtune_string
  implicit none
  private
  public :: fdtune_online_t, fdtune_online_opts, fdtune_online_open, fdtune_online_step, &
    fdtune_online_settled, fdtune_online_report, fdtune_online_close

  ! struct fdtune_online_opts of fdtune.h: 0 (and c_null_ptr) take defaults
  type, bind(C) :: fdtune_online_opts
    integer(c_int) :: gpu = 0, candidates = 0, tries = 0
    type(c_ptr) :: companion = c_null_ptr
  end type fdtune_online_opts

  ! An online tuning (fdtune_online * in C; Fortran's names ignore case, so
  ! it cannot be fdtune_online beside FDTUNE_ONLINE); as initialised, none.
  type :: fdtune_online_t
    type(c_ptr) :: p = c_null_ptr
  end type fdtune_online_t

  interface
    function c_online_open(path, family, radius, nx, ny, nz, precision, o, ot, err, n) &
        result(st) bind(C, name="fdtune_online_open")
      import :: c_char, c_int, c_ptr, c_size_t, fdtune_online_opts
      character(kind=c_char), intent(in) :: path(*), family(*), precision(*)
      integer(c_int), value :: radius, nx, ny, nz
      type(fdtune_online_opts), intent(in) :: o
      type(c_ptr), intent(out) :: ot
      character(kind=c_char), intent(out) :: err(*)
      integer(c_size_t), value :: n
      integer(c_int) :: st
    end function c_online_open
    function c_online_step(ot, fields, nfields, grid, coef, kernel, ctx, err, n) result(st) &
        bind(C, name="fdtune_online_step")
      import :: c_char, c_int, c_ptr, c_funptr, c_size_t
      type(c_ptr), value :: ot
      type(c_ptr), intent(in) :: fields(*)
      integer(c_int), value :: nfields
      type(c_ptr), value :: grid, coef, ctx
      type(c_funptr), value :: kernel
      character(kind=c_char), intent(out) :: err(*)
      integer(c_size_t), value :: n
      integer(c_int) :: st
    end function c_online_step
    function c_online_settled(ot, cfg, steps, waited) result(done) &
        bind(C, name="fdtune_online_settled")
      import :: c_int, c_ptr, c_long_long, fdtune_config
      type(c_ptr), value :: ot
      type(fdtune_config), intent(out) :: cfg
      integer(c_long_long), intent(out) :: steps, waited
      integer(c_int) :: done
    end function c_online_settled
    subroutine c_online_report(ot, out) bind(C, name="fdtune_online_report")
      import :: c_ptr
      type(c_ptr), value :: ot, out
    end subroutine c_online_report
    subroutine c_online_close(ot) bind(C, name="fdtune_online_close")
      import :: c_ptr
      type(c_ptr), value :: ot
    end subroutine c_online_close
  end interface

  integer, parameter :: errlen = 1024

contains

  ! Starts online tuning of the problem from the database at path (read
  ! only), on GPU opts%gpu (opts optional: GPU 0, 6 candidates, 5 tries).
  function fdtune_online_open(path, family, radius, nx, ny, nz, precision, ot, err, opts) &
      result(st)
    character(len=*), intent(in) :: path, family, precision
    integer, intent(in) :: radius, nx, ny, nz
    type(fdtune_online_t), intent(out) :: ot
    character(len=*), intent(out), optional :: err
    type(fdtune_online_opts), intent(in), optional :: opts
    integer :: st
    type(fdtune_online_opts) :: o
    character(kind=c_char) :: buf(errlen)

    if (present(opts)) o = opts
    buf(1) = c_null_char
    st = c_online_open(trim(path) // c_null_char, trim(family) // c_null_char, &
      int(radius, c_int), int(nx, c_int), int(ny, c_int), int(nz, c_int), &
      trim(precision) // c_null_char, o, ot%p, buf, int(errlen, c_size_t))
    if (present(err)) err = fdtune_string(buf)
  end function fdtune_online_open

  ! One time step on fields (device pointers at interior point (0,0,0), the
  ! output first): the program's kernel (kernel, called with ctx) or a
  ! candidate, as fdtune.h says.
  function fdtune_online_step(ot, fields, grid, coef, kernel, ctx, err) result(st)
    type(fdtune_online_t), intent(in) :: ot
    type(c_ptr), intent(in) :: fields(:)
    type(c_ptr), intent(in) :: grid, coef, ctx
    type(c_funptr), intent(in) :: kernel
    character(len=*), intent(out), optional :: err
    integer :: st
    character(kind=c_char) :: buf(errlen)

    buf(1) = c_null_char
    st = c_online_step(ot%p, fields, int(size(fields), c_int), grid, coef, kernel, ctx, buf, &
      int(errlen, c_size_t))
    if (present(err)) err = fdtune_string(buf)
  end function fdtune_online_step

  ! .true. once the choice is made: cfg the chosen (FDTUNE_ONLINE, or
  ! FDTUNE_DEFAULT for the program's kernel), steps and waited as in C.
  function fdtune_online_settled(ot, cfg, steps, waited) result(done)
    type(fdtune_online_t), intent(in) :: ot
    type(fdtune_config), intent(out) :: cfg
    integer(c_long_long), intent(out) :: steps, waited
    logical :: done

    done = c_online_settled(ot%p, cfg, steps, waited) /= 0
  end function fdtune_online_settled

  ! What was tried, what won and what it cost, on standard output.
  subroutine fdtune_online_report(ot)
    type(fdtune_online_t), intent(in) :: ot

    if (c_associated(ot%p)) call c_online_report(ot%p, c_null_ptr)
  end subroutine fdtune_online_report

  ! Stops the compiles and frees ot, which is then none.
  subroutine fdtune_online_close(ot)
    type(fdtune_online_t), intent(inout) :: ot

    if (c_associated(ot%p)) call c_online_close(ot%p)
    ot%p = c_null_ptr
  end subroutine fdtune_online_close

end module fdtune_tuning
