! fmain.f90: a user's Fortran program built with CMake against an installed
! fdtune (tests/cmake/CMakeLists.txt): module fdtune (libfdtune) and module
! wave_fdtune, which fdtune_add_kernels(... FORTRAN) exported with wave.cu.
! It asks libfdtune what the database given as its argument recommends for
! iso3dfd R = 8, then runs one time step of the exported kernel on a 64^3
! grid with the CUDA runtime through bind(C) interfaces: fields of 1 and a
! velocity of 1 give next = 2 prev - next = 1 at every interior point (the
! Laplacian of a constant is 0). Prints what it did; stops with 1 when the
! step fails or is wrong, 0 otherwise and where there is no GPU.
program fmain
  use, intrinsic :: iso_c_binding
  use fdtune
  use wave_fdtune
  implicit none
  interface
    function cudaGetDeviceCount(n) result(st) bind(C, name="cudaGetDeviceCount")
      import :: c_int
      integer(c_int), intent(out) :: n
      integer(c_int) :: st
    end function cudaGetDeviceCount
    function cudaMalloc(p, bytes) result(st) bind(C, name="cudaMalloc")
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), intent(out) :: p
      integer(c_size_t), value :: bytes
      integer(c_int) :: st
    end function cudaMalloc
    function cudaMemcpy(dst, src, bytes, kind) result(st) bind(C, name="cudaMemcpy")
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: dst, src
      integer(c_size_t), value :: bytes
      integer(c_int), value :: kind
      integer(c_int) :: st
    end function cudaMemcpy
    function cudaFree(p) result(st) bind(C, name="cudaFree")
      import :: c_int, c_ptr
      type(c_ptr), value :: p
      integer(c_int) :: st
    end function cudaFree
  end interface
  integer, parameter :: n = 64, r = wave_radius, ld = (n + 2 * r + 31) / 32 * 32 + 32
  integer(c_long_long), parameter :: slice = int(ld, c_long_long) * (n + 2 * r)
  integer(c_long_long), parameter :: total = slice * (n + 2 * r)
  integer(c_long_long), parameter :: origin = r * slice + r * ld + 32
  integer(c_int), parameter :: to_device = 1, to_host = 2
  real(fd_real), allocatable, target :: h(:)
  type(c_ptr) :: d(3)
  type(fdtune_db) :: db
  type(fdtune_config) :: cfg
  type(fd_coef) :: c
  character(len=4096) :: path
  character(len=256) :: err
  integer(c_size_t) :: bytes, at
  integer(c_int) :: ndev, st
  integer :: i

  if (cudaGetDeviceCount(ndev) /= 0 .or. ndev == 0) then
    print '(a)', "no GPU: built, not run"
    stop
  end if
  call get_command_argument(1, path)
  if (len_trim(path) > 0) then
    if (fdtune_open(path, db, err) /= 0) print '(a)', trim(err) // "; using defaults"
  end if
  if (fdtune_lookup(db, "sm_", "iso3dfd", r, n, n, n, "fp32", cfg) == 0) &
    print '(2a)', "libfdtune recommends: ", fdtune_string(cfg%params)
  call fdtune_close(db)

  allocate(h(total))
  h = 1
  bytes = total * c_sizeof(h(1))
  at = origin * c_sizeof(h(1))
  st = 0
  do i = 1, 3
    st = st + cudaMalloc(d(i), bytes)
    st = st + cudaMemcpy(d(i), c_loc(h), bytes, to_device)
  end do
  call wave_coef(c, 1d0, 1d0, 1d0)
  if (st == 0) st = wave_launch(shift(d(1)), shift(d(2)), shift(d(3)), &
    fd_grid(n, n, n, ld, slice), c, c_null_ptr)
  if (st == 0) st = cudaMemcpy(c_loc(h), d(1), bytes, to_host)
  do i = 1, 3
    st = st + cudaFree(d(i))
  end do
  print '(a, i0, a, g0)', "wave: status ", st, ", next at the centre ", &
    h(origin + (n / 2) * slice + (n / 2) * ld + n / 2 + 1)
  if (st /= 0 .or. abs(h(origin + (n / 2) * slice + (n / 2) * ld + n / 2 + 1) - 1) > 1e-4) &
    error stop 1

contains

  ! p + the byte offset of the interior origin
  function shift(p) result(q)
    type(c_ptr), intent(in) :: p
    type(c_ptr) :: q
    q = transfer(transfer(p, 0_c_intptr_t) + at, q)
  end function shift

end program fmain
