#!/bin/sh
# d47.sh (2 GPUs): (1) do 32 compile threads of one process contend on the
# 2-GPU host? The same ~400 xyz R = 8 sources compiled (compile-only, empty
# caches) by one process of 32 and of 64 threads on vCPUs 0-31, one of 16 on
# 0-15, and as two halves (--shard) by two processes of 16 threads on 0-15
# and 16-31, alone and at once. (2) plan:2:cold at HEAD (yields on), then
# with FDTUNE_YIELD=0 (run16/run22: 130.3, 130.4 s at v70-v71).
sh .device/prep.sh || exit 1
nproc; nvidia-smi -L
lscpu | grep -iE "^CPU\(s\)|Model name|NUMA node\(s\)" | tee "$OUT/lscpu.txt"
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
cc s32 0-31 32; wait
cc s64 0-31 64; wait
cc s16 0-15 16; wait
cc a 0-15 16 --shard 0/2; wait
cc b 16-31 16 --shard 1/2; wait
cc a2 0-15 16 --shard 0/2; cc b2 16-31 16 --shard 1/2; wait
cc s32b 0-31 32; wait
} 2>&1 | tee "$OUT/shard.txt"
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
i=0
for y in "" 0; do
	i=$((i + 1))
	if [ -n "$y" ]; then export FDTUNE_YIELD=$y; else unset FDTUNE_YIELD; fi
	LIMIT=200 COMMIT="${COMMIT:-?} yield=${y:-default}" \
		sh results/h100x2/scaling.sh /tmp/scal 2 plan:2:cold > /dev/null 2>&1
	cp /tmp/scal/plan-2-cold.log "$OUT/p2-$i.log"
	cp /tmp/scal/plan-2-cold.steps.tsv "$OUT/p2-$i.steps.tsv"
	echo "run $i FDTUNE_YIELD=${y:-default}:"
	grep -hE "wall clock|held no|yielded|under way" "$OUT/p2-$i.log"
	cp /tmp/scal/scaling.tsv /tmp/scal/times.txt /tmp/scal/anytime.txt "$OUT/"
done
tail -2 /tmp/scal/scaling.tsv
