#!/bin/sh
# d49.sh (2 GPUs, on the host of d48 where it is still held): plan:2:cold at
# HEAD (d48's plan:1:cold on vCPUs 0-15 of this host: 205.1 s), then t_gpu's
# plan cases at HEAD (v74c has not run on a GPU).
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
TARGETS="fdtune build/t_gpu build/t_example" sh .device/prep.sh || exit 1
nvidia-smi -L
LIMIT=200 COMMIT="${COMMIT:-?}" sh results/h100x2/scaling.sh /tmp/scal 2 plan:2:cold > /dev/null 2>&1
cp /tmp/scal/plan-2-cold.log /tmp/scal/plan-2-cold.steps.tsv /tmp/scal/scaling.tsv /tmp/scal/times.txt /tmp/scal/anytime.txt "$OUT/"
grep -hE "wall clock|held no|yielded|under way" /tmp/scal/plan-2-cold.log
tail -2 /tmp/scal/scaling.tsv
sh .device/tg.sh plan_yields plan_kill_resume plan_cache_term plan_seeds
