#!/bin/sh
# for the next session (1 GPU): this session's last commits on a GPU, in one
# t_gpu process: wave_gpu_ref before bad_kernels (whose fault ends the GPU's
# use), faults_and_hangs with the hold loaded at each open, race_one and
# wave_reuse: T_ONLY="?a*" (cmocka's filter has only * and ?) picks these five
TARGETS="fdtune build/t_gpu build/t_example" sh .device/prep.sh || exit 1
timeout 400 env ROOT="$PWD" FDTUNE=./fdtune RESULTS_DB=results/h100/fdtune.db \
	T_ONLY="?a*" ./build/t_gpu > "$OUT/tgpu.log" 2>&1
echo "t_gpu: rc $?"
grep -hE "^\[ +(OK|FAILED|SKIPPED) +\]|GPU reference within" "$OUT/tgpu.log"
