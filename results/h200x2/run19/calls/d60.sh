#!/bin/sh
# d60.sh (2 GPUs), call 2 of 3, the same host right after d59.sh (its
# /tmp/scal and build kept): plan:1:cold on vCPUs 0-15 (the 1-GPU
# machine's cores), then plan:2:warm and plan:1:warm from the cache it
# leaves. Results to $OUT.
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
sh .device/prep.sh || exit 1
nvidia-smi -L
PIN="taskset -c 0-15" LIMIT=260 sh results/h100x2/scaling.sh /tmp/scal 1 plan:1:cold > /dev/null 2>&1
cp /tmp/scal/scaling.tsv /tmp/scal/times.txt /tmp/scal/anytime.txt "$OUT/"
LIMIT=200 sh results/h100x2/scaling.sh /tmp/scal 2 plan:2:warm plan:1:warm > /dev/null 2>&1
cp /tmp/scal/scaling.tsv /tmp/scal/times.txt /tmp/scal/anytime.txt "$OUT/"
(cd /tmp/scal && tar czf "$OUT/logs2.tgz" *.log *.steps.tsv plan gpus.txt)
tail -4 /tmp/scal/scaling.tsv
