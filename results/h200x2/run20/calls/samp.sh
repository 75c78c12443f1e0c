#!/bin/bash
# samp.sh OUT: every 0.5 s until killed, the states of the threads of the
# running "fdtune sweep --plan" and of its compile processes (fdtune
# __compile): one line a sample, "t R S D other | top wait channels of the
# S and D threads". What the compile threads wait on, where cpu is low.
# Bash builtins read /proc (a few forks a sample, not one a thread).
out=$1
start=$SECONDS
while sleep 0.5; do
	pids=$(pgrep -f "^[^ ]*fdtune (sweep .*--plan|__compile)")
	[ -n "$pids" ] || continue
	r=0; s=0; d=0; o=0; ch=()
	for p in $pids; do
		for t in /proc/"$p"/task/*; do
			read -r line < "$t/stat" 2>/dev/null || continue
			st=${line##*) }
			st=${st%% *}
			w=""
			read -r w < "$t/wchan" 2>/dev/null
			case "$st" in
			R) r=$((r + 1)) ;;
			S) s=$((s + 1)); ch+=("${w:-?}") ;;
			D) d=$((d + 1)); ch+=("D:${w:-?}") ;;
			*) o=$((o + 1)) ;;
			esac
		done
	done
	top=$(printf '%s\n' "${ch[@]}" | sort | uniq -c | sort -rn | head -n 6 | awk '{ printf "%s:%s ", $2, $1 }')
	echo "$((SECONDS - start)) $r $s $d $o | $top" >> "$out"
done
