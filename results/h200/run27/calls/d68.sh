#!/bin/bash
# d68.sh (one GPU, 16 CPUs): v81 on the 1-GPU cold plan, by the
# environment: for each of ORDER (default "A B"; A FDTUNE_COMPILE_PROCS=1,
# B 0), plan:1:cold of d66.sh's five-problem plan from an empty compile
# cache (logs pN-W.log/.steps.tsv, scaling.tsv), results to $OUT as each
# run ends.
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
sh .device/prep.sh || exit 1
nvidia-smi -L; nproc
i=0
for w in ${ORDER:-A B}; do
	i=$((i + 1))
	if [ "$w" = A ]; then export FDTUNE_COMPILE_PROCS=1; else export FDTUNE_COMPILE_PROCS=0; fi
	LIMIT=270 COMMIT="${COMMIT:-?} $w" sh results/h100x2/scaling.sh /tmp/scal 1 plan:1:cold > /dev/null 2>&1
	cp /tmp/scal/plan-1-cold.log "$OUT/p$i-$w.log"
	cp /tmp/scal/plan-1-cold.steps.tsv "$OUT/p$i-$w.steps.tsv"
	cp /tmp/scal/scaling.tsv "$OUT/"
	echo "run $i: $w (FDTUNE_COMPILE_PROCS=$FDTUNE_COMPILE_PROCS)"
	grep -hE "wall clock|held no|under way|compile process" "$OUT/p$i-$w.log"
done
tail -3 /tmp/scal/scaling.tsv
