#!/bin/sh
# ku.sh: issue 33's experiment before taking iso3dfd's z window from the
# launch where the march is unrolled 2R+1 times (ku 1) too, as it is where
# zu is 1 and ku 0 (NOTES v37). A is the tree; B a copy of it whose
# fam_iso3dfd.c makes nw a launch parameter wherever zu is 1, so that ku 1's
# two nw share one build: half of ku 1's compiles, most of a cold plan's
# NVRTC time (NOTES v48). The N (20) fastest records of iso3dfd R = 8 fp32
# at SIZE (128x128x64, where ku 1 wins in the shipped database) are timed
# again (--recheck N: each from today's template, so B's ku 1 kernels take
# their window from the launch and its ku 0 ones are A's, a control) by A
# and by B, twice each in the order A B A B, into copies of the database,
# kept as OUT/A.db.xz and OUT/B.db.xz for the comparison. On the GPU machine
# from the repository root after `make fdtune`:
#   OUT=DIR [DB=results/h100/fdtune.db] [SIZE=NXxNYxNZ] [N=20] sh results/h100/nw/ku.sh
set -u
o=${OUT:-/tmp/ku}
size=${SIZE:-128x128x64}
n=${N:-20}
mkdir -p "$o"
b=$(mktemp -d)
cp -r Makefile gen templates tuner runtime db "$b"/ &&
	sed -i 's/return i != P_nw || (v\[P_zu\] == 1 \&\& v\[P_ku\] == 0);/return i != P_nw || v[P_zu] == 1;/' \
		"$b/tuner/fam/fam_iso3dfd.c" &&
	grep -q 'return i != P_nw || v\[P_zu\] == 1;' "$b/tuner/fam/fam_iso3dfd.c" &&
	make -C "$b" -j"$(nproc)" fdtune > "$o/buildB.log" 2>&1 || { echo "ku.sh: build B failed"; exit 1; }
for w in A B; do cp "${DB:-results/h100/fdtune.db}" "$o/$w.db"; done
printf 'iso3dfd 8 %s fp32\n' "$size" > "$o/ku.plan"
for round in 1 2; do
	for w in A B; do
		exe=./fdtune
		[ "$w" = B ] && exe=$b/fdtune
		t0=$(date +%s)
		"$exe" sweep -q --db "$o/$w.db" --plan "$o/ku.plan" --recheck "$n" > "$o/$w$round.log" 2>&1
		echo "$w round $round: exit $? in $(( $(date +%s) - t0 )) s" | tee -a "$o/summary.txt"
		grep -E "rechecking|configurations in|held a" "$o/$w$round.log" >> "$o/summary.txt"
	done
done
for w in A B; do xz -9 -f "$o/$w.db"; done
rm -rf "$b"
