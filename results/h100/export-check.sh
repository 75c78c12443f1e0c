#!/bin/sh
# export-check.sh: issue 13's export acceptance on the GPU machine, from the
# repository root after `make` (nvcc needed):
#   sh results/h100/export-check.sh [DB]
# For each problem below (PROBLEMS=FAMILY:R:PRECISION ... picks others; the
# default is every row of issue 13's table at 512^3), `fdtune export` of its
# best at 512^3 (the kernel and NAME_launch, which gives the dynamic LDS and
# opts in above 48 KiB) is built with nvcc into tests/export_main.cu (all
# builds at once), then validated at 512^3 and at 61x37x29 (random input,
# poisoned output, halo checked) and timed at 512^3 (median of 50 launches).
# Prints one line per run; exit 1 if an export, a build or a run failed.
set -u
db=${1:-results/h100/fdtune.db}
arch=${ARCH:-sm_90}
. results/h100/highorder-rows.sh
problems=${PROBLEMS:-$ROWS}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
PATH=$PATH:/usr/local/cuda/bin
bad=0
i=0
for p in $problems; do              # export each, and start its build
	i=$((i + 1))
	IFS=: read -r f r pr <<-EOF
	$p
	EOF
	mkdir "$tmp/$i"
	if ./fdtune export --db "$db" --device H100 --out "$tmp/$i" --name k -f "$f" -r "$r" \
	    --precision "$pr" -n 512 >/dev/null 2>"$tmp/$i/err"; then
		nvcc -O2 -arch="$arch" -I"$tmp/$i" tests/export_main.cu "$tmp/$i/k.cu" \
			-o "$tmp/$i/ex" >"$tmp/$i/err" 2>&1 &
	fi
done
wait
i=0
for p in $problems; do
	i=$((i + 1))
	IFS=: read -r f r pr <<-EOF
	$p
	EOF
	if [ ! -x "$tmp/$i/ex" ]; then
		echo "$f R=$r $pr: export or build FAILED: $(cat "$tmp/$i/err")"
		bad=1
		continue
	fi
	lds=$(sed -n 's/.*<<<grid, block, \([0-9]*\),.*/\1/p' "$tmp/$i/k.cu" | head -1)
	for n in "512 512 512 --time 50" "61 37 29"; do
		# shellcheck disable=SC2086
		out=$("$tmp/$i/ex" $n 2>&1) || { out="$out FAILED (exit $?)"; bad=1; }
		printf '%s R=%s %s, %s bytes of dynamic LDS, %s: %s\n' "$f" "$r" "$pr" "${lds:-0}" \
			"$n" "$(echo "$out" | tr '\n' ' ')"
	done
done
exit $bad
