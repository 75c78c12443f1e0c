#!/bin/sh
# session 26 call 2: the ntvar experiment with the variable in __constant__
sh .device/prep.sh > "$OUT/prep.log" 2>&1 || { cat "$OUT/prep.log"; exit 1; }
s=$(date +%s)
OUT=$OUT SPACE=constant sh results/h200/ntvar/ntvar.sh
echo "ntvar constant: $(( $(date +%s) - s )) s" | tee -a "$OUT/summary.txt"
