#!/bin/sh
# d26b.sh: right after d26a.sh on its host: the five-problem plan's
# single:1:warm (plan against single sweep), then plan:1:cold
C=$COMMIT
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
COMMIT=$C LIMIT=330 sh .device/x2.sh 1 single:1:warm > /dev/null 2>&1
cat /tmp/scal/scaling.tsv
