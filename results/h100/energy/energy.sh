#!/bin/sh
# energy.sh: issue 36's table, in two phases, each a call of the GPU
# machine's, from the repository root after `make fdtune`:
#   OUT=DIR sh results/h100/energy/energy.sh sweeps
#   OUT=DIR sh results/h100/energy/energy.sh exports   (DIR as the sweeps')
# sweeps: the 20 fastest records of xyz R = 4, xyz R = 8 and iso3dfd R = 8
# (fp32, 512^3) of the shipped database are timed again with their energy
# measured (--recheck 20 --energy), in 3 processes one after the other, each
# on a fresh copy of the shipped database so that all three measure the
# same 20 (a recheck replaces the records it ranks by); fdtune merge then
# puts the three into energy.db, where each configuration has 3
# measurements, and energy.sql compares each problem's time-best with its
# energy-best (energy.md). The GPU is heated for HEAT seconds (30) first,
# by the exported time-best of xyz R = 4, because a board's power at one
# kernel rises with its temperature over minutes (NOTES v38).
# exports: each problem's energy-best in DB (default DIR/energy.db) exported
# (its measured build embedded) into tests/export_main.cu, a user's program,
# all built first; then the same heat, and each measured there as a user
# would with NVML, 3 rounds of 1000 launches and 2 s at least, in 3
# processes back to back: the J/Gpt against what the database says.
# nvidia-smi's clocks and power limit are printed before and after (fdtune
# records them with each measurement, and never sets them).
set -u
o=${OUT:-/tmp/energy}
heat=${HEAT:-30}
phase=${1:-sweeps}
mkdir -p "$o"
smi() {
	nvidia-smi --query-gpu=name,temperature.gpu,clocks.sm,clocks.mem,power.limit,power.draw \
		--format=csv >> "$o/smi.txt" 2>&1
}
# export DB FAMILY R OBJECTIVE DIR: the export built into a user's program
export_to() {
	mkdir -p "$5"
	./fdtune export --db "$1" -f "$2" -r "$3" -n 512 --objective "$4" --name k -o "$5" \
		> "$5/export.log" 2>&1 || { cat "$5/export.log"; return 1; }
	nvcc -O2 -arch=sm_90 -Xcompiler -fopenmp -I"$5" tests/export_main.cu "$5/k.cu" -o "$5/ex" \
		-ldl > "$5/nvcc.log" 2>&1 || { cat "$5/nvcc.log"; return 1; }
}
heat() {
	[ -x "$o/heater/ex" ] || export_to results/h100/fdtune.db xyz 4 time "$o/heater" || return 1
	smi
	"$o/heater/ex" 512 512 512 --time $(( heat * 2300 )) > "$o/heater/run.txt" 2>&1
	smi
}
case $phase in
sweeps)
	printf 'xyz 4 512 fp32\nxyz 8 512 fp32\niso3dfd 8 512 fp32\n' > "$o/plan"
	heat
	for p in 1 2 3; do
		cp results/h100/fdtune.db "$o/process$p.db"
		t0=$(date +%s)
		./fdtune sweep -q --db "$o/process$p.db" --plan "$o/plan" --recheck 20 --energy \
			> "$o/process$p.log" 2>&1
		echo "process $p: exit $? in $(( $(date +%s) - t0 )) s" | tee -a "$o/summary.txt"
		grep -E "energy|done|configurations in" "$o/process$p.log" >> "$o/summary.txt"
		smi
	done
	rm -f "$o/energy.db"
	./fdtune merge --db "$o/energy.db" "$o/process1.db" "$o/process2.db" "$o/process3.db" \
		>> "$o/summary.txt" 2>&1 || echo "merge failed" | tee -a "$o/summary.txt"
	;;
exports)
	# built first, then the heat, then measured back to back: a board left
	# to idle through a compile cools, and draws less (NOTES v38)
	db=${DB:-$o/energy.db}
	for p in "xyz 4" "xyz 8" "iso3dfd 8"; do
		set -- $p
		export_to "$db" "$1" "$2" energy "$o/export-$1-$2"
	done
	heat
	for p in "xyz 4" "xyz 8" "iso3dfd 8"; do
		set -- $p
		d="$o/export-$1-$2"
		[ -x "$d/ex" ] || continue
		for q in 1 2 3; do
			"$d/ex" 512 512 512 --time fdtune --energy > "$d/run$q.txt" 2>&1
			grep -E "runs|time|energy" "$d/run$q.txt" | sed "s/^/$1 R=$2 process $q: /" |
				tee -a "$o/summary.txt"
		done
		smi
	done
	;;
*)
	echo "usage: OUT=DIR sh energy.sh sweeps|exports" >&2
	exit 2
	;;
esac
