#!/bin/sh
# profile-bests.sh: Nsight Compute profiles of the best configuration of each
# problem named, read from a database, through profile.sh (fdtune itself runs
# the kernel). On the GPU machine, from the repository root after `make`:
#   sh results/h100/profile-bests.sh OUTDIR [DB] FAMILY:R:PRECISION:SIZE ...
# writes OUTDIR/profile-FAMILY-R-PRECISION-SIZE.txt for each, and prints the
# lines that matter (profile.sh's summary) under a header naming the problem.
set -eu
out=$1; shift
db=results/h100/fdtune.db
case ${1:-} in *.db) db=$1; shift ;; esac
mkdir -p "$out"
for p in "$@"; do
	IFS=: read -r f r pr n <<-EOF2
	$p
	EOF2
	params=$(sh results/h100/best-flags.sh "$db" -f "$f" -r "$r" --precision "$pr" -n "$n")
	[ -n "$params" ] || { echo "profile-bests.sh: no best for $p in $db" >&2; continue; }
	echo "== $f R=$r $pr $n: $params"
	# shellcheck disable=SC2086
	sh results/h100/profile.sh "$out/profile-$f-$r-$pr-$n.txt" -f "$f" -r "$r" \
		--precision "$pr" -n "$n" -s exhaustive $params
done
