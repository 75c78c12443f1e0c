! f90_lookup.f90: libfdtune through module fdtune (db/fdtune.f90), for
! tests/t_fortran.c, which runs the same lookups through the C library and
! compares the lines. Usage: f90_lookup [DB] < queries, a query a line:
!   DEVICE FAMILY RADIUS NX NY NZ PRECISION
! It prints first the layout of fdtune_config (size and component offsets),
! then "open|MESSAGE" when DB does not open, then for each query
!   0|source|family|device|radius|nx|ny|nz|median bits|gbs bits|params|
!     np|name=value,...|vec|bx|nope
! (doubles as the integers of their bits), or STATUS|MESSAGE on failure.
program f90_lookup
  use, intrinsic :: iso_c_binding
  use fdtune
  implicit none
  type(fdtune_db) :: db
  type(fdtune_config), target :: c
  character(len=4096) :: path
  character(len=64) :: device, family, precision
  character(len=512) :: err
  character(len=:), allocatable :: pairs
  character(len=16) :: num
  integer :: st, ios, radius, nx, ny, nz, i

  print '(*(g0, :, "|"))', "layout", c_sizeof(c), at(c_loc(c%source)), &
    at(c_loc(c%family)), at(c_loc(c%device)), at(c_loc(c%params)), at(c_loc(c%radius)), &
    at(c_loc(c%nx)), at(c_loc(c%ny)), at(c_loc(c%nz)), at(c_loc(c%median_ms)), &
    at(c_loc(c%gbs)), at(c_loc(c%np)), at(c_loc(c%name)), at(c_loc(c%value))
  call get_command_argument(1, path)
  if (len_trim(path) > 0) then
    if (fdtune_open(path, db, err) /= 0) print '(a)', "open|" // trim(err)
  end if
  do
    read (*, *, iostat=ios) device, family, radius, nx, ny, nz, precision
    if (ios /= 0) exit
    st = fdtune_lookup(db, device, family, radius, nx, ny, nz, precision, c, err)
    if (st /= 0) then
      print '(i0, a)', st, "|" // trim(err)
      cycle
    end if
    pairs = ""
    do i = 1, c%np
      write (num, '(i0)') c%value(i)
      pairs = pairs // fdtune_string(c%name(:, i)) // "=" // trim(num) // ","
    end do
    print '(*(g0, :, "|"))', st, c%source, fdtune_string(c%family), fdtune_string(c%device), &
      c%radius, c%nx, c%ny, c%nz, transfer(c%median_ms, 0_c_int64_t), &
      transfer(c%gbs, 0_c_int64_t), fdtune_string(c%params), c%np, pairs, &
      fdtune_param(c, "vec", -1), fdtune_param(c, "bx  ", -1), fdtune_param(c, "nope", -7)
  end do
  call fdtune_close(db)
  call fdtune_close(db)

contains

  ! the offset of component p in c
  function at(p) result(o)
    type(c_ptr), intent(in) :: p
    integer(c_intptr_t) :: o
    o = transfer(p, o) - transfer(c_loc(c), o)
  end function at

end program f90_lookup
