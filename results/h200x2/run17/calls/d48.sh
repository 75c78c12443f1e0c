#!/bin/bash
# d48.sh (2 GPUs): why one process of 32 compile threads builds 20% fewer
# sources a second than two of 16 (d47). The same ~357 xyz R = 8 sources
# (compile-only, empty caches), each test with its user and system time and
# the host's TLB shootdowns: one process -j 32 as is; with glibc's malloc
# kept from returning memory (no mmap'd blocks, no trim: fewer munmap and
# madvise, each a shootdown to every core of the process); with 2 and 4
# processes of 16 and 8 threads (--shard); then plan:1:cold pinned to
# vCPUs 0-15 at HEAD, for the cold ratio on this host (d47: plan:2:cold
# 125.6 s).
sh .device/prep.sh || exit 1
nproc; nvidia-smi -L
SP="-f xyz -r 8 -n 512 -p nw=64 -p vec=2,4 -p nt=0"
tlb() { awk '/TLB/ { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i } END { print s + 0 }' /proc/interrupts; }
one() { # one NAME CPUS JOBS [ARGS]: a compile-only sweep into an empty cache
	n=$1 c=$2 j=$3; shift 3
	rm -rf /tmp/c_$n && mkdir /tmp/c_$n
	FDTUNE_CACHE=/tmp/c_$n GLIBC_TUNABLES="${TUN:-}" taskset -c $c ./fdtune sweep --compile-only -j $j $SP "$@" \
		--db /tmp/c_$n/x.db > /tmp/c_$n.log 2>&1
}
t() {   # t NAME CMD...: wall, user, sys of CMD, and the shootdowns meanwhile
	n=$1; shift
	a=$(tlb); s=$(date +%s%N)
	tm=$( { TIMEFORMAT='%U %S'; time "$@" > /dev/null 2>&1; } 2>&1 )
	e=$(date +%s%N); b=$(tlb)
	echo "$n: wall $(( (e - s) / 1000000 )) ms, user+sys $tm s, TLB shootdowns $((b - a))"
}
keep() { TUN=$T; one k32 0-31 32; TUN=; }
p2() { one a 0-15 16 --shard 0/2 & one b 16-31 16 --shard 1/2 & wait; }
p4() { one a 0-7 8 --shard 0/4 & one b 8-15 8 --shard 1/4 & one c 16-23 8 --shard 2/4 &
	one d 24-31 8 --shard 3/4 & wait; }
T="glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=4294967296:glibc.malloc.top_pad=16777216"
{
one warm 0-31 32 --max-configs 32
t s32 one s32 0-31 32
t s32-keep keep
t p2 p2
t p4 p4
t s32-again one s32 0-31 32
t s32-keep-again keep
t s16 one s16 0-15 16
} 2>&1 | tee "$OUT/contend.txt"
grep -h "configurations in" /tmp/c_s32.log /tmp/c_k32.log | cut -c1-160
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
PIN="taskset -c 0-15" LIMIT=280 COMMIT="${COMMIT:-?}" \
	sh results/h100x2/scaling.sh /tmp/scal 2 plan:1:cold > /dev/null 2>&1
cp /tmp/scal/plan-1-cold.log /tmp/scal/plan-1-cold.steps.tsv /tmp/scal/scaling.tsv /tmp/scal/times.txt /tmp/scal/anytime.txt "$OUT/"
grep -hE "wall clock|held no|yielded|under way" /tmp/scal/plan-1-cold.log
tail -1 /tmp/scal/scaling.tsv
