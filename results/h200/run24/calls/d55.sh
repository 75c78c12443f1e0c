#!/bin/sh
# session 26 call 4 (1 GPU): the GPU reference (22a58ec) checked: t_gpu
# wave_gpu_ref (against the CPU one), fp64_families (both checks, fp64),
# then one iso3dfd R=8 512^3 problem's start with the CPU reference
# (FDTUNE_GPU_REF=0) and with the GPU one, 40 configurations each, warm cache
sh .device/tg.sh wave_gpu_ref fp64_families
for g in 0 1 0 1; do
	s=$(date +%s.%N)
	FDTUNE_GPU_REF=$g ./fdtune sweep -f iso3dfd -r 8 -n 512 -p vec=4 -s random --max-configs 40 \
		--db /tmp/g$g.db > "$OUT/start-$g.log" 2>&1
	echo "FDTUNE_GPU_REF=$g: rc $? in $(echo "$(date +%s.%N) - $s" | bc) s" | tee -a "$OUT/start.txt"
	grep -hE "wall clock|references made|fields put|before the first|sweep [0-9]+ " "$OUT/start-$g.log" | tee -a "$OUT/start.txt"
done
grep -h "GPU reference within" "$OUT/tgpu.log"
