#!/bin/sh
# d44.sh (1 GPU): v74 (yields). The testbed (d38.sh: the five-problem plan
# cold on vCPUs 0-7, LIMIT 330), then t_gpu's plan cases alone, plan_yields
# first. Env YIELD: FDTUNE_YIELD for the testbed (unset: the default).
[ -n "$YIELD" ] && export FDTUNE_YIELD=$YIELD
sh .device/d38.sh
grep -h "yielded" /tmp/scal/plan-1-cold.log
unset FDTUNE_YIELD
[ -n "$CASES" ] && sh .device/tg.sh $CASES
exit 0
