#!/bin/sh
# run.sh: runs every test program given, even after one fails, and ends with
# one line that adds them all up: "tests: N passed, N failed, N skipped".
# A program that exits non-zero, or ends without cmocka's summary, counts as
# a failure. Exit status 1 when anything failed. Used by `make check`.
#   sh tests/run.sh PROGRAM...
# JOBS programs run at a time (default: the number of processors), started
# in the order given (so the slowest should come first), each with its
# output in a log of its own and its own fresh compile cache (FDTUNE_CACHE,
# removed afterwards), as when it runs alone. The logs are printed whole, in
# the order given, each as "== PROGRAM", its output, "== PROGRAM: N s (cpu
# M s)" (its wall time, and the processor time of it and every process it
# waited for), as soon as it and every program before it have ended.
jobs=${JOBS:-$(nproc 2>/dev/null || echo 1)}
p=0 f=0 s=0 n=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
for t in "$@"; do
	n=$((n + 1))
	printf '%s\n' "$t" > "$work/$n.prog"
done
# one program: its output in N.log, then "STATUS SECONDS" in N.done
# shellcheck disable=SC2016
seq 1 "$n" | xargs -P "$jobs" -n 1 sh -c '
	t=$(cat "$0/$1.prog")
	mkdir "$0/$1.cache"
	t0=$(date +%s)
	FDTUNE_CACHE=$0/$1.cache "$t" > "$0/$1.log" 2>&1
	st=$?
	times > "$0/$1.times"    # not in a pipeline: a subshell has no children
	cpu=$(sed -n 2p "$0/$1.times" | tr "ms" "  " |
		awk "{ printf \"%.0f\", 60 * (\$1 + \$3) + \$2 + \$4 }")
	echo "$st $(($(date +%s) - t0)) $cpu" > "$0/$1.tmp" && mv "$0/$1.tmp" "$0/$1.done"
	rm -rf "$0/$1.cache"' "$work" &
pool=$!
log=$work/cur.log
count() { sed -n "s/^\[  $1 *\] \([0-9]*\) test.*/\1/p" "$log" | tail -n 1; }
i=0
while [ "$i" -lt "$n" ]; do
	i=$((i + 1))
	t=$(cat "$work/$i.prog")
	while [ ! -e "$work/$i.done" ]; do
		if ! kill -0 "$pool" 2>/dev/null && [ ! -e "$work/$i.done" ]; then
			echo "1 0 0" > "$work/$i.done"    # the pool ended without it
			break
		fi
		sleep 1
	done
	read -r st secs cpu < "$work/$i.done"
	cp "$work/$i.log" "$log" 2>/dev/null || : > "$log"
	echo "== $t"
	cat "$log"
	echo "== $t: $secs s (cpu $cpu s)"
	p=$((p + $(count PASSED | grep . || echo 0)))
	f=$((f + $(count FAILED | grep . || echo 0)))
	s=$((s + $(count SKIPPED | grep . || echo 0)))
	if [ "$st" -ne 0 ] && [ -z "$(count FAILED)" ] || ! grep -q 'test(s) run\.' "$log"; then
		echo "$t: exit status $st"
		f=$((f + 1))
	fi
done
wait "$pool"
echo "tests: $p passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
