#!/bin/sh
# reps.sh: issue 22's diagnosis of the fp64 rows that parity.sh finds 2-6%
# slower in an export than in fdtune on the same board: is it the length of
# the timed run (a clock that falls under sustained load), not the code?
# Exports each problem, then times it in fresh processes of export_main at
# 10, 30, 100, 300 and 1000 launches, with the SM clock, power and throttle
# reasons that nvidia-smi samples every 20 ms during the 1000.
#   sh results/h100/parity/reps.sh [DB]   (GPU machine, repository root, after make)
set -u
db=${1:-results/h100/fdtune.db}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
PATH=$PATH:/usr/local/cuda/bin
for p in "xyz -r 6 --precision fp64" "xyz -r 8 --precision fp64" "xyz -r 4 --precision fp32"; do
	set -- $p
	d=$tmp/$1$3$5
	mkdir -p "$d"
	./fdtune export --db "$db" --device H100 -n 512 --out "$d" --name k -f $p >/dev/null 2>&1
	nvcc -O2 -arch=sm_90 -I"$d" tests/export_main.cu "$d/k.cu" -o "$d/ex" || exit 1
	echo "== $p: recorded $(sed -n 's/.*, for 512x512x512: \([0-9.]*\) ms.*/\1/p' "$d/k.h") ms"
	for n in 10 30 100 300 1000; do
		[ $n = 1000 ] && { nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,clocks_throttle_reasons.active \
			--format=csv,noheader -lms 20 > "$d/smi" & smi=$!; }
		"$d/ex" 512 512 512 --time $n | sed -n 's/^time .*: \(median .*\)/  '"$n"' launches: \1/p'
		[ $n = 1000 ] && { kill $smi; sort "$d/smi" | uniq -c | sort -rn | head -4 | sed 's/^/    smi /'; }
	done
done
