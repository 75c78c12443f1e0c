#!/bin/sh
# d27a.sh: v67 against its control (b5d4e41's tn_search.c, carried in
# .device/ctl/) on one host, cold, the four problems over vec 1, 2, 4: the
# machine primed, then plan:1:cold of v67, then of the control.
C=$COMMIT
export SPACE="-s exhaustive -p vec=1,2,4"
sh .device/prep.sh || exit 1
rm -rf /tmp/ctl && mkdir /tmp/ctl && tar cf - --exclude=./results --exclude=./build --exclude=./.device . | (cd /tmp/ctl && tar xf -)
mkdir -p /tmp/ctl/results/h100x2 && cp results/h100x2/scaling.sh results/h100x2/anytime.sql /tmp/ctl/results/h100x2/
cp .device/ctl/tn_search.c /tmp/ctl/tuner/search/
(cd /tmp/ctl && make -j16 fdtune > /tmp/ctl-build.log 2>&1) || { tail -20 /tmp/ctl-build.log; exit 1; }
grep -c "descent" /tmp/ctl/tuner/search/tn_search.c tuner/search/tn_search.c
COMMIT=$C LIMIT=240 sh .device/x2.sh 1 plan:1:cold > /dev/null 2>&1
mkdir -p "$OUT/v67" && cp /tmp/scal/*.steps.tsv /tmp/scal/plan-1-cold.log /tmp/scal/plan-1-cold.db "$OUT/v67/" 2>/dev/null
(cd /tmp/ctl && COMMIT=b5d4e41 LIMIT=240 sh results/h100x2/scaling.sh /tmp/scal 1 plan:1:cold > /dev/null 2>&1)
mkdir -p "$OUT/ctl" && cp /tmp/scal/*.steps.tsv /tmp/scal/plan-1-cold.log /tmp/scal/plan-1-cold.db "$OUT/ctl/" 2>/dev/null
cp /tmp/scal/scaling.tsv /tmp/scal/times.txt /tmp/scal/anytime.txt "$OUT"/
cat /tmp/scal/scaling.tsv /tmp/scal/anytime.txt; grep -i "primed\|prime" /tmp/scal/times.txt
grep -h "wall clock\|problem ./4" /tmp/scal/times.txt | tail -30
