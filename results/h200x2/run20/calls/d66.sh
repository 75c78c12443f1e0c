#!/bin/bash
# d66.sh (2 GPUs): v81 A/B on one host by the environment, no patch: A
# FDTUNE_COMPILE_PROCS=1 (compile processes), B 0 (the sweep's threads).
# For each of ORDER (default "A B"; the next call "B A"): plan:2:cold of the
# five-problem plan from an empty compile cache (logs pN-W.log/.steps.tsv),
# then the same plan compile-only from an empty cache at the default
# threads, timed with its CPU seconds (ccN-W.log; bash's time, children
# waited for included). During each plan, .device/samp.sh samples its
# threads' states and wait channels (sampN-W.txt). Results to $OUT as each
# run ends.
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
sh .device/prep.sh || exit 1
nvidia-smi -L; nproc
TIMEFORMAT='%R s wall, %U s user, %S s sys'
i=0
for w in ${ORDER:-A B}; do
	i=$((i + 1))
	if [ "$w" = A ]; then export FDTUNE_COMPILE_PROCS=1; else export FDTUNE_COMPILE_PROCS=0; fi
	bash .device/samp.sh "$OUT/samp$i-$w.txt" & sp=$!
	LIMIT=200 COMMIT="${COMMIT:-?} $w" sh results/h100x2/scaling.sh /tmp/scal 2 plan:2:cold > /dev/null 2>&1
	kill $sp
	cp /tmp/scal/plan-2-cold.log "$OUT/p$i-$w.log"
	cp /tmp/scal/plan-2-cold.steps.tsv "$OUT/p$i-$w.steps.tsv"
	cp /tmp/scal/scaling.tsv "$OUT/"
	echo "run $i: $w (FDTUNE_COMPILE_PROCS=$FDTUNE_COMPILE_PROCS)"
	grep -hE "wall clock|held no|under way|compile process" "$OUT/p$i-$w.log"
done
for w in ${ORDER:-A B}; do
	if [ "$w" = A ]; then export FDTUNE_COMPILE_PROCS=1; else export FDTUNE_COMPILE_PROCS=0; fi
	rm -rf /tmp/cc /tmp/cc.db*
	echo "compile-only $w (FDTUNE_COMPILE_PROCS=$FDTUNE_COMPILE_PROCS):"
	# shellcheck disable=SC2086
	{ time FDTUNE_CACHE=/tmp/cc timeout 200 ./fdtune sweep --compile-only --plan /tmp/scal/plan \
		-q --db /tmp/cc.db $SPACE > "$OUT/cc-$w.log" 2>&1; } 2>&1 | tee -a "$OUT/cc.txt"
	grep -hE "wall clock|compile process" "$OUT/cc-$w.log" | tee -a "$OUT/cc.txt"
done
rm -rf /tmp/cc /tmp/cc.db*
tail -3 /tmp/scal/scaling.tsv
