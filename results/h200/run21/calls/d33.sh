#!/bin/sh
# d33.sh: why 16 vCPUs compile only 1.33x as fast as 8 on the 1-GPU machine.
# (1) spin copies (alu, mem) pinned to chosen vCPUs: does a vCPU slow down
# when another given one is busy (shared core)? (2) the same ~200 xyz R = 8
# sources compiled (compile-only, empty caches) by one process on 8 and 16
# vCPUs, and as two halves (--shard) by two processes of 8 threads each on
# vCPUs 0-7 and 8-15, alone and at once: if the two processes at once take
# the time of one alone, 16 threads of one process contend in-process
# (NVRTC or malloc); if not, the vCPUs share the hardware.
sh .device/prep.sh || exit 1
lscpu | grep -iE "^CPU\(s\)|Thread|Core|Socket|Model name|NUMA|Hypervisor|L3"
gcc -O2 -o /tmp/spin .device/spin.c || exit 1
spin() {        # spin MODE CPU...: one copy on each CPU, at once; prints the mean
	m=$1; shift
	for c in "$@"; do taskset -c "$c" /tmp/spin "$m" > /tmp/spin.$c & done
	wait
	cat $(for c in "$@"; do echo /tmp/spin.$c; done) | awk -v m="$m" -v c="$*" \
		'{ s += $1; if ($1 > x) x = $1 } END { printf "spin %s on [%s]: mean %.3f s, max %.3f s\n", m, c, s / NR, x }'
}
for m in alu mem; do
	spin $m 0
	spin $m 0 1
	spin $m 0 8
	spin $m 0 2
	spin $m 0 1 2 3 4 5 6 7
	spin $m 0 2 4 6 8 10 12 14
	spin $m 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15
done
SP="-f xyz -r 8 -n 512 -p nw=64 -p vec=4 -p nt=0"
cc() {  # cc NAME CPUS JOBS [ARGS]: a compile-only sweep into an empty cache, in the background
	n=$1 c=$2 j=$3; shift 3
	rm -rf /tmp/c_$n && mkdir /tmp/c_$n
	( s=$(date +%s%N)
	  FDTUNE_CACHE=/tmp/c_$n taskset -c $c ./fdtune sweep --compile-only -j $j $SP "$@" \
		--db /tmp/c_$n/x.db > /tmp/c_$n.log 2>&1
	  r=$? e=$(date +%s%N)
	  echo "$n (cpus $c, -j $j $*): rc $r $(( (e - s) / 1000000 )) ms $(grep -E 'configurations in' /tmp/c_$n.log | tail -1)" ) &
}
cc warm 0-15 16 --max-configs 16; wait
cc s8 0-7 8; wait
cc s16 0-15 16; wait
cc s32 0-15 32; wait
cc a 0-7 8 --shard 0/2; wait
cc b 8-15 8 --shard 1/2; wait
cc a2 0-7 8 --shard 0/2; cc b2 8-15 8 --shard 1/2; wait
cc a3 0-15 16 --shard 0/2; cc b3 0-15 16 --shard 1/2; wait
cc s16b 0-15 16; wait
cp /tmp/c_s16.log /tmp/c_a2.log /tmp/c_b2.log "$OUT/" 2>/dev/null
