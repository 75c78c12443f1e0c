#!/bin/sh
# d38.sh (d36.sh with LIMIT 330 by default): the five-problem plan (run16's: -s exhaustive -p vec=1,2,4, 21818
# configurations) cold on one H200 pinned to vCPUs 0-7: some 8 cores for
# one GPU, as the 2-GPU host's 32 vCPUs (some 19 cores' worth of builds)
# gave each of its GPUs. Does one GPU on 8 vCPUs wait for compiles where
# the 2-GPU plan did (a testbed on one GPU for the 2-GPU cold plan)?
C=$COMMIT
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
PIN="taskset -c 0-7" COMMIT=$C LIMIT=${LIMIT:-330} sh .device/x2.sh 1 plan:1:cold > /dev/null 2>&1
cp /tmp/scal/plan-1-cold.log /tmp/scal/plan-1-cold.steps.tsv "$OUT/" 2>/dev/null
tail -1 /tmp/scal/scaling.tsv
grep -hE "wall clock|held no|would have waited|under way|ahead" /tmp/scal/plan-1-cold.log
rm -f "$OUT/dbs.tgz"
