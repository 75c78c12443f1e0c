#!/bin/sh
# d24a.sh: one H200 (16 cores): the plan over vec 1, 2 and 4 (18994
# configurations, over 3 minutes on one H200), plan:1:cold then plan:1:warm
# on the cache it leaves, step logs in logs.tgz. d24b.sh follows at once.
C=$COMMIT
export SPACE="-s exhaustive -p vec=1,2,4"
TARGETS="fdtune build/t_gpu" sh .device/prep.sh || exit 1
COMMIT=$C LIMIT=285 sh .device/x2.sh 1 plan:1:cold > /dev/null 2>&1
tail -1 /tmp/scal/scaling.tsv
COMMIT=$C LIMIT=250 sh .device/x2.sh 1 plan:1:warm > /dev/null 2>&1
cat /tmp/scal/scaling.tsv /tmp/scal/anytime.txt; grep primed /tmp/scal/times.txt
grep -hE "held no|wall clock|problem ./4|under way|at the starts|before the first|fields" /tmp/scal/plan-*.log
