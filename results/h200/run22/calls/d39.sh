#!/bin/sh
# d39.sh: the testbed (d38.sh: the five-problem plan cold on vCPUs 0-7 of
# one H200), then t_gpu's plan cases alone
COMMIT=$COMMIT sh .device/d38.sh
sh .device/tg.sh plan_kill_resume plan_cache_term plan_seeds > /dev/null 2>&1
cat "$OUT/cases.txt"
