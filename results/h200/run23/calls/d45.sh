#!/bin/sh
# d45.sh (1 GPU): the testbed (d38.sh's: the five-problem plan cold on
# vCPUs 0-7, LIMIT 330), keeping the plan's database (dbs.tgz), then the
# t_gpu cases in CASES. Env YIELD: FDTUNE_YIELD for the testbed.
[ -n "$YIELD" ] && export FDTUNE_YIELD=$YIELD
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
PIN="taskset -c 0-7" LIMIT=${LIMIT:-330} sh .device/x2.sh 1 plan:1:cold > /dev/null 2>&1
cp /tmp/scal/plan-1-cold.log /tmp/scal/plan-1-cold.steps.tsv "$OUT/" 2>/dev/null
tail -1 /tmp/scal/scaling.tsv
grep -hE "wall clock|held no|yielded|meanwhile|ahead" /tmp/scal/plan-1-cold.log
unset FDTUNE_YIELD
[ -n "$CASES" ] && sh .device/tg.sh $CASES
exit 0
