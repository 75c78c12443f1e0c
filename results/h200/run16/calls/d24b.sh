#!/bin/sh
# d24b.sh: right after d24a.sh on its host (the cache it left warm): the vec
# 1, 2, 4 problems swept one at a time (single:1:warm), then t_gpu plan_*
C=$COMMIT
export SPACE="-s exhaustive -p vec=1,2,4"
COMMIT=$C LIMIT=330 sh .device/x2.sh 1 single:1:warm > /dev/null 2>&1
cat /tmp/scal/scaling.tsv; grep -hE "wall clock" /tmp/scal/single-*.log | head
s=$(date +%s)
set -f
timeout 60 env ROOT=. FDTUNE=./fdtune RESULTS_DB=results/h100/fdtune.db T_ONLY="plan_*" \
	./build/t_gpu >> "$OUT/tgpu.log" 2>&1
echo "t_gpu plan_*: rc $? in $(( $(date +%s) - s )) s" | tee -a "$OUT/tgpu.log"
