#!/bin/sh
# nw.sh: issue 33's experiment before making nw a launch value. xyz.m4 here
# (results/h100/nw/xyz.m4) is templates/xyz.m4 with the z window taken from
# the launch (ceil(nz / chunks), chunks = the grid's z extent) instead of
# the constant NW, so that the five nw of a configuration share one source.
# The 20 fastest records of xyz R = 4 and R = 8 (fp32, 512^3) of the shipped
# database are timed again (--recheck 20) with the stock templates (A) and
# with these (B), twice each in the order A B A B, into copies of the
# database; both copies come back in OUT for the comparison (NOTES).
# On the GPU machine from the repository root after `make`:
#   OUT=DIR sh results/h100/nw/nw.sh
set -u
o=${OUT:-/tmp/nw}
mkdir -p "$o"
t2=$(mktemp -d)
cp templates/* "$t2"/ && cp results/h100/nw/xyz.m4 "$t2"/xyz.m4
cp results/h100/fdtune.db "$o/A.db"
cp results/h100/fdtune.db "$o/B.db"
printf 'xyz 4 512 fp32\nxyz 8 512 fp32\n' > "$t2/nw.plan"
for round in 1 2; do
	for w in A B; do
		t0=$(date +%s)
		if [ "$w" = A ]; then
			./fdtune sweep -q --db "$o/A.db" --plan "$t2/nw.plan" --recheck 20 > "$o/$w$round.log" 2>&1
		else
			FDTUNE_TEMPLATES=$t2 ./fdtune sweep -q --db "$o/B.db" --plan "$t2/nw.plan" --recheck 20 \
				> "$o/$w$round.log" 2>&1
		fi
		echo "$w round $round: exit $? in $(( $(date +%s) - t0 )) s" | tee -a "$o/summary.txt"
		grep -E "done|problem [0-9]/" "$o/$w$round.log" >> "$o/summary.txt"
	done
done
rm -rf "$t2"
