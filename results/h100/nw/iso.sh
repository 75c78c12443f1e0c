#!/bin/sh
# iso.sh: issue 33's experiment before making iso3dfd's nw a launch value,
# as nw.sh was for xyz. A is the build before (iso3dfd.m4 with the constant
# NW, kept here as iso3dfd-const.m4, and nw not a launch parameter in
# fam_iso3dfd.c), built in a copy of the tree; B is the tree as it is (the
# z window taken from the launch, ceil(nz / chunks), so the two nw of a
# configuration share one source). The 20 fastest records of iso3dfd R = 8
# (fp32, 512^3) of the shipped database are timed again (--recheck 20) by A
# and by B, twice each in the order A B A B, into copies of the database.
# On the GPU machine from the repository root after `make fdtune`:
#   OUT=DIR sh results/h100/nw/iso.sh
set -u
o=${OUT:-/tmp/iso}
mkdir -p "$o"
a=$(mktemp -d)
cp -r Makefile gen templates tuner runtime db "$a"/ &&
	cp results/h100/nw/iso3dfd-const.m4 "$a/templates/iso3dfd.m4" &&
	sed -i 's/{ 32, 128 }, 0, 1 },/{ 32, 128 } },/' "$a/tuner/fam/fam_iso3dfd.c" &&
	grep -q '{ 32, 128 } },' "$a/tuner/fam/fam_iso3dfd.c" &&
	make -C "$a" -j16 fdtune > "$o/buildA.log" 2>&1 || { echo "iso.sh: build A failed"; exit 1; }
cp results/h100/fdtune.db "$o/A.db"
cp results/h100/fdtune.db "$o/B.db"
printf 'iso3dfd 8 512 fp32\n' > "$o/iso.plan"
for round in 1 2; do
	for w in A B; do
		t0=$(date +%s)
		if [ "$w" = A ]; then
			FDTUNE_TEMPLATES=$a/templates "$a/fdtune" sweep -q --db "$o/A.db" \
				--plan "$o/iso.plan" --recheck 20 > "$o/$w$round.log" 2>&1
		else
			./fdtune sweep -q --db "$o/B.db" --plan "$o/iso.plan" --recheck 20 \
				> "$o/$w$round.log" 2>&1
		fi
		echo "$w round $round: exit $? in $(( $(date +%s) - t0 )) s" | tee -a "$o/summary.txt"
		grep -E "done|configurations in|references|held a" "$o/$w$round.log" >> "$o/summary.txt"
	done
done
rm -rf "$a"
