#!/bin/sh
# d43.sh (2-GPU host, 32 vCPUs): why its cores compile a third slower than
# the 1-GPU VM's (NOTES "v71 again, a warm plan, and the 2-GPU host").
# The same xyz R = 8 sources compiled (compile-only, empty caches) by one
# process on 32 vCPUs with -j 32 and -j 64, by two processes of 16 threads
# on vCPUs 0-15 and 16-31 (--shard halves) at once, and by one of 16 on
# 0-15 alone. If two processes at once beat one of 32 threads, the
# process (its threads, its allocator) is the bound, not the host.
sh .device/prep.sh || exit 1
nproc
SP="-f xyz -r 8 -n 512 -p nw=64 -p vec=2,4 -p nt=0"
cc() {  # cc NAME CPUS JOBS [ARGS]: a compile-only sweep into an empty cache, in the background
	n=$1 c=$2 j=$3; shift 3
	rm -rf /tmp/c_$n && mkdir /tmp/c_$n
	( s=$(date +%s%N)
	  FDTUNE_CACHE=/tmp/c_$n taskset -c $c ./fdtune sweep --compile-only -j $j $SP "$@" \
		--db /tmp/c_$n/x.db > /tmp/c_$n.log 2>&1
	  r=$? e=$(date +%s%N)
	  echo "$n (cpus $c, -j $j $*): rc $r $(( (e - s) / 1000000 )) ms $(grep -E 'configurations in' /tmp/c_$n.log | tail -1)" ) &
}
{
cc warm 0-31 32 --max-configs 32; wait
cc p32 0-31 32; wait
cc p64 0-31 64; wait
cc h16 0-15 16; wait
cc a 0-15 16 --shard 0/2; cc b 16-31 16 --shard 1/2; wait
cc p32b 0-31 32; wait
} | tee "$OUT/d43.txt"
