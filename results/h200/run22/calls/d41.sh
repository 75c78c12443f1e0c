#!/bin/sh
# d41.sh: on a 2-GPU host: its CPU topology (lscpu; do vCPUs 0 and 16 share
# a core? spin pairs), then plan:2:cold, the five-problem plan cold on both
# GPUs (run16 at 89e2c5f: 130.3 s)
sh .device/prep.sh || exit 1
nproc; nvidia-smi -L
lscpu | grep -iE "^CPU\(s\)|Thread|Core|Socket|Model name|NUMA|Hypervisor|L3" | tee "$OUT/lscpu.txt"
lscpu -e=CPU,CORE,SOCKET,NODE 2>/dev/null | head -40 >> "$OUT/lscpu.txt"
gcc -O2 -o /tmp/spin .device/spin.c || exit 1
spin() {
	m=$1; shift
	for c in "$@"; do taskset -c "$c" /tmp/spin "$m" > /tmp/spin.$c & done
	wait
	cat $(for c in "$@"; do echo /tmp/spin.$c; done) | awk -v m="$m" -v c="$*" \
		'{ s += $1; if ($1 > x) x = $1 } END { printf "spin %s on [%s]: mean %.3f s, max %.3f s\n", m, c, s / NR, x }'
}
{ spin alu 0; spin alu 0 16; spin alu 0 1; } | tee "$OUT/spin.txt"
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
COMMIT=$COMMIT LIMIT=175 sh .device/x2.sh 2 plan:2:cold > /dev/null 2>&1
cp /tmp/scal/plan-2-cold.log /tmp/scal/plan-2-cold.steps.tsv /tmp/scal/times.txt "$OUT/" 2>/dev/null
tail -1 /tmp/scal/scaling.tsv
grep -hE "wall clock|held no|held a|ahead|under way" /tmp/scal/plan-2-cold.log
rm -f "$OUT/dbs.tgz"
