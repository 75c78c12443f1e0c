#!/bin/sh
# d34.sh: the five-problem plan cold on one H200 (16 cores, as run18 call 2
# and run16's plan:1:cold), with every fdtune thread's CPU time sampled each
# 2 s from /proc (pid tid utime stime in ticks; a line "T time" a sample;
# "P pid argv" once a process): how busy the sweep's main thread, its
# compile threads and the worker are, so as to say whether the one process
# that feeds the GPUs would keep up with twice the rate on two.
C=$COMMIT
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
rm -f /tmp/d34.stop
( seen=" "
  while [ ! -e /tmp/d34.stop ]; do
	echo "T $(date +%s.%N)"
	for p in $(pgrep -x fdtune); do
		case "$seen" in *" $p "*) ;; *) seen="$seen$p "
			echo "P $p $(tr '\0' ' ' < /proc/$p/cmdline 2>/dev/null | cut -c1-120)";; esac
		for d in /proc/$p/task/*; do
			s=$(cat $d/stat 2>/dev/null) || continue
			echo "$p ${d##*/} $(echo "$s" | sed 's/.*) //' | cut -d' ' -f12,13)"
		done
	done
	sleep 2
  done > "$OUT/thr.txt" ) &
COMMIT=$C LIMIT=300 sh .device/x2.sh 1 plan:1:cold > /dev/null 2>&1
touch /tmp/d34.stop; wait
cat /tmp/scal/scaling.tsv /tmp/scal/anytime.txt
grep -hE "wall clock|problem ./5|run by GPUs|held no" /tmp/scal/plan-1-cold.log
getconf CLK_TCK
