#!/bin/sh
# d30c.sh: one H200: a single sweep, no -s, into an empty database with
# --seeds-from results/h100/fdtune.db: the default becomes a transfer search
# from the H100's bests (2% of the space, seeds outside its domains added);
# its best against the H200's shipped record of the same problem.
TARGETS=fdtune sh .device/prep.sh || exit 1
for p in "iso3dfd -r 8 -n 512" "xyz -r 4 -n 512"; do
	rm -f /tmp/s.db*
	s=$(date +%s)
	# shellcheck disable=SC2086
	./fdtune sweep -f $p --seeds-from results/h100/fdtune.db --db /tmp/s.db -q > "$OUT/sweep.log" 2>&1
	echo "sweep -f $p: rc $? in $(( $(date +%s) - s )) s"
	grep -E "seeds-from|transfer|configurations in" "$OUT/sweep.log"
	# shellcheck disable=SC2086
	./fdtune best --db /tmp/s.db -f $p
	# shellcheck disable=SC2086
	./fdtune best --db results/h200/fdtune.db -f $p
done
