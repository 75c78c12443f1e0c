#!/bin/sh
# ntvar.sh: issue 33's experiment before making nt a module variable (one
# build for both values of the streaming-store knob would halve a cold
# plan's compiles; results/NOTES.md, "The plan's sources, counted"). The
# 20 fastest records of xyz R = 4, xyz R = 8 and iso3dfd R = 8 (fp32,
# 512^3) in DB (the shipped records of this GPU model) are timed again
# (--recheck 20) with the stock templates (A) and with variant.sh's, whose
# stores branch on the module variable (B), twice each in the order A B A
# B, into copies of DB that come back in OUT; compare.sh reads them on
# the CPU machine. On the GPU machine from the repository root after
# `make`:
#   OUT=DIR [DB=results/h200/fdtune.db] [SPACE=device|constant] sh results/h200/ntvar/ntvar.sh
# SPACE (variant.sh): the variable in __device__ memory (run 1: a global
# store may alias it, so it is loaded again after stores) or __constant__
# (run 2: loaded once a kernel).
set -u
o=${OUT:-/tmp/ntvar}
db=${DB:-results/h200/fdtune.db}
mkdir -p "$o"
t2=$(mktemp -d)
sh results/h200/ntvar/variant.sh "$t2" "${SPACE:-device}" || exit 1
cp "$db" "$o/A.db" && cp "$db" "$o/B.db" || exit 1
printf 'xyz 4 512 fp32\nxyz 8 512 fp32\niso3dfd 8 512 fp32\n' > "$t2/nt.plan"
for round in 1 2; do
	for w in A B; do
		t0=$(date +%s)
		if [ "$w" = A ]; then
			./fdtune sweep -q --db "$o/A.db" --plan "$t2/nt.plan" --recheck 20 > "$o/$w$round.log" 2>&1
		else
			FDTUNE_TEMPLATES=$t2 ./fdtune sweep -q --db "$o/B.db" --plan "$t2/nt.plan" \
				--recheck 20 > "$o/$w$round.log" 2>&1
		fi
		echo "$w round $round: exit $? in $(( $(date +%s) - t0 )) s" | tee -a "$o/summary.txt"
		grep -E "problem [0-9]/" "$o/$w$round.log" >> "$o/summary.txt"
	done
done
rm -rf "$t2"
