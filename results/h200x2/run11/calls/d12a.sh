#!/bin/sh
# d12a.sh: build; t_gpu online_wave (issue 39's resumed bound of 20 steps);
# the opens' trace with and without MAP_POPULATE on 1 and 2 GPUs; ku 1 with
# the z window from the launch against the constant (A B A B rechecks)
TARGETS="fdtune build/libfdtune.a build/t_gpu" sh .device/prep.sh || exit 1
nproc; nvidia-smi -L
s=$(date +%s)
timeout 150 env ROOT=. FDTUNE=./fdtune RESULTS_DB=results/h100/fdtune.db T_ONLY=online_wave \
	./build/t_gpu > "$OUT/tgpu.log" 2>&1
echo "t_gpu online_wave: rc $? in $(( $(date +%s) - s )) s"
grep -E "^\[  (PASSED|FAILED|  SKIPPED)|FAILED|settle" "$OUT/tgpu.log" | tail -8
printf 'xyz 4 512\nxyz 8 512\niso3dfd 8 512\nxyz 4 640x480x400\n' > /tmp/plan
export FDTUNE_CACHE=/tmp/trc
for pop in 1 0 1 0; do for d in 0 0,1; do
	rm -f /tmp/t.db
	s=$(date +%s)
	if [ $pop = 1 ]; then unset FDTUNE_NOPOP; else export FDTUNE_NOPOP=1; fi
	FDTUNE_TRACE_OPEN=1 timeout 60 ./fdtune sweep --plan /tmp/plan -s exhaustive -p vec=4 -p bx=32 \
		--max-configs 300 --devices $d --db /tmp/t.db > /tmp/tr-$pop-$d.log 2>&1
	echo "== populate $pop devices $d: rc $? in $(( $(date +%s) - s )) s"
	grep -E "TRACE|put on|host data|wall clock|steps' starts" /tmp/tr-$pop-$d.log
	cp /tmp/tr-$pop-$d.log "$OUT/"
done; done
unset FDTUNE_NOPOP
export FDTUNE_CACHE=/tmp/kuc
k=/tmp/ku; mkdir -p $k
sp="-f iso3dfd -r 8 -n 128x128x64"
s=$(date +%s)
timeout 150 ./fdtune sweep -q --db $k/seed.db $sp -s exhaustive -p ku=1 -p vec=2,4 -p wr=0 \
	-p mb=0 -p nt=1 > $k/seed.log 2>&1
echo "ku seed: rc $? in $(( $(date +%s) - s )) s"; tail -4 $k/seed.log
cp $k/seed.db $k/A.db; cp $k/seed.db $k/B.db
for round in 1 2; do for w in A B; do
	s=$(date +%s)
	if [ $w = B ]; then export FDTUNE_KU_LAUNCH=1; else unset FDTUNE_KU_LAUNCH; fi
	timeout 60 ./fdtune sweep -q --db $k/$w.db $sp --recheck 20 > $k/$w$round.log 2>&1
	echo "ku $w round $round: rc $? in $(( $(date +%s) - s )) s"
	grep -E "rechecking|configurations in" $k/$w$round.log
done; done
unset FDTUNE_KU_LAUNCH
cp $k/*.log $k/A.db $k/B.db $k/seed.db "$OUT/"
