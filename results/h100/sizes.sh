#!/bin/sh
# sizes.sh: the H100 measurements of issue 14 (tuning at users' own grid
# sizes), run on the GPU machine from the repository root after `make`:
#   sh results/h100/sizes.sh OUTDB [exhaustive|guided|all]
# Reads the 512^3 bests from results/h100/fdtune.db and writes every new run
# into OUTDB (merged into results/h100/fdtune.db afterwards with
# `fdtune merge`). Resumable: what OUTDB holds is not run again.
#  exhaustive  xyz fp32 R = 4 (the default space) and iso3dfd fp32 R = 8 (the
#              three spaces of iso3dfd.sh) at every size: the ground truth
#              that `fdtune replay` measures the transfer strategy against
#  guided      xyz fp32 R = 8 and xyz fp64 R = 8, guided 10% at every size
#              (fp64 at 512^3 too, which had only a small space)
# Both also run, at every size, the configuration that won at 512^3. The
# strategies are named: without -s, a database with other sizes recorded
# would get the transfer search.
set -eu
out=$1
part=${2:-all}
ref=results/h100/fdtune.db
sizes="1000x300x129 640x480x400 256 128x128x64"

# pargs DB F R P: the -p arguments of the best run of F, R, P at 512^3 in DB
pargs() {
	./fdtune best --db "$1" -f "$2" -r "$3" -n 512 --precision "$4" --json |
		sed 's/.*"params":{\([^}]*\)}.*/\1/; s/"//g' | tr ',' '\n' |
		sed 's/^\([a-z0-9]*\):\(.*\)$/-p \1=\2/' | tr '\n' ' '
}
# at512 DB F R P N: the 512^3 winner in DB of F, R, P measured at size N
at512() {
	# shellcheck disable=SC2046
	./fdtune sweep --db "$out" -q -s exhaustive -f "$2" -r "$3" --precision "$4" -n "$5" $(pargs "$1" "$2" "$3" "$4")
}

if [ "$part" != guided ]; then
	for n in $sizes; do
		./fdtune sweep --db "$out" -q -s exhaustive -f xyz -r 4 -n "$n"
		at512 "$ref" xyz 4 fp32 "$n"
		./fdtune sweep --db "$out" -q -s exhaustive -f iso3dfd -r 8 -n "$n"
		./fdtune sweep --db "$out" -q -s exhaustive -f iso3dfd -r 8 -n "$n" -p lds=2 -p nw=64,192,256,512 \
			-p vec=2,4 -p bx=32,64 -p by=2,4,8 -p ypt=1,2 -p pad=0 -p ku=0,1 -p nt=1 -p pf=0,1 -p mb=0,2
		./fdtune sweep --db "$out" -q -s exhaustive -f iso3dfd -r 8 -n "$n" -p lds=2 -p nw=128,192 -p vec=4 \
			-p bx=32 -p by=4 -p ypt=1 -p pad=0 -p ku=0 -p nt=1 -p pf=0,1 -p mb=3,4,6,8
		at512 "$ref" iso3dfd 8 fp32 "$n"
	done
fi
if [ "$part" != exhaustive ]; then
	./fdtune sweep --db "$out" -q -f xyz -r 8 -n 512 --precision fp64 -s guided --evals 10
	for n in $sizes; do
		./fdtune sweep --db "$out" -q -f xyz -r 8 -n "$n" -s guided --evals 10
		at512 "$ref" xyz 8 fp32 "$n"
		./fdtune sweep --db "$out" -q -f xyz -r 8 -n "$n" --precision fp64 -s guided --evals 10
		at512 "$out" xyz 8 fp64 "$n"
	done
fi
./fdtune best --db "$out"
