#!/bin/sh
# session 26 call 3: NVRTC's fast-compile levels, speed and compile time
sh .device/prep.sh > "$OUT/prep.log" 2>&1 || { cat "$OUT/prep.log"; exit 1; }
s=$(date +%s)
OUT=$OUT sh results/h200/ofc/ofc.sh
echo "ofc: $(( $(date +%s) - s )) s" | tee -a "$OUT/summary.txt"
