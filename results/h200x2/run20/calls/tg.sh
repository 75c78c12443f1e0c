#!/bin/sh
# tg.sh CASE...: each t_gpu case alone (timeout 150 s), "example" = t_example;
# logs $OUT/tgpu.log, $OUT/texample.log, one line a case in $OUT/cases.txt
TARGETS="fdtune build/t_gpu build/t_example" sh .device/prep.sh || exit 1
set -f
for t in "$@"; do
	s=$(date +%s)
	if [ "$t" = example ]; then
		timeout 300 env ROOT="$PWD" ./build/t_example >> "$OUT/texample.log" 2>&1
	else
		timeout 150 env ROOT="$PWD" FDTUNE=./fdtune RESULTS_DB=results/h100/fdtune.db \
			T_ONLY="$t" ./build/t_gpu >> "$OUT/tgpu.log" 2>&1
	fi
	r=$?
	echo "$t: rc $r in $(( $(date +%s) - s )) s" | tee -a "$OUT/cases.txt"
done
grep -hE "^\[ +(OK|FAILED|SKIPPED) +\]" "$OUT/tgpu.log" "$OUT/texample.log" 2>/dev/null | sort | uniq -c
