#!/bin/sh
# run.sh: runs every test program given, even after one fails, and ends with
# one line that adds them all up: "tests: N passed, N failed, N skipped".
# A program that exits non-zero, or ends without cmocka's summary, counts as
# a failure. Each program's wall time follows its output ("== t: N s").
# Exit status 1 when anything failed. Used by `make check`.
p=0 f=0 s=0 log=$(mktemp)
# the compile cache of the sweeps under test: fresh, and removed afterwards
FDTUNE_CACHE=$(mktemp -d)
export FDTUNE_CACHE
count() { sed -n "s/^\[  $1 *\] \([0-9]*\) test.*/\1/p" "$log" | tail -n 1; }
for t in "$@"; do
	echo "== $t"
	t0=$(date +%s)
	"$t" > "$log" 2>&1
	st=$?
	cat "$log"
	echo "== $t: $(($(date +%s) - t0)) s"
	p=$((p + $(count PASSED | grep . || echo 0)))
	f=$((f + $(count FAILED | grep . || echo 0)))
	s=$((s + $(count SKIPPED | grep . || echo 0)))
	if [ "$st" -ne 0 ] && [ -z "$(count FAILED)" ] || ! grep -q 'test(s) run\.' "$log"; then
		echo "$t: exit status $st"
		f=$((f + 1))
	fi
done
rm -rf "$log" "$FDTUNE_CACHE"
echo "tests: $p passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
