#!/bin/sh
# session 26 call 7 (1 GPU): the t_gpu cases changed this session, at HEAD
sh .device/tg.sh wave_gpu_ref plan_cache_term exported_speed exported_devices
grep -hE "^export|GPU reference within" "$OUT/tgpu.log"
