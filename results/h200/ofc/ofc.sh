#!/bin/sh
# ofc.sh: issue 33's experiment with NVRTC's fast-compile levels
# (--Ofast-compile, -Ofc; CUDA 12.8 and later). On the CPU machine, 20
# sources of xyz and iso3dfd R = 8 took 37% less NVRTC time with -Ofc=min
# and 71% less with -Ofc=mid, and both change the code (results/NOTES.md,
# "v77"). What they cost in speed decides it: the 20 fastest records of
# xyz R = 4, xyz R = 8 and iso3dfd R = 8 (fp32, 512^3) in DB are timed
# again (--recheck 20) by the stock fdtune (A) and by fdtune built with
# -Ofc=min (B) and -Ofc=mid (C) added to NVRTC's options, in the order
# A B C A B C, each into its own copy of DB (the compile cache's key holds
# the options, so no build is shared); then each build compiles the same
# 1000 xyz R = 8 configurations with an empty cache (--compile-only), timed.
# compare.sh reads what comes back on the CPU machine (A.db against B.db or
# C.db). On the GPU machine from the repository root after `make`:
#   OUT=DIR [DB=results/h200/fdtune.db] sh results/h200/ofc/ofc.sh
set -u
o=${OUT:-/tmp/ofc}
db=${DB:-results/h200/fdtune.db}
mkdir -p "$o"
t=$(mktemp -d)
for lv in min mid; do
	mkdir -p "$t/$lv"
	git ls-files -z | xargs -0 cp --parents -t "$t/$lv" || exit 1
	sed -i 's/static const char \*const base_opts\[\] = { "--std=c++17",/static const char *const base_opts[] = { "-Ofc='"$lv"'", "--std=c++17",/;
		s/return ma > 12 || (ma == 12 \&\& mi >= 9) ? 3 : 2;/return ma > 12 || (ma == 12 \&\& mi >= 9) ? 4 : 3;/' "$t/$lv/runtime/rt.c"
	grep -q "Ofc=$lv" "$t/$lv/runtime/rt.c" || { echo "ofc.sh: rt.c not patched" >&2; exit 1; }
	(cd "$t/$lv" && make -j"$(nproc)" fdtune > build.log 2>&1) || { tail -20 "$t/$lv/build.log"; exit 1; }
done
bin() { case $1 in A) echo ./fdtune;; B) echo "$t/min/fdtune";; C) echo "$t/mid/fdtune";; esac; }
printf 'xyz 4 512 fp32\nxyz 8 512 fp32\niso3dfd 8 512 fp32\n' > "$t/p.plan"
for w in A B C; do cp "$db" "$o/$w.db" || exit 1; done
for round in 1 2; do
	for w in A B C; do
		t0=$(date +%s)
		FDTUNE_CACHE=$t/cache$w $(bin $w) sweep -q --db "$o/$w.db" --plan "$t/p.plan" \
			--recheck 20 > "$o/$w$round.log" 2>&1
		echo "$w round $round: exit $? in $(( $(date +%s) - t0 )) s" | tee -a "$o/summary.txt"
		grep -E "problem [0-9]/" "$o/$w$round.log" >> "$o/summary.txt"
	done
done
for w in A B C; do
	t0=$(date +%s)
	FDTUNE_CACHE=$t/cc$w $(bin $w) sweep --compile-only -q --db "$t/cc$w.db" -f xyz -r 8 \
		-n 512 --max-configs 1000 > "$o/cc$w.log" 2>&1
	echo "$w compile-only 1000: exit $? in $(( $(date +%s) - t0 )) s" | tee -a "$o/summary.txt"
	tail -3 "$o/cc$w.log" >> "$o/summary.txt"
done
rm -rf "$t"
