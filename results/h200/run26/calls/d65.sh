#!/bin/sh
# d65.sh: do compile threads in one process scale? The same compile-only
# sweep (xyz R=4 and R=8, no compile cache), as one process of J threads
# (J = the CPUs), as 2 processes of J/2 (one radius each), and as one of 2J
# (the plan's threads), each timed by the shell with its CPU seconds.
sh .device/prep.sh || exit 1
J=$(nproc)
S="-s exhaustive -p vec=4 -p bx=32 -n 64 --compile-only -q"
export FDTUNE_CACHE=
TIMEFORMAT='%R s wall, %U s user, %S s sys'
echo "one process, $J threads:"
time ./fdtune sweep -f xyz -r 4,8 -j $J $S --db /tmp/a.db > /tmp/a.log 2>&1
echo "2 processes, $((J / 2)) threads each:"
time (./fdtune sweep -f xyz -r 4 -j $((J / 2)) $S --db /tmp/b4.db > /tmp/b4.log 2>&1 &
      ./fdtune sweep -f xyz -r 8 -j $((J / 2)) $S --db /tmp/b8.db > /tmp/b8.log 2>&1 & wait)
echo "one process, $((2 * J)) threads:"
time ./fdtune sweep -f xyz -r 4,8 -j $((2 * J)) $S --db /tmp/c.db > /tmp/c.log 2>&1
grep -h "configurations in" /tmp/a.log /tmp/b4.log /tmp/b8.log /tmp/c.log
cp /tmp/*.log "$OUT/"
