#!/bin/sh
# gap.sh: the parity rows that missed 2% (parity-again.md), timed against
# fdtune's own timing of the same configuration on the same board,
# interleaved: ROUNDS (5) rounds, each one fdtune process (the configuration
# swept alone into a copy of a calibrated scratch database) and then one
# process of the single export of the same run, built with nvcc into
# tests/export_main.cu. Then one launch of each, for the first problem, under
# Nsight Compute (launch geometry, occupancy, LDS configuration, DRAM bytes
# and throughput, SM clock), so that a gap that persists can be placed.
# On the GPU machine from the repository root after `make`:
#   sh results/h100/parity/gap.sh [DB]
# PROBS ("iso3dfd:8:640x480x400 xyz:4:256x256x256 iso3dfd:8:256x256x256")
# chooses the problems; NCU=0 skips the profiles.
set -u
db=${1:-results/h100/fdtune.db}
rounds=${ROUNDS:-5}
probs=${PROBS:-iso3dfd:8:640x480x400 xyz:4:256x256x256 iso3dfd:8:256x256x256}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
PATH=$PATH:/usr/local/cuda/bin
./fdtune devices --calibrate --db "$tmp/cal.db" | grep -i 'copy' | head -2
. results/h100/parity/singles.sh
build_singles "$db"
# now DIR F R SIZE ROUND: fdtune's median (ms) of DIR's configuration now
now() {
	cp "$tmp/cal.db" "$1/now$5.db"
	fdtune_now "$1/now$5.db" "$1/now.log" "-f $2 -r $3 -n $4" "$(params "$1")" |
		awk '{ printf "%.4f", $1 }'
}
# interleave DIR F R SIZE: ROUNDS rounds of fdtune now and the export, interleaved
interleave() {
	d=$1 f=$2 r=$3 sz=$4
	rec=$(sed -n '4s/.*: \([0-9.]*\) ms,.*/\1/p' "$d/k.h")
	: > "$d/f.t"; : > "$d/e.t"
	for t in $(seq "$rounds"); do
		now "$d" "$f" "$r" "$sz" "$t" >> "$d/f.t"
		echo >> "$d/f.t"
		# shellcheck disable=SC2046
		"$d/ex" $(echo "$sz" | tr x ' ') --time fdtune 2>&1 |
			sed -n 's/^time .*: median \([0-9.]*\) ms.*/\1/p' >> "$d/e.t"
	done
	printf '%s:%s:%s %s R=%s %s: record %s ms\n  fdtune %s median %s\n  export %s median %s\n' \
		"$f" "$r" "$sz" "$f" "$r" "$sz" "$rec" "$(tr '\n' ' ' < "$d/f.t")" "$(med "$d/f.t")" \
		"$(tr '\n' ' ' < "$d/e.t")" "$(med "$d/e.t")"
	grep -i 'error' "$d/now.log" | head -3
}
med() { sort -n "$1" | awk 'NF { a[++m] = $1 } END { if (m) print a[int((m + 1) / 2)] }'; }
each_single interleave
[ "${NCU:-1}" = 0 ] && exit 0
IFS=: read -r f r sz <<-EOF
$(echo "$probs" | cut -d' ' -f1)
EOF
d=$tmp/1
secs="--section LaunchStats --section Occupancy --section SpeedOfLight --section MemoryWorkloadAnalysis"
mets="--metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,sm__cycles_elapsed.avg.per_second,dram__cycles_elapsed.avg.per_second,launch__shared_mem_config_size,launch__occupancy_limit_shared_mem,launch__occupancy_limit_registers"
cp "$tmp/cal.db" "$tmp/ncu.db"
echo "== ncu: fdtune, $f R=$r $sz"
# shellcheck disable=SC2046,SC2086
ncu --clock-control none -k fdt_kernel --launch-skip 3 -c 1 $secs $mets \
	./fdtune sweep -q --db "$tmp/ncu.db" -s exhaustive --no-race -f "$f" -r "$r" -n "$sz" \
	$(params "$d") 2>&1 | grep -v '^==PROF==' | grep -v '^ *$' | grep -v -- '----'
echo "== ncu: export, $f R=$r $sz"
# shellcheck disable=SC2046,SC2086
ncu --clock-control none -k fdt_kernel --launch-skip 3 -c 1 $secs $mets \
	"$d/ex" $(echo "$sz" | tr x ' ') --time 10 2>&1 | grep -v '^==PROF==' | grep -v '^ *$' | grep -v -- '----'
