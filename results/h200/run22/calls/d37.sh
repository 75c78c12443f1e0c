#!/bin/sh
# d37.sh: v70 on one H200: t_gpu's plan cases alone, then the testbed
# (d36.sh: the five-problem plan cold on vCPUs 0-7; at v69/ada687f 256.5 s)
sh .device/tg.sh plan_kill_resume plan_cache_term plan_seeds
cp "$OUT/tgpu.log" "$OUT/tgpu-plan.log" 2>/dev/null
COMMIT=$COMMIT sh .device/d36.sh
