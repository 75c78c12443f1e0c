#!/bin/sh
# profile-table.sh: one markdown row per Nsight Compute profile in
# results/h100/profiles/ (made on the H100 by profile-bests.sh): what limits
# each best kernel of issue 13, with the counters the issue asks for.
#   sh results/h100/profile-table.sh > /tmp/t.md
set -eu
# v NAME FILE: the last number on the first line of FILE that contains NAME
v() { grep -m1 -- "$1" "$2" | awk '{ print $NF }' | tr -d ','; }
echo "| profile | µs (ncu clock) | DRAM GB | DRAM % of peak | L2 hit % | issue slots busy % | regs | occupancy % (theor./achieved) | spill requests | LDS wavefronts (M) | bank conflicts (M) | top stalls a issue |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for f in results/h100/profiles/*.txt; do
	n=$(basename "$f" .txt)
	d=$(grep -m1 "Duration" "$f" | awk '{ print ($2 == "ms" ? $3 * 1000 : $3) }')
	gb=$(grep -m1 "dram__bytes.sum" "$f" | awk '{ print ($2 == "Mbyte" ? $3 / 1000 : $3) }')
	wf=$(v l1tex__data_pipe_lsu_wavefronts_mem_shared.sum "$f")
	bc=$(v l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum "$f")
	st=$(grep "issue_stalled_.*_per_issue_active" "$f" | grep -v "_selected_per" |
		sed 's/.*stalled_\(.*\)_per_issue_active.ratio.* \([0-9.]*\)$/\2 \1/' | sort -rn |
		head -3 | awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $2, $1 }')
	printf '| %s | %s | %.2f | %s | %s | %s | %s | %s / %s | %s | %.1f | %.2f | %s |\n' "$n" "$d" "$gb" \
		"$(v 'DRAM Throughput' "$f")" "$(v 'L2 Hit Rate' "$f")" "$(v 'Issue Slots Busy' "$f")" \
		"$(v 'Registers Per Thread' "$f")" "$(v 'Theoretical Occupancy' "$f")" \
		"$(v 'Achieved Occupancy' "$f")" "$(v 'Local Memory Spilling Requests ' "$f")" \
		"$(awk "BEGIN { print $wf / 1e6 }")" "$(awk "BEGIN { print $bc / 1e6 }")" "$st"
done
