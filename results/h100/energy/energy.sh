#!/bin/sh
# energy.sh: issue 36's table. The 20 fastest records of xyz R = 4, xyz R = 8
# and iso3dfd R = 8 (fp32, 512^3) of the shipped database are timed again
# with their energy measured (--recheck 20 --energy), in 3 processes one
# after the other, into a copy of the database; energy.sql then compares,
# for each problem, the time-best with the energy-best (energy.md). On the
# GPU machine from the repository root after `make fdtune`:
#   OUT=DIR sh results/h100/energy/energy.sh
# nvidia-smi's clocks and power limit are printed before and after (fdtune
# records them with each measurement, and never sets them).
set -u
o=${OUT:-/tmp/energy}
mkdir -p "$o"
cp results/h100/fdtune.db "$o/energy.db"
printf 'xyz 4 512 fp32\nxyz 8 512 fp32\niso3dfd 8 512 fp32\n' > "$o/plan"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.limit,power.draw --format=csv \
	> "$o/smi.txt" 2>&1
for p in 1 2 3; do
	t0=$(date +%s)
	./fdtune sweep -q --db "$o/energy.db" --plan "$o/plan" --recheck 20 --energy \
		> "$o/process$p.log" 2>&1
	echo "process $p: exit $? in $(( $(date +%s) - t0 )) s" | tee -a "$o/summary.txt"
	grep -E "energy|done|configurations in" "$o/process$p.log" >> "$o/summary.txt"
done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.limit,power.draw --format=csv \
	>> "$o/smi.txt" 2>&1
