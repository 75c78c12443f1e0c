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
# The energy-best of each problem exported (its measured build embedded)
# into tests/export_main.cu, a user's program, and measured there as a user
# would with NVML over 1000 launches (3 rounds), in 3 processes: the J/Gpt
# against what the database says (energy.md).
sqlite3 "$o/energy.db" < results/h100/energy/energy.sql > "$o/energy.md" 2>&1 ||
	echo "no sqlite3 here: energy.sql is run on the database afterwards" > "$o/energy.md"
for p in "xyz 4" "xyz 8" "iso3dfd 8"; do
	set -- $p
	d="$o/export-$1-$2"
	mkdir -p "$d"
	./fdtune export --db "$o/energy.db" -f "$1" -r "$2" -n 512 --objective energy --name k \
		-o "$d" > "$d/export.log" 2>&1 || { cat "$d/export.log"; continue; }
	nvcc -O2 -arch=sm_90 -Xcompiler -fopenmp -I"$d" tests/export_main.cu "$d/k.cu" -o "$d/ex" \
		> "$d/nvcc.log" 2>&1 || { cat "$d/nvcc.log"; continue; }
	for q in 1 2 3; do
		"$d/ex" 512 512 512 --time fdtune --energy > "$d/run$q.txt" 2>&1
		grep -E "runs|time|energy" "$d/run$q.txt" | sed "s/^/$1 R=$2 process $q: /" |
			tee -a "$o/summary.txt"
	done
done
