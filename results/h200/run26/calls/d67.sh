#!/bin/bash
# d67.sh (one GPU, 16 CPUs): the cold-compile figure, make sweep's
# space (fdtune sweep's defaults) compile-only from an empty compile cache,
# FDTUNE_COMPILE_PROCS in the order ORDER (default "1 0"), each timed with
# its CPU seconds (bash's time; children waited for included). Logs
# ccN.log, the times in $OUT/cc.txt as each run ends.
sh .device/prep.sh || exit 1
nvidia-smi -L; nproc
TIMEFORMAT='%R s wall, %U s user, %S s sys'
for v in ${ORDER:-1 0}; do
	rm -rf /tmp/cc /tmp/cc.db*
	echo "FDTUNE_COMPILE_PROCS=$v:" | tee -a "$OUT/cc.txt"
	{ time FDTUNE_COMPILE_PROCS=$v FDTUNE_CACHE=/tmp/cc timeout 280 ./fdtune sweep --compile-only \
		-q --db /tmp/cc.db > "$OUT/cc$v.log" 2>&1; } 2>&1 | tee -a "$OUT/cc.txt"
	grep -hE "wall clock|compile process" "$OUT/cc$v.log" | tee -a "$OUT/cc.txt"
done
rm -rf /tmp/cc /tmp/cc.db*
