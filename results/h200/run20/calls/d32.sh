#!/bin/sh
# d32.sh: the CPUs of the 1-GPU machine: lscpu and the first CPU's SMT
# siblings, then a compile-only sweep of the same 200 xyz R = 8 sources
# (nw fixed, so one build a configuration) into an empty cache on 4, 8 and
# 16 of its CPUs (taskset, -j the same): how NVRTC's throughput scales
# with the vCPUs of this VM
sh .device/prep.sh || exit 1
lscpu | grep -iE "^CPU\(s\)|Thread|Core|Socket|Model name|NUMA node\(s\)|Hypervisor"
echo "cpu0 siblings: $(cat /sys/devices/system/cpu/cpu0/topology/thread_siblings_list 2>/dev/null)"
for n in 4 8 16; do
	rm -rf /tmp/cc$n && mkdir /tmp/cc$n
	s=$(date +%s%N)
	FDTUNE_CACHE=/tmp/cc$n taskset -c 0-$((n - 1)) ./fdtune sweep --compile-only -j $n -f xyz \
		-r 8 -n 512 -p nw=64 --max-configs 200 --db /tmp/cc$n/x.db > /tmp/cc$n.log 2>&1
	r=$? e=$(date +%s%N)
	echo "cpus $n: rc $r $(( (e - s) / 1000000 )) ms: $(grep -E 'done|configurations in' /tmp/cc$n.log | tail -2 | tr '\n' ' ')"
done
