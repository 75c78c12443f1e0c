! fdtune.f90: libfdtune for Fortran, module fdtune. The same four calls as
! fdtune.h (the best configuration recorded in an fdtune database for a
! device and problem, else the nearest size, else a default), with Fortran
! strings: arguments are character(len=*), trimmed and passed to C with a
! terminating NUL; messages come back blank-padded in err.
!
!   type(fdtune_db)     :: db        ! an open database; unopened gives defaults
!   type(fdtune_config) :: c         ! struct fdtune_config, laid out as in C
!   st = fdtune_open(path, db, err)
!   st = fdtune_lookup(db, device, family, radius, nx, ny, nz, precision, c, err)
!   v  = fdtune_param(c, name, default)
!   s  = fdtune_string(c%params)     ! a C string field as a Fortran string
!   call fdtune_close(db)
!
! Online tuning is module fdtune_tuning (fdtune_tuning.f90, beside this
! file), apart so that a program of lookups links only SQLite.
!
! Functions return 0 on success, else a nonzero status with the message in
! err (optional). `make install` puts this source in PREFIX/include; compile
! it with the program, as .mod files differ between compilers and versions:
!   gfortran -I PREFIX/include PREFIX/include/fdtune.f90 prog.f90 \
!            -L PREFIX/lib -lfdtune -lsqlite3
module fdtune
  use, intrinsic :: iso_c_binding
  implicit none
  private
  public :: fdtune_db, fdtune_config, fdtune_open, fdtune_close, fdtune_lookup, &
    fdtune_lookup_by, fdtune_param, fdtune_string
  public :: FDTUNE_EXACT, FDTUNE_NEAREST, FDTUNE_DEFAULT, FDTUNE_ONLINE
  public :: FDTUNE_TIME, FDTUNE_ENERGY, FDTUNE_EDP

  ! enum fdtune_source: where a configuration came from
  integer(c_int), parameter :: FDTUNE_EXACT = 0    ! the best run for the device and problem
  integer(c_int), parameter :: FDTUNE_NEAREST = 1  ! the best run at the nearest size
  integer(c_int), parameter :: FDTUNE_DEFAULT = 2  ! nothing recorded: the family's default
  integer(c_int), parameter :: FDTUNE_ONLINE = 3   ! chosen by online tuning
  ! enum fdtune_objective: what best means for fdtune_lookup_by
  integer(c_int), parameter :: FDTUNE_TIME = 0     ! the shortest median time
  integer(c_int), parameter :: FDTUNE_ENERGY = 1   ! the fewest joules a point
  integer(c_int), parameter :: FDTUNE_EDP = 2      ! the least energy x time

  ! struct fdtune_config of fdtune.h. The strings are NUL-terminated C
  ! arrays (fdtune_string converts them); name(:, i) is the name of
  ! parameter i = 1..np and value(i) its value.
  type, bind(C) :: fdtune_config
    integer(c_int) :: source
    character(kind=c_char) :: family(32), device(256), params(1024)
    integer(c_int) :: radius, nx, ny, nz
    real(c_double) :: median_ms, gbs
    integer(c_int) :: np     ! name and value: FDTUNE_MAXP (16) of fdtune.h
    character(kind=c_char) :: name(16, 16)
    integer(c_int) :: value(16)
  end type fdtune_config

  ! An open database (fdtune_db * in C); as initialised, none.
  type :: fdtune_db
    type(c_ptr) :: p = c_null_ptr
  end type fdtune_db

  interface
    function c_open(path, db, err, n) result(st) bind(C, name="fdtune_open")
      import :: c_char, c_ptr, c_size_t, c_int
      character(kind=c_char), intent(in) :: path(*)
      type(c_ptr), intent(out) :: db
      character(kind=c_char), intent(out) :: err(*)
      integer(c_size_t), value :: n
      integer(c_int) :: st
    end function c_open
    subroutine c_close(db) bind(C, name="fdtune_close")
      import :: c_ptr
      type(c_ptr), value :: db
    end subroutine c_close
    function c_lookup_by(db, obj, device, family, radius, nx, ny, nz, precision, cfg, err, &
        n) result(st) bind(C, name="fdtune_lookup_by")
      import :: c_ptr, c_char, c_int, c_size_t, fdtune_config
      type(c_ptr), value :: db
      integer(c_int), value :: obj
      character(kind=c_char), intent(in) :: device(*), family(*), precision(*)
      integer(c_int), value :: radius, nx, ny, nz
      type(fdtune_config), intent(out) :: cfg
      character(kind=c_char), intent(out) :: err(*)
      integer(c_size_t), value :: n
      integer(c_int) :: st
    end function c_lookup_by
    function c_param(cfg, name, def) result(v) bind(C, name="fdtune_param")
      import :: c_char, c_int, fdtune_config
      type(fdtune_config), intent(in) :: cfg
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), value :: def
      integer(c_int) :: v
    end function c_param
  end interface

  integer, parameter :: errlen = 1024

contains

  ! Opens the database at path read-only; refuses other files.
  function fdtune_open(path, db, err) result(st)
    character(len=*), intent(in) :: path
    type(fdtune_db), intent(out) :: db
    character(len=*), intent(out), optional :: err
    integer :: st
    character(kind=c_char) :: buf(errlen)

    buf(1) = c_null_char
    st = c_open(trim(path) // c_null_char, db%p, buf, int(errlen, c_size_t))
    if (present(err)) err = fdtune_string(buf)
  end function fdtune_open

  ! Closes db (nothing when it is not open); db is then not open.
  subroutine fdtune_close(db)
    type(fdtune_db), intent(inout) :: db

    if (c_associated(db%p)) call c_close(db%p)
    db%p = c_null_ptr
  end subroutine fdtune_close

  ! The configuration for (device, problem): device matches a recorded
  ! device's name or arch by substring ("H100", "sm_90", "gfx90a"); with db
  ! not open, the default. Fails only for an unknown family or a database
  ! error.
  function fdtune_lookup(db, device, family, radius, nx, ny, nz, precision, cfg, err) &
      result(st)
    type(fdtune_db), intent(in) :: db
    character(len=*), intent(in) :: device, family, precision
    integer, intent(in) :: radius, nx, ny, nz
    type(fdtune_config), intent(out) :: cfg
    character(len=*), intent(out), optional :: err
    integer :: st

    if (present(err)) then
      st = fdtune_lookup_by(db, int(FDTUNE_TIME), device, family, radius, nx, ny, nz, &
        precision, cfg, err)
    else
      st = fdtune_lookup_by(db, int(FDTUNE_TIME), device, family, radius, nx, ny, nz, &
        precision, cfg)
    end if
  end function fdtune_lookup

  ! fdtune_lookup by objective obj: FDTUNE_TIME, FDTUNE_ENERGY (the fewest
  ! joules a point measured) or FDTUNE_EDP (energy x time); where nothing was
  ! measured, the fastest, as fdtune.h says.
  function fdtune_lookup_by(db, obj, device, family, radius, nx, ny, nz, precision, cfg, &
      err) result(st)
    type(fdtune_db), intent(in) :: db
    integer, intent(in) :: obj
    character(len=*), intent(in) :: device, family, precision
    integer, intent(in) :: radius, nx, ny, nz
    type(fdtune_config), intent(out) :: cfg
    character(len=*), intent(out), optional :: err
    integer :: st
    character(kind=c_char) :: buf(errlen)

    buf(1) = c_null_char
    st = c_lookup_by(db%p, int(obj, c_int), trim(device) // c_null_char, &
      trim(family) // c_null_char, int(radius, c_int), int(nx, c_int), int(ny, c_int), &
      int(nz, c_int), trim(precision) // c_null_char, cfg, buf, int(errlen, c_size_t))
    if (present(err)) err = fdtune_string(buf)
  end function fdtune_lookup_by

  ! The value of parameter name in cfg, or def when it has none.
  function fdtune_param(cfg, name, def) result(v)
    type(fdtune_config), intent(in) :: cfg
    character(len=*), intent(in) :: name
    integer, intent(in) :: def
    integer :: v

    v = c_param(cfg, trim(name) // c_null_char, int(def, c_int))
  end function fdtune_param

  ! The characters of a C string field up to its NUL (all of them without
  ! one), e.g. fdtune_string(cfg%params) or fdtune_string(cfg%name(:, i)).
  function fdtune_string(a) result(s)
    character(kind=c_char), intent(in) :: a(:)
    character(len=:), allocatable :: s
    integer :: i, n

    n = size(a)
    do i = 1, size(a)
      if (a(i) == c_null_char) then
        n = i - 1
        exit
      end if
    end do
    allocate(character(len=n) :: s)
    do i = 1, n
      s(i:i) = a(i)
    end do
  end function fdtune_string

end module fdtune
