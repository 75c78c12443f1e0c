#!/bin/sh
# gap.sh: does fdtune's bench draw more power than a user's program running
# the same build? (NOTES v38: the exported energy-bests of xyz R = 8 and
# iso3dfd R = 8 read 2.7% and 4.6% under their records.) For each problem,
# its time-best is exported into tests/export_main.cu and, after a heat,
# measured alternately there (3 rounds) and by fdtune itself
# (`sweep --recheck 1 --energy`, the same configuration, with the default 3
# placements and with --places 1), twice, into scratch copies of the
# database (DIR/rN-*.db, read afterwards with gap.sql). From the repository
# root after `make fdtune`:  OUT=DIR sh results/h100/energy/gap.sh
set -u
o=${OUT:-/tmp/gap}
mkdir -p "$o"
for p in "xyz 8" "iso3dfd 8"; do
	set -- $p
	d="$o/ex-$1-$2"
	mkdir -p "$d"
	./fdtune export -f "$1" -r "$2" -n 512 --name k -o "$d" --db results/h100/fdtune.db \
		> "$d/export.log" 2>&1 && nvcc -O2 -arch=sm_90 -Xcompiler -fopenmp -I"$d" \
		tests/export_main.cu "$d/k.cu" -o "$d/ex" -ldl > "$d/nvcc.log" 2>&1 ||
		{ cat "$d/export.log" "$d/nvcc.log"; exit 1; }
done
"$o/ex-xyz-8/ex" 512 512 512 --time 13000 > /dev/null 2>&1     # about 30 s of heat
for rep in 1 2; do
	for p in "xyz 8" "iso3dfd 8"; do
		set -- $p
		"$o/ex-$1-$2/ex" 512 512 512 --time fdtune --energy 2>&1 | grep energy |
			sed "s/^/rep $rep $1 R=$2 export: /"
		for pl in 3 1; do
			db="$o/r$rep-$1-$2-p$pl.db"
			cp results/h100/fdtune.db "$db"
			./fdtune sweep -q --db "$db" -f "$1" -r "$2" -n 512 --recheck 1 --energy \
				--places "$pl" > "$db.log" 2>&1 || cat "$db.log"
			echo "rep $rep $1 R=$2 fdtune --places $pl: see $db"
		done
	done
done
