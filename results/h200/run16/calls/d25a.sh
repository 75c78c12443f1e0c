#!/bin/sh
# d25a.sh: v66 against its control (7e4e139's race: the tree with
# .device/ctl's tn_time.c, tn_time.h, cmd_sweep.c) on one host, warm, the
# vec 1, 2, 4 plan: the cache filled by a compile-only sweep, then
# plan:1:warm of v66, then of the control.
C=$COMMIT
export SPACE="-s exhaustive -p vec=1,2,4"
TARGETS="fdtune build/t_gpu" sh .device/prep.sh || exit 1
rm -rf /tmp/ctl && mkdir /tmp/ctl && tar cf - --exclude=./results --exclude=./build --exclude=./.device . | (cd /tmp/ctl && tar xf -)
mkdir -p /tmp/ctl/results/h100x2 && cp results/h100x2/scaling.sh results/h100x2/anytime.sql /tmp/ctl/results/h100x2/
cp .device/ctl/tn_time.c .device/ctl/tn_time.h /tmp/ctl/tuner/sweep/ && cp .device/ctl/cmd_sweep.c /tmp/ctl/tuner/cmd/
(cd /tmp/ctl && make -j16 fdtune > /tmp/ctl-build.log 2>&1) || { tail -20 /tmp/ctl-build.log; exit 1; }
grep -c "after 1" /tmp/ctl/tuner/cmd/cmd_sweep.c tuner/cmd/cmd_sweep.c
COMMIT=$C LIMIT=200 sh .device/x2.sh 1 plan:1:warm > /dev/null 2>&1   # fills the cache, then v66 (warm-up said in times.txt)
mkdir -p "$OUT/v66a" && cp /tmp/scal/*.steps.tsv /tmp/scal/plan-1-warm.log "$OUT/v66a/" 2>/dev/null
(cd /tmp/ctl && COMMIT=7e4e139 LIMIT=230 sh results/h100x2/scaling.sh /tmp/scal 1 plan:1:warm > /dev/null 2>&1)
mkdir -p "$OUT/ctl" && cp /tmp/scal/*.steps.tsv /tmp/scal/plan-1-warm.log /tmp/scal/plan-1-warm.db "$OUT/ctl/" 2>/dev/null
cp /tmp/scal/scaling.tsv /tmp/scal/times.txt /tmp/scal/anytime.txt "$OUT"/
cat /tmp/scal/scaling.tsv /tmp/scal/anytime.txt; grep -i "warm-up" /tmp/scal/times.txt
grep -h "wall clock\|problem ./4" /tmp/scal/times.txt | tail -30
