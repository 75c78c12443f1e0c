#!/bin/sh
# d35.sh: the four-problem plan (scaling.sh's, -s exhaustive -p vec=2,4:
# 12442 configurations) cold on one H200 pinned to 8 of its 16 vCPUs, where
# compiles, not the GPU, bound it: with -j 16 (the default, twice the CPUs)
# and then -j 8. Does oversubscribing the cores slow the compiles the GPU
# waits for (the 2-GPU cold plan's compiles took 2.2x their 1-GPU time)?
C=$COMMIT
for j in 16 8; do
	PIN="taskset -c 0-7" SPACE="-s exhaustive -p vec=2,4 -j $j" COMMIT=$C LIMIT=250 \
		sh .device/x2.sh 1 plan:1:cold > /dev/null 2>&1
	mkdir -p "$OUT/j$j"
	cp /tmp/scal/plan-1-cold.log /tmp/scal/plan-1-cold.steps.tsv "$OUT/j$j/" 2>/dev/null
	echo "-j $j:"; tail -1 /tmp/scal/scaling.tsv
	grep -hE "wall clock|held no|would have waited" /tmp/scal/plan-1-cold.log
done
cat /tmp/scal/anytime.txt | tail -12
rm -f "$OUT/dbs.tgz"
