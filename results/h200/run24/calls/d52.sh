#!/bin/sh
# session 26 call 1: the ntvar experiment, then t_gpu sigterm_in_flight and plan_yields
nvidia-smi -L > "$OUT/gpu.txt" 2>&1
sh .device/prep.sh > "$OUT/prep.log" 2>&1 || { cat "$OUT/prep.log"; exit 1; }
s=$(date +%s)
OUT=$OUT sh results/h200/ntvar/ntvar.sh
echo "ntvar: $(( $(date +%s) - s )) s" | tee -a "$OUT/summary.txt"
sh .device/tg.sh sigterm_in_flight plan_yields
