#!/bin/sh
# profile.sh: Nsight Compute profile of one xyz configuration, run through
# fdtune itself (the third timed launch is profiled). Usage, on the GPU machine:
#   results/h100/profile.sh OUTFILE -r 4 -n 512 -p vec=4 -p bx=64 ...
# Writes the ncu report as text to OUTFILE.
set -eu
out=$1; shift
db=$(mktemp -d)/prof.db
ncu --kernel-name fdt_kernel --launch-skip 3 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy \
    --section WarpStateStats --section LaunchStats --section SchedulerStats \
    ./fdtune sweep -q --db "$db" "$@" > "$out" 2>&1
# the lines that matter, for the log
grep -E "DRAM Throughput|Memory Throughput|L1/TEX Hit|L2 Hit|Achieved Occupancy|Theoretical Occupancy|Registers Per|Duration|Stall Long|Issued Warp|No Eligible|Warp Cycles Per Issued|L1/TEX Cache Throughput|Compute \(SM\)" "$out" | sed 's/^ *//' | head -20
