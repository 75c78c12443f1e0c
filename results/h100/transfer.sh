#!/bin/sh
# transfer.sh: the transfer strategy of issue 14 replayed on the recorded
# H100 sweeps, on the CPU (no GPU needed), from the repository root after
# `make`:
#   sh results/h100/transfer.sh > /tmp/transfer.md
# For xyz fp32 R = 4 and iso3dfd fp32 R = 8 (exhaustive at every size, see
# sizes.sh), each size is held out in turn: the transfer search sees only the
# runs of the other sizes (any radius), and each configuration it proposes
# gets the held-out size's recorded time. Guided gets the same budget (2% of
# the space), and 10% for scale; 25 seeds each.
set -eu
db=${DB:-results/h100/fdtune.db}
for p in "xyz 4" "iso3dfd 8"; do
	set -- $p
	for s in "transfer 2" "guided 2" "guided 10"; do
		# shellcheck disable=SC2086
		set -- $1 $2 $s
		./fdtune replay --db "$db" -f "$1" -r "$2" --precision fp32 --each-size -s "$3" -b "$4" |
			if [ "$3 $4" = "transfer 2" ]; then cat; else sed -n '/^| [0-9]/p'; fi
		set -- "$1" "$2"
	done
	echo
done
