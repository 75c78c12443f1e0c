#!/bin/sh
# parity.sh: issue 22's parity table, on the GPU machine from the repository
# root after `make` (nvcc needed):
#   sh results/h100/parity/parity.sh [DB] > parity.md
# Every row of issue 13's table at 512^3 (results/h100/highorder-rows.sh)
# and the --all-sizes exports of SIZES at every recorded size: `fdtune
# export` (the measured build embedded where it can be), built with nvcc
# into tests/export_main.cu (a user's program: its own layout, random data,
# its own CPU reference), validated at 61x37x29 and at the size itself, and
# timed there as fdtune's sweeps time (export_main --time fdtune: to a
# stable median, 30 launches or more) on PLACES (3) placements of its fields
# in each of TRIALS processes (3: the median of each process's placements,
# the median of those, and their range), and again over REPS launches (1000),
# what a long propagation sees. Each line sets the export's median beside
# the database's median of the run it exported (NAME.h names both),
# and beside fdtune's own median of that configuration measured again now,
# on this board (a sweep of it alone into a scratch database): the records
# were made on other H100 boards on other days (NOW=stale: only where the
# record is of older templates, as the verdict needs). Percentages are of the copy
# bandwidth fdtune measures: the record's of its board, the others of this
# one. Exit 1 when a build or a check fails, or an export is over 2% slower
# than its record (than fdtune now where the record's build is of older
# templates, and the export embeds a repeat of it: NAME.h says so).
set -u
db=${1:-results/h100/fdtune.db}
arch=${ARCH:-sm_90}
reps=${REPS:-1000}
trials=${TRIALS:-3}
places=${PLACES:-3}
nowfor=${NOW:-all}
dev=${DEVICE:-H100}
. results/h100/highorder-rows.sh
rows=${ROWS_ONLY-$ROWS}
sizes=${SIZES-"xyz:4:fp32 xyz:8:fp32 xyz:8:fp64 iso3dfd:8:fp32"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
PATH=$PATH:/usr/local/cuda/bin
. results/h100/parity/singles.sh
bad=0
# start: export into DIR with ARGS, then build its program in the background
start() {
	d=$1
	shift
	mkdir -p "$d"
	if ./fdtune export --db "$db" --device "$dev" --out "$d" --name k "$@" >"$d/out" 2>"$d/err"
	then
		nvcc -O2 -arch="$arch" -Xcompiler -fopenmp -I"$d" tests/export_main.cu "$d/k.cu" \
			-o "$d/ex" -lgomp >"$d/nvcc" 2>&1 &
	fi
}
# each FN: FN DIR KIND F R PR for every row (KIND one: 512^3) and every
# --all-sizes problem (KIND sizes), each with a directory of its own
each() {
	n=0
	for q in $(for p in $rows; do echo "one:$p"; done; for p in $sizes; do echo "sizes:$p"; done)
	do
		n=$((n + 1))
		IFS=: read -r kind f r pr <<-EOF
		$q
		EOF
		"$1" "$tmp/$n" "$kind" "$f" "$r" "$pr"
	done
}
build() {
	if [ "$2" = one ]; then
		start "$1" -f "$3" -r "$4" --precision "$5" -n 512
	else
		start "$1" -f "$3" -r "$4" --precision "$5" --all-sizes
	fi
}
each build
wait
# remeasure "PROBLEM" "PARAMS": fdtune's own median and %copy now, on this
# board, of the configuration PARAMS ("-p k=v ...") of PROBLEM ("-f F -r R
# --precision P -n XxYxZ"), swept alone into $tmp/now.db
remeasure() {
	fdtune_now "$tmp/now.db" "$tmp/now.log" "$1" "$2"
}
# row DIR LABEL F R PR NX NY NZ: checks and times DIR's program at that size
row() {
	d=$1 label=$2 f=$3 r=$4 pr=$5 nx=$6 ny=$7 nz=$8
	rec=$(sed -n "s/.*, run \([0-9]*\), for ${nx}x${ny}x${nz}: \([0-9.]*\) ms, [0-9.]* GB\/s, \([0-9.]*\)%.*/\1 \2 \3/p" \
		"$d/k.h" | head -1)
	cfg=$(sed -n "/, for ${nx}x${ny}x${nz}: /{n;s/.*); \(kernel [0-9]*: \)\{0,1\}//p;}" "$d/k.h" | head -1)
	if [ ! -x "$d/ex" ] || [ -z "$rec" ]; then
		echo "| $label | ${nx}x${ny}x${nz} | export or build FAILED: $(cat "$d/err" "$d/nvcc" 2>/dev/null | tr '\n' ' ' | cut -c1-300) | | | | | | |"
		bad=1
		return
	fi
	small=$("$d/ex" 61 37 29 2>&1) || bad=1
	# TRIALS processes, each timing as fdtune does on PLACES placements of
	# its fields (export_main --placements: where the fields lie moves a
	# kernel's time by up to 4%, NOTES v27), the median of its placements'
	# medians; the median of the processes' figures, and their range
	out= spread=
	for t in $(seq "$trials"); do
		o=$("$d/ex" "$nx" "$ny" "$nz" --time fdtune --placements "$places" 2>&1) || bad=1
		out="$out
$o"
		spread="$spread $(echo "$o" | sed -En 's/^(time|placement [0-9]*) .*: median ([0-9.]*) ms.*/\2/p' |
			sort -n | awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)] }')"
	done
	med=$(echo $spread | tr ' ' '\n' | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
	one=$(echo "$out" | grep '^time' | head -1)
	out=$(echo "$out" | grep -Ev '^(time|placement)'; echo "$one")
	spread=$(echo $spread | tr ' ' '\n' | sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%s-%s", lo, hi }')
	long=$("$d/ex" "$nx" "$ny" "$nz" --time "$reps" 2>&1 | sed -n 's/^time .*: median \([0-9.]*\) ms.*/\1/p')
	ms=$med
	# GB/s of the median: the first timing's, scaled by its time over the median's
	gbs=$(echo "$one" | sed -n 's/^time .*: median \([0-9.]*\) ms, \([0-9.]*\) GB\/s.*/\1 \2/p' |
		awk -v m="${med:-0}" '{ if (m > 0) printf "%.1f", $2 * $1 / m }')
	# the kernel of this size, and whether its record is of older templates
	k=$(sed -n "/, for ${nx}x${ny}x${nz}: /{n;s/.*); kernel \([0-9]*\): .*/\1/p;}" "$d/k.h" | head -1)
	stale=$(grep -c "^ \*   kernel ${k:-0}: .*built from older templates" "$d/k.h")
	which=$(echo "$out" | sed -n 's/^k_launch on .* runs the \([a-z]*\) .*/\1/p' | sort -u | tr '\n' ' ')
	checks=$(printf '%s\n%s\n' "$small" "$out" | grep ': 0 bad points' | sort -u | wc -l)
	now=
	[ "$nowfor" = stale ] && [ "$stale" = 0 ] ||
		now=$(remeasure "-f $f -r $r --precision $pr -n ${nx}x${ny}x${nz}" \
			"$(for kv in $cfg; do printf -- '-p %s ' "$kv"; done)")
	set -- $rec $now
	ratio=$(awk -v a="${ms:-0}" -v b="$2" 'BEGIN { printf "%.3f", a / b }')
	rnow=$(awk -v a="${ms:-0}" -v b="${4:-0}" 'BEGIN { if (b > 0) printf "%.3f", a / b; else printf "?" }')
	pct=$(awk -v g="${gbs:-0}" -v c="$copy" 'BEGIN { printf "%.1f", 100 * g / c }')
	rlong=$(awk -v a="${long:-0}" -v b="$2" 'BEGIN { printf "%.3f", a / b }')
	verdict=ok
	if [ "$stale" != 0 ]; then      # judged against today's build of it, on this board
		verdict="ok: record of older templates"
		awk -v x="$rnow" 'BEGIN { exit !(x == "?" || x > 1.02) }' &&
			verdict="SLOWER than fdtune now (record of older templates)" && bad=1
	else
		awk -v x="$ratio" 'BEGIN { exit !(x > 1.02 || x == 0) }' && verdict=SLOWER && bad=1
	fi
	# the check at 61x37x29 and the one at the size: one line where they are one size
	want=2
	[ "${nx}x${ny}x${nz}" = 61x37x29 ] && want=1
	[ "$checks" = "$want" ] || { verdict="CHECK FAILED: $(echo "$small $out" | tr '\n' ' ' | cut -c1-200)"; bad=1; }
	echo "| $label | ${nx}x${ny}x${nz} | $1 | $2 | ${4:-?} | ${ms:-?} ($spread) | $ratio | $rnow | ${long:-?} | $rlong | $3 | ${5:-?} | $pct | $which | $verdict |"
}
# this board's copy bandwidth, as fdtune measures it (GB/s, reads + writes)
copy=$(./fdtune devices --calibrate --db "$tmp/now.db" | sed -n 's/.*copy bandwidth \([0-9.]*\) GB\/s.*/\1/p' | head -1)
echo "Copy bandwidth of this board, fdtune devices --calibrate: ${copy:-?} GB/s."
echo
echo "| problem | size | run | recorded ms | fdtune now ms | export ms (range of trials) | export / recorded | export / fdtune now | export ms, $reps launches | that / recorded | recorded %copy | fdtune now %copy | export %copy | build | |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
# measure DIR KIND F R PR: row of every size DIR's export was made for
measure() {
	if [ "$2" = one ]; then
		row "$1" "$3 R=$4 $5" "$3" "$4" "$5" 512 512 512
		return
	fi
	for s in $(sed -n 's/.*, run [0-9]*, for \([0-9x]*\): .*/\1/p' "$1/k.h"); do
		IFS=x read -r nx ny nz <<-EOF
		$s
		EOF
		row "$1" "$3 R=$4 $5 --all-sizes" "$3" "$4" "$5" "$nx" "$ny" "$nz"
	done
}
each measure
[ -s "$tmp/now.log" ] && grep -i 'error\|fdtune [a-z]*: ' "$tmp/now.log" | head -5 >&2
exit $bad
