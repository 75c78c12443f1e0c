#!/bin/sh
# d61.sh (2 GPUs), call 3 of 3, the same host right after d60.sh (the warm
# cache kept): the five problems swept one at a time on 2 GPUs and on 1,
# then a kill -9 of the 2-GPU plan after KILL_AFTER s and its rerun.
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
sh .device/prep.sh || exit 1
nvidia-smi -L
LIMIT=150 sh results/h100x2/scaling.sh /tmp/scal 2 ${PHASES:-single:2:warm single:1:warm kill} > /dev/null 2>&1
cp /tmp/scal/scaling.tsv /tmp/scal/times.txt /tmp/scal/anytime.txt "$OUT/"
(cd /tmp/scal && tar czf "$OUT/logs3.tgz" *.log *.steps.tsv plan gpus.txt)
tail -5 /tmp/scal/scaling.tsv; grep '^kill' /tmp/scal/times.txt
