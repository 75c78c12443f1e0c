#!/bin/sh
# highorder.sh: the sweeps of issue 13 (high order at the copy roof), one
# step of results/NOTES.md each, on the GPU machine from the repository root
# after `make`:   sh results/h100/highorder.sh STEP DB
# then on the CPU: ./fdtune merge --db results/h100/fdtune.db DB
# Every configuration is validated as in any sweep. Steps:
#   zu   v10: the plane loop unrolled zu = 1..4 times, around the bests of
#        xyz fp32 R = 8, xyz fp64 R = 8 and iso3dfd fp32 R = 8 at 512^3
set -eu
step=$1
db=$2
s() { ./fdtune sweep --db "$db" -q -s exhaustive "$@"; }
case $step in
zu)
	s -f xyz -r 8 -n 512 -p vec=2,4 -p bx=32,64 -p by=2,4,8 -p ypt=1,2,4 -p lds=2 \
		-p nw=192 -p nt=0,1 -p pf=0,1 -p mb=0 -p ku=0 -p zd=0 -p zu=1,2,3,4
	s -f xyz -r 8 -n 512 --precision fp64 -p vec=1,2 -p bx=32,64 -p by=2,4 -p ypt=1,2,4 \
		-p lds=2 -p nw=192,512 -p nt=0 -p pf=0,1 -p mb=0 -p ku=0 -p zd=0 -p zu=1,2,3,4
	s -f iso3dfd -r 8 -n 512 -p vec=2,4 -p bx=32,64 -p by=4,8 -p ypt=1 -p lds=2 \
		-p nw=128,256 -p pad=0 -p ku=0 -p nt=1 -p pf=0,1 -p mb=0,2 -p zu=1,2,3,4
	;;
*)
	echo "highorder.sh: unknown step $step (see the comment at the top)" >&2
	exit 2
	;;
esac
