#!/bin/sh
# profile.sh: Nsight Compute profile of one xyz configuration, run through
# fdtune itself (the third timed launch is profiled). Usage, on the GPU machine:
#   results/h100/profile.sh OUTFILE -r 4 -n 512 -p vec=4 -p bx=64 ...
# Writes the ncu report as text to OUTFILE.
set -eu
out=$1; shift
db=$(mktemp -d)/prof.db
sec="--section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy
 --section WarpStateStats --section LaunchStats --section SchedulerStats
 --section ComputeWorkloadAnalysis --section InstructionStats"
met=
for r in long_scoreboard short_scoreboard barrier not_selected math_pipe_throttle \
    mio_throttle wait lg_throttle selected; do
	met=$met,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio
done
met=${met#,},smsp__inst_executed.sum,sm__sass_thread_inst_executed_op_ffma_pred_on.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,dram__bytes.sum
# the metrics beside the sections; where this ncu lacks one, the sections alone
ncu --kernel-name fdt_kernel --launch-skip 3 --launch-count 1 $sec --metrics "$met" \
    ./fdtune sweep -q --db "$db" "$@" > "$out" 2>&1 ||
ncu --kernel-name fdt_kernel --launch-skip 3 --launch-count 1 $sec \
    ./fdtune sweep -q --db "$db" --force "$@" > "$out" 2>&1
# the lines that matter, for the log
grep -E "DRAM Throughput|Memory Throughput|L1/TEX Hit|L2 Hit|Achieved Occupancy|Theoretical Occupancy|Registers Per|Duration|Stall Long|Issued Warp|No Eligible|Warp Cycles Per Issued|L1/TEX Cache Throughput|Compute \(SM\)|Spilling|Executed Ipc|Issue Slots Busy|smsp__inst_executed|ffma|bank_conflicts|wavefronts|dram__bytes|Block Limit|Pipe|issue_stalled" "$out" | sed 's/^ *//' | head -40
