#!/bin/sh
# highorder.sh: the sweeps of issue 13 (high order at the copy roof), one
# step of results/NOTES.md each, on the GPU machine from the repository root
# after `make`:   sh results/h100/highorder.sh STEP DB
# then on the CPU: ./fdtune merge --db results/h100/fdtune.db DB
# Every configuration is validated as in any sweep. Steps:
#   zu   v10: the plane loop unrolled zu = 1..4 times, around the bests of
#        xyz fp32 R = 8, xyz fp64 R = 8 and iso3dfd fp32 R = 8 at 512^3
#   dyn  v11: the lds=2 ring in dynamic LDS (over 48 KiB): taller tiles and
#        deeper rings around the same bests, with zu
#   plan v12: xyz R = 1..7, fp32 and fp64, at 512^3: one plan of transfer
#        searches (1% of each space, zu 1..4 in it) within a budget
#   iso  v11 for iso3dfd alone (its pf domain stopped the dyn step there)
#   sizes v13: xyz fp32 R = 4 and 8 and iso3dfd fp32 R = 8 at 1000x300x129,
#        640x480x400 and 256^3: one plan of transfer searches (2%, zu in it),
#        seeded from the new 512^3 bests (its budget ran out in iso3dfd)
#   sizes-iso  v13 for iso3dfd alone, resuming what the first plan began
#   iso64  iso3dfd fp64 R = 8 at 512^3 (never measured): lds 2 around the
#        fp32 best's shape, with zu
#   mixed  v15: dxy, dxz and dyz fp32 R = 4 at 512^3, the whole default space
#        with lds 0 (no LDS, neighbours from L1) and lds 1, acc 0
#   mixed-odd  v15's lds 0 kernels validated at 61x37x29: a random 30% of
#        each space at R = 3 and 8 (fp32, acc 0 and 1) and R = 5 (fp64)
#   mixed-zu  v17: dxz and dyz fp32 R = 4 at 512^3, lds 0 around the v15
#        bests with the march unrolled zu = 1..9 times and nw 128, 256
#   mixed-nt  v18: dxz and dyz fp32 R = 4 at 512^3, lds 0 around the bests
#        with streaming stores (nt 0, 1)
#   mixed-ring  v19: dxz and dyz fp32 R = 4 at 512^3 with lds 2 (the async
#        ring of planes in dynamic LDS), then the same kernels validated at
#        61x37x29 (a random 30% at R = 3 and 8, fp32, acc 0 and 1)
#   fp64hi  xyz fp64 R = 6..8 at 512^3: transfer searches over 3% of each
#        space (zu 1..4), within a budget
#   wide  v21: exhaustive neighbourhoods where transfer searches sampled 1-3%:
#        xyz fp64 R = 6, 7 at 512^3 (v11's space of R = 8), iso3dfd fp32 R = 8
#        and xyz fp32 R = 8 at 1000x300x129 and 256^3 with short windows
#   wide32  v21: xyz fp32 R = 2, 3 and R = 5, 6, 7 at 512^3, the same way
#   wr   v22: iso3dfd R = 8 with prev's centre kept in LDS (wr 1) against wr 0:
#        fp32 and fp64 at 512^3, fp32 at 1000x300x129 and 256^3
#   wide4  v23: xyz fp32 R = 2, 3, 4 at 512^3 in the shape that wins at R = 5..8
#        (vec 4, 32x8, ypt 2, pf 2, zu 3-4) and around it; xyz fp32 R = 4 at
#        1000x300x129 and 256^3 the same way; iso3dfd fp32 R = 8 with wr 1 at
#        640x480x400, and at the other real sizes with by 2 and ypt 2
#   sizes4  v23: xyz fp32 R = 4 at 1000x300x129 and 256^3 around the new 512^3
#        best (vec 2, 64x8, ypt 2, pf 2, zu 4)
#   sizes4b v23: wide4's space of R = 4 at the other recorded sizes, 640x480x400
#        and 128x128x64, so that transfer between sizes sees the new shape
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
dyn)
	s -f xyz -r 8 -n 512 -p vec=2,4 -p bx=32,64 -p by=2,4,8 -p ypt=2,4 -p lds=2 \
		-p nw=192,512 -p nt=1 -p pf=1,2 -p mb=0 -p ku=0 -p zd=0 -p zu=2,3
	s -f xyz -r 8 -n 512 --precision fp64 -p vec=1,2 -p bx=32,64 -p by=2,4,8 -p ypt=2,4 \
		-p lds=2 -p nw=192,512 -p nt=0 -p pf=0,1,2 -p mb=0 -p ku=0 -p zd=0 -p zu=2,3,4
	s -f iso3dfd -r 8 -n 512 -p vec=4 -p bx=32,64 -p by=4,8,16 -p ypt=1,2 -p lds=2 \
		-p nw=128,256 -p pad=0 -p ku=0 -p nt=1 -p pf=0,1,2 -p mb=0 -p zu=2,4
	;;
iso)
	s -f iso3dfd -r 8 -n 512 -p vec=4 -p bx=32,64 -p by=4,8,16 -p ypt=1,2 -p lds=2 \
		-p nw=128,256 -p pad=0 -p ku=0 -p nt=1 -p pf=0,1,2 -p mb=0 -p zu=2,4
	;;
sizes)
	./fdtune sweep --db "$db" -q -s transfer --evals 2 --budget "${BUDGET:-240s}" \
		--plan results/h100/sizes-13.plan -p zu=1,2,3,4
	;;
iso64)
	s -f iso3dfd -r 8 -n 512 --precision fp64 -p vec=1,2 -p bx=32,64 -p by=4,8 -p ypt=1,2 \
		-p lds=2 -p nw=128,256 -p pad=0 -p ku=0 -p nt=1 -p pf=0,1 -p mb=0 -p zu=1,2,4
	;;
sizes-iso)
	./fdtune sweep --db "$db" -q -s transfer --evals 2 --budget "${BUDGET:-150s}" \
		--plan results/h100/sizes-13-iso.plan -p zu=1,2,3,4
	;;
mixed)
	for f in dxy dxz dyz; do s -f $f -r 4 -n 512 -p acc=0; done
	;;
mixed-zu)
	s -f dxz -r 4 -n 512 -p vec=4 -p bx=32,64,128 -p by=1,2 -p ypt=1 -p nw=128,256 -p lds=0 \
		-p pf=0,1 -p zu=1,3,5,9 -p acc=0
	s -f dyz -r 4 -n 512 -p vec=1,2 -p bx=32,64 -p by=4,8 -p ypt=4,8 -p nw=128,256 -p lds=0 \
		-p pf=0,1 -p zu=1,3,9 -p acc=0
	;;
mixed-nt)
	s -f dxz -r 4 -n 512 -p vec=4 -p bx=32,64,128 -p by=1,2,4 -p ypt=1 -p nw=64,128 -p lds=0 \
		-p pf=0,1 -p zu=1 -p nt=0,1 -p acc=0
	s -f dyz -r 4 -n 512 -p vec=1,2 -p bx=32,64 -p by=4,8 -p ypt=4,8 -p nw=128,256 -p lds=0 \
		-p pf=1 -p zu=1,9 -p nt=0,1 -p acc=0
	;;
mixed-ring)
	s -f dxz -r 4 -n 512 -p vec=2,4 -p bx=32,64,128 -p by=1,2,4 -p ypt=1,2 -p nw=128,256 \
		-p lds=2 -p pf=0,1,2 -p zu=1,9 -p acc=0
	s -f dyz -r 4 -n 512 -p vec=1,2,4 -p bx=32,64 -p by=4,8 -p ypt=2,4,8 -p nw=128,256 \
		-p lds=2 -p pf=0,1,2 -p zu=1,9 -p acc=0
	./fdtune sweep --db "$db" -q -s random --evals 30 -f dxz,dyz -n 61x37x29 -r 3,8 \
		-p lds=2 -p zu=1,3
	;;
mixed-odd)
	r() { ./fdtune sweep --db "$db" -q -s random --evals 30 -f dxy,dxz,dyz -n 61x37x29 -p lds=0 "$@"; }
	r -r 3,8
	r -r 5 --precision fp64
	;;
fp64hi)
	./fdtune sweep --db "$db" -q -s transfer --evals 3 --budget "${BUDGET:-120s}" -f xyz \
		-r 6,7,8 -n 512 --precision fp64 -p zu=1,2,3,4
	;;
wide)
	s -f xyz -r 6,7 -n 512 --precision fp64 -p vec=1,2 -p bx=32,64 -p by=2,4,8 -p ypt=2,4 \
		-p lds=2 -p nw=192,512 -p nt=0,1 -p pf=0,1,2 -p mb=0 -p ku=0 -p zd=0 -p zu=2,3,4
	s -f iso3dfd -r 8 -n 1000x300x129,256 -p vec=2,4 -p bx=32,64 -p by=4,8 -p ypt=1 -p lds=2 \
		-p nw=16,32,48,64,128 -p pad=0 -p ku=0 -p nt=1 -p pf=0,1,2 -p mb=0 -p zu=1,2,4
	s -f xyz -r 8 -n 1000x300x129,256 -p vec=2,4 -p bx=32,64 -p by=2,4,8 -p ypt=1,2 -p lds=2 \
		-p nw=24,32,48,64,96 -p nt=1 -p pf=1,2 -p mb=0 -p ku=0 -p zd=0 -p zu=2,3,4
	;;
wide32)
	s -f xyz -r 2,3 -n 512 -p vec=2,4 -p bx=32,64,128 -p by=2,4 -p ypt=2,4 -p lds=2 \
		-p nw=48,96,192 -p nt=0,1 -p pf=0,1 -p mb=0 -p ku=0 -p zd=0 -p zu=1,2,3
	s -f xyz -r 5,6,7 -n 512 -p vec=2,4 -p bx=32,64 -p by=2,4,8 -p ypt=1,2,4 -p lds=2 \
		-p nw=192,512 -p nt=0,1 -p pf=1,2 -p mb=0 -p ku=0 -p zd=0 -p zu=2,3,4
	;;
wr)
	s -f iso3dfd -r 8 -n 512 -p vec=2,4 -p bx=32,64 -p by=4,8 -p ypt=1,2 -p lds=2 \
		-p nw=128,256,512 -p pad=0 -p ku=0 -p nt=1 -p pf=0,1 -p mb=0 -p zu=1,2,4 -p wr=0,1
	s -f iso3dfd -r 8 -n 512 --precision fp64 -p vec=1,2 -p bx=32,64 -p by=4,8 -p ypt=1,2 \
		-p lds=2 -p nw=128,256 -p pad=0 -p ku=0 -p nt=1 -p pf=0,1 -p mb=0 -p zu=1,2 -p wr=0,1
	s -f iso3dfd -r 8 -n 1000x300x129,256 -p vec=2,4 -p bx=32,64 -p by=4,8 -p ypt=1 -p lds=2 \
		-p nw=32,48,64,128 -p pad=0 -p ku=0 -p nt=1 -p pf=0,1 -p mb=0 -p zu=1,2,4 -p wr=0,1
	;;
wide4)
	s -f xyz -r 2,3,4 -n 512 -p vec=2,4 -p bx=32,64 -p by=4,8 -p ypt=1,2,4 -p lds=2 \
		-p nw=96,192,512 -p nt=0 -p pf=1,2 -p mb=0 -p ku=0 -p zd=0 -p zu=2,3,4
	s -f xyz -r 4 -n 1000x300x129,256 -p vec=4 -p bx=32,64 -p by=4,8 -p ypt=1,2 -p lds=2 \
		-p nw=24,32,48,64 -p nt=0 -p pf=1,2 -p mb=0 -p ku=0 -p zd=0 -p zu=2,3,4
	s -f iso3dfd -r 8 -n 640x480x400 -p vec=2,4 -p bx=32,64 -p by=4,8 -p ypt=1 -p lds=2 \
		-p nw=48,64,128,256,512 -p pad=0 -p ku=0 -p nt=1 -p pf=0,1 -p mb=0 -p zu=1,2,4 -p wr=1
	s -f iso3dfd -r 8 -n 1000x300x129,256 -p vec=4 -p bx=32,64 -p by=2,4,8 -p ypt=1,2 \
		-p lds=2 -p nw=32,48,64,96 -p pad=0 -p ku=0 -p nt=1 -p pf=0,1 -p mb=0 -p zu=2,4 -p wr=1
	;;
sizes4)
	s -f xyz -r 4 -n 1000x300x129,256 -p vec=2 -p bx=32,64 -p by=4,8 -p ypt=1,2 -p lds=2 \
		-p nw=24,32,48,64 -p nt=0 -p pf=1,2 -p mb=0 -p ku=0 -p zd=0 -p zu=2,4
	;;
sizes4b)
	s -f xyz -r 4 -n 640x480x400,128x128x64 -p vec=2,4 -p bx=32,64 -p by=4,8 -p ypt=1,2,4 \
		-p lds=2 -p nw=96,192,512 -p nt=0 -p pf=1,2 -p mb=0 -p ku=0 -p zd=0 -p zu=2,3,4
	;;
plan)
	./fdtune sweep --db "$db" -q -s transfer --evals 1 --budget "${BUDGET:-240s}" -f xyz \
		-r 1,2,3,4,5,6,7 -n 512 --precision fp32,fp64 -p zu=1,2,3,4
	;;
*)
	echo "highorder.sh: unknown step $step (see the comment at the top)" >&2
	exit 2
	;;
esac
