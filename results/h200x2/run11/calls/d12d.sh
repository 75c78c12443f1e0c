#!/bin/sh
# d12d.sh: plan:2:cold with iso3dfd's ku 1 window from the launch (FDTUNE_KU_LAUNCH)
C=$COMMIT
FDTUNE_KU_LAUNCH=1 COMMIT=$C+kulaunch LIMIT=240 sh .device/x2.sh 2 plan:2:cold > /dev/null 2>&1
cp /tmp/scal/plan-2-cold.log "$OUT/plan-2-cold-ku.log"
PIN="taskset -c 0-15" FDTUNE_KU_LAUNCH=1 COMMIT=$C+kulaunch LIMIT=300 sh .device/x2.sh 2 plan:1:cold > /dev/null 2>&1
cp /tmp/scal/plan-1-cold.log "$OUT/plan-1-cold-ku.log"
cat /tmp/scal/scaling.tsv; tail -30 /tmp/scal/times.txt
