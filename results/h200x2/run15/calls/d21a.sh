#!/bin/sh
# d21a.sh: build (with t_gpu); v65 (a guided search in bulk fills its
# batches) on 2 H200s: plan:2:cold, plan:1:cold on 16 of the 32 cores; then
# the same host's control, v64 (da761b0's tuner/, from .device/v64-tuner.tgz)
# plan:2:cold; then v65's plan:2:warm. d21b.sh follows at once.
C=$COMMIT
TARGETS="fdtune build/t_gpu" sh .device/prep.sh || exit 1
COMMIT=$C LIMIT=110 sh .device/x2.sh 2 plan:2:cold > /dev/null 2>&1
tail -1 /tmp/scal/scaling.tsv
cp /tmp/scal/plan-2-cold.db /tmp/v65-2-cold.db; cp /tmp/scal/plan-2-cold.log /tmp/v65-2-cold.log
PIN="taskset -c 0-15" COMMIT=$C LIMIT=170 sh .device/x2.sh 2 plan:1:cold > /dev/null 2>&1
tail -1 /tmp/scal/scaling.tsv
# the control: v64 built beside, its binary in ./fdtune for one phase
rm -rf /tmp/old && mkdir /tmp/old && cp -r Makefile gen templates runtime db tests /tmp/old/ &&
	tar xzf .device/v64-tuner.tgz -C /tmp/old && make -C /tmp/old -j64 fdtune > /tmp/old.log 2>&1 ||
	{ tail -20 /tmp/old.log; exit 1; }
cp fdtune /tmp/fdtune.v65 && cp /tmp/old/fdtune ./fdtune && touch ./fdtune
COMMIT=da761b0-control LIMIT=110 sh .device/x2.sh 2 plan:2:cold > /dev/null 2>&1
tail -1 /tmp/scal/scaling.tsv
cp /tmp/scal/plan-2-cold.log /tmp/v64-2-cold.log
cp /tmp/fdtune.v65 ./fdtune && touch ./fdtune
COMMIT=$C LIMIT=90 sh .device/x2.sh 2 plan:2:warm > /dev/null 2>&1
cp /tmp/v65-2-cold.log /tmp/v64-2-cold.log "$OUT/"
(cd /tmp && tar czf "$OUT/v65-2-cold-db.tgz" v65-2-cold.db)
cat /tmp/scal/scaling.tsv /tmp/scal/anytime.txt
grep -hE "compiled ahead|held no|wall clock|problem ./4|under way|run by GPUs" /tmp/v65-2-cold.log /tmp/v64-2-cold.log /tmp/scal/plan-1-cold.log /tmp/scal/plan-2-warm.log
