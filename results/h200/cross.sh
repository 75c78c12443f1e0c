#!/bin/sh
# cross.sh: issue 26 §2 and §4, on an H100 or an H200 from the repository
# root after `make` (nvcc needed):
#   sh results/h200/cross.sh H200DB
# Each problem's best on the H100 (results/h100/fdtune.db) and on the H200
# (H200DB), exported with `fdtune export` (its measured build embedded),
# built with nvcc into tests/export_main.cu, validated and timed on this GPU
# as fdtune times (--time fdtune); then the --all-devices export of the two
# databases merged, which must pick this GPU's own kernel, and the
# --all-devices --all-sizes export, at each size. Each time is the median of
# TRIALS (3) processes' medians. Percentages are of the copy bandwidth fdtune
# calibrated for this GPU (in either database).
set -u
h200=${1:?usage: cross.sh H200DB}
trials=${TRIALS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
PATH=$PATH:/usr/local/cuda/bin
cp results/h100/fdtune.db "$tmp/both.db"
./fdtune merge --db "$tmp/both.db" "$h200" >/dev/null || exit 1
gpu=$(./fdtune devices | sed -n 's/^0: \(.*\)  arch .*/\1/p')
copy=$(./fdtune devices --db "$tmp/both.db" | sed -n 's/.*copy bandwidth \([0-9.]*\) GB\/s.*/\1/p' | head -1)
echo "this GPU: ${gpu:-?}; its copy bandwidth (fdtune's calibration): ${copy:-?} GB/s"
probs="xyz:4:512 xyz:8:512 iso3dfd:8:512 xyz:8:1000x300x129 iso3dfd:8:1000x300x129
xyz:8:256 iso3dfd:8:256"
# every export built first, in parallel
for p in $probs; do
	IFS=: read -r f r n <<-X
	$p
	X
	for dev in H100 H200 all sizes; do
		d=$tmp/$f$r-$n-$dev
		mkdir -p "$d"
		if [ $dev = sizes ]; then
			[ $n = 512 ] || { ln -s "$tmp/$f$r-512-sizes/ex" "$d/ex"; ln -s "$tmp/$f$r-512-sizes/k.h" "$d/k.h"; continue; }
			set -- --db "$tmp/both.db" --all-devices --all-sizes
		elif [ $dev = all ]; then
			set -- --db "$tmp/both.db" --all-devices
		elif [ $dev = H100 ]; then
			set -- --db results/h100/fdtune.db --device H100
		else
			set -- --db "$h200" --device H200
		fi
		[ $dev = sizes ] || set -- "$@" -n $n
		{ ./fdtune export "$@" -f $f -r $r --out "$d" --name k >"$d/err" 2>&1 &&
		  nvcc -O2 -arch=sm_90 -Xcompiler -fopenmp -I"$d" tests/export_main.cu "$d/k.cu" \
			-o "$d/ex" -lgomp >>"$d/err" 2>&1; } &
	done
done
wait
echo "| problem | size | tuned on | run | recorded there, ms | here, ms | here / recorded | % of this GPU's copy | build | check |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for p in $probs; do
	IFS=: read -r f r n <<-X
	$p
	X
	case $n in *x*) sz=$(echo $n | tr x ' ') ;; *) sz="$n $n $n" ;; esac
	for dev in H100 H200 all sizes; do
		d=$tmp/$f$r-$n-$dev
		if [ ! -x "$d/ex" ]; then
			echo "| $f R=$r | $n | $dev | FAILED: $(head -c 300 "$d/err" | tr '\n|' '  ') | | | | | |"
			continue
		fi
		ms= gbs= ok=1
		for t in $(seq "$trials"); do
			out=$("$d/ex" $sz --time fdtune 2>&1)
			echo "$out" | grep -q ': 0 bad points' || ok=0
			ms="$ms $(echo "$out" | sed -n 's/^time .*: median \([0-9.]*\) ms.*/\1/p')"
		done
		# the median of the trials' medians
		ms=$(echo $ms | tr ' ' '\n' | sort -n | awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)] }')
		bytes=$(echo "$out" | sed -n 's/^time .* ms, \([0-9.]*\) GB\/s.*/\1/p')
		tms=$(echo "$out" | sed -n 's/^time .*: median \([0-9.]*\) ms.*/\1/p')
		run=$(echo "$out" | sed -n 's/^k_launch on .* runs the measured build of run \([0-9]*\).*/\1/p')
		which=$(echo "$out" | sed -n 's/^k_launch on .* runs the \([a-z]*\) .*/\1/p')
		# the record: of the run exported (H100, H200), or for --all-devices
		# the one NAME.h selects on this GPU at this size (its embedded build
		# can be another device's run of the same configuration: the same code)
		case $dev in
		H100|H200) line=$(grep ", run ${run:-x}, for " "$d/k.h" | head -1) ;;
		*) line=$(grep -E "(Selected|Tuned) on $gpu \(.*, for $(echo "$sz" | tr ' ' x): " "$d/k.h" | head -1)
		   [ -n "$line" ] || line=$(grep ", run ${run:-x}, for " "$d/k.h" | head -1) ;;
		esac
		rec=$(echo "$line" | sed -n 's/.*, for [0-9x]*: \([0-9.]*\) ms.*/\1/p')
		on=$(echo "$line" | sed -n 's/.*on \(NVIDIA [^(]*\) (.*/\1/p')
		sel=$(echo "$line" | sed -n 's/.*, run \([0-9]*\), for .*/\1/p')
		[ "${sel:-$run}" = "$run" ] || run="$sel (build of run $run)"
		case $dev in
		all) dev="--all-devices: ${on:-?}" ;;
		sizes) dev="--all-devices --all-sizes: ${on:-?}" ;;
		esac
		# GB/s of the median: the last trial's GB/s scaled by its time
		pct=$(awk -v b="${bytes:-0}" -v t="${tms:-0}" -v m="${ms:-0}" -v c="${copy:-0}" \
			'BEGIN { if (c > 0 && m > 0) printf "%.1f", 100 * b * t / m / c }')
		ratio=$(awk -v m="${ms:-0}" -v r="${rec:-0}" 'BEGIN { if (r > 0) printf "%.3f", m / r }')
		echo "| $f R=$r | $n | $dev | ${run:-?} | ${rec:-?} | ${ms:-FAILED} | ${ratio:-?} | $pct | ${which:-?} | $([ "$ok" = 1 ] && echo ok || echo FAILED) |"
	done
done
