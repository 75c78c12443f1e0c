#!/bin/sh
# x2.sh N PHASE...: build, then results/h100x2/scaling.sh /tmp/scal N PHASE...
# (PIN, LIMIT, COMMIT, SPACE from the env); copies the table, logs and the
# plans' databases to $OUT
n=$1; shift
sh .device/prep.sh || exit 1
nproc; nvidia-smi -L
for p in "$@"; do
	LIMIT=${LIMIT:-560} sh results/h100x2/scaling.sh /tmp/scal "$n" "$p"
	cp /tmp/scal/scaling.tsv /tmp/scal/times.txt /tmp/scal/anytime.txt "$OUT"/ 2>/dev/null
	(cd /tmp/scal && tar czf "$OUT/logs.tgz" *.log *.steps.tsv plan gpus.txt 2>/dev/null)
	# the plans' databases, for the anytime order's questions on the CPU machine
	(cd /tmp/scal && tar czf "$OUT/dbs.tgz" plan-*.db 2>/dev/null)
done
cat /tmp/scal/times.txt | tail -40
