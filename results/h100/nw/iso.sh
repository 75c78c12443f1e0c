#!/bin/sh
# iso.sh: issue 33's experiment before making iso3dfd's nw a launch value,
# as nw.sh was for xyz (NOTES v35: not adopted). A is iso3dfd.m4 with the
# constant NW (the tree's; iso3dfd-const.m4 is the same text); B is
# iso3dfd-launch.m4, the z window taken from the launch, ceil(nz / chunks),
# with nw a launch parameter in fam_iso3dfd.c, so that the two nw of a
# configuration share one source. When it ran (commit 91fcb2f) B was the
# tree and A a copy; now B is built in a copy of the tree. The 20 fastest
# records of iso3dfd R = 8 (fp32, 512^3) of the shipped database are timed
# again (--recheck 20) by A and by B, twice each in the order A B A B, into
# copies of the database (iso/compare.sql compares them).
# On the GPU machine from the repository root after `make fdtune`:
#   OUT=DIR sh results/h100/nw/iso.sh
set -u
o=${OUT:-/tmp/iso}
mkdir -p "$o"
b=$(mktemp -d)
cp -r Makefile gen templates tuner runtime db "$b"/ &&
	cp results/h100/nw/iso3dfd-launch.m4 "$b/templates/iso3dfd.m4" &&
	sed -i 's/"nw", "planes marched per thread (b3)", 1, 65536, 2, { 32, 128 } },/"nw", "planes marched per thread (b3)", 1, 65536, 2, { 32, 128 }, 0, 1 },/' \
		"$b/tuner/fam/fam_iso3dfd.c" &&
	grep -q '{ 32, 128 }, 0, 1 },' "$b/tuner/fam/fam_iso3dfd.c" &&
	make -C "$b" -j16 fdtune > "$o/buildB.log" 2>&1 || { echo "iso.sh: build B failed"; exit 1; }
cp results/h100/fdtune.db "$o/A.db"
cp results/h100/fdtune.db "$o/B.db"
printf 'iso3dfd 8 512 fp32\n' > "$o/iso.plan"
for round in 1 2; do
	for w in A B; do
		t0=$(date +%s)
		if [ "$w" = A ]; then
			./fdtune sweep -q --db "$o/A.db" --plan "$o/iso.plan" --recheck 20 \
				> "$o/$w$round.log" 2>&1
		else
			FDTUNE_TEMPLATES=$b/templates "$b/fdtune" sweep -q --db "$o/B.db" \
				--plan "$o/iso.plan" --recheck 20 > "$o/$w$round.log" 2>&1
		fi
		echo "$w round $round: exit $? in $(( $(date +%s) - t0 )) s" | tee -a "$o/summary.txt"
		grep -E "done|configurations in|references|held a" "$o/$w$round.log" >> "$o/summary.txt"
	done
done
rm -rf "$b"
