#!/bin/sh
# drift.sh: issue 22, the fp64 exports that slow down as they keep running
# (reps.sh): xyz fp64 R = 6 exported and timed over 1000 launches while
# nvidia-smi samples temperatures, power, clocks and slowdown reasons every
# 100 ms; then 30 launches again after a 5 s rest.
#   sh results/h100/parity/drift.sh [DB]   (GPU machine, repository root, after make)
set -u
db=${1:-results/h100/fdtune.db}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
PATH=$PATH:/usr/local/cuda/bin
./fdtune export --db "$db" --device H100 -n 512 --out "$d" --name k -f xyz -r 6 --precision fp64 >/dev/null
nvcc -O2 -arch=sm_90 -I"$d" tests/export_main.cu "$d/k.cu" -o "$d/ex" || exit 1
q=temperature.gpu,temperature.memory,power.draw,clocks.sm,clocks.mem,clocks_throttle_reasons.hw_slowdown,clocks_throttle_reasons.sw_power_cap,clocks_throttle_reasons.hw_thermal_slowdown
nvidia-smi --query-gpu=$q --format=csv -lms 100 > "$d/smi" 2>&1 &
smi=$!
"$d/ex" 512 512 512 --time 30 | grep '^time'
"$d/ex" 512 512 512 --time 1000 | grep '^time'
kill $smi
echo "nvidia-smi during the runs ($q):"
cat "$d/smi" | uniq -c | head -40
sleep 5
"$d/ex" 512 512 512 --time 30 | grep '^time'
