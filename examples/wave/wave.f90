! wave.f90: the Fortran driver of the wave propagator of examples/wave, the
! same as wave.c (read that first): the kernel fdtune exported with
! `fdtune export -f iso3dfd --name wave_k --fortran` is called through its
! module wave_k_fdtune (wave_k.f90); the model, the source trace, device
! memory, the injection and the receiver gather are the C and CUDA helpers
! of wave.h, called through bind(C) (module wave_c below). It runs the
! same calls in the same order as wave_run.c, so that its seismogram is the
! C driver's bit for bit. Options: a subset of wave.c's (--help); the model
! is two layers or homogeneous. Writes DIR/seismogram.bin and slice.bin as
! wave.c does; draws nothing.
module wave_c
  use, intrinsic :: iso_c_binding
  implicit none

  ! struct wv_layout of wave.h
  type, bind(C) :: wv_layout
    integer(c_int) :: nx, ny, nz, r, ld
    integer(c_long_long) :: slice, origin, total
  end type wv_layout

  interface
    subroutine wv_layout_of(nx, ny, nz, r, l) bind(C, name="wv_layout_of")
      import :: c_int, wv_layout
      integer(c_int), value :: nx, ny, nz, r
      type(wv_layout), intent(out) :: l
    end subroutine wv_layout_of
    subroutine wv_model_layers(l, vel, v1, v2, zi, dt) bind(C, name="wv_model_layers")
      import :: c_int, c_float, c_double, wv_layout
      type(wv_layout), intent(in) :: l
      real(c_float), intent(inout) :: vel(*)
      real(c_double), value :: v1, v2
      integer(c_int), value :: zi
      real(c_double), value :: dt
    end subroutine wv_model_layers
    subroutine wv_source(src, nt, f, t0, dt, vel_s, h3) bind(C, name="wv_source")
      import :: c_int, c_float, c_double
      real(c_float), intent(out) :: src(*)
      integer(c_int), value :: nt
      real(c_double), value :: f, t0, dt
      real(c_float), value :: vel_s
      real(c_double), value :: h3
    end subroutine wv_source
    function wv_dt_max(c0, cx, cy, cz, r, vmax) result(d) bind(C, name="wv_dt_max")
      import :: c_int, c_float, c_double
      real(c_float), value :: c0
      real(c_float), intent(in) :: cx(*), cy(*), cz(*)
      integer(c_int), value :: r
      real(c_double), value :: vmax
      real(c_double) :: d
    end function wv_dt_max
    function wd_init(name, n) result(st) bind(C, name="wd_init")
      import :: c_int, c_char, c_size_t
      character(kind=c_char), intent(out) :: name(*)
      integer(c_size_t), value :: n
      integer(c_int) :: st
    end function wd_init
    function wd_alloc(count) result(p) bind(C, name="wd_alloc")
      import :: c_long_long, c_ptr
      integer(c_long_long), value :: count
      type(c_ptr) :: p
    end function wd_alloc
    subroutine wd_free(p) bind(C, name="wd_free")
      import :: c_ptr
      type(c_ptr), value :: p
    end subroutine wd_free
    function wd_put(dst, src, count) result(st) bind(C, name="wd_put")
      import :: c_ptr, c_float, c_long_long, c_int
      type(c_ptr), value :: dst
      real(c_float), intent(in) :: src(*)
      integer(c_long_long), value :: count
      integer(c_int) :: st
    end function wd_put
    function wd_get(dst, src, count) result(st) bind(C, name="wd_get")
      import :: c_ptr, c_float, c_long_long, c_int
      real(c_float), intent(out) :: dst(*)
      type(c_ptr), value :: src
      integer(c_long_long), value :: count
      integer(c_int) :: st
    end function wd_get
    function wd_inject(next, off, src, s) result(st) bind(C, name="wd_inject")
      import :: c_ptr, c_long_long, c_int
      type(c_ptr), value :: next, src
      integer(c_long_long), value :: off
      integer(c_int), value :: s
      integer(c_int) :: st
    end function wd_inject
    function wd_record(seis, f, off, nr, s) result(st) bind(C, name="wd_record")
      import :: c_ptr, c_long_long, c_int
      type(c_ptr), value :: seis, f
      integer(c_long_long), value :: off
      integer(c_int), value :: nr, s
      integer(c_int) :: st
    end function wd_record
    function wd_sync() result(st) bind(C, name="wd_sync")
      import :: c_int
      integer(c_int) :: st
    end function wd_sync
    function wd_mark(which) result(st) bind(C, name="wd_mark")
      import :: c_int
      integer(c_int), value :: which
      integer(c_int) :: st
    end function wd_mark
    function wd_elapsed() result(ms) bind(C, name="wd_elapsed")
      import :: c_double
      real(c_double) :: ms
    end function wd_elapsed
  end interface

contains

  ! Device pointer p advanced by off floats.
  function at(p, off) result(q)
    type(c_ptr), intent(in) :: p
    integer(c_long_long), intent(in) :: off
    type(c_ptr) :: q
    q = transfer(transfer(p, 0_c_intptr_t) + off * c_sizeof(0.0_c_float), q)
  end function at

end module wave_c

program wave
  use, intrinsic :: iso_c_binding
  use wave_c
  use wave_k_fdtune
  implicit none

  integer, parameter :: ksteps_max = 100
  integer(c_int) :: n(3) = 256, nt = 600, zi = -1, src(3) = -1, st, e, ks, s, k
  real(c_double) :: dx = 10, dt = 0, cfl = 0.25_c_double, v(2) = [2000, 3000], f0 = 15
  real(c_double) :: vmax, dtmax, loop_ms, kern_ms, pts
  character(len=4096) :: out = 'wave_out', arg, val
  character(kind=c_char) :: dev(256)
  type(wv_layout) :: l
  type(fd_grid) :: g
  type(fd_coef) :: c
  real(c_float), allocatable :: vel(:), hs(:), seis(:), slice(:)
  type(c_ptr) :: f(2), t, dvel, dsrc, dseis
  integer(c_long_long) :: o, soff, roff
  integer :: i, nargs, u

  nargs = command_argument_count()
  i = 1
  do while (i <= nargs)
    call get_command_argument(i, arg)
    if (arg == '-h' .or. arg == '--help') then
      call help()
      stop
    end if
    if (i == nargs) call usage('option ' // trim(arg) // ' needs a value, or is unknown')
    call get_command_argument(i + 1, val)
    select case (arg)
    case ('-n', '--size')
      call nums(val, 'x', n, 3, k)
      if (k == 1) n(2:3) = n(1)
      if (k == 2 .or. any(n < 1)) call usage('--size: N or XxYxZ, positive')
    case ('-t', '--steps')
      read (val, *, iostat=st) nt
      if (st /= 0 .or. nt < 1) call usage('--steps: a positive number')
    case ('--dx')
      read (val, *, iostat=st) dx
      if (st /= 0 .or. dx <= 0) call usage('--dx: a positive number')
    case ('--dt')
      read (val, *, iostat=st) dt
      if (st /= 0 .or. dt <= 0) call usage('--dt: a positive number')
    case ('--cfl')
      read (val, *, iostat=st) cfl
      if (st /= 0 .or. cfl <= 0) call usage('--cfl: a positive number')
    case ('--vel')
      if (index(val, ',') > 0) then
        read (val, *, iostat=st) v
      else
        read (val, *, iostat=st) v(1)
        v(2) = v(1)
      end if
      if (st /= 0 .or. any(v <= 0)) call usage('--vel: V1[,V2] in m/s')
    case ('--interface')
      read (val, *, iostat=st) zi
      if (st /= 0 .or. zi < 0) call usage('--interface: a depth in grid points')
    case ('-f', '--freq')
      read (val, *, iostat=st) f0
      if (st /= 0 .or. f0 <= 0) call usage('--freq: a positive number')
    case ('--src')
      call nums(val, ',', src, 3, k)
      if (k /= 3) call usage('--src: X,Y,Z')
    case ('-o', '--out')
      out = val
    case default
      call usage('unknown option ' // trim(arg))
    end select
    i = i + 2
  end do
  if (src(1) < 0) src = [n(1) / 2, n(2) / 2, 9 * n(3) / 20]
  if (zi < 0) zi = n(3) / 2
  if (any(src < 0) .or. any(src >= n)) call usage('--src: outside the grid')

  if (wd_init(dev, size(dev, kind=c_size_t)) /= 0) then
    print '(3a)', 'wave (Fortran): no GPU here (', trim(cstr(dev)), '): built, nothing run'
    stop
  end if
  call wv_layout_of(n(1), n(2), n(3), wave_k_radius, l)
  call wave_k_coef(c, dx, dx, dx)
  vmax = max(v(1), v(2))
  if (dt <= 0) dt = cfl * dx / vmax
  dtmax = wv_dt_max(c%c0, c%x, c%y, c%z, wave_k_radius, vmax)
  if (dt > dtmax) then
    write (0, '(a, f6.3, a, f6.3)') 'wave: unstable: CFL vmax dt / dx = ', vmax * dt / dx, &
      ' is over the bound ', vmax * dtmax / dx
    error stop 2
  end if
  allocate (vel(l%total), hs(nt + 1), seis(int(nt, c_long_long) * n(1)), slice(n(1) * n(3)))
  vel = 0
  call wv_model_layers(l, vel, v(1), v(2), zi, dt)
  o = l%origin
  soff = src(1) + int(src(2), c_long_long) * l%ld + src(3) * l%slice
  roff = int(src(2), c_long_long) * l%ld + src(3) * l%slice
  g = fd_grid(l%nx, l%ny, l%nz, l%ld, l%slice)
  hs = 0
  call wv_source(hs, nt, f0, 1.5_c_double / f0, dt, vel(o + soff + 1), dx * dx * dx)
  print '(2a)', 'wave (Fortran): ', trim(cstr(dev))
  print '(a, i0, "x", i0, "x", i0, a, f0.2, a, g0.4, a, i0, a)', 'grid ', n, ', dx = ', dx, &
    ' m; dt = ', dt * 1e3_c_double, ' ms, ', nt, ' steps'
  print '(a, f5.3, a, f5.3, a)', 'CFL vmax dt / dx = ', vmax * dt / dx, ' (stable up to ', &
    vmax * dtmax / dx, ')'

  ! wave_run.c's calls, in its order
  f(1) = wd_alloc(l%total)
  f(2) = wd_alloc(l%total)
  dvel = wd_alloc(l%total)
  dsrc = wd_alloc(nt + 1_c_long_long)
  dseis = wd_alloc(int(nt, c_long_long) * n(1))
  if (.not. (c_associated(f(1)) .and. c_associated(f(2)) .and. c_associated(dvel) .and. &
             c_associated(dsrc) .and. c_associated(dseis))) call fail('cannot allocate the fields')
  if (wd_put(dvel, vel, l%total) /= 0 .or. wd_put(dsrc, hs, nt + 1_c_long_long) /= 0) &
    call fail('copy to the device')
  if (wave_k_launch(at(f(2), o), at(f(1), o), at(dvel, o), g, c, c_null_ptr) /= 0 .or. &
      wd_inject(at(f(2), o), soff, dsrc, nt) /= 0 .or. &
      wd_record(dseis, at(f(2), o), roff, n(1), 0) /= 0 .or. wd_sync() /= 0) call fail('warm-up')
  if (wd_mark(0) /= 0) call fail('timer')
  e = 0
  do s = 0, nt - 1
    e = ior(e, wave_k_launch(at(f(2), o), at(f(1), o), at(dvel, o), g, c, c_null_ptr))
    e = ior(e, wd_inject(at(f(2), o), soff, dsrc, s))
    e = ior(e, wd_record(dseis, at(f(2), o), roff, n(1), s))
    t = f(1)
    f(1) = f(2)
    f(2) = t
  end do
  if (e /= 0 .or. wd_mark(1) /= 0) call fail('the time loop')
  loop_ms = wd_elapsed()
  if (wd_get(seis, dseis, int(nt, c_long_long) * n(1)) /= 0) call fail('copy back')
  do k = 0, n(3) - 1
    if (wd_get(slice(k * n(1) + 1:), at(f(1), o + k * l%slice + int(src(2), c_long_long) * l%ld), &
               int(n(1), c_long_long)) /= 0) call fail('copy back')
  end do
  ks = min(nt, ksteps_max)
  if (wd_mark(0) /= 0) call fail('timer')
  do s = 1, ks
    e = ior(e, wave_k_launch(at(f(2), o), at(f(1), o), at(dvel, o), g, c, c_null_ptr))
    t = f(1)
    f(1) = f(2)
    f(2) = t
  end do
  if (e /= 0 .or. wd_mark(1) /= 0) call fail('the kernel loop')
  kern_ms = wd_elapsed()
  call wd_free(f(1))
  call wd_free(f(2))
  call wd_free(dvel)
  call wd_free(dsrc)
  call wd_free(dseis)

  pts = real(n(1), c_double) * n(2) * n(3)
  print '(a, f0.1, a, g0.4, a)', 'time loop: ', loop_ms, ' ms, ', &
    pts * nt / loop_ms * 1e-6_c_double, ' Gpts/s'
  print '(a, i0, a, g0.4, a, f0.1, a)', 'kernel alone (', ks, ' steps): ', &
    pts * ks / kern_ms * 1e-6_c_double, &
    ' Gpts/s; the loop loses ', 100 * (loop_ms / nt - kern_ms / ks) / (loop_ms / nt), &
    '% to everything else'
  call execute_command_line('mkdir -p "' // trim(out) // '"', exitstat=st)
  open (newunit=u, file=trim(out) // '/seismogram.bin', access='stream', form='unformatted', &
        status='replace', iostat=st)
  if (st /= 0) call fail('cannot write ' // trim(out) // '/seismogram.bin')
  write (u) seis
  close (u)
  open (newunit=u, file=trim(out) // '/slice.bin', access='stream', form='unformatted', &
        status='replace', iostat=st)
  if (st /= 0) call fail('cannot write ' // trim(out) // '/slice.bin')
  write (u) slice
  close (u)
  print '(3a)', 'wrote ', trim(out), '/seismogram.bin and slice.bin'

contains

  subroutine help()
    print '(a)', 'usage: wave_f [options]   the Fortran driver of examples/wave (see wave --help)', &
      '  -n, --size N|XxYxZ  grid points (default 256)', &
      '      --dx H          grid spacing in m (default 10)', &
      '  -t, --steps N       time steps (default 600)', &
      '      --dt S          time step in s (default: from --cfl)', &
      '      --cfl C         vmax dt / dx when --dt is not given (default 0.25)', &
      '      --vel V1[,V2]   velocities above and below the interface (default 2000,3000)', &
      '      --interface Z   depth of the interface in grid points (default nz/2)', &
      '  -f, --freq F        Ricker peak frequency in Hz (default 15)', &
      '      --src X,Y,Z     source point (default nx/2, ny/2, 9 nz / 20); receivers', &
      '                      along x at its y and depth', &
      '  -o, --out DIR       output directory (default wave_out): seismogram.bin, slice.bin', &
      '  -h, --help          this text'
  end subroutine help

  subroutine usage(msg)
    character(len=*), intent(in) :: msg
    write (0, '(3a)') 'wave (Fortran): ', msg, '; see --help'
    error stop 2
  end subroutine usage

  subroutine fail(msg)
    character(len=*), intent(in) :: msg
    write (0, '(3a)') 'wave (Fortran): ', msg, ' failed on the device'
    error stop 1
  end subroutine fail

  ! The integers of s separated by sep into a(1:m); their count in k.
  subroutine nums(s, sep, a, m, k)
    character(len=*), intent(in) :: s
    character, intent(in) :: sep
    integer, intent(in) :: m
    integer(c_int), intent(inout) :: a(m)
    integer, intent(out) :: k
    character(len=len(s)) :: w
    integer :: j, ios
    w = s
    k = 1
    do j = 1, len_trim(w)
      if (w(j:j) == sep) then
        w(j:j) = ' '
        k = k + 1
      end if
    end do
    if (k > m) then
      k = 0
      return
    end if
    read (w, *, iostat=ios) a(1:k)
    if (ios /= 0) k = 0
  end subroutine nums

  ! A NUL-terminated C string as a Fortran string.
  function cstr(s) result(r)
    character(kind=c_char), intent(in) :: s(:)
    character(len=size(s)) :: r
    integer :: j
    r = ''
    do j = 1, size(s)
      if (s(j) == c_null_char) exit
      r(j:j) = s(j)
    end do
  end function cstr

end program wave
